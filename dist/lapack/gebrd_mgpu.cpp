// SPDX-License-Identifier: BSD-3-Clause
// gebrd_mgpu: blocked bidiagonal reduction over every device of every rank (see the
// header for how the work is split). The comments follow LAPACK's ZLABRD step by step;
// "row side" quantities (indexed by A's columns: Y, the row reflectors) live with the
// column's owner, "column side" ones (indexed by A's rows: the panel P, X) on every device.
#include "dist/lapack/gebrd_mgpu.hpp"

#include <algorithm>
#include <chrono>
#include <memory>
#include <vector>

#include "core/error.hpp"
#include "core/memory.hpp"
#include "dist/detail/column_range.hpp"
#include "dist/detail/device_collectives.hpp"
#include "dist/detail/mgpu_common.hpp"
#include "dist/lapack/detail/panel_width.hpp"
#include "dist/lapack/detail/phase_clock.hpp"
#include "kernels/blas.hpp"
#include "kernels/labrd_kernels.hpp"
#include "kernels/latrd_kernels.hpp"

namespace mgblas {
namespace {

/// Widest panel (the same bound as the tridiagonal reduction's).
constexpr int64_t kMaxPanel = kernels::kLatrdMaxPanel;

// One local device's panel copy and scratch.
template <Scalar T>
struct PanelSpace {
  DeviceBuffer<T> P;     // the panel A(i:m, i:i+b), ld m - i: column reflectors
  DeviceBuffer<T> X;     // the panel's X, rows i..m-1, same ld
  DeviceBuffer<T> Y;     // the panel's Y, one row per local column of A, ld ldy
  DeviceBuffer<T> Ut;    // U^H: the panel's row reflectors as columns, ld ldy (so every
                         // product with U is a tall one, and runs at the GEMV's speed)
  DeviceBuffer<T> sums;  // the per-column sum (see Gebrd::Sums)
  DeviceBuffer<T> coef;  // [0, kb]: conj(Y(h, :)); [kb+1, 2kb+2): U(:, h) with its head 1
  DeviceBuffer<T> w;     // [0, kb): conj of a row of P or X; [kb, 3kb): small products
  DeviceBuffer<T> s;     // scalars: [0] column scale, [1] row scale, [2] sum of squares
};

template <Scalar T>
class Gebrd {
 public:
  using R = real_type_t<T>;
  Gebrd(DistMatrix<T>& A, int64_t kb, ReducerKind transport, GebrdProfile* profile)
      : A_(A), ctx_(A.context()), L_(A.layout()), m_(L_.m()), n_(L_.n()), ld_(A.ld()),
        kb_(kb), coll_(ctx_, transport), space_(ctx_.num_devices()), clock_(ctx_, profile) {
    const auto rows = static_cast<std::size_t>(m_), kbs = static_cast<std::size_t>(kb);
    for (int dd = 0; dd < devices(); ++dd) {
      const Device& dev = ctx_.device(dd);
      PanelSpace<T>& s = space_[dd];
      const int64_t ldy = std::max<int64_t>(1, nloc(dd));
      s.P = DeviceBuffer<T>(dev, rows * kbs);
      s.X = DeviceBuffer<T>(dev, rows * kbs);
      s.Y = DeviceBuffer<T>(dev, static_cast<std::size_t>(ldy) * kbs);
      s.Ut = DeviceBuffer<T>(dev, static_cast<std::size_t>(ldy) * kbs);
      s.sums = DeviceBuffer<T>(dev, 2 * rows + 4 * kbs + 4);
      s.coef = DeviceBuffer<T>(dev, 2 * kbs + 2);
      s.w = DeviceBuffer<T>(dev, 3 * kbs);
      s.s = DeviceBuffer<T>(dev, 4);
    }
  }

