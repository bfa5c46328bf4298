/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The C API of mgblas: BLAS-style names with a precision letter, opaque handles,
 * status codes, and a thread-local text for the last error.
 *
 *   mgblas_context_t ctx;  mgblas_context_create(&ctx);         // GPUs if present
 *   mgblas_device_t dev;   mgblas_context_device(ctx, 0, &dev);
 *   mgblas_dgemv(dev, MGBLAS_OP_N, m, n, 1.0, dA, lda, dx, 1, 0.0, dy, 1);
 *   mgblas_matrix_t A;     mgblas_matrix_create(ctx, MGBLAS_PREC_D, n, n, 256, &A);
 *   mgblas_matrix_distribute(A, hostA, n, 0);
 *   mgblas_dsymv_mgpu(A, MGBLAS_UPLO_LOWER, 1.0, x, 0.0, y);     // x, y on the host
 *
 * Every entry returns MGBLAS_SUCCESS or an error status; on error the outputs are
 * untouched and mgblas_last_error() says what went wrong (argument name and value).
 * Single-device entries follow kernels/blas.hpp: on a GPU they are queued on the
 * device's stream (the _async forms take a stream) and pointers are device memory.
 * Distributed entries (_mgpu, matrix create/distribute/collect) are collective over
 * the ranks of the context: every rank makes the same calls in the same order with
 * the same arguments. Their handles and enums are checked inside the ranks'
 * agreement, so a bad value on one rank returns an error on every rank (that rank's
 * own status there, MGBLAS_ERROR_REMOTE naming it elsewhere); a NULL matrix handle can
 * only be reported to the other ranks while exactly one context exists. Handles are
 * checked for life: one used after its destroy call (a device handle after its
 * context's) returns MGBLAS_ERROR_BAD_ARGUMENT. op and uplo take lower-case letters
 * too ('n', 't', 'c', 'l', 'u'), as BLAS does.
 *
 * Names are generated for the precisions s (float), d (double), c (complex float)
 * and z (complex double) from one list, MGBLAS_C_FOR_EACH_PRECISION below.
 */
#ifndef MGBLAS_MGBLAS_H
#define MGBLAS_MGBLAS_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

struct CUstream_st;
typedef struct CUstream_st* cudaStream_t;

typedef enum mgblas_status_t {
  MGBLAS_SUCCESS = 0,
  MGBLAS_ERROR_BAD_ARGUMENT = 1,
  MGBLAS_ERROR_DIMENSION_MISMATCH = 2,
  MGBLAS_ERROR_NOT_COMPILED = 3,
  MGBLAS_ERROR_NOT_IMPLEMENTED = 4,
  MGBLAS_ERROR_CUDA = 5,
  MGBLAS_ERROR_CUBLAS = 6,
  MGBLAS_ERROR_NCCL = 7,
  MGBLAS_ERROR_MPI = 8,
  MGBLAS_ERROR_REMOTE = 9,
  MGBLAS_ERROR_ALLOCATION = 10,
  MGBLAS_ERROR_INTERNAL = 11,
  MGBLAS_ERROR_TIMEOUT = 12 /* other ranks did not join within MGBLAS_COMM_TIMEOUT */
} mgblas_status_t;

typedef enum mgblas_op_t { MGBLAS_OP_N = 'N', MGBLAS_OP_T = 'T', MGBLAS_OP_C = 'C' } mgblas_op_t;
typedef enum mgblas_uplo_t { MGBLAS_UPLO_LOWER = 'L', MGBLAS_UPLO_UPPER = 'U' } mgblas_uplo_t;
typedef enum mgblas_precision_t {
  MGBLAS_PREC_S = 's',
  MGBLAS_PREC_D = 'd',
  MGBLAS_PREC_C = 'c',
  MGBLAS_PREC_Z = 'z'
} mgblas_precision_t;
typedef enum mgblas_backend_t {
  MGBLAS_BACKEND_AUTO = 0,
  MGBLAS_BACKEND_HOST = 1,
  MGBLAS_BACKEND_CUDA = 2
} mgblas_backend_t;

/* Layout-compatible with std::complex<float/double> and C99 _Complex. */
typedef struct mgblas_complex_float { float re, im; } mgblas_complex_float;
typedef struct mgblas_complex_double { double re, im; } mgblas_complex_double;

typedef struct mgblas_context_s* mgblas_context_t;
typedef struct mgblas_device_s* mgblas_device_t; /* valid while its context lives */
typedef struct mgblas_matrix_s* mgblas_matrix_t; /* block-cyclic distributed matrix */

/* Text of the last error on this thread ("" after a success): the argument, its value
 * and the rule, or which rank failed and why. */
const char* mgblas_last_error(void);
/* Where the last error was raised in mgblas (file:line (function)), for bug reports. */
const char* mgblas_last_error_location(void);
const char* mgblas_status_string(mgblas_status_t status);
/* "0.1.0" */
const char* mgblas_version(void);

/* Context over MPI_COMM_WORLD when MPI is initialised (else one rank); collective.
 * backend AUTO picks CUDA when a GPU is visible; host_devices (host back-end) <= 0
 * means the environment's MGBLAS_HOST_DEVICES or 1. */
mgblas_status_t mgblas_context_create_ex(mgblas_backend_t backend, int host_devices,
                                         mgblas_context_t* ctx);
mgblas_status_t mgblas_context_create(mgblas_context_t* ctx);
mgblas_status_t mgblas_context_destroy(mgblas_context_t ctx);
mgblas_status_t mgblas_context_num_devices(mgblas_context_t ctx, int* local, int* global);
mgblas_status_t mgblas_context_device(mgblas_context_t ctx, int local_index, mgblas_device_t* dev);
/* 1 for a GPU device, 0 for a host device. */
mgblas_status_t mgblas_device_is_gpu(mgblas_device_t dev, int* is_gpu);
mgblas_status_t mgblas_device_synchronize(mgblas_device_t dev);

/* Distributed matrix: m x n in block columns of width nb over every device of every
 * rank of ctx (block column j on global device j mod P). */
mgblas_status_t mgblas_matrix_create(mgblas_context_t ctx, mgblas_precision_t prec, int64_t m,
                                     int64_t n, int64_t nb, mgblas_matrix_t* A);
mgblas_status_t mgblas_matrix_destroy(mgblas_matrix_t A);
/* From the host matrix on rank root (others pass NULL); collective. */
mgblas_status_t mgblas_matrix_distribute(mgblas_matrix_t A, const void* host, int64_t lda,
                                         int root);
/* To the host matrix on rank root, or on every rank if root < 0; collective. */
mgblas_status_t mgblas_matrix_collect(mgblas_matrix_t A, void* host, int64_t lda, int root);

/* X(letter, scalar type): one entry per precision; every precision-specific entry
 * below is declared through it. */
#define MGBLAS_C_FOR_EACH_PRECISION(X) \
  X(s, float)                          \
  X(d, double)                         \
  X(c, mgblas_complex_float)           \
  X(z, mgblas_complex_double)

/* y = alpha op(A) x + beta y  (mgblas_?gemv, mgblas_?gemv_async, mgblas_?gemv_offset) */
#define MGBLAS_C_DECLARE_LEVEL2(p, T)                                                        \
  mgblas_status_t mgblas_##p##gemv(mgblas_device_t dev, mgblas_op_t op, int64_t m, int64_t n, \
                                   T alpha, const T* A, int64_t lda, const T* x,             \
                                   int64_t incx, T beta, T* y, int64_t incy);                \
  mgblas_status_t mgblas_##p##gemv_async(mgblas_device_t dev, cudaStream_t stream,           \
                                         mgblas_op_t op, int64_t m, int64_t n, T alpha,      \
                                         const T* A, int64_t lda, const T* x, int64_t incx,  \
                                         T beta, T* y, int64_t incy);                        \
  mgblas_status_t mgblas_##p##gemv_offset(mgblas_device_t dev, mgblas_op_t op, int64_t m,    \
                                          int64_t n, T alpha, const T* A, int64_t lda,       \
                                          int64_t row_off, int64_t col_off, const T* x,      \
                                          int64_t incx, T beta, T* y, int64_t incy);         \
  mgblas_status_t mgblas_##p##symv(mgblas_device_t dev, mgblas_uplo_t uplo, int64_t n,       \
                                   T alpha, const T* A, int64_t lda, const T* x,             \
                                   int64_t incx, T beta, T* y, int64_t incy);                \
  mgblas_status_t mgblas_##p##symv_offset(mgblas_device_t dev, mgblas_uplo_t uplo, int64_t n, \
                                          T alpha, const T* A, int64_t lda, int64_t off,     \
                                          const T* x, int64_t incx, T beta, T* y,            \
                                          int64_t incy);                                     \
  mgblas_status_t mgblas_##p##hemv(mgblas_device_t dev, mgblas_uplo_t uplo, int64_t n,       \
                                   T alpha, const T* A, int64_t lda, const T* x,             \
                                   int64_t incx, T beta, T* y, int64_t incy);                \
  mgblas_status_t mgblas_##p##hemv_offset(mgblas_device_t dev, mgblas_uplo_t uplo, int64_t n, \
                                          T alpha, const T* A, int64_t lda, int64_t off,     \
                                          const T* x, int64_t incx, T beta, T* y,            \
                                          int64_t incy);

