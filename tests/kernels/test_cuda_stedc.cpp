// SPDX-License-Identifier: BSD-3-Clause
// Tridiagonal eigenpairs by the CUDA engine's divide and conquer (kernels/lapack.hpp
// tridiag_eigenvectors) against LAPACK: eigenvalues against ?sterf, residual
// ||T Z - Z diag(w)|| / (n eps ||T||) and orthogonality ||I - Z^T Z|| / (n eps) under
// LAPACK's tester threshold (30), on fresh random, Wilkinson, clustered, graded,
// glued-Wilkinson and split matrices, s/d/c/z, orders from 1 to 3000; bad arguments.
// Z's padding rows (ldz > n) must stay as they were.
#include <gtest/gtest.h>

#include <cblas.h>

#include <algorithm>
#include <cmath>
#include <complex>
#include <cstdint>
#include <limits>
#include <vector>

#include "kernels/lapack.hpp"
#include "tests/kernels/cuda_test_helpers.hpp"
#include "tests/kernels/stebz_test_helpers.hpp"

namespace mgblas::testing {
namespace {

constexpr double kThreshold = 30.0;

// Wilkinson W+ of order 21 glued 8 times by off-diagonal entries of 1e-9 (LAPACK's
// glued test matrices): clusters of 8 eigenvalues within 1e-9 of each other.
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

template <Scalar T>
void check_eigenpairs(const Tridiagonal<real_type_t<T>>& t, const char* kind) {
  using R = real_type_t<T>;
  const int64_t n = t.n(), ldz = n + 3;
  SCOPED_TRACE(detail::concat(kind, " n=", n, ", ", seed_text()));
  const T poison = T(static_cast<R>(-7.25));
  std::vector<T> z0(static_cast<std::size_t>(std::max<int64_t>(ldz * n, 1)), poison);
  DeviceBuffer<T> dz = upload(z0);
  std::vector<R> w(static_cast<std::size_t>(n));
  tridiag_eigenvectors<T>(gpu(), n, t.d.data(), t.e.data(), w.data(), dz.data(), ldz);
  const std::vector<T> z = download(dz);
  if (n == 0) return;
  expect_untouched_outside(z0, z, [&](int64_t p) { return p % ldz < n; }, "Z");
  EXPECT_LE(eigenvalue_error(n, sterf_eigenvalues(t), 0, n, w.data()), kEigenvalueTolerance)
      << "eigenvalues vs ?sterf";
  EXPECT_TRUE(ascending(w.data(), n));

  // Z as a real n x n matrix in double (the imaginary parts must be zero).
  std::vector<double> Z(static_cast<std::size_t>(n * n));
  double imag = 0;
  for (int64_t j = 0; j < n; ++j)
    for (int64_t i = 0; i < n; ++i) {
      const T v = z[i + j * ldz];
      Z[i + j * n] = static_cast<double>(std::real(v));
      imag = std::max(imag, static_cast<double>(std::abs(std::imag(v))));
    }
  EXPECT_EQ(imag, 0.0) << "a complex T's vectors are real";
  const double eps = std::numeric_limits<R>::epsilon();
  const double normT = std::max(tridiagonal_norm(t), std::numeric_limits<double>::min());
  double res = 0;
  for (int64_t j = 0; j < n; ++j)
    for (int64_t i = 0; i < n; ++i) {
      double tz = double(t.d[i]) * Z[i + j * n];
      if (i > 0) tz += double(t.e[i - 1]) * Z[i - 1 + j * n];
      if (i + 1 < n) tz += double(t.e[i]) * Z[i + 1 + j * n];
      res = std::max(res, std::abs(tz - double(w[j]) * Z[i + j * n]));
    }
  std::vector<double> G(static_cast<std::size_t>(n * n));
  cblas_dgemm(CblasColMajor, CblasTrans, CblasNoTrans, static_cast<int>(n), static_cast<int>(n),
              static_cast<int>(n), 1.0, Z.data(), static_cast<int>(n), Z.data(),
              static_cast<int>(n), 0.0, G.data(), static_cast<int>(n));
  double orth = 0;
  for (int64_t j = 0; j < n; ++j)
    for (int64_t i = 0; i < n; ++i)
      orth = std::max(orth, std::abs(G[i + j * n] - (i == j ? 1.0 : 0.0)));
  EXPECT_LE(res / (n * eps * normT), kThreshold) << "residual";
  EXPECT_LE(orth / (n * eps), kThreshold) << "orthogonality";
}

template <typename T>
class Stedc_Cuda : public ::testing::Test {};
TYPED_TEST_SUITE(Stedc_Cuda, TestScalars, PrecisionName);

TYPED_TEST(Stedc_Cuda, EverySpectrum) {
  using R = real_type_t<TypeParam>;
  auto rng = make_rng();
  for (Spectrum kind : {Spectrum::Random, Spectrum::Wilkinson, Spectrum::Clustered, Spectrum::Graded})
    for (int64_t n : {0, 1, 2, 3, 17, 64, 101, 333, 1000})
      check_eigenpairs<TypeParam>(make_tridiagonal<R>(kind, n, rng), to_string(kind));
}

TYPED_TEST(Stedc_Cuda, GluedAndSplit) {
  using R = real_type_t<TypeParam>;
  auto rng = make_rng();
  check_eigenpairs<TypeParam>(glued_wilkinson<R>(8), "glued wilkinson");
  // Zero off-diagonal entries (T is block diagonal), and T = 0.
  auto t = make_tridiagonal<R>(Spectrum::Random, 300, rng);
  for (std::size_t i = 0; i < t.e.size(); i += 7) t.e[i] = R(0);
  check_eigenpairs<TypeParam>(t, "split");
  Tridiagonal<R> zero;
  zero.d.assign(50, R(0));
  zero.e.assign(49, R(0));
  check_eigenpairs<TypeParam>(zero, "zero");
}

TYPED_TEST(Stedc_Cuda, Large) {
  using R = real_type_t<TypeParam>;
  auto rng = make_rng();
  check_eigenpairs<TypeParam>(make_tridiagonal<R>(Spectrum::Random, 3000, rng), "random");
}

TYPED_TEST(Stedc_Cuda, BadArguments) {
  using R = real_type_t<TypeParam>;
  std::vector<R> d(4, R(1)), e(3, R(0.5)), w(4);
  DeviceBuffer<TypeParam> dz = upload(std::vector<TypeParam>(16));
  EXPECT_THROW(tridiag_eigenvectors<TypeParam>(gpu(), -1, d.data(), e.data(), w.data(), dz.data(), 4),
               BadArgument);
  EXPECT_THROW(tridiag_eigenvectors<TypeParam>(gpu(), 4, d.data(), e.data(), w.data(), dz.data(), 3),
               BadArgument);
  EXPECT_THROW(tridiag_eigenvectors<TypeParam>(gpu(), 4, nullptr, e.data(), w.data(), dz.data(), 4),
               BadArgument);
  e[1] = std::numeric_limits<R>::quiet_NaN();
  EXPECT_THROW(tridiag_eigenvectors<TypeParam>(gpu(), 4, d.data(), e.data(), w.data(), dz.data(), 4),
               BadArgument);
}

}  // namespace
}  // namespace mgblas::testing
