// SPDX-License-Identifier: BSD-3-Clause
// The check of tridiagonal eigenpairs shared by test_stedc (host engine) and
// test_cuda_stedc (CUDA engine): kernels/lapack.hpp tridiag_eigenvectors on one device,
// eigenvalues against ?sterf, residual ||T Z - Z diag(w)|| / (n eps ||T||) and
// orthogonality ||I - Z^T Z|| / (n eps) under LAPACK's tester threshold (30), Z's
// padding rows and the columns past the window untouched.
#pragma once

#include <gtest/gtest.h>

#include <cblas.h>

#include <algorithm>
#include <cmath>
#include <complex>
#include <cstdint>
#include <limits>
#include <vector>

#include "core/error.hpp"
#include "core/memory.hpp"
#include "kernels/lapack.hpp"
#include "tests/kernels/host_test_helpers.hpp"
#include "tests/kernels/stebz_test_helpers.hpp"

namespace mgblas::testing {

inline constexpr double kEigenpairThreshold = 30.0;

/// Wilkinson W+ of order 21 glued `blocks` times by off-diagonal entries of 1e-9 (as in
/// LAPACK's glued test matrices): clusters of `blocks` eigenvalues within about 1e-9.
template <typename R>
Tridiagonal<R> glued_wilkinson(int64_t blocks) {
  Tridiagonal<R> t;
  const int64_t b = 21, n = b * blocks;
  t.d.resize(static_cast<std::size_t>(n));
  t.e.assign(static_cast<std::size_t>(n - 1), R(1));
  for (int64_t i = 0; i < n; ++i) t.d[i] = static_cast<R>(std::abs(10 - i % b));
  for (int64_t g = 1; g < blocks; ++g) t.e[g * b - 1] = static_cast<R>(1e-9);
  return t;
}

/// Runs tridiag_eigenvectors on dev for the window [il, iu) (all when iu < 0) and checks
/// it. Z has two padding rows and one column past the window, both poisoned.
template <Scalar T>
void check_eigenpairs(const Device& dev, const Tridiagonal<real_type_t<T>>& t, const char* kind,
                      int64_t il = 0, int64_t iu = -1) {
  using R = real_type_t<T>;
  const int64_t n = t.n();
  if (iu < 0) iu = n;
  const int64_t cnt = iu - il, ldz = n + 2, cols = cnt + 1;
  SCOPED_TRACE(detail::concat(kind, " n=", n, " window [", il, ", ", iu, "), ", seed_text()));
  const std::vector<T> z0(static_cast<std::size_t>(ldz * cols), T(static_cast<R>(-7.25)));
  DeviceBuffer<T> dz(dev, z0.size());
  copy_vector(dev, static_cast<int64_t>(z0.size()), z0.data(), dz.data());
  std::vector<R> w(static_cast<std::size_t>(n));
  tridiag_eigenvectors<T>(dev, n, t.d.data(), t.e.data(), il, iu, w.data(), dz.data(), ldz);
  std::vector<T> z(z0.size());
  copy_vector(dev, static_cast<int64_t>(z.size()), dz.data(), z.data());
  expect_untouched_outside(z0, z, [&](int64_t p) { return p % ldz < n && p / ldz < cnt; }, "Z");
  if (n == 0) return;
  EXPECT_LE(eigenvalue_error(n, sterf_eigenvalues(t), 0, n, w.data()), kEigenvalueTolerance)
      << "eigenvalues vs ?sterf";
  EXPECT_TRUE(ascending(w.data(), n));
  if (cnt == 0) return;

  // The window as a real n x cnt matrix in double (imaginary parts must be zero).
  std::vector<double> Z(static_cast<std::size_t>(n * cnt));
  double imag = 0;
  for (int64_t j = 0; j < cnt; ++j)
    for (int64_t i = 0; i < n; ++i) {
      const T v = z[i + j * ldz];
      Z[i + j * n] = static_cast<double>(std::real(v));
      imag = std::max(imag, static_cast<double>(std::abs(std::imag(v))));
    }
  EXPECT_EQ(imag, 0.0) << "a complex T's vectors are real";
  const double eps = std::numeric_limits<R>::epsilon();
  const double normT = std::max(tridiagonal_norm(t), std::numeric_limits<double>::min());
  double res = 0;
  for (int64_t j = 0; j < cnt; ++j)
    for (int64_t i = 0; i < n; ++i) {
      double tz = double(t.d[i]) * Z[i + j * n];
      if (i > 0) tz += double(t.e[i - 1]) * Z[i - 1 + j * n];
      if (i + 1 < n) tz += double(t.e[i]) * Z[i + 1 + j * n];
      res = std::max(res, std::abs(tz - double(w[il + j]) * Z[i + j * n]));
    }
  std::vector<double> G(static_cast<std::size_t>(cnt * cnt));
  cblas_dgemm(CblasColMajor, CblasTrans, CblasNoTrans, static_cast<int>(cnt),
              static_cast<int>(cnt), static_cast<int>(n), 1.0, Z.data(), static_cast<int>(n),
              Z.data(), static_cast<int>(n), 0.0, G.data(), static_cast<int>(cnt));
  double orth = 0;
  for (int64_t j = 0; j < cnt; ++j)
    for (int64_t i = 0; i < cnt; ++i)
      orth = std::max(orth, std::abs(G[i + j * cnt] - (i == j ? 1.0 : 0.0)));
  EXPECT_LE(res / (n * eps * normT), kEigenpairThreshold) << "residual";
  EXPECT_LE(orth / (n * eps), kEigenpairThreshold) << "orthogonality";
}

/// The spectra and windows both engines' tests run: n from 0 to 1000, all four kinds of
/// make_tridiagonal, glued Wilkinson, zero off-diagonal entries, T = 0, windows at the
/// ends, in the middle and empty.
template <Scalar T>
void check_every_spectrum(const Device& dev) {
  using R = real_type_t<T>;
  auto rng = make_rng();
  for (Spectrum kind : {Spectrum::Random, Spectrum::Wilkinson, Spectrum::Clustered, Spectrum::Graded})
    for (int64_t n : {0, 1, 2, 3, 17, 64, 101, 333, 1000})
      check_eigenpairs<T>(dev, make_tridiagonal<R>(kind, n, rng), to_string(kind));
  check_eigenpairs<T>(dev, glued_wilkinson<R>(8), "glued wilkinson");
  auto split = make_tridiagonal<R>(Spectrum::Random, 300, rng);
  for (std::size_t i = 0; i < split.e.size(); i += 7) split.e[i] = R(0);
  check_eigenpairs<T>(dev, split, "split");
  Tridiagonal<R> zero;
  zero.d.assign(50, R(0));
  zero.e.assign(49, R(0));
  check_eigenpairs<T>(dev, zero, "zero");
  check_eigenpairs<T>(dev, zero, "zero", 10, 20);
  const auto t = make_tridiagonal<R>(Spectrum::Random, 257, rng);
  for (auto [il, iu] : {std::pair<int64_t, int64_t>{0, 1}, {0, 26}, {100, 140}, {256, 257}, {7, 7}})
    check_eigenpairs<T>(dev, t, "random", il, iu);
  check_eigenpairs<T>(dev, glued_wilkinson<R>(6), "glued wilkinson", 40, 90);
}

/// Bad arguments: BadArgument naming each, before anything is written.
template <Scalar T>
void check_bad_arguments(const Device& dev) {
  using R = real_type_t<T>;
  std::vector<R> d(4, R(1)), e(3, R(0.5)), w(4);
  DeviceBuffer<T> dz(dev, 16);
  const auto call = [&](int64_t n, const R* dd, int64_t il, int64_t iu, int64_t ldz) {
    tridiag_eigenvectors<T>(dev, n, dd, e.data(), il, iu, w.data(), dz.data(), ldz);
  };
  EXPECT_THROW(call(-1, d.data(), 0, 0, 4), BadArgument);
  EXPECT_THROW(call(4, d.data(), 0, 4, 3), BadArgument);   // ldz < n
  EXPECT_THROW(call(4, nullptr, 0, 4, 4), BadArgument);    // d
  EXPECT_THROW(call(4, d.data(), 3, 2, 4), BadArgument);   // iu < il
  EXPECT_THROW(call(4, d.data(), 0, 5, 4), BadArgument);   // iu > n
  EXPECT_THROW(call(4, d.data(), -1, 2, 4), BadArgument);  // il < 0
  e[1] = std::numeric_limits<R>::quiet_NaN();
  EXPECT_THROW(call(4, d.data(), 0, 4, 4), BadArgument);   // NaN in e
}

}  // namespace mgblas::testing