/* C = alpha op(A) op(B) + beta C, and the batched forms. */
#define MGBLAS_C_DECLARE_LEVEL3(p, T)                                                        \
  mgblas_status_t mgblas_##p##gemm(mgblas_device_t dev, mgblas_op_t opA, mgblas_op_t opB,    \
                                   int64_t m, int64_t n, int64_t k, T alpha, const T* A,     \
                                   int64_t lda, const T* B, int64_t ldb, T beta, T* C,       \
                                   int64_t ldc);                                             \
  mgblas_status_t mgblas_##p##tsgemm(mgblas_device_t dev, mgblas_op_t opA, mgblas_op_t opB,  \
                                     int64_t m, int64_t n, int64_t k, T alpha, const T* A,   \
                                     int64_t lda, const T* B, int64_t ldb, T beta, T* C,     \
                                     int64_t ldc);                                           \
  mgblas_status_t mgblas_##p##gemm_batched_strided(                                          \
      mgblas_device_t dev, mgblas_op_t opA, mgblas_op_t opB, int64_t m, int64_t n,           \
      int64_t k, T alpha, const T* A, int64_t lda, int64_t strideA, const T* B, int64_t ldb, \
      int64_t strideB, T beta, T* C, int64_t ldc, int64_t strideC, int64_t batch);           \
  mgblas_status_t mgblas_##p##gemm_batched(mgblas_device_t dev, mgblas_op_t opA,             \
                                           mgblas_op_t opB, int64_t m, int64_t n, int64_t k, \
                                           T alpha, const T* const* Aarray, int64_t lda,     \
                                           const T* const* Barray, int64_t ldb, T beta,      \
                                           T* const* Carray, int64_t ldc, int64_t batch);

