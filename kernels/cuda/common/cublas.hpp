// SPDX-License-Identifier: BSD-3-Clause
// Precision-generic cuBLAS wrappers for the CUDA engine, in the three thin levels of
// BLAS++ (src/device_gemv.cc):
//   1. raw:   one overload per precision over cublas<t>op, the call inside
//             MGBLAS_CHECK_CUBLAS; std::complex goes in as cuComplex/cuDoubleComplex;
//   2. entry: one template per op (namespace mgblas::kernels::cuda::common::cublas) that maps
//             Op/Uplo to cuBLAS enums, narrows int64_t sizes to cuBLAS's int (BadArgument
//             past INT_MAX), binds the handle to `stream` and calls level 1;
//   3. the engine entries (kernels/cuda/<op>/) call level 2.
//
// Contract of every entry: the handle is the Device's (created on it, pointer mode
// host: alpha and beta are host values); `stream` is any stream of that device and
// the handle stays bound to it afterwards; the caller has made the device current.
// Nothing is validated beyond the int range: arguments arrive checked by
// kernels/blas.cpp. cuBLAS documents "if beta == 0, y (C) does not have to be a valid
// input" for gemv, symv, hemv, gemm, gemmBatched and gemmStridedBatched; the engine
// relies on it. Quick returns (m, n or k zero) are the engine's job: cuBLAS leaves
// the output untouched there, which is not mgblas's k = 0 semantics.
//
// Instances for the four scalars are compiled once in cublas.cu (extern below).
#pragma once

#include <cublas_v2.h>

#include <climits>
#include <complex>
#include <cstdint>

#include "core/detail/cuda_check.hpp"
#include "core/types.hpp"

