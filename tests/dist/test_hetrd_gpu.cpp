// SPDX-License-Identifier: BSD-3-Clause
// hetrd_mgpu on the GPUs of every rank (the CUDA engine's panel kernels, the distributed
// SYMV share kernels, NCCL or host transport): the same checks as the host test
// (tests/dist/hetrd_cases.hpp), at sizes around the kernels' tiles and a larger one.
#include <gtest/gtest.h>

#include <cstdlib>
#include <memory>
#include <utility>

#include "core/context.hpp"
#include "tests/dist/gpu_context.hpp"
#include "tests/dist/hetrd_cases.hpp"

namespace {

using namespace mgblas;
namespace mt = mgblas::testing;
namespace td = mgblas::testing::dist;

using td::GpuContext;

template <typename T>
class Hetrd_Gpu : public ::testing::Test {};
TYPED_TEST_SUITE(Hetrd_Gpu, mt::TestScalars, mt::PrecisionName);

TYPED_TEST(Hetrd_Gpu, SizesAndBlockings) {
  using T = TypeParam;
  auto& ctx = GpuContext::get();
  for (int64_t nb : {16, 64, 256})
    for (int64_t n : {int64_t{1}, int64_t{2}, nb - 1, nb, nb + 1, 3 * nb + 5, int64_t{300}})
      for (Uplo uplo : {Uplo::Lower, Uplo::Upper})
        EXPECT_TRUE(td::reduce_and_check<T>(ctx, n, nb, 0, n % 2 == 0, ReducerKind::Auto, uplo));
}

// An environment variable set for one scope (the kernels read their debug overrides at
// every call: kernels/cuda/common/debug_env.hpp).
struct Env {
  const char* name;
  Env(const char* n, const char* v) : name(n) { ::setenv(n, v, 1); }
  ~Env() { ::unsetenv(name); }
};

TYPED_TEST(Hetrd_Gpu, PanelsAndTransports) {
  using T = TypeParam;
  auto& ctx = GpuContext::get();
  EXPECT_TRUE(td::reduce_and_check<T>(ctx, 517, 64, 32, false));
  EXPECT_TRUE(td::reduce_and_check<T>(ctx, 517, 128, 128, true));
  EXPECT_TRUE(td::reduce_and_check<T>(ctx, 260, 64, 0, false, ReducerKind::Host));
  EXPECT_TRUE(td::reduce_and_check<T>(ctx, 1000, 256, 0, false));
  EXPECT_TRUE(td::reduce_and_check<T>(ctx, 1000, 256, 0, true, ReducerKind::Auto, Uplo::Upper));
  EXPECT_TRUE(td::reduce_and_check<T>(ctx, 260, 64, 0, false, ReducerKind::Host, Uplo::Upper));
}

// The column step's other shapes: a grid of 3 blocks, so every phase loops over many
// tiles per block (as panels of more than 32 x 2 x SMs rows do), and the separate
// launches the step falls back to where a cooperative launch is not possible.
TYPED_TEST(Hetrd_Gpu, StepGridShapes) {
  using T = TypeParam;
  auto& ctx = GpuContext::get();
  {
    Env few("MGBLAS_LATRD_STEP_BLOCKS", "3");
    EXPECT_TRUE(td::reduce_and_check<T>(ctx, 1000, 64, 0, false));
    EXPECT_TRUE(td::reduce_and_check<T>(ctx, 517, 128, 128, true, ReducerKind::Auto, Uplo::Upper));
  }
  {
    Env separate("MGBLAS_LATRD_NO_COOP", "1");
    EXPECT_TRUE(td::reduce_and_check<T>(ctx, 517, 64, 32, false));
    EXPECT_TRUE(td::reduce_and_check<T>(ctx, 300, 64, 0, true, ReducerKind::Auto, Uplo::Upper));
  }
  // The same shapes at the small-size mode's sizes (MGBLAS_TEST_SMALL, compute-sanitizer):
  // one block looping over both 32-row tiles, and the separate launches.
  {
    Env one("MGBLAS_LATRD_STEP_BLOCKS", "1");
    EXPECT_TRUE(td::reduce_and_check<T>(ctx, 64, 16, 0, false));
    EXPECT_TRUE(td::reduce_and_check<T>(ctx, 61, 32, 0, true, ReducerKind::Auto, Uplo::Upper));
  }
  {
    Env separate("MGBLAS_LATRD_NO_COOP", "1");
    EXPECT_TRUE(td::reduce_and_check<T>(ctx, 64, 16, 0, false));
    EXPECT_TRUE(td::reduce_and_check<T>(ctx, 45, 16, 0, true, ReducerKind::Auto, Uplo::Upper));
  }
}

// Matrices at the ends of the range (issue 32): scaled by 1e+-300 and 1e+-150 (float:
// 1e+-30 and 1e+-15) and mixed (one column and row huge, the rest tiny), on the
// cooperative step, on a grid of 3 blocks and on the separate launches; eigenvalues and Q
// against LAPACK as on the host (tests/dist/test_hetrd_mgpu.cpp ExtremeScales).
// A NaN or infinity in the read triangle shows in d, e or tau (as on the host devices),
// on the cooperative step (n = 100) and the blocked panels of a larger nb.
TYPED_TEST(Hetrd_Gpu, NonFiniteInputShows) {
  using T = TypeParam;
  auto& ctx = GpuContext::get();
  for (const auto& [n, nb] : {std::pair<int64_t, int64_t>{100, 16}, {300, 64}})
    for (Uplo uplo : {Uplo::Lower, Uplo::Upper})
      for (const auto value : td::nonfinite_values<T>())
        for (const auto& [i, j] : td::nonfinite_positions(n, n))
          EXPECT_TRUE(td::nonfinite_shows<T>(ctx, uplo, n, nb, value, i, j));
}

TYPED_TEST(Hetrd_Gpu, ExtremeScales) {
  using T = TypeParam;
  auto& ctx = GpuContext::get();
  for (int64_t n : {17, 60, 129, 300})
    for (const td::MatrixScale& s : td::extreme_scales<T>(n / 3))
      for (Uplo uplo : {Uplo::Lower, Uplo::Upper})
        EXPECT_TRUE(td::reduce_and_check<T>(ctx, n, n > 64 ? 64 : 16, 0, n % 2 == 0,
                                            ReducerKind::Auto, uplo, s));
  const std::pair<const char*, const char*> shapes[] = {{"MGBLAS_LATRD_STEP_BLOCKS", "3"},
                                                       {"MGBLAS_LATRD_NO_COOP", "1"}};
  for (const auto& [name, value] : shapes) {
    Env e(name, value);
    for (const td::MatrixScale& s : td::extreme_scales<T>(7))
      for (int64_t n : {60, 200}) {
        EXPECT_TRUE(td::reduce_and_check<T>(ctx, n, 16, 0, false, ReducerKind::Auto, Uplo::Lower, s));
        EXPECT_TRUE(td::reduce_and_check<T>(ctx, n, 32, 0, true, ReducerKind::Auto, Uplo::Upper, s));
      }
  }
}

}  // namespace
