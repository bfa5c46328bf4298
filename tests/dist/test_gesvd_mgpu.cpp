// SPDX-License-Identifier: BSD-3-Clause
// gesvd_mgpu on host devices and MPI ranks (the CI side; the GPU side is test_gesvd_gpu):
// random, graded, clustered and rank-deficient matrices; square, tall and wide; all
// vectors, the k largest, one side only, full U / V with the complement, values only;
// bad arguments raise on every rank with s, U and V untouched.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <memory>
#include <string>
#include <tuple>
#include <vector>

#include "core/error.hpp"
#include "dist/lapack/gesvd_mgpu.hpp"
#include "tests/dist/host_contexts.hpp"
#include "tests/dist/svd_cases.hpp"

namespace {

using namespace mgblas;
namespace mt = mgblas::testing;
namespace td = mgblas::testing::dist;
using td::HostContexts;
using td::SvdCase;
using td::SvdMatrix;

template <typename T>
class Gesvd_Host : public ::testing::Test {};
TYPED_TEST_SUITE(Gesvd_Host, mt::TestScalars, mt::PrecisionName);

TYPED_TEST(Gesvd_Host, ShapesAndVectorSets) {
  using T = TypeParam;
  for (const auto& ctx : HostContexts::all())
    for (auto [m, n] : {std::pair<int64_t, int64_t>{1, 1}, {2, 1}, {1, 3}, {3, 3}, {40, 40},
                        {97, 31}, {31, 97}, {130, 64}}) {
      const int64_t k = std::min(m, n), nb = m > 60 ? 16 : 8;
      EXPECT_TRUE(td::svd_case<T>(ctx, SvdCase{m, n, nb}));
      // The k largest, spare columns untouched; values only; one side only.
      const int64_t few = std::max<int64_t>(1, k / 3);
      EXPECT_TRUE(td::svd_case<T>(ctx, SvdCase{m, n, nb, few, true, true, false, 2}));
      EXPECT_TRUE(td::svd_case<T>(ctx, SvdCase{m, n, nb, 0}));
      EXPECT_TRUE(td::svd_case<T>(ctx, SvdCase{m, n, nb, -1, false, false}));
      EXPECT_TRUE(td::svd_case<T>(ctx, SvdCase{m, n, nb, -1, true, false, false, 1}));
      EXPECT_TRUE(td::svd_case<T>(ctx, SvdCase{m, n, nb, few, false, true}));
      // Full U (tall) or V (wide): the complement of Q's or P's first k columns.
      EXPECT_TRUE(td::svd_case<T>(ctx, SvdCase{m, n, nb, -1, true, true, true}));
    }
}

TYPED_TEST(Gesvd_Host, HardSpectra) {
  using T = TypeParam;
  for (const auto& ctx : HostContexts::all())
    for (SvdMatrix kind : {SvdMatrix::Graded, SvdMatrix::Clustered, SvdMatrix::RankDeficient})
      for (auto [m, n] : {std::pair<int64_t, int64_t>{90, 90}, {160, 20}, {20, 75}, {48, 40}}) {
        SvdCase c{m, n, 8};
        c.kind = kind;
        EXPECT_TRUE(td::svd_case<T>(ctx, c));
        c.nvec = 5;
        EXPECT_TRUE(td::svd_case<T>(ctx, c));
      }
}

// A = Q R first (geqrf_mgpu, then the SVD of R; U = Q_R [Q U_B; 0]) against the direct
// reduction, on the same shapes: always (ratio 0, square included) and never.
TYPED_TEST(Gesvd_Host, QrFirstAndDirect) {
  using T = TypeParam;
  for (const auto& ctx : HostContexts::all())
    for (double ratio : {0.0, std::numeric_limits<double>::infinity()})
      for (auto [m, n] : {std::pair<int64_t, int64_t>{1, 1}, {2, 1}, {40, 40}, {97, 31},
                          {130, 12}}) {
        SvdCase c{m, n, 8};
        c.qr_ratio = ratio;
        EXPECT_TRUE(td::svd_case<T>(ctx, c));
        c.nvec = std::max<int64_t>(1, n / 3);
        c.extra = 1;
        EXPECT_TRUE(td::svd_case<T>(ctx, c));
        SvdCase full{m, n, 8, -1, true, true, true};
        full.qr_ratio = ratio;
        full.kind = SvdMatrix::RankDeficient;
        EXPECT_TRUE(td::svd_case<T>(ctx, full));
      }
}

// The two-stage reduction (dense to band over every device, the band's bulge chase on
// each rank's first device, Q = Q1 Q2 and P = P1 P2) forced on square and tall shapes,
// with bands that do and do not divide n, QR first or not, every vector set.
TYPED_TEST(Gesvd_Host, TwoStage) {
  using T = TypeParam;
  for (const auto& ctx : HostContexts::all())
    for (auto [m, n, nb, band] : {std::tuple<int64_t, int64_t, int64_t, int64_t>{1, 1, 8, 4},
                                  {2, 1, 8, 8}, {3, 3, 4, 2}, {40, 40, 8, 8}, {40, 40, 8, 1},
                                  {97, 31, 8, 4}, {130, 64, 16, 8}, {61, 61, 16, 16}}) {
      SvdCase c{m, n, nb};
      c.stages = Stages::Two;
      c.band = band;
      c.qr_ratio = std::numeric_limits<double>::infinity();
      EXPECT_TRUE(td::svd_case<T>(ctx, c));
      c.nvec = std::max<int64_t>(1, n / 3);
      c.extra = 1;
      EXPECT_TRUE(td::svd_case<T>(ctx, c));
      SvdCase full{m, n, nb, -1, true, true, true};
      full.stages = Stages::Two;
      full.band = band;
      full.qr_ratio = 0;  // QR first: the two stages reduce R
      EXPECT_TRUE(td::svd_case<T>(ctx, full));
      SvdCase values{m, n, nb, 0};
      values.stages = Stages::Two;
      values.band = band;
      EXPECT_TRUE(td::svd_case<T>(ctx, values));
      SvdCase right{m, n, nb, -1, false, true};
      right.stages = Stages::Two;
      right.band = band;
      EXPECT_TRUE(td::svd_case<T>(ctx, right));
    }
  for (const auto& ctx : HostContexts::all())
    for (SvdMatrix kind : {SvdMatrix::Graded, SvdMatrix::Clustered, SvdMatrix::RankDeficient}) {
      SvdCase c{90, 90, 8};
      c.kind = kind;
      c.stages = Stages::Two;
      EXPECT_TRUE(td::svd_case<T>(ctx, c));
      c.nvec = 5;
      EXPECT_TRUE(td::svd_case<T>(ctx, c));
    }
}

TYPED_TEST(Gesvd_Host, ConvenienceForm) {
  using T = TypeParam;
  using R = real_type_t<T>;
  auto ctx = HostContexts::all()[1];
  const int64_t m = 50, n = 30;
  std::mt19937_64 rng(mt::test_seed() + 5);
  std::vector<T> A = mt::lapack::random_general<T>(m, n, rng);
  ctx->comm().bcast(A.data(), A.size() * sizeof(T), 0);
  std::vector<R> ref;
  mt::lapack::singular_values<T>(m, n, A, ref);
  DistMatrix<T> dA = td::scatter<T>(ctx, m, n, 8, 0, A);
  SingularSystem<T> sv = gesvd_mgpu<T>(dA, true, 7);
  const bool shape = sv.s.size() == 30 && sv.U && sv.V && sv.U->m() == m && sv.U->n() == 7 &&
                     sv.V->m() == n && sv.V->n() == 7;
  mt::lapack::SvdErrors err;
  if (shape)
    err = mt::lapack::check_svd<T>(m, n, A, td::gather(*sv.U), 7, td::gather(*sv.V), 7, sv.s,
                                   mt::eps<T>());
  EXPECT_TRUE(td::everywhere(*ctx, shape && err.residual <= 30 && err.orth_u <= 30 && err.orth_v <= 30,
                             "convenience form"));
  DistMatrix<T> dB = td::scatter<T>(ctx, m, n, 8, 0, A);
  SingularSystem<T> values = gesvd_mgpu<T>(dB, false);
  std::vector<double> refd(ref.begin(), ref.end());
  EXPECT_TRUE(td::everywhere(
      *ctx, !values.U && !values.V &&
                mt::lapack::singular_value_error<R>(m, n, values.s, refd, mt::eps<T>()) <= 30,
      "values only"));
}

//  +-------------------------------------------------------------------------------+
//  |  A bad argument raises on every rank and leaves s, U and V untouched.           |
//  +-------------------------------------------------------------------------------+
TYPED_TEST(Gesvd_Host, BadArgumentsRaiseEverywhere) {
  using T = TypeParam;
  using R = real_type_t<T>;
  auto ctx = HostContexts::all()[1];
  const int64_t m = 24, n = 16;
  std::mt19937_64 rng(mt::test_seed() + 9);
  std::vector<T> A = mt::lapack::random_general<T>(m, n, rng);
  ctx->comm().bcast(A.data(), A.size() * sizeof(T), 0);
  std::vector<T> U0(static_cast<std::size_t>(m * n), T(-7)), V0(static_cast<std::size_t>(n * n), T(-7));
  DistMatrix<T> U = td::scatter<T>(ctx, m, n, 4, 0, U0);
  DistMatrix<T> V = td::scatter<T>(ctx, n, n, 4, 0, V0);
  std::vector<R> s(n, R(-3));
  const auto untouched = [&] {
    return td::gather(U) == U0 && td::gather(V) == V0 &&
           std::all_of(s.begin(), s.end(), [](R v) { return v == R(-3); });
  };
  const auto expect = [&]<typename E>(E*, auto&& call, const char* why) {
    DistMatrix<T> dA = td::scatter<T>(ctx, m, n, 8, 0, A);
    EXPECT_TRUE(td::everywhere(*ctx, td::raises<E>([&] { call(dA); }), why));
    EXPECT_TRUE(td::everywhere(*ctx, untouched(), std::string(why) + ": outputs touched"));
  };
  expect(static_cast<BadArgument*>(nullptr),
         [&](DistMatrix<T>& a) { gesvd_mgpu<T>(a, s.data(), &U, &V, n + 1); }, "nvec > k");
  expect(static_cast<BadArgument*>(nullptr),
         [&](DistMatrix<T>& a) { gesvd_mgpu<T>(a, s.data(), &U, &V, -2); }, "nvec < -1");
  expect(static_cast<BadArgument*>(nullptr),
         [&](DistMatrix<T>& a) { gesvd_mgpu<T>(a, nullptr, &U, &V); }, "null s");
  expect(static_cast<DimensionMismatch*>(nullptr),
         [&](DistMatrix<T>& a) { gesvd_mgpu<T>(a, s.data(), &V, &V); }, "U with n rows");
  expect(static_cast<DimensionMismatch*>(nullptr),
         [&](DistMatrix<T>& a) { gesvd_mgpu<T>(a, s.data(), &U, &U); }, "V with m rows");
  {
    DistMatrix<T> Unarrow = td::scatter<T>(ctx, m, 3, 4, 0, std::vector<T>(m * 3));
    expect(static_cast<DimensionMismatch*>(nullptr),
           [&](DistMatrix<T>& a) { gesvd_mgpu<T>(a, s.data(), &Unarrow, nullptr, 4); },
           "U with 3 columns for 4 vectors");
  }
  {
    GesvdOptions two;
    two.stages = Stages::Two;
    two.band = 3;  // not a divisor of nb = 8
    expect(static_cast<BadArgument*>(nullptr),
           [&](DistMatrix<T>& a) { gesvd_mgpu<T>(a, s.data(), &U, &V, -1, two); },
           "band 3 with nb 8");
    two.stages = static_cast<Stages>('x');
    expect(static_cast<BadArgument*>(nullptr),
           [&](DistMatrix<T>& a) { gesvd_mgpu<T>(a, s.data(), &U, &V, -1, two); },
           "stages 'x'");
    // Two stages need m >= n: A^H here is 16 x 24.
    two.stages = Stages::Two;
    two.band = 0;
    std::vector<T> W(static_cast<std::size_t>(n * m));
    DistMatrix<T> dW = td::scatter<T>(ctx, n, m, 8, 0, W);
    EXPECT_TRUE(td::everywhere(
        *ctx, td::raises<BadArgument>([&] { gesvd_mgpu<T>(dW, s.data(), nullptr, nullptr, 0, two); }),
        "two stages on a wide matrix"));
    EXPECT_TRUE(td::everywhere(*ctx, untouched(), "two stages on a wide matrix: s touched"));
  }
  if (ctx->comm().size() > 1)
    expect(static_cast<Error*>(nullptr),
           [&](DistMatrix<T>& a) { gesvd_mgpu<T>(a, s.data(), &U, &V, ctx->rank() == 0 ? 3 : 4); },
           "ranks disagree on nvec");
  // A NaN in A: found in B, named as A, on every rank.
  std::vector<T> An = A;
  An[5 + 2 * m] = mt::nan_value<T>();
  DistMatrix<T> dAn = td::scatter<T>(ctx, m, n, 8, 0, An);
  bool named = false;
  try {
    gesvd_mgpu<T>(dAn, s.data(), &U, &V);
  } catch (const BadArgument& e) {
    named = std::string(e.what()).find("'A'") != std::string::npos;
  }
  EXPECT_TRUE(td::everywhere(*ctx, named && untouched(), "NaN in A names A, outputs untouched"));
}

}  // namespace