namespace mgblas::kernels::cuda::common::cublas {

namespace raw {

// std::complex<R> and cuComplex/cuDoubleComplex are both two contiguous R; cuBLAS's
// types are at least as aligned, and device allocations are aligned further.
static_assert(sizeof(scomplex) == sizeof(cuComplex) && alignof(cuComplex) >= alignof(scomplex));
static_assert(sizeof(zcomplex) == sizeof(cuDoubleComplex) &&
              alignof(cuDoubleComplex) >= alignof(zcomplex));

inline const cuComplex* cu(const scomplex* p) { return reinterpret_cast<const cuComplex*>(p); }
inline cuComplex* cu(scomplex* p) { return reinterpret_cast<cuComplex*>(p); }
inline const cuComplex* const* cu(const scomplex* const* p) {
  return reinterpret_cast<const cuComplex* const*>(p);
}
inline cuComplex* const* cu(scomplex* const* p) { return reinterpret_cast<cuComplex* const*>(p); }
inline const cuDoubleComplex* cu(const zcomplex* p) {
  return reinterpret_cast<const cuDoubleComplex*>(p);
}
inline cuDoubleComplex* cu(zcomplex* p) { return reinterpret_cast<cuDoubleComplex*>(p); }
inline const cuDoubleComplex* const* cu(const zcomplex* const* p) {
  return reinterpret_cast<const cuDoubleComplex* const*>(p);
}
inline cuDoubleComplex* const* cu(zcomplex* const* p) {
  return reinterpret_cast<cuDoubleComplex* const*>(p);
}

// ---- gemv ---------------------------------------------------------------------------
inline void gemv(cublasHandle_t h, cublasOperation_t op, int m, int n, const float* alpha,
                 const float* A, int lda, const float* x, int incx, const float* beta, float* y,
                 int incy) {
  MGBLAS_CHECK_CUBLAS(cublasSgemv(h, op, m, n, alpha, A, lda, x, incx, beta, y, incy));
}
inline void gemv(cublasHandle_t h, cublasOperation_t op, int m, int n, const double* alpha,
                 const double* A, int lda, const double* x, int incx, const double* beta,
                 double* y, int incy) {
  MGBLAS_CHECK_CUBLAS(cublasDgemv(h, op, m, n, alpha, A, lda, x, incx, beta, y, incy));
}
inline void gemv(cublasHandle_t h, cublasOperation_t op, int m, int n, const scomplex* alpha,
                 const scomplex* A, int lda, const scomplex* x, int incx, const scomplex* beta,
                 scomplex* y, int incy) {
  MGBLAS_CHECK_CUBLAS(
      cublasCgemv(h, op, m, n, cu(alpha), cu(A), lda, cu(x), incx, cu(beta), cu(y), incy));
}
inline void gemv(cublasHandle_t h, cublasOperation_t op, int m, int n, const zcomplex* alpha,
                 const zcomplex* A, int lda, const zcomplex* x, int incx, const zcomplex* beta,
                 zcomplex* y, int incy) {
  MGBLAS_CHECK_CUBLAS(
      cublasZgemv(h, op, m, n, cu(alpha), cu(A), lda, cu(x), incx, cu(beta), cu(y), incy));
}

// ---- symv (complex: complex symmetric, no conjugation) ------------------------------
inline void symv(cublasHandle_t h, cublasFillMode_t uplo, int n, const float* alpha,
                 const float* A, int lda, const float* x, int incx, const float* beta, float* y,
                 int incy) {
  MGBLAS_CHECK_CUBLAS(cublasSsymv(h, uplo, n, alpha, A, lda, x, incx, beta, y, incy));
}
inline void symv(cublasHandle_t h, cublasFillMode_t uplo, int n, const double* alpha,
                 const double* A, int lda, const double* x, int incx, const double* beta,
                 double* y, int incy) {
  MGBLAS_CHECK_CUBLAS(cublasDsymv(h, uplo, n, alpha, A, lda, x, incx, beta, y, incy));
}
inline void symv(cublasHandle_t h, cublasFillMode_t uplo, int n, const scomplex* alpha,
                 const scomplex* A, int lda, const scomplex* x, int incx, const scomplex* beta,
                 scomplex* y, int incy) {
  MGBLAS_CHECK_CUBLAS(
      cublasCsymv(h, uplo, n, cu(alpha), cu(A), lda, cu(x), incx, cu(beta), cu(y), incy));
}
inline void symv(cublasHandle_t h, cublasFillMode_t uplo, int n, const zcomplex* alpha,
                 const zcomplex* A, int lda, const zcomplex* x, int incx, const zcomplex* beta,
                 zcomplex* y, int incy) {
  MGBLAS_CHECK_CUBLAS(
      cublasZsymv(h, uplo, n, cu(alpha), cu(A), lda, cu(x), incx, cu(beta), cu(y), incy));
}

// ---- hemv (complex only; real hemv is symv, chosen at level 2) ------------------------
inline void hemv(cublasHandle_t h, cublasFillMode_t uplo, int n, const scomplex* alpha,
                 const scomplex* A, int lda, const scomplex* x, int incx, const scomplex* beta,
                 scomplex* y, int incy) {
  MGBLAS_CHECK_CUBLAS(
      cublasChemv(h, uplo, n, cu(alpha), cu(A), lda, cu(x), incx, cu(beta), cu(y), incy));
}
inline void hemv(cublasHandle_t h, cublasFillMode_t uplo, int n, const zcomplex* alpha,
                 const zcomplex* A, int lda, const zcomplex* x, int incx, const zcomplex* beta,
                 zcomplex* y, int incy) {
  MGBLAS_CHECK_CUBLAS(
      cublasZhemv(h, uplo, n, cu(alpha), cu(A), lda, cu(x), incx, cu(beta), cu(y), incy));
}

// ---- gemm ---------------------------------------------------------------------------
inline void gemm(cublasHandle_t h, cublasOperation_t ta, cublasOperation_t tb, int m, int n,
                 int k, const float* alpha, const float* A, int lda, const float* B, int ldb,
                 const float* beta, float* C, int ldc) {
  MGBLAS_CHECK_CUBLAS(cublasSgemm(h, ta, tb, m, n, k, alpha, A, lda, B, ldb, beta, C, ldc));
}
inline void gemm(cublasHandle_t h, cublasOperation_t ta, cublasOperation_t tb, int m, int n,
                 int k, const double* alpha, const double* A, int lda, const double* B, int ldb,
                 const double* beta, double* C, int ldc) {
  MGBLAS_CHECK_CUBLAS(cublasDgemm(h, ta, tb, m, n, k, alpha, A, lda, B, ldb, beta, C, ldc));
}
inline void gemm(cublasHandle_t h, cublasOperation_t ta, cublasOperation_t tb, int m, int n,
                 int k, const scomplex* alpha, const scomplex* A, int lda, const scomplex* B,
                 int ldb, const scomplex* beta, scomplex* C, int ldc) {
  MGBLAS_CHECK_CUBLAS(cublasCgemm(h, ta, tb, m, n, k, cu(alpha), cu(A), lda, cu(B), ldb,
                                  cu(beta), cu(C), ldc));
}
inline void gemm(cublasHandle_t h, cublasOperation_t ta, cublasOperation_t tb, int m, int n,
                 int k, const zcomplex* alpha, const zcomplex* A, int lda, const zcomplex* B,
                 int ldb, const zcomplex* beta, zcomplex* C, int ldc) {
  MGBLAS_CHECK_CUBLAS(cublasZgemm(h, ta, tb, m, n, k, cu(alpha), cu(A), lda, cu(B), ldb,
                                  cu(beta), cu(C), ldc));
}

// ---- syr2k / her2k (op N) ----------------------------------------------------------
inline void syr2k(cublasHandle_t h, cublasFillMode_t u, int n, int k, const float* alpha,
                  const float* A, int lda, const float* B, int ldb, const float* beta, float* C,
                  int ldc) {
  MGBLAS_CHECK_CUBLAS(
      cublasSsyr2k(h, u, CUBLAS_OP_N, n, k, alpha, A, lda, B, ldb, beta, C, ldc));
}
inline void syr2k(cublasHandle_t h, cublasFillMode_t u, int n, int k, const double* alpha,
                  const double* A, int lda, const double* B, int ldb, const double* beta,
                  double* C, int ldc) {
  MGBLAS_CHECK_CUBLAS(
      cublasDsyr2k(h, u, CUBLAS_OP_N, n, k, alpha, A, lda, B, ldb, beta, C, ldc));
}
inline void syr2k(cublasHandle_t h, cublasFillMode_t u, int n, int k, const scomplex* alpha,
                  const scomplex* A, int lda, const scomplex* B, int ldb, const scomplex* beta,
                  scomplex* C, int ldc) {
  MGBLAS_CHECK_CUBLAS(cublasCsyr2k(h, u, CUBLAS_OP_N, n, k, cu(alpha), cu(A), lda, cu(B), ldb,
                                   cu(beta), cu(C), ldc));
}
inline void syr2k(cublasHandle_t h, cublasFillMode_t u, int n, int k, const zcomplex* alpha,
                  const zcomplex* A, int lda, const zcomplex* B, int ldb, const zcomplex* beta,
                  zcomplex* C, int ldc) {
  MGBLAS_CHECK_CUBLAS(cublasZsyr2k(h, u, CUBLAS_OP_N, n, k, cu(alpha), cu(A), lda, cu(B), ldb,
                                   cu(beta), cu(C), ldc));
}
inline void her2k(cublasHandle_t h, cublasFillMode_t u, int n, int k, const scomplex* alpha,
                  const scomplex* A, int lda, const scomplex* B, int ldb, const float* beta,
                  scomplex* C, int ldc) {
  MGBLAS_CHECK_CUBLAS(cublasCher2k(h, u, CUBLAS_OP_N, n, k, cu(alpha), cu(A), lda, cu(B), ldb,
                                   beta, cu(C), ldc));
}
inline void her2k(cublasHandle_t h, cublasFillMode_t u, int n, int k, const zcomplex* alpha,
                  const zcomplex* A, int lda, const zcomplex* B, int ldb, const double* beta,
                  zcomplex* C, int ldc) {
  MGBLAS_CHECK_CUBLAS(cublasZher2k(h, u, CUBLAS_OP_N, n, k, cu(alpha), cu(A), lda, cu(B), ldb,
                                   beta, cu(C), ldc));
}

// ---- symm / hemm (side left) ---------------------------------------------------------
inline void symm(cublasHandle_t h, cublasFillMode_t u, int m, int n, const float* alpha,
                 const float* A, int lda, const float* B, int ldb, const float* beta, float* C,
                 int ldc) {
  MGBLAS_CHECK_CUBLAS(
      cublasSsymm(h, CUBLAS_SIDE_LEFT, u, m, n, alpha, A, lda, B, ldb, beta, C, ldc));
}
inline void symm(cublasHandle_t h, cublasFillMode_t u, int m, int n, const double* alpha,
                 const double* A, int lda, const double* B, int ldb, const double* beta,
                 double* C, int ldc) {
  MGBLAS_CHECK_CUBLAS(
      cublasDsymm(h, CUBLAS_SIDE_LEFT, u, m, n, alpha, A, lda, B, ldb, beta, C, ldc));
}
inline void symm(cublasHandle_t h, cublasFillMode_t u, int m, int n, const scomplex* alpha,
                 const scomplex* A, int lda, const scomplex* B, int ldb, const scomplex* beta,
                 scomplex* C, int ldc) {
  MGBLAS_CHECK_CUBLAS(cublasCsymm(h, CUBLAS_SIDE_LEFT, u, m, n, cu(alpha), cu(A), lda, cu(B),
                                  ldb, cu(beta), cu(C), ldc));
}
inline void symm(cublasHandle_t h, cublasFillMode_t u, int m, int n, const zcomplex* alpha,
                 const zcomplex* A, int lda, const zcomplex* B, int ldb, const zcomplex* beta,
                 zcomplex* C, int ldc) {
  MGBLAS_CHECK_CUBLAS(cublasZsymm(h, CUBLAS_SIDE_LEFT, u, m, n, cu(alpha), cu(A), lda, cu(B),
                                  ldb, cu(beta), cu(C), ldc));
}
inline void hemm(cublasHandle_t h, cublasFillMode_t u, int m, int n, const scomplex* alpha,
                 const scomplex* A, int lda, const scomplex* B, int ldb, const scomplex* beta,
                 scomplex* C, int ldc) {
  MGBLAS_CHECK_CUBLAS(cublasChemm(h, CUBLAS_SIDE_LEFT, u, m, n, cu(alpha), cu(A), lda, cu(B),
                                  ldb, cu(beta), cu(C), ldc));
}
inline void hemm(cublasHandle_t h, cublasFillMode_t u, int m, int n, const zcomplex* alpha,
                 const zcomplex* A, int lda, const zcomplex* B, int ldb, const zcomplex* beta,
                 zcomplex* C, int ldc) {
  MGBLAS_CHECK_CUBLAS(cublasZhemm(h, CUBLAS_SIDE_LEFT, u, m, n, cu(alpha), cu(A), lda, cu(B),
                                  ldb, cu(beta), cu(C), ldc));
}

// ---- gemmBatched (pointer arrays in device memory) -----------------------------------
inline void gemm_batched(cublasHandle_t h, cublasOperation_t ta, cublasOperation_t tb, int m,
                         int n, int k, const float* alpha, const float* const* A, int lda,
                         const float* const* B, int ldb, const float* beta, float* const* C,
                         int ldc, int batch) {
  MGBLAS_CHECK_CUBLAS(
      cublasSgemmBatched(h, ta, tb, m, n, k, alpha, A, lda, B, ldb, beta, C, ldc, batch));
}
inline void gemm_batched(cublasHandle_t h, cublasOperation_t ta, cublasOperation_t tb, int m,
                         int n, int k, const double* alpha, const double* const* A, int lda,
                         const double* const* B, int ldb, const double* beta, double* const* C,
                         int ldc, int batch) {
  MGBLAS_CHECK_CUBLAS(
      cublasDgemmBatched(h, ta, tb, m, n, k, alpha, A, lda, B, ldb, beta, C, ldc, batch));
}
inline void gemm_batched(cublasHandle_t h, cublasOperation_t ta, cublasOperation_t tb, int m,
                         int n, int k, const scomplex* alpha, const scomplex* const* A, int lda,
                         const scomplex* const* B, int ldb, const scomplex* beta,
                         scomplex* const* C, int ldc, int batch) {
  MGBLAS_CHECK_CUBLAS(cublasCgemmBatched(h, ta, tb, m, n, k, cu(alpha), cu(A), lda, cu(B), ldb,
                                         cu(beta), cu(C), ldc, batch));
}
inline void gemm_batched(cublasHandle_t h, cublasOperation_t ta, cublasOperation_t tb, int m,
                         int n, int k, const zcomplex* alpha, const zcomplex* const* A, int lda,
                         const zcomplex* const* B, int ldb, const zcomplex* beta,
                         zcomplex* const* C, int ldc, int batch) {
  MGBLAS_CHECK_CUBLAS(cublasZgemmBatched(h, ta, tb, m, n, k, cu(alpha), cu(A), lda, cu(B), ldb,
                                         cu(beta), cu(C), ldc, batch));
}

// ---- gemmStridedBatched (strides are 64-bit in cuBLAS already) -------------------------
inline void gemm_batched_strided(cublasHandle_t h, cublasOperation_t ta, cublasOperation_t tb,
                                 int m, int n, int k, const float* alpha, const float* A,
                                 int lda, long long sA, const float* B, int ldb, long long sB,
                                 const float* beta, float* C, int ldc, long long sC, int batch) {
  MGBLAS_CHECK_CUBLAS(cublasSgemmStridedBatched(h, ta, tb, m, n, k, alpha, A, lda, sA, B, ldb,
                                                sB, beta, C, ldc, sC, batch));
}
inline void gemm_batched_strided(cublasHandle_t h, cublasOperation_t ta, cublasOperation_t tb,
                                 int m, int n, int k, const double* alpha, const double* A,
                                 int lda, long long sA, const double* B, int ldb, long long sB,
                                 const double* beta, double* C, int ldc, long long sC,
                                 int batch) {
  MGBLAS_CHECK_CUBLAS(cublasDgemmStridedBatched(h, ta, tb, m, n, k, alpha, A, lda, sA, B, ldb,
                                                sB, beta, C, ldc, sC, batch));
}
inline void gemm_batched_strided(cublasHandle_t h, cublasOperation_t ta, cublasOperation_t tb,
                                 int m, int n, int k, const scomplex* alpha, const scomplex* A,
                                 int lda, long long sA, const scomplex* B, int ldb,
                                 long long sB, const scomplex* beta, scomplex* C, int ldc,
                                 long long sC, int batch) {
  MGBLAS_CHECK_CUBLAS(cublasCgemmStridedBatched(h, ta, tb, m, n, k, cu(alpha), cu(A), lda, sA,
                                                cu(B), ldb, sB, cu(beta), cu(C), ldc, sC,
                                                batch));
}
inline void gemm_batched_strided(cublasHandle_t h, cublasOperation_t ta, cublasOperation_t tb,
                                 int m, int n, int k, const zcomplex* alpha, const zcomplex* A,
                                 int lda, long long sA, const zcomplex* B, int ldb,
                                 long long sB, const zcomplex* beta, zcomplex* C, int ldc,
                                 long long sC, int batch) {
  MGBLAS_CHECK_CUBLAS(cublasZgemmStridedBatched(h, ta, tb, m, n, k, cu(alpha), cu(A), lda, sA,
                                                cu(B), ldb, sB, cu(beta), cu(C), ldc, sC,
                                                batch));
}

}  // namespace raw

// ---- level 2 helpers -------------------------------------------------------------------

/// `value` as cuBLAS's int; BadArgument naming the argument when it does not fit.
inline int narrow(int64_t value, const char* name) {
  if (value < INT_MIN || value > INT_MAX)
    MGBLAS_THROW(::mgblas::BadArgument, "argument '", name, "' = ", value,
                 ": cuBLAS limits it to a 32-bit int (at most ", INT_MAX, ")");
  return static_cast<int>(value);
}

/// Op::C on a real type is Op::T (BLAS semantics), said explicitly rather than left to
/// cuBLAS.
template <Scalar T>
cublasOperation_t to_cublas(Op op) {
  switch (op) {
    case Op::N: return CUBLAS_OP_N;
    case Op::T: return CUBLAS_OP_T;
    case Op::C: return is_complex_v<T> ? CUBLAS_OP_C : CUBLAS_OP_T;
    default: break;
  }
  MGBLAS_THROW(BadArgument, "op = ", static_cast<int>(op), ": must be Op::N, Op::T or Op::C");
}

inline cublasFillMode_t to_cublas(Uplo uplo) {
  switch (uplo) {
    case Uplo::Lower: return CUBLAS_FILL_MODE_LOWER;
    case Uplo::Upper: return CUBLAS_FILL_MODE_UPPER;
    default: break;
  }
  MGBLAS_THROW(BadArgument, "uplo = ", static_cast<int>(uplo),
               ": must be Uplo::Lower or Uplo::Upper");
}

inline void bind_stream(cublasHandle_t handle, cudaStream_t stream) {
  MGBLAS_CHECK_CUBLAS(cublasSetStream(handle, stream));
}

// ---- level 2: one template per op ---------------------------------------------------

/// y = alpha * op(A) * x + beta * y (cublas<t>gemv).
template <Scalar T>
void gemv(cublasHandle_t handle, cudaStream_t stream, Op op, int64_t m, int64_t n, T alpha,
          const T* A, int64_t lda, const T* x, int64_t incx, T beta, T* y, int64_t incy) {
  const int m_ = narrow(m, "m"), n_ = narrow(n, "n"), lda_ = narrow(lda, "lda");
  const int incx_ = narrow(incx, "incx"), incy_ = narrow(incy, "incy");
  bind_stream(handle, stream);
  raw::gemv(handle, to_cublas<T>(op), m_, n_, &alpha, A, lda_, x, incx_, &beta, y, incy_);
}

/// y = alpha * A * x + beta * y, A symmetric (complex: complex symmetric).
template <Scalar T>
void symv(cublasHandle_t handle, cudaStream_t stream, Uplo uplo, int64_t n, T alpha, const T* A,
          int64_t lda, const T* x, int64_t incx, T beta, T* y, int64_t incy) {
  const int n_ = narrow(n, "n"), lda_ = narrow(lda, "lda");
  const int incx_ = narrow(incx, "incx"), incy_ = narrow(incy, "incy");
  bind_stream(handle, stream);
  raw::symv(handle, to_cublas(uplo), n_, &alpha, A, lda_, x, incx_, &beta, y, incy_);
}

/// y = alpha * A * x + beta * y, A Hermitian; for real T this is symv.
template <Scalar T>
void hemv(cublasHandle_t handle, cudaStream_t stream, Uplo uplo, int64_t n, T alpha, const T* A,
          int64_t lda, const T* x, int64_t incx, T beta, T* y, int64_t incy) {
  const int n_ = narrow(n, "n"), lda_ = narrow(lda, "lda");
  const int incx_ = narrow(incx, "incx"), incy_ = narrow(incy, "incy");
  bind_stream(handle, stream);
  if constexpr (is_complex_v<T>)
    raw::hemv(handle, to_cublas(uplo), n_, &alpha, A, lda_, x, incx_, &beta, y, incy_);
  else
    raw::symv(handle, to_cublas(uplo), n_, &alpha, A, lda_, x, incx_, &beta, y, incy_);
}

/// C = alpha * op(A) * op(B) + beta * C (cublas<t>gemm).
template <Scalar T>
void gemm(cublasHandle_t handle, cudaStream_t stream, Op opA, Op opB, int64_t m, int64_t n,
          int64_t k, T alpha, const T* A, int64_t lda, const T* B, int64_t ldb, T beta, T* C,
          int64_t ldc) {
  const int m_ = narrow(m, "m"), n_ = narrow(n, "n"), k_ = narrow(k, "k");
  const int lda_ = narrow(lda, "lda"), ldb_ = narrow(ldb, "ldb"), ldc_ = narrow(ldc, "ldc");
  bind_stream(handle, stream);
  raw::gemm(handle, to_cublas<T>(opA), to_cublas<T>(opB), m_, n_, k_, &alpha, A, lda_, B, ldb_,
            &beta, C, ldc_);
}

/// Rank-2k update of the `uplo` triangle (op N): herm: C = alpha A B^H + conj(alpha) B A^H
/// + real(beta) C (cublas<t>her2k; real T: syr2k); else C = alpha (A B^T + B A^T) + beta C.
template <Scalar T>
void rank2k(cublasHandle_t handle, cudaStream_t stream, bool herm, Uplo uplo, int64_t n,
            int64_t k, T alpha, const T* A, int64_t lda, const T* B, int64_t ldb, T beta, T* C,
            int64_t ldc) {
  const int n_ = narrow(n, "n"), k_ = narrow(k, "k");
  const int lda_ = narrow(lda, "lda"), ldb_ = narrow(ldb, "ldb"), ldc_ = narrow(ldc, "ldc");
  bind_stream(handle, stream);
  if constexpr (is_complex_v<T>) {
    if (herm) {
      const real_type_t<T> rbeta = std::real(beta);
      raw::her2k(handle, to_cublas(uplo), n_, k_, &alpha, A, lda_, B, ldb_, &rbeta, C, ldc_);
      return;
    }
  }
  raw::syr2k(handle, to_cublas(uplo), n_, k_, &alpha, A, lda_, B, ldb_, &beta, C, ldc_);
}

/// C = alpha S B + beta C, S Hermitian (herm; real T: symmetric) or complex symmetric with
/// its `uplo` triangle in A (cublas<t>hemm / symm, side left).
template <Scalar T>
void hemm(cublasHandle_t handle, cudaStream_t stream, bool herm, Uplo uplo, int64_t m, int64_t n,
          T alpha, const T* A, int64_t lda, const T* B, int64_t ldb, T beta, T* C, int64_t ldc) {
  const int m_ = narrow(m, "m"), n_ = narrow(n, "n");
  const int lda_ = narrow(lda, "lda"), ldb_ = narrow(ldb, "ldb"), ldc_ = narrow(ldc, "ldc");
  bind_stream(handle, stream);
  if constexpr (is_complex_v<T>) {
    if (herm) {
      raw::hemm(handle, to_cublas(uplo), m_, n_, &alpha, A, lda_, B, ldb_, &beta, C, ldc_);
      return;
    }
  }
  raw::symm(handle, to_cublas(uplo), m_, n_, &alpha, A, lda_, B, ldb_, &beta, C, ldc_);
}

/// Pointer-array batched gemm (cublas<t>gemmBatched); the arrays are device memory.
template <Scalar T>
void gemm_batched(cublasHandle_t handle, cudaStream_t stream, Op opA, Op opB, int64_t m,
                  int64_t n, int64_t k, T alpha, const T* const* Aarray, int64_t lda,
                  const T* const* Barray, int64_t ldb, T beta, T* const* Carray, int64_t ldc,
                  int64_t batch) {
  const int m_ = narrow(m, "m"), n_ = narrow(n, "n"), k_ = narrow(k, "k");
  const int lda_ = narrow(lda, "lda"), ldb_ = narrow(ldb, "ldb"), ldc_ = narrow(ldc, "ldc");
  const int batch_ = narrow(batch, "batch");
  bind_stream(handle, stream);
  raw::gemm_batched(handle, to_cublas<T>(opA), to_cublas<T>(opB), m_, n_, k_, &alpha, Aarray,
                    lda_, Barray, ldb_, &beta, Carray, ldc_, batch_);
}

/// Strided batched gemm (cublas<t>gemmStridedBatched).
template <Scalar T>
void gemm_batched_strided(cublasHandle_t handle, cudaStream_t stream, Op opA, Op opB, int64_t m,
                          int64_t n, int64_t k, T alpha, const T* A, int64_t lda,
                          int64_t strideA, const T* B, int64_t ldb, int64_t strideB, T beta,
                          T* C, int64_t ldc, int64_t strideC, int64_t batch) {
  const int m_ = narrow(m, "m"), n_ = narrow(n, "n"), k_ = narrow(k, "k");
  const int lda_ = narrow(lda, "lda"), ldb_ = narrow(ldb, "ldb"), ldc_ = narrow(ldc, "ldc");
  const int batch_ = narrow(batch, "batch");
  bind_stream(handle, stream);
  raw::gemm_batched_strided(handle, to_cublas<T>(opA), to_cublas<T>(opB), m_, n_, k_, &alpha,
                            A, lda_, strideA, B, ldb_, strideB, &beta, C, ldc_, strideC,
                            batch_);
}

// The instances of cublas.cu; PREFIX is `extern` here and empty there.
#define MGBLAS_CUBLAS_INSTANCES_(PREFIX, T)                                                   \
  PREFIX template void gemv<T>(cublasHandle_t, cudaStream_t, Op, int64_t, int64_t, T,         \
                               const T*, int64_t, const T*, int64_t, T, T*, int64_t);         \
  PREFIX template void symv<T>(cublasHandle_t, cudaStream_t, Uplo, int64_t, T, const T*,      \
                               int64_t, const T*, int64_t, T, T*, int64_t);                   \
  PREFIX template void hemv<T>(cublasHandle_t, cudaStream_t, Uplo, int64_t, T, const T*,      \
                               int64_t, const T*, int64_t, T, T*, int64_t);                   \
  PREFIX template void gemm<T>(cublasHandle_t, cudaStream_t, Op, Op, int64_t, int64_t,        \
                               int64_t, T, const T*, int64_t, const T*, int64_t, T, T*,       \
                               int64_t);                                                      \
  PREFIX template void rank2k<T>(cublasHandle_t, cudaStream_t, bool, Uplo, int64_t, int64_t, \
                                 T, const T*, int64_t, const T*, int64_t, T, T*, int64_t);    \
  PREFIX template void hemm<T>(cublasHandle_t, cudaStream_t, bool, Uplo, int64_t, int64_t, T, \
                               const T*, int64_t, const T*, int64_t, T, T*, int64_t);         \
  PREFIX template void gemm_batched<T>(cublasHandle_t, cudaStream_t, Op, Op, int64_t,         \
                                       int64_t, int64_t, T, const T* const*, int64_t,         \
                                       const T* const*, int64_t, T, T* const*, int64_t,       \
                                       int64_t);                                              \
  PREFIX template void gemm_batched_strided<T>(cublasHandle_t, cudaStream_t, Op, Op, int64_t, \
                                               int64_t, int64_t, T, const T*, int64_t,        \
                                               int64_t, const T*, int64_t, int64_t, T, T*,    \
                                               int64_t, int64_t, int64_t);

#define MGBLAS_CUBLAS_EXTERN_(T) MGBLAS_CUBLAS_INSTANCES_(extern, T)
MGBLAS_FOR_EACH_SCALAR(MGBLAS_CUBLAS_EXTERN_)
#undef MGBLAS_CUBLAS_EXTERN_

}  // namespace mgblas::kernels::cuda::common::cublas
