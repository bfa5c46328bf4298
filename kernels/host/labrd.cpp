// SPDX-License-Identifier: BSD-3-Clause
// Host engine of the bidiagonal reduction's small panel steps (kernels/labrd_kernels.hpp):
// plain loops over host memory; the products of the reduction go to CBLAS through the
// engine's gemv and gemm.
#include <cmath>
#include <complex>

#include "kernels/labrd_kernels.hpp"

namespace mgblas::kernels::host {
namespace {

template <Scalar T>
T conj_if(T a, bool c) {
  if constexpr (is_complex_v<T>) return c ? std::conj(a) : a;
  else return a;
}

template <Scalar T>
void reflector(const T* alpha, const T* sumsq, real_type_t<T>* beta_out, T* tau_out,
               T* scale_out, T* head1, T* head2) {
  using R = real_type_t<T>;
  const T a = *alpha;
  const R s = std::real(*sumsq), ar = std::real(a), ai = std::imag(a);
  if (s == R(0) && ai == R(0)) {  // H = I
    *beta_out = ar;
    *tau_out = T(0);
    *scale_out = T(1);
  } else {
    const R beta = -std::copysign(std::sqrt(ar * ar + ai * ai + s), ar);
    *beta_out = beta;
    if constexpr (is_complex_v<T>) *tau_out = T((beta - ar) / beta, -ai / beta);
    else *tau_out = (beta - ar) / beta;
    *scale_out = T(1) / (a - T(beta));
  }
  if (head1) *head1 = T(1);
  if (head2) *head2 = T(1);
}

}  // namespace

#define MGBLAS_HOST_LABRD_(T)                                                              \
  MGBLAS_DECLARE_LABRD_LACGV_KERNEL(T) {                                                   \
    for (int64_t i = 0; i < n; ++i) x[i * incx] = conj_if(x[i * incx], true);              \
  }                                                                                        \
  MGBLAS_DECLARE_LABRD_COPY_KERNEL(T) {                                                    \
    for (int64_t i = 0; i < n; ++i) y[i * incy] = conj_if(x[i * incx], conjugate);         \
  }                                                                                        \
  MGBLAS_DECLARE_LABRD_SUMSQ_KERNEL(T) {                                                   \
    real_type_t<T> s = 0;                                                                  \
    for (int64_t i = 0; i < n; ++i) s += std::norm(x[i * incx]);                           \
    *out = T(s);                                                                           \
  }                                                                                        \
  MGBLAS_DECLARE_LABRD_REFLECTOR_KERNEL(T) {                                               \
    reflector<T>(alpha, sumsq, beta_out, tau_out, scale_out, head1, head2);                \
  }                                                                                        \
  MGBLAS_DECLARE_LABRD_SCAL_KERNEL(T) {                                                    \
    const T f = *s;                                                                        \
    for (int64_t i = 0; i < n; ++i) x[i * incx] *= f;                                      \
  }                                                                                        \
  MGBLAS_DECLARE_LABRD_AXPY_KERNEL(T) {                                                    \
    const T f = *s;                                                                        \
    for (int64_t i = 0; i < n; ++i) y[i] += f * x[i];                                      \
  }                                                                                        \
  MGBLAS_DECLARE_LABRD_STORE_KERNEL(T) {                                                   \
    for (int64_t l = 0; l < b; ++l)                                                        \
      for (int64_t r = l + 1; r < m; ++r) A[r + l * lda] = P[r + l * ldp];                 \
  }                                                                                        \
  MGBLAS_DECLARE_LABRD_PUT_KERNEL(T) {                                                     \
    for (int64_t i = 0; i < n; ++i) dst[i * inc] = T(src[i]);                              \
  }
MGBLAS_FOR_EACH_SCALAR(MGBLAS_HOST_LABRD_)
#undef MGBLAS_HOST_LABRD_

}  // namespace mgblas::kernels::host
