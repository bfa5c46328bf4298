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
#include "dist/detail/device_collectives.hpp"
#include "dist/detail/mgpu_common.hpp"
#include "dist/lapack/detail/panel_width.hpp"
#include "dist/lapack/detail/phase_clock.hpp"
#include "kernels/blas.hpp"
#include "kernels/columns.hpp"
#include "kernels/labrd_kernels.hpp"
#include "layouts/block_cyclic.hpp"

namespace mgblas {
namespace {

constexpr int64_t kMaxPanel = kernels::kLabrdMaxPanel;

// One local device's panel copy and scratch.
template <Scalar T>
struct PanelSpace {
  DeviceBuffer<T> P;     // the panel A(i:m, i:i+b), ld m - i: column reflectors
  DeviceBuffer<T> X;     // the panel's X, rows i..m-1, same ld
  DeviceBuffer<T> Y;     // the panel's Y, one row per local column of A, ld ldy
  DeviceBuffer<T> Ut;    // U^H: the panel's row reflectors as columns, ld ldy (so every
                         // product with U is a tall one)
  DeviceBuffer<T> sums;  // the per-column sum (kernels::LabrdSums)
  DeviceBuffer<T> coef;  // [0, kb]: conj(Y(h, :)); [kb+1, 2kb+2): U(:, h) with its head 1
  DeviceBuffer<T> s;     // Y's corrections of the last column: V^H v, X^H v
  DeviceBuffer<T> VX;    // the trailing update's [V X] and [Y U^H], so that it is one
  DeviceBuffer<T> YU;    // GEMM of inner dimension 2b (C read and written once)
  DeviceBuffer<std::byte> work;
};

template <Scalar T>
class Gebrd {
 public:
  using R = real_type_t<T>;
  Gebrd(DistMatrix<T>& A, int64_t kb, const GebrdOptions& opts)
      : A_(A), ctx_(A.context()), L_(A.layout()), m_(L_.m()), n_(L_.n()), ld_(A.ld()),
        kb_(kb), one_pass_(opts.one_pass), one_pass_min_(opts.one_pass_min_bytes),
        coll_(ctx_, opts.transport),
        space_(ctx_.num_devices()), maxima_(ctx_.num_devices()), clock_(ctx_, opts.profile) {
    const auto rows = static_cast<std::size_t>(m_), kbs = static_cast<std::size_t>(kb);
    for (int dd = 0; dd < devices(); ++dd) {
      const Device& dev = ctx_.device(dd);
      PanelSpace<T>& s = space_[dd];
      const int64_t ldy = std::max<int64_t>(1, nloc(dd));
      s.P = DeviceBuffer<T>(dev, rows * kbs);
      s.X = DeviceBuffer<T>(dev, rows * kbs);
      s.Y = DeviceBuffer<T>(dev, static_cast<std::size_t>(ldy) * kbs);
      s.Ut = DeviceBuffer<T>(dev, static_cast<std::size_t>(ldy) * kbs);
      s.sums = DeviceBuffer<T>(
          dev, static_cast<std::size_t>(kernels::LabrdSums::capacity(m_, kb)));
      s.coef = DeviceBuffer<T>(dev, 2 * kbs + 2);
      s.s = DeviceBuffer<T>(dev, 2 * kbs + 2);
      s.VX = DeviceBuffer<T>(dev, 2 * rows * kbs);
      s.YU = DeviceBuffer<T>(dev, 2 * static_cast<std::size_t>(ldy) * kbs);
      s.work = DeviceBuffer<std::byte>(dev, kernels::kLabrdWorkBytes);
      maxima_[dd] = DeviceBuffer<R>(dev, static_cast<std::size_t>(L_.num_devices()));
      dev.make_current();
      memset_bytes(dev, s.work.data(), 0, kernels::kLabrdWorkBytes, /*async=*/true);
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
    scale_into_range();
    for (int64_t i = 0; i < k; i += kb_) panel(i, std::min(kb_, k - i));
    for (int dd = 0; dd < devices(); ++dd) {  // d and e back to A's own scale
      const Device& dev = ctx_.device(dd);
      range_scale<R>(dev, 1, k, L_.num_devices(), maxima_[dd].data(), true, d[dd], 1);
      range_scale<R>(dev, 1, k - 1, L_.num_devices(), maxima_[dd].data(), true, e[dd], 1);
    }
    for (int64_t i = 0; i < k; i += kb_) put_bidiagonal(i, std::min(kb_, k - i));
    clock_.charge(&GebrdProfile::update);
    coll_.wait();
  }

 private:
  int devices() const { return ctx_.num_devices(); }
  int global(int dd) const { return ctx_.device_offset() + dd; }
  bool upper() const { return m_ >= n_; }
  int64_t nloc(int dd) const { return L_.local_n(global(dd)); }
  // First local column of device dd at or after global column c.
  int64_t lbegin(int dd, int64_t c) const { return local_begin(L_, global(dd), c); }
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
      if (beta == T(0)) {  // only contiguous outputs are ever zeroed here
        dev.make_current();
        memset_bytes(dev, y, 0, static_cast<std::size_t>(out) * sizeof(T), true);
      }
      return;
    }
    gemv<T>(dev, op, rows, cols, alpha, A, std::max<int64_t>(lda, 1), x, incx, beta,
                     y, incy);
  }

