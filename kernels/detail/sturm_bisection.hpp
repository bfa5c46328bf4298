// SPDX-License-Identifier: BSD-3-Clause
// Bisection with Sturm counts on a symmetric tridiagonal matrix (private, not installed):
// the arithmetic of the CUDA engine's tridiag_eigenvalues (kernels/stebz_kernels.hpp):
// starting interval, counts and tolerance. The CUDA engine splits each interval at
// several points a round; sturm_bisect is the one-point form of that search, the rule it
// follows written out (the host engine calls LAPACK's ?stebz). Host-and-device code;
// `Load` reads element i of an array (the CUDA engine reads through the read-only cache).
#pragma once

#include <cstdint>
#include <limits>

#if defined(__CUDACC__)
#define MGBLAS_STURM_HD_ __host__ __device__
#else
#define MGBLAS_STURM_HD_
#endif

namespace mgblas::kernels::detail {

/// Plain loads, for memory the calling code reads directly.
struct PlainLoad {
  template <typename R>
  MGBLAS_STURM_HD_ R operator()(const R* p, int64_t i) const {
    return p[i];
  }
};

template <typename R>
MGBLAS_STURM_HD_ inline R sturm_abs(R x) {
  return x < R(0) ? -x : x;
}
template <typename R>
MGBLAS_STURM_HD_ inline R sturm_max(R a, R b) {
  return a < b ? b : a;
}
template <typename R>
MGBLAS_STURM_HD_ inline R sturm_min(R a, R b) {
  return b < a ? b : a;
}

/// An interval holding every eigenvalue, and the smallest pivot magnitude the counts allow.
template <typename R>
struct SturmBounds {
  R lo, hi, pivmin;
};

/// Gershgorin's interval of T (n >= 1), widened by what the rounding of the counts and the
/// pivot guard may move an eigenvalue, so that count(lo) = 0 and count(hi) = n.
/// pivmin = safe_min * max(1, max e^2): a pivot of that size makes e^2 / pivot at most
/// 1 / safe_min, which does not overflow.
template <typename R, typename Load>
MGBLAS_STURM_HD_ SturmBounds<R> sturm_bounds(int64_t n, const R* d, const R* e, Load load) {
  R lo = load(d, 0), hi = lo, e2max = 0, prev = 0;  // prev = |e[i-1]|
  for (int64_t i = 0; i < n; ++i) {
    const R next = i + 1 < n ? sturm_abs(load(e, i)) : R(0);
    const R di = load(d, i);
    lo = sturm_min(lo, di - (prev + next));
    hi = sturm_max(hi, di + (prev + next));
    e2max = sturm_max(e2max, next * next);
    prev = next;
  }
  const R pivmin = std::numeric_limits<R>::min() * sturm_max(R(1), e2max);
  const R norm = sturm_max(sturm_abs(lo), sturm_abs(hi));
  const R pad = R(2) * (norm * std::numeric_limits<R>::epsilon() * static_cast<R>(n) + pivmin);
  return {lo - pad, hi + pad, pivmin};
}

/// Number of eigenvalues of T below x: the negative pivots of the LDL^T factorization of
/// T - x I. A pivot smaller than pivmin in magnitude becomes -pivmin (it counts as negative
/// and keeps e^2 / q finite), which moves x by at most pivmin.
template <typename R, typename Load>
MGBLAS_STURM_HD_ int64_t sturm_count(int64_t n, const R* d, const R* e, R x, R pivmin,
                                     Load load) {
  R q = load(d, 0) - x;
  if (sturm_abs(q) < pivmin) q = -pivmin;
  int64_t count = q < R(0);
  for (int64_t i = 1; i < n; ++i) {
    const R ei = load(e, i - 1);
    // (d - x) first: Kahan's ordering, whose counts are monotone in x under IEEE rounding.
    q = (load(d, i) - x) - ei * ei / q;
    if (sturm_abs(q) < pivmin) q = -pivmin;
    count += q < R(0);
  }
  return count;
}

/// Halvings that take any finite interval below the smallest positive subnormal: a bound
/// that also ends the loop on NaN or infinite input.
template <typename R>
inline constexpr int kSturmMaxSteps = std::numeric_limits<R>::max_exponent -
                                      std::numeric_limits<R>::min_exponent +
                                      std::numeric_limits<R>::digits + 8;

/// lambda_i (0 <= i < n) by bisection of b's interval. Invariant: count(lo) <= i < count(hi).
/// Stops when hi - lo <= 2 eps max(|lo|, |hi|) + pivmin (relative, and absolute near zero)
/// or when no floating-point number lies between lo and hi; returns the midpoint.
/// Indices bisected from the same interval come out ordered: where a cluster's members
/// part, the smaller index keeps the left half.
template <typename R, typename Load>
MGBLAS_STURM_HD_ R sturm_bisect(int64_t n, const R* d, const R* e, int64_t i,
                                const SturmBounds<R>& b, Load load) {
  constexpr R kEps = std::numeric_limits<R>::epsilon();
  R lo = b.lo, hi = b.hi;
  for (int step = 0; step < kSturmMaxSteps<R>; ++step) {
    const R tol = R(2) * kEps * sturm_max(sturm_abs(lo), sturm_abs(hi)) + b.pivmin;
    if (!(hi - lo > tol)) break;
    // Halves before the sum: no overflow for intervals near the largest numbers.
    const R mid = R(0.5) * lo + R(0.5) * hi;
    if (!(mid > lo && mid < hi)) break;
    if (sturm_count(n, d, e, mid, b.pivmin, load) <= i)
      lo = mid;
    else
      hi = mid;
  }
  return R(0.5) * lo + R(0.5) * hi;
}

}  // namespace mgblas::kernels::detail

#undef MGBLAS_STURM_HD_
