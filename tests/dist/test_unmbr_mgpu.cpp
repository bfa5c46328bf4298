// SPDX-License-Identifier: BSD-3-Clause
// unmbr_mgpu / ormbr_mgpu on host devices and MPI ranks (the CI side; the GPU side is
// tests/dist/test_unmbr_gpu.cpp): Q and P of gebrd_mgpu applied with op N and op C
// against LAPACK's ?unmbr / ?ormbr on the gathered reflectors, op C undoing op N, and
// Q^H A P = B; bad arguments raising on every rank with C left as it was.
#include <gtest/gtest.h>

#include <algorithm>
#include <memory>
#include <tuple>
#include <utility>
#include <vector>

#include "core/context.hpp"
#include "dist/lapack/unmbr_mgpu.hpp"
#include "tests/dist/dist_test_helpers.hpp"
#include "tests/dist/host_contexts.hpp"
#include "tests/dist/unmbr_cases.hpp"

namespace {

using namespace mgblas;
namespace mt = mgblas::testing;
namespace td = mgblas::testing::dist;
using td::HostContexts;

// (C's nb, K) pairs: C's blocks of 1, 7 and 32 columns, K of 5, 37 and 1.
const std::vector<std::pair<int64_t, int64_t>> kLayouts = {{1, 5}, {7, 37}, {32, 1}};
const std::vector<std::pair<int64_t, int64_t>> kOneLayout = {{7, 37}};

// m x n: tiny, square, tall, wide, and sizes that are not multiples of the blocks.
const std::vector<std::pair<int64_t, int64_t>> kShapes = {
    {1, 1},   {1, 2},   {2, 1},   {2, 2},   {1, 5},   {5, 1},   {2, 7},    {7, 2},
    {17, 17}, {40, 17}, {17, 40}, {64, 64}, {65, 33}, {33, 65}, {100, 37}, {37, 100}};

template <typename T>
class Unmbr_Host : public ::testing::Test {};
TYPED_TEST_SUITE(Unmbr_Host, mt::TestScalars, mt::PrecisionName);

TYPED_TEST(Unmbr_Host, SizesAndBlockings) {
  using T = TypeParam;
  for (const auto& ctx : HostContexts::all())
    for (int64_t nb : {1, 5, 16})
      for (const auto& [m, n] : kShapes) {
        // Blocks of one column on several devices beyond 40: as gebrd's test, too slow
        // for what it adds.
        if (nb == 1 && std::max(m, n) > 40 && ctx->num_devices() > 1) continue;
        EXPECT_TRUE(td::unmbr_and_check<T>(ctx, m, n, nb, nb == 5 ? kLayouts : kOneLayout,
                                           (m + n) % 2 == 1));
      }
}

TYPED_TEST(Unmbr_Host, PanelNarrowerThanBlock) {
  using T = TypeParam;
  for (const auto& ctx : HostContexts::all()) {
    EXPECT_TRUE(td::unmbr_and_check<T>(ctx, 70, 50, 16, kLayouts, false, 4));
    EXPECT_TRUE(td::unmbr_and_check<T>(ctx, 50, 70, 16, kLayouts, true, 4));
    EXPECT_TRUE(td::unmbr_and_check<T>(ctx, 133, 64, 64, kOneLayout, true, 16));
    EXPECT_TRUE(td::unmbr_and_check<T>(ctx, 64, 133, 64, kOneLayout, false, 16));
    EXPECT_TRUE(td::unmbr_and_check<T>(ctx, 50, 50, 6, kLayouts, false, 3));
    EXPECT_TRUE(td::unmbr_and_check<T>(ctx, 150, 140, 128, kOneLayout, true, 128));
  }
}

//  +-------------------------------------------------------------------------------+
//  |  A bad argument raises on every rank (all ranks passing it: the same error)     |
//  |  and leaves C as it was.                                                        |
//  +-------------------------------------------------------------------------------+
TYPED_TEST(Unmbr_Host, BadArgumentsRaiseEverywhere) {
  using T = TypeParam;
  auto ctx = HostContexts::all()[1];
  const int64_t m = 40, n = 30, K = 9;  // vect Q takes 40 rows of C, vect P 30
  const td::BidiagReduced<T> r = td::reduce_bidiagonal<T>(ctx, m, n, 8, false);
  auto rng = mt::make_rng();
  std::vector<T> C0 = mt::random_vector<T>(static_cast<std::size_t>(m * K), rng);
  ctx->comm().bcast(C0.data(), C0.size() * sizeof(T), 0);
  DistMatrix<T> C = td::scatter<T>(ctx, m, K, 4, 0, C0);
  const auto unchanged = [&] { return td::gather(C) == C0; };
  const T* tau = r.tauq.data();
  const DistMatrix<T>& A = *r.AQ;

  EXPECT_TRUE(td::everywhere(*ctx, td::raises<BadArgument>([&] {
    unmbr_mgpu<T>(static_cast<Vect>('x'), Op::N, A, tau, C);
  }), "bad vect"));
  EXPECT_TRUE(td::everywhere(*ctx, td::raises<BadArgument>([&] {
    unmbr_mgpu<T>(Vect::Q, static_cast<Op>('x'), A, tau, C);
  }), "bad op"));
  if constexpr (is_complex_v<T>) {
    EXPECT_TRUE(td::everywhere(*ctx, td::raises<BadArgument>([&] {
      unmbr_mgpu<T>(Vect::Q, Op::T, A, tau, C);
    }), "Op::T on a complex type"));
  }
  UnmtrOptions bad;
  bad.panel = 3;  // does not divide nb = 8
  EXPECT_TRUE(td::everywhere(*ctx, td::raises<BadArgument>([&] {
    unmbr_mgpu<T>(Vect::Q, Op::N, A, tau, C, bad);
  }), "panel"));
  bad.panel = -1;
  EXPECT_TRUE(td::everywhere(*ctx, td::raises<BadArgument>([&] {
    unmbr_mgpu<T>(Vect::Q, Op::C, A, tau, C, bad);
  }), "negative panel"));
  EXPECT_TRUE(td::everywhere(*ctx, td::raises<BadArgument>([&] {
    unmbr_mgpu<T>(Vect::Q, Op::N, A, static_cast<const T*>(nullptr), C);
  }), "null tau"));
  DistVector<T> long_tau(ctx, std::min(m, n) + 1);
  EXPECT_TRUE(td::everywhere(*ctx, td::raises<DimensionMismatch>([&] {
    unmbr_mgpu<T>(Vect::Q, Op::N, A, long_tau, C);
  }), "tau of k + 1 entries"));
  // vect P on the 40 x 30 A needs 30 rows: C's 40 are vect Q's.
  EXPECT_TRUE(td::everywhere(*ctx, td::raises<DimensionMismatch>([&] {
    unmbr_mgpu<T>(Vect::P, Op::N, *r.AP, r.taup.data(), C);
  }), "C with m rows for vect P"));
  DistMatrix<T> short_c(ctx, BlockCyclic1D(n, K, 4, ctx->global_num_devices()));
  EXPECT_TRUE(td::everywhere(*ctx, td::raises<DimensionMismatch>([&] {
    unmbr_mgpu<T>(Vect::Q, Op::N, A, tau, short_c);
  }), "C with n rows for vect Q"));
  auto other = HostContexts::all()[0];
  DistMatrix<T> elsewhere(other, BlockCyclic1D(m, K, 4, other->global_num_devices()));
  EXPECT_TRUE(td::everywhere(*ctx, td::raises<BadArgument>([&] {
    unmbr_mgpu<T>(Vect::Q, Op::N, A, tau, elsewhere);
  }), "C on another context"));
  DistVector<T> tau_elsewhere(other, std::min(m, n));
  EXPECT_TRUE(td::everywhere(*ctx, td::raises<BadArgument>([&] {
    unmbr_mgpu<T>(Vect::Q, Op::N, A, tau_elsewhere, C);
  }), "tau on another context"));
  // One rank alone passes a bad panel: it raises BadArgument, the others RemoteError or
  // DimensionMismatch (the call differs), and no rank starts the application.
  UnmtrOptions mine;
  mine.panel = ctx->rank() == ctx->nranks() - 1 ? 5 : 4;
  bool raised = false;
  try {
    unmbr_mgpu<T>(Vect::Q, Op::N, A, tau, C, mine);
  } catch (const Error&) {
    raised = true;
  }
  EXPECT_TRUE(td::everywhere(*ctx, raised, "one rank's bad panel"));
  // One rank alone passes a null tau (the others a valid one): every rank raises.
  raised = false;
  try {
    unmbr_mgpu<T>(Vect::Q, Op::N, A, ctx->rank() == 0 ? nullptr : tau, C);
  } catch (const Error&) {
    raised = true;
  }
  EXPECT_TRUE(td::everywhere(*ctx, raised, "rank 0's null tau"));
  EXPECT_TRUE(td::everywhere(*ctx, unchanged(), "C unchanged"));
}

//  +-------------------------------------------------------------------------------+
//  |  ormbr_mgpu forwards: Op::T on a real type is Op::C, so ormbr(T, ormbr(N, C))  |
//  |  = C to || . ||_F / (l ||C||_F eps) <= 20 for both factors; with nothing to     |
//  |  apply (K = 0, vect P with n = 1, vect Q with m = 1 < n) C is left alone and    |
//  |  tau may be null.                                                             |
//  +-------------------------------------------------------------------------------+
TEST(Ormbr_Host, RealNameForwardsAndQuickReturns) {
  auto ctx = HostContexts::all()[2];
  const int64_t m = 23, n = 33, K = 4;
  const td::BidiagReduced<double> r = td::reduce_bidiagonal<double>(ctx, m, n, 8, true);
  auto rng = mt::make_rng();
  for (Vect vect : {Vect::Q, Vect::P}) {
    const int64_t l = vect == Vect::Q ? m : n;
    std::vector<double> C0 = mt::random_vector<double>(static_cast<std::size_t>(l * K), rng);
    ctx->comm().bcast(C0.data(), C0.size() * sizeof(double), 0);
    DistMatrix<double> C = td::scatter<double>(ctx, l, K, 2, 1, C0);
    ormbr_mgpu<double>(vect, Op::N, r.A(vect), vect == Vect::Q ? *r.tauq_dist : *r.taup_dist, C);
    ormbr_mgpu<double>(vect, Op::T, r.A(vect), r.tau(vect).data(), C);
    const double err = td::diff_fro(td::gather(C), C0) /
                       (l * mt::norm_fro(l, K, C0.data(), l) * mt::eps<double>());
    EXPECT_TRUE(td::everywhere(*ctx, err <= 20, "ormbr round trip " + std::to_string(err)));
    DistMatrix<double> empty(ctx, BlockCyclic1D(l, 0, 2, ctx->global_num_devices()));
    ormbr_mgpu<double>(vect, Op::N, r.A(vect), static_cast<const double*>(nullptr), empty);
  }
  // One column: P = I. One row and more columns: Q = I.
  for (const auto& [m1, n1, vect] : {std::tuple{int64_t{3}, int64_t{1}, Vect::P},
                                     std::tuple{int64_t{1}, int64_t{3}, Vect::Q}}) {
    const td::BidiagReduced<double> one = td::reduce_bidiagonal<double>(ctx, m1, n1, 8, false);
    std::vector<double> c1 = {0.25, -0.5};
    DistMatrix<double> C1 = td::scatter<double>(ctx, 1, 2, 1, 0, c1);
    ormbr_mgpu<double>(vect, Op::N, one.A(vect), static_cast<const double*>(nullptr), C1);
    EXPECT_TRUE(td::everywhere(*ctx, td::gather(C1) == c1, "identity factor left C alone"));
  }
}

}  // namespace
