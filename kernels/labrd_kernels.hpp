// SPDX-License-Identifier: BSD-3-Clause
// The small per-device steps of the bidiagonal reduction's panel (LAPACK's DLABRD /
// ZLABRD) that are not products: conjugation, strided copies, a reflector formed from
// scalars already on the device, scaling by a device scalar, and the store of a finished
// panel. The distributed driver (dist/lapack/gebrd_mgpu.cpp) strings them together with
// the engines' gemv and gemm; none of them waits for the host, so on a GPU a whole panel
// is queued without a synchronisation.
//
// Scalars that a step reads or writes (alpha, the sum of squares, beta, tau, a scale)
// are device memory. Every step computes the same bits from the same inputs on every
// device, which the driver relies on (each device forms the panel's reflectors itself).
#pragma once

#include "kernels/detail/dispatch.hpp"
#include "kernels/kernel_declaration.hpp"

// x[i * incx] = conj(x[i * incx]) for i < n (LAPACK ?lacgv; nothing for real T).
#define MGBLAS_DECLARE_LABRD_LACGV_KERNEL(T) \
  void labrd_lacgv(const Device& dev, cudaStream_t stream, int64_t n, T* x, int64_t incx)

// y[i * incy] = x[i * incx], conjugated when `conjugate`, for i < n.
#define MGBLAS_DECLARE_LABRD_COPY_KERNEL(T)                                                \
  void labrd_copy(const Device& dev, cudaStream_t stream, int64_t n, const T* x, int64_t incx, \
                  T* y, int64_t incy, bool conjugate)

// *out = sum |x[i * incx]|^2 for i < n, as a T with zero imaginary part (0 when n = 0).
// The sum is formed in a fixed order (the same bits on every device).
#define MGBLAS_DECLARE_LABRD_SUMSQ_KERNEL(T)                                                 \
  void labrd_sumsq(const Device& dev, cudaStream_t stream, int64_t n, const T* x, int64_t incx, \
                   T* out)

// The elementary reflector H = I - tau u u^H with H^H (alpha, x)^T = (beta, 0)^T, from
// alpha = *alpha and s = real(*sumsq) = ||x||^2 (LAPACK ?larfg's formulas, without its
// rescaling of norms below the safe minimum): *beta_out = beta (real), *tau_out = tau,
// *scale_out = 1 / (alpha - beta), the factor that turns x into u(1:); when s = 0 and
// alpha is real, tau = 0, beta = alpha and the scale is 1. Then *head1 = *head2 = 1
// where they are not null (head1 may be alpha itself: it is read first).
#define MGBLAS_DECLARE_LABRD_REFLECTOR_KERNEL(T)                                            \
  void labrd_reflector(const Device& dev, cudaStream_t stream, const T* alpha, const T* sumsq, \
                       real_type_t<T>* beta_out, T* tau_out, T* scale_out, T* head1, T* head2)

// x[i * incx] *= *s for i < n.
#define MGBLAS_DECLARE_LABRD_SCAL_KERNEL(T) \
  void labrd_scal(const Device& dev, cudaStream_t stream, int64_t n, const T* s, T* x, int64_t incx)

// y[i] += *s * x[i] for i < n (contiguous).
#define MGBLAS_DECLARE_LABRD_AXPY_KERNEL(T)                                               \
  void labrd_axpy(const Device& dev, cudaStream_t stream, int64_t n, const T* s, const T* x, \
                  T* y)

// The finished panel's column reflectors back into the owner's storage: A(l+1:m, l) =
// P(l+1:m, l) for l < b (the strictly lower trapezoid; the rows above hold the row
// reflectors, which the driver kept in A itself).
#define MGBLAS_DECLARE_LABRD_STORE_KERNEL(T)                                                \
  void labrd_store(const Device& dev, cudaStream_t stream, int64_t m, int64_t b, const T* P,  \
                   int64_t ldp, T* A, int64_t lda)

// dst[i * inc] = src[i] for i < n: d or e onto a diagonal of A (inc = lda + 1).
#define MGBLAS_DECLARE_LABRD_PUT_KERNEL(T)                                                 \
  void labrd_put(const Device& dev, cudaStream_t stream, int64_t n, const real_type_t<T>* src, \
                 T* dst, int64_t inc)

MGBLAS_DECLARE_FOR_BACKENDS(MGBLAS_DECLARE_LABRD_LACGV_KERNEL)
MGBLAS_DECLARE_FOR_BACKENDS(MGBLAS_DECLARE_LABRD_COPY_KERNEL)
MGBLAS_DECLARE_FOR_BACKENDS(MGBLAS_DECLARE_LABRD_SUMSQ_KERNEL)
MGBLAS_DECLARE_FOR_BACKENDS(MGBLAS_DECLARE_LABRD_REFLECTOR_KERNEL)
MGBLAS_DECLARE_FOR_BACKENDS(MGBLAS_DECLARE_LABRD_SCAL_KERNEL)
MGBLAS_DECLARE_FOR_BACKENDS(MGBLAS_DECLARE_LABRD_AXPY_KERNEL)
MGBLAS_DECLARE_FOR_BACKENDS(MGBLAS_DECLARE_LABRD_STORE_KERNEL)
MGBLAS_DECLARE_FOR_BACKENDS(MGBLAS_DECLARE_LABRD_PUT_KERNEL)

// The steps on the engine of a queue's device (arguments as above, not validated: the
// driver has checked them). Zero lengths return at once.
namespace mgblas::kernels {
template <Scalar T>
void labrd_lacgv(const Queue& q, int64_t n, T* x, int64_t incx) {
  if constexpr (!is_complex_v<T>) return;
  if (n > 0) MGBLAS_DISPATCH(q, labrd_lacgv, n, x, incx);
}
template <Scalar T>
void labrd_copy(const Queue& q, int64_t n, const T* x, int64_t incx, T* y, int64_t incy,
                bool conjugate) {
  if (n > 0) MGBLAS_DISPATCH(q, labrd_copy, n, x, incx, y, incy, conjugate && is_complex_v<T>);
}
template <Scalar T>
void labrd_sumsq(const Queue& q, int64_t n, const T* x, int64_t incx, T* out) {
  MGBLAS_DISPATCH(q, labrd_sumsq, n, x, incx, out);
}
template <Scalar T>
void labrd_reflector(const Queue& q, const T* alpha, const T* sumsq, real_type_t<T>* beta_out,
                     T* tau_out, T* scale_out, T* head1, T* head2) {
  MGBLAS_DISPATCH(q, labrd_reflector, alpha, sumsq, beta_out, tau_out, scale_out, head1, head2);
}
template <Scalar T>
void labrd_scal(const Queue& q, int64_t n, const T* s, T* x, int64_t incx) {
  if (n > 0) MGBLAS_DISPATCH(q, labrd_scal, n, s, x, incx);
}
template <Scalar T>
void labrd_axpy(const Queue& q, int64_t n, const T* s, const T* x, T* y) {
  if (n > 0) MGBLAS_DISPATCH(q, labrd_axpy, n, s, x, y);
}
template <Scalar T>
void labrd_store(const Queue& q, int64_t m, int64_t b, const T* P, int64_t ldp, T* A,
                 int64_t lda) {
  if (m > 1 && b > 0) MGBLAS_DISPATCH(q, labrd_store, m, b, P, ldp, A, lda);
}
template <Scalar T>
void labrd_put(const Queue& q, int64_t n, const real_type_t<T>* src, T* dst, int64_t inc) {
  if (n > 0) MGBLAS_DISPATCH(q, labrd_put, n, src, dst, inc);
}
}  // namespace mgblas::kernels
