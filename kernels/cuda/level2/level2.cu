// SPDX-License-Identifier: BSD-3-Clause
// Level-2 entries of the CUDA engine: gemv, symv, hemv and their offset forms.
//
// Each entry is a dispatch point: quick return, the beta-only cases (zero inner
// dimension, alpha == 0: cuBLAS would leave y unscaled or read A for nothing), then
// the product: mgblas's own GEMV/SYMV/HEMV kernels (kernels/cuda/level2/, symv/) or
// cuBLAS, per (precision, op, size class) from the measured dispatch table
// (kernels/cuda/level2/tables/<arch>.json; level2::chosen_engine says which and why).
#include "core/device.hpp"
#include "kernels/cuda/common/cublas.hpp"
#include "kernels/cuda/common/launchers.hpp"
#include "kernels/cuda/level2/gemv.hpp"
#include "kernels/cuda/level2/symv.hpp"
#include "kernels/cuda/level2/level2_dispatch.hpp"
#include "kernels/gemv_kernels.hpp"
#include "kernels/symv_kernels.hpp"

namespace mgblas::kernels::cuda {
namespace {

template <Scalar T>
void gemv_dispatch(const Device& dev, cudaStream_t stream, Op op, int64_t m, int64_t n, T alpha,
                   const T* A, int64_t lda, int64_t row_off, int64_t col_off, const T* x,
                   int64_t incx, T beta, T* y, int64_t incy) {
  const int64_t len_y = op == Op::N ? m : n;
  const int64_t inner = op == Op::N ? n : m;
  if (len_y == 0) return;
  dev.make_current();
  if (inner == 0 || alpha == T(0)) return common::scale_vector(stream, len_y, beta, y, incy);
  // mgblas's kernel or cuBLAS, as the measured table says (level2/tables/); the
  // kernel takes the parent and the offsets so its reads stay aligned to the parent.
  const T* A_sub = A + row_off + col_off * lda;
  const auto choice = level2::choose_gemv<T>(op, m, n, A_sub, lda, x, incx, y, incy);
  if (choice.engine == level2::Engine::Mgblas)
    level2::gemv<T>(stream, op, m, n, alpha, A, lda, row_off, col_off, x, incx, beta, y, incy,
                    {choice.variant, 0});
  else
    common::cublas::gemv(dev.cublas(), stream, op, m, n, alpha, A_sub, lda, x, incx, beta, y, incy);
}

template <bool kHermitian, Scalar T>
void symv_dispatch(const Device& dev, cudaStream_t stream, Uplo uplo, int64_t n, T alpha,
                   const T* A, int64_t lda, int64_t off, const T* x, int64_t incx, T beta, T* y,
                   int64_t incy) {
  if (n == 0) return;
  dev.make_current();
  if (alpha == T(0)) return common::scale_vector(stream, n, beta, y, incy);
  const T* A_sub = A + off + off * lda;
  const auto choice = level2::choose_symv<T>(uplo, kHermitian, n, A_sub, lda, x, incx, y, incy);
  if (choice.engine == level2::Engine::Mgblas) {
    level2::symv<T>(stream, uplo, kHermitian, n, alpha, A, lda, off, x, incx, beta, y, incy,
                    {choice.variant, 0});
    return;
  }
  // Real hemv is symv; complex symv is cuBLAS's complex-symmetric c/zsymv.
  if constexpr (kHermitian)
    common::cublas::hemv(dev.cublas(), stream, uplo, n, alpha, A_sub, lda, x, incx, beta, y, incy);
  else
    common::cublas::symv(dev.cublas(), stream, uplo, n, alpha, A_sub, lda, x, incx, beta, y, incy);
}

}  // namespace

#define MGBLAS_DEFINE_LEVEL2_(T)                                                              \
  MGBLAS_DECLARE_GEMV_KERNEL(T) {                                                            \
    gemv_dispatch(dev, stream, op, m, n, alpha, A, lda, 0, 0, x, incx, beta, y, incy);      \
  }                                                                                          \
  MGBLAS_DECLARE_GEMV_OFFSET_KERNEL(T) {                                                     \
    gemv_dispatch(dev, stream, op, m, n, alpha, A, lda, row_off, col_off, x, incx, beta, y,  \
                  incy);                                                                     \
  }                                                                                          \
  MGBLAS_DECLARE_SYMV_KERNEL(T) {                                                            \
    symv_dispatch<false>(dev, stream, uplo, n, alpha, A, lda, 0, x, incx, beta, y, incy);    \
  }                                                                                          \
  MGBLAS_DECLARE_SYMV_OFFSET_KERNEL(T) {                                                     \
    symv_dispatch<false>(dev, stream, uplo, n, alpha, A, lda, off, x, incx, beta, y, incy);  \
  }                                                                                          \
  MGBLAS_DECLARE_HEMV_KERNEL(T) {                                                            \
    symv_dispatch<true>(dev, stream, uplo, n, alpha, A, lda, 0, x, incx, beta, y, incy);     \
  }                                                                                          \
  MGBLAS_DECLARE_HEMV_OFFSET_KERNEL(T) {                                                     \
    symv_dispatch<true>(dev, stream, uplo, n, alpha, A, lda, off, x, incx, beta, y, incy);   \
  }
MGBLAS_FOR_EACH_SCALAR(MGBLAS_DEFINE_LEVEL2_)
#undef MGBLAS_DEFINE_LEVEL2_

}  // namespace mgblas::kernels::cuda
