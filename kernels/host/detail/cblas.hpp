// SPDX-License-Identifier: BSD-3-Clause
// The host engine's door to CBLAS (OpenBLAS) and LAPACK(E), private to kernels/host:
// - checked narrowing of mgblas's int64_t to the BLAS integer (32-bit here);
// - one overload per precision of each CBLAS/LAPACK routine the engine calls, column-major;
// - beta scaling with the BLAS-free beta == 0 case, and the gemm of one entry, shared
//   by the plain and the batched kernels.
#pragma once

#include <cblas.h>

#include <complex>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <source_location>
#include <type_traits>
#include <vector>

#include "core/error.hpp"
#include "core/types.hpp"

// LAPACKE's complex types as std::complex (layout-compatible), before lapacke.h.
#define lapack_complex_float std::complex<float>
#define lapack_complex_double std::complex<double>
#include <lapacke.h>

// LAPACK's complex symmetric product (BLAS has only the Hermitian one) has no LAPACKE
// wrapper: the Fortran entries, with the hidden length of the character argument last.
extern "C" {
void csymv_(const char* uplo, const blasint* n, const std::complex<float>* alpha,
            const std::complex<float>* A, const blasint* lda, const std::complex<float>* x,
            const blasint* incx, const std::complex<float>* beta, std::complex<float>* y,
            const blasint* incy, std::size_t uplo_len);
void zsymv_(const char* uplo, const blasint* n, const std::complex<double>* alpha,
            const std::complex<double>* A, const blasint* lda, const std::complex<double>* x,
            const blasint* incx, const std::complex<double>* beta, std::complex<double>* y,
            const blasint* incy, std::size_t uplo_len);
}

