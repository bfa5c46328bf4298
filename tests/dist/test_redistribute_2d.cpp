// SPDX-License-Identifier: BSD-3-Clause
// ScaLAPACK's 2-D block-cyclic layout to and from a DistMatrix (DistMatrix::import_2d /
// export_2d) on host devices: every process grid that fits in the ranks (ranks left
// outside it too), both grid orders, source processes other than (0, 0), block sizes
// that do and do not divide m and n, padded local arrays, 1-3 devices per rank; the
// index functions against a direct count; bad arguments named on every rank with the
// matrix left untouched.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "core/context.hpp"
#include "core/error.hpp"
#include "layouts/block_cyclic_2d.hpp"
#include "layouts/dist_matrix.hpp"
#include "tests/dist/host_contexts.hpp"
#include "tests/dist/redistribute_2d_cases.hpp"
#include "tests/kernels/host_test_helpers.hpp"
#include "tests/testing/testing.hpp"

namespace {

using namespace mgblas;
namespace mt = mgblas::testing;
namespace td = mgblas::testing::dist;
using td::HostContexts;

// The index functions agree with a direct walk over the blocks.
TEST(BlockCyclic2D, IndexFunctions) {
  for (int p : {1, 2, 3})
    for (int src = 0; src < p; ++src)
      for (int64_t b : {1, 3, 8})
        for (int64_t len : {0, 1, 7, 24, 25}) {
          const BlockCyclic2D D(len, len, b, b, p, p, src, src);
          std::vector<int64_t> count(p, 0);
          for (int64_t i = 0; i < len; ++i) {
            const int owner = (static_cast<int>(i / b) + src) % p;
            ASSERT_EQ(D.row_owner(i), owner);
            ASSERT_EQ(D.col_owner(i), owner);
            ASSERT_EQ(D.local_row(i), count[owner]);
            ASSERT_EQ(D.global_row(owner, count[owner]), i);
            ASSERT_EQ(D.global_col(owner, count[owner]), i);
            ++count[owner];
          }
          for (int q = 0; q < p; ++q) {
            EXPECT_EQ(D.local_rows(q), count[q]) << len << " " << b << " " << p << " " << src;
            EXPECT_EQ(D.local_cols(q), count[q]);
          }
        }
  const BlockCyclic2D R(4, 4, 1, 1, 2, 3, 0, 0, GridOrder::RowMajor);
  const BlockCyclic2D C(4, 4, 1, 1, 2, 3, 0, 0, GridOrder::ColumnMajor);
  for (int r = 0; r < 6; ++r) {
    EXPECT_EQ(R.rank_of(R.prow_of(r), R.pcol_of(r)), r);
    EXPECT_EQ(C.rank_of(C.prow_of(r), C.pcol_of(r)), r);
  }
  EXPECT_EQ(R.pcol_of(1), 1);
  EXPECT_EQ(C.prow_of(1), 1);
  EXPECT_EQ(R.prow_of(6), -1);
  EXPECT_THROW(BlockCyclic2D(4, 4, 0, 1, 1, 1), BadArgument);
  EXPECT_THROW(BlockCyclic2D(4, 4, 1, 1, 2, 1, 2, 0), BadArgument);
  EXPECT_THROW(BlockCyclic2D(-1, 4, 1, 1, 1, 1), BadArgument);
}

template <typename T>
class Redistribute2D : public ::testing::Test {};
TYPED_TEST_SUITE(Redistribute2D, mt::TestScalars, mt::PrecisionName);

struct Shape {
  int64_t m, n, mb, nb;
};

TYPED_TEST(Redistribute2D, EveryGridThatFits) {
  using T = TypeParam;
  const Shape shapes[] = {{1, 1, 1, 1}, {7, 13, 2, 3}, {20, 20, 4, 4}, {33, 17, 5, 64},
                          {0, 5, 2, 2}, {6, 0, 2, 2}, {41, 29, 3, 7}};
  for (auto& ctx : HostContexts::all()) {
    const int P = ctx->nranks();
    for (int nprow = 1; nprow <= P; ++nprow)
      for (int npcol = 1; nprow * npcol <= P; ++npcol)
        for (GridOrder order : {GridOrder::RowMajor, GridOrder::ColumnMajor})
          for (const Shape& s : shapes) {
            const int rsrc = (nprow - 1) / 2 + (s.m % 2) * (nprow > 1);
            const int csrc = npcol - 1;
            const BlockCyclic2D D(s.m, s.n, s.mb, s.nb, nprow, npcol, rsrc % nprow, csrc, order);
            for (int64_t nb1d : {1, 5, 16})
              ASSERT_TRUE(td::check_2d_case<T>(ctx, D, nb1d, nb1d == 5 ? 3 : 0))
                  << s.m << "x" << s.n << " mb " << s.mb << " nb " << s.nb << " grid " << nprow
                  << "x" << npcol << " devices " << ctx->num_devices() << " nb1d " << nb1d;
          }
  }
}

// Over 64 MiB per rank the column copies run on OpenMP threads: the same checks there
// (1 and 2 ranks; one host device per rank).
TEST(Redistribute2DLarge, ThreadedCopies) {
  auto& ctx = HostContexts::all()[0];
  const int P = ctx->nranks();
  if (P > 2) GTEST_SKIP() << "1 and 2 ranks only (memory on CI machines)";
  const int64_t n = P == 1 ? 3000 : 4300;  // > 64 MiB of doubles per rank
  const BlockCyclic2D D(n, n, 64, 64, 1, P, 0, 0);
  EXPECT_TRUE(td::check_2d_case<double>(ctx, D, 256, 5));
}

// ---- bad arguments --------------------------------------------------------------------

bool contains(const std::string& s, const std::string& part) {
  return s.find(part) != std::string::npos;
}

// Runs f on every rank; every rank must raise, with `text` in its message, and B must
// still hold what it held.
template <typename F>
void expect_everywhere(const std::shared_ptr<Context>& ctx, DistMatrix<double>& B,
                       const std::vector<double>& held, const std::string& text, F&& f) {
  std::string what;
  try {
    f();
  } catch (const Error& e) {
    what = e.what();
  }
  EXPECT_TRUE(contains(what, text)) << "rank " << ctx->rank() << ": '" << what << "'";
  std::vector<double> now(held.size());
  B.collect(now.data(), B.m(), -1);
  EXPECT_EQ(now, held) << "the matrix changed";
}

TEST(Redistribute2DErrors, NamedOnEveryRankAndNothingWritten) {
  auto rng = mt::make_rng();
  for (auto& ctx : HostContexts::all()) {
    const int P = ctx->nranks(), me = ctx->rank();
    const int64_t m = 12, n = 10;
    const auto A = mt::random_vector<double>(m * n, rng);
    DistMatrix<double> B(ctx, BlockCyclic1D(m, n, 3, ctx->global_num_devices()));
    B.distribute_replicated(A.data(), m);
    const BlockCyclic2D D(m, n, 2, 2, 1, P);
    const int64_t lld = D.local_rows(0);
    std::vector<double> a(static_cast<std::size_t>(lld * D.local_cols(D.pcol_of(me))) + 1, 7.0);
    const int culprit = P - 1;

    // lld too small on one rank.
    expect_everywhere(ctx, B, A, "lld", [&] { B.import_2d(D, a.data(), me == culprit ? 1 : lld); });
    // No local array where one is needed.
    expect_everywhere(ctx, B, A, "'a'", [&] { B.import_2d(D, me == culprit ? nullptr : a.data(), lld); });
    // A grid larger than the ranks.
    const BlockCyclic2D big(m, n, 2, 2, 1, P + 1);
    expect_everywhere(ctx, B, A, "grid", [&] { B.import_2d(big, a.data(), lld); });
    // Sizes that differ from the matrix's.
    const BlockCyclic2D wrong(m + 1, n, 2, 2, 1, P);
    expect_everywhere(ctx, B, A, "desc is 13 x 10", [&] { B.import_2d(wrong, a.data(), lld); });
    // A descriptor that differs between the ranks (only with several ranks).
    if (P > 1) {
      const BlockCyclic2D other(m, n, me == culprit ? 3 : 2, 2, 1, P);
      expect_everywhere(ctx, B, A, "desc.mb", [&] { B.import_2d(other, a.data(), lld); });
    }
    // export_2d leaves the local array untouched on a bad lld.
    const std::vector<double> before = a;
    expect_everywhere(ctx, B, A, "lld", [&] { B.export_2d(D, a.data(), me == culprit ? 0 : lld); });
    EXPECT_EQ(a, before);
  }
}

}  // namespace
