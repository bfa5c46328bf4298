// SPDX-License-Identifier: BSD-3-Clause
// GEMM kernels: C = alpha * op(A) * op(B) + beta * C, column-major, C is m x n and
// the inner dimension is k. beta == 0 never reads C.
//
// gemm is the general product; tsgemm is the same operation for tall-and-skinny
// shapes (TSM2R: large A times skinny B; TSM2L: tall-skinny A times small B; and
// A^T * B with two tall inputs), where an engine may choose dedicated kernels.
#pragma once

#include "kernels/kernel_declaration.hpp"

#define MGBLAS_DECLARE_GEMM_KERNEL(T)                                                      \
  void gemm(const Device& dev, cudaStream_t stream, Op opA, Op opB, int64_t m, int64_t n,  \
            int64_t k, T alpha, const T* A, int64_t lda, const T* B, int64_t ldb, T beta,  \
            T* C, int64_t ldc)
#define MGBLAS_DECLARE_TSGEMM_KERNEL(T)                                                    \
  void tsgemm(const Device& dev, cudaStream_t stream, Op opA, Op opB, int64_t m,           \
              int64_t n, int64_t k, T alpha, const T* A, int64_t lda, const T* B,          \
              int64_t ldb, T beta, T* C, int64_t ldc)

MGBLAS_DECLARE_FOR_BACKENDS(MGBLAS_DECLARE_GEMM_KERNEL)
MGBLAS_DECLARE_FOR_BACKENDS(MGBLAS_DECLARE_TSGEMM_KERNEL)