namespace mgblas::kernels::host::detail {

using blas_int = blasint;

/// `v` as the BLAS integer. The error names `func` (a string literal: Error keeps the
/// pointer) and the argument, and is raised before any output is written.
inline blas_int to_blas_int(const char* func, const char* name, int64_t v,
                            std::source_location where = std::source_location::current()) {
  constexpr int64_t kMax = std::numeric_limits<blas_int>::max();
  if (v > kMax)
    throw BadArgument(where.file_name(), static_cast<int>(where.line()), func,
                      ::mgblas::detail::concat("argument '", name, "' = ", v, ": must be <= ", kMax,
                                               ": the host engine limits it to the 32-bit "
                                               "CBLAS integer"));
  return static_cast<blas_int>(v);
}

/// Op::C on a real type is a plain transpose.
template <Scalar T>
CBLAS_TRANSPOSE to_cblas(Op op) {
  if (op == Op::N) return CblasNoTrans;
  return op == Op::C && is_complex_v<T> ? CblasConjTrans : CblasTrans;
}
inline CBLAS_UPLO to_cblas(Uplo uplo) { return uplo == Uplo::Lower ? CblasLower : CblasUpper; }

// ---- precision overloads ---------------------------------------------------------

inline void scal(blas_int n, float a, float* x, blas_int incx) { cblas_sscal(n, a, x, incx); }
inline void scal(blas_int n, double a, double* x, blas_int incx) { cblas_dscal(n, a, x, incx); }
inline void scal(blas_int n, scomplex a, scomplex* x, blas_int incx) {
  cblas_cscal(n, &a, x, incx);
}
inline void scal(blas_int n, zcomplex a, zcomplex* x, blas_int incx) {
  cblas_zscal(n, &a, x, incx);
}

inline void gemv(CBLAS_TRANSPOSE op, blas_int m, blas_int n, float alpha, const float* A,
                 blas_int lda, const float* x, blas_int incx, float beta, float* y, blas_int incy) {
  cblas_sgemv(CblasColMajor, op, m, n, alpha, A, lda, x, incx, beta, y, incy);
}
inline void gemv(CBLAS_TRANSPOSE op, blas_int m, blas_int n, double alpha, const double* A,
                 blas_int lda, const double* x, blas_int incx, double beta, double* y,
                 blas_int incy) {
  cblas_dgemv(CblasColMajor, op, m, n, alpha, A, lda, x, incx, beta, y, incy);
}
/// OpenBLAS before 0.3.24 (Debian 12 ships 0.3.21) reads one element past x in its
/// c/zgemv_n kernel when m % 4 == 2 (OpenBLAS issue 4013); with x a row of a matrix
/// (incx = ld) that lands past the matrix. The complex no-transpose products therefore
/// read x from a contiguous copy one element longer (an O(n) copy beside O(mn) work).
template <typename C>
const C* gemv_n_safe_x(CBLAS_TRANSPOSE op, blas_int n, const C* x, blas_int& incx) {
  if (op != CblasNoTrans || n <= 0) return x;
  thread_local std::vector<C> copy;
  copy.assign(static_cast<std::size_t>(n) + 1, C(0));
  for (blas_int i = 0; i < n; ++i) copy[i] = x[static_cast<int64_t>(i) * incx];
  incx = 1;
  return copy.data();
}
inline void gemv(CBLAS_TRANSPOSE op, blas_int m, blas_int n, scomplex alpha, const scomplex* A,
                 blas_int lda, const scomplex* x, blas_int incx, scomplex beta, scomplex* y,
                 blas_int incy) {
  x = gemv_n_safe_x(op, n, x, incx);
  cblas_cgemv(CblasColMajor, op, m, n, &alpha, A, lda, x, incx, &beta, y, incy);
}
inline void gemv(CBLAS_TRANSPOSE op, blas_int m, blas_int n, zcomplex alpha, const zcomplex* A,
                 blas_int lda, const zcomplex* x, blas_int incx, zcomplex beta, zcomplex* y,
                 blas_int incy) {
  x = gemv_n_safe_x(op, n, x, incx);
  cblas_zgemv(CblasColMajor, op, m, n, &alpha, A, lda, x, incx, &beta, y, incy);
}

/// Symmetric for real types, Hermitian for complex ones: the product BLAS provides for
/// each. (Complex symmetric is LAPACK's ?symv: complex_symv below.)
inline void symv_or_hemv(CBLAS_UPLO uplo, blas_int n, float alpha, const float* A, blas_int lda,
                         const float* x, blas_int incx, float beta, float* y, blas_int incy) {
  cblas_ssymv(CblasColMajor, uplo, n, alpha, A, lda, x, incx, beta, y, incy);
}
inline void symv_or_hemv(CBLAS_UPLO uplo, blas_int n, double alpha, const double* A, blas_int lda,
                         const double* x, blas_int incx, double beta, double* y, blas_int incy) {
  cblas_dsymv(CblasColMajor, uplo, n, alpha, A, lda, x, incx, beta, y, incy);
}
inline void symv_or_hemv(CBLAS_UPLO uplo, blas_int n, scomplex alpha, const scomplex* A,
                         blas_int lda, const scomplex* x, blas_int incx, scomplex beta, scomplex* y,
                         blas_int incy) {
  cblas_chemv(CblasColMajor, uplo, n, &alpha, A, lda, x, incx, &beta, y, incy);
}
inline void symv_or_hemv(CBLAS_UPLO uplo, blas_int n, zcomplex alpha, const zcomplex* A,
                         blas_int lda, const zcomplex* x, blas_int incx, zcomplex beta, zcomplex* y,
                         blas_int incy) {
  cblas_zhemv(CblasColMajor, uplo, n, &alpha, A, lda, x, incx, &beta, y, incy);
}

/// Complex symmetric (not Hermitian) y = alpha A x + beta y: LAPACK's c/zsymv.
inline void complex_symv(CBLAS_UPLO uplo, blas_int n, scomplex alpha, const scomplex* A,
                         blas_int lda, const scomplex* x, blas_int incx, scomplex beta, scomplex* y,
                         blas_int incy) {
  const char u = uplo == CblasLower ? 'L' : 'U';
  csymv_(&u, &n, &alpha, A, &lda, x, &incx, &beta, y, &incy, 1);
}
inline void complex_symv(CBLAS_UPLO uplo, blas_int n, zcomplex alpha, const zcomplex* A,
                         blas_int lda, const zcomplex* x, blas_int incx, zcomplex beta, zcomplex* y,
                         blas_int incy) {
  const char u = uplo == CblasLower ? 'L' : 'U';
  zsymv_(&u, &n, &alpha, A, &lda, x, &incx, &beta, y, &incy, 1);
}

inline void copy(blas_int n, const float* x, blas_int incx, float* y, blas_int incy) {
  cblas_scopy(n, x, incx, y, incy);
}
inline void copy(blas_int n, const double* x, blas_int incx, double* y, blas_int incy) {
  cblas_dcopy(n, x, incx, y, incy);
}
inline void copy(blas_int n, const scomplex* x, blas_int incx, scomplex* y, blas_int incy) {
  cblas_ccopy(n, x, incx, y, incy);
}
inline void copy(blas_int n, const zcomplex* x, blas_int incx, zcomplex* y, blas_int incy) {
  cblas_zcopy(n, x, incx, y, incy);
}

inline void axpy(blas_int n, float a, const float* x, blas_int incx, float* y, blas_int incy) {
  cblas_saxpy(n, a, x, incx, y, incy);
}
inline void axpy(blas_int n, double a, const double* x, blas_int incx, double* y, blas_int incy) {
  cblas_daxpy(n, a, x, incx, y, incy);
}
inline void axpy(blas_int n, scomplex a, const scomplex* x, blas_int incx, scomplex* y,
                 blas_int incy) {
  cblas_caxpy(n, &a, x, incx, y, incy);
}
inline void axpy(blas_int n, zcomplex a, const zcomplex* x, blas_int incx, zcomplex* y,
                 blas_int incy) {
  cblas_zaxpy(n, &a, x, incx, y, incy);
}

/// The one of four per-precision routines (s, d, c, z) that takes T.
template <Scalar T, typename S, typename D, typename C, typename Z>
constexpr auto by_precision(S s, D d, C c, Z z) {
  if constexpr (std::is_same_v<T, float>) return s;
  else if constexpr (std::is_same_v<T, double>) return d;
  else if constexpr (std::is_same_v<T, scomplex>) return c;
  else return z;
}

// LAPACKE's _work entries: no argument or NaN checks, as for the engine's other calls.

/// B = A on the `uplo` triangle ('L', 'U') or the whole m x n matrix (any other char).
template <Scalar T>
void lacpy(char uplo, blas_int m, blas_int n, const T* A, blas_int lda, T* B, blas_int ldb) {
  by_precision<T>(LAPACKE_slacpy_work, LAPACKE_dlacpy_work, LAPACKE_clacpy_work,
                  LAPACKE_zlacpy_work)(LAPACK_COL_MAJOR, uplo, m, n, A, lda, B, ldb);
}

/// A = beta on the diagonal and alpha off it, on the `uplo` triangle ('L', 'U') or all
/// of the m x n matrix.
template <Scalar T>
void laset(char uplo, blas_int m, blas_int n, T alpha, T beta, T* A, blas_int lda) {
  by_precision<T>(LAPACKE_slaset_work, LAPACKE_dlaset_work, LAPACKE_claset_work,
                  LAPACKE_zlaset_work)(LAPACK_COL_MAJOR, uplo, m, n, alpha, beta, A, lda);
}

inline void gemm(CBLAS_TRANSPOSE opA, CBLAS_TRANSPOSE opB, blas_int m, blas_int n, blas_int k,
                 float alpha, const float* A, blas_int lda, const float* B, blas_int ldb,
                 float beta, float* C, blas_int ldc) {
  cblas_sgemm(CblasColMajor, opA, opB, m, n, k, alpha, A, lda, B, ldb, beta, C, ldc);
}
inline void gemm(CBLAS_TRANSPOSE opA, CBLAS_TRANSPOSE opB, blas_int m, blas_int n, blas_int k,
                 double alpha, const double* A, blas_int lda, const double* B, blas_int ldb,
                 double beta, double* C, blas_int ldc) {
  cblas_dgemm(CblasColMajor, opA, opB, m, n, k, alpha, A, lda, B, ldb, beta, C, ldc);
}
inline void gemm(CBLAS_TRANSPOSE opA, CBLAS_TRANSPOSE opB, blas_int m, blas_int n, blas_int k,
                 scomplex alpha, const scomplex* A, blas_int lda, const scomplex* B, blas_int ldb,
                 scomplex beta, scomplex* C, blas_int ldc) {
  cblas_cgemm(CblasColMajor, opA, opB, m, n, k, &alpha, A, lda, B, ldb, &beta, C, ldc);
}
inline void gemm(CBLAS_TRANSPOSE opA, CBLAS_TRANSPOSE opB, blas_int m, blas_int n, blas_int k,
                 zcomplex alpha, const zcomplex* A, blas_int lda, const zcomplex* B, blas_int ldb,
                 zcomplex beta, zcomplex* C, blas_int ldc) {
  cblas_zgemm(CblasColMajor, opA, opB, m, n, k, &alpha, A, lda, B, ldb, &beta, C, ldc);
}

// ---- shared pieces of the kernels ------------------------------------------------

/// y = beta * y. beta == 0 stores zeros without reading y: BLAS scal multiplies, and
/// 0 * NaN would leak the caller's garbage into the result.
template <Scalar T>
void scale_vector(blas_int n, T beta, T* y, blas_int incy) {
  if (beta == T(0)) {
    for (int64_t i = 0; i < n; ++i) y[i * incy] = T(0);
  } else if (beta != T(1)) {
    scal(n, beta, y, incy);
  }
}

/// C = beta * C for an m x n matrix, column by column (padding untouched).
template <Scalar T>
void scale_matrix(blas_int m, blas_int n, T beta, T* C, blas_int ldc) {
  if (beta == T(1)) return;
  for (int64_t j = 0; j < n; ++j) scale_vector(m, beta, C + j * int64_t{ldc}, 1);
}

/// One gemm, sizes already narrowed. The output is zeroed or scaled here rather than
/// by the BLAS, whose beta == 0 may read C and whose k == 0 may return untouched.
template <Scalar T>
void gemm_entry(Op opA, Op opB, blas_int m, blas_int n, blas_int k, T alpha, const T* A,
                blas_int lda, const T* B, blas_int ldb, T beta, T* C, blas_int ldc) {
  if (m == 0 || n == 0) return;
  if (k == 0 || alpha == T(0)) {
    scale_matrix(m, n, beta, C, ldc);
    return;
  }
  if (beta == T(0)) scale_matrix(m, n, beta, C, ldc);
  gemm(to_cblas<T>(opA), to_cblas<T>(opB), m, n, k, alpha, A, lda, B, ldb, beta, C, ldc);
}

}  // namespace mgblas::kernels::host::detail