/* Distributed (collective): x and y are host vectors, the same x on every rank; every
 * rank receives the full y. */
#define MGBLAS_C_DECLARE_DIST(p, T)                                                          \
  mgblas_status_t mgblas_##p##gemv_mgpu(mgblas_matrix_t A, mgblas_op_t op, T alpha,          \
                                        const T* x, T beta, T* y);                           \
  mgblas_status_t mgblas_##p##symv_mgpu(mgblas_matrix_t A, mgblas_uplo_t uplo, T alpha,      \
                                        const T* x, T beta, T* y);                           \
  mgblas_status_t mgblas_##p##hemv_mgpu(mgblas_matrix_t A, mgblas_uplo_t uplo, T alpha,      \
                                        const T* x, T beta, T* y);                           \
  /* The trailing submatrix A(i0:m, j0:n) (gemv), A(off:n, off:n) (symv/hemv): x, y have  \
   * the submatrix's lengths (for the tridiagonal and bidiagonal reductions). */            \
  mgblas_status_t mgblas_##p##gemv_mgpu_offset(mgblas_matrix_t A, mgblas_op_t op, T alpha,   \
                                               int64_t i0, int64_t j0, const T* x, T beta,   \
                                               T* y);                                        \
  mgblas_status_t mgblas_##p##symv_mgpu_offset(mgblas_matrix_t A, mgblas_uplo_t uplo,        \
                                               T alpha, int64_t off, const T* x, T beta,     \
                                               T* y);                                        \
  mgblas_status_t mgblas_##p##hemv_mgpu_offset(mgblas_matrix_t A, mgblas_uplo_t uplo,        \
                                               T alpha, int64_t off, const T* x, T beta,     \
                                               T* y);