  /// Reduces A; d, e, tauq, taup: each local device's outputs.
  void run(const std::vector<R*>& d, const std::vector<R*>& e, const std::vector<T*>& tauq,
           const std::vector<T*>& taup) {
    const int64_t k = std::min(m_, n_);
    if (k == 0) return;
    for (int dd = 0; dd < devices(); ++dd) {
      // Reflectors that LAPACK leaves as the identity (G(k-1) or H(k-1)) keep tau = 0.
      const Device& dev = ctx_.device(dd);
      dev.make_current();
      memset_bytes(dev, tauq[dd], 0, static_cast<std::size_t>(k) * sizeof(T), true);
      memset_bytes(dev, taup[dd], 0, static_cast<std::size_t>(k) * sizeof(T), true);
    }
    d_ = d;
    e_ = e;
    tauq_ = tauq;
    taup_ = taup;
    clock_.restart();
    for (int64_t i = 0; i < k; i += kb_) panel(i, std::min(kb_, k - i));
    coll_.wait();
  }

 private:
  // Offsets into PanelSpace::sums for the column c (m1 = m - c - 1 rows below it; jy, ju
  // columns of Y and rows of U in the corrections): the devices' shares of A u (z), of
  // Y^H u (q1), of U u (q2), of |row|^2 (ss) and, from the owner of the head column h
  // alone, the row's alpha, h's column (a1), conj(Y(h, :)) (y1) and U(:, h) (u1).
  struct Sums {
    int64_t m1, jy, ju;
    int64_t z() const { return 0; }
    int64_t q1() const { return m1; }
    int64_t q2() const { return m1 + jy; }
    int64_t ss() const { return q2() + ju; }
    int64_t alpha() const { return ss() + 1; }
    int64_t a1() const { return alpha() + 1; }
    int64_t y1() const { return a1() + m1; }
    int64_t u1() const { return y1() + jy; }
    int64_t size() const { return u1() + ju + 1; }
  };

  int devices() const { return ctx_.num_devices(); }
  int global(int dd) const { return ctx_.device_offset() + dd; }
  bool upper() const { return m_ >= n_; }
  int64_t nloc(int dd) const { return L_.local_n(global(dd)); }
  // First local column of device dd at or after global column c.
  int64_t lbegin(int dd, int64_t c) const { return detail::local_begin(L_, global(dd), c); }
  int owner_local(int64_t c) const { return ctx_.local_index_of(L_.owner(c)); }
  T* Aloc(int dd) { return A_.local(dd); }
  // A(r, q) for local column q of device dd (null on a device without columns, whose
  // products are all empty).
  T* at(int dd, int64_t r, int64_t q) {
    T* base = Aloc(dd);
    return base ? base + r + q * ld_ : nullptr;
  }

  // y = alpha op(A) x + beta y through the device's engine; nothing when y is empty, and
  // only the beta part (beta is 0 or 1 here) when the inner dimension is.
  void mv(const Device& dev, Op op, int64_t rows, int64_t cols, T alpha, const T* A,
          int64_t lda, const T* x, int64_t incx, T beta, T* y, int64_t incy) {
    const int64_t out = op == Op::N ? rows : cols, inner = op == Op::N ? cols : rows;
    if (out <= 0) return;
    if (inner <= 0) {
      if (beta == T(0)) {
        dev.make_current();
        for (int64_t r = 0; r < out; ++r) memset_bytes(dev, y + r * incy, 0, sizeof(T), true);
      }
      return;
    }
    gemv<T>(dev, op, rows, cols, alpha, A, std::max<int64_t>(lda, 1), x, incx, beta,
                     y, incy);
  }

