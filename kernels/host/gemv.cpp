// SPDX-License-Identifier: BSD-3-Clause
// Host GEMV: CBLAS ?gemv, with the beta and zero-size semantics of kernels/blas.hpp.
#include "kernels/gemv_kernels.hpp"
#include "kernels/host/detail/cblas.hpp"

namespace mgblas::kernels::host {
namespace {

template <Scalar T>
void gemv_cblas(const char* func, Op op, int64_t m, int64_t n, T alpha, const T* A, int64_t lda,
                const T* x, int64_t incx, T beta, T* y, int64_t incy) {
  using detail::to_blas_int;
  // b*: the values as the BLAS integer.
  const auto bm = to_blas_int(func, "m", m);
  const auto bn = to_blas_int(func, "n", n);
  const auto blda = to_blas_int(func, "lda", lda);
  const auto bincx = to_blas_int(func, "incx", incx);
  const auto bincy = to_blas_int(func, "incy", incy);

  const auto leny = op == Op::N ? bm : bn;
  const auto lenx = op == Op::N ? bn : bm;
  if (leny == 0) return;
  if (lenx == 0 || alpha == T(0)) {
    // Only beta applies; the reference BLAS would skip it when the inner size is 0.
    detail::scale_vector(leny, beta, y, bincy);
    return;
  }
  if (beta == T(0)) detail::scale_vector(leny, beta, y, bincy);
  detail::gemv(detail::to_cblas<T>(op), bm, bn, alpha, A, blda, x, bincx, beta, y, bincy);
}

}  // namespace

#define MGBLAS_HOST_GEMV_(T)                                                      \
  MGBLAS_DECLARE_GEMV_KERNEL(T) {                                                 \
    gemv_cblas("gemv", op, m, n, alpha, A, lda, x, incx, beta, y, incy);          \
  }                                                                               \
  MGBLAS_DECLARE_GEMV_OFFSET_KERNEL(T) {                                          \
    /* A may be null when the submatrix is empty; keep the offset off null. */    \
    const T* sub = A ? A + row_off + col_off * lda : A;                           \
    gemv_cblas("gemv_offset", op, m, n, alpha, sub, lda, x, incx, beta, y, incy); \
  }
MGBLAS_FOR_EACH_SCALAR(MGBLAS_HOST_GEMV_)
#undef MGBLAS_HOST_GEMV_

}  // namespace mgblas::kernels::host
