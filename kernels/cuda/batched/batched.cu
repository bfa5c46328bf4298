// SPDX-License-Identifier: BSD-3-Clause
// Batched entries of the CUDA engine: strided, pointer-array and variable-size GEMM.
//
// Dispatch points: quick return, then the batched engine (kernels/cuda/batched/), which
// takes the beta-only cases (k == 0, alpha == 0) and chooses per call between its own
// kernels, cuBLAS and the simple variable-size kernel of gemm_vbatched.cu, from the
// tuning table of the device's architecture or the model (batched::last_choice() says
// which and why).
#include "core/device.hpp"
#include "kernels/batched_kernels.hpp"
#include "kernels/cuda/batched/batched.hpp"

namespace mgblas::kernels::cuda {
namespace {

template <Scalar T>
void gemm_batched_strided_dispatch(const Device& dev, cudaStream_t stream, Op opA, Op opB,
                                   int64_t m, int64_t n, int64_t k, T alpha, const T* A,
                                   int64_t lda, int64_t strideA, const T* B, int64_t ldb,
                                   int64_t strideB, T beta, T* C, int64_t ldc, int64_t strideC,
                                   int64_t batch) {
  if (batch == 0 || m == 0 || n == 0) return;
  batched::gemm_strided(dev, stream, opA, opB, m, n, k, alpha, A, lda, strideA, B, ldb, strideB,
                        beta, C, ldc, strideC, batch);
}

template <Scalar T>
void gemm_batched_dispatch(const Device& dev, cudaStream_t stream, Op opA, Op opB, int64_t m,
                           int64_t n, int64_t k, T alpha, const T* const* Aarray, int64_t lda,
                           const T* const* Barray, int64_t ldb, T beta, T* const* Carray,
                           int64_t ldc, int64_t batch) {
  if (batch == 0 || m == 0 || n == 0) return;
  batched::gemm_pointer_array(dev, stream, opA, opB, m, n, k, alpha, Aarray, lda, Barray, ldb,
                              beta, Carray, ldc, batch);
}

template <Scalar T>
void gemm_vbatched_dispatch(const Device& dev, cudaStream_t stream, Op opA, Op opB,
                            const int64_t* m, const int64_t* n, const int64_t* k, T alpha,
                            const T* const* Aarray, const int64_t* lda, const T* const* Barray,
                            const int64_t* ldb, T beta, T* const* Carray, const int64_t* ldc,
                            int64_t batch, int64_t max_m, int64_t max_n, int64_t max_k) {
  if (batch == 0 || max_m == 0 || max_n == 0) return;
  batched::gemm_variable(dev, stream, opA, opB, m, n, k, alpha, Aarray, lda, Barray, ldb, beta,
                         Carray, ldc, batch, max_m, max_n, max_k);
}

}  // namespace

#define MGBLAS_DEFINE_BATCHED_(T)                                                             \
  MGBLAS_DECLARE_GEMM_BATCHED_STRIDED_KERNEL(T) {                                            \
    gemm_batched_strided_dispatch(dev, stream, opA, opB, m, n, k, alpha, A, lda, strideA, B, \
                                  ldb, strideB, beta, C, ldc, strideC, batch);               \
  }                                                                                          \
  MGBLAS_DECLARE_GEMM_BATCHED_KERNEL(T) {                                                    \
    gemm_batched_dispatch(dev, stream, opA, opB, m, n, k, alpha, Aarray, lda, Barray, ldb,   \
                          beta, Carray, ldc, batch);                                         \
  }                                                                                          \
  MGBLAS_DECLARE_GEMM_VBATCHED_KERNEL(T) {                                                   \
    gemm_vbatched_dispatch(dev, stream, opA, opB, m, n, k, alpha, Aarray, lda, Barray, ldb,  \
                           beta, Carray, ldc, batch, max_m, max_n, max_k);                   \
  }
MGBLAS_FOR_EACH_SCALAR(MGBLAS_DEFINE_BATCHED_)
#undef MGBLAS_DEFINE_BATCHED_

}  // namespace mgblas::kernels::cuda
