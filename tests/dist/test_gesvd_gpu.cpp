// SPDX-License-Identifier: BSD-3-Clause
// gesvd_mgpu on the GPUs of every rank (gebrd_mgpu, bidiag_svd's GPU engine and
// unmbr_mgpu on the CUDA engine): the checks of the host test (tests/dist/svd_cases.hpp)
// on a CUDA context, at sizes past the host test's.
#include <gtest/gtest.h>

#include <limits>
#include <memory>
#include <tuple>
#include <utility>

#include "core/context.hpp"
#include "tests/dist/gpu_context.hpp"
#include "tests/dist/svd_cases.hpp"

namespace {

using namespace mgblas;
namespace mt = mgblas::testing;
namespace td = mgblas::testing::dist;
using td::GpuContext;
using td::SvdCase;
using td::SvdMatrix;

template <typename T>
class Gesvd_Gpu : public ::testing::Test {};
TYPED_TEST_SUITE(Gesvd_Gpu, mt::TestScalars, mt::PrecisionName);

TYPED_TEST(Gesvd_Gpu, ShapesAndVectorSets) {
  using T = TypeParam;
  auto& ctx = GpuContext::get();
  for (auto [m, n] : {std::pair<int64_t, int64_t>{1, 1}, {37, 37}, {300, 120}, {120, 300},
                      {517, 517}}) {
    const int64_t nb = m > 100 ? 64 : 8;
    EXPECT_TRUE(td::svd_case<T>(ctx, SvdCase{m, n, nb, -1, true, true, false, 0, 32}));
    EXPECT_TRUE(td::svd_case<T>(ctx, SvdCase{m, n, nb, std::max<int64_t>(1, std::min(m, n) / 10),
                                             true, true, false, 1, 8}));
    EXPECT_TRUE(td::svd_case<T>(ctx, SvdCase{m, n, nb, 0}));
    EXPECT_TRUE(td::svd_case<T>(ctx, SvdCase{m, n, nb, -1, true, true, true, 0, 16}));
  }
}

TYPED_TEST(Gesvd_Gpu, HardSpectra) {
  using T = TypeParam;
  auto& ctx = GpuContext::get();
  for (SvdMatrix kind : {SvdMatrix::Graded, SvdMatrix::Clustered, SvdMatrix::RankDeficient})
    for (auto [m, n] : {std::pair<int64_t, int64_t>{400, 400}, {800, 100}, {100, 500}, {64, 40}}) {
      SvdCase c{m, n, 64, -1, true, true, false, 0, 32};
      c.kind = kind;
      EXPECT_TRUE(td::svd_case<T>(ctx, c));
    }
}

// The two-stage reduction forced (GPU stage one, the GPU bulge chase, Q2 and P2 by
// band_to_tridiag_apply_q): square and tall, bands 8 to 64, QR first or not.
TYPED_TEST(Gesvd_Gpu, TwoStage) {
  using T = TypeParam;
  auto& ctx = GpuContext::get();
  for (auto [m, n, band] : {std::tuple<int64_t, int64_t, int64_t>{1, 1, 8}, {37, 37, 8},
                            {300, 120, 32}, {517, 517, 64}, {1000, 1000, 32}}) {
    const int64_t nb = m > 100 ? 64 : 8;
    SvdCase c{m, n, nb, -1, true, true, false, 0, 32};
    c.stages = Stages::Two;
    c.band = band;
    c.qr_ratio = std::numeric_limits<double>::infinity();
    EXPECT_TRUE(td::svd_case<T>(ctx, c));
    SvdCase few{m, n, nb, std::max<int64_t>(1, n / 10), true, true, false, 1, 8};
    few.stages = Stages::Two;
    few.band = band;
    few.qr_ratio = 0;
    EXPECT_TRUE(td::svd_case<T>(ctx, few));
    SvdCase values{m, n, nb, 0};
    values.stages = Stages::Two;
    values.band = band;
    EXPECT_TRUE(td::svd_case<T>(ctx, values));
  }
  for (SvdMatrix kind : {SvdMatrix::Graded, SvdMatrix::Clustered, SvdMatrix::RankDeficient}) {
    SvdCase c{400, 400, 64, -1, true, true, false, 0, 32};
    c.kind = kind;
    c.stages = Stages::Two;
    EXPECT_TRUE(td::svd_case<T>(ctx, c));
  }
}

}  // namespace
