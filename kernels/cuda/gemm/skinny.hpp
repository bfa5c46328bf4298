// SPDX-License-Identifier: BSD-3-Clause
// The CUDA engine's float and complex float symmetric / Hermitian products with 17 to 32
// columns, C = alpha S B + beta C with one triangle of S stored, where cuBLAS's SSYMM and
// CHEMM are slow (the kernels and why: skinny.cu). gemm.cu's hemm asks serves_symm() first;
// MGBLAS_SYMM_SKINNY=0 sends every shape back to cuBLAS.
#pragma once

#include <cuda_runtime.h>

#include <complex>
#include <cstdint>

#include "core/types.hpp"

namespace mgblas::kernels::cuda::skinny {

inline constexpr int kMaxColumns = 32;
/// The smallest m served: below, the product is a few microseconds either way.
inline constexpr int64_t kMinSide = 512;

/// Whether symm and hemm below take the product of an m x m S with n columns
/// (16 < n <= kMaxColumns, m >= kMinSide, MGBLAS_SYMM_SKINNY not 0).
bool serves_symm(int64_t m, int64_t n);

/// C = alpha S B + beta C on `stream` (current device): S the m x m symmetric matrix whose
/// `uplo` triangle is stored in A (the other one is not read), B and C m x n,
/// 1 <= n <= kMaxColumns; beta == 0 never reads C.
void symm(cudaStream_t stream, Uplo uplo, int64_t m, int n, float alpha, const float* A,
          int64_t lda, const float* B, int64_t ldb, float beta, float* C, int64_t ldc);

/// The same in complex float with S Hermitian (the diagonal's imaginary part read as zero).
void hemm(cudaStream_t stream, Uplo uplo, int64_t m, int n, std::complex<float> alpha,
          const std::complex<float>* A, int64_t lda, const std::complex<float>* B, int64_t ldb,
          std::complex<float> beta, std::complex<float>* C, int64_t ldc);

}  // namespace mgblas::kernels::cuda::skinny