  // LAPACK's drivers' guard (?gesvd, ?gesdd): when A's largest entry lies outside
  // [smlnum, bignum] (kernels/detail/range_scale.hpp), A is scaled by a power of two
  // first, and d and e are scaled back at the end (the reflectors and tau do not depend
  // on A's scale). Without it the row step's products, formed with the row before its
  // normalisation, overflow or underflow where ||A||^2 does. Every device gets every
  // device's largest entry (a sum of vectors with one nonzero slot each) and picks the
  // same factor itself; when none is needed A is read once and not written.
  void scale_into_range() {
    const int64_t count = L_.num_devices();
    std::vector<R*> maxima;
    for (int dd = 0; dd < devices(); ++dd) {
      const Device& dev = ctx_.device(dd);
      dev.make_current();
      memset_bytes(dev, maxima_[dd].data(), 0, static_cast<std::size_t>(count) * sizeof(R), true);
      max_magnitude<T>(dev, m_, nloc(dd), Aloc(dd), ld_, maxima_[dd].data() + global(dd));
      maxima.push_back(maxima_[dd].data());
    }
    if (count > 1) coll_.allreduce_sum<R>(maxima, count);
    for (int dd = 0; dd < devices(); ++dd)
      range_scale<T>(ctx_.device(dd), m_, nloc(dd), count, maxima_[dd].data(), false, Aloc(dd),
                     ld_);
    clock_.charge(&GebrdProfile::update);
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

    // One pass: A^H v of column j's reflector and the next row step's A u are one fused
    // step (upper: the same j; lower: A^H v of column j - 1 and the row step of j, so
    // the panel's first row step and its last A^H v stay separate).
    for (int64_t j = 0; j < b; ++j) {
      const int64_t c = i + j;
      if (upper()) {
        column_step(i, j, m);
        if (c + 1 < n_) {
          if (fused_at(c)) {
            row_step(i, j, m, /*fix=*/j, /*fused=*/true);
          } else {
            product_y(i, j, m);
            row_step(i, j, m, /*fix=*/j, /*fused=*/false);
          }
        }
      } else {
        row_step(i, j, m, /*fix=*/j - 1, /*fused=*/j > 0 && fused_at(c));
        if (c + 1 < m_) {
          column_step(i, j, m);
          if (j + 1 == b || !fused_at(c + 1)) product_y(i, j, m);  // else row step j + 1's
        }
      }
    }
    // Lower: the last column's Y is finished here (the others by the next row step).
    if (!upper() && i + b < m_) {
      const int64_t c = i + b - 1;
      for (int dd = 0; dd < devices(); ++dd) {
        PanelSpace<T>& s = space_[dd];
        const int64_t q0 = lbegin(dd, c + 1), ldy = std::max<int64_t>(1, nloc(dd));
        kernels::labrd_row<T>(ctx_.device(dd), nloc(dd) - q0, s.Y.data() + q0, s.Ut.data() + q0,
                              ldy, b - 1, b, s.s.data(), tauq_[dd] + c, false, {}, nullptr, 1,
                              nullptr, 1, nullptr, ld_, false, nullptr, s.sums.data(),
                              s.work.data());
      }
    }
    update(i, b, m);
  }

  // Whether row step c is the fused one (GebrdOptions::one_pass): the same answer on
  // every device and rank, from the trailing matrix's bytes per device.
  bool fused_at(int64_t c) const {
    const double share = static_cast<double>(m_ - c) * static_cast<double>(n_ - c) *
                         static_cast<double>(sizeof(T)) / L_.num_devices();
    return one_pass_ && share >= static_cast<double>(one_pass_min_);
  }

