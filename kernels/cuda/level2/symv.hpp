// SPDX-License-Identifier: BSD-3-Clause
// mgblas's own SYMV/HEMV kernels, host side (private to the CUDA engine, its tests and
// testers). Plain C++: no CUDA header needed to call them.
#pragma once

#include <cstdint>
#include <string>

#include "core/device.hpp"
#include "core/types.hpp"
#include "kernels/columns.hpp"
#include "kernels/cuda/level2/gemv.hpp"
#include "layouts/local_columns.hpp"

namespace mgblas::kernels::cuda::level2 {

/// y = alpha * Asub * x + beta * y, Asub = A(off : off + n, off : off + n) of the
/// parent A (leading dimension lda), symmetric (hermitian = false; complex-symmetric
/// for complex T) or Hermitian (diagonal imaginary parts taken as zero), only the
/// `uplo` triangle read. Whole matrix: off = 0. Queued on `stream`; never waits. Reads
/// aligned to the parent's 128-byte segments. 64-bit sizes. n == 0: nothing;
/// alpha == 0: y = beta * y; beta == 0: y not read. params.split, when > 0, is the
/// number of tiles per block (0: the tuning policy).
/// Preconditions: n >= 0, lda >= max(1, off + n), incx, incy > 0, pointers aligned to
/// their element type.
template <Scalar T>
void symv(cudaStream_t stream, Uplo uplo, bool hermitian, int64_t n, T alpha, const T* A,
          int64_t lda, int64_t off, const T* x, int64_t incx, T beta, T* y, int64_t incy,
          Params params = {});

/// Rows and columns of the kernel's tiles for precision T (every tuning set of T).
template <Scalar T>
constexpr int64_t symv_tile() {
  return symv_columns_tile<T>();
}

/// y += alpha * (the columns `cols` of S) * x (and their mirror), S = A(off:n, off:n)
/// symmetric or Hermitian with its `uplo` triangle stored: summed over every device's
/// columns, y = alpha * S * x. A holds the device's local columns, all n rows of each
/// (leading dimension lda >= n); cols says which global column each is
/// (layouts/local_columns.hpp); cols.nb, cols.stride and cols.first_col must be
/// multiples of symv_tile<T>(). x and y are indexed from off (length n - off, unit
/// stride); y accumulates (atomically, so several calls may add into it). quad, when
/// not null, accumulates x^H times what this call adds to y (summed over the devices:
/// x^H (alpha S) x); real symmetric or Hermitian S only (else NotImplemented). Queued
/// on `stream`. The dispatcher's tuning set for n - off.
template <Scalar T>
void symv_cyclic(cudaStream_t stream, Uplo uplo, bool hermitian, int64_t n, int64_t off,
                 const LocalColumns& cols, T alpha, const T* A, int64_t lda, const T* x, T* y,
                 T* quad = nullptr);

template <Scalar T> int symv_variant_count();
/// "symvL 32x8 nb64" style name of a tuning set.
template <Scalar T> std::string symv_variant_name(Uplo uplo, bool hermitian, int variant);

#define MGBLAS_SYMV_LEVEL2_DECLARE_(PREFIX, T)                                               \
  PREFIX template void symv<T>(cudaStream_t, Uplo, bool, int64_t, T, const T*, int64_t,      \
                               int64_t, const T*, int64_t, T, T*, int64_t, Params);          \
  PREFIX template void symv_cyclic<T>(cudaStream_t, Uplo, bool, int64_t, int64_t,            \
                                      const LocalColumns&, T, const T*, int64_t, const T*, T*,  \
                                      T*);                                                   \
  PREFIX template int symv_variant_count<T>();                                               \
  PREFIX template std::string symv_variant_name<T>(Uplo, bool, int);
#define MGBLAS_SYMV_LEVEL2_EXTERN_(T) MGBLAS_SYMV_LEVEL2_DECLARE_(extern, T)
MGBLAS_FOR_EACH_SCALAR(MGBLAS_SYMV_LEVEL2_EXTERN_)
#undef MGBLAS_SYMV_LEVEL2_EXTERN_

}  // namespace mgblas::kernels::cuda::level2
