// SPDX-License-Identifier: BSD-3-Clause
// Single-device BLAS entries of mgblas: validate the arguments, then run the engine of
// the queue's device (CUDA or host).
//
// Asynchrony: on a GPU the call is queued on q.stream and returns without waiting
// (as cuBLAS does); pointers are device memory. On a host device the call runs to
// completion. Errors: BadArgument naming the argument and its value, raised before
// anything is written. Quick returns as the reference BLAS: an empty output, or (gemv)
// an empty inner dimension, returns without touching the output; gemm with k = 0
// makes C = beta C, as the reference BLAS does.
#pragma once

#include <cstdint>

#include "core/device.hpp"
#include "core/types.hpp"

namespace mgblas {

/// y = alpha * op(A) * x + beta * y.
/// @param[in] op      N, T or C (C = T for real types).
/// @param[in] m, n    rows and columns of A, >= 0.
/// @param[in] A       m x n, column-major, lda >= max(1, m).
/// @param[in] x       length n (op N) or m (op T/C), stride incx > 0.
/// @param[in,out] y   length m (op N) or n (op T/C), stride incy > 0; not read when beta = 0.
/// Flops: 2mn (real), 8mn (complex).
template <Scalar T>
void gemv(const Queue& q, Op op, int64_t m, int64_t n, T alpha, const T* A, int64_t lda,
          const T* x, int64_t incx, T beta, T* y, int64_t incy);

/// gemv on the submatrix A(row_off : row_off + m, col_off : col_off + n) of a parent
/// matrix `A` with leading dimension lda. Requires row_off, col_off >= 0 and
/// lda >= row_off + m. Engines keep reads aligned to the parent matrix.
template <Scalar T>
void gemv_offset(const Queue& q, Op op, int64_t m, int64_t n, T alpha, const T* A, int64_t lda,
                 int64_t row_off, int64_t col_off, const T* x, int64_t incx, T beta, T* y,
                 int64_t incy);

/// y = alpha * A * x + beta * y, A n x n symmetric (complex T: complex symmetric),
/// only the `uplo` triangle referenced. lda >= max(1, n). Flops: 2n^2 (real).
template <Scalar T>
void symv(const Queue& q, Uplo uplo, int64_t n, T alpha, const T* A, int64_t lda, const T* x,
          int64_t incx, T beta, T* y, int64_t incy);

/// y = alpha * A * x + beta * y, A n x n Hermitian (real T: symmetric), only the
/// `uplo` triangle referenced, imaginary parts of the diagonal assumed zero.
template <Scalar T>
void hemv(const Queue& q, Uplo uplo, int64_t n, T alpha, const T* A, int64_t lda, const T* x,
          int64_t incx, T beta, T* y, int64_t incy);

/// symv / hemv on the n x n diagonal submatrix starting at (off, off) of the parent A;
/// requires off >= 0 and lda >= off + n.
template <Scalar T>
void symv_offset(const Queue& q, Uplo uplo, int64_t n, T alpha, const T* A, int64_t lda,
                 int64_t off, const T* x, int64_t incx, T beta, T* y, int64_t incy);
template <Scalar T>
void hemv_offset(const Queue& q, Uplo uplo, int64_t n, T alpha, const T* A, int64_t lda,
                 int64_t off, const T* x, int64_t incx, T beta, T* y, int64_t incy);

/// C = alpha * op(A) * op(B) + beta * C; C m x n, inner dimension k.
/// lda >= max(1, rows of A as stored), likewise ldb; ldc >= max(1, m). Flops: 2mnk.
template <Scalar T>
void gemm(const Queue& q, Op opA, Op opB, int64_t m, int64_t n, int64_t k, T alpha, const T* A,
          int64_t lda, const T* B, int64_t ldb, T beta, T* C, int64_t ldc);

/// gemm for tall-and-skinny shapes (see kernels/gemm_kernels.hpp); same contract.
template <Scalar T>
void tsgemm(const Queue& q, Op opA, Op opB, int64_t m, int64_t n, int64_t k, T alpha, const T* A,
            int64_t lda, const T* B, int64_t ldb, T beta, T* C, int64_t ldc);

/// Strided batched gemm: operand i starts at A + i * strideA (likewise B, C).
/// strideA >= lda * (columns of A as stored) so entries do not overlap; strideC
/// likewise for C (A, B strides may be 0: one shared operand). batch >= 0.
template <Scalar T>
void gemm_batched_strided(const Queue& q, Op opA, Op opB, int64_t m, int64_t n, int64_t k,
                          T alpha, const T* A, int64_t lda, int64_t strideA, const T* B,
                          int64_t ldb, int64_t strideB, T beta, T* C, int64_t ldc,
                          int64_t strideC, int64_t batch);

/// Pointer-array batched gemm (cuBLAS semantics: the arrays are in device memory).
template <Scalar T>
void gemm_batched(const Queue& q, Op opA, Op opB, int64_t m, int64_t n, int64_t k, T alpha,
                  const T* const* Aarray, int64_t lda, const T* const* Barray, int64_t ldb,
                  T beta, T* const* Carray, int64_t ldc, int64_t batch);

/// Variable-size batched gemm: per-entry sizes, leading dimensions and pointers in
/// device memory; max_m/max_n/max_k bound the sizes (host-known, >= 0). The entries
/// are not validated one by one on the device: each must satisfy the gemm rules.
template <Scalar T>
void gemm_vbatched(const Queue& q, Op opA, Op opB, const int64_t* m, const int64_t* n,
                   const int64_t* k, T alpha, const T* const* Aarray, const int64_t* lda,
                   const T* const* Barray, const int64_t* ldb, T beta, T* const* Carray,
                   const int64_t* ldc, int64_t batch, int64_t max_m, int64_t max_n,
                   int64_t max_k);

/// Grouped batched gemm (cuBLAS's gemmGroupedBatched semantics): group g holds
/// group_size[g] entries of one shape, C_i = alpha[g] * op_g(A_i) * op_g(B_i) +
/// beta[g] * C_i with op_g = opA[g], opB[g], sizes m[g] x n[g], inner k[g] and leading
/// dimensions lda[g], ldb[g], ldc[g]. The per-group arrays (group_count entries) are
/// host memory; Aarray, Barray and Carray hold the entries of all groups, group after
/// group, in memory of the queue's device (as gemm_batched's arrays). Each group runs
/// as one gemm_batched on the queue, in group order, so the engines' batched kernels
/// serve it. Every group is validated (names carry the group: "lda[2]") before any
/// runs; an empty group is skipped. C pointers must not repeat across groups either.
template <Scalar T>
void gemm_grouped(const Queue& q, int64_t group_count, const Op* opA, const Op* opB,
                  const int64_t* m, const int64_t* n, const int64_t* k, const T* alpha,
                  const T* const* Aarray, const int64_t* lda, const T* const* Barray,
                  const int64_t* ldb, const T* beta, T* const* Carray, const int64_t* ldc,
                  const int64_t* group_size);

}  // namespace mgblas