  // Column c = i + j of the panel (P's column j) on every device, from row c (upper) or
  // c + 1 (lower): its update with the panel's earlier steps, H(c) (v in P, tauq[c] and
  // d[c] or e[c]), and Y's corrections V^H v and X^H v (ZLABRD "Update A(i:m,i)" and
  // "Generate reflection Q(i)").
  void column_step(int64_t i, int64_t j, int64_t m) {
    const int64_t c = i + j, rr = upper() ? j : j + 1;
    const int64_t jx = upper() ? j : j + 1;  // columns of X in the update
    for (int dd = 0; dd < devices(); ++dd) {
      PanelSpace<T>& s = space_[dd];
      kernels::labrd_column<T>(ctx_.device(dd), m - rr, j, jx, s.P.data() + rr, m,
                               s.X.data() + rr, m, s.coef.data(), s.coef.data() + kb_ + 1,
                               (upper() ? d_ : e_)[dd] + c, tauq_[dd] + c, s.s.data(),
                               s.work.data());
    }
    clock_.charge(&GebrdProfile::panel);
  }

  // The raw Y(c+1:n, j) = A(rows, c+1:n)^H v, rows c.. (upper) or c+1.. (lower), each
  // device on its own columns after c; the row step finishes it.
  void product_y(int64_t i, int64_t j, int64_t m) {
    const int64_t c = i + j, rr = upper() ? j : j + 1;
    for (int dd = 0; dd < devices(); ++dd) {
      PanelSpace<T>& s = space_[dd];
      const int64_t q0 = lbegin(dd, c + 1), ldy = std::max<int64_t>(1, nloc(dd));
      mv(ctx_.device(dd), Op::C, m - rr, nloc(dd) - q0, T(1), at(dd, i + rr, q0), ld_,
         s.P.data() + rr + j * m, 1, T(0), s.Y.data() + q0 + j * ldy, 1);
    }
    clock_.charge(&GebrdProfile::products);
  }

  // Row c of A from its head column h (c + 1 upper, c lower) on: Y's column `fix`
  // finished, the row updated with the panel's steps on each device's own columns, the
  // devices' shares of A u and of the corrections summed in one collective, then G(c)
  // (taup[c], e[c] or d[c]) and the panel's column X(c+1:m, j) on every device (ZLABRD
  // "Update A(i,i+1:n)", "Generate reflection P(i)", "Compute X(i+1:m,i)").
  // `fused`: Y's column `fix` is not yet A^H v (product_y was not run); the fused step
  // forms it, the row and A u in one read of the devices' columns.
  void row_step(int64_t i, int64_t j, int64_t m, int64_t fix, bool fused) {
    if (fused) {
      fused_row(i, j, m, fix);
    } else {
      row_update(i, j, m, fix);
      row_products(i, j, m);
    }
    reduce_and_finish(i, j, m);
  }

  kernels::LabrdSums row_sums_layout(int64_t i, int64_t j) const {
    const int64_t c = i + j;
    return kernels::LabrdSums{m_ - c - 1, upper() ? j + 1 : j, j};
  }

  // The fused step on every device: A^H v for Y's column fix, the row's update and its
  // sums, and A u's share, from one read of the device's columns from the head on (v:
  // the panel's column fix from row c).
  void fused_row(int64_t i, int64_t j, int64_t m, int64_t fix) {
    const int64_t c = i + j, h = upper() ? c + 1 : c, rv = c - i;
    const kernels::LabrdSums S = row_sums_layout(i, j);
    const int oh = owner_local(h);
    for (int dd = 0; dd < devices(); ++dd) {
      PanelSpace<T>& s = space_[dd];
      const int64_t ldy = std::max<int64_t>(1, nloc(dd));
      const int64_t qy = lbegin(dd, h), ny = nloc(dd) - qy;
      kernels::labrd_fused<T>(ctx_.device(dd), ny, s.P.data() + rv + fix * m, s.Y.data() + qy,
                              s.Ut.data() + qy, ldy, s.s.data(), tauq_[dd] + (i + fix), S,
                              s.P.data() + j, m, s.X.data() + j, m, at(dd, c, qy), ld_,
                              dd == oh, s.sums.data(), s.work.data());
    }
    clock_.charge(&GebrdProfile::products);
  }

