// SPDX-License-Identifier: BSD-3-Clause
// unmtr_mgpu / ormtr_mgpu on host devices and MPI ranks (the CI side; the GPU side is
// tests/dist/test_unmtr_gpu.cpp): Q of hetrd_mgpu against LAPACK's ?orgtr/?ungtr, Q C
// against the product with it, Q^H Q C = C, and A's eigenvectors from T's; bad arguments
// raising on every rank with C left as it was.
#include <gtest/gtest.h>

#include <memory>
#include <utility>
#include <vector>

#include "core/context.hpp"
#include "dist/lapack/unmtr_mgpu.hpp"
#include "tests/dist/dist_test_helpers.hpp"
#include "tests/dist/host_contexts.hpp"
#include "tests/dist/unmtr_cases.hpp"

namespace {

using namespace mgblas;
namespace mt = mgblas::testing;
namespace td = mgblas::testing::dist;
using td::HostContexts;

// (C's nb, K) pairs: every C nb of {1, 7, 32} and every K of {1, 5, 37}, the Q and
// eigenvector checks always on n x n. The upper triangle's sweep over sizes takes one of
// them (what differs between the triangles is where the reflectors lie in A, not C's
// layout); its panel cases take all three.
const std::vector<std::pair<int64_t, int64_t>> kLayouts = {{1, 5}, {7, 37}, {32, 1}};
const std::vector<std::pair<int64_t, int64_t>> kOneLayout = {{7, 37}};

template <typename T>
class Unmtr_Host : public ::testing::Test {};
TYPED_TEST_SUITE(Unmtr_Host, mt::TestScalars, mt::PrecisionName);

TYPED_TEST(Unmtr_Host, SizesAndBlockings) {
  using T = TypeParam;
  for (const auto& ctx : HostContexts::all())
    for (int64_t nb : {1, 16, 64})
      for (int64_t n : {1, 2, 17, 64, 65, 200}) {
        // n = 200 in blocks of one column on several devices: as hetrd's test, too slow
        // for what it adds.
        if (nb == 1 && n == 200 && ctx->num_devices() > 1) continue;
        EXPECT_TRUE(td::unmtr_and_check<T>(ctx, Uplo::Lower, n, nb, kLayouts, n % 2 == 1));
        EXPECT_TRUE(td::unmtr_and_check<T>(ctx, Uplo::Upper, n, nb, kOneLayout, n % 2 == 0));
      }
}

TYPED_TEST(Unmtr_Host, PanelNarrowerThanBlock) {
  using T = TypeParam;
  for (const auto& ctx : HostContexts::all()) {
    for (Uplo uplo : {Uplo::Lower, Uplo::Upper}) {
      EXPECT_TRUE(td::unmtr_and_check<T>(ctx, uplo, 70, 16, kLayouts, false, 4));
      EXPECT_TRUE(td::unmtr_and_check<T>(ctx, uplo, 133, 64, kLayouts, true, 16));
      EXPECT_TRUE(td::unmtr_and_check<T>(ctx, uplo, 50, 6, kLayouts, false, 3));
      EXPECT_TRUE(td::unmtr_and_check<T>(ctx, uplo, 150, 128, kOneLayout, true, 128));
    }
  }
}

//  +-------------------------------------------------------------------------------+
//  |  A bad argument raises on every rank (all ranks passing it: the same error)     |
//  |  and leaves C as it was.                                                        |
//  +-------------------------------------------------------------------------------+
TYPED_TEST(Unmtr_Host, BadArgumentsRaiseEverywhere) {
  using T = TypeParam;
  auto ctx = HostContexts::all()[1];
  const int64_t n = 40, K = 9;
  const td::Reduced<T> r = td::reduce<T>(ctx, Uplo::Lower, n, 8, false);
  auto rng = mt::make_rng();
  std::vector<T> C0 = mt::random_vector<T>(static_cast<std::size_t>(n * K), rng);
  ctx->comm().bcast(C0.data(), C0.size() * sizeof(T), 0);
  DistMatrix<T> C = td::scatter<T>(ctx, n, K, 4, 0, C0);
  const auto unchanged = [&] { return td::gather(C) == C0; };
  const T* tau = r.tau.data();
  const DistMatrix<T>& A = *r.A;

  EXPECT_TRUE(td::everywhere(*ctx, td::raises<BadArgument>([&] {
    unmtr_mgpu<T>(static_cast<Uplo>('x'), Op::N, A, tau, C);
  }), "bad uplo"));
  EXPECT_TRUE(td::everywhere(*ctx, td::raises<BadArgument>([&] {
    unmtr_mgpu<T>(Uplo::Lower, static_cast<Op>('x'), A, tau, C);
  }), "bad op"));
  if constexpr (is_complex_v<T>) {
    EXPECT_TRUE(td::everywhere(*ctx, td::raises<BadArgument>([&] {
      unmtr_mgpu<T>(Uplo::Lower, Op::T, A, tau, C);
    }), "Op::T on a complex type"));
  }
  UnmtrOptions bad;
  bad.panel = 3;  // does not divide nb = 8
  EXPECT_TRUE(td::everywhere(*ctx, td::raises<BadArgument>([&] {
    unmtr_mgpu<T>(Uplo::Lower, Op::N, A, tau, C, bad);
  }), "panel"));
  EXPECT_TRUE(td::everywhere(*ctx, td::raises<BadArgument>([&] {
    unmtr_mgpu<T>(Uplo::Lower, Op::N, A, static_cast<const T*>(nullptr), C);
  }), "null tau"));
  DistVector<T> long_tau(ctx, n);
  EXPECT_TRUE(td::everywhere(*ctx, td::raises<DimensionMismatch>([&] {
    unmtr_mgpu<T>(Uplo::Lower, Op::N, A, long_tau, C);
  }), "tau of n entries"));
  DistMatrix<T> tall(ctx, BlockCyclic1D(n + 1, K, 4, ctx->global_num_devices()));
  EXPECT_TRUE(td::everywhere(*ctx, td::raises<DimensionMismatch>([&] {
    unmtr_mgpu<T>(Uplo::Lower, Op::N, A, tau, tall);
  }), "C with n + 1 rows"));
  DistMatrix<T> rect(ctx, BlockCyclic1D(n, n - 1, 8, ctx->global_num_devices()));
  EXPECT_TRUE(td::everywhere(*ctx, td::raises<DimensionMismatch>([&] {
    unmtr_mgpu<T>(Uplo::Lower, Op::N, rect, tau, C);
  }), "A not square"));
  auto other = HostContexts::all()[0];
  DistMatrix<T> elsewhere(other, BlockCyclic1D(n, K, 4, other->global_num_devices()));
  EXPECT_TRUE(td::everywhere(*ctx, td::raises<BadArgument>([&] {
    unmtr_mgpu<T>(Uplo::Lower, Op::N, A, tau, elsewhere);
  }), "C on another context"));
  // One rank alone passes a bad panel: it raises BadArgument, the others RemoteError or
  // DimensionMismatch (the call differs), and no rank starts the application.
  UnmtrOptions mine;
  mine.panel = ctx->rank() == ctx->nranks() - 1 ? 5 : 4;
  bool raised = false;
  try {
    unmtr_mgpu<T>(Uplo::Lower, Op::N, A, tau, C, mine);
  } catch (const Error&) {
    raised = true;
  }
  EXPECT_TRUE(td::everywhere(*ctx, raised, "one rank's bad panel"));
  EXPECT_TRUE(td::everywhere(*ctx, unchanged(), "C unchanged"));
}

//  +-------------------------------------------------------------------------------+
//  |  ormtr_mgpu forwards: Op::T on a real type is Op::C, so ormtr(T, ormtr(N, C))  |
//  |  = C to || . ||_F / (n ||C||_F eps) <= 20; K = 0 and n = 1 leave C alone.       |
//  +-------------------------------------------------------------------------------+
TEST(Ormtr_Host, RealNameForwardsAndQuickReturns) {
  auto ctx = HostContexts::all()[2];
  const int64_t n = 33, K = 4;
  const td::Reduced<double> r = td::reduce<double>(ctx, Uplo::Upper, n, 8, true);
  auto rng = mt::make_rng();
  std::vector<double> C0 = mt::random_vector<double>(static_cast<std::size_t>(n * K), rng);
  ctx->comm().bcast(C0.data(), C0.size() * sizeof(double), 0);
  DistMatrix<double> C = td::scatter<double>(ctx, n, K, 2, 1, C0);
  ormtr_mgpu<double>(Uplo::Upper, Op::N, *r.A, *r.tau_dist, C);
  ormtr_mgpu<double>(Uplo::Upper, Op::T, *r.A, r.tau.data(), C);
  const double err = td::diff_fro(td::gather(C), C0) /
                     (n * mt::norm_fro(n, K, C0.data(), n) * mt::eps<double>());
  EXPECT_TRUE(td::everywhere(*ctx, err <= 20, "ormtr round trip " + std::to_string(err)));
  DistMatrix<double> empty(ctx, BlockCyclic1D(n, 0, 2, ctx->global_num_devices()));
  ormtr_mgpu<double>(Uplo::Upper, Op::N, *r.A, static_cast<const double*>(nullptr), empty);
  const td::Reduced<double> one = td::reduce<double>(ctx, Uplo::Lower, 1, 8, false);
  std::vector<double> c1 = {0.25, -0.5};
  DistMatrix<double> C1 = td::scatter<double>(ctx, 1, 2, 1, 0, c1);
  ormtr_mgpu<double>(Uplo::Lower, Op::N, *one.A, static_cast<const double*>(nullptr), C1);
  EXPECT_TRUE(td::everywhere(*ctx, td::gather(C1) == c1, "n = 1: Q = I"));
}

}  // namespace
