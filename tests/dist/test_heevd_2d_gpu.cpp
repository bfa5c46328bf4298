// SPDX-License-Identifier: BSD-3-Clause
// heevd_2d with the work on the GPUs of every rank (the 2-D local arrays stay in host
// memory, as ScaLAPACK holds them): the checks of the host test
// (tests/dist/heevd_2d_cases.hpp) on every grid that fits in the ranks, Z on its own
// blocks, subsets and values only, and a size above the devices' default block (256).
#include <gtest/gtest.h>

#include <cstdint>
#include <string>

#include "dist/lapack/heevd_2d.hpp"
#include "layouts/block_cyclic_2d.hpp"
#include "tests/dist/gpu_context.hpp"
#include "tests/dist/heevd_2d_cases.hpp"

namespace {

using namespace mgblas;
namespace mt = mgblas::testing;
namespace td = mgblas::testing::dist;

template <typename T>
class Heevd2D_Gpu : public ::testing::Test {};
TYPED_TEST_SUITE(Heevd2D_Gpu, mt::TestScalars, mt::PrecisionName);

TYPED_TEST(Heevd2D_Gpu, GridsAndRanges) {
  using T = TypeParam;
  auto& ctx = td::GpuContext::get();
  for (const auto& [shape, order] : td::grids(ctx->nranks())) {
    const auto [pr, pc] = shape;
    const std::string g = ::mgblas::detail::concat("grid ", pr, "x", pc,
                                                   order == GridOrder::RowMajor ? "R" : "C");
    const int64_t n = 301;
    const BlockCyclic2D Da(n, n, 32, 32, pr, pc, 0, pc - 1, order);
    const BlockCyclic2D Dz(n, n, 16, 48, pc, pr, pc - 1, 0, order);
    EXPECT_TRUE(td::run_case<T>(ctx, {n, Da, &Da, EigenRange::all(), 0, Uplo::Lower}, g + " all"));
    EXPECT_TRUE(td::run_case<T>(ctx, {n, Da, &Dz, EigenRange::index(0, 0), 1, Uplo::Upper},
                                g + " k = 1"));
    EXPECT_TRUE(td::run_case<T>(ctx, {n, Da, &Dz, EigenRange::index(n - 30, n - 1), 0,
                                      Uplo::Lower},
                                g + " top 30"));
    EXPECT_TRUE(td::run_case<T>(ctx, {n, Da, &Dz, EigenRange::value(-1.0, 1.0), 2, Uplo::Lower},
                                g + " value range"));
    EXPECT_TRUE(td::run_case<T>(ctx, {n, Da, nullptr, EigenRange::all(), 0, Uplo::Upper},
                                g + " values only"));
  }
  // Several 256-wide block columns per device.
  const BlockCyclic2D D(1100, 1100, 64, 64, 1, ctx->nranks());
  EXPECT_TRUE(td::run_case<T>(ctx, {1100, D, &D, EigenRange::all(), 0, Uplo::Lower}, "n = 1100"));
}

}  // namespace
