// SPDX-License-Identifier: BSD-3-Clause
// GEMM kernels: C = alpha * op(A) * op(B) + beta * C, column-major, C is m x n and
// the inner dimension is k. beta == 0 never reads C.
//
// gemm is the general product; tsgemm is the same operation for tall-and-skinny
// shapes (TSM2R: large A times skinny B; TSM2L: tall-skinny A times small B; and
// A^T * B with two tall inputs), where an engine may choose dedicated kernels.
#pragma once

#include "kernels/detail/dispatch.hpp"
#include "kernels/kernel_declaration.hpp"

#define MGBLAS_DECLARE_GEMM_KERNEL(T)                                                      \
  void gemm(const Device& dev, cudaStream_t stream, Op opA, Op opB, int64_t m, int64_t n,  \
            int64_t k, T alpha, const T* A, int64_t lda, const T* B, int64_t ldb, T beta,  \
            T* C, int64_t ldc)
#define MGBLAS_DECLARE_TSGEMM_KERNEL(T)                                                    \
  void tsgemm(const Device& dev, cudaStream_t stream, Op opA, Op opB, int64_t m,           \
              int64_t n, int64_t k, T alpha, const T* A, int64_t lda, const T* B,          \
              int64_t ldb, T beta, T* C, int64_t ldc)

// Rank-2k update of the `uplo` triangle of the n x n C, A and B n x k (op N):
// herm: C = alpha A B^H + conj(alpha) B A^H + real(beta) C (her2k; real T: syr2k);
// else  C = alpha A B^T + alpha B A^T + beta C (syr2k, complex symmetric).
// The other triangle is not touched. beta == 0 never reads C.
#define MGBLAS_DECLARE_RANK2K_KERNEL(T)                                                    \
  void rank2k(const Device& dev, cudaStream_t stream, bool herm, Uplo uplo, int64_t n,     \
              int64_t k, T alpha, const T* A, int64_t lda, const T* B, int64_t ldb, T beta, \
              T* C, int64_t ldc)

// C = alpha S B + beta C with S the m x m Hermitian (herm; real T: symmetric) or complex
// symmetric matrix whose `uplo` triangle is stored in A, B and C m x n (?hemm / ?symm,
// side left). The other triangle of A is not read. beta == 0 never reads C.
#define MGBLAS_DECLARE_HEMM_KERNEL(T)                                                      \
  void hemm(const Device& dev, cudaStream_t stream, bool herm, Uplo uplo, int64_t m,       \
            int64_t n, T alpha, const T* A, int64_t lda, const T* B, int64_t ldb, T beta,  \
            T* C, int64_t ldc)

// Whether hemm above, with n columns (herm as there; A only names the precision), runs a
// product of the engine's own that is fastest on the whole square: callers that would
// split a large S into smaller hemms and gemms around them (stage one of the two-stage
// reduction, where cuBLAS's ?symm is slow on big squares) give it the whole square then.
#define MGBLAS_DECLARE_HEMM_WHOLE_KERNEL(T) \
  bool hemm_whole(const Device& dev, bool herm, int64_t n, const T* A)

MGBLAS_DECLARE_FOR_BACKENDS(MGBLAS_DECLARE_GEMM_KERNEL)
MGBLAS_DECLARE_FOR_BACKENDS(MGBLAS_DECLARE_HEMM_KERNEL)
MGBLAS_DECLARE_FOR_BACKENDS(MGBLAS_DECLARE_HEMM_WHOLE_KERNEL)
MGBLAS_DECLARE_FOR_BACKENDS(MGBLAS_DECLARE_RANK2K_KERNEL)
MGBLAS_DECLARE_FOR_BACKENDS(MGBLAS_DECLARE_TSGEMM_KERNEL)

namespace mgblas::kernels {
/// rank2k on the engine of q's device (arguments checked by the caller).
template <Scalar T>
void rank2k(const Queue& q, bool herm, Uplo uplo, int64_t n, int64_t k, T alpha, const T* A,
            int64_t lda, const T* B, int64_t ldb, T beta, T* C, int64_t ldc) {
  MGBLAS_DISPATCH(q, rank2k, herm, uplo, n, k, alpha, A, lda, B, ldb, beta, C, ldc);
}
/// hemm on the engine of q's device (arguments checked by the caller).
template <Scalar T>
void hemm(const Queue& q, bool herm, Uplo uplo, int64_t m, int64_t n, T alpha, const T* A,
          int64_t lda, const T* B, int64_t ldb, T beta, T* C, int64_t ldc) {
  MGBLAS_DISPATCH(q, hemm, herm, uplo, m, n, alpha, A, lda, B, ldb, beta, C, ldc);
}
/// hemm_whole of the engine of dev.
template <Scalar T>
bool hemm_whole(const Device& dev, bool herm, int64_t n) {
  const T* tag = nullptr;
  return dev.backend() == Backend::Cuda ? cuda::hemm_whole(dev, herm, n, tag)
                                        : host::hemm_whole(dev, herm, n, tag);
}
}  // namespace mgblas::kernels