  void panel(int64_t i, int64_t b) {
    const int64_t m = m_ - i;  // rows of the panel
    // Every device gets the panel's original columns (they become the column reflectors).
    const int ol = owner_local(i);
    if (ol >= 0) {
      const Device& dev = ctx_.device(ol);
      dev.make_current();
      copy_matrix(dev, m, b, static_cast<const T*>(at(ol, i, L_.local_col(i))), ld_,
                  space_[ol].P.data(), m, /*async=*/true);
    }
    clock_.charge(&GebrdProfile::update);
    std::vector<T*> P;
    for (auto& s : space_) P.push_back(s.P.data());
    coll_.broadcast<T>(P, m * b, L_.owner(i));
    clock_.charge(&GebrdProfile::comm);

    for (int64_t j = 0; j < b; ++j) {
      const int64_t c = i + j;
      if (upper()) {
        column_reflector(i, j, m);
        if (c + 1 < n_) {
          products_y(i, j, m);
          row_reflector(i, j, m);
        }
      } else {
        row_reflector(i, j, m);
        if (c + 1 < m_) {
          column_reflector(i, j, m);
          products_y(i, j, m);
        }
      }
    }
    update(i, b, m);
  }

  // Column c = i + j of the panel (P's column j) on every device: its update with the
  // panel's earlier reflectors, then H(c) from it (v in P, tauq[c], d[c] or e[c]), then
  // the small products s1 = V^H v and s2 = X^H v of Y's corrections (in w).
  // Upper: rows c.. (ZLABRD "Update A(i:m,i)"); lower: rows c+1.. ("Update A(i+1:m,i)").
  void column_reflector(int64_t i, int64_t j, int64_t m) {
    const int64_t c = i + j, rr = upper() ? j : j + 1, mr = m - rr;
    const int64_t jx = upper() ? j : j + 1;  // columns of X in the update
    for (int dd = 0; dd < devices(); ++dd) {
      const Device& dev = ctx_.device(dd);
      PanelSpace<T>& s = space_[dd];
      T* v = s.P.data() + rr + j * m;
      const T* ycoef = s.coef.data();
      const T* ucoef = s.coef.data() + kb_ + 1;
      // a -= V(rr:m, 0:j) conj(Y(c, 0:j)) + X(rr:m, 0:jx) U(0:jx, c)
      mv(dev, Op::N, mr, j, T(-1), s.P.data() + rr, m, ycoef, 1, T(1), v, 1);
      mv(dev, Op::N, mr, jx, T(-1), s.X.data() + rr, m, ucoef, 1, T(1), v, 1);
      // H(c): beta into d (upper) or e (lower); v(0) = 1.
      T* scalars = s.s.data();
      kernels::labrd_sumsq<T>(dev, mr - 1, v + 1, 1, scalars + 2);
      kernels::labrd_reflector<T>(dev, v, scalars + 2, (upper() ? d_ : e_)[dd] + c,
                                  tauq_[dd] + c, scalars, v, nullptr);
      kernels::labrd_scal<T>(dev, mr - 1, scalars, v + 1, 1);
    }
    clock_.charge(&GebrdProfile::panel);
  }

  // Y(c+1:n, j) = tauq[c] (A(rows, c+1:n)^H v - Y(c+1:n, 0:j) s1 - U(0:jx, c+1:n)^H s2),
  // rows = c.. (upper) or c+1.. (lower): each device on its own columns after c.
  void products_y(int64_t i, int64_t j, int64_t m) {
    const int64_t c = i + j, rr = upper() ? j : j + 1, mr = m - rr;
    const int64_t jx = upper() ? j : j + 1;
    for (int dd = 0; dd < devices(); ++dd) {
      const Device& dev = ctx_.device(dd);
      PanelSpace<T>& s = space_[dd];
      const T* v = s.P.data() + rr + j * m;
      T* s1 = s.w.data() + kb_;
      T* s2 = s1 + kb_;
      mv(dev, Op::C, mr, j, T(1), s.P.data() + rr, m, v, 1, T(0), s1, 1);
      mv(dev, Op::C, mr, jx, T(1), s.X.data() + rr, m, v, 1, T(0), s2, 1);
      const int64_t q0 = lbegin(dd, c + 1), nq = nloc(dd) - q0, ldy = std::max<int64_t>(1, nloc(dd));
      T* y = s.Y.data() + q0 + j * ldy;
      mv(dev, Op::C, mr, nq, T(1), at(dd, i + rr, q0), ld_, v, 1, T(0), y, 1);
      mv(dev, Op::N, nq, j, T(-1), s.Y.data() + q0, ldy, s1, 1, T(1), y, 1);
      mv(dev, Op::N, nq, jx, T(-1), s.Ut.data() + q0, ldy, s2, 1, T(1), y, 1);
      kernels::labrd_scal<T>(dev, nq, tauq_[dd] + c, y, 1);
    }
    clock_.charge(&GebrdProfile::products);
  }

