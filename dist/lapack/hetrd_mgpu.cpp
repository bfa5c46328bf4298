// SPDX-License-Identifier: BSD-3-Clause
// hetrd_mgpu: blocked tridiagonal reduction over every device of every rank (see the
// header for the arrangement). Lower triangle.
#include "dist/lapack/hetrd_mgpu.hpp"

#include <algorithm>
#include <vector>

#include "core/error.hpp"
#include "core/memory.hpp"
#include "dist/detail/column_range.hpp"
#include "dist/detail/device_collectives.hpp"
#include "dist/detail/mgpu_common.hpp"
#include "dist/detail/symv_share.hpp"
#include "kernels/blas.hpp"
#include "kernels/gemm_kernels.hpp"
#include "kernels/latrd_kernels.hpp"

namespace mgblas {
namespace {

/// The panel width: `requested`, else the largest divisor of nb that is <= 64, so that
/// a panel never straddles two block columns (one owner per panel).
int64_t panel_width(int64_t nb, int64_t requested) {
  if (requested > 0) return requested;
  for (int64_t w = std::min<int64_t>(nb, 64); w > 1; --w)
    if (nb % w == 0) return w;
  return 1;
}

// One local device's copy of the panel and its scratch.
template <Scalar T>
struct PanelSpace {
  DeviceBuffer<T> P, W, t, p;
  DeviceBuffer<std::byte> work;
};

// The reduction proper: arguments checked and agreed; d, e, tau point at each local
// device's replicated outputs.
template <Scalar T>
void hetrd_lower(DistMatrix<T>& A, const std::vector<real_type_t<T>*>& d,
                 const std::vector<real_type_t<T>*>& e, const std::vector<T*>& tau, int64_t kb,
                 ReducerKind transport) {
  Context& ctx = A.context();
  const BlockCyclic1D& L = A.layout();
  const int64_t n = L.n(), nb = L.nb(), ld = A.ld();
  const int D = ctx.num_devices();
  constexpr bool herm = true;  // real T: the same as symmetric
  if (n == 0) return;

  detail::DeviceCollectives coll(ctx, transport);
  std::vector<PanelSpace<T>> space(D);
  std::vector<T*> P(D), W(D), p(D);
  for (int dd = 0; dd < D; ++dd) {
    const Device& dev = ctx.device(dd);
    PanelSpace<T>& s = space[dd];
    s.P = DeviceBuffer<T>(dev, static_cast<std::size_t>(n * kb));
    s.W = DeviceBuffer<T>(dev, static_cast<std::size_t>(n * kb));
    s.t = DeviceBuffer<T>(dev, static_cast<std::size_t>(2 * kb));
    s.p = DeviceBuffer<T>(dev, static_cast<std::size_t>(n));
    s.work = DeviceBuffer<std::byte>(dev, kernels::kLatrdWorkBytes);
    dev.make_current();
    memset_bytes(dev, s.work.data(), 0, kernels::kLatrdWorkBytes, /*async=*/true);
    P[dd] = s.P.data();
    W[dd] = s.W.data();
    p[dd] = s.p.data();
  }

  // Copies the owner's columns [k, k + b), rows [k, n), into every device's P (ld m).
  const auto broadcast_panel = [&](int64_t k, int64_t b) {
    const int64_t m = n - k;
    const int owner = L.owner(k);
    const int ol = ctx.local_index_of(owner);
    if (ol >= 0) {
      const Device& dev = ctx.device(ol);
      dev.make_current();
      copy_matrix(dev, m, b, A.local(ol) + k + L.local_col(k) * ld, ld, P[ol], m, /*async=*/true);
    }
    coll.broadcast<T>(P, m * b, owner);
  };

  for (int64_t k = 0; k < n - 1; k += kb) {
    const int64_t b = std::min(kb, n - 1 - k), m = n - k;
    broadcast_panel(k, b);
    for (int64_t j = 0; j < b; ++j) {
      const int64_t c = k + j, rest = n - c - 1;  // w = A(c+1:n, c+1:n) v has `rest` rows
      for (int dd = 0; dd < D; ++dd) {
        const Device& dev = ctx.device(dd);
        PanelSpace<T>& s = space[dd];
        kernels::latrd_reflector<T>(dev, herm, m, j, P[dd], m, W[dd], m, d[dd] + k, e[dd] + k,
                                    tau[dd] + k, s.t.data(), p[dd], rest, s.work.data());
        detail::symv_share<T>(dev, Uplo::Lower, herm, T(1), L, ctx.device_offset() + dd,
                              A.local(dd), ld, c + 1, P[dd] + j * m + j + 1, p[dd]);
      }
      coll.allreduce_sum<T>(p, rest);
      for (int dd = 0; dd < D; ++dd) {
        PanelSpace<T>& s = space[dd];
        kernels::latrd_finish<T>(ctx.device(dd), m, j, P[dd], m, W[dd], m, tau[dd] + k,
                                 s.t.data(), p[dd], s.work.data());
      }
    }

    const int owner = L.owner(k), ol = ctx.local_index_of(owner);
    if (ol >= 0)
      kernels::latrd_store<T>(ctx.device(ol), m, b, P[ol], m, e[ol] + k,
                              A.local(ol) + k + L.local_col(k) * ld, ld);

    // A22 -= V W^H + W V^H on every device's own columns of [k + b, n): per block
    // column [c0, c1), the rank-2k update of its diagonal block and two products below.
    const int64_t c_first = k + b;
    for (int dd = 0; dd < D; ++dd) {
      const Device& dev = ctx.device(dd);
      const int g = ctx.device_offset() + dd;
      // Row r (global) of the panel's reflectors V and of W.
      const auto V = [&](int64_t r) -> const T* { return P[dd] + (r - k); };
      const auto Wr = [&](int64_t r) -> const T* { return W[dd] + (r - k); };
      const auto update = [&](int64_t c0, int64_t c1) {
        const int64_t w = c1 - c0, jl = L.local_col(c0);
        T* Ac = A.local(dd) + jl * ld;
        kernels::rank2k<T>(dev, herm, Uplo::Lower, w, b, T(-1), V(c0), m, Wr(c0), m, T(1),
                           Ac + c0, ld);
        if (c1 < n) {
          gemm<T>(dev, Op::N, Op::C, n - c1, w, b, T(-1), V(c1), m, Wr(c0), m, T(1), Ac + c1, ld);
          gemm<T>(dev, Op::N, Op::C, n - c1, w, b, T(-1), Wr(c1), m, V(c0), m, T(1), Ac + c1, ld);
        }
      };
      if (L.num_devices() == 1) {
        if (c_first < n) update(c_first, n);  // one contiguous trailing matrix
        continue;
      }
      for (int64_t jb = c_first / nb; jb < L.num_blocks(); ++jb) {
        if (L.block_owner(jb) != g) continue;
        update(std::max(jb * nb, c_first), jb * nb + L.block_width(jb));
      }
    }
  }

  // T's last diagonal entry: the owner's A(n-1, n-1) after the last update.
  broadcast_panel(n - 1, 1);
  for (int dd = 0; dd < D; ++dd) {
    PanelSpace<T>& s = space[dd];
    kernels::latrd_reflector<T>(ctx.device(dd), herm, 1, 0, P[dd], 1, W[dd], 1, d[dd] + n - 1,
                                nullptr, nullptr, s.t.data(), p[dd], 0, s.work.data());
  }
  coll.wait();
}

// Checks every argument on this rank; the caller agrees on the outcome over the ranks.
template <Scalar T>
void check_hetrd(const Context& ctx, Uplo uplo, const DistMatrix<T>& A, int64_t kb) {
  const BlockCyclic1D& L = A.layout();
  MGBLAS_CHECK_ARG(uplo == Uplo::Lower || uplo == Uplo::Upper, "uplo",
                   static_cast<int>(static_cast<char>(uplo)), "Uplo::Lower or Uplo::Upper");
  if (uplo == Uplo::Upper)
    MGBLAS_THROW(NotImplemented, "hetrd_mgpu: uplo = Upper is not implemented yet; store the "
                                 "lower triangle (the result of the upper reduction of A is "
                                 "that of the lower one of A's transpose, index-reversed)");
  if (L.m() != L.n())
    MGBLAS_THROW(DimensionMismatch, "argument 'A' is ", L.m(), " x ", L.n(),
                 ": hetrd_mgpu needs a square matrix");
  detail::check_matrix(ctx, A);
  MGBLAS_CHECK_ARG(kb >= 1 && kb <= kernels::kLatrdMaxPanel && L.nb() % kb == 0, "opts.panel",
                   kb, "a divisor of A's nb = ", L.nb(), " in [1, ", kernels::kLatrdMaxPanel,
                   "], or 0 (automatic)");
}

template <Scalar R>
void check_out(const Context& ctx, const DistVector<R>& v, const char* name, int64_t len) {
  if (&v.context() != &ctx)
    MGBLAS_THROW(BadArgument, "argument '", name, "' lives on another Context than A");
  if (v.kind() != VectorLayout::Replicated)
    MGBLAS_THROW(BadArgument, "argument '", name, "' must be a replicated DistVector");
  if (v.n() != len)
    MGBLAS_THROW(DimensionMismatch, "argument '", name, "' has length ", v.n(), ", expected ",
                 len);
}

int64_t signature(char what, Uplo uplo, const BlockCyclic1D& L, std::size_t elem, int64_t kb,
                  ReducerKind transport, int64_t form) {
  return detail::call_signature({what, static_cast<char>(uplo), L.m(), L.n(), L.nb(), L.first(),
                                 L.num_devices(), static_cast<int64_t>(elem), kb,
                                 static_cast<int64_t>(transport), form});
}

}  // namespace

template <Scalar T>
void hetrd_mgpu(Uplo uplo, DistMatrix<T>& A, DistVector<real_type_t<T>>& d,
                DistVector<real_type_t<T>>& e, DistVector<T>& tau, const HetrdOptions& opts) {
  Context& ctx = A.context();
  const BlockCyclic1D& L = A.layout();
  const int64_t kb = panel_width(L.nb(), opts.panel);
  detail::agree_on_arguments(
      ctx.comm(), "hetrd_mgpu", signature('H', uplo, L, sizeof(T), kb, opts.transport, 1), [&] {
        check_hetrd(ctx, uplo, A, kb);
        const int64_t n = L.n();
        check_out(ctx, d, "d", n);
        check_out(ctx, e, "e", std::max<int64_t>(0, n - 1));
        check_out(ctx, tau, "tau", std::max<int64_t>(0, n - 1));
      });
  std::vector<real_type_t<T>*> dv, ev;
  std::vector<T*> tv;
  for (int dd = 0; dd < ctx.num_devices(); ++dd) {
    dv.push_back(d.local(dd));
    ev.push_back(e.local(dd));
    tv.push_back(tau.local(dd));
  }
  hetrd_lower<T>(A, dv, ev, tv, kb, opts.transport);
}

template <Scalar T>
void hetrd_mgpu(Uplo uplo, DistMatrix<T>& A, real_type_t<T>* d, real_type_t<T>* e, T* tau,
                const HetrdOptions& opts) {
  using R = real_type_t<T>;
  Context& ctx = A.context();
  const BlockCyclic1D& L = A.layout();
  const int64_t n = L.n(), n1 = std::max<int64_t>(0, n - 1);
  const int64_t kb = panel_width(L.nb(), opts.panel);
  // The device outputs are made inside the agreement, so a failed allocation on one rank
  // raises on every rank.
  std::unique_ptr<DistVector<R>> dd, ed;
  std::unique_ptr<DistVector<T>> td;
  detail::agree_on_arguments(
      ctx.comm(), "hetrd_mgpu", signature('H', uplo, L, sizeof(T), kb, opts.transport, 0), [&] {
        check_hetrd(ctx, uplo, A, kb);
        MGBLAS_CHECK_PTR(d, "d", n > 0);
        MGBLAS_CHECK_PTR(e, "e", n1 > 0);
        MGBLAS_CHECK_PTR(tau, "tau", n1 > 0);
        dd = std::make_unique<DistVector<R>>(A.context_ptr(), n);
        ed = std::make_unique<DistVector<R>>(A.context_ptr(), n1);
        td = std::make_unique<DistVector<T>>(A.context_ptr(), n1);
      });
  std::vector<R*> dv, ev;
  std::vector<T*> tv;
  for (int k = 0; k < ctx.num_devices(); ++k) {
    dv.push_back(dd->local(k));
    ev.push_back(ed->local(k));
    tv.push_back(td->local(k));
  }
  hetrd_lower<T>(A, dv, ev, tv, kb, opts.transport);
  // Every device holds the same outputs: each rank reads its first device's.
  const Device& dev0 = ctx.device(0);
  dev0.make_current();
  copy_vector(dev0, n, static_cast<const R*>(dv[0]), d);
  copy_vector(dev0, n1, static_cast<const R*>(ev[0]), e);
  copy_vector(dev0, n1, static_cast<const T*>(tv[0]), tau);
}

#define MGBLAS_INSTANTIATE(T)                                                                \
  template void hetrd_mgpu<T>(Uplo, DistMatrix<T>&, DistVector<real_type_t<T>>&,            \
                              DistVector<real_type_t<T>>&, DistVector<T>&, const HetrdOptions&); \
  template void hetrd_mgpu<T>(Uplo, DistMatrix<T>&, real_type_t<T>*, real_type_t<T>*, T*,   \
                              const HetrdOptions&);
MGBLAS_FOR_EACH_SCALAR(MGBLAS_INSTANTIATE)
#undef MGBLAS_INSTANTIATE

}  // namespace mgblas
