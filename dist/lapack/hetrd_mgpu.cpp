// SPDX-License-Identifier: BSD-3-Clause
// hetrd_mgpu: blocked tridiagonal reduction over every device of every rank (see the
// header for the arrangement). The upper triangle runs the lower steps on reversed copies
// of its panels.
#include "dist/lapack/hetrd_mgpu.hpp"

#include <algorithm>
#include <chrono>
#include <vector>

#include "core/error.hpp"
#include "core/memory.hpp"
#include "dist/detail/device_collectives.hpp"
#include "dist/detail/mgpu_common.hpp"
#include "dist/detail/symv_share.hpp"
#include "dist/lapack/detail/panel_width.hpp"
#include "dist/lapack/detail/phase_clock.hpp"
#include "dist/lapack/detail/rank2k_columns.hpp"
#include "kernels/blas.hpp"
#include "kernels/gemm_kernels.hpp"
#include "kernels/latrd_kernels.hpp"
#include "layouts/block_cyclic.hpp"

namespace mgblas {
namespace {

// One local device's copy of the panel and its scratch. `stack` holds the trailing
// update's factors as [V W V] (detail::stack_rank2k_factors; in the matrix's row order
// for the upper triangle). The upper reduction also keeps the reflector in the matrix's
// row order (x), the SYMV result in it (y), the panel stored back before its reversal
// (back) and the outputs in reverse order.
template <Scalar T>
struct PanelSpace {
  DeviceBuffer<T> P, W, t, p, work_t, stack;
  DeviceBuffer<std::byte> work;
  DeviceBuffer<T> x, y, back, tau_rev;
  DeviceBuffer<real_type_t<T>> d_rev, e_rev;
};

template <Scalar T>
class Hetrd {
 public:
  using R = real_type_t<T>;
  Hetrd(DistMatrix<T>& A, Uplo uplo, int64_t kb, ReducerKind transport, HetrdProfile* profile)
      : A_(A), ctx_(A.context()), L_(A.layout()), n_(L_.n()), ld_(A.ld()), kb_(kb),
        uplo_(uplo), coll_(ctx_, transport), space_(ctx_.num_devices()),
        clock_(ctx_, profile) {
    const bool upper = uplo == Uplo::Upper;
    const auto n = static_cast<std::size_t>(n_), nkb = static_cast<std::size_t>(n_ * kb);
    for (int dd = 0; dd < devices(); ++dd) {
      const Device& dev = ctx_.device(dd);
      PanelSpace<T>& s = space_[dd];
      s.P = DeviceBuffer<T>(dev, nkb);
      s.W = DeviceBuffer<T>(dev, nkb);
      s.stack = DeviceBuffer<T>(dev, 3 * nkb);
      s.t = DeviceBuffer<T>(dev, static_cast<std::size_t>(2 * kb));
      s.p = DeviceBuffer<T>(dev, n);
      s.work = DeviceBuffer<std::byte>(dev, kernels::kLatrdWorkBytes);
      if (upper) {
        s.x = DeviceBuffer<T>(dev, n);
        s.y = DeviceBuffer<T>(dev, n);
        s.back = DeviceBuffer<T>(dev, nkb);
        s.tau_rev = DeviceBuffer<T>(dev, n);
        s.d_rev = DeviceBuffer<R>(dev, n);
        s.e_rev = DeviceBuffer<R>(dev, n);
      }
      dev.make_current();
      memset_bytes(dev, s.work.data(), 0, kernels::kLatrdWorkBytes, /*async=*/true);
      P_.push_back(s.P.data());
    }
  }

  /// Reduces A; d, e, tau: each local device's outputs (n, n - 1, n - 1 entries).
  void run(const std::vector<R*>& d, const std::vector<R*>& e, const std::vector<T*>& tau) {
    if (n_ == 0) return;
    clock_.restart();
    if (uplo_ == Uplo::Lower) {
      lower(d, e, tau);
    } else {
      std::vector<R*> dr, er;
      std::vector<T*> tr;
      for (auto& s : space_) {
        dr.push_back(s.d_rev.data());
        er.push_back(s.e_rev.data());
        tr.push_back(s.tau_rev.data());
      }
      upper(dr, er, tr);
      // The outputs were formed in the reversed order of the lower steps.
      for (int dd = 0; dd < devices(); ++dd) {
        const Device& dev = ctx_.device(dd);
        kernels::latrd_reverse<R>(dev, n_, 1, dr[dd], n_, d[dd], n_);
        kernels::latrd_reverse<R>(dev, n_ - 1, 1, er[dd], n_, e[dd], n_);
        kernels::latrd_reverse<T>(dev, n_ - 1, 1, tr[dd], n_, tau[dd], n_);
      }
    }
    coll_.wait();
  }

