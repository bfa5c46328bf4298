// SPDX-License-Identifier: BSD-3-Clause
// gesvd_2d with the work on the GPUs of every rank (the 2-D local arrays stay in host
// memory, as ScaLAPACK holds them): the checks of the host test
// (tests/dist/gesvd_2d_cases.hpp) on every grid that fits in the ranks, U and V on their
// own blocks, tall and wide A, some vectors and values only, and a size above the
// devices' default block (256).
#include <gtest/gtest.h>

#include <cstdint>
#include <string>

#include "dist/lapack/gesvd_2d.hpp"
#include "layouts/block_cyclic_2d.hpp"
#include "tests/dist/gesvd_2d_cases.hpp"
#include "tests/dist/gpu_context.hpp"

namespace {

using namespace mgblas;
namespace mt = mgblas::testing;
namespace td = mgblas::testing::dist;

template <typename T>
class Gesvd2D_Gpu : public ::testing::Test {};
TYPED_TEST_SUITE(Gesvd2D_Gpu, mt::TestScalars, mt::PrecisionName);

TYPED_TEST(Gesvd2D_Gpu, GridsAndShapes) {
  using T = TypeParam;
  auto& ctx = td::GpuContext::get();
  for (const auto& [shape, order] : td::grids(ctx->nranks())) {
    const auto [pr, pc] = shape;
    const std::string g = ::mgblas::detail::concat("grid ", pr, "x", pc,
                                                   order == GridOrder::RowMajor ? "R" : "C");
    for (const auto [m, n] : {std::pair<int64_t, int64_t>{301, 190}, {190, 301}}) {
      const BlockCyclic2D Da(m, n, 32, 32, pr, pc, 0, pc - 1, order);
      const BlockCyclic2D Du(m, m, 16, 48, pc, pr, pc - 1, 0, order);
      const BlockCyclic2D Dv(n, n, 48, 16, pr, pc, 0, 0, order);
      EXPECT_TRUE(td::run_svd_case<T>(ctx, {m, n, Da, &Du, &Dv, -1, 1}, g + " all"));
      EXPECT_TRUE(td::run_svd_case<T>(ctx, {m, n, Da, &Du, &Dv, 10, 0}, g + " 10"));
      EXPECT_TRUE(td::run_svd_case<T>(ctx, {m, n, Da, nullptr, nullptr}, g + " values only"));
    }
  }
  // Several 256-wide block columns per device.
  const BlockCyclic2D D(1100, 900, 64, 64, 1, ctx->nranks());
  EXPECT_TRUE(td::run_svd_case<T>(ctx, {1100, 900, D, &D, &D, -1, 0}, "1100 x 900"));
}

}  // namespace
