// SPDX-License-Identifier: BSD-3-Clause
// heevd_mgpu on the GPUs of every rank (hetrd_mgpu, the GPU divide and conquer and
// unmtr_mgpu on the CUDA engine): the checks of the host test
// (tests/dist/heevd_cases.hpp) on a CUDA context, at sizes past the host test's.
#include <gtest/gtest.h>

#include <memory>
#include <vector>

#include "core/context.hpp"
#include "tests/dist/gpu_context.hpp"
#include "tests/dist/heevd_cases.hpp"

namespace {

using namespace mgblas;
namespace mt = mgblas::testing;
namespace td = mgblas::testing::dist;
using td::GpuContext;

template <typename T>
class Heevd_Gpu : public ::testing::Test {};
TYPED_TEST_SUITE(Heevd_Gpu, mt::TestScalars, mt::PrecisionName);

TYPED_TEST(Heevd_Gpu, DenseRangesAndTriangles) {
  using T = TypeParam;
  auto& ctx = GpuContext::get();
  for (Uplo uplo : {Uplo::Lower, Uplo::Upper})
    for (int64_t n : {1, 37, 300, 517}) {
      const int64_t nb = n > 100 ? 64 : 8;
      EXPECT_TRUE(td::dense_case<T>(ctx, uplo, n, nb, EigenRange::all(), 32, 0));
      EXPECT_TRUE(td::dense_case<T>(ctx, uplo, n, nb, EigenRange::smallest(std::max<int64_t>(1, n / 10)), 8, 1));
      if (n < 3) continue;
      EXPECT_TRUE(td::dense_case<T>(ctx, uplo, n, nb, EigenRange::value(-0.5, 1.0), 7, 0));
    }
}

TYPED_TEST(Heevd_Gpu, ClusteredAndGradedSpectra) {
  using T = TypeParam;
  using R = real_type_t<T>;
  namespace tl = mgblas::testing::lapack;
  auto& ctx = GpuContext::get();
  std::mt19937_64 rng(mt::test_seed() + 11);
  for (tl::Spectrum kind : {tl::Spectrum::Clustered, tl::Spectrum::Graded}) {
    const std::vector<R> D = tl::make_spectrum<R>(kind, 400, rng);
    EXPECT_TRUE(td::dense_case<T>(ctx, Uplo::Lower, 400, 64, EigenRange::all(), 64, 0, &D));
  }
}

// The two-stage path with vectors: stage one over the GPUs, the GPU chase keeping Q2's
// reflectors, band_to_tridiag_apply_q on every GPU's columns of Z, then Q1. Bands that do
// and do not divide n; spectra with clusters and a wide range.
TYPED_TEST(Heevd_Gpu, TwoStageVectors) {
  using T = TypeParam;
  using R = real_type_t<T>;
  namespace tl = mgblas::testing::lapack;
  auto& ctx = GpuContext::get();
  const Stages two = Stages::Two;
  for (Uplo uplo : {Uplo::Lower, Uplo::Upper})
    for (int64_t n : {1, 37, 300, 517}) {
      const int64_t nb = n > 100 ? 64 : 8;
      EXPECT_TRUE(td::dense_case<T>(ctx, uplo, n, nb, EigenRange::all(), 32, 0, nullptr, two));
      EXPECT_TRUE(td::dense_case<T>(ctx, uplo, n, nb,
                                    EigenRange::smallest(std::max<int64_t>(1, n / 10)), 8, 1,
                                    nullptr, two, n > 100 ? 16 : 4));
      if (n < 3) continue;
      EXPECT_TRUE(td::dense_case<T>(ctx, uplo, n, nb, EigenRange::value(-0.5, 1.0), 7, 0,
                                    nullptr, two, 1));
    }
  std::mt19937_64 rng(mt::test_seed() + 13);
  for (tl::Spectrum kind : {tl::Spectrum::Clustered, tl::Spectrum::Graded}) {
    const std::vector<R> D = tl::make_spectrum<R>(kind, 400, rng);
    EXPECT_TRUE(td::dense_case<T>(ctx, Uplo::Upper, 400, 64, EigenRange::all(), 64, 0, &D, two,
                                  64));
  }
}

}  // namespace