 private:
  int devices() const { return ctx_.num_devices(); }
  int global(int dd) const { return ctx_.device_offset() + dd; }
  T* local_col(int dd, int64_t c) { return A_.local(dd) + L_.local_col(c) * ld_; }

  // Copies the owner's columns [c0, c0 + b), rows [r0, r0 + m), into every device's P
  // (leading dimension m); reversed: rows and columns in reverse order.
  void broadcast_panel(int64_t r0, int64_t m, int64_t c0, int64_t b, bool reversed) {
    const int owner = L_.owner(c0), ol = ctx_.local_index_of(owner);
    if (ol >= 0) {
      const Device& dev = ctx_.device(ol);
      const T* src = local_col(ol, c0) + r0;
      if (reversed) {
        kernels::latrd_reverse<T>(dev, m, b, src, ld_, P_[ol], m);
      } else {
        dev.make_current();
        copy_matrix(dev, m, b, src, ld_, P_[ol], m, /*async=*/true);
      }
    }
    clock_.charge(&HetrdProfile::update);
    coll_.broadcast<T>(P_, m * b, owner);
    clock_.charge(&HetrdProfile::comm);
  }

  // v^H A v of a column's product (symv_share's quad), when formed: the entry after the
  // `rest` entries of the accumulator, summed over the devices with them.
  T* quad_slot(T* acc, int64_t rest) const { return quad_ ? acc + rest : nullptr; }

  // One panel column j (m rows in P) on every device: the finish of column j-1 (whose
  // summed product is in p, and its v^H p after the previous column's `rest` + 1
  // entries of acc) and the reflector of column j in one step, then the SYMV shares of
  // the trailing (or leading) matrix summed over all devices. `symv(dd, quad)` queues
  // device dd's share into its accumulator acc[dd] (length `rest`, then quad's entry);
  // `to_p(dd)` moves the summed accumulator into p where they differ.
  template <typename Symv, typename ToP>
  void column(int64_t m, int64_t j, int64_t rest, R* const* d, R* const* e, T* const* tau,
              const std::vector<T*>& acc, Symv&& symv, ToP&& to_p) {
    const int64_t len = rest + (quad_ ? 1 : 0);
    for (int dd = 0; dd < devices(); ++dd) {
      PanelSpace<T>& s = space_[dd];
      kernels::latrd_step<T>(ctx_.device(dd), herm_, m, j, j > 0, true, s.P.data(), m,
                             s.W.data(), m, d[dd], e[dd], tau[dd], s.t.data(), s.p.data(),
                             j > 0 ? quad_slot(acc[dd], rest + 1) : nullptr, acc[dd], len,
                             s.work.data());
    }
    clock_.charge(&HetrdProfile::panel);
    for (int dd = 0; dd < devices(); ++dd) symv(dd, quad_slot(acc[dd], rest));
    clock_.charge(&HetrdProfile::symv);
    coll_.allreduce_sum<T>(acc, len);
    clock_.charge(&HetrdProfile::comm);
    for (int dd = 0; dd < devices(); ++dd) to_p(dd);
  }

  // The finish of the panel's last column (b - 1), whose product is in p (and its v^H p
  // after the `rest` entries of acc).
  void finish_panel(int64_t m, int64_t b, T* const* tau, const std::vector<T*>& acc,
                    int64_t rest) {
    for (int dd = 0; dd < devices(); ++dd) {
      PanelSpace<T>& s = space_[dd];
      kernels::latrd_step<T>(ctx_.device(dd), herm_, m, b, true, false, s.P.data(), m,
                             s.W.data(), m, nullptr, nullptr, tau[dd], s.t.data(), s.p.data(),
                             quad_slot(acc[dd], rest), nullptr, 0, s.work.data());
    }
    clock_.charge(&HetrdProfile::panel);
  }

