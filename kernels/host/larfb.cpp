// SPDX-License-Identifier: BSD-3-Clause
// Host engine of the block-reflector steps (kernels/larfb_kernels.hpp): LAPACKE ?larft
// for the triangular factor, ?laset and ?lacpy for the explicit V.
#include <complex>
#include <type_traits>

#include "kernels/host/detail/cblas.hpp"
#include "kernels/larfb_kernels.hpp"

namespace mgblas::kernels::host {
namespace {

using detail::blas_int;
using detail::to_blas_int;

// V from A with ?laset (the units and zeros) and ?lacpy (the stored side).
template <Scalar T>
void form_v(Direction dir, int64_t m, int64_t b, const T* A, int64_t lda, T* V, int64_t ldv) {
  const blas_int bm = to_blas_int("larfb", "m", m), bb = to_blas_int("larfb", "b", b);
  const blas_int blda = to_blas_int("larfb", "lda", lda), bldv = to_blas_int("larfb", "ldv", ldv);
  if (dir == Direction::Forward) {
    // Unit diagonal, zeros above; A's strictly lower triangle one row down.
    detail::laset('U', bm, bb, T(0), T(1), V, bldv);
    if (m > 1) detail::lacpy('L', bm - 1, bb, A + 1, blda, V + 1, bldv);
    return;
  }
  // Backward: the top m - b rows whole; in the bottom b x b square a unit diagonal, zeros
  // below it and A's strictly upper triangle (one column right) above it.
  const blas_int top = bm - bb;
  if (top > 0) detail::lacpy('A', top, bb, A, blda, V, bldv);
  detail::laset('L', bb, bb, T(0), T(1), V + top, bldv);
  if (b > 1) detail::lacpy('U', bb - 1, bb - 1, A + top + lda, blda, V + top + ldv, bldv);
}

template <Scalar T>
void larft_host(Direction dir, int64_t m, int64_t b, const T* V, int64_t ldv, const T* tau,
                T* Tm, int64_t ldt) {
  const auto n = static_cast<lapack_int>(to_blas_int("larft", "m", m));
  const auto k = static_cast<lapack_int>(to_blas_int("larft", "b", b));
  const auto lv = static_cast<lapack_int>(to_blas_int("larft", "ldv", ldv));
  const auto lt = static_cast<lapack_int>(to_blas_int("larft", "ldt", ldt));
  // The _work entries: no NaN scan of V on every call (the driver's data are its own).
  detail::by_precision<T>(LAPACKE_slarft_work, LAPACKE_dlarft_work, LAPACKE_clarft_work,
                          LAPACKE_zlarft_work)(LAPACK_COL_MAJOR, static_cast<char>(dir), 'C',
                                               n, k, V, lv, tau, Tm, lt);
  // ?larft leaves the other strict triangle as it was; the driver's gemm reads it.
  const bool forward = dir == Direction::Forward;
  for (int64_t j = 0; j < b; ++j)
    for (int64_t i = 0; i < b; ++i)
      if (forward ? i > j : i < j) Tm[i + j * ldt] = T(0);
}

}  // namespace

#define MGBLAS_HOST_LARFB_(T)                                                              \
  MGBLAS_DECLARE_LARFB_FORM_V_KERNEL(T) { form_v<T>(dir, m, b, A, lda, V, ldv); }          \
  MGBLAS_DECLARE_LARFT_KERNEL(T) { larft_host<T>(dir, m, b, V, ldv, tau, Tm, ldt); }
MGBLAS_FOR_EACH_SCALAR(MGBLAS_HOST_LARFB_)
#undef MGBLAS_HOST_LARFB_

}  // namespace mgblas::kernels::host
