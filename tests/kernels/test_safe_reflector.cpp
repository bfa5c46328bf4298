// SPDX-License-Identifier: BSD-3-Clause
// The reflector arithmetic shared by the host and CUDA engines of the panel steps
// (kernels/detail/safe_reflector.hpp): the three-sum norm and beta, tau, 1 / (alpha -
// beta) on vectors scaled from the largest finite value down to the smallest normal,
// against the same quantities in long double formed from the unscaled vector (the
// reflector's tau and v = x / (alpha - beta) do not depend on the scale).
#include <gtest/gtest.h>

#include <cmath>
#include <complex>
#include <cstdint>
#include <limits>
#include <random>
#include <vector>

#include "kernels/detail/safe_reflector.hpp"

namespace {

using mgblas::kernels::detail::reflector_scalars;
using mgblas::kernels::detail::ScaledNorm;
using mgblas::kernels::detail::SumSquares;

template <typename R>
long double as_ld(ScaledNorm<R> n) {
  return std::ldexp(static_cast<long double>(n.unit), n.exp2);
}

template <typename R>
class SafeReflector : public ::testing::Test {};
using Reals = ::testing::Types<float, double>;
TYPED_TEST_SUITE(SafeReflector, Reals);

// x = s * u (u uniform on [-1, 1], alpha complex) for s over the whole exponent range:
// the norm to a few ulps, tau and the scale of v to a few ulps relative to 1 / |beta|.
TYPED_TEST(SafeReflector, ScaledVectors) {
  using R = TypeParam;
  using L = std::numeric_limits<R>;
  std::mt19937_64 rng(7);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  const int n = 100;
  std::vector<double> base(n);
  for (double& v : base) v = u(rng);
  const double ar0 = 0.3, ai0 = -0.2;
  const R eps = L::epsilon();
  // The largest scale keeps ||(alpha, x)|| below the largest finite value; the smallest
  // keeps every entry normal.
  for (int e = L::min_exponent + 1; e <= L::max_exponent - 5; e += 7) {
    SumSquares<R> s = SumSquares<R>::zero();
    long double ref2 = 0;
    for (double b : base) {
      const R x = static_cast<R>(std::ldexp(std::fabs(b) < 1e-3 ? 1e-3 : b, e));
      s.add(x, R(0));
      ref2 += static_cast<long double>(std::ldexp(static_cast<long double>(x), -e)) *
              std::ldexp(static_cast<long double>(x), -e);
    }
    const long double ref = std::ldexp(std::sqrt(ref2), e);
    const ScaledNorm<R> nrm = s.norm();
    EXPECT_LE(std::fabs(as_ld(nrm) - ref), 4 * eps * ref) << "2^" << e;

    const R ar = static_cast<R>(std::ldexp(ar0, e)), ai = static_cast<R>(std::ldexp(ai0, e));
    R beta, tr, ti, sr, si;
    reflector_scalars<R>(ar, ai, nrm, beta, tr, ti, sr, si);
    // In long double, unscaled: (ar0, ai0) and ||x|| / 2^e.
    const long double xn = std::sqrt(ref2);
    const long double a = std::ldexp(static_cast<long double>(ar), -e),
                      b = std::ldexp(static_cast<long double>(ai), -e);
    const long double bu = -std::copysign(std::sqrt(a * a + b * b + xn * xn), a);
    const std::complex<long double> z(a - bu, b), inv = 1.0L / z;
    EXPECT_TRUE(std::isfinite(beta) && std::isfinite(tr) && std::isfinite(sr) && std::isfinite(si))
        << "2^" << e;
    EXPECT_LE(std::fabs(std::ldexp(static_cast<long double>(beta), -e) - bu), 4 * eps * std::fabs(bu))
        << "2^" << e;
    EXPECT_LE(std::fabs(tr - (bu - a) / bu), 4 * eps) << "2^" << e;
    EXPECT_LE(std::fabs(ti - (-b / bu)), 4 * eps) << "2^" << e;
    // The scale times 2^e is 1 / (alpha - beta) of the unscaled vector.
    const long double scr = std::ldexp(static_cast<long double>(sr), e),
                      sci = std::ldexp(static_cast<long double>(si), e);
    EXPECT_LE(std::abs(std::complex<long double>(scr, sci) - inv), 8 * eps * std::abs(inv))
        << "2^" << e;
  }
}

// One huge entry with many tiny ones, entries at the largest finite value, at the smallest
// normal, zero vectors, NaN and Inf.
TYPED_TEST(SafeReflector, Extremes) {
  using R = TypeParam;
  using L = std::numeric_limits<R>;
  const R eps = L::epsilon();
  {  // mixed: the tiny entries vanish below the rounding of the huge one
    SumSquares<R> s = SumSquares<R>::zero();
    s.add(L::max() / 4);
    for (int i = 0; i < 50; ++i) s.add(L::min() * 3);
    EXPECT_LE(std::fabs(as_ld(s.norm()) - static_cast<long double>(L::max() / 4)),
              2 * eps * static_cast<long double>(L::max() / 4));
  }
  {  // entries at the largest finite value: the norm is sqrt(3) x max (beyond R, kept apart)
    SumSquares<R> s = SumSquares<R>::zero();
    for (int i = 0; i < 3; ++i) s.add(L::max());
    const long double want = std::sqrt(3.0L) * static_cast<long double>(L::max());
    EXPECT_LE(std::fabs(as_ld(s.norm()) - want), 4 * eps * want);
    // with alpha = 0 beta overflows (as in LAPACK) but tau is exact: 1.
    R beta, tr, ti, sr, si;
    reflector_scalars<R>(R(1), R(0), ScaledNorm<R>{L::max() / 8, 0}, beta, tr, ti, sr, si);
    EXPECT_NEAR(tr, 1, 4 * eps);
    EXPECT_TRUE(std::isfinite(beta));
  }
  {  // entries at the smallest normal, medium and small together
    SumSquares<R> s = SumSquares<R>::zero();
    for (int i = 0; i < 4; ++i) s.add(L::min());
    const long double want = 2.0L * static_cast<long double>(L::min());
    EXPECT_LE(std::fabs(as_ld(s.norm()) - want), 4 * eps * want);
    R beta, tr, ti, sr, si;
    reflector_scalars<R>(L::min(), R(0), s.norm(), beta, tr, ti, sr, si);
    // beta = -sqrt(5) min, tau = (beta - alpha) / beta = 1 + 1 / sqrt(5).
    EXPECT_NEAR(tr, 1 + 1 / std::sqrt(5.0), 4 * eps);
    EXPECT_TRUE(std::isfinite(sr) && sr != 0);
    s.add(R(1));
    EXPECT_LE(std::fabs(as_ld(s.norm()) - 1.0L), 2 * eps);
  }
  {  // x = 0, alpha real: H = I
    R beta, tr, ti, sr, si;
    reflector_scalars<R>(R(-3), R(0), SumSquares<R>::zero().norm(), beta, tr, ti, sr, si);
    EXPECT_EQ(beta, R(-3));
    EXPECT_EQ(tr, R(0));
    EXPECT_EQ(ti, R(0));
    EXPECT_EQ(sr, R(1));
  }
  {  // NaN and Inf reach beta and tau
    for (R bad : {L::quiet_NaN(), L::infinity()}) {
      SumSquares<R> s = SumSquares<R>::zero();
      s.add(R(1));
      s.add(bad);
      R beta, tr, ti, sr, si;
      reflector_scalars<R>(R(1), R(0), s.norm(), beta, tr, ti, sr, si);
      EXPECT_FALSE(std::isfinite(beta) && std::isfinite(tr)) << bad;
    }
  }
}

}  // namespace
