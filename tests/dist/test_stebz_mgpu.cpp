// SPDX-License-Identifier: BSD-3-Clause
// tridiag_eigenvalues_mgpu over 1-3 host devices per rank: the result is bit-identical on
// every rank and matches LAPACKE ?sterf (bound of tests/kernels/stebz_test_helpers.hpp);
// one rank's bad argument raises on every rank.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "core/error.hpp"
#include "dist/lapack/stebz_mgpu.hpp"
#include "tests/dist/dist_test_helpers.hpp"
#include "tests/dist/host_contexts.hpp"
#include "tests/kernels/stebz_test_helpers.hpp"

namespace {

using namespace mgblas;
namespace mt = mgblas::testing;
namespace td = mgblas::testing::dist;
using td::HostContexts;

template <typename T>
class StebzMgpu_Host : public ::testing::Test {};
TYPED_TEST_SUITE(StebzMgpu_Host, mt::TestScalars, mt::PrecisionName);

// Every rank draws the same matrix (the seed depends on the test's name only).
template <Scalar T>
bool check_case(Context& ctx, mt::Spectrum kind, int64_t n, std::mt19937_64& rng) {
  using R = real_type_t<T>;
  const auto t = mt::make_tridiagonal<R>(kind, n, rng);
  std::vector<R> w(static_cast<std::size_t>(n), mt::nan_value<R>());
  tridiag_eigenvalues_mgpu<T>(ctx, n, t.d.data(), t.e.data(), w.data());
  const std::string what =
      detail::concat(mt::to_string(kind), " n=", n, " devices/rank=", ctx.num_devices(), ", ",
                     mt::seed_text());
  // Rank 0's result, bit for bit, on every rank.
  std::vector<R> w0 = w;
  if (n > 0) ctx.comm().bcast(w0.data(), sizeof(R) * w0.size(), 0);
  bool ok = td::everywhere(ctx, n == 0 || std::memcmp(w0.data(), w.data(), sizeof(R) * n) == 0,
                           "result differs from rank 0's: " + what);
  const double err = mt::eigenvalue_error(n, mt::sterf_eigenvalues(t), 0, n, w.data());
  ok = td::everywhere(ctx, err <= mt::kEigenvalueTolerance,
                      detail::concat("error ", err, " > ", mt::kEigenvalueTolerance, ": ", what)) &&
       ok;
  ok = td::everywhere(ctx, mt::ascending(w.data(), n), "not ascending: " + what) && ok;
  return ok;
}

TYPED_TEST(StebzMgpu_Host, MatchesSterfOnEveryRank) {
  auto rng = mt::make_rng();
  for (auto& ctx : HostContexts::all()) {
    for (int64_t n : {0, 1, 2, 5, 31, 200, 1000})
      EXPECT_TRUE(check_case<TypeParam>(*ctx, mt::Spectrum::Random, n, rng));
    EXPECT_TRUE(check_case<TypeParam>(*ctx, mt::Spectrum::Wilkinson, 21, rng));
    EXPECT_TRUE(check_case<TypeParam>(*ctx, mt::Spectrum::Clustered, 100, rng));
    EXPECT_TRUE(check_case<TypeParam>(*ctx, mt::Spectrum::Graded, 200, rng));
  }
}

TEST(StebzMgpu_HostArgs, VectorConvenience) {
  auto ctx = HostContexts::all()[1];
  auto rng = mt::make_rng();
  const auto t = mt::make_tridiagonal<double>(mt::Spectrum::Random, 300, rng);
  const std::vector<double> w = tridiag_eigenvalues_mgpu(*ctx, t.d, t.e);
  const double err = mt::eigenvalue_error<double>(300, mt::sterf_eigenvalues(t), 0, 300, w.data());
  EXPECT_TRUE(td::everywhere(*ctx, w.size() == 300 && err <= mt::kEigenvalueTolerance,
                             detail::concat("error ", err)));
  // Too short an e: DimensionMismatch on the rank passing it, RemoteError elsewhere.
  const std::vector<double> e_short(t.e.begin(), t.e.end() - (ctx->rank() == 0 ? 1 : 0));
  EXPECT_TRUE(td::everywhere(*ctx, td::raises<Error>([&] {
    tridiag_eigenvalues_mgpu(*ctx, t.d, e_short);
  }), "short e"));
}

// One rank passes n = -1: BadArgument naming n there, RemoteError on the others.
TEST(StebzMgpu_HostArgs, BadNOnOneRankRaisesEverywhere) {
  auto ctx = HostContexts::all()[2];
  const std::vector<double> d(50, 1.0), e(49, 0.25);
  std::vector<double> w(50);
  const int64_t n = ctx->rank() == ctx->nranks() - 1 ? -1 : 50;
  bool raised = false, named = true;
  try {
    tridiag_eigenvalues_mgpu<double>(*ctx, n, d.data(), e.data(), w.data());
  } catch (const BadArgument& err) {
    raised = true;
    named = std::string(err.what()).find("'n'") != std::string::npos;
  } catch (const RemoteError&) {
    raised = n >= 0;
  }
  EXPECT_TRUE(td::everywhere(*ctx, raised && named, "bad n did not raise as expected"));
  // Different valid n on the ranks: DimensionMismatch on every rank.
  if (ctx->nranks() > 1) {
    const int64_t n2 = ctx->rank() == 0 ? 50 : 49;
    EXPECT_TRUE(td::everywhere(*ctx, td::raises<DimensionMismatch>([&] {
      tridiag_eigenvalues_mgpu<double>(*ctx, n2, d.data(), e.data(), w.data());
    }), "different n"));
  }
  // A null d on rank 0 only.
  EXPECT_TRUE(td::everywhere(*ctx, td::raises<Error>([&] {
    tridiag_eigenvalues_mgpu<double>(*ctx, 50, ctx->rank() == 0 ? nullptr : d.data(), e.data(),
                                     w.data());
  }), "null d"));
}

//  +-------------------------------------------------------------------------------+
//  |  A NaN or infinity in d or e (issue 32): BadArgument naming the argument and    |
//  |  the entry on every rank that holds it (RemoteError on the others), w as it     |
//  |  was; never finite eigenvalues that hide it.                                    |
//  +-------------------------------------------------------------------------------+
TYPED_TEST(StebzMgpu_Host, NonFiniteEntriesRaise) {
  using R = real_type_t<TypeParam>;
  auto ctx = HostContexts::all()[1];
  auto rng = mt::make_rng();
  const int64_t n = 40;
  const auto t = mt::make_tridiagonal<R>(mt::Spectrum::Random, n, rng);
  std::uniform_int_distribution<int64_t> pick(0, n - 2);
  const R bad[] = {std::numeric_limits<R>::quiet_NaN(), std::numeric_limits<R>::infinity(),
                   -std::numeric_limits<R>::infinity()};
  for (const R value : bad)
    for (const bool in_d : {true, false})
      for (const bool everyone : {true, false}) {
        std::vector<R> d(t.d), e(t.e), w(n, R(-7));
        const int64_t at = pick(rng);
        if (everyone || ctx->rank() == ctx->nranks() - 1) (in_d ? d : e)[at] = value;
        const std::string name = in_d ? "'d'" : "'e'";
        const std::string entry = std::string(in_d ? "d[" : "e[") + std::to_string(at) + "]";
        bool raised = false, named = false;
        try {
          tridiag_eigenvalues_mgpu<TypeParam>(*ctx, n, d.data(), e.data(), w.data());
        } catch (const BadArgument& err) {
          const std::string what = err.what();
          raised = true;
          named = what.find(name) != std::string::npos && what.find(entry) != std::string::npos;
        } catch (const RemoteError&) {
          raised = named = !everyone && ctx->rank() != ctx->nranks() - 1;
        }
        const bool untouched = std::all_of(w.begin(), w.end(), [](R x) { return x == R(-7); });
        EXPECT_TRUE(td::everywhere(*ctx, raised && named && untouched,
                                   "non-finite " + entry + (everyone ? " on every rank" : " on one rank")));
      }
}

}  // namespace
