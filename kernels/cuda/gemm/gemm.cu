// SPDX-License-Identifier: BSD-3-Clause
// Level-3 entries of the CUDA engine: gemm, tsgemm, the rank-2k update and hemm.
//
// Dispatch point: quick return, the beta-only cases (k == 0, alpha == 0: C = beta * C,
// which cuBLAS does not promise for k == 0), then the product on cuBLAS; hemm in float and
// complex float (Hermitian) with 17 to 32 columns on skinny.cu's kernels where they serve. tsgemm
// goes to the tall-and-skinny engine (kernels/cuda/tsgemm/), which picks TSM2R, TSM2L, the A^H B
// k-split or cuBLAS by shape.
#include "core/device.hpp"
#include "kernels/cuda/common/cublas.hpp"
#include "kernels/cuda/common/launchers.hpp"
#include "kernels/cuda/gemm/skinny.hpp"
#include "kernels/cuda/tsgemm/tsgemm.hpp"
#include "kernels/gemm_kernels.hpp"

namespace mgblas::kernels::cuda {
namespace {

template <Scalar T>
void gemm_dispatch(const Device& dev, cudaStream_t stream, Op opA, Op opB, int64_t m, int64_t n,
                   int64_t k, T alpha, const T* A, int64_t lda, const T* B, int64_t ldb, T beta,
                   T* C, int64_t ldc) {
  if (m == 0 || n == 0) return;
  dev.make_current();
  if (k == 0 || alpha == T(0)) return common::scale(stream, m, n, beta, C, 1, ldc);
  common::cublas::gemm(dev.cublas(), stream, opA, opB, m, n, k, alpha, A, lda, B, ldb, beta, C, ldc);
}

// Whether skinny.cu takes hemm of an m x m S with n columns: float (symmetric) and
// complex float (Hermitian) where serves_symm says so.
template <Scalar T>
bool skinny_takes(bool herm, int64_t m, int64_t n) {
  if constexpr (std::is_same_v<T, float>) return skinny::serves_symm(m, n);
  if constexpr (std::is_same_v<T, std::complex<float>>) return herm && skinny::serves_symm(m, n);
  return false;
}

template <Scalar T>
void hemm_dispatch(const Device& dev, cudaStream_t stream, bool herm, Uplo uplo, int64_t m,
                   int64_t n, T alpha, const T* A, int64_t lda, const T* B, int64_t ldb, T beta,
                   T* C, int64_t ldc) {
  if (m == 0 || n == 0) return;
  dev.make_current();
  if constexpr (std::is_same_v<T, float> || std::is_same_v<T, std::complex<float>>) {
    if (alpha != T(0) && skinny_takes<T>(herm, m, n)) {
      if constexpr (std::is_same_v<T, float>)
        return skinny::symm(stream, uplo, m, static_cast<int>(n), alpha, A, lda, B, ldb, beta, C,
                            ldc);
      else
        return skinny::hemm(stream, uplo, m, static_cast<int>(n), alpha, A, lda, B, ldb, beta, C,
                            ldc);
    }
  }
  common::cublas::hemm(dev.cublas(), stream, herm, uplo, m, n, alpha, A, lda, B, ldb, beta, C, ldc);
}

}  // namespace

#define MGBLAS_DEFINE_LEVEL3_(T)                                                                   \
  MGBLAS_DECLARE_GEMM_KERNEL(T) {                                                                  \
    gemm_dispatch(dev, stream, opA, opB, m, n, k, alpha, A, lda, B, ldb, beta, C, ldc);            \
  }                                                                                                \
  MGBLAS_DECLARE_RANK2K_KERNEL(T) {                                                                \
    if (n == 0) return;                                                                            \
    dev.make_current();                                                                            \
    common::cublas::rank2k(dev.cublas(), stream, herm, uplo, n, k, alpha, A, lda, B, ldb, beta, C, \
                           ldc);                                                                   \
  }                                                                                                \
  MGBLAS_DECLARE_HEMM_KERNEL(T) {                                                                  \
    hemm_dispatch(dev, stream, herm, uplo, m, n, alpha, A, lda, B, ldb, beta, C, ldc);             \
  }                                                                                                \
  /* skinny.cu's products run fastest on the whole square (bench/results/h200-skinny-sgemm.md) */  \
  MGBLAS_DECLARE_HEMM_WHOLE_KERNEL(T) { return skinny_takes<T>(herm, skinny::kMinSide, n); }       \
  MGBLAS_DECLARE_TSGEMM_KERNEL(T) {                                                                \
    if (m == 0 || n == 0) return;                                                                  \
    dev.make_current();                                                                            \
    tsm2::tsgemm(dev.cublas(), stream, opA, opB, m, n, k, alpha, A, lda, B, ldb, beta, C, ldc);    \
  }
MGBLAS_FOR_EACH_SCALAR(MGBLAS_DEFINE_LEVEL3_)
#undef MGBLAS_DEFINE_LEVEL3_

}  // namespace mgblas::kernels::cuda
