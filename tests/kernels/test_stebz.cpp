// SPDX-License-Identifier: BSD-3-Clause
// Tridiagonal eigenvalues (kernels/lapack.hpp tridiag_eigenvalues; LAPACK ?stebz) on the
// host engine: against LAPACKE ?sterf on fresh random, clustered (Wilkinson W+, equal
// diagonal with tiny off-diagonal) and graded matrices, all indices and subranges; hand-
// checkable spectra; bad arguments. Output poisoned with NaN beyond the written range.
#include <gtest/gtest.h>

#include <cmath>
#include <memory>
#include <numbers>
#include <string>
#include <utility>
#include <vector>

#include "core/device.hpp"
#include "core/error.hpp"
#include "kernels/lapack.hpp"
#include "tests/kernels/host_test_helpers.hpp"
#include "tests/kernels/stebz_test_helpers.hpp"

namespace mgblas::testing {
namespace {

const Device& host_device() {
  static const std::unique_ptr<Device> dev = Device::make_host(0);
  return *dev;
}

constexpr int64_t kSizes[] = {0, 1, 2, 31, 32, 33, 200, 1000, 2131};

// Runs indices [il, iu) of t on the host engine and checks them against ?sterf: the
// error bound, ascending order, and the NaN poison past the output left alone.
template <Scalar T>
void check_range(const Tridiagonal<real_type_t<T>>& t, Spectrum kind, int64_t il, int64_t iu) {
  using R = real_type_t<T>;
  const int64_t n = t.n();
  SCOPED_TRACE(detail::concat(to_string(kind), " n=", n, " [il, iu) = [", il, ", ", iu, "), ",
                              seed_text()));
  const std::vector<R> w_ref = sterf_eigenvalues(t);
  const int64_t count = iu - il;
  constexpr int64_t kPad = 3;
  std::vector<R> w(static_cast<std::size_t>(count + kPad), nan_value<R>());
  const std::vector<R> w0 = w;
  tridiag_eigenvalues<T>(host_device(), n, t.d.data(), t.e.data(), il, iu, w.data());
  if (n > 0) {
    ASSERT_GT(norm_vec(n, w_ref.data()), 0.0) << "zero spectrum: the check would pass vacuously";
  }
  EXPECT_LE(eigenvalue_error(n, w_ref, il, iu, w.data()), kEigenvalueTolerance);
  EXPECT_TRUE(ascending(w.data(), count));
  expect_untouched_outside(w0, w, [&](int64_t p) { return p < count; }, "w");
}

template <typename T>
class Stebz_Host : public ::testing::Test {};
TYPED_TEST_SUITE(Stebz_Host, TestScalars, PrecisionName);

TYPED_TEST(Stebz_Host, RandomAllIndices) {
  using R = real_type_t<TypeParam>;
  auto rng = make_rng();
  for (int64_t n : kSizes) {
    const auto t = make_tridiagonal<R>(Spectrum::Random, n, rng);
    check_range<TypeParam>(t, Spectrum::Random, 0, n);
  }
}

TYPED_TEST(Stebz_Host, RandomSubranges) {
  using R = real_type_t<TypeParam>;
  auto rng = make_rng();
  for (int64_t n : kSizes) {
    const auto t = make_tridiagonal<R>(Spectrum::Random, n, rng);
    const std::pair<int64_t, int64_t> ranges[] = {
        {0, std::min<int64_t>(n, 1)}, {n / 3, 2 * n / 3}, {std::max<int64_t>(n - 1, 0), n},
        {n / 2, n / 2},  // empty: nothing written
        {n > 5 ? 5 : 0, n}};
    for (auto [il, iu] : ranges) check_range<TypeParam>(t, Spectrum::Random, il, iu);
  }
}

TYPED_TEST(Stebz_Host, Clustered) {
  using R = real_type_t<TypeParam>;
  auto rng = make_rng();
  for (int64_t n : {int64_t{21}, int64_t{41}, int64_t{201}}) {
    const auto w = make_tridiagonal<R>(Spectrum::Wilkinson, n, rng);
    check_range<TypeParam>(w, Spectrum::Wilkinson, 0, n);
    // The upper half of W+ holds its close pairs.
    check_range<TypeParam>(w, Spectrum::Wilkinson, n / 2, n);
  }
  for (int64_t n : {int64_t{2}, int64_t{33}, int64_t{1000}}) {
    const auto c = make_tridiagonal<R>(Spectrum::Clustered, n, rng);
    check_range<TypeParam>(c, Spectrum::Clustered, 0, n);
    check_range<TypeParam>(c, Spectrum::Clustered, n / 4, n / 2 + 1);
  }
}

TYPED_TEST(Stebz_Host, Graded) {
  using R = real_type_t<TypeParam>;
  auto rng = make_rng();
  for (int64_t n : {int64_t{32}, int64_t{200}, int64_t{1000}}) {
    const auto g = make_tridiagonal<R>(Spectrum::Graded, n, rng);
    check_range<TypeParam>(g, Spectrum::Graded, 0, n);
    check_range<TypeParam>(g, Spectrum::Graded, 0, n / 10);  // the lowest tenth
  }
}

// The 1-2-1 matrix (d = 2, e = -1) of order n: lambda_k = 2 - 2 cos((k + 1) pi / (n + 1)),
// and n = 1, 2 by hand.
TYPED_TEST(Stebz_Host, HandChecked) {
  using R = real_type_t<TypeParam>;
  const double eps = std::numeric_limits<R>::epsilon();
  {
    const R d[] = {R(-3.5)};
    R w = nan_value<R>();
    tridiag_eigenvalues<TypeParam>(host_device(), 1, d, nullptr, 0, 1, &w);
    EXPECT_NEAR(double(w), -3.5, 4 * eps * 3.5);
  }
  {
    // [[2, 1], [1, 2]]: 1 and 3.
    const R d[] = {R(2), R(2)}, e[] = {R(1)};
    R w[2] = {nan_value<R>(), nan_value<R>()};
    tridiag_eigenvalues<TypeParam>(host_device(), 2, d, e, 0, 2, w);
    EXPECT_NEAR(double(w[0]), 1.0, 8 * eps);
    EXPECT_NEAR(double(w[1]), 3.0, 8 * eps);
  }
  for (int64_t n : {int64_t{5}, int64_t{64}}) {
    const std::vector<R> d(n, R(2)), e(n - 1, R(-1));
    std::vector<R> w(n, nan_value<R>());
    tridiag_eigenvalues<TypeParam>(host_device(), n, d.data(), e.data(), 0, n, w.data());
    for (int64_t k = 0; k < n; ++k) {
      const double exact = 2.0 - 2.0 * std::cos((k + 1) * std::numbers::pi / (n + 1));
      EXPECT_NEAR(double(w[k]), exact, 4.0 * n * eps * 4.0) << "n=" << n << " k=" << k;
    }
  }
}

// ---- bad arguments -------------------------------------------------------------------

// The BadArgument message names the argument: "argument 'name' ...".
template <typename F>
void expect_bad_argument(const char* name, F&& f) {
  try {
    f();
    ADD_FAILURE() << "no BadArgument for '" << name << "'";
  } catch (const BadArgument& err) {
    EXPECT_NE(std::string(err.what()).find(std::string("'") + name + "'"), std::string::npos)
        << err.what();
  }
}

TEST(Stebz_HostArgs, BadArgumentsNameTheArgument) {
  const std::vector<double> d(10, 1.0), e(9, 0.5);
  std::vector<double> w(10);
  const Device& dev = host_device();
  auto call = [&](int64_t n, const double* dp, const double* ep, int64_t il, int64_t iu,
                  double* wp) { tridiag_eigenvalues<double>(dev, n, dp, ep, il, iu, wp); };
  expect_bad_argument("n", [&] { call(-1, d.data(), e.data(), 0, 0, w.data()); });
  expect_bad_argument("il", [&] { call(10, d.data(), e.data(), -1, 5, w.data()); });
  expect_bad_argument("il", [&] { call(10, d.data(), e.data(), 11, 11, w.data()); });
  expect_bad_argument("iu", [&] { call(10, d.data(), e.data(), 0, 11, w.data()); });
  expect_bad_argument("iu", [&] { call(10, d.data(), e.data(), 6, 5, w.data()); });
  expect_bad_argument("d", [&] { call(10, nullptr, e.data(), 0, 10, w.data()); });
  expect_bad_argument("e", [&] { call(10, d.data(), nullptr, 0, 10, w.data()); });
  expect_bad_argument("w", [&] { call(10, d.data(), e.data(), 2, 3, nullptr); });
  expect_bad_argument("q.device", [&] {
    Queue q(dev);
    q.device = nullptr;
    tridiag_eigenvalues<double>(q, 0, nullptr, nullptr, 0, 0, nullptr);
  });
  // Null pointers are fine where nothing is read or written.
  EXPECT_NO_THROW(call(0, nullptr, nullptr, 0, 0, nullptr));
  EXPECT_NO_THROW(call(10, nullptr, nullptr, 4, 4, nullptr));
  // A complex precision takes real d, e and w (only where c is built: MGBLAS_PRECISIONS).
  if constexpr (precision_enabled_v<std::complex<float>>) {
    std::vector<float> w1(1, nan_value<float>());
    const float d1 = 2.5f;
    EXPECT_NO_THROW(
        tridiag_eigenvalues<std::complex<float>>(dev, 1, &d1, nullptr, 0, 1, w1.data()));
    EXPECT_FLOAT_EQ(w1[0], 2.5f);
  }
}

}  // namespace
}  // namespace mgblas::testing
