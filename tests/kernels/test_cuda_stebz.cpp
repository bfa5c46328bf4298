// SPDX-License-Identifier: BSD-3-Clause
// Tridiagonal eigenvalues by multisection (or, for most of a large spectrum, the divide
// and conquer without vectors) on the CUDA engine compared with the host engine (LAPACK
// ?stebz) and with LAPACKE ?sterf, on fresh random, clustered and graded matrices, all
// indices and subranges, up to n = 10^5. The GPU's w is NaN-poisoned past the written range.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <string>
#include <utility>
#include <vector>

#include "kernels/lapack.hpp"
#include "tests/kernels/cuda_test_helpers.hpp"
#include "tests/kernels/stebz_test_helpers.hpp"

namespace mgblas::testing {
namespace {

template <Scalar T>
void compare_engines(const Tridiagonal<real_type_t<T>>& t, Spectrum kind, int64_t il,
                     int64_t iu, bool with_sterf = true) {
  using R = real_type_t<T>;
  const int64_t n = t.n();
  SCOPED_TRACE(detail::concat(to_string(kind), " n=", n, " [il, iu) = [", il, ", ", iu, "), ",
                              seed_text()));
  const int64_t count = iu - il;
  constexpr int64_t kPad = 3;
  std::vector<R> w_host(static_cast<std::size_t>(count), nan_value<R>());
  tridiag_eigenvalues<T>(host(), n, t.d.data(), t.e.data(), il, iu, w_host.data());

  const std::vector<R> w0(static_cast<std::size_t>(count + kPad), nan_value<R>());
  const DeviceBuffer<R> dd = upload(t.d), de = upload(t.e);
  DeviceBuffer<R> dw = upload(w0);
  tridiag_eigenvalues<T>(gpu(), n, dd.data(), de.data(), il, iu, dw.data());
  const std::vector<R> w = download(dw);

  // The host engine as the reference at every index it computed: the bound of
  // stebz_test_helpers.hpp with w_host in place of ?sterf's values, relative to ||T||
  // (both are bisections with Sturm counts, but they stop and split the intervals
  // differently, LAPACK's ?stebz to eps ||T||, and the GPU's fused multiply-adds round
  // differently).
  std::vector<R> ref(static_cast<std::size_t>(n), R(0));
  std::copy(w_host.begin(), w_host.end(), ref.begin() + il);
  if (count > 0) {
    ASSERT_GT(norm_vec(count, w_host.data()), 0.0) << "zero reference: the check would pass vacuously";
  }
  EXPECT_LE(eigenvalue_error(n, ref, il, iu, w.data(), tridiagonal_norm(t)), kEigenvalueTolerance)
      << "GPU vs host";
  if (with_sterf) {
    EXPECT_LE(eigenvalue_error(n, sterf_eigenvalues(t), il, iu, w.data()), kEigenvalueTolerance)
        << "GPU vs ?sterf";
  }
  EXPECT_TRUE(ascending(w.data(), count));
  expect_untouched_outside(w0, w, [&](int64_t p) { return p < count; }, "w");
}

template <typename T>
class Stebz_Cuda : public ::testing::Test {};
TYPED_TEST_SUITE(Stebz_Cuda, TestScalars, PrecisionName);

TYPED_TEST(Stebz_Cuda, RandomAllIndices) {
  using R = real_type_t<TypeParam>;
  auto rng = make_rng();
  for (int64_t n : {0, 1, 2, 31, 32, 33, 127, 128, 129, 200, 1000, 2131}) {
    const auto t = make_tridiagonal<R>(Spectrum::Random, n, rng);
    compare_engines<TypeParam>(t, Spectrum::Random, 0, n);
  }
}

TYPED_TEST(Stebz_Cuda, RandomSubranges) {
  using R = real_type_t<TypeParam>;
  auto rng = make_rng();
  for (int64_t n : {33, 1000, 2131}) {
    const auto t = make_tridiagonal<R>(Spectrum::Random, n, rng);
    const std::pair<int64_t, int64_t> ranges[] = {
        {0, 1}, {n / 3, 2 * n / 3}, {n - 1, n}, {n / 2, n / 2}, {5, n}};
    for (auto [il, iu] : ranges) compare_engines<TypeParam>(t, Spectrum::Random, il, iu);
  }
}

TYPED_TEST(Stebz_Cuda, ClusteredAndGraded) {
  using R = real_type_t<TypeParam>;
  auto rng = make_rng();
  for (Spectrum kind : {Spectrum::Wilkinson, Spectrum::Clustered, Spectrum::Graded})
    for (int64_t n : {21, 200, 1000}) {
      const auto t = make_tridiagonal<R>(kind, n, rng);
      compare_engines<TypeParam>(t, kind, 0, n);
    }
}

// Every group size of the multisection (MGBLAS_STEBZ_POINTS: lanes per eigenvalue, 1 is
// plain bisection) on random, clustered and graded spectra, all indices and a subrange;
// a value outside the list is refused before any launch.
TYPED_TEST(Stebz_Cuda, EveryPointCount) {
  using R = real_type_t<TypeParam>;
  auto rng = make_rng();
  for (const char* points : {"1", "2", "4", "8", "16", "32"}) {
    SCOPED_TRACE(detail::concat("MGBLAS_STEBZ_POINTS=", points));
    const ScopedEnv env("MGBLAS_STEBZ_POINTS", points);
    for (Spectrum kind : {Spectrum::Random, Spectrum::Clustered, Spectrum::Graded}) {
      const int64_t n = kind == Spectrum::Random ? 1000 : 200;
      const auto t = make_tridiagonal<R>(kind, n, rng);
      compare_engines<TypeParam>(t, kind, 0, n);
      compare_engines<TypeParam>(t, kind, n / 3, 2 * n / 3 + 1);
    }
  }
  const ScopedEnv bad("MGBLAS_STEBZ_POINTS", "3");
  const auto t = make_tridiagonal<R>(Spectrum::Random, 10, rng);
  const DeviceBuffer<R> dd = upload(t.d), de = upload(t.e);
  DeviceBuffer<R> dw = upload(std::vector<R>(10, R(0)));
  EXPECT_THROW(tridiag_eigenvalues<TypeParam>(gpu(), 10, dd.data(), de.data(), 0, 10, dw.data()),
               BadArgument);
}

// The spectrum slicing before the multisection, forced on and off (MGBLAS_STEBZ_SLICE) on
// every kind of spectrum, all indices and subranges at the edges and in the middle, with 1
// and 32 points per eigenvalue (the fewest and the most slicing points); n = 3000 under
// the automatic rule (sliced: count >= 2048); a value other than 0 or 1 refused.
TYPED_TEST(Stebz_Cuda, SlicedAndWhole) {
  using R = real_type_t<TypeParam>;
  auto rng = make_rng();
  for (const char* slice : {"0", "1"})
    for (const char* points : {"1", "32"}) {
      SCOPED_TRACE(detail::concat("MGBLAS_STEBZ_SLICE=", slice, " MGBLAS_STEBZ_POINTS=", points));
      const ScopedEnv env("MGBLAS_STEBZ_SLICE", slice), env_points("MGBLAS_STEBZ_POINTS", points);
      for (Spectrum kind :
           {Spectrum::Random, Spectrum::Wilkinson, Spectrum::Clustered, Spectrum::Graded}) {
        const int64_t n = 600;
        const auto t = make_tridiagonal<R>(kind, n, rng);
        for (auto [il, iu] :
             {std::pair<int64_t, int64_t>{0, n}, {0, 1}, {n - 1, n}, {n / 3, n / 2}})
          compare_engines<TypeParam>(t, kind, il, iu);
      }
    }
  const auto t = make_tridiagonal<R>(Spectrum::Random, 3000, rng);
  compare_engines<TypeParam>(t, Spectrum::Random, 0, 3000);
  const ScopedEnv bad("MGBLAS_STEBZ_SLICE", "yes");
  const DeviceBuffer<R> dd = upload(t.d), de = upload(t.e);
  DeviceBuffer<R> dw = upload(std::vector<R>(10, R(0)));
  EXPECT_THROW(tridiag_eigenvalues<TypeParam>(gpu(), 3000, dd.data(), de.data(), 0, 10, dw.data()),
               BadArgument);
}

// The divide and conquer without vectors in place of bisection, forced (MGBLAS_STEBZ_DC=1)
// on every kind of spectrum for windows of half the spectrum or more (and a narrow one,
// which still bisects), from n = 2; n = 8192 under the automatic rule (half or more,
// count >= 4096: divide and conquer; a quarter: bisection) and forced to bisect; a value
// other than 0 or 1 refused.
TYPED_TEST(Stebz_Cuda, DivideAndConquerAndBisection) {
  using R = real_type_t<TypeParam>;
  auto rng = make_rng();
  {
    const ScopedEnv env("MGBLAS_STEBZ_DC", "1");
    for (Spectrum kind :
         {Spectrum::Random, Spectrum::Wilkinson, Spectrum::Clustered, Spectrum::Graded})
      for (int64_t n : {2, 3, 17, 600}) {
        const auto t = make_tridiagonal<R>(kind, n, rng);
        for (auto [il, iu] : {std::pair<int64_t, int64_t>{0, n},
                              {n / 3, n},
                              {0, n - n / 3},
                              {n / 2, n},
                              {n / 3, n / 2}})
          compare_engines<TypeParam>(t, kind, il, iu);
      }
  }
  // n = 8192 against ?sterf only (the host engine's bisection of every value would take
  // minutes).
  const int64_t n = 8192;
  const auto t = make_tridiagonal<R>(Spectrum::Random, n, rng);
  const std::vector<R> ref = sterf_eigenvalues(t);
  const auto check = [&](int64_t il, int64_t iu) {
    SCOPED_TRACE(detail::concat("n=", n, " [il, iu) = [", il, ", ", iu, "), ", seed_text()));
    const DeviceBuffer<R> dd = upload(t.d), de = upload(t.e);
    DeviceBuffer<R> dw = upload(std::vector<R>(static_cast<std::size_t>(iu - il), nan_value<R>()));
    tridiag_eigenvalues<TypeParam>(gpu(), n, dd.data(), de.data(), il, iu, dw.data());
    const std::vector<R> w = download(dw);
    EXPECT_LE(eigenvalue_error(n, ref, il, iu, w.data()), kEigenvalueTolerance) << "GPU vs ?sterf";
    EXPECT_TRUE(ascending(w.data(), iu - il));
  };
  check(0, n);
  check(n / 4, n);
  check(n / 2, n);
  check(n / 4, n / 2);
  {
    const ScopedEnv env("MGBLAS_STEBZ_DC", "0");
    check(0, n);
  }
  const ScopedEnv bad("MGBLAS_STEBZ_DC", "yes");
  const DeviceBuffer<R> dd = upload(t.d), de = upload(t.e);
  DeviceBuffer<R> dw = upload(std::vector<R>(static_cast<std::size_t>(n), R(0)));
  EXPECT_THROW(tridiag_eigenvalues<TypeParam>(gpu(), n, dd.data(), de.data(), 0, n, dw.data()),
               BadArgument);
}

// n = 10^5 (the size the engine is made for): the host engine only for a few hundred
// indices (all of them would take minutes on the CPU), ?sterf skipped for time as well.
TYPED_TEST(Stebz_Cuda, Large) {
  using R = real_type_t<TypeParam>;
  auto rng = make_rng();
  const int64_t n = 100000;
  const auto t = make_tridiagonal<R>(Spectrum::Random, n, rng);
  compare_engines<TypeParam>(t, Spectrum::Random, 0, 128, /*with_sterf=*/false);
  compare_engines<TypeParam>(t, Spectrum::Random, n / 2 - 64, n / 2 + 64, false);
  compare_engines<TypeParam>(t, Spectrum::Random, n - 128, n, false);
}

}  // namespace
}  // namespace mgblas::testing
