// SPDX-License-Identifier: BSD-3-Clause
// Host engine of the tridiagonal eigenvalues (kernels/stebz_kernels.hpp): one bisection
// per index, the indices spread over the OpenMP threads. No LAPACK routine computes an
// index range with this contract alone (?stebz also splits the matrix and orders by
// block), so the loops are the method's own, in kernels/detail/sturm_bisection.hpp.
#include <cstdint>

#include "kernels/detail/sturm_bisection.hpp"
#include "kernels/stebz_kernels.hpp"

namespace mgblas::kernels::host {
namespace {

template <typename R>
void eigenvalues_bisection(int64_t n, const R* d, const R* e, int64_t il, int64_t iu, R* w) {
  if (il >= iu) return;
  using detail::PlainLoad;
  const detail::SturmBounds<R> bounds = detail::sturm_bounds(n, d, e, PlainLoad{});
  // Dynamic schedule: an eigenvalue near zero takes many more halvings than the others.
#pragma omp parallel for schedule(dynamic, 16)
  for (int64_t i = il; i < iu; ++i) w[i - il] = detail::sturm_bisect(n, d, e, i, bounds, PlainLoad{});
}

}  // namespace

#define MGBLAS_HOST_STEBZ_(T)                                          \
  MGBLAS_DECLARE_STEBZ_KERNEL(T) {                                     \
    eigenvalues_bisection<real_type_t<T>>(n, d, e, il, iu, w);         \
  }
MGBLAS_FOR_EACH_SCALAR(MGBLAS_HOST_STEBZ_)
#undef MGBLAS_HOST_STEBZ_

}  // namespace mgblas::kernels::host
