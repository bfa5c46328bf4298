// SPDX-License-Identifier: BSD-3-Clause
// geqrf_mgpu on host devices and MPI ranks (the CI side; the GPU side is
// tests/dist/test_geqrf_gpu.cpp): tall, square and wide A of several blockings and panels
// checked against LAPACK (tests/dist/geqrf_cases.hpp), quick returns, NaN propagation, and
// bad arguments raising on every rank with A and tau left as they were.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <utility>
#include <vector>

#include "core/context.hpp"
#include "dist/lapack/geqrf_mgpu.hpp"
#include "tests/dist/dist_test_helpers.hpp"
#include "tests/dist/geqrf_cases.hpp"
#include "tests/dist/host_contexts.hpp"

namespace {

using namespace mgblas;
namespace mt = mgblas::testing;
namespace td = mgblas::testing::dist;
using td::HostContexts;

// m x n: tiny, square, tall, wide, and sizes that are not multiples of the blocks.
const std::vector<std::pair<int64_t, int64_t>> kShapes = {
    {1, 1},   {1, 2},   {2, 1},   {2, 2},   {1, 5},   {5, 1},   {2, 7},    {7, 2},
    {17, 17}, {40, 17}, {17, 40}, {64, 64}, {65, 33}, {33, 65}, {100, 37}, {37, 100},
    {150, 20}};

template <typename T>
class Geqrf_Host : public ::testing::Test {};
TYPED_TEST_SUITE(Geqrf_Host, mt::TestScalars, mt::PrecisionName);

TYPED_TEST(Geqrf_Host, SizesAndBlockings) {
  using T = TypeParam;
  for (const auto& ctx : HostContexts::all())
    for (int64_t nb : {1, 5, 16})
      for (const auto& [m, n] : kShapes)
        EXPECT_TRUE(td::geqrf_and_check<T>(ctx, m, n, nb, 0, ReducerKind::Auto,
                                           static_cast<int>((m + n) % 3)));
}

TYPED_TEST(Geqrf_Host, PanelNarrowerThanBlock) {
  using T = TypeParam;
  for (const auto& ctx : HostContexts::all()) {
    EXPECT_TRUE(td::geqrf_and_check<T>(ctx, 70, 50, 16, 4));
    EXPECT_TRUE(td::geqrf_and_check<T>(ctx, 50, 70, 16, 4));
    EXPECT_TRUE(td::geqrf_and_check<T>(ctx, 133, 64, 64, 16));
    EXPECT_TRUE(td::geqrf_and_check<T>(ctx, 64, 133, 64, 16, ReducerKind::Auto, 1));
    EXPECT_TRUE(td::geqrf_and_check<T>(ctx, 50, 50, 6, 3));
    EXPECT_TRUE(td::geqrf_and_check<T>(ctx, 150, 140, 128, 128));
    EXPECT_TRUE(td::geqrf_and_check<T>(ctx, 300, 90, 8, 1, ReducerKind::Host, 2));
  }
}

//  +-------------------------------------------------------------------------------+
//  |  Quick returns (m = 0 or n = 0: tau may be null) and a NaN propagating.         |
//  +-------------------------------------------------------------------------------+
TEST(Geqrf_Host, QuickReturnsAndNaN) {
  for (const auto& ctx : HostContexts::all()) {
    for (const auto& [m, n] : std::vector<std::pair<int64_t, int64_t>>{{0, 0}, {0, 5}, {5, 0}}) {
      DistMatrix<double> A(ctx, BlockCyclic1D(m, n, 4, ctx->global_num_devices()));
      EXPECT_TRUE(td::everywhere(*ctx, !td::raises<Error>([&] { geqrf_mgpu<double>(A, nullptr); }),
                                 "empty A with a null tau"));
    }
    const int64_t m = 30, n = 12;
    auto rng = mt::make_rng();
    std::vector<double> A0 = mt::random_vector<double>(static_cast<std::size_t>(m * n), rng);
    A0[3 + 2 * m] = std::numeric_limits<double>::quiet_NaN();
    DistMatrix<double> A = td::scatter<double>(ctx, m, n, 4, 0, A0);
    std::vector<double> tau(n, 0.0);
    geqrf_mgpu<double>(A, tau.data());
    const std::vector<double> A1 = td::gather(A);
    // Column 2 holds the NaN: its R entry and everything right of it are NaN.
    EXPECT_TRUE(td::everywhere(*ctx, std::isnan(A1[2 + 2 * m]) && std::isnan(A1[2 + (n - 1) * m]),
                               "NaN propagates"));
    EXPECT_TRUE(td::everywhere(*ctx, !std::isnan(A1[0]) && !std::isnan(A1[1 + 1 * m]),
                               "columns before the NaN finite"));
  }
}

//  +-------------------------------------------------------------------------------+
//  |  A bad argument raises on every rank and leaves A and tau as they were.         |
//  +-------------------------------------------------------------------------------+
TYPED_TEST(Geqrf_Host, BadArgumentsRaiseEverywhere) {
  using T = TypeParam;
  for (const auto& ctx : HostContexts::all()) {
    const int64_t m = 40, n = 30;
    auto rng = mt::make_rng();
    std::vector<T> A0 = mt::random_vector<T>(static_cast<std::size_t>(m * n), rng);
    ctx->comm().bcast(A0.data(), A0.size() * sizeof(T), 0);
    DistMatrix<T> A = td::scatter<T>(ctx, m, n, 8, 0, A0);
    const std::vector<T> tau0(n, T(3));
    std::vector<T> tau(tau0);
    const auto unchanged = [&] { return td::gather(A) == A0 && tau == tau0; };

    EXPECT_TRUE(td::everywhere(*ctx, td::raises<BadArgument>([&] {
      geqrf_mgpu<T>(A, nullptr);
    }), "null tau"));
    for (int64_t p : {3, -1, 16, 256}) {
      GeqrfOptions bad;
      bad.panel = p;  // 3 and 16 do not divide nb = 8; -1 is negative
      EXPECT_TRUE(td::everywhere(*ctx, td::raises<BadArgument>([&] {
        geqrf_mgpu<T>(A, tau.data(), bad);
      }), "panel " + std::to_string(p)));
    }
    DistMatrix<T> wide(ctx, BlockCyclic1D(m, n, 256, ctx->global_num_devices()));
    GeqrfOptions too_wide;
    too_wide.panel = 256;  // divides nb = 256 but is over kLarftMaxBlock
    EXPECT_TRUE(td::everywhere(*ctx, td::raises<BadArgument>([&] {
      geqrf_mgpu<T>(wide, tau.data(), too_wide);
    }), "panel 256 > 128"));
    // One rank alone passes a bad panel or a null tau: every rank raises.
    GeqrfOptions mine;
    mine.panel = ctx->rank() == ctx->nranks() - 1 ? 5 : 4;
    bool raised = false;
    try {
      geqrf_mgpu<T>(A, tau.data(), mine);
    } catch (const Error&) {
      raised = true;
    }
    EXPECT_TRUE(td::everywhere(*ctx, raised || ctx->nranks() == 1, "one rank's bad panel"));
    raised = false;
    try {
      geqrf_mgpu<T>(A, ctx->rank() == 0 ? nullptr : tau.data());
    } catch (const Error&) {
      raised = true;
    }
    EXPECT_TRUE(td::everywhere(*ctx, raised, "rank 0's null tau"));
    EXPECT_TRUE(td::everywhere(*ctx, unchanged(), "A and tau unchanged"));
  }
}

}  // namespace