/* Tridiagonal reduction (collective), LAPACK's ?sytrd / ?hetrd on a distributed matrix:
 * A = Q T Q^H for the Hermitian (real: symmetric) n x n A stored in its `uplo` triangle.
 * On return every rank holds T's diagonal d (n entries), off-diagonal e and the
 * reflectors' scalars tau (n - 1 entries each, host memory), and A holds the reflectors
 * as LAPACK leaves them; the other triangle is not touched. The uplo value is checked
 * inside the ranks' agreement, so a bad one raises on every rank. */
mgblas_status_t mgblas_ssytrd_mgpu(mgblas_matrix_t A, mgblas_uplo_t uplo, float* d, float* e,
                                   float* tau);
mgblas_status_t mgblas_dsytrd_mgpu(mgblas_matrix_t A, mgblas_uplo_t uplo, double* d, double* e,
                                   double* tau);
mgblas_status_t mgblas_chetrd_mgpu(mgblas_matrix_t A, mgblas_uplo_t uplo, float* d, float* e,
                                   mgblas_complex_float* tau);
mgblas_status_t mgblas_zhetrd_mgpu(mgblas_matrix_t A, mgblas_uplo_t uplo, double* d, double* e,
                                   mgblas_complex_double* tau);

/* Bidiagonal reduction (collective), LAPACK's ?gebrd on a distributed m x n matrix:
 * Q^H A P = B, upper bidiagonal when m >= n, lower when m < n. On return every rank
 * holds B's diagonal d (min(m, n) entries), off-diagonal e (min(m, n) - 1) and the
 * scalars tauq and taup of Q's and P's reflectors (min(m, n) each; host memory), and A
 * holds the reflectors as LAPACK's ?gebrd leaves them. */
mgblas_status_t mgblas_sgebrd_mgpu(mgblas_matrix_t A, float* d, float* e, float* tauq,
                                   float* taup);
mgblas_status_t mgblas_dgebrd_mgpu(mgblas_matrix_t A, double* d, double* e, double* tauq,
                                   double* taup);
mgblas_status_t mgblas_cgebrd_mgpu(mgblas_matrix_t A, float* d, float* e,
                                   mgblas_complex_float* tauq, mgblas_complex_float* taup);
mgblas_status_t mgblas_zgebrd_mgpu(mgblas_matrix_t A, double* d, double* e,
                                   mgblas_complex_double* tauq, mgblas_complex_double* taup);

/* Eigenvalues of the real symmetric tridiagonal matrix with diagonal d (n entries) and
 * off-diagonal e (n - 1), by bisection over every device of every rank of ctx
 * (collective; host arrays, the same on every rank): w receives all n eigenvalues in
 * ascending order on every rank. */
mgblas_status_t mgblas_sstebz_mgpu(mgblas_context_t ctx, int64_t n, const float* d,
                                   const float* e, float* w);
mgblas_status_t mgblas_dstebz_mgpu(mgblas_context_t ctx, int64_t n, const double* d,
                                   const double* e, double* w);

MGBLAS_C_FOR_EACH_PRECISION(MGBLAS_C_DECLARE_LEVEL2)
MGBLAS_C_FOR_EACH_PRECISION(MGBLAS_C_DECLARE_LEVEL3)
MGBLAS_C_FOR_EACH_PRECISION(MGBLAS_C_DECLARE_DIST)

#ifdef __cplusplus
}
#endif

#endif /* MGBLAS_MGBLAS_H */
