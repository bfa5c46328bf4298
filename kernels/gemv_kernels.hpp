// SPDX-License-Identifier: BSD-3-Clause
// GEMV kernels: y = alpha * op(A) * x + beta * y, column-major A (m x n).
//
// The offset form works on the submatrix A(row_off : row_off+m, col_off : col_off+n)
// of a parent matrix that starts at `A` with leading dimension `lda`; an engine may
// use the parent's alignment (KBLAS offset kernels). beta == 0 never reads y.
#pragma once

#include "kernels/kernel_declaration.hpp"

#define MGBLAS_DECLARE_GEMV_KERNEL(T)                                                      \
  void gemv(const Device& dev, cudaStream_t stream, Op op, int64_t m, int64_t n, T alpha,  \
            const T* A, int64_t lda, const T* x, int64_t incx, T beta, T* y, int64_t incy)

#define MGBLAS_DECLARE_GEMV_OFFSET_KERNEL(T)                                               \
  void gemv_offset(const Device& dev, cudaStream_t stream, Op op, int64_t m, int64_t n,    \
                   T alpha, const T* A, int64_t lda, int64_t row_off, int64_t col_off,     \
                   const T* x, int64_t incx, T beta, T* y, int64_t incy)

MGBLAS_DECLARE_FOR_BACKENDS(MGBLAS_DECLARE_GEMV_KERNEL)
MGBLAS_DECLARE_FOR_BACKENDS(MGBLAS_DECLARE_GEMV_OFFSET_KERNEL)