  // Y's column `fix` finished and the row's update and sums (labrd_row) on every device.
  void row_update(int64_t i, int64_t j, int64_t m, int64_t fix) {
    const int64_t c = i + j, h = upper() ? c + 1 : c;
    const kernels::LabrdSums S = row_sums_layout(i, j);
    const int oh = owner_local(h);
    for (int dd = 0; dd < devices(); ++dd) {
      const Device& dev = ctx_.device(dd);
      PanelSpace<T>& s = space_[dd];
      const int64_t ldy = std::max<int64_t>(1, nloc(dd));
      const int64_t qy = lbegin(dd, h), ny = nloc(dd) - qy;  // the row from the head on
      const bool owns = dd == oh;
      T* sm = s.sums.data();
      const T* tau_fix = fix >= 0 ? tauq_[dd] + (i + fix) : nullptr;
      kernels::labrd_row<T>(dev, ny, s.Y.data() + qy, s.Ut.data() + qy, ldy, fix, j, s.s.data(),
                            tau_fix, true, S, s.P.data() + j, m, s.X.data() + j, m,
                            at(dd, c, qy), ld_, owns, owns ? at(dd, c + 1, qy) : nullptr, sm,
                            s.work.data());
    }
    clock_.charge(&GebrdProfile::panel);
  }

  // A u's share on every device: the updated row (kept conjugated) times its columns
  // after the head.
  void row_products(int64_t i, int64_t j, int64_t /*m*/) {
    const int64_t c = i + j, h = upper() ? c + 1 : c;
    const kernels::LabrdSums S = row_sums_layout(i, j);
    const int oh = owner_local(h);
    for (int dd = 0; dd < devices(); ++dd) {
      const int64_t qx = lbegin(dd, h) + (dd == oh ? 1 : 0), nx = nloc(dd) - qx;
      mv(ctx_.device(dd), Op::N, S.m1, nx, T(1), at(dd, c + 1, qx), ld_, at(dd, c, qx), ld_,
         T(0), space_[dd].sums.data() + S.z(), 1);
    }
    clock_.charge(&GebrdProfile::products);
  }

  // The devices' sums added in one collective, then G(c) and X's column on every device.
  void reduce_and_finish(int64_t i, int64_t j, int64_t m) {
    const int64_t c = i + j, h = upper() ? c + 1 : c;
    const kernels::LabrdSums S = row_sums_layout(i, j);
    const int oh = owner_local(h);
    std::vector<T*> sums;
    for (auto& s : space_) sums.push_back(s.sums.data());
    if (L_.num_devices() > 1) coll_.allreduce_sum<T>(sums, S.size());
    clock_.charge(&GebrdProfile::comm);
    for (int dd = 0; dd < devices(); ++dd) {
      PanelSpace<T>& s = space_[dd];
      const int64_t qy = lbegin(dd, h), ldy = std::max<int64_t>(1, nloc(dd));
      kernels::labrd_finish<T>(ctx_.device(dd), S, s.sums.data(), (upper() ? e_ : d_)[dd] + c,
                               taup_[dd] + c, s.coef.data(), kb_ + 1, s.P.data() + j + 1, m,
                               s.X.data() + j + 1, m, s.X.data() + (j + 1) + j * m,
                               nloc(dd) - qy, dd == oh, at(dd, c, qy), ld_,
                               s.Ut.data() + qy + j * ldy);
    }
    clock_.charge(&GebrdProfile::panel);
  }

  // After the panel's b columns: A(i+b:m, i+b:n) -= V Y^H + X U on each device's own
  // columns (ZGEBRD's two GEMMs, as one: [V X] [Y U^H]^H), then the column reflectors
  // back into the owner's columns.
  void update(int64_t i, int64_t b, int64_t m) {
    const int64_t mt = m - b;
    for (int dd = 0; dd < devices(); ++dd) {
      const Device& dev = ctx_.device(dd);
      PanelSpace<T>& s = space_[dd];
      const int64_t q0 = lbegin(dd, i + b), nq = nloc(dd) - q0, ldy = std::max<int64_t>(1, nloc(dd));
      if (mt > 0 && nq > 0) {
        T* VX = s.VX.data();
        T* YU = s.YU.data();
        dev.make_current();
        copy_matrix(dev, mt, b, static_cast<const T*>(s.P.data() + b), m, VX, mt, true);
        copy_matrix(dev, mt, b, static_cast<const T*>(s.X.data() + b), m, VX + mt * b, mt, true);
        copy_matrix(dev, nq, b, static_cast<const T*>(s.Y.data() + q0), ldy, YU, nq, true);
        copy_matrix(dev, nq, b, static_cast<const T*>(s.Ut.data() + q0), ldy, YU + nq * b, nq,
                    true);
        gemm<T>(dev, Op::N, Op::C, mt, nq, 2 * b, T(-1), VX, mt, YU, nq, T(1),
                at(dd, i + b, q0), ld_);
      }
    }
    const int ol = owner_local(i);
    if (ol >= 0) {
      const Device& dev = ctx_.device(ol);
      const int64_t q = L_.local_col(i);
      kernels::labrd_store<T>(dev, m, b, space_[ol].P.data(), m, at(ol, i, q), ld_);
    }
    clock_.charge(&GebrdProfile::update);
  }

