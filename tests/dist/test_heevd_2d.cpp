// SPDX-License-Identifier: BSD-3-Clause
// heevd_2d (the eigen-solver on ScaLAPACK-style 2-D block-cyclic local arrays) on host
// devices and MPI ranks, without ScaLAPACK (test_scalapack_2d compares with ScaLAPACK
// itself where it is installed): every rank cuts its local arrays of a random Hermitian
// matrix by BlockCyclic2D's own index functions, calls heevd_2d, and the checks run on Z
// gathered from its local arrays (import_2d + collect, tested on their own):
//   residual, orthogonality and eigenvalues under 30 (tests/dist/heevd_cases.hpp),
//   A's local arrays unchanged, Z's columns past m and its padding rows unchanged.
// Grids of every shape that fits in the ranks (both orders, source processes other
// than 0), block sizes that do not divide n, Z on its own blocks and grid, every range
// kind (k = 1 at both ends, an empty value interval), values only; bad arguments raise
// on every rank with w and z untouched.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "core/error.hpp"
#include "dist/lapack/heevd_2d.hpp"
#include "layouts/block_cyclic_2d.hpp"
#include "tests/dist/heevd_2d_cases.hpp"
#include "tests/dist/host_contexts.hpp"

namespace {

using namespace mgblas;
namespace mt = mgblas::testing;
namespace td = mgblas::testing::dist;
using td::Case;
using td::HostContexts;
using td::grids;
using td::local_ld;
using td::run_case;

template <typename T>
class Heevd2D_Host : public ::testing::Test {};
TYPED_TEST_SUITE(Heevd2D_Host, mt::TestScalars, mt::PrecisionName);

TYPED_TEST(Heevd2D_Host, EveryGridAndRange) {
  using T = TypeParam;
  for (const auto& ctx : HostContexts::all()) {
    const int ranks = ctx->nranks();
    // Every grid with 1 and 3 devices per rank; 2 share the 1-D layouts' cases below.
    const bool sweep = ctx->num_devices() != 2;
    for (const auto& [shape, order] : sweep ? grids(ranks) : decltype(grids(ranks)){}) {
      const auto [pr, pc] = shape;
      const std::string g = ::mgblas::detail::concat("ctx devices ", ctx->num_devices(), " grid ",
                                                     pr, "x", pc,
                                                     order == GridOrder::RowMajor ? "R" : "C");
      const int64_t n = 37;
      // A in 5 x 3 blocks from the last process; Z on the transposed grid in 4 x 7.
      const BlockCyclic2D Da(n, n, 5, 3, pr, pc, pr - 1, pc - 1, order);
      const BlockCyclic2D Dz(n, n, 4, 7, pc, pr, 0, pr > 1 ? 1 : 0, order);
      EXPECT_TRUE(run_case<T>(ctx, {n, Da, &Da, EigenRange::all(), 0, Uplo::Lower}, g + " all"));
      EXPECT_TRUE(run_case<T>(ctx, {n, Da, &Dz, EigenRange::all(), 3, Uplo::Upper},
                              g + " all, Z own blocks"));
      EXPECT_TRUE(run_case<T>(ctx, {n, Da, &Dz, EigenRange::index(0, 0), 2, Uplo::Lower},
                              g + " k = 1 smallest"));
      EXPECT_TRUE(run_case<T>(ctx, {n, Da, &Dz, EigenRange::index(n - 1, n - 1), 0, Uplo::Upper},
                              g + " k = 1 largest"));
      EXPECT_TRUE(run_case<T>(ctx, {n, Da, &Da, EigenRange::index(n - 5, n - 1), 0, Uplo::Lower},
                              g + " top 5"));
      EXPECT_TRUE(run_case<T>(ctx, {n, Da, &Dz, EigenRange::value(-0.5, 0.5), 1, Uplo::Lower},
                              g + " value range"));
      EXPECT_TRUE(run_case<T>(ctx, {n, Da, &Dz, EigenRange::value(1e3, 2e3), 0, Uplo::Lower},
                              g + " empty value range"));
      EXPECT_TRUE(run_case<T>(ctx, {n, Da, nullptr, EigenRange::index(3, 9), 0, Uplo::Upper},
                              g + " values only"));
    }
    // Square 64 x 64 blocks on the widest grid; one process holds all of a small n.
    const BlockCyclic2D D64(150, 150, 64, 64, 1, ranks);
    EXPECT_TRUE(run_case<T>(ctx, {150, D64, &D64, EigenRange::all(), 0, Uplo::Lower}, "nb 64"));
    const BlockCyclic2D Dbig(9, 9, 16, 16, ranks, 1);
    EXPECT_TRUE(run_case<T>(ctx, {9, Dbig, &Dbig, EigenRange::all(), 0, Uplo::Upper},
                            "one block"));
    const BlockCyclic2D D0(0, 0, 4, 4, 1, 1);
    EXPECT_TRUE(run_case<T>(ctx, {0, D0, &D0, EigenRange::all(), 0, Uplo::Lower}, "n = 0"));
  }
}

//  +-------------------------------------------------------------------------------+
//  |  A bad argument on one rank raises on every rank; w and z stay untouched.     |
//  +-------------------------------------------------------------------------------+
TYPED_TEST(Heevd2D_Host, BadArgumentsRaiseEverywhere) {
  using T = TypeParam;
  using R = real_type_t<T>;
  auto ctx = HostContexts::all()[1];
  const int me = ctx->rank(), ranks = ctx->nranks(), last = ranks - 1;
  const int64_t n = 24;
  std::mt19937_64 rng(mt::test_seed() + 11);
  std::vector<T> A = mt::lapack::random_hermitian<T>(n, rng, false);
  ctx->comm().bcast(A.data(), A.size() * sizeof(T), 0);
  const BlockCyclic2D D(n, n, 4, 4, 1, ranks);
  const int64_t ld = local_ld(D, me, 0);
  const std::vector<T> a = td::cut_2d(D, me, A, ld, T(0));
  const std::vector<T> z0(a.size(), T(-7));
  std::vector<T> z = z0;
  std::vector<R> w(n, R(-3));
  const auto untouched = [&] {
    return z == z0 && std::all_of(w.begin(), w.end(), [](R v) { return v == R(-3); });
  };
  // `call` raises E on the ranks that passed the bad value, RemoteError (or E) elsewhere.
  const auto expect = [&](auto&& call, const char* name, const char* why) {
    td::expect_raised_everywhere(*ctx, call, name, why, untouched);
  };
  const T* pa = a.data();
  T* pz = z.data();
  expect([&] { heevd_2d<T>(ctx, static_cast<Uplo>('x'), D, pa, ld, w.data(), &D, pz, ld); },
         "'uplo'", "bad uplo");
  expect([&] {
    heevd_2d<T>(ctx, Uplo::Lower, D, pa, me == last ? ld - 1 : ld, w.data(), &D, pz, ld);
  }, "'lda'", "lda below the local rows on the last rank");
  expect([&] {
    heevd_2d<T>(ctx, Uplo::Lower, D, me == last ? nullptr : pa, ld, w.data(), &D, pz, ld);
  }, "'a'", "null a on the last rank");
  expect([&] {
    heevd_2d<T>(ctx, Uplo::Lower, D, pa, ld, w.data(), &D, me == last ? nullptr : pz, ld);
  }, "'z'", "null z on the last rank");
  expect([&] { heevd_2d<T>(ctx, Uplo::Lower, D, pa, ld, w.data(), &D, pz, 0); }, "'ldz'",
         "ldz = 0");
  expect([&] { heevd_2d<T>(ctx, Uplo::Lower, D, pa, ld, nullptr, &D, pz, ld); }, "'w'", "null w");
  expect([&] {
    heevd_2d<T>(ctx, Uplo::Lower, D, pa, ld, w.data(), &D, pz, ld, EigenRange::index(5, 4));
  }, "il = 5", "il > iu");
  expect([&] {
    heevd_2d<T>(ctx, Uplo::Lower, D, pa, ld, w.data(), &D, pz, ld, EigenRange::index(0, n));
  }, "iu = 24", "iu = n");
  expect([&] {
    heevd_2d<T>(ctx, Uplo::Lower, D, pa, ld, w.data(), &D, pz, ld, EigenRange::value(2, 1));
  }, "vl = 2", "vl > vu");
  const BlockCyclic2D rect(n, n + 1, 4, 4, 1, ranks);
  expect([&] { heevd_2d<T>(ctx, Uplo::Lower, rect, pa, ld, w.data(), &D, pz, ld); }, "'desca'",
         "non-square desca");
  const BlockCyclic2D narrow(n, n - 1, 4, 4, 1, ranks);
  expect([&] { heevd_2d<T>(ctx, Uplo::Lower, D, pa, ld, w.data(), &narrow, pz, ld); }, "'descz'",
         "descz with n - 1 columns");
  const BlockCyclic2D wide(n, n, 4, 4, 1, ranks + 1);
  expect([&] { heevd_2d<T>(ctx, Uplo::Lower, wide, pa, ld, w.data(), &D, pz, ld); }, "'desca'",
         "grid larger than the ranks");
  Heevd2DOptions neg;
  neg.nb = -1;
  expect([&] { heevd_2d<T>(ctx, Uplo::Lower, D, pa, ld, w.data(), &D, pz, ld, {}, neg); },
         "'opts.nb'", "negative nb");
  if (ranks > 1) {
    // The ranks' descriptors differ: named by the field on every rank.
    const BlockCyclic2D other(n, n, me == last ? 8 : 4, 4, 1, ranks);
    expect([&] { heevd_2d<T>(ctx, Uplo::Lower, other, pa, ld, w.data(), &D, pz, ld); },
           "desca.mb", "desca differs between ranks");
    expect([&] {
      heevd_2d<T>(ctx, Uplo::Lower, D, pa, ld, w.data(), me == last ? nullptr : &D, pz, ld);
    }, "vectors", "descz on some ranks only");
  }
  // A NaN in the read triangle: named as A, w and z untouched.
  std::vector<T> An = A;
  An[5 + 2 * n] = mt::nan_value<T>();
  const std::vector<T> an = td::cut_2d(D, me, An, ld, T(0));
  expect([&] { heevd_2d<T>(ctx, Uplo::Lower, D, an.data(), ld, w.data(), &D, pz, ld); }, "'A'",
         "NaN in A");
}

}  // namespace
