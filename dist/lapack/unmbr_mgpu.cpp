// SPDX-License-Identifier: BSD-3-Clause
// unmbr_mgpu: Q or P of gebrd_mgpu applied to a block-cyclic C by detail::ReflectorBlocks
// (see the header): Q's reflectors as column-stored ones (unmtr_mgpu's lower case on a
// rectangular A), P's as row-stored ones.
#include "dist/lapack/unmbr_mgpu.hpp"

#include <algorithm>
#include <memory>
#include <vector>

#include "core/error.hpp"
#include "dist/detail/mgpu_common.hpp"
#include "dist/lapack/detail/panel_width.hpp"
#include "dist/lapack/detail/reflector_blocks.hpp"
#include "kernels/larfb_kernels.hpp"

namespace mgblas {
namespace {

using detail::ReflectorBlocks;
using detail::ReflectorShape;

// Where a reduction to upper (m >= n) or lower banded form with `band` off-diagonals
// leaves the factor's reflectors in its m x n A: Q's in the columns with their units on
// the diagonal (m >= n) or `band` below it, P's in the rows with their units `band`
// right of the diagonal (m >= n) or on it. band = 1: gebrd_mgpu's bidiagonal form.
ReflectorShape bidiagonal_shape(Vect vect, int64_t m, int64_t n, int64_t band) {
  const bool upper = m >= n;
  if (vect == Vect::Q) return {.rows = false, .forward = true, .off = upper ? 0 : band};
  return {.rows = true, .forward = true, .off = upper ? band : 0};
}

// Checks every argument but tau on this rank; the caller agrees on the outcome.
template <Scalar T>
void check_unmbr(const Context& ctx, Vect vect, Op op, const DistMatrix<T>& A,
                 const DistMatrix<T>& C, int64_t kb) {
  const BlockCyclic1D& L = A.layout();
  MGBLAS_CHECK_ARG(vect == Vect::Q || vect == Vect::P, "vect", static_cast<char>(vect),
                   "Vect::Q or Vect::P");
  detail::check_reflector_target(ctx, op, A, C);
  const int64_t rows = vect == Vect::Q ? L.m() : L.n();
  if (C.m() != rows)
    MGBLAS_THROW(DimensionMismatch, "argument 'C' has ", C.m(), " rows, but vect = ",
                 static_cast<char>(vect), " on the ", L.m(), " x ", L.n(), " A needs ", rows);
  detail::check_reflector_block_width(L, kb);
}

template <Scalar T>
CallRecord unmbr_record(Vect vect, Op op, const DistMatrix<T>& A, const DistMatrix<T>& C,
                        int64_t kb, ReducerKind transport, int64_t form) {
  return detail::reflector_record("unmbr_mgpu", "vect", static_cast<char>(vect), op, A, C, kb,
                                  transport, form);
}

// The checks and the workspace inside one agreement over the ranks (so that a bad
// argument or a failed allocation on one rank raises on every rank before C is written),
// then the application; `check_tau(work)` checks tau's own form.
template <Scalar T, typename CheckTau, typename TauOf>
void unmbr_agreed(Vect vect, int64_t band, Op op, const DistMatrix<T>& A, DistMatrix<T>& C,
                  const UnmtrOptions& opts, int64_t form, CheckTau&& check_tau,
                  TauOf&& tau_of) {
  Context& ctx = A.context();
  const BlockCyclic1D& L = A.layout();
  const int64_t kb = detail::reflector_block_width(L.nb(), opts.panel);
  std::unique_ptr<ReflectorBlocks<T>> job;
  CallRecord rec = unmbr_record(vect, op, A, C, kb, opts.transport, form);
  rec.add("band", band);
  agree(ctx.comm(), rec, [&] {
        check_unmbr(ctx, vect, op, A, C, kb);
        const ReflectorShape shape = bidiagonal_shape(vect, L.m(), L.n(), band);
        const bool work = shape.count(L.m(), L.n()) > 0 && C.n() > 0;
        check_tau(work);
        if (work) job = std::make_unique<ReflectorBlocks<T>>(shape, A, C, kb, form == 0);
      });
  if (!job) return;  // nothing to apply, alike on every rank
  job->run(op, tau_of(*job), opts.transport);
}

}  // namespace

template <Scalar T>
void unmbr_mgpu(Vect vect, Op op, const DistMatrix<T>& A, const T* tau, DistMatrix<T>& C,
                const UnmtrOptions& opts) {
  unmbr_agreed<T>(
      vect, 1, op, A, C, opts, 0, [&](bool work) { MGBLAS_CHECK_PTR(tau, "tau", work); },
      [&](ReflectorBlocks<T>& job) { return job.stage_tau(tau); });
}

template <Scalar T>
void unmbr_mgpu(Vect vect, Op op, const DistMatrix<T>& A, const DistVector<T>& tau,
                DistMatrix<T>& C, const UnmtrOptions& opts) {
  const Context& ctx = A.context();
  const int64_t k = std::min(A.layout().m(), A.layout().n());
  unmbr_agreed<T>(
      vect, 1, op, A, C, opts, 1,
      [&](bool) { detail::check_dist_vector(ctx, tau, "tau", k, nullptr); },
      [&](ReflectorBlocks<T>&) {
        std::vector<const T*> tv;
        for (int dd = 0; dd < ctx.num_devices(); ++dd) tv.push_back(tau.local(dd));
        return tv;
      });
}

namespace detail {
template <Scalar T>
void unmbr_band_mgpu(Vect vect, int64_t band, Op op, const DistMatrix<T>& A, const T* tau,
                     DistMatrix<T>& C, const UnmtrOptions& opts) {
  unmbr_agreed<T>(
      vect, band, op, A, C, opts, 0, [&](bool work) { MGBLAS_CHECK_PTR(tau, "tau", work); },
      [&](ReflectorBlocks<T>& job) { return job.stage_tau(tau); });
}
}  // namespace detail

#define MGBLAS_INSTANTIATE(T)                                                                \
  template void unmbr_mgpu<T>(Vect, Op, const DistMatrix<T>&, const T*, DistMatrix<T>&,     \
                              const UnmtrOptions&);                                          \
  template void detail::unmbr_band_mgpu<T>(Vect, int64_t, Op, const DistMatrix<T>&, const T*, \
                                           DistMatrix<T>&, const UnmtrOptions&);             \
  template void unmbr_mgpu<T>(Vect, Op, const DistMatrix<T>&, const DistVector<T>&,         \
                              DistMatrix<T>&, const UnmtrOptions&);
MGBLAS_FOR_EACH_SCALAR(MGBLAS_INSTANTIATE)
#undef MGBLAS_INSTANTIATE

}  // namespace mgblas