  // Row c of A from its head column h (c + 1 upper, c lower) on: its update with the
  // panel's reflectors on each device's own columns, the devices' shares of A u and of
  // the corrections summed in one collective, then G(c) (taup[c], e[c] or d[c]) and the
  // panel's column X(c+1:m, j) on every device (ZLABRD "Update A(i,i+1:n)", "Generate
  // reflection P(i)", "Compute X(i+1:m,i)"). The row is held conjugated meanwhile, as
  // ZLABRD does.
  void row_reflector(int64_t i, int64_t j, int64_t m) {
    const int64_t c = i + j, h = upper() ? c + 1 : c;
    const Sums S{m_ - c - 1, upper() ? j + 1 : j, j};
    const int oh = owner_local(h);
    std::vector<T*> sums;
    for (int dd = 0; dd < devices(); ++dd) {
      const Device& dev = ctx_.device(dd);
      PanelSpace<T>& s = space_[dd];
      const int64_t ldy = std::max<int64_t>(1, nloc(dd));
      const int64_t qy = lbegin(dd, h), ny = nloc(dd) - qy;      // row entries h..n-1
      const int64_t qx = lbegin(dd, h + 1), nx = nloc(dd) - qx;  // beyond the head
      T* rowy = at(dd, c, qy);  // row c from the head on, stride ld
      T* w1 = s.w.data();
      kernels::labrd_lacgv<T>(dev, ny, rowy, ld_);
      // row -= Y(h:n, 0:jy) conj(V(c, 0:jy)) + U(0:ju, h:n)^H conj(X(c, 0:ju))
      kernels::labrd_copy<T>(dev, S.jy, s.P.data() + j, m, w1, 1, true);
      mv(dev, Op::N, ny, S.jy, T(-1), s.Y.data() + qy, ldy, w1, 1, T(1), rowy, ld_);
      kernels::labrd_copy<T>(dev, S.ju, s.X.data() + j, m, w1, 1, true);
      mv(dev, Op::N, ny, S.ju, T(-1), s.Ut.data() + qy, ldy, w1, 1, T(1), rowy, ld_);
      // This device's shares, with r = the row beyond the head.
      T* sm = s.sums.data();
      dev.make_current();
      memset_bytes(dev, sm, 0, static_cast<std::size_t>(S.size()) * sizeof(T), true);
      const T* r = at(dd, c, qx);
      mv(dev, Op::N, S.m1, nx, T(1), at(dd, c + 1, qx), ld_, r, ld_, T(1), sm + S.z(), 1);
      mv(dev, Op::C, nx, S.jy, T(1), s.Y.data() + qx, ldy, r, ld_, T(1), sm + S.q1(), 1);
      mv(dev, Op::C, nx, S.ju, T(1), s.Ut.data() + qx, ldy, r, ld_, T(1), sm + S.q2(), 1);
      kernels::labrd_sumsq<T>(dev, nx, r, ld_, sm + S.ss());
      if (dd == oh) {
        const int64_t q = L_.local_col(h);
        kernels::labrd_copy<T>(dev, 1, at(dd, c, q), 1, sm + S.alpha(), 1, false);
        kernels::labrd_copy<T>(dev, S.m1, at(dd, c + 1, q), 1, sm + S.a1(), 1, false);
        kernels::labrd_copy<T>(dev, S.jy, s.Y.data() + q, ldy, sm + S.y1(), 1, true);
        kernels::labrd_copy<T>(dev, S.ju, at(dd, i, q), 1, sm + S.u1(), 1, false);
      }
      sums.push_back(sm);
    }
    clock_.charge(&GebrdProfile::products);
    if (L_.num_devices() > 1) coll_.allreduce_sum<T>(sums, S.size());
    clock_.charge(&GebrdProfile::comm);
    for (int dd = 0; dd < devices(); ++dd) {
      const Device& dev = ctx_.device(dd);
      PanelSpace<T>& s = space_[dd];
      T* sm = s.sums.data();
      T* scalars = s.s.data();
      T* head = dd == oh ? at(dd, c, L_.local_col(h)) : nullptr;
      kernels::labrd_reflector<T>(dev, sm + S.alpha(), sm + S.ss(), (upper() ? e_ : d_)[dd] + c,
                                  taup_[dd] + c, scalars + 1, head, sm + S.u1() + S.ju);
      // The next column's update coefficients: conj(Y(h, 0:jy)) and U(0:ju+1, h).
      T* coef = s.coef.data();
      kernels::labrd_copy<T>(dev, S.jy, sm + S.y1(), 1, coef, 1, false);
      kernels::labrd_copy<T>(dev, S.ju + 1, sm + S.u1(), 1, coef + kb_ + 1, 1, false);
      // u = (1, scale r): A u = a1 + scale z, Y^H u = y1 + scale q1, U u = u1 + scale q2.
      T* x = s.X.data() + (j + 1) + j * m;
      kernels::labrd_copy<T>(dev, S.m1, sm + S.a1(), 1, x, 1, false);
      kernels::labrd_axpy<T>(dev, S.m1, scalars + 1, sm + S.z(), x);
      kernels::labrd_axpy<T>(dev, S.jy, scalars + 1, sm + S.q1(), sm + S.y1());
      kernels::labrd_axpy<T>(dev, S.ju, scalars + 1, sm + S.q2(), sm + S.u1());
      // X(c+1:m, j) = taup (A u - V(c+1:m, 0:jy) Y^H u - X(c+1:m, 0:ju) U u)
      mv(dev, Op::N, S.m1, S.jy, T(-1), s.P.data() + j + 1, m, sm + S.y1(), 1, T(1), x, 1);
      mv(dev, Op::N, S.m1, S.ju, T(-1), s.X.data() + j + 1, m, sm + S.u1(), 1, T(1), x, 1);
      kernels::labrd_scal<T>(dev, S.m1, taup_[dd] + c, x, 1);
      // The row itself: u's tail on the owners of its columns, into U^H's column j
      // (the row is conj(U(j, :)) until it is conjugated back).
      const int64_t qy = lbegin(dd, h), qx = lbegin(dd, h + 1), ldy = std::max<int64_t>(1, nloc(dd));
      kernels::labrd_scal<T>(dev, nloc(dd) - qx, scalars + 1, at(dd, c, qx), ld_);
      kernels::labrd_copy<T>(dev, nloc(dd) - qy, at(dd, c, qy), ld_, s.Ut.data() + qy + j * ldy,
                             1, false);
      kernels::labrd_lacgv<T>(dev, nloc(dd) - qy, at(dd, c, qy), ld_);
    }
    clock_.charge(&GebrdProfile::panel);
  }

