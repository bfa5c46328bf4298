// SPDX-License-Identifier: BSD-3-Clause
// unmbr_mgpu on the GPUs of every rank (the CUDA engine's explicit-V, larft and scatter
// kernels, cuBLAS products, NCCL or host transport of the blocks and of P's gathered
// rows): the checks of the host test (tests/dist/unmbr_cases.hpp) on a CUDA context,
// plus larger sizes.
#include <gtest/gtest.h>

#include <memory>
#include <utility>
#include <vector>

#include "core/context.hpp"
#include "tests/dist/gpu_context.hpp"
#include "tests/dist/unmbr_cases.hpp"

namespace {

using namespace mgblas;
namespace mt = mgblas::testing;
namespace td = mgblas::testing::dist;

using td::GpuContext;

const std::vector<std::pair<int64_t, int64_t>> kLayouts = {{1, 5}, {7, 37}, {32, 1}};

template <typename T>
class Unmbr_Gpu : public ::testing::Test {};
TYPED_TEST_SUITE(Unmbr_Gpu, mt::TestScalars, mt::PrecisionName);

TYPED_TEST(Unmbr_Gpu, SizesAndBlockings) {
  using T = TypeParam;
  auto& ctx = GpuContext::get();
  for (int64_t nb : {1, 16, 64})
    for (const auto& [m, n] : std::vector<std::pair<int64_t, int64_t>>{
             {1, 1}, {2, 1}, {1, 2}, {2, 2}, {17, 17}, {65, 33}, {33, 65}, {200, 130}, {130, 200}})
      EXPECT_TRUE(td::unmbr_and_check<T>(ctx, m, n, nb, kLayouts, (m + n) % 2 == 1));
}

TYPED_TEST(Unmbr_Gpu, PanelsAndTransports) {
  using T = TypeParam;
  auto& ctx = GpuContext::get();
  EXPECT_TRUE(td::unmbr_and_check<T>(ctx, 517, 300, 64, {{32, 37}}, false, 32));
  EXPECT_TRUE(td::unmbr_and_check<T>(ctx, 300, 517, 128, {{7, 5}}, true, 128));
  EXPECT_TRUE(td::unmbr_and_check<T>(ctx, 260, 260, 64, kLayouts, false, 0, ReducerKind::Host));
  EXPECT_TRUE(td::unmbr_and_check<T>(ctx, 200, 390, 64, {{16, 70}}, true, 0, ReducerKind::Host));
  EXPECT_TRUE(td::unmbr_and_check<T>(ctx, 600, 600, 256, {{64, 600}}, true));
}

}  // namespace
