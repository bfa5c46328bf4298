// SPDX-License-Identifier: BSD-3-Clause
// Host engine of the tridiagonal eigenpairs (kernels/stedc_kernels.hpp): LAPACK's ?stedc
// with COMPZ = 'I' for all pairs, the window's columns copied out (the host engine's rule
// of calling the CPU library).
#include <algorithm>
#include <cstdint>
#include <type_traits>
#include <vector>

#include "core/error.hpp"
#include "kernels/host/detail/cblas.hpp"
#include "kernels/stedc_kernels.hpp"

namespace mgblas::kernels::host {
namespace {

template <Scalar T>
void eigenpairs_stedc(int64_t n, const real_type_t<T>* d, const real_type_t<T>* e,
                      int64_t il, int64_t iu, real_type_t<T>* w, T* Z, int64_t ldz) {
  using R = real_type_t<T>;
  if (n == 0) return;
  const auto ln = static_cast<lapack_int>(detail::to_blas_int("tridiag_eigenvectors", "n", n));
  std::vector<R> z(static_cast<std::size_t>(n) * static_cast<std::size_t>(n));
  std::vector<R> ee(static_cast<std::size_t>(n), R(0));  // ?stedc's e has room for n
  std::copy_n(d, n, w);
  std::copy_n(e, n - 1, ee.begin());
  lapack_int info;
  if constexpr (std::is_same_v<R, float>)
    info = LAPACKE_sstedc(LAPACK_COL_MAJOR, 'I', ln, w, ee.data(), z.data(), ln);
  else
    info = LAPACKE_dstedc(LAPACK_COL_MAJOR, 'I', ln, w, ee.data(), z.data(), ln);
  if (info != 0)
    MGBLAS_THROW(Error, "tridiag_eigenvectors: LAPACK ?stedc returned info ", info);
  for (int64_t j = il; j < iu; ++j)
    std::copy_n(z.data() + j * n, n, Z + (j - il) * ldz);  // widens to T for a complex T
}

}  // namespace

#define MGBLAS_HOST_STEDC_(T) \
  MGBLAS_DECLARE_STEDC_KERNEL(T) { eigenpairs_stedc<T>(n, d, e, il, iu, w, Z, ldz); }
MGBLAS_FOR_EACH_SCALAR(MGBLAS_HOST_STEDC_)
#undef MGBLAS_HOST_STEDC_

}  // namespace mgblas::kernels::host
