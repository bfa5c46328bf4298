// SPDX-License-Identifier: BSD-3-Clause
// The band-to-tridiagonal bulge chase on the CUDA engine (kernels/lapack.hpp
// band_to_tridiag, one persistent kernel pipelining the sweeps): the checks of
// sb2st_test_helpers.hpp, d and e against the host engine's on the same band, n up to
// 3000, bad arguments.
#include <gtest/gtest.h>

#include "tests/kernels/cuda_test_helpers.hpp"
#include "tests/kernels/sb2st_test_helpers.hpp"

namespace mgblas::testing {
namespace {

template <typename T>
class BandToTridiag_Cuda : public ::testing::Test {};
TYPED_TEST_SUITE(BandToTridiag_Cuda, TestScalars, PrecisionName);

TYPED_TEST(BandToTridiag_Cuda, EveryBand) { check_every_band<TypeParam>(gpu()); }

//  +--------------------------------------------------------------------------+
//  |  eig = max_i |lambda_i(T_gpu) - lambda_i(T_host)| / (n eps ||A||_1)        |
//  |        (both by ?sterf), passes when <= 10 (eigenvalue_error);            |
//  |  ent = max(||d - d_host||_inf, ||e - e_host||_inf) / (n eps ||A||_1),      |
//  |        at n = 100 only, passes when <= 30.                                 |
//  |  The same tasks in another order of summation. T itself is not a          |
//  |  well-conditioned function of A (its late entries follow the Krylov        |
//  |  sequence A^k e_1, as Lanczos does): on the H200, n = 777 gave ent up to   |
//  |  8.6e3 with both engines' T passing the backward checks, so the entries    |
//  |  are compared where that growth is small and the spectra everywhere.       |
//  +--------------------------------------------------------------------------+
TYPED_TEST(BandToTridiag_Cuda, SameAsHost) {
  using T = TypeParam;
  using R = real_type_t<T>;
  auto rng = make_rng();
  for (int64_t b : {2, 8, 64})
    for (int64_t n : {int64_t{100}, int64_t{777}}) {
      const Band<T> a = make_band<T>(BandSpectrum::Random, n, b, rng);
      SCOPED_TRACE(detail::concat("n=", n, " b=", b, ", ", seed_text()));
      const auto g = run_chase<T>(gpu(), a, true);
      const auto h = run_chase<T>(host(), a, true);
      const double normA = band_norm1(a);
      const std::vector<R> wg = sterf_eigenvalues(Tridiagonal<R>{g.d, g.e});
      const std::vector<R> wh = sterf_eigenvalues(Tridiagonal<R>{h.d, h.e});
      EXPECT_LE(eigenvalue_error(n, wh, 0, n, wg.data(), normA), kEigenvalueTolerance)
          << "eigenvalues of T: GPU vs host engine";
      if (n > 100) continue;
      double diff = 0;
      for (int64_t i = 0; i < n; ++i) diff = std::max(diff, double(std::abs(g.d[i] - h.d[i])));
      for (int64_t i = 0; i + 1 < n; ++i) diff = std::max(diff, double(std::abs(g.e[i] - h.e[i])));
      const double err = diff / (n * std::numeric_limits<R>::epsilon() * normA);
      EXPECT_LE(err, kChaseThreshold) << "d, e: GPU vs host engine";
    }
}

TYPED_TEST(BandToTridiag_Cuda, Large) {
  auto rng = make_rng();
  check_chase<TypeParam>(gpu(), make_band<TypeParam>(BandSpectrum::Random, 1000, 64, rng), "random",
                         true);
  check_chase<TypeParam>(gpu(), make_band<TypeParam>(BandSpectrum::Random, 3000, 64, rng), "random",
                         false);
  check_chase<TypeParam>(gpu(), make_band<TypeParam>(BandSpectrum::Graded, 2131, 32, rng), "graded",
                         false);
}

TYPED_TEST(BandToTridiag_Cuda, BadArguments) { check_bad_arguments<TypeParam>(gpu()); }

}  // namespace
}  // namespace mgblas::testing
