// SPDX-License-Identifier: BSD-3-Clause
// gesvd_2d (the SVD on ScaLAPACK-style 2-D block-cyclic local arrays) on host devices and
// MPI ranks: every rank cuts its local arrays of one matrix by BlockCyclic2D's own index
// functions, calls gesvd_2d, and the checks run on U and V gathered from their local
// arrays (tests/dist/gesvd_2d_cases.hpp): residual, orthogonality and singular values
// under 30, A's local arrays unchanged, U's and V's columns past the vectors and their
// padding rows unchanged. Grids of every shape that fits in the ranks (both orders,
// source processes other than 0), blocks that do not divide m or n, U and V on their own
// blocks and grids, tall, wide and square A, all, some, full and no vectors, one side
// only, graded and rank-deficient spectra; bad arguments raise on every rank with s, u
// and v untouched.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "core/error.hpp"
#include "dist/lapack/gesvd_2d.hpp"
#include "layouts/block_cyclic_2d.hpp"
#include "tests/dist/gesvd_2d_cases.hpp"
#include "tests/dist/host_contexts.hpp"

namespace {

using namespace mgblas;
namespace mt = mgblas::testing;
namespace td = mgblas::testing::dist;
using td::grids;
using td::HostContexts;
using td::local_ld;
using td::run_svd_case;
using td::SvdMatrix;

template <typename T>
class Gesvd2D_Host : public ::testing::Test {};
TYPED_TEST_SUITE(Gesvd2D_Host, mt::TestScalars, mt::PrecisionName);

TYPED_TEST(Gesvd2D_Host, EveryGridAndShape) {
  using T = TypeParam;
  for (const auto& ctx : HostContexts::all()) {
    const int ranks = ctx->nranks();
    // Every grid with 1 and 3 devices per rank; 2 take the shapes below only.
    const bool sweep = ctx->num_devices() != 2;
    for (const auto& [shape, order] : sweep ? grids(ranks) : decltype(grids(ranks)){}) {
      const auto [pr, pc] = shape;
      const std::string g = ::mgblas::detail::concat("ctx devices ", ctx->num_devices(), " grid ",
                                                     pr, "x", pc,
                                                     order == GridOrder::RowMajor ? "R" : "C");
      // Tall with all vectors, wide with some (A's blocks for U and V): A in 5 x 3 blocks
      // from the last process; U on the transposed grid in 4 x 7, V in 3 x 5 from process
      // (0, last).
      for (const auto [m, n] : {std::pair<int64_t, int64_t>{37, 23}, {23, 37}}) {
        const BlockCyclic2D Da(m, n, 5, 3, pr, pc, pr - 1, pc - 1, order);
        const BlockCyclic2D Du(m, m, 4, 7, pc, pr, 0, pr > 1 ? 1 : 0, order);
        const BlockCyclic2D Dv(n, n, 3, 5, pr, pc, 0, pc - 1, order);
        const std::string sh = ::mgblas::detail::concat(g, " ", m, "x", n);
        if (m > n)
          EXPECT_TRUE(run_svd_case<T>(ctx, {m, n, Da, &Du, &Dv, -1, 2}, sh + " all + 2 spare"));
        else
          EXPECT_TRUE(run_svd_case<T>(ctx, {m, n, Da, &Da, &Da, 5, 0}, sh + " 5 on A's blocks"));
      }
    }
    // Square: all vectors (U on its own grid), values only; tall with the full U.
    {
      const int64_t m = 30, n = 30;
      const BlockCyclic2D Da(m, n, 5, 3, 1, ranks, 0, ranks - 1);
      const BlockCyclic2D Du(m, m, 4, 7, ranks, 1);
      EXPECT_TRUE(run_svd_case<T>(ctx, {m, n, Da, &Du, &Da, -1, 0, true}, "square, all"));
      EXPECT_TRUE(run_svd_case<T>(ctx, {m, n, Da, nullptr, nullptr}, "square, values only"));
    }
    {
      const BlockCyclic2D Da(37, 23, 5, 3, ranks, 1);
      const BlockCyclic2D Du(37, 37, 4, 7, 1, ranks);
      EXPECT_TRUE(run_svd_case<T>(ctx, {37, 23, Da, &Du, &Da, -1, 0, true}, "tall, full U"));
    }
    const int64_t m = 41, n = 29;
    const BlockCyclic2D Da(m, n, 6, 4, 1, ranks);
    const BlockCyclic2D Du(m, m, 8, 8, ranks, 1);
    EXPECT_TRUE(run_svd_case<T>(ctx, {m, n, Da, &Du, nullptr, 3, 1}, "U only"));
    EXPECT_TRUE(run_svd_case<T>(ctx, {m, n, Da, nullptr, &Da, -1, 0}, "V only"));
    EXPECT_TRUE(run_svd_case<T>(ctx, {m, n, Da, &Du, &Da, 0, 0}, "nvec = 0"));
    EXPECT_TRUE(run_svd_case<T>(ctx, {m, n, Da, &Du, &Da, -1, 0, false, SvdMatrix::Graded},
                                "graded"));
    EXPECT_TRUE(run_svd_case<T>(ctx, {n, m, BlockCyclic2D(n, m, 6, 4, 1, ranks), &Da, &Du, -1, 0,
                                      false, SvdMatrix::RankDeficient},
                                "wide, rank-deficient"));
    // Square 64 x 64 blocks on the widest grid; one process holds all of a small matrix.
    const BlockCyclic2D D64(150, 130, 64, 64, 1, ranks);
    EXPECT_TRUE(run_svd_case<T>(ctx, {150, 130, D64, &D64, &D64, -1, 0}, "nb 64"));
    const BlockCyclic2D Dbig(9, 7, 16, 16, ranks, 1);
    EXPECT_TRUE(run_svd_case<T>(ctx, {9, 7, Dbig, &Dbig, &Dbig, -1, 0}, "one block"));
    const BlockCyclic2D D0(0, 5, 4, 4, 1, 1);
    EXPECT_TRUE(run_svd_case<T>(ctx, {0, 5, D0, &D0, &D0, -1, 0}, "m = 0"));
  }
}

//  +-------------------------------------------------------------------------------+
//  |  A bad argument on one rank raises on every rank; s, u and v stay untouched.   |
//  +-------------------------------------------------------------------------------+
TYPED_TEST(Gesvd2D_Host, BadArgumentsRaiseEverywhere) {
  using T = TypeParam;
  using R = real_type_t<T>;
  auto ctx = HostContexts::all()[1];
  const int me = ctx->rank(), ranks = ctx->nranks(), last = ranks - 1;
  const int64_t m = 24, n = 16, k = 16;
  std::mt19937_64 rng(mt::test_seed() + 13);
  std::vector<T> A = mt::lapack::random_general<T>(m, n, rng);
  ctx->comm().bcast(A.data(), A.size() * sizeof(T), 0);
  const BlockCyclic2D D(m, n, 4, 4, 1, ranks), Du(m, k, 4, 4, 1, ranks), Dv(n, k, 4, 4, 1, ranks);
  const int64_t ld = local_ld(D, me, 0), ldu = local_ld(Du, me, 0), ldv = local_ld(Dv, me, 0);
  const std::vector<T> a = td::cut_2d(D, me, A, ld, T(0));
  const std::vector<T> u0(std::max<std::size_t>(1, static_cast<std::size_t>(ldu * m)), T(-7));
  const std::vector<T> v0(std::max<std::size_t>(1, static_cast<std::size_t>(ldv * n)), T(-7));
  std::vector<T> u = u0, v = v0;
  std::vector<R> s(k, R(-3));
  const auto untouched = [&] {
    return u == u0 && v == v0 && std::all_of(s.begin(), s.end(), [](R x) { return x == R(-3); });
  };
  const auto expect = [&](auto&& call, const char* name, const char* why) {
    td::expect_raised_everywhere(*ctx, call, name, why, untouched);
  };
  const T* pa = a.data();
  T *pu = u.data(), *pv = v.data();
  R* ps = s.data();
  expect([&] { gesvd_2d<T>(ctx, D, pa, me == last ? ld - 1 : ld, ps, &Du, pu, ldu, &Dv, pv, ldv); },
         "'lda'", "lda below the local rows on the last rank");
  expect([&] { gesvd_2d<T>(ctx, D, me == last ? nullptr : pa, ld, ps, &Du, pu, ldu, &Dv, pv, ldv); },
         "'a'", "null a on the last rank");
  expect([&] { gesvd_2d<T>(ctx, D, pa, ld, nullptr, &Du, pu, ldu, &Dv, pv, ldv); }, "'s'",
         "null s");
  expect([&] { gesvd_2d<T>(ctx, D, pa, ld, ps, &Du, me == last ? nullptr : pu, ldu, &Dv, pv, ldv); },
         "'u'", "null u on the last rank");
  expect([&] { gesvd_2d<T>(ctx, D, pa, ld, ps, &Du, pu, ldu, &Dv, pv, 0); }, "'ldv'", "ldv = 0");
  expect([&] { gesvd_2d<T>(ctx, D, pa, ld, ps, &Du, pu, ldu, &Dv, pv, ldv, k + 1); }, "'nvec'",
         "nvec > k");
  expect([&] { gesvd_2d<T>(ctx, D, pa, ld, ps, &Du, pu, ldu, &Dv, pv, ldv, -2); }, "'nvec'",
         "nvec = -2");
  const BlockCyclic2D short_u(m - 1, k, 4, 4, 1, ranks);
  expect([&] { gesvd_2d<T>(ctx, D, pa, ld, ps, &short_u, pu, ldu, &Dv, pv, ldv); }, "'descu'",
         "descu with m - 1 rows");
  const BlockCyclic2D narrow_v(n, k - 1, 4, 4, 1, ranks);
  expect([&] { gesvd_2d<T>(ctx, D, pa, ld, ps, &Du, pu, ldu, &narrow_v, pv, ldv); }, "'descv'",
         "descv with k - 1 columns");
  const BlockCyclic2D wide(m, n, 4, 4, 1, ranks + 1);
  expect([&] { gesvd_2d<T>(ctx, wide, pa, ld, ps, &Du, pu, ldu, &Dv, pv, ldv); }, "'desca'",
         "grid larger than the ranks");
  Gesvd2DOptions neg;
  neg.nb = -1;
  expect([&] { gesvd_2d<T>(ctx, D, pa, ld, ps, &Du, pu, ldu, &Dv, pv, ldv, -1, neg); },
         "'opts.nb'", "negative nb");
  if (ranks > 1) {
    const BlockCyclic2D other(m, n, me == last ? 8 : 4, 4, 1, ranks);
    expect([&] { gesvd_2d<T>(ctx, other, pa, ld, ps, &Du, pu, ldu, &Dv, pv, ldv); }, "desca.mb",
           "desca differs between ranks");
    expect([&] {
      gesvd_2d<T>(ctx, D, pa, ld, ps, me == last ? nullptr : &Du, pu, ldu, &Dv, pv, ldv);
    }, "left vectors", "descu on some ranks only");
  }
  // A NaN in A: named as A, s, u and v untouched.
  std::vector<T> An = A;
  An[5 + 2 * m] = mt::nan_value<T>();
  const std::vector<T> an = td::cut_2d(D, me, An, ld, T(0));
  expect([&] { gesvd_2d<T>(ctx, D, an.data(), ld, ps, &Du, pu, ldu, &Dv, pv, ldv); }, "'A'",
         "NaN in A");
}

}  // namespace