  // After the panel's b columns: A(i+b:m, i+b:n) -= V Y^H + X U on each device's own
  // columns (ZGEBRD's two GEMMs), the column reflectors back into the owner's columns,
  // then d and e onto A's diagonals.
  void update(int64_t i, int64_t b, int64_t m) {
    const int64_t mt = m - b;
    for (int dd = 0; dd < devices(); ++dd) {
      const Device& dev = ctx_.device(dd);
      PanelSpace<T>& s = space_[dd];
      const int64_t q0 = lbegin(dd, i + b), nq = nloc(dd) - q0, ldy = std::max<int64_t>(1, nloc(dd));
      if (mt > 0 && nq > 0) {
        T* C = at(dd, i + b, q0);
        gemm<T>(dev, Op::N, Op::C, mt, nq, b, T(-1), s.P.data() + b, m, s.Y.data() + q0, ldy,
                T(1), C, ld_);
        gemm<T>(dev, Op::N, Op::C, mt, nq, b, T(-1), s.X.data() + b, m, s.Ut.data() + q0, ldy,
                T(1), C, ld_);
      }
    }
    const int ol = owner_local(i);
    if (ol >= 0) {
      const Device& dev = ctx_.device(ol);
      const int64_t q = L_.local_col(i);
      kernels::labrd_store<T>(dev, m, b, space_[ol].P.data(), m, at(ol, i, q), ld_);
      kernels::labrd_put<T>(dev, b, d_[ol] + i, at(ol, i, q), ld_ + 1);
      const int64_t k = std::min(m_, n_), ne = std::min(b, k - 1 - i);  // e[i .. i+ne)
      if (upper()) {
        // e[c] at A(c, c+1): the panel's own columns but the last ...
        kernels::labrd_put<T>(dev, std::min(ne, b - 1), e_[ol] + i, at(ol, i, q + 1), ld_ + 1);
      } else {
        kernels::labrd_put<T>(dev, ne, e_[ol] + i, at(ol, i + 1, q), ld_ + 1);
      }
    }
    // ... and, upper, the last one's A(i+b-1, i+b) on the owner of column i + b.
    if (upper() && i + b < n_ && i + b - 1 < std::min(m_, n_) - 1) {
      const int on = owner_local(i + b);
      if (on >= 0)
        kernels::labrd_put<T>(ctx_.device(on), 1, e_[on] + i + b - 1,
                              at(on, i + b - 1, L_.local_col(i + b)), ld_ + 1);
    }
    clock_.charge(&GebrdProfile::update);
  }

