// SPDX-License-Identifier: BSD-3-Clause
// hetrd_2d and gebrd_2d (the reductions on ScaLAPACK-style 2-D block-cyclic local arrays)
// on host devices and MPI ranks, without ScaLAPACK (test_scalapack_2d compares with
// p?sytrd / p?gebrd where it is installed): the checks of
// tests/dist/reductions_2d_cases.hpp (the same results as hetrd_mgpu / gebrd_mgpu on a
// 1-D DistMatrix up to rounding, the factorization, the local arrays' other triangle and
// padding) on grids of every shape that fits in the ranks (both orders, source processes
// other than 0), blocks that do not divide the sizes, both triangles, tall and wide
// matrices, n = 0 and 1; bad arguments raise on every rank with a, d, e and tau untouched.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "core/error.hpp"
#include "dist/lapack/gebrd_2d.hpp"
#include "dist/lapack/hetrd_2d.hpp"
#include "layouts/block_cyclic_2d.hpp"
#include "tests/dist/host_contexts.hpp"
#include "tests/dist/reductions_2d_cases.hpp"

namespace {

using namespace mgblas;
namespace mt = mgblas::testing;
namespace td = mgblas::testing::dist;
using td::HostContexts;
using td::grids;
using td::local_ld;

template <typename T>
class Reductions2D_Host : public ::testing::Test {};
TYPED_TEST_SUITE(Reductions2D_Host, mt::TestScalars, mt::PrecisionName);

std::string grid_name(const std::shared_ptr<Context>& ctx, int pr, int pc, GridOrder order) {
  return ::mgblas::detail::concat("ctx devices ", ctx->num_devices(), " grid ", pr, "x", pc,
                                  order == GridOrder::RowMajor ? "R" : "C");
}

TYPED_TEST(Reductions2D_Host, HetrdEveryGrid) {
  using T = TypeParam;
  for (const auto& ctx : HostContexts::all()) {
    const int ranks = ctx->nranks();
    for (const auto& [shape, order] : grids(ranks)) {
      const auto [pr, pc] = shape;
      const std::string g = grid_name(ctx, pr, pc, order);
      // 5 x 3 blocks from the last process; the devices' copy in the automatic blocks
      // and in blocks of 8 with panels of 4.
      const BlockCyclic2D Da(37, 37, 5, 3, pr, pc, pr - 1, pc - 1, order);
      Hetrd2DOptions narrow;
      narrow.nb = 8;
      narrow.hetrd.panel = 4;
      EXPECT_TRUE(td::hetrd_2d_case<T>(ctx, Da, Uplo::Lower, g));
      EXPECT_TRUE(td::hetrd_2d_case<T>(ctx, Da, Uplo::Upper, g, narrow));
    }
    // Square 64 x 64 blocks on the widest grid (p?sytrd's shape), both triangles;
    // one process holding all of a small n; n = 1 and 0.
    const BlockCyclic2D D64(150, 150, 64, 64, 1, ranks);
    EXPECT_TRUE(td::hetrd_2d_case<T>(ctx, D64, Uplo::Lower, "nb 64"));
    EXPECT_TRUE(td::hetrd_2d_case<T>(ctx, D64, Uplo::Upper, "nb 64"));
    const BlockCyclic2D Dbig(9, 9, 16, 16, ranks, 1);
    EXPECT_TRUE(td::hetrd_2d_case<T>(ctx, Dbig, Uplo::Upper, "one block"));
    const BlockCyclic2D D1(1, 1, 4, 4, 1, ranks);
    EXPECT_TRUE(td::hetrd_2d_case<T>(ctx, D1, Uplo::Lower, "n = 1"));
    const BlockCyclic2D D0(0, 0, 4, 4, 1, 1);
    EXPECT_TRUE(td::hetrd_2d_case<T>(ctx, D0, Uplo::Lower, "n = 0"));
  }
}

TYPED_TEST(Reductions2D_Host, GebrdEveryGrid) {
  using T = TypeParam;
  for (const auto& ctx : HostContexts::all()) {
    const int ranks = ctx->nranks();
    for (const auto& [shape, order] : grids(ranks)) {
      const auto [pr, pc] = shape;
      const std::string g = grid_name(ctx, pr, pc, order);
      // Tall (upper bidiagonal) and wide (lower), blocks that divide neither size.
      const BlockCyclic2D tall(41, 23, 4, 3, pr, pc, pr - 1, 0, order);
      const BlockCyclic2D wide(23, 41, 3, 5, pr, pc, 0, pc - 1, order);
      Gebrd2DOptions narrow;
      narrow.nb = 8;
      narrow.gebrd.panel = 4;
      EXPECT_TRUE(td::gebrd_2d_case<T>(ctx, tall, g + " tall"));
      EXPECT_TRUE(td::gebrd_2d_case<T>(ctx, wide, g + " wide", narrow));
      EXPECT_TRUE(td::gebrd_2d_case<T>(ctx, tall, g + " tall", narrow));
    }
    const BlockCyclic2D D64(150, 130, 64, 64, 1, ranks);
    EXPECT_TRUE(td::gebrd_2d_case<T>(ctx, D64, "nb 64"));
    Gebrd2DOptions two;  // the two GEMVs per column instead of the fused step
    two.gebrd.set_pass(GebrdPass::Two);
    const BlockCyclic2D sq(30, 30, 7, 7, ranks, 1);
    EXPECT_TRUE(td::gebrd_2d_case<T>(ctx, sq, "square", two));
    const BlockCyclic2D row(1, 9, 2, 2, 1, ranks);
    EXPECT_TRUE(td::gebrd_2d_case<T>(ctx, row, "1 x 9"));
    const BlockCyclic2D col(9, 1, 2, 2, ranks, 1);
    EXPECT_TRUE(td::gebrd_2d_case<T>(ctx, col, "9 x 1"));
    const BlockCyclic2D empty(0, 5, 4, 4, 1, 1);
    EXPECT_TRUE(td::gebrd_2d_case<T>(ctx, empty, "0 x 5"));
  }
}

// `call` raises on every rank (the ranks that passed the bad value their own error naming
// `name`, the others RemoteError, which quotes it); `untouched` holds everywhere after.
template <typename F, typename U>
void expect_raised(const Context& ctx, F&& call, const char* name, const char* why,
                   U&& untouched) {
  bool named = false, raised = false;
  try {
    call();
  } catch (const Error& e) {  // RemoteError included
    raised = true;
    named = std::string(e.what()).find(name) != std::string::npos;
  }
  EXPECT_TRUE(td::everywhere(ctx, raised && named,
                             std::string(why) + ": not raised naming " + name));
  EXPECT_TRUE(td::everywhere(ctx, untouched(), std::string(why) + ": outputs touched"));
}

//  +-------------------------------------------------------------------------------+
//  |  A bad argument on one rank raises on every rank; a, d, e, tau stay untouched. |
//  +-------------------------------------------------------------------------------+
TYPED_TEST(Reductions2D_Host, HetrdBadArgumentsRaiseEverywhere) {
  using T = TypeParam;
  using R = real_type_t<T>;
  auto ctx = HostContexts::all()[1];
  const int me = ctx->rank(), ranks = ctx->nranks(), last = ranks - 1;
  const int64_t n = 24;
  std::mt19937_64 rng(mt::test_seed() + 13);
  std::vector<T> A = mt::lapack::random_hermitian<T>(n, rng, false);
  ctx->comm().bcast(A.data(), A.size() * sizeof(T), 0);
  const BlockCyclic2D D(n, n, 4, 4, 1, ranks);
  const int64_t ld = local_ld(D, me, 0);
  const std::vector<T> a0 = td::cut_2d(D, me, A, ld, T(0));
  std::vector<T> a = a0, tau(n - 1, T(-3));
  std::vector<R> d(n, R(-3)), e(n - 1, R(-3));
  const auto untouched = [&] {
    return a == a0 && std::all_of(d.begin(), d.end(), [](R v) { return v == R(-3); }) &&
           std::all_of(e.begin(), e.end(), [](R v) { return v == R(-3); }) &&
           std::all_of(tau.begin(), tau.end(), [](T v) { return v == T(-3); });
  };
  const auto expect = [&](auto&& call, const char* name, const char* why) {
    expect_raised(*ctx, call, name, why, untouched);
  };
  T* pa = a.data();
  expect([&] { hetrd_2d<T>(ctx, static_cast<Uplo>('x'), D, pa, ld, d.data(), e.data(),
                           tau.data()); }, "'uplo'", "bad uplo");
  expect([&] {
    hetrd_2d<T>(ctx, Uplo::Lower, D, pa, me == last ? ld - 1 : ld, d.data(), e.data(),
                tau.data());
  }, "'lda'", "lda below the local rows on the last rank");
  expect([&] {
    hetrd_2d<T>(ctx, Uplo::Lower, D, me == last ? nullptr : pa, ld, d.data(), e.data(),
                tau.data());
  }, "'a'", "null a on the last rank");
  expect([&] { hetrd_2d<T>(ctx, Uplo::Lower, D, pa, ld, nullptr, e.data(), tau.data()); },
         "'d'", "null d");
  expect([&] {
    hetrd_2d<T>(ctx, Uplo::Upper, D, pa, ld, d.data(), e.data(),
                me == last ? nullptr : tau.data());
  }, "'tau'", "null tau on the last rank");
  const BlockCyclic2D rect(n, n + 1, 4, 4, 1, ranks);
  expect([&] { hetrd_2d<T>(ctx, Uplo::Lower, rect, pa, ld, d.data(), e.data(), tau.data()); },
         "'desca'", "non-square desca");
  const BlockCyclic2D wide(n, n, 4, 4, 1, ranks + 1);
  expect([&] { hetrd_2d<T>(ctx, Uplo::Lower, wide, pa, ld, d.data(), e.data(), tau.data()); },
         "'desca'", "grid larger than the ranks");
  Hetrd2DOptions neg;
  neg.nb = -1;
  expect([&] { hetrd_2d<T>(ctx, Uplo::Lower, D, pa, ld, d.data(), e.data(), tau.data(), neg); },
         "'opts.nb'", "negative nb");
  Hetrd2DOptions odd;
  odd.nb = 32;
  odd.hetrd.panel = 7;
  expect([&] { hetrd_2d<T>(ctx, Uplo::Lower, D, pa, ld, d.data(), e.data(), tau.data(), odd); },
         "'opts.hetrd.panel'", "panel not dividing the devices' nb");
  if (ranks > 1) {
    // The ranks' descriptors or triangles differ: named by the field on every rank.
    const BlockCyclic2D other(n, n, me == last ? 8 : 4, 4, 1, ranks);
    expect([&] {
      hetrd_2d<T>(ctx, Uplo::Lower, other, pa, ld, d.data(), e.data(), tau.data());
    }, "desca.mb", "desca differs between ranks");
    expect([&] {
      hetrd_2d<T>(ctx, me == last ? Uplo::Upper : Uplo::Lower, D, pa, ld, d.data(), e.data(),
                  tau.data());
    }, "uplo", "uplo differs between ranks");
  }
}

TYPED_TEST(Reductions2D_Host, GebrdBadArgumentsRaiseEverywhere) {
  using T = TypeParam;
  using R = real_type_t<T>;
  auto ctx = HostContexts::all()[1];
  const int me = ctx->rank(), ranks = ctx->nranks(), last = ranks - 1;
  const int64_t m = 20, n = 14;
  std::mt19937_64 rng(mt::test_seed() + 17);
  std::vector<T> A = mt::lapack::random_general<T>(m, n, rng);
  ctx->comm().bcast(A.data(), A.size() * sizeof(T), 0);
  const BlockCyclic2D D(m, n, 4, 4, ranks, 1);
  const int64_t ld = local_ld(D, me, 0);
  const std::vector<T> a0 = td::cut_2d(D, me, A, ld, T(0));
  std::vector<T> a = a0, tauq(n, T(-3)), taup(n, T(-3));
  std::vector<R> d(n, R(-3)), e(n - 1, R(-3));
  const auto untouched = [&] {
    const auto same = [](const auto& v) {
      return std::all_of(v.begin(), v.end(), [](auto x) { return x == decltype(x)(-3); });
    };
    return a == a0 && same(d) && same(e) && same(tauq) && same(taup);
  };
  const auto expect = [&](auto&& call, const char* name, const char* why) {
    expect_raised(*ctx, call, name, why, untouched);
  };
  T* pa = a.data();
  expect([&] {
    gebrd_2d<T>(ctx, D, pa, me == last ? ld - 1 : ld, d.data(), e.data(), tauq.data(),
                taup.data());
  }, "'lda'", "lda below the local rows on the last rank");
  expect([&] {
    gebrd_2d<T>(ctx, D, me == last ? nullptr : pa, ld, d.data(), e.data(), tauq.data(),
                taup.data());
  }, "'a'", "null a on the last rank");
  expect([&] { gebrd_2d<T>(ctx, D, pa, ld, d.data(), nullptr, tauq.data(), taup.data()); },
         "'e'", "null e");
  expect([&] {
    gebrd_2d<T>(ctx, D, pa, ld, d.data(), e.data(), tauq.data(),
                me == last ? nullptr : taup.data());
  }, "'taup'", "null taup on the last rank");
  const BlockCyclic2D big(m, n, 4, 4, ranks + 1, 1);
  expect([&] { gebrd_2d<T>(ctx, big, pa, ld, d.data(), e.data(), tauq.data(), taup.data()); },
         "'desca'", "grid larger than the ranks");
  Gebrd2DOptions odd;
  odd.gebrd.panel = 96;  // > 64 (and not a divisor of the automatic nb)
  expect([&] {
    gebrd_2d<T>(ctx, D, pa, ld, d.data(), e.data(), tauq.data(), taup.data(), odd);
  }, "'opts.gebrd.panel'", "panel above 64");
  Gebrd2DOptions neg;
  neg.gebrd.one_pass_min_bytes = -1;
  expect([&] {
    gebrd_2d<T>(ctx, D, pa, ld, d.data(), e.data(), tauq.data(), taup.data(), neg);
  }, "one_pass_min_bytes", "negative one_pass_min_bytes");
  if (ranks > 1) {
    const BlockCyclic2D other(m, n, 4, me == last ? 2 : 4, ranks, 1);
    expect([&] {
      gebrd_2d<T>(ctx, other, pa, ld, d.data(), e.data(), tauq.data(), taup.data());
    }, "desca.nb", "desca differs between ranks");
    Gebrd2DOptions mine;
    mine.nb = me == last ? 64 : 32;
    expect([&] {
      gebrd_2d<T>(ctx, D, pa, ld, d.data(), e.data(), tauq.data(), taup.data(), mine);
    }, "opts.nb", "opts.nb differs between ranks");
  }
}

}  // namespace
