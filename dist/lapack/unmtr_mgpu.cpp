// SPDX-License-Identifier: BSD-3-Clause
// unmtr_mgpu: Q of hetrd_mgpu (either triangle) applied to a block-cyclic C, one block
// of reflectors at a time (see the header), by detail::ReflectorBlocks. Per block: one
// explicit-V kernel on the owner, one broadcast, and on every device holding columns of
// C one larft and three gemms.
#include "dist/lapack/unmtr_mgpu.hpp"

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

// hetrd_mgpu's Q (uplo) or, off > 1, stage one's Q1.
ReflectorShape tridiagonal_shape(Uplo uplo, int64_t off = 1) {
  return {.rows = false, .forward = uplo == Uplo::Lower, .off = off};
}

// Checks every argument but tau on this rank; the caller agrees on the outcome.
template <Scalar T>
void check_unmtr(const Context& ctx, Uplo uplo, Op op, const DistMatrix<T>& A,
                 const DistMatrix<T>& C, int64_t kb) {
  const BlockCyclic1D& L = A.layout();
  MGBLAS_CHECK_ARG(uplo == Uplo::Lower || uplo == Uplo::Upper, "uplo", static_cast<char>(uplo),
                   "Uplo::Lower or Uplo::Upper");
  if (L.m() != L.n())
    MGBLAS_THROW(DimensionMismatch, "argument 'A' is ", L.m(), " x ", L.n(),
                 ": unmtr_mgpu needs the square matrix hetrd_mgpu reduced");
  detail::check_reflector_target(ctx, op, A, C);
  if (C.m() != L.n())
    MGBLAS_THROW(DimensionMismatch, "argument 'C' has ", C.m(), " rows, but A is ", L.n(),
                 " x ", L.n());
  detail::check_reflector_block_width(L, kb);
}

template <Scalar T>
CallRecord unmtr_record(Uplo uplo, Op op, const DistMatrix<T>& A, const DistMatrix<T>& C,
                        int64_t kb, ReducerKind transport, int64_t form) {
  return detail::reflector_record("unmtr_mgpu", "uplo", static_cast<char>(uplo), op, A, C, kb,
                                  transport, form);
}

}  // namespace

template <Scalar T>
void unmtr_mgpu(Uplo uplo, Op op, const DistMatrix<T>& A, const DistVector<T>& tau,
                DistMatrix<T>& C, const UnmtrOptions& opts) {
  Context& ctx = A.context();
  const BlockCyclic1D& L = A.layout();
  const int64_t kb = detail::reflector_block_width(L.nb(), opts.panel);
  std::unique_ptr<ReflectorBlocks<T>> job;
  // The buffers are made inside the agreement, so a failed allocation on one rank raises
  // on every rank.
  CallRecord rec = unmtr_record(uplo, op, A, C, kb, opts.transport, 1);
  agree(ctx.comm(), rec, [&] {
        check_unmtr(ctx, uplo, op, A, C, kb);
        detail::check_dist_vector(ctx, tau, "tau", std::max<int64_t>(0, L.n() - 1), nullptr);
        if (L.n() > 1 && C.n() > 0)
          job = std::make_unique<ReflectorBlocks<T>>(tridiagonal_shape(uplo), A, C, kb, false);
      });
  if (!job) return;  // n <= 1 (Q = I) or K = 0, alike on every rank
  std::vector<const T*> tv;
  for (int dd = 0; dd < ctx.num_devices(); ++dd) tv.push_back(tau.local(dd));
  job->run(op, tv, opts.transport);
}

template <Scalar T>
void unmtr_mgpu(Uplo uplo, Op op, const DistMatrix<T>& A, const T* tau, DistMatrix<T>& C,
                const UnmtrOptions& opts) {
  Context& ctx = A.context();
  const BlockCyclic1D& L = A.layout();
  const int64_t kb = detail::reflector_block_width(L.nb(), opts.panel);
  std::unique_ptr<ReflectorBlocks<T>> job;
  CallRecord rec = unmtr_record(uplo, op, A, C, kb, opts.transport, 0);
  agree(ctx.comm(), rec, [&] {
        check_unmtr(ctx, uplo, op, A, C, kb);
        const bool work = L.n() > 1 && C.n() > 0;
        MGBLAS_CHECK_PTR(tau, "tau", work);
        if (work)
          job = std::make_unique<ReflectorBlocks<T>>(tridiagonal_shape(uplo), A, C, kb, true);
      });
  if (!job) return;
  job->run(op, job->stage_tau(tau), opts.transport);
}

namespace detail {

namespace {

template <Scalar T>
void apply_shape(const ReflectorShape& shape, Op op, const DistMatrix<T>& A, const T* tau,
                 DistMatrix<T>& C, const UnmtrOptions& opts) {
  const BlockCyclic1D& L = A.layout();
  if (shape.count(L.m(), L.n()) == 0 || C.n() == 0) return;  // Q = I or nothing to transform
  ReflectorBlocks<T> job(shape, A, C, reflector_block_width(L.nb(), opts.panel), true);
  job.run(op, job.stage_tau(tau), opts.transport);
}

}  // namespace

template <Scalar T>
void apply_reflectors_mgpu(Uplo uplo, Op op, const DistMatrix<T>& A, int64_t off, const T* tau,
                           DistMatrix<T>& C, const UnmtrOptions& opts) {
  apply_shape<T>(tridiagonal_shape(uplo, off), op, A, tau, C, opts);
}

template <Scalar T>
void apply_row_reflectors_mgpu(Op op, const DistMatrix<T>& A, int64_t off, const T* tau,
                               DistMatrix<T>& C, const UnmtrOptions& opts) {
  apply_shape<T>({.rows = true, .forward = true, .off = off}, op, A, tau, C, opts);
}

}  // namespace detail

#define MGBLAS_INSTANTIATE(T)                                                                \
  template void detail::apply_reflectors_mgpu<T>(Uplo, Op, const DistMatrix<T>&, int64_t,  \
                                                 const T*, DistMatrix<T>&,                  \
                                                 const UnmtrOptions&);                      \
  template void detail::apply_row_reflectors_mgpu<T>(Op, const DistMatrix<T>&, int64_t,     \
                                                     const T*, DistMatrix<T>&,              \
                                                     const UnmtrOptions&);                  \
  template void unmtr_mgpu<T>(Uplo, Op, const DistMatrix<T>&, const DistVector<T>&,         \
                              DistMatrix<T>&, const UnmtrOptions&);                          \
  template void unmtr_mgpu<T>(Uplo, Op, const DistMatrix<T>&, const T*, DistMatrix<T>&,     \
                              const UnmtrOptions&);
MGBLAS_FOR_EACH_SCALAR(MGBLAS_INSTANTIATE)
#undef MGBLAS_INSTANTIATE

}  // namespace mgblas