  void lower(const std::vector<R*>& d, const std::vector<R*>& e, const std::vector<T*>& tau) {
    std::vector<T*> p;
    for (auto& s : space_) p.push_back(s.p.data());
    for (int64_t k = 0; k < n_ - 1; k += kb_) {
      const int64_t b = std::min(kb_, n_ - 1 - k), m = n_ - k;
      broadcast_panel(k, m, k, b, false);
      std::vector<R*> dk, ek;
      std::vector<T*> tk;
      for (int dd = 0; dd < devices(); ++dd) {
        dk.push_back(d[dd] + k);
        ek.push_back(e[dd] + k);
        tk.push_back(tau[dd] + k);
      }
      for (int64_t j = 0; j < b; ++j) {
        const int64_t c = k + j;  // w = A(c+1:n, c+1:n) v: rows c+1 .. n-1
        column(m, j, n_ - c - 1, dk.data(), ek.data(), tk.data(), p,
               [&](int dd, T* quad) {
                 detail::symv_share<T>(ctx_.device(dd), Uplo::Lower, herm_, T(1), L_, global(dd),
                                       A_.local(dd), ld_, c + 1, c + 1, n_,
                                       P_[dd] + j * m + j + 1, p[dd], quad);
               },
               [](int) {});
      }
      finish_panel(m, b, tk.data(), p, n_ - (k + b - 1) - 1);
      const int ol = ctx_.local_index_of(L_.owner(k));
      if (ol >= 0)
        kernels::latrd_store<T>(ctx_.device(ol), m, b, P_[ol], m, ek[ol], local_col(ol, k) + k,
                                ld_);
      // A22 -= V W^H + W V^H on every device's own columns of [k + b, n).
      for (int dd = 0; dd < devices(); ++dd) {
        const Device& dev = ctx_.device(dd);
        T* S = space_[dd].stack.data();
        detail::stack_rank2k_factors<T>(dev, m, b, P_[dd], m, space_[dd].W.data(), m, S);
        detail::rank2k_columns<T>(dev, L_, global(dd), A_.local(dd), ld_, herm_, uplo_, k + b,
                                  n_, b, T(-1), S, S + m * b, k, m, T(1), /*stacked=*/true);
      }
    }
    last_diagonal(n_ - 1, d, n_ - 1);
  }

  // The upper triangle: panels from the right; on its reversed copy (P(r, jj) =
  // A(k1-1-r, k1-1-jj)) every step is the lower one. Reflector columns are n-1 .. 1.
  void upper(const std::vector<R*>& d_rev, const std::vector<R*>& e_rev,
             const std::vector<T*>& tau_rev) {
    std::vector<T*> y;
    for (auto& s : space_) y.push_back(s.y.data());
    for (int64_t k1 = n_; k1 > 1;) {
      const int64_t k0 = std::max<int64_t>(1, (k1 - 1) / kb_ * kb_);  // panel [k0, k1)
      const int64_t b = k1 - k0, m = k1, kr = n_ - k1;  // kr: reversed index of column k1-1
      broadcast_panel(0, m, k0, b, true);
      std::vector<R*> dk, ek;
      std::vector<T*> tk;
      for (int dd = 0; dd < devices(); ++dd) {
        dk.push_back(d_rev[dd] + kr);
        ek.push_back(e_rev[dd] + kr);
        tk.push_back(tau_rev[dd] + kr);
      }
      for (int64_t jj = 0; jj < b; ++jj) {
        const int64_t i = k1 - 1 - jj;  // w = A(0:i, 0:i) v: rows 0 .. i-1
        column(m, jj, i, dk.data(), ek.data(), tk.data(), y,
               [&](int dd, T* quad) {
                 PanelSpace<T>& s = space_[dd];
                 const Device& dev = ctx_.device(dd);
                 kernels::latrd_reverse<T>(dev, i, 1, P_[dd] + jj * m + jj + 1, i, s.x.data(), i);
                 // The leading i x i submatrix is itself a block-cyclic matrix of the
                 // same blocks: its layout ends the SYMV's tiles at column i.
                 const BlockCyclic1D Li(i, i, L_.nb(), L_.num_devices(), L_.first());
                 detail::symv_share<T>(dev, Uplo::Upper, herm_, T(1), Li, global(dd),
                                       A_.local(dd), ld_, 0, 0, i, s.x.data(), y[dd], quad);
               },
               [&](int dd) {
                 kernels::latrd_reverse<T>(ctx_.device(dd), i, 1, y[dd], i,
                                           space_[dd].p.data(), i);
               });
      }
      finish_panel(m, b, tk.data(), y, k1 - 1 - (b - 1));
      const int ol = ctx_.local_index_of(L_.owner(k0));
      if (ol >= 0) {
        // The finished panel (with e on its off-diagonal) back in the matrix's order.
        const Device& dev = ctx_.device(ol);
        T* back = space_[ol].back.data();
        dev.make_current();
        copy_matrix(dev, m, b, static_cast<const T*>(P_[ol]), m, back, m, /*async=*/true);
        kernels::latrd_store<T>(dev, m, b, P_[ol], m, ek[ol], back, m);
        kernels::latrd_reverse<T>(dev, m, b, back, m, local_col(ol, k0), ld_);
      }
      // A(0:k0, 0:k0) -= V W^H + W V^H, with V and W in the matrix's row order, stacked
      // as [V W V] (see detail::stack_rank2k_factors).
      for (int dd = 0; dd < devices(); ++dd) {
        PanelSpace<T>& s = space_[dd];
        const Device& dev = ctx_.device(dd);
        T* S = s.stack.data();
        const int64_t kb = k0 * b;
        kernels::latrd_reverse<T>(dev, k0, b, P_[dd] + b, m, S, k0);
        kernels::latrd_reverse<T>(dev, k0, b, s.W.data() + b, m, S + kb, k0);
        dev.make_current();
        copy_matrix(dev, k0, b, static_cast<const T*>(S), k0, S + 2 * kb, k0, /*async=*/true);
        detail::rank2k_columns<T>(dev, L_, global(dd), A_.local(dd), ld_, herm_, uplo_, 0, k0,
                                  b, T(-1), S, S + kb, 0, k0, T(1), /*stacked=*/true);
      }
      k1 = k0;
    }
    last_diagonal(0, d_rev, n_ - 1);
  }

