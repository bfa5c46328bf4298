// SPDX-License-Identifier: BSD-3-Clause
// The scale of a whole matrix before a reduction whose per-column products are not
// scaled (private, host-and-device code): LAPACK's drivers (?gesvd, ?gesdd, ?syev)
// scale A when its largest entry lies outside [smlnum, bignum], smlnum = sqrt(safmin) /
// eps and bignum = 1 / smlnum, so that squares and products of entries neither overflow
// nor underflow; here the scale is the power of two that brings the largest entry into
// [1, 2), so scaling (and scaling back) is exact for every entry that stays normal.
#pragma once

#include <limits>

#include "kernels/detail/safe_reflector.hpp"  // the math of float and double on both sides

namespace mgblas::kernels::detail {

/// factor[0] = 2^-e and factor[1] = 2^e, e the binary exponent of amax (the largest
/// magnitude of a matrix's entries), when amax lies outside LAPACK's drivers' range;
/// both 1 when amax is inside it, zero, infinite or NaN (a non-finite entry then passes
/// through unscaled, as documented for the reductions). |e| is kept 8 short of the
/// largest exponent, so both factors are finite; a matrix of subnormal entries is
/// scaled up by that much, which brings it well above smlnum.
template <typename R>
MGBLAS_REFL_HD_ void range_scale_factors(R amax, R* factor) {
  using L = std::numeric_limits<R>;
  const R smlnum = refl_sqrt(L::min()) / L::epsilon(), bignum = R(1) / smlnum;
  factor[0] = factor[1] = R(1);
  if (!(amax > R(0)) || !(amax < L::infinity()) || (amax >= smlnum && amax <= bignum)) return;
  const int limit = L::max_exponent - 8;
  int e = refl_ilogb(amax);
  e = e > limit ? limit : (e < -limit ? -limit : e);
  factor[0] = refl_ldexp(R(1), -e);
  factor[1] = refl_ldexp(R(1), e);
}

}  // namespace mgblas::kernels::detail
