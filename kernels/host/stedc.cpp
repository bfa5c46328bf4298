// SPDX-License-Identifier: BSD-3-Clause
// Host engine of the tridiagonal eigenpairs (kernels/stedc_kernels.hpp): LAPACK's ?stedc
// with COMPZ = 'I', the host engine's rule of calling the CPU library.
#include <algorithm>
#include <cstdint>
#include <vector>

#include "kernels/host/mrrr.hpp"
#include "kernels/stedc_kernels.hpp"

namespace mgblas::kernels::host {
namespace {

template <Scalar T>
void eigenpairs_stedc(int64_t n, const real_type_t<T>* d, const real_type_t<T>* e,
                      int64_t il, int64_t iu, real_type_t<T>* w, T* Z, int64_t ldz) {
  using R = real_type_t<T>;
  if (n == 0) return;
  std::vector<R> z(static_cast<std::size_t>(n) * static_cast<std::size_t>(n));
  stedc_all<R>("tridiag_eigenvectors", n, d, e, z.data(), w);
  for (int64_t j = il; j < iu; ++j)
    std::copy_n(z.data() + j * n, n, Z + (j - il) * ldz);  // widens to T for a complex T
}

}  // namespace

#define MGBLAS_HOST_STEDC_(T) \
  MGBLAS_DECLARE_STEDC_KERNEL(T) { eigenpairs_stedc<T>(n, d, e, il, iu, w, Z, ldz); }
MGBLAS_FOR_EACH_SCALAR(MGBLAS_HOST_STEDC_)
#undef MGBLAS_HOST_STEDC_

}  // namespace mgblas::kernels::host