  // d and e of the panel at column i (b columns) onto A's diagonals, after the whole
  // reduction (they are scaled back by then; nothing reads these entries after their
  // panel).
  void put_bidiagonal(int64_t i, int64_t b) {
    const int ol = owner_local(i);
    if (ol >= 0) {
      const Device& dev = ctx_.device(ol);
      const int64_t q = L_.local_col(i);
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
  }

  DistMatrix<T>& A_;
  Context& ctx_;
  const BlockCyclic1D& L_;
  int64_t m_, n_, ld_, kb_;
  bool one_pass_;
  int64_t one_pass_min_;
  detail::DeviceCollectives coll_;
  std::vector<PanelSpace<T>> space_;
  std::vector<DeviceBuffer<R>> maxima_;  // every device's largest entry (scale_into_range)
  detail::PhaseClock<GebrdProfile> clock_;
  std::vector<R*> d_, e_;
  std::vector<T*> tauq_, taup_;
};

// Checks every argument on this rank; the caller agrees on the outcome over the ranks.
template <Scalar T>
void check_gebrd(const Context& ctx, const DistMatrix<T>& A, int64_t kb,
                 const GebrdOptions& opts) {
  const BlockCyclic1D& L = A.layout();
  detail::check_matrix(ctx, A);
  MGBLAS_CHECK_ARG(kb >= 1 && kb <= kMaxPanel && L.nb() % kb == 0, "opts.panel", kb,
                   "a divisor of A's nb = ", L.nb(), " in [1, ", kMaxPanel,
                   "], or 0 (automatic)");
  MGBLAS_CHECK_ARG(opts.one_pass_min_bytes >= 0, "opts.one_pass_min_bytes",
                   opts.one_pass_min_bytes, ">= 0");
}

template <Scalar T>
CallRecord gebrd_record(const DistMatrix<T>& A, int64_t kb, const GebrdOptions& opts,
                        int64_t form) {
  CallRecord rec("gebrd_mgpu");
  detail::add_matrix_fields(rec, A);
  rec.add("opts.panel", kb)
      .add("opts.transport", static_cast<int64_t>(opts.transport))
      .add("opts.one_pass", static_cast<int64_t>(opts.one_pass))
      .add("opts.one_pass_min_bytes", opts.one_pass_min_bytes)
      .add("output form", form);
  return rec;
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
  const int64_t kb = detail::bidiagonal_panel_width(L.nb(), opts.panel);
  const int64_t k = std::min(L.m(), L.n());
  CallRecord rec = gebrd_record(A, kb, opts, 1);
  agree(ctx.comm(), rec, [&] {
        check_gebrd(ctx, A, kb, opts);
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
  Gebrd<T>(A, kb, opts).run(dv, ev, qv, pv);
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
  const int64_t kb = detail::bidiagonal_panel_width(L.nb(), opts.panel);
  // The device outputs are made inside the agreement, so a failed allocation on one rank
  // raises on every rank.
  std::unique_ptr<DistVector<R>> dd, ed;
  std::unique_ptr<DistVector<T>> qd, pd;
  CallRecord rec = gebrd_record(A, kb, opts, 0);
  agree(ctx.comm(), rec, [&] {
        check_gebrd(ctx, A, kb, opts);
        MGBLAS_CHECK_PTR(d, "d", k > 0);
        MGBLAS_CHECK_PTR(e, "e", k1 > 0);
        MGBLAS_CHECK_PTR(tauq, "tauq", k > 0);
        MGBLAS_CHECK_PTR(taup, "taup", k > 0);
        dd = std::make_unique<DistVector<R>>(A.context_ptr(), k, local_allocation);
        ed = std::make_unique<DistVector<R>>(A.context_ptr(), k1, local_allocation);
        qd = std::make_unique<DistVector<T>>(A.context_ptr(), k, local_allocation);
        pd = std::make_unique<DistVector<T>>(A.context_ptr(), k, local_allocation);
      });
  std::vector<R*> dv, ev;
  std::vector<T*> qv, pv;
  for (int dev = 0; dev < ctx.num_devices(); ++dev) {
    dv.push_back(dd->local(dev));
    ev.push_back(ed->local(dev));
    qv.push_back(qd->local(dev));
    pv.push_back(pd->local(dev));
  }
  Gebrd<T>(A, kb, opts).run(dv, ev, qv, pv);
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
