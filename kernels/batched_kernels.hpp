// SPDX-License-Identifier: BSD-3-Clause
// Batched GEMM kernels: C_i = alpha * op(A_i) * op(B_i) + beta * C_i, i < batch.
//
// - strided: A_i = A + i * strideA (the "second leading dimension" interface);
//   strides may exceed the matrix size (gaps are never touched).
// - pointer array: A_i = Aarray[i]; the arrays live in memory of `dev` (cuBLAS
//   semantics). A and B pointers may repeat (read-only aliasing); C pointers must not.
// - variable size: per-entry m, n, k, leading dimensions and pointers in arrays in
//   memory of `dev`; max_m, max_n, max_k are host-known bounds of the sizes. Entries
//   with a zero size are skipped (a zero k with beta != 1 still scales C).
// beta == 0 never reads C.
#pragma once

#include "kernels/detail/dispatch.hpp"
#include "kernels/kernel_declaration.hpp"

#define MGBLAS_DECLARE_GEMM_BATCHED_STRIDED_KERNEL(T)                                       \
  void gemm_batched_strided(const Device& dev, cudaStream_t stream, Op opA, Op opB,         \
                            int64_t m, int64_t n, int64_t k, T alpha, const T* A,           \
                            int64_t lda, int64_t strideA, const T* B, int64_t ldb,          \
                            int64_t strideB, T beta, T* C, int64_t ldc, int64_t strideC,    \
                            int64_t batch)
#define MGBLAS_DECLARE_GEMM_BATCHED_KERNEL(T)                                               \
  void gemm_batched(const Device& dev, cudaStream_t stream, Op opA, Op opB, int64_t m,      \
                    int64_t n, int64_t k, T alpha, const T* const* Aarray, int64_t lda,     \
                    const T* const* Barray, int64_t ldb, T beta, T* const* Carray,          \
                    int64_t ldc, int64_t batch)
#define MGBLAS_DECLARE_GEMM_VBATCHED_KERNEL(T)                                              \
  void gemm_vbatched(const Device& dev, cudaStream_t stream, Op opA, Op opB,                \
                     const int64_t* m, const int64_t* n, const int64_t* k, T alpha,         \
                     const T* const* Aarray, const int64_t* lda, const T* const* Barray,    \
                     const int64_t* ldb, T beta, T* const* Carray, const int64_t* ldc,      \
                     int64_t batch, int64_t max_m, int64_t max_n, int64_t max_k)

MGBLAS_DECLARE_FOR_BACKENDS(MGBLAS_DECLARE_GEMM_BATCHED_STRIDED_KERNEL)
MGBLAS_DECLARE_FOR_BACKENDS(MGBLAS_DECLARE_GEMM_BATCHED_KERNEL)
MGBLAS_DECLARE_FOR_BACKENDS(MGBLAS_DECLARE_GEMM_VBATCHED_KERNEL)

namespace mgblas::kernels {
/// gemm_batched_strided on the engine of q's device, unchecked: for a driver whose C
/// entries interleave (row blocks of one matrix, strideC < ldc n), which the public
/// entry's check refuses although they do not overlap.
template <Scalar T>
void gemm_batched_strided(const Queue& q, Op opA, Op opB, int64_t m, int64_t n, int64_t k,
                          T alpha, const T* A, int64_t lda, int64_t strideA, const T* B,
                          int64_t ldb, int64_t strideB, T beta, T* C, int64_t ldc,
                          int64_t strideC, int64_t batch) {
  MGBLAS_DISPATCH(q, gemm_batched_strided, opA, opB, m, n, k, alpha, A, lda, strideA, B, ldb,
                  strideB, beta, C, ldc, strideC, batch);
}
}  // namespace mgblas::kernels
