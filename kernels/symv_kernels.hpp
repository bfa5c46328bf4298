// SPDX-License-Identifier: BSD-3-Clause
// SYMV/HEMV kernels: y = alpha * A * x + beta * y with A (n x n) symmetric (symv) or
// Hermitian (hemv), only the `uplo` triangle referenced. For real T the two are the
// same operation; for complex T symv is the complex-symmetric product (no conjugate).
// Hermitian: the imaginary parts of the diagonal are taken as zero.
//
// Offset form: the n x n diagonal submatrix starting at (off, off) of the parent A.
// beta == 0 never reads y.
#pragma once

#include "kernels/kernel_declaration.hpp"

#define MGBLAS_DECLARE_SYMV_KERNEL(T)                                                      \
  void symv(const Device& dev, cudaStream_t stream, Uplo uplo, int64_t n, T alpha,         \
            const T* A, int64_t lda, const T* x, int64_t incx, T beta, T* y, int64_t incy)
#define MGBLAS_DECLARE_HEMV_KERNEL(T)                                                      \
  void hemv(const Device& dev, cudaStream_t stream, Uplo uplo, int64_t n, T alpha,         \
            const T* A, int64_t lda, const T* x, int64_t incx, T beta, T* y, int64_t incy)
#define MGBLAS_DECLARE_SYMV_OFFSET_KERNEL(T)                                               \
  void symv_offset(const Device& dev, cudaStream_t stream, Uplo uplo, int64_t n, T alpha,  \
                   const T* A, int64_t lda, int64_t off, const T* x, int64_t incx, T beta, \
                   T* y, int64_t incy)
#define MGBLAS_DECLARE_HEMV_OFFSET_KERNEL(T)                                               \
  void hemv_offset(const Device& dev, cudaStream_t stream, Uplo uplo, int64_t n, T alpha,  \
                   const T* A, int64_t lda, int64_t off, const T* x, int64_t incx, T beta, \
                   T* y, int64_t incy)

MGBLAS_DECLARE_FOR_BACKENDS(MGBLAS_DECLARE_SYMV_KERNEL)
MGBLAS_DECLARE_FOR_BACKENDS(MGBLAS_DECLARE_HEMV_KERNEL)
MGBLAS_DECLARE_FOR_BACKENDS(MGBLAS_DECLARE_SYMV_OFFSET_KERNEL)
MGBLAS_DECLARE_FOR_BACKENDS(MGBLAS_DECLARE_HEMV_OFFSET_KERNEL)
