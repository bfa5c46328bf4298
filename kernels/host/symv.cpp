// SPDX-License-Identifier: BSD-3-Clause
// Host SYMV/HEMV: CBLAS ?symv (real) and ?hemv (complex Hermitian); the complex
// symmetric product, which BLAS lacks, is LAPACK's c/zsymv.
#include "kernels/host/detail/cblas.hpp"
#include "kernels/symv_kernels.hpp"

namespace mgblas::kernels::host {
namespace {

template <bool kHermitian, Scalar T>
void symv_host(const char* func, Uplo uplo, int64_t n, T alpha, const T* A, int64_t lda, const T* x,
               int64_t incx, T beta, T* y, int64_t incy) {
  using detail::to_blas_int;
  // b*: the values as the BLAS integer.
  const auto bn = to_blas_int(func, "n", n);
  const auto blda = to_blas_int(func, "lda", lda);
  const auto bincx = to_blas_int(func, "incx", incx);
  const auto bincy = to_blas_int(func, "incy", incy);

  if (bn == 0) return;
  if (alpha == T(0)) {
    detail::scale_vector(bn, beta, y, bincy);
    return;
  }
  if (beta == T(0)) detail::scale_vector(bn, beta, y, bincy);
  if constexpr (is_complex_v<T> && !kHermitian)
    detail::complex_symv(detail::to_cblas(uplo), bn, alpha, A, blda, x, bincx, beta, y, bincy);
  else
    detail::symv_or_hemv(detail::to_cblas(uplo), bn, alpha, A, blda, x, bincx, beta, y, bincy);
}

// The diagonal block at (off, off); A may be null when that block is empty.
template <Scalar T>
const T* diagonal_block(const T* A, int64_t lda, int64_t off) {
  return A ? A + off + off * lda : A;
}

}  // namespace

#define MGBLAS_HOST_SYMV_(T)                                                                   \
  MGBLAS_DECLARE_SYMV_KERNEL(T) {                                                              \
    symv_host<false>("symv", uplo, n, alpha, A, lda, x, incx, beta, y, incy);                  \
  }                                                                                            \
  MGBLAS_DECLARE_HEMV_KERNEL(T) {                                                              \
    symv_host<true>("hemv", uplo, n, alpha, A, lda, x, incx, beta, y, incy);                   \
  }                                                                                            \
  MGBLAS_DECLARE_SYMV_OFFSET_KERNEL(T) {                                                       \
    symv_host<false>("symv_offset", uplo, n, alpha, diagonal_block(A, lda, off), lda, x, incx, \
                     beta, y, incy);                                                           \
  }                                                                                            \
  MGBLAS_DECLARE_HEMV_OFFSET_KERNEL(T) {                                                       \
    symv_host<true>("hemv_offset", uplo, n, alpha, diagonal_block(A, lda, off), lda, x, incx,  \
                    beta, y, incy);                                                            \
  }
MGBLAS_FOR_EACH_SCALAR(MGBLAS_HOST_SYMV_)
#undef MGBLAS_HOST_SYMV_

}  // namespace mgblas::kernels::host
