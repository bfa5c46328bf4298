// SPDX-License-Identifier: BSD-3-Clause
// GEMV launchers (private): grid arithmetic, beta pre-scaling when the grid splits the
// inner dimension, variant selection. Included by the per-precision instance files
// gemv_{s,d,c,z}.cu only.
#pragma once

#include <string>

#include "core/detail/cuda_check.hpp"
#include "kernels/cuda/common/launchers.hpp"
#include "kernels/cuda/level2/gemv.cuh"
#include "kernels/cuda/level2/gemv.hpp"
#include "kernels/cuda/level2/gemv_tuning.hpp"
#include "kernels/cuda/level2/level2_dispatch.hpp"
#include "kernels/cuda/common/variant.hpp"

namespace mgblas::kernels::cuda::level2 {

using common::built_variants;
using common::with_variant;

/// Blocks along the split dimension: `split` when given, else enough that
/// other_blocks * result reaches policy.blocks_per_sm per multiprocessor, never
/// below policy.min_steps steps of `step` elements per block, at most the grid's y
/// limit. Returns the per-block extent (a multiple of step) in `extent`.
inline int64_t split_count(int64_t split, int64_t len, int64_t step, int64_t other_blocks,
                           const SplitPolicy& policy, int64_t& extent) {
  int64_t y = split;
  if (y <= 0) {
    const int64_t target = static_cast<int64_t>(policy.blocks_per_sm) * multiprocessor_count();
    y = imin(ceil_div(target, imax(other_blocks, 1)), ceil_div(len, step * policy.min_steps));
  }
  y = imax(1, imin(imin(y, common::kMaxGridY), ceil_div(len, step)));
  extent = ceil_div(ceil_div(len, y), step) * step;
  return ceil_div(len, extent);
}

template <typename T, int kTx, int kTy, int kUnroll, bool kPrefetch, int kMinBlocksPerSm>
void launch_gemv_n(cudaStream_t stream, int64_t m, int64_t n, T alpha, const T* A, int64_t lda,
                   const T* x, int64_t incx, T beta, T* y, int64_t incy, int64_t split) {
  using D = common::device_t<T>;
  constexpr int kRows = kTx * kVecOf<D>;
  const Alignment al = alignment_of(A, lda, sizeof(T));
  const int64_t row_blocks = ceil_div(m + al.shift, kRows);
  int64_t cols = 0;
  const int64_t ny =
      split_count(split, n, kTy * kUnroll, row_blocks, GemvTuning<T>::kSplitN, cols);
  if (ny > 1) common::scale_vector<T>(stream, m, beta, y, incy);
  const dim3 grid(static_cast<unsigned>(row_blocks), static_cast<unsigned>(ny));
  const dim3 block(kTx, kTy);
  gemv_n_kernel<D, kTx, kTy, kUnroll, kPrefetch, kMinBlocksPerSm><<<grid, block, 0, stream>>>(
      m, n, common::to_device(alpha), common::device_ptr(A), lda, al.shift, al.vector_ok,
      common::device_ptr(x), incx, common::to_device(beta), common::device_ptr(y), incy, cols);
  MGBLAS_CHECK_LAUNCH(stream);
}

template <typename T, int kTx, int kTy, int kCols, int kSteps, bool kPrefetch,
          int kMinBlocksPerSm, bool kConj>
void launch_gemv_t(cudaStream_t stream, int64_t m, int64_t n, T alpha, const T* A, int64_t lda,
                   const T* x, int64_t incx, T beta, T* y, int64_t incy, int64_t split) {
  using D = common::device_t<T>;
  constexpr int kRows = kTx * kVecOf<D>;
  const Alignment al = alignment_of(A, lda, sizeof(T));
  const int64_t col_blocks = ceil_div(n, kTy * kCols);
  int64_t rows = 0;
  const int64_t ny =
      split_count(split, m + al.shift, kSteps * kRows, col_blocks, GemvTuning<T>::kSplitT, rows);
  if (ny > 1) common::scale_vector<T>(stream, n, beta, y, incy);
  // x may be read in 16-byte chunks when it is contiguous and its virtual row 0 is
  // 16-byte aligned, as A's chunks are.
  const auto x_addr = reinterpret_cast<uintptr_t>(x) - static_cast<uintptr_t>(al.shift * sizeof(T));
  const bool x_vec_ok = al.vector_ok && incx == 1 && x_addr % 16 == 0;
  const dim3 grid(static_cast<unsigned>(col_blocks), static_cast<unsigned>(ny));
  const dim3 block(kTx, kTy);
  gemv_t_kernel<D, kTx, kTy, kCols, kSteps, kPrefetch, kMinBlocksPerSm, kConj><<<grid, block, 0, stream>>>(
      m, n, common::to_device(alpha), common::device_ptr(A), lda, al.shift, al.vector_ok,
      common::device_ptr(x), incx, x_vec_ok, common::to_device(beta), common::device_ptr(y),
      incy, rows);
  MGBLAS_CHECK_LAUNCH(stream);
}

template <Scalar T>
void gemv(cudaStream_t stream, Op op, int64_t m, int64_t n, T alpha, const T* A, int64_t lda,
          int64_t row_off, int64_t col_off, const T* x, int64_t incx, T beta, T* y, int64_t incy,
          Params params) {
  const bool notrans = op == Op::N;
  const int64_t ylen = notrans ? m : n;
  const int64_t inner = notrans ? n : m;
  if (ylen <= 0) return;
  if (inner <= 0 || alpha == T(0)) {
    common::scale_vector<T>(stream, ylen, beta, y, incy);
    return;
  }
  const T* Asub = A + row_off + col_off * lda;
  using Tuning = GemvTuning<T>;
  if (notrans) {
    with_variant<built_variants<Tuning::kN.size()>>(params.variant, [&](auto v) {
      constexpr GemvNShape s = Tuning::kN[decltype(v)::value];
      launch_gemv_n<T, s.tx, s.ty, s.unroll, s.prefetch, s.min_blocks>(stream, m, n, alpha, Asub, lda, x, incx, beta, y,
                                             incy, params.split);
    });
  } else {
    with_variant<built_variants<Tuning::kT.size()>>(params.variant, [&](auto v) {
      constexpr GemvTShape s = Tuning::kT[decltype(v)::value];
      if (is_complex_v<T> && op == Op::C)
        launch_gemv_t<T, s.tx, s.ty, s.cols, s.steps, s.prefetch, s.min_blocks,
                      is_complex_v<T>>(stream, m, n, alpha, Asub, lda, x,
                                                              incx, beta, y, incy, params.split);
      else
        launch_gemv_t<T, s.tx, s.ty, s.cols, s.steps, s.prefetch, s.min_blocks, false>(stream, m, n, alpha, Asub, lda, x, incx,
                                                    beta, y, incy, params.split);
    });
  }
}

template <Scalar T>
int gemv_variant_count(Op op) {
  using Tuning = GemvTuning<T>;
  return static_cast<int>(op == Op::N ? built_variants<Tuning::kN.size()>
                                      : built_variants<Tuning::kT.size()>);
}

template <Scalar T>
std::string gemv_variant_name(Op op, int variant) {
  using Tuning = GemvTuning<T>;
  if (variant < 0 || variant >= gemv_variant_count<T>(op)) return "none";
  if (op == Op::N) {
    const GemvNShape s = Tuning::kN[variant];
    return "gemvN " + std::to_string(s.tx) + "x" + std::to_string(s.ty) + "x" +
           std::to_string(s.unroll) + (s.prefetch ? " pf" : "");
  }
  const GemvTShape s = Tuning::kT[variant];
  return std::string("gemv") + to_string(op) + " " + std::to_string(s.tx) + "x" +
         std::to_string(s.ty) + "x" + std::to_string(s.cols) + "x" + std::to_string(s.steps) +
         (s.prefetch ? " pf" : "");
}

}  // namespace mgblas::kernels::cuda::level2

#define MGBLAS_GEMV_LEVEL2_INSTANTIATE(T) MGBLAS_GEMV_LEVEL2_DECLARE_(, T)
