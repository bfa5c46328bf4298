// SPDX-License-Identifier: BSD-3-Clause
// Host GEMM: CBLAS ?gemm. tsgemm is the same product here; OpenBLAS already picks
// its own blocking for tall-and-skinny shapes.
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

}  // namespace

#define MGBLAS_HOST_GEMM_(T)                                                     \
  MGBLAS_DECLARE_GEMM_KERNEL(T) {                                                \
    gemm_host("gemm", opA, opB, m, n, k, alpha, A, lda, B, ldb, beta, C, ldc);   \
  }                                                                              \
  MGBLAS_DECLARE_TSGEMM_KERNEL(T) {                                              \
    gemm_host("tsgemm", opA, opB, m, n, k, alpha, A, lda, B, ldb, beta, C, ldc); \
  }
MGBLAS_FOR_EACH_SCALAR(MGBLAS_HOST_GEMM_)
#undef MGBLAS_HOST_GEMM_

}  // namespace mgblas::kernels::host
