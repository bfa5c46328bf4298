// SPDX-License-Identifier: BSD-3-Clause
// mgblas's own GEMV kernels, host side (private to the CUDA engine, its tests and
// testers). Plain C++: no CUDA header needed to call them.
#pragma once

#include <cstdint>
#include <string>

#include "core/device.hpp"
#include "core/types.hpp"

namespace mgblas::kernels::cuda::level2 {

/// Per-call choices: which compiled tuning set (see gemv_tuning.hpp) and, when > 0,
/// how many blocks split the long dimension (KBLAS's Y; 0: the tuning set's policy).
struct Params {
  int variant = 0;
  int64_t split = 0;
};

/// y = alpha * op(Asub) * x + beta * y, Asub = A(row_off : row_off + m,
/// col_off : col_off + n) of the parent A (leading dimension lda); a whole matrix is
/// row_off = col_off = 0. Queued on `stream` of the current device; never waits.
/// Reads of A are aligned to the parent's 128-byte segments whatever the offsets.
/// Sizes are 64-bit throughout (no kernel limit below 2^31 blocks of rows).
/// Zero output length: nothing. Zero inner length or alpha == 0: y = beta * y.
/// beta == 0: y is written without being read.
/// Preconditions (checked by the public entry / dispatcher): m, n >= 0,
/// lda >= max(1, row_off + m), incx, incy > 0, A, x, y aligned to their element
/// type (std::complex<double>: 16 bytes).
template <Scalar T>
void gemv(cudaStream_t stream, Op op, int64_t m, int64_t n, T alpha, const T* A, int64_t lda,
          int64_t row_off, int64_t col_off, const T* x, int64_t incx, T beta, T* y, int64_t incy,
          Params params = {});

/// Number of tuning sets compiled for op (1 in the CI instance list).
template <Scalar T> int gemv_variant_count(Op op);
/// "gemvN 32x8x4" style name of a tuning set, for testers and logs.
template <Scalar T> std::string gemv_variant_name(Op op, int variant);

#define MGBLAS_GEMV_LEVEL2_DECLARE_(PREFIX, T)                                              \
  PREFIX template void gemv<T>(cudaStream_t, Op, int64_t, int64_t, T, const T*, int64_t,    \
                               int64_t, int64_t, const T*, int64_t, T, T*, int64_t, Params); \
  PREFIX template int gemv_variant_count<T>(Op);                                            \
  PREFIX template std::string gemv_variant_name<T>(Op, int);
#define MGBLAS_GEMV_LEVEL2_EXTERN_(T) MGBLAS_GEMV_LEVEL2_DECLARE_(extern, T)
MGBLAS_FOR_EACH_SCALAR(MGBLAS_GEMV_LEVEL2_EXTERN_)
#undef MGBLAS_GEMV_LEVEL2_EXTERN_

}  // namespace mgblas::kernels::cuda::level2
