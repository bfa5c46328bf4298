// SPDX-License-Identifier: BSD-3-Clause
// SYMV/HEMV launchers (private): beta pre-scaling, tiles per block, variant selection.
// Included by the per-precision instance files symv_{s,d,c,z}.cu only.
#pragma once

#include <string>

#include "core/detail/cuda_check.hpp"
#include "kernels/cuda/engine/launchers.hpp"
#include "kernels/cuda/symv/symv.cuh"
#include "kernels/cuda/symv/symv.hpp"
#include "kernels/cuda/symv/symv_tuning.hpp"
#include "kernels/cuda/tuning/level2_dispatch.hpp"
#include "kernels/cuda/tuning/variant.hpp"

namespace mgblas::kernels::cuda::level2 {

template <typename T, int kTx, int kTy, bool kPrefetch, int kMinBlocksPerSm, bool kLower,
          bool kConj>
void launch_symv(cudaStream_t stream, int64_t n, T alpha, const T* A, int64_t lda, const T* x,
                 int64_t incx, T* y, int64_t incy, int64_t split) {
  using D = device::device_t<T>;
  constexpr int kNb = kTx * kVecOf<D>;
  const Alignment al = alignment_of(A, lda, sizeof(T));
  const int64_t nt = ceil_div(n + al.shift, kNb);
  // Spread the nt (nt + 1) / 2 stored tiles evenly over the target number of blocks;
  // a block column then has ceil(its tiles / per_block) busy blocks.
  int64_t per_block = split;
  if (per_block <= 0) {
    const int64_t target =
        static_cast<int64_t>(SymvTuning<T>::kSplit.blocks_per_sm) * multiprocessor_count();
    per_block = ceil_div(nt * (nt + 1) / 2, target);
  }
  per_block = imax(per_block, ceil_div(nt, device::kMaxGridY));
  per_block = imax(1, imin(per_block, nt));
  const dim3 grid(static_cast<unsigned>(nt), static_cast<unsigned>(ceil_div(nt, per_block)));
  const dim3 block(kTx, kTy);
  symv_kernel<D, kTx, kTy, kPrefetch, kMinBlocksPerSm, kLower, kConj><<<grid, block, 0, stream>>>(
      n, device::to_device(alpha), device::device_ptr(A), lda, al.shift, al.vector_ok,
      device::device_ptr(x), incx, device::device_ptr(y), incy, per_block);
  MGBLAS_CHECK_LAUNCH(stream);
}

template <Scalar T>
void symv(cudaStream_t stream, Uplo uplo, bool hermitian, int64_t n, T alpha, const T* A,
          int64_t lda, int64_t off, const T* x, int64_t incx, T beta, T* y, int64_t incy,
          Params params) {
  if (n <= 0) return;
  // Many blocks add into every element of y, so beta is applied first (beta == 1: no
  // launch; beta == 0: zeros written, y not read).
  detail::scale_vector<T>(stream, n, beta, y, incy);
  if (alpha == T(0)) return;
  const T* Asub = A + off + off * lda;
  using Tuning = SymvTuning<T>;
  with_variant<built_variants<Tuning::kShapes.size()>>(params.variant, [&](auto v) {
    constexpr SymvShape s = Tuning::kShapes[decltype(v)::value];
    auto run = [&](auto lower, auto conj) {
      launch_symv<T, s.tx, s.ty, s.prefetch, s.min_blocks, decltype(lower)::value,
                  decltype(conj)::value>(
          stream, n, alpha, Asub, lda, x, incx, y, incy, params.split);
    };
    using True = std::true_type;
    using False = std::false_type;
    // Real types: symmetric and Hermitian are one operation, one kernel.
    if constexpr (is_complex_v<T>) {
      if (uplo == Uplo::Lower) {
        if (hermitian) run(True{}, True{});
        else run(True{}, False{});
      } else {
        if (hermitian) run(False{}, True{});
        else run(False{}, False{});
      }
    } else {
      if (uplo == Uplo::Lower) run(True{}, False{});
      else run(False{}, False{});
    }
  });
}

template <Scalar T>
int symv_variant_count() {
  return static_cast<int>(built_variants<SymvTuning<T>::kShapes.size()>);
}

template <Scalar T>
std::string symv_variant_name(Uplo uplo, bool hermitian, int variant) {
  if (variant < 0 || variant >= symv_variant_count<T>()) return "none";
  const SymvShape s = SymvTuning<T>::kShapes[variant];
  const int nb = s.tx * 16 / static_cast<int>(sizeof(T));
  return std::string(is_complex_v<T> && hermitian ? "hemv" : "symv") + to_string(uplo) + " " +
         std::to_string(s.tx) + "x" + std::to_string(s.ty) + " nb" + std::to_string(nb) +
         (s.prefetch ? " pf" : "");
}

}  // namespace mgblas::kernels::cuda::level2

#define MGBLAS_SYMV_LEVEL2_INSTANTIATE(T) MGBLAS_SYMV_LEVEL2_DECLARE_(, T)
