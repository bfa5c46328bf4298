// SPDX-License-Identifier: BSD-3-Clause
// Host engine of the tridiagonal eigenvalues (kernels/stebz_kernels.hpp): LAPACK's ?stebz
// with RANGE = 'I' (RANGE = 'A' where that falls short) and ORDER = 'E' (the eigenvalues of the whole matrix, ascending, for
// the index range), the host engine's rule of calling the CPU library. The CUDA engine
// keeps its own multisection (kernels/detail/sturm_bisection.hpp); the tests hold the two
// engines and ?sterf to the same bound.
#include <cstdint>
#include <type_traits>
#include <vector>

#include "core/error.hpp"
#include "kernels/host/detail/cblas.hpp"
#include "kernels/stebz_kernels.hpp"

namespace mgblas::kernels::host {
namespace {

template <typename R>
void eigenvalues_stebz(int64_t n, const R* d, const R* e, int64_t il, int64_t iu, R* w) {
  if (il >= iu) return;
  const auto ln = static_cast<lapack_int>(detail::to_blas_int("tridiag_eigenvalues", "n", n));
  // ?stebz writes up to n values and uses 4 n reals and 3 n integers of work; iblock and
  // isplit (the blocks T splits into) are outputs it needs room for.
  std::vector<R> values(static_cast<std::size_t>(n)), work(static_cast<std::size_t>(4 * n));
  std::vector<lapack_int> iblock(static_cast<std::size_t>(n)), isplit(static_cast<std::size_t>(n)),
      iwork(static_cast<std::size_t>(3 * n));
  lapack_int found = 0, nsplit = 0;
  // abstol 0: LAPACK's default, eps times T's 1-norm, the accuracy the other engine and
  // the tests' bound (n eps ||T||) work to.
  const auto stebz = [&](char range) {
    const auto lo = static_cast<lapack_int>(il + 1), hi = static_cast<lapack_int>(iu);
    if constexpr (std::is_same_v<R, float>)
      return LAPACKE_sstebz_work(range, 'E', ln, 0.0f, 0.0f, lo, hi, 0.0f, d, e, &found, &nsplit,
                                 values.data(), iblock.data(), isplit.data(), work.data(),
                                 iwork.data());
    else
      return LAPACKE_dstebz_work(range, 'E', ln, 0.0, 0.0, lo, hi, 0.0, d, e, &found, &nsplit,
                                 values.data(), iblock.data(), isplit.data(), work.data(),
                                 iwork.data());
  };
  lapack_int info = stebz('I');
  int64_t first = 0;  // of the wanted values in `values`
  // info 2: fewer values than asked in the index range, which LAPACK puts down to rounding
  // that makes the Sturm counts non-monotonic (a spectrum clustered at the precision's
  // resolution, in single precision, does it); its cure: all values, then pick the range.
  if (info == 2) {
    info = stebz('A');
    if (info == 0 && found == n) found = iu - il, first = il;
  }
  // info 1-3: some eigenvalues did not converge (LAPACK's wording); 4: T's Gershgorin
  // intervals were too small, which finite input does not produce.
  if (info != 0 || found != iu - il)
    MGBLAS_THROW(Error, "tridiag_eigenvalues: LAPACK ?stebz returned info ", info, " with ",
                 found, " of the ", iu - il, " eigenvalues asked for");
  for (int64_t i = 0; i < found; ++i) w[i] = values[static_cast<std::size_t>(first + i)];
}

}  // namespace

#define MGBLAS_HOST_STEBZ_(T)                                  \
  MGBLAS_DECLARE_STEBZ_KERNEL(T) {                             \
    eigenvalues_stebz<real_type_t<T>>(n, d, e, il, iu, w);     \
  }
MGBLAS_FOR_EACH_SCALAR(MGBLAS_HOST_STEBZ_)
#undef MGBLAS_HOST_STEBZ_

}  // namespace mgblas::kernels::host
