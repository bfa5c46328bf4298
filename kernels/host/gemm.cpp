// SPDX-License-Identifier: BSD-3-Clause
// Host GEMM: CBLAS ?gemm. tsgemm is the same product here; OpenBLAS already picks
// its own blocking for tall-and-skinny shapes. hemm: CBLAS ?symm / ?hemm.
#include "kernels/gemm_kernels.hpp"
#include "kernels/host/detail/cblas.hpp"

namespace mgblas::kernels::host {
namespace {

template <Scalar T>
void gemm_host(const char* func, Op opA, Op opB, int64_t m, int64_t n, int64_t k, T alpha,
               const T* A, int64_t lda, const T* B, int64_t ldb, T beta, T* C, int64_t ldc) {
  using detail::to_blas_int;
  detail::gemm_entry(opA, opB, to_blas_int(func, "m", m), to_blas_int(func, "n", n),
                     to_blas_int(func, "k", k), alpha, A, to_blas_int(func, "lda", lda), B,
                     to_blas_int(func, "ldb", ldb), beta, C, to_blas_int(func, "ldc", ldc));
}

template <Scalar T>
void hemm_host(bool herm, Uplo uplo, int64_t m, int64_t n, T alpha, const T* A, int64_t lda,
               const T* B, int64_t ldb, T beta, T* C, int64_t ldc) {
  using detail::to_blas_int;
  if (m == 0 || n == 0) return;
  const auto bm = to_blas_int("hemm", "m", m), bn = to_blas_int("hemm", "n", n);
  const auto blda = to_blas_int("hemm", "lda", lda), bldb = to_blas_int("hemm", "ldb", ldb);
  const auto bldc = to_blas_int("hemm", "ldc", ldc);
  if (beta == T(0)) {
    // BLAS may read C when beta == 0; zero it so that NaN cannot leak.
    for (int64_t j = 0; j < n; ++j)
      for (int64_t i = 0; i < m; ++i) C[i + j * ldc] = T(0);
  }
  const CBLAS_UPLO u = detail::to_cblas(uplo);
  if constexpr (std::is_same_v<T, float>) {
    cblas_ssymm(CblasColMajor, CblasLeft, u, bm, bn, alpha, A, blda, B, bldb, beta, C, bldc);
  } else if constexpr (std::is_same_v<T, double>) {
    cblas_dsymm(CblasColMajor, CblasLeft, u, bm, bn, alpha, A, blda, B, bldb, beta, C, bldc);
  } else if constexpr (std::is_same_v<T, scomplex>) {
    (herm ? cblas_chemm : cblas_csymm)(CblasColMajor, CblasLeft, u, bm, bn, &alpha, A, blda, B,
                                       bldb, &beta, C, bldc);
  } else {
    (herm ? cblas_zhemm : cblas_zsymm)(CblasColMajor, CblasLeft, u, bm, bn, &alpha, A, blda, B,
                                       bldb, &beta, C, bldc);
  }
}

}  // namespace

#define MGBLAS_HOST_GEMM_(T)                                                     \
  MGBLAS_DECLARE_GEMM_KERNEL(T) {                                                \
    gemm_host("gemm", opA, opB, m, n, k, alpha, A, lda, B, ldb, beta, C, ldc);   \
  }                                                                              \
  MGBLAS_DECLARE_TSGEMM_KERNEL(T) {                                              \
    gemm_host("tsgemm", opA, opB, m, n, k, alpha, A, lda, B, ldb, beta, C, ldc); \
  }                                                                              \
  MGBLAS_DECLARE_HEMM_KERNEL(T) {                                                \
    hemm_host(herm, uplo, m, n, alpha, A, lda, B, ldb, beta, C, ldc);            \
  }                                                                              \
  MGBLAS_DECLARE_HEMM_WHOLE_KERNEL(T) { return false; }
MGBLAS_FOR_EACH_SCALAR(MGBLAS_HOST_GEMM_)
#undef MGBLAS_HOST_GEMM_

}  // namespace mgblas::kernels::host