  DistMatrix<T>& A_;
  Context& ctx_;
  const BlockCyclic1D& L_;
  int64_t m_, n_, ld_, kb_;
  detail::DeviceCollectives coll_;
  std::vector<PanelSpace<T>> space_;
  detail::PhaseClock<GebrdProfile> clock_;
  std::vector<R*> d_, e_;
  std::vector<T*> tauq_, taup_;
};

// Checks every argument on this rank; the caller agrees on the outcome over the ranks.
template <Scalar T>
void check_gebrd(const Context& ctx, const DistMatrix<T>& A, int64_t kb) {
  const BlockCyclic1D& L = A.layout();
  detail::check_matrix(ctx, A);
  MGBLAS_CHECK_ARG(kb >= 1 && kb <= kMaxPanel && L.nb() % kb == 0, "opts.panel", kb,
                   "a divisor of A's nb = ", L.nb(), " in [1, ", kMaxPanel,
                   "], or 0 (automatic)");
}

int64_t signature(const BlockCyclic1D& L, std::size_t elem, int64_t kb, ReducerKind transport,
                  int64_t form) {
  return detail::call_signature({'B', L.m(), L.n(), L.nb(), L.first(), L.num_devices(),
                                 static_cast<int64_t>(elem), kb,
                                 static_cast<int64_t>(transport), form});
}

template <Scalar T>
void add_total(const GebrdOptions& opts, std::chrono::steady_clock::time_point start) {
  if (opts.profile)
    opts.profile->total +=
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

}  // namespace

template <Scalar T>
void gebrd_mgpu(DistMatrix<T>& A, DistVector<real_type_t<T>>& d, DistVector<real_type_t<T>>& e,
                DistVector<T>& tauq, DistVector<T>& taup, const GebrdOptions& opts) {
  const auto start = std::chrono::steady_clock::now();
  Context& ctx = A.context();
  const BlockCyclic1D& L = A.layout();
  const int64_t kb = detail::panel_width(L.nb(), opts.panel);
  const int64_t k = std::min(L.m(), L.n());
  detail::agree_on_arguments(
      ctx.comm(), "gebrd_mgpu", signature(L, sizeof(T), kb, opts.transport, 1), [&] {
        check_gebrd(ctx, A, kb);
        detail::check_dist_vector(ctx, d, "d", k, nullptr);
        detail::check_dist_vector(ctx, e, "e", std::max<int64_t>(0, k - 1), nullptr);
        detail::check_dist_vector(ctx, tauq, "tauq", k, nullptr);
        detail::check_dist_vector(ctx, taup, "taup", k, nullptr);
      });
  std::vector<real_type_t<T>*> dv, ev;
  std::vector<T*> qv, pv;
  for (int dd = 0; dd < ctx.num_devices(); ++dd) {
    dv.push_back(d.local(dd));
    ev.push_back(e.local(dd));
    qv.push_back(tauq.local(dd));
    pv.push_back(taup.local(dd));
  }
  Gebrd<T>(A, kb, opts.transport, opts.profile).run(dv, ev, qv, pv);
  add_total<T>(opts, start);
}

template <Scalar T>
void gebrd_mgpu(DistMatrix<T>& A, real_type_t<T>* d, real_type_t<T>* e, T* tauq, T* taup,
                const GebrdOptions& opts) {
  using R = real_type_t<T>;
  const auto start = std::chrono::steady_clock::now();
  Context& ctx = A.context();
  const BlockCyclic1D& L = A.layout();
  const int64_t k = std::min(L.m(), L.n()), k1 = std::max<int64_t>(0, k - 1);
  const int64_t kb = detail::panel_width(L.nb(), opts.panel);
  // The device outputs are made inside the agreement, so a failed allocation on one rank
  // raises on every rank.
  std::unique_ptr<DistVector<R>> dd, ed;
  std::unique_ptr<DistVector<T>> qd, pd;
  detail::agree_on_arguments(
      ctx.comm(), "gebrd_mgpu", signature(L, sizeof(T), kb, opts.transport, 0), [&] {
        check_gebrd(ctx, A, kb);
        MGBLAS_CHECK_PTR(d, "d", k > 0);
        MGBLAS_CHECK_PTR(e, "e", k1 > 0);
        MGBLAS_CHECK_PTR(tauq, "tauq", k > 0);
        MGBLAS_CHECK_PTR(taup, "taup", k > 0);
        dd = std::make_unique<DistVector<R>>(A.context_ptr(), k);
        ed = std::make_unique<DistVector<R>>(A.context_ptr(), k1);
        qd = std::make_unique<DistVector<T>>(A.context_ptr(), k);
        pd = std::make_unique<DistVector<T>>(A.context_ptr(), k);
      });
  std::vector<R*> dv, ev;
  std::vector<T*> qv, pv;
  for (int dev = 0; dev < ctx.num_devices(); ++dev) {
    dv.push_back(dd->local(dev));
    ev.push_back(ed->local(dev));
    qv.push_back(qd->local(dev));
    pv.push_back(pd->local(dev));
  }
  Gebrd<T>(A, kb, opts.transport, opts.profile).run(dv, ev, qv, pv);
  // Every device holds the same outputs: each rank reads its first device's.
  const Device& dev0 = ctx.device(0);
  dev0.make_current();
  copy_vector(dev0, k, static_cast<const R*>(dv[0]), d);
  copy_vector(dev0, k1, static_cast<const R*>(ev[0]), e);
  copy_vector(dev0, k, static_cast<const T*>(qv[0]), tauq);
  copy_vector(dev0, k, static_cast<const T*>(pv[0]), taup);
  add_total<T>(opts, start);
}

#define MGBLAS_INSTANTIATE(T)                                                                 \
  template void gebrd_mgpu<T>(DistMatrix<T>&, DistVector<real_type_t<T>>&,                   \
                              DistVector<real_type_t<T>>&, DistVector<T>&, DistVector<T>&,   \
                              const GebrdOptions&);                                          \
  template void gebrd_mgpu<T>(DistMatrix<T>&, real_type_t<T>*, real_type_t<T>*, T*, T*,      \
                              const GebrdOptions&);
MGBLAS_FOR_EACH_SCALAR(MGBLAS_INSTANTIATE)
#undef MGBLAS_INSTANTIATE

}  // namespace mgblas
