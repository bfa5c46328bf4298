// SPDX-License-Identifier: BSD-3-Clause
// geqrf_mgpu on the GPUs of every rank (cuSOLVER's panel QR, the CUDA engine's explicit-V
// and larft kernels, cuBLAS products, NCCL or host transport of the blocks and tau): the
// checks of the host test (tests/dist/geqrf_cases.hpp) on a CUDA context, plus larger sizes.
#include <gtest/gtest.h>

#include <memory>
#include <utility>
#include <vector>

#include "core/context.hpp"
#include "tests/dist/geqrf_cases.hpp"
#include "tests/dist/gpu_context.hpp"

namespace {

using namespace mgblas;
namespace mt = mgblas::testing;
namespace td = mgblas::testing::dist;

using td::GpuContext;

template <typename T>
class Geqrf_Gpu : public ::testing::Test {};
TYPED_TEST_SUITE(Geqrf_Gpu, mt::TestScalars, mt::PrecisionName);

TYPED_TEST(Geqrf_Gpu, SizesAndBlockings) {
  using T = TypeParam;
  auto& ctx = GpuContext::get();
  for (int64_t nb : {1, 16, 64})
    for (const auto& [m, n] : std::vector<std::pair<int64_t, int64_t>>{
             {1, 1}, {2, 1}, {1, 2}, {2, 2}, {17, 17}, {65, 33}, {33, 65}, {200, 130}, {130, 200}})
      EXPECT_TRUE(td::geqrf_and_check<T>(ctx, m, n, nb, 0, ReducerKind::Auto,
                                         static_cast<int>((m + n) % 2)));
}

TYPED_TEST(Geqrf_Gpu, PanelsAndTransports) {
  using T = TypeParam;
  auto& ctx = GpuContext::get();
  EXPECT_TRUE(td::geqrf_and_check<T>(ctx, 517, 300, 64, 32));
  EXPECT_TRUE(td::geqrf_and_check<T>(ctx, 300, 517, 128, 128));
  EXPECT_TRUE(td::geqrf_and_check<T>(ctx, 260, 260, 64, 0, ReducerKind::Host));
  EXPECT_TRUE(td::geqrf_and_check<T>(ctx, 2000, 300, 64, 0, ReducerKind::Host, 1));
  EXPECT_TRUE(td::geqrf_and_check<T>(ctx, 3000, 600, 256));
}

}  // namespace