  // T's last diagonal entry (global column c, the one without a reflector) after the
  // last update: the owner's A(c, c), into d[dd][at] on every device.
  void last_diagonal(int64_t c, const std::vector<R*>& d, int64_t at) {
    broadcast_panel(c, 1, c, 1, false);
    for (int dd = 0; dd < devices(); ++dd) {
      PanelSpace<T>& s = space_[dd];
      kernels::latrd_reflector<T>(ctx_.device(dd), herm_, 1, 0, P_[dd], 1, s.W.data(), 1,
                                  d[dd] + at, nullptr, nullptr, s.t.data(), s.p.data(), 0,
                                  s.work.data());
    }
  }

  static constexpr bool herm_ = true;  // real T: the same as symmetric
  DistMatrix<T>& A_;
  Context& ctx_;
  const BlockCyclic1D& L_;
  int64_t n_, ld_, kb_;
  // Whether the SYMV shares form v^H A v for the column step (symv_share's quad): it
  // depends on nb and T only, so every device and rank agrees.
  bool quad_ = detail::symv_share_has_quad<T>(L_.nb());
  Uplo uplo_;
  detail::DeviceCollectives coll_;
  std::vector<PanelSpace<T>> space_;
  std::vector<T*> P_;
  detail::PhaseClock<HetrdProfile> clock_;
};

// Checks every argument on this rank; the caller agrees on the outcome over the ranks.
template <Scalar T>
void check_hetrd(const Context& ctx, Uplo uplo, const DistMatrix<T>& A, int64_t kb) {
  const BlockCyclic1D& L = A.layout();
  MGBLAS_CHECK_ARG(uplo == Uplo::Lower || uplo == Uplo::Upper, "uplo",
                   static_cast<int>(static_cast<char>(uplo)), "Uplo::Lower or Uplo::Upper");
  if (L.m() != L.n())
    MGBLAS_THROW(DimensionMismatch, "argument 'A' is ", L.m(), " x ", L.n(),
                 ": hetrd_mgpu needs a square matrix");
  detail::check_matrix(ctx, A);
  MGBLAS_CHECK_ARG(kb >= 1 && kb <= kernels::kLatrdMaxPanel && L.nb() % kb == 0, "opts.panel",
                   kb, "a divisor of A's nb = ", L.nb(), " in [1, ", kernels::kLatrdMaxPanel,
                   "], or 0 (automatic)");
}

template <Scalar T>
CallRecord hetrd_record(Uplo uplo, const DistMatrix<T>& A, int64_t kb, ReducerKind transport,
                        int64_t form) {
  CallRecord rec("hetrd_mgpu");
  detail::add_matrix_fields(rec, A);
  rec.add("uplo", static_cast<char>(uplo))
      .add("opts.panel", kb)
      .add("opts.transport", static_cast<int64_t>(transport))
      .add("output form", form);
  return rec;
}

}  // namespace

template <Scalar T>
void hetrd_mgpu(Uplo uplo, DistMatrix<T>& A, DistVector<real_type_t<T>>& d,
                DistVector<real_type_t<T>>& e, DistVector<T>& tau, const HetrdOptions& opts) {
  const auto start = std::chrono::steady_clock::now();
  Context& ctx = A.context();
  const BlockCyclic1D& L = A.layout();
  const int64_t kb = detail::tridiagonal_panel_width(L.nb(), opts.panel, L.n());
  CallRecord rec = hetrd_record(uplo, A, kb, opts.transport, 1);
  agree(ctx.comm(), rec, [&] {
        check_hetrd(ctx, uplo, A, kb);
        const int64_t n = L.n();
        detail::check_dist_vector(ctx, d, "d", n, nullptr);
        detail::check_dist_vector(ctx, e, "e", std::max<int64_t>(0, n - 1), nullptr);
        detail::check_dist_vector(ctx, tau, "tau", std::max<int64_t>(0, n - 1), nullptr);
      });
  std::vector<real_type_t<T>*> dv, ev;
  std::vector<T*> tv;
  for (int dd = 0; dd < ctx.num_devices(); ++dd) {
    dv.push_back(d.local(dd));
    ev.push_back(e.local(dd));
    tv.push_back(tau.local(dd));
  }
  Hetrd<T>(A, uplo, kb, opts.transport, opts.profile).run(dv, ev, tv);
  if (opts.profile)
    opts.profile->total +=
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

template <Scalar T>
void hetrd_mgpu(Uplo uplo, DistMatrix<T>& A, real_type_t<T>* d, real_type_t<T>* e, T* tau,
                const HetrdOptions& opts) {
  using R = real_type_t<T>;
  const auto start = std::chrono::steady_clock::now();
  Context& ctx = A.context();
  const BlockCyclic1D& L = A.layout();
  const int64_t n = L.n(), n1 = std::max<int64_t>(0, n - 1);
  const int64_t kb = detail::tridiagonal_panel_width(L.nb(), opts.panel, L.n());
  // The device outputs are made inside the agreement, so a failed allocation on one rank
  // raises on every rank.
  std::unique_ptr<DistVector<R>> dd, ed;
  std::unique_ptr<DistVector<T>> td;
  CallRecord rec = hetrd_record(uplo, A, kb, opts.transport, 0);
  agree(ctx.comm(), rec, [&] {
        check_hetrd(ctx, uplo, A, kb);
        MGBLAS_CHECK_PTR(d, "d", n > 0);
        MGBLAS_CHECK_PTR(e, "e", n1 > 0);
        MGBLAS_CHECK_PTR(tau, "tau", n1 > 0);
        dd = std::make_unique<DistVector<R>>(A.context_ptr(), n, local_allocation);
        ed = std::make_unique<DistVector<R>>(A.context_ptr(), n1, local_allocation);
        td = std::make_unique<DistVector<T>>(A.context_ptr(), n1, local_allocation);
      });
  std::vector<R*> dv, ev;
  std::vector<T*> tv;
  for (int k = 0; k < ctx.num_devices(); ++k) {
    dv.push_back(dd->local(k));
    ev.push_back(ed->local(k));
    tv.push_back(td->local(k));
  }
  Hetrd<T>(A, uplo, kb, opts.transport, opts.profile).run(dv, ev, tv);
  // Every device holds the same outputs: each rank reads its first device's.
  const Device& dev0 = ctx.device(0);
  dev0.make_current();
  copy_vector(dev0, n, static_cast<const R*>(dv[0]), d);
  copy_vector(dev0, n1, static_cast<const R*>(ev[0]), e);
  copy_vector(dev0, n1, static_cast<const T*>(tv[0]), tau);
  if (opts.profile)
    opts.profile->total +=
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

#define MGBLAS_INSTANTIATE(T)                                                                \
  template void hetrd_mgpu<T>(Uplo, DistMatrix<T>&, DistVector<real_type_t<T>>&,            \
                              DistVector<real_type_t<T>>&, DistVector<T>&, const HetrdOptions&); \
  template void hetrd_mgpu<T>(Uplo, DistMatrix<T>&, real_type_t<T>*, real_type_t<T>*, T*,   \
                              const HetrdOptions&);
MGBLAS_FOR_EACH_SCALAR(MGBLAS_INSTANTIATE)
#undef MGBLAS_INSTANTIATE

}  // namespace mgblas
