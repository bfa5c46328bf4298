// SPDX-License-Identifier: BSD-3-Clause
// Test matrices and the check of the tridiagonal eigenvalue tests (test_stebz.cpp,
// test_cuda_stebz.cpp, tests/dist/test_stebz_mgpu.cpp): symmetric tridiagonals given by
// d (n) and e (n - 1), LAPACKE ?sterf as the oracle, and the error bound.
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include <lapacke.h>

#include "core/types.hpp"
#include "tests/testing/testing.hpp"

namespace mgblas::testing {

/// d and e of one symmetric tridiagonal test matrix.
template <typename R>
struct Tridiagonal {
  std::vector<R> d, e;
  int64_t n() const { return static_cast<int64_t>(d.size()); }
};

/// The kinds of spectra the tests draw.
enum class Spectrum { Random, Wilkinson, Clustered, Graded };

inline const char* to_string(Spectrum s) {
  switch (s) {
    case Spectrum::Random: return "random";
    case Spectrum::Wilkinson: return "wilkinson";
    case Spectrum::Clustered: return "clustered";
    case Spectrum::Graded: return "graded";
  }
  return "?";
}

/// A test matrix of order n:
/// - Random: d, e uniform on [-1, 1];
/// - Wilkinson: W_n^+ (d_i = |(n-1)/2 - i|, e = 1), whose large eigenvalues come in
///   pairs closer than eps ||T|| for n >= 21;
/// - Clustered: d = 1, e uniform on [-1, 1] * 1e-3 sqrt(eps): every eigenvalue within
///   2e-3 sqrt(eps) of 1;
/// - Graded: d_i = u_i 10^(-k i / n), e_i = u'_i sqrt(|d_i d_{i+1}|), k = 12 (float) or
///   24 (double): magnitudes from 1 down to 10^-k.
template <typename R>
Tridiagonal<R> make_tridiagonal(Spectrum kind, int64_t n, std::mt19937_64& rng) {
  Tridiagonal<R> t;
  t.d.resize(static_cast<std::size_t>(n));
  t.e.resize(static_cast<std::size_t>(std::max<int64_t>(0, n - 1)));
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  const double eps = std::numeric_limits<R>::epsilon();
  for (int64_t i = 0; i < n; ++i) {
    switch (kind) {
      case Spectrum::Random: t.d[i] = static_cast<R>(u(rng)); break;
      case Spectrum::Wilkinson: t.d[i] = static_cast<R>(std::abs(0.5 * (n - 1) - i)); break;
      case Spectrum::Clustered: t.d[i] = R(1); break;
      case Spectrum::Graded: {
        const double k = sizeof(R) == 4 ? 12.0 : 24.0;
        t.d[i] = static_cast<R>(u(rng) * std::pow(10.0, -k * i / std::max<int64_t>(n, 1)));
        break;
      }
    }
  }
  for (int64_t i = 0; i + 1 < n; ++i) {
    switch (kind) {
      case Spectrum::Random: t.e[i] = static_cast<R>(u(rng)); break;
      case Spectrum::Wilkinson: t.e[i] = R(1); break;
      case Spectrum::Clustered: t.e[i] = static_cast<R>(u(rng) * 1e-3 * std::sqrt(eps)); break;
      case Spectrum::Graded:
        t.e[i] = static_cast<R>(u(rng) * std::sqrt(std::abs(double(t.d[i]) * t.d[i + 1])));
        break;
    }
  }
  return t;
}

/// All eigenvalues, ascending, by LAPACKE ?sterf (QL/QR iteration): the oracle.
template <typename R>
std::vector<R> sterf_eigenvalues(const Tridiagonal<R>& t) {
  std::vector<R> d = t.d, e = t.e;
  if (t.n() == 0) return d;
  e.resize(static_cast<std::size_t>(t.n()));  // room for LAPACK's scratch use at n = 1
  int info;
  if constexpr (std::is_same_v<R, float>)
    info = LAPACKE_ssterf(static_cast<lapack_int>(t.n()), d.data(), e.data());
  else
    info = LAPACKE_dsterf(static_cast<lapack_int>(t.n()), d.data(), e.data());
  EXPECT_EQ(info, 0) << "?sterf did not converge";
  return d;
}

//  +--------------------------------------------------------------------------+
//  |  err = max_i |w_i - w_ref_i| / (max(n, 1) * eps * s)                      |
//  |  s = max(norm_t, max_j |w_ref_j|), over the computed indices i in [il, iu);|
//  |  passes when err <= 10.                                                  |
//  |  Both methods are backward stable (each eigenvalue within a small         |
//  |  multiple of eps ||T||_2 of the exact one); n covers the growth of the    |
//  |  rounding in the n-step recurrences of either method. With the whole      |
//  |  spectrum in w_ref, max |w_ref| = ||T||_2; a reference that holds only a  |
//  |  subrange passes norm_t (tridiagonal_norm: ||T||_inf >= ||T||_2), since   |
//  |  the subrange's own largest value can be far below ||T|| (the middle of   |
//  |  a graded spectrum) while the accuracy is eps ||T||.                      |
//  +--------------------------------------------------------------------------+
template <typename R>
double eigenvalue_error(int64_t n, const std::vector<R>& w_ref, int64_t il, int64_t iu,
                        const R* w, double norm_t = 0) {
  double scale = norm_t, worst = 0;
  for (R v : w_ref) scale = std::max(scale, std::abs(double(v)));
  for (int64_t i = il; i < iu; ++i) {
    const double diff = std::abs(double(w[i - il]) - double(w_ref[i]));
    if (std::isnan(diff)) return std::numeric_limits<double>::infinity();
    worst = std::max(worst, diff);
  }
  const double denom = static_cast<double>(std::max<int64_t>(n, 1)) *
                       std::numeric_limits<R>::epsilon() * scale;
  return denom > 0 ? worst / denom : worst / std::numeric_limits<R>::epsilon();
}

/// ||T||_inf = max_i |e_{i-1}| + |d_i| + |e_i|, a bound on ||T||_2.
template <typename R>
double tridiagonal_norm(const Tridiagonal<R>& t) {
  double most = 0;
  for (int64_t i = 0; i < t.n(); ++i) {
    double row = std::abs(double(t.d[i]));
    if (i > 0) row += std::abs(double(t.e[i - 1]));
    if (i + 1 < t.n()) row += std::abs(double(t.e[i]));
    most = std::max(most, row);
  }
  return most;
}

inline constexpr double kEigenvalueTolerance = 10.0;

/// Whether w[0..count) is ascending (NaN fails).
template <typename R>
bool ascending(const R* w, int64_t count) {
  for (int64_t i = 0; i + 1 < count; ++i)
    if (!(w[i] <= w[i + 1])) return false;
  return true;
}

}  // namespace mgblas::testing
