// SPDX-License-Identifier: BSD-3-Clause
// unmtr_mgpu on the GPUs of every rank (the CUDA engine's explicit-V and larft kernels,
// cuBLAS products, NCCL or host transport of the blocks): the checks of the host test
// (tests/dist/unmtr_cases.hpp) on a CUDA context, plus a larger size.
#include <gtest/gtest.h>

#include <cstdlib>
#include <memory>
#include <utility>
#include <vector>

#include "core/context.hpp"
#include "tests/dist/gpu_context.hpp"
#include "tests/dist/unmtr_cases.hpp"

namespace {

using namespace mgblas;
namespace mt = mgblas::testing;
namespace td = mgblas::testing::dist;

using td::GpuContext;

const std::vector<std::pair<int64_t, int64_t>> kLayouts = {{1, 5}, {7, 37}, {32, 1}};

template <typename T>
class Unmtr_Gpu : public ::testing::Test {};
TYPED_TEST_SUITE(Unmtr_Gpu, mt::TestScalars, mt::PrecisionName);

TYPED_TEST(Unmtr_Gpu, SizesAndBlockings) {
  using T = TypeParam;
  auto& ctx = GpuContext::get();
  for (int64_t nb : {1, 16, 64})
    for (int64_t n : {1, 2, 17, 64, 65, 200})
      for (Uplo uplo : {Uplo::Lower, Uplo::Upper})
        EXPECT_TRUE(td::unmtr_and_check<T>(ctx, uplo, n, nb, kLayouts, n % 2 == 1));
}

TYPED_TEST(Unmtr_Gpu, PanelsAndTransports) {
  using T = TypeParam;
  auto& ctx = GpuContext::get();
  for (Uplo uplo : {Uplo::Lower, Uplo::Upper}) {
    EXPECT_TRUE(td::unmtr_and_check<T>(ctx, uplo, 517, 64, {{32, 37}}, false, 32));
    EXPECT_TRUE(td::unmtr_and_check<T>(ctx, uplo, 517, 128, {{7, 5}}, true, 128));
    EXPECT_TRUE(
        td::unmtr_and_check<T>(ctx, uplo, 260, 64, kLayouts, false, 0, ReducerKind::Host));
    EXPECT_TRUE(td::unmtr_and_check<T>(ctx, uplo, 600, 256, {{64, 600}}, true));
  }
}

}  // namespace
