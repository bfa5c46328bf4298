// SPDX-License-Identifier: BSD-3-Clause
// The band-to-bidiagonal bulge chase on the CUDA engine (kernels/lapack.hpp
// band_to_bidiag, one persistent kernel pipelining the sweeps): the checks of
// gb2bd_test_helpers.hpp (singular values against LAPACK's, B = Q2 bidiag(d, e) P2^H with
// Q2 and P2 applied by band_to_tridiag_apply_q on the GPU), d and e against the host
// engine's on the same band, n up to 3000, every tile shape of the kernel (b up to 16,
// 32, 64, 128), the widths it refuses, bad arguments.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <limits>
#include <type_traits>
#include <vector>

#include "tests/kernels/cuda_test_helpers.hpp"
#include "tests/kernels/gb2bd_test_helpers.hpp"

namespace mgblas::testing {
namespace {

template <typename T>
class BandToBidiag_Cuda : public ::testing::Test {};
TYPED_TEST_SUITE(BandToBidiag_Cuda, TestScalars, PrecisionName);

// b >= n up to n = 64 (the chase then takes n - 1 <= 63 superdiagonals, within every
// precision's shared memory).
TYPED_TEST(BandToBidiag_Cuda, EveryBand) { check_every_bidiag<TypeParam>(gpu(), 64); }

//  +--------------------------------------------------------------------------+
//  |  sv  = max_i |sigma_i(bidiag_gpu) - sigma_i(bidiag_host)| /               |
//  |        (n eps ||B||_F) (both by ?bdsqr), passes when <= 30;               |
//  |  ent = max(|| |d| - |d_host| ||_inf, || |e| - |e_host| ||_inf) /          |
//  |        (n eps ||B||_F),                                                  |
//  |        at n <= 100 only, passes when <= 30.                                |
//  |  The same tasks in another order of summation; as for the tridiagonal     |
//  |  chase (test_cuda_band_to_tridiag) the late entries of the bidiagonal     |
//  |  follow Krylov sequences and need not be close for large n, while both    |
//  |  pass the backward checks, so entries are compared where n is small.      |
//  +--------------------------------------------------------------------------+
template <Scalar T>
void compare_with_host(const UpperBand<T>& a, bool entries) {
  using R = real_type_t<T>;
  const int64_t n = a.n;
  SCOPED_TRACE(detail::concat("n=", n, " b=", a.b, ", ", seed_text()));
  const auto g = run_bidiag<T>(gpu(), a, false);
  const auto h = run_bidiag<T>(host(), a, false);
  const double normF = upper_band_norms(a).second;
  ASSERT_GT(normF, 0.0);
  EXPECT_LE(singular_value_error(n, bidiag_singular_values(g.d, g.e),
                                 bidiag_singular_values(h.d, h.e), normF),
            kChaseThreshold)
      << "singular values of bidiag(d, e): GPU vs host engine";
  if (!entries) return;
  double diff = 0;
  // Up to signs: D1 B D2 (D1, D2 diagonal signs) is as good a bidiagonal, and a reflector's
  // sign follows its alpha's, which rounding can flip where alpha is tiny.
  const auto gap = [](R a, R b) { return double(std::abs(std::abs(a) - std::abs(b))); };
  for (int64_t i = 0; i < n; ++i) diff = std::max(diff, gap(g.d[i], h.d[i]));
  for (int64_t i = 0; i + 1 < n; ++i) diff = std::max(diff, gap(g.e[i], h.e[i]));
  EXPECT_LE(diff / (n * std::numeric_limits<R>::epsilon() * normF), kChaseThreshold)
      << "d, e: GPU vs host engine";
}

TYPED_TEST(BandToBidiag_Cuda, SameAsHost) {
  using T = TypeParam;
  auto rng = make_rng();
  for (int64_t b : {2, 8, 32, 64})
    for (int64_t n : {int64_t{100}, int64_t{777}})
      compare_with_host<T>(make_upper_band<T>(UpperBandKind::Random, n, b, rng), n <= 100);
}

// The widest tiles (64 < b <= 128: one thread per row) and the refusals: b > 128, or a
// tile over the device's shared memory (complex double at b = 100), as NotImplemented.
TYPED_TEST(BandToBidiag_Cuda, Wide) {
  using T = TypeParam;
  auto rng = make_rng();
  check_bidiag<T>(gpu(), make_upper_band<T>(UpperBandKind::Random, 300, 65, rng),
                  UpperBandKind::Random, true);
  if constexpr (std::is_same_v<T, float>)
    check_bidiag<T>(gpu(), make_upper_band<T>(UpperBandKind::Random, 300, 128, rng),
                    UpperBandKind::Random, true);
  const auto refused = [&](int64_t b) {
    const UpperBand<T> a = make_upper_band<T>(UpperBandKind::Random, 200, b, rng);
    EXPECT_THROW(run_bidiag<T>(gpu(), a, true), NotImplemented) << "b = " << b;
  };
  refused(129);
  if constexpr (std::is_same_v<T, std::complex<double>>) refused(100);
}

TYPED_TEST(BandToBidiag_Cuda, Large) {
  using T = TypeParam;
  auto rng = make_rng();
  check_bidiag<T>(gpu(), make_upper_band<T>(UpperBandKind::Random, 1000, 64, rng),
                  UpperBandKind::Random, true);
  compare_with_host<T>(make_upper_band<T>(UpperBandKind::Random, 3000, 64, rng), false);
  compare_with_host<T>(make_upper_band<T>(UpperBandKind::Graded, 2131, 32, rng), false);
}

// The chase's arithmetic does not depend on which block runs a sweep or when, so calls on
// the same band agree bit for bit; a hand-off that let two tasks touch an entry at once
// (the schedule in kernels/gb2bd_kernels.hpp) would show here as calls that differ.
TYPED_TEST(BandToBidiag_Cuda, RepeatsBitwise) {
  using T = TypeParam;
  auto rng = make_rng();
  for (int64_t b : {3, 32}) {
    const UpperBand<T> a = make_upper_band<T>(UpperBandKind::Random, 4000, b, rng);
    const auto first = run_bidiag<T>(gpu(), a, true);
    // Bit for bit, the slots the layout leaves unused (NaN from run_bidiag) included.
    const auto same = [](const auto& x, const auto& y) {
      return std::equal(x.begin(), x.end(), y.begin(), y.end(),
                        [](auto u, auto v) { return u == v || (u != u && v != v); });
    };
    for (int rep = 0; rep < 4; ++rep) {
      const auto again = run_bidiag<T>(gpu(), a, true);
      SCOPED_TRACE(detail::concat("b=", b, " call ", rep + 2, ", ", seed_text()));
      EXPECT_TRUE(same(first.d, again.d)) << "d";
      EXPECT_TRUE(same(first.e, again.e)) << "e";
      EXPECT_TRUE(same(first.VQ, again.VQ) && same(first.tauQ, again.tauQ)) << "Q2";
      EXPECT_TRUE(same(first.VP, again.VP) && same(first.tauP, again.tauP)) << "P2";
    }
  }
}

// Entries below the smallest normal number (see test_band_to_bidiag): finite reflectors.
TYPED_TEST(BandToBidiag_Cuda, EntriesBelowTheSmallestNormal) {
  using T = TypeParam;
  auto rng = make_rng();
  const bool single = sizeof(real_type_t<T>) == 4;
  check_bidiag<T>(gpu(), make_upper_band<T>(UpperBandKind::Random, single ? 800 : 3000, single ? 8 : 64, rng),
                  UpperBandKind::Random, false);
}

TYPED_TEST(BandToBidiag_Cuda, BadArguments) { check_bidiag_bad_arguments<TypeParam>(gpu()); }

}  // namespace
}  // namespace mgblas::testing
