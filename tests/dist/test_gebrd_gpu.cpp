// SPDX-License-Identifier: BSD-3-Clause
// gebrd_mgpu on the GPUs of every rank (the CUDA engine's small panel kernels and
// products, NCCL or host transport): the same checks as the host test
// (tests/dist/gebrd_cases.hpp), at sizes around the blocking and a larger one.
#include <gtest/gtest.h>

#include <memory>

#include "core/context.hpp"
#include "tests/dist/gebrd_cases.hpp"
#include "tests/dist/gpu_context.hpp"

namespace {

using namespace mgblas;
namespace mt = mgblas::testing;
namespace td = mgblas::testing::dist;

using td::GpuContext;

template <typename T>
class Gebrd_Gpu : public ::testing::Test {};
TYPED_TEST_SUITE(Gebrd_Gpu, mt::TestScalars, mt::PrecisionName);

TYPED_TEST(Gebrd_Gpu, SizesAndBlockings) {
  using T = TypeParam;
  auto& ctx = GpuContext::get();
  for (int64_t nb : {16, 64, 256})
    for (int64_t n : {int64_t{1}, int64_t{2}, nb - 1, nb, nb + 1, 3 * nb + 5, int64_t{300}}) {
      EXPECT_TRUE(td::gebrd_random_case<T>(ctx, n, n, nb, 0, n % 2 == 0));
      EXPECT_TRUE(td::gebrd_random_case<T>(ctx, n + 13, n, nb, 0, n % 2 == 1));
      EXPECT_TRUE(td::gebrd_random_case<T>(ctx, n, n + 11, nb, 0, n % 2 == 0));
    }
}

TYPED_TEST(Gebrd_Gpu, PanelsAndLargerSizes) {
  using T = TypeParam;
  auto& ctx = GpuContext::get();
  EXPECT_TRUE(td::gebrd_random_case<T>(ctx, 517, 400, 64, 32, false));
  EXPECT_TRUE(td::gebrd_random_case<T>(ctx, 400, 517, 128, 64, true));
  EXPECT_TRUE(td::gebrd_random_case<T>(ctx, 1000, 1000, 256, 0, false));
  EXPECT_TRUE(td::gebrd_random_case<T>(ctx, 1200, 600, 256, 0, true));
}

// The fused one-pass row step (GebrdOptions::one_pass) on tall panels whose columns need
// 1, 2, 4, 8 and 16 rows per thread of its clusters (2048 rows per row of registers;
// complex double takes at most 8 and runs the unfused steps beyond 16384 rows), wide
// and square shapes, and panels narrower than the block.
TYPED_TEST(Gebrd_Gpu, OnePassFusedStep) {
  using T = TypeParam;
  auto& ctx = GpuContext::get();
  for (int64_t m : {2000, 3000, 5000, 9000, 16500})
    EXPECT_TRUE(td::gebrd_random_case<T>(ctx, m, 40, 16, 0, m % 2 == 0, /*one_pass=*/true));
  EXPECT_TRUE(td::gebrd_random_case<T>(ctx, 40, 5000, 16, 0, true, /*one_pass=*/true));
  EXPECT_TRUE(td::gebrd_random_case<T>(ctx, 517, 400, 64, 32, false, /*one_pass=*/true));
  EXPECT_TRUE(td::gebrd_random_case<T>(ctx, 400, 517, 128, 64, true, /*one_pass=*/true));
  EXPECT_TRUE(td::gebrd_random_case<T>(ctx, 1000, 1000, 256, 0, false, /*one_pass=*/true));
  for (int64_t n : {1, 2, 17, 63, 65})
    EXPECT_TRUE(td::gebrd_random_case<T>(ctx, n + 3, n, 16, 0, n % 2 == 0, /*one_pass=*/true));
  // Many tiles per cluster at 8 and 16 rows per thread: the pipeline's stages and its
  // receive buffers wrap around many times.
  EXPECT_TRUE(td::gebrd_random_case<T>(ctx, 9000, 600, 64, 0, true, /*one_pass=*/true));
  EXPECT_TRUE(td::gebrd_random_case<T>(ctx, 16500, 256, 64, 0, false, /*one_pass=*/true));
}

// Matrices at the ends of the range (issue 32): scaled by 1e+-300 and 1e+-150 (float:
// 1e+-30 and 1e+-15) and mixed (one column huge, the rest tiny), both bidiagonal forms,
// the two GEMVs per column and the fused one-pass step (on its clusters from 2000 rows);
// singular values and Q, P against LAPACK as on the host (test_gebrd_mgpu.cpp).
// 1e+-300 need the power-of-two scaling of A before the reduction (see
// test_gebrd_mgpu.cpp ExtremeScales).
template <Scalar T>
void gebrd_gpu_extreme_cases() {
  auto& ctx = GpuContext::get();
  for (const td::MatrixScale& s : td::extreme_scales<T>(5)) {
    EXPECT_TRUE(td::gebrd_random_case<T>(ctx, 17, 17, 16, 0, false, false, s));
    EXPECT_TRUE(td::gebrd_random_case<T>(ctx, 64, 50, 16, 0, true, false, s));
    EXPECT_TRUE(td::gebrd_random_case<T>(ctx, 50, 64, 16, 0, false, true, s));
    EXPECT_TRUE(td::gebrd_random_case<T>(ctx, 129, 129, 64, 0, true, false, s));
    EXPECT_TRUE(td::gebrd_random_case<T>(ctx, 300, 200, 64, 0, false, false, s));
    EXPECT_TRUE(td::gebrd_random_case<T>(ctx, 200, 300, 64, 0, true, true, s));
    EXPECT_TRUE(td::gebrd_random_case<T>(ctx, 2000, 40, 16, 0, false, /*one_pass=*/true, s));
    EXPECT_TRUE(td::gebrd_random_case<T>(ctx, 40, 2000, 16, 0, true, /*one_pass=*/true, s));
  }
}
// A NaN or infinity in A shows in d, e, tauq or taup (as on the host devices).
TYPED_TEST(Gebrd_Gpu, NonFiniteInputShows) {
  using T = TypeParam;
  auto& ctx = GpuContext::get();
  for (const auto& [m, n] : {std::pair<int64_t, int64_t>{100, 70}, {70, 100}, {300, 200}})
    for (const auto value : td::nonfinite_values<T>())
      for (const auto& [i, j] : td::nonfinite_positions(m, n))
        EXPECT_TRUE(td::gebrd_nonfinite_shows<T>(ctx, m, n, 64, value, i, j));
}

TYPED_TEST(Gebrd_Gpu, ExtremeScales) { gebrd_gpu_extreme_cases<TypeParam>(); }

}  // namespace
