// SPDX-License-Identifier: BSD-3-Clause
// hetrd_2d and gebrd_2d with the work on the GPUs of every rank (the 2-D local arrays stay
// in host memory, as ScaLAPACK holds them): the checks of the host test
// (tests/dist/reductions_2d_cases.hpp: the same results as hetrd_mgpu / gebrd_mgpu on a
// 1-D DistMatrix, the factorization, the local arrays' other triangle and padding) on
// every grid that fits in the ranks, both triangles, tall and wide matrices, and sizes
// above the devices' default block (256).
#include <gtest/gtest.h>

#include <cstdint>
#include <string>

#include "dist/lapack/gebrd_2d.hpp"
#include "dist/lapack/hetrd_2d.hpp"
#include "layouts/block_cyclic_2d.hpp"
#include "tests/dist/gpu_context.hpp"
#include "tests/dist/reductions_2d_cases.hpp"

namespace {

using namespace mgblas;
namespace mt = mgblas::testing;
namespace td = mgblas::testing::dist;

template <typename T>
class Reductions2D_Gpu : public ::testing::Test {};
TYPED_TEST_SUITE(Reductions2D_Gpu, mt::TestScalars, mt::PrecisionName);

TYPED_TEST(Reductions2D_Gpu, GridsBothShapes) {
  using T = TypeParam;
  auto& ctx = td::GpuContext::get();
  for (const auto& [shape, order] : td::grids(ctx->nranks())) {
    const auto [pr, pc] = shape;
    const std::string g = ::mgblas::detail::concat("grid ", pr, "x", pc,
                                                   order == GridOrder::RowMajor ? "R" : "C");
    const BlockCyclic2D Da(301, 301, 32, 32, pr, pc, 0, pc - 1, order);
    EXPECT_TRUE(td::hetrd_2d_case<T>(ctx, Da, Uplo::Lower, g));
    EXPECT_TRUE(td::hetrd_2d_case<T>(ctx, Da, Uplo::Upper, g));
    const BlockCyclic2D tall(333, 211, 24, 40, pr, pc, pr - 1, 0, order);
    const BlockCyclic2D wide(211, 333, 40, 24, pr, pc, 0, 0, order);
    EXPECT_TRUE(td::gebrd_2d_case<T>(ctx, tall, g + " tall"));
    EXPECT_TRUE(td::gebrd_2d_case<T>(ctx, wide, g + " wide"));
  }
  // Several 256-wide block columns per device.
  const BlockCyclic2D D(1100, 1100, 64, 64, 1, ctx->nranks());
  EXPECT_TRUE(td::hetrd_2d_case<T>(ctx, D, Uplo::Lower, "n = 1100"));
  const BlockCyclic2D G(1300, 1100, 64, 64, ctx->nranks(), 1);
  EXPECT_TRUE(td::gebrd_2d_case<T>(ctx, G, "1300 x 1100"));
}

}  // namespace
