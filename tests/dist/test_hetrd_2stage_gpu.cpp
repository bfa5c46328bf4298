// SPDX-License-Identifier: BSD-3-Clause
// The two-stage reduction on the GPUs of every rank: stage one (hetrd_band_mgpu:
// cuSOLVER's panel QR, cuBLAS's hemm and rank-2k, NCCL or host transport) with the checks
// of the host test (tests/dist/two_stage_cases.hpp) at sizes around the blocks and a
// larger one, and both stages with the GPU chase (hetrd_2stage_mgpu, heevd_mgpu's
// two-stage eigenvalues) against LAPACK.
#include <gtest/gtest.h>

#include <limits>
#include <type_traits>

#include "core/context.hpp"
#include "dist/lapack/hetrd_2stage_mgpu.hpp"
#include "tests/dist/gpu_context.hpp"
#include "tests/dist/two_stage_cases.hpp"
#include "tests/testing/testing.hpp"

namespace {

using namespace mgblas;
namespace mt = mgblas::testing;
namespace td = mgblas::testing::dist;

template <typename T>
class HetrdBand_Gpu : public ::testing::Test {};
TYPED_TEST_SUITE(HetrdBand_Gpu, mt::TestScalars, mt::PrecisionName);

TYPED_TEST(HetrdBand_Gpu, SizesBandsAndBlocks) {
  using T = TypeParam;
  auto& ctx = td::GpuContext::get();
  for (int64_t nb : {64, 256})
    for (int64_t band : {int64_t{16}, int64_t{64}})
      for (int64_t n : {int64_t{1}, band + 1, nb + 3, 3 * nb + 5, int64_t{1000}})
        for (Uplo uplo : {Uplo::Lower, Uplo::Upper})
          EXPECT_TRUE(td::band_reduce_and_check<T>(ctx, n, nb, band, uplo));
  // Past the rank-2k's diagonal block (4096 on a GPU): its halved squares. Double only,
  // as the host check of n^3 products on one core takes a while.
  if constexpr (std::is_same_v<T, double>)
    for (Uplo uplo : {Uplo::Lower, Uplo::Upper})
      EXPECT_TRUE(td::band_reduce_and_check<T>(ctx, 4300, 256, 128, uplo));
}

// Stage one's product A22 V past its diagonal block in every precision (the case above is
// double only): MGBLAS_SY2SB_HEMM_BLOCK 256 at n = 1000 gives rectangles at two levels of
// the halving, with both of their gemms.
TYPED_TEST(HetrdBand_Gpu, HalvedSquares) {
  using T = TypeParam;
  auto& ctx = td::GpuContext::get();
  const mt::ScopedEnv block("MGBLAS_SY2SB_HEMM_BLOCK", "256");
  for (Uplo uplo : {Uplo::Lower, Uplo::Upper})
    EXPECT_TRUE(td::band_reduce_and_check<T>(ctx, 1000, 256, 32, uplo));
}

// Stage one gives the whole trailing matrix to the engine's hemm where the engine says it
// is fastest whole (float and complex float with 32 columns), else squares of 8192; with
// MGBLAS_SYMM_SKINNY=0 (cuBLAS's SSYMM / CHEMM) every precision halves.
TYPED_TEST(HetrdBand_Gpu, HemmBlockAsksTheEngine) {
  using T = TypeParam;
  const Device& dev = td::GpuContext::get()->device(0);
  const mt::ScopedEnv unset("MGBLAS_SY2SB_HEMM_BLOCK", nullptr);
  const bool single = std::is_same_v<real_type_t<T>, float>;
  EXPECT_EQ(single ? std::numeric_limits<int64_t>::max() : 8192,
            detail::two_stage_hemm_block<T>(dev, 32));
  EXPECT_EQ(8192, detail::two_stage_hemm_block<T>(dev, 64));
  const mt::ScopedEnv off("MGBLAS_SYMM_SKINNY", "0");
  EXPECT_EQ(8192, detail::two_stage_hemm_block<T>(dev, 32));
}

TYPED_TEST(HetrdBand_Gpu, TwoStageEigenvalues) {
  using T = TypeParam;
  namespace tl = mgblas::testing::lapack;
  auto& ctx = td::GpuContext::get();
  for (Uplo uplo : {Uplo::Lower, Uplo::Upper}) {
    for (int64_t n : {1, 2, 65, 300, 1500})
      EXPECT_TRUE(td::two_stage_case<T>(ctx, uplo, n, 256, n % 3 == 0 ? 32 : 64));
    for (tl::Spectrum kind : {tl::Spectrum::Clustered, tl::Spectrum::Graded})
      EXPECT_TRUE(td::two_stage_case<T>(ctx, uplo, 700, 64, 64, &kind));
  }
}

}  // namespace
