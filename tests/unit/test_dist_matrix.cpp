// SPDX-License-Identifier: BSD-3-Clause
// DistMatrix and DistVector on host devices, over 1, 2 or 4 ranks (MPI test) with 1, 2
// or 3 host devices per rank: round trips, local storage against the layout's map,
// and bad arguments raising on every rank without hanging.
//
// Every rank draws the same shapes and the same data (the seed depends only on the
// test name and MGBLAS_TEST_SEED), so every rank can check what it receives. Checks
// are non-fatal (EXPECT) where ranks could disagree, so that no rank leaves a test
// early while the others wait in a collective.
#include <gtest/gtest.h>

#include <complex>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "core/context.hpp"
#include "core/error.hpp"
#include "layouts/block_cyclic.hpp"
#include "layouts/dist_matrix.hpp"
#include "tests/testing/testing.hpp"

namespace mgblas {
namespace {

template <typename T>
class DistHost : public ::testing::Test {};
// The precisions of this build (MGBLAS_PRECISIONS).
using ScalarTypes = EnabledScalars::apply<::testing::Types>;
struct ScalarNames {
  template <typename T>
  static std::string GetName(int) {
    return std::string(1, precision_letter<T>());
  }
};
TYPED_TEST_SUITE(DistHost, ScalarTypes, ScalarNames);

constexpr int kHostDevices[] = {1, 2, 3};

std::shared_ptr<Context> host_context(int host_devices) {
  ContextOptions opts;
  opts.backend = BackendChoice::Host;
  opts.host_devices = host_devices;
  return Context::create(opts);
}

struct Shape {
  int64_t m, n, nb;
  int first;  // taken modulo the device count
};

// Fixed edge cases (n < nb, n not a multiple of nb, more devices than blocks, m or n
// zero, a single column) and random ones, identical on every rank.
std::vector<Shape> shapes(std::mt19937_64& rng) {
  std::vector<Shape> s = {{0, 0, 1, 0},    {0, 7, 3, 1},   {5, 0, 2, 0}, {1, 1, 1, 0},
                          {7, 3, 8, 2},    {13, 10, 3, 1}, {6, 2, 1, 5}, {33, 64, 16, 0},
                          {17, 100, 7, 3}, {40, 1, 4, 0}};
  std::uniform_int_distribution<int64_t> md(0, 70), nd(0, 90), nbd(1, 20);
  std::uniform_int_distribution<int> fd(0, 11);
  for (int k = 0; k < 6; ++k) s.push_back({md(rng), nd(rng), nbd(rng), fd(rng)});
  return s;
}

std::string describe(const BlockCyclic1D& l, int host_devices, int nranks) {
  return detail::concat("m=", l.m(), " n=", l.n(), " nb=", l.nb(), " P=", l.num_devices(),
                        " first=", l.first(), " (", nranks, " ranks x ", host_devices,
                        " host devices)");
}

// Entries of (m x n, ld) arrays A and B that differ (NaN counts as differing).
template <typename T>
int64_t count_diff(int64_t m, int64_t n, const T* A, int64_t lda, const T* B, int64_t ldb) {
  int64_t wrong = 0;
  for (int64_t j = 0; j < n; ++j)
    for (int64_t i = 0; i < m; ++i) wrong += !(A[i + j * lda] == B[i + j * ldb]);
  return wrong;
}

// Entries of B that lost their NaN poison: rows m..ldb-1 of every column, or all rows
// when `all_rows`.
template <typename T>
int64_t count_unpoisoned(int64_t m, int64_t n, const T* B, int64_t ldb, bool all_rows) {
  int64_t lost = 0;
  for (int64_t j = 0; j < n; ++j)
    for (int64_t i = all_rows ? 0 : m; i < ldb; ++i) lost += !testing::is_nan(B[i + j * ldb]);
  return lost;
}

// +------------------------------------------------------------------------+
// | local storage matches the map: for each local device d (global g) and   |
// | jl < local_n(g):  local(d)[i + jl * ld] = A[i + global_col(g, jl) * lda] |
// +------------------------------------------------------------------------+
template <typename T>
int64_t count_local_mismatches(const DistMatrix<T>& dA, const T* A, int64_t lda) {
  const Context& ctx = dA.context();
  const BlockCyclic1D& l = dA.layout();
  int64_t wrong = 0;
  for (int d = 0; d < ctx.num_devices(); ++d) {
    const int g = ctx.device_offset() + d;
    wrong += dA.local_n(d) != l.local_n(g);
    for (int64_t jl = 0; jl < l.local_n(g); ++jl)
      for (int64_t i = 0; i < l.m(); ++i)
        wrong += !(dA.local(d)[i + jl * dA.ld()] == A[i + l.global_col(g, jl) * lda]);
  }
  return wrong;
}

template <typename T>
int64_t count_local_mismatches(const DistVector<T>& dx, const T* x) {
  const Context& ctx = dx.context();
  int64_t wrong = 0;
  for (int d = 0; d < ctx.num_devices(); ++d) {
    if (dx.kind() == VectorLayout::Replicated) {
      wrong += dx.local_size(d) != dx.n();
      for (int64_t i = 0; i < dx.n(); ++i) wrong += !(dx.local(d)[i] == x[i]);
    } else {
      const int g = ctx.device_offset() + d;
      wrong += dx.local_size(d) != dx.layout().local_n(g);
      for (int64_t jl = 0; jl < dx.layout().local_n(g); ++jl)
        wrong += !(dx.local(d)[jl] == x[dx.layout().global_col(g, jl)]);
    }
  }
  return wrong;
}

TYPED_TEST(DistHost, MatrixRoundTrips) {
  using T = TypeParam;
  auto rng = testing::make_rng();
  int64_t entries_checked = 0;
  for (int hd : kHostDevices) {
    auto ctx = host_context(hd);
    const int P = ctx->global_num_devices(), me = ctx->rank(), nranks = ctx->nranks();
    ASSERT_EQ(P, nranks * hd);  // the same on every rank
    for (const Shape& s : shapes(rng)) {
      const BlockCyclic1D layout(s.m, s.n, s.nb, P, s.first % P);
      SCOPED_TRACE(describe(layout, hd, nranks));
      const int64_t lda = s.m + std::uniform_int_distribution<int64_t>(0, 3)(rng) + (s.m == 0);
      const auto A = testing::random_vector<T>(static_cast<std::size_t>(lda * s.n), rng);
      if (s.m * s.n > 0) ASSERT_GT(testing::norm_fro(s.m, s.n, A.data(), lda), 0.0);

      for (int root : {0, nranks - 1}) {
        DistMatrix<T> dA(ctx, layout);
        EXPECT_GE(dA.ld(), std::max<int64_t>(1, s.m));
        EXPECT_EQ(dA.ld() * static_cast<int64_t>(sizeof(T)) % 128, 0);
        dA.distribute(me == root ? A.data() : nullptr, lda, root);
        EXPECT_EQ(count_local_mismatches(dA, A.data(), lda), 0) << "root " << root;

        // distribute_replicated gives the same local storage.
        DistMatrix<T> dR(ctx, layout);
        dR.distribute_replicated(A.data(), lda);
        EXPECT_EQ(count_local_mismatches(dR, A.data(), lda), 0);

        // +---------------------------------------------------------------+
        // | collect(B, ldb, root): B = A on root, B untouched elsewhere;  |
        // | collect(B, ldb, -1):   B = A on every rank; padding untouched |
        // +---------------------------------------------------------------+
        const int64_t ldb = std::max<int64_t>(1, s.m) + 2;
        std::vector<T> B(static_cast<std::size_t>(ldb * s.n), testing::nan_value<T>());
        dA.collect(B.data(), ldb, root);
        if (me == root) {
          EXPECT_EQ(count_diff(s.m, s.n, A.data(), lda, B.data(), ldb), 0) << "root " << root;
          EXPECT_EQ(count_unpoisoned(s.m, s.n, B.data(), ldb, false), 0);
        } else {
          EXPECT_EQ(count_unpoisoned(s.m, s.n, B.data(), ldb, true), 0);
        }
        // Non-receivers may pass null.
        std::vector<T> C(static_cast<std::size_t>(ldb * s.n), testing::nan_value<T>());
        dR.collect(me == root ? C.data() : nullptr, ldb, root);
        if (me == root) EXPECT_EQ(count_diff(s.m, s.n, A.data(), lda, C.data(), ldb), 0);

        std::vector<T> all(static_cast<std::size_t>(ldb * s.n), testing::nan_value<T>());
        dA.collect(all.data(), ldb, -1);
        EXPECT_EQ(count_diff(s.m, s.n, A.data(), lda, all.data(), ldb), 0);
        EXPECT_EQ(count_unpoisoned(s.m, s.n, all.data(), ldb, false), 0);
        entries_checked += s.m * s.n;
      }
    }
  }
  EXPECT_GT(entries_checked, 0);
}

TYPED_TEST(DistHost, VectorRoundTrips) {
  using T = TypeParam;
  auto rng = testing::make_rng();
  int64_t entries_checked = 0;
  for (int hd : kHostDevices) {
    auto ctx = host_context(hd);
    const int P = ctx->global_num_devices(), me = ctx->rank(), nranks = ctx->nranks();
    for (const Shape& s : shapes(rng)) {
      const BlockCyclic1D layout(s.m, s.n, s.nb, P, s.first % P);
      SCOPED_TRACE(describe(layout, hd, nranks));
      const auto x = testing::random_vector<T>(static_cast<std::size_t>(s.n), rng);
      if (s.n > 0) ASSERT_GT(testing::norm_vec<T>(s.n, x.data()), 0.0);

      for (int root : {0, nranks - 1}) {
        DistVector<T> rep(ctx, s.n);
        DistVector<T> cyc(ctx, layout);
        EXPECT_EQ(rep.kind(), VectorLayout::Replicated);
        EXPECT_EQ(cyc.kind(), VectorLayout::BlockCyclic);
        EXPECT_EQ(cyc.n(), s.n);
        for (DistVector<T>* v : {&rep, &cyc}) {
          const bool replicated = v->kind() == VectorLayout::Replicated;
          SCOPED_TRACE(replicated ? "replicated" : "block-cyclic");
          v->distribute(me == root ? x.data() : nullptr, root);
          EXPECT_EQ(count_local_mismatches(*v, x.data()), 0);

          std::vector<T> y(static_cast<std::size_t>(s.n) + 1, testing::nan_value<T>());
          v->collect(me == root ? y.data() : nullptr, root);
          if (me == root) EXPECT_EQ(count_diff<T>(1, s.n, x.data(), 1, y.data(), 1), 0);
          EXPECT_EQ(count_unpoisoned<T>(0, 1, y.data() + s.n, 1, true), 0);  // one past the end

          DistVector<T> again = replicated ? DistVector<T>(ctx, s.n) : DistVector<T>(ctx, layout);
          again.distribute_replicated(x.data());
          EXPECT_EQ(count_local_mismatches(again, x.data()), 0);
          std::vector<T> z(static_cast<std::size_t>(s.n), testing::nan_value<T>());
          again.collect(z.data(), -1);
          EXPECT_EQ(count_diff<T>(1, s.n, x.data(), 1, z.data(), 1), 0);
          entries_checked += s.n;
        }
      }
    }
  }
  EXPECT_GT(entries_checked, 0);
}

// What a call raised on this rank.
struct Outcome {
  bool thrown = false;
  bool bad_argument = false;
  bool dimension_mismatch = false;
  bool remote = false;
  std::string what;
};

template <typename F>
Outcome outcome_of(F&& f) {
  Outcome o;
  try {
    f();
  } catch (const BadArgument& e) {
    o = {true, true, false, false, e.what()};
  } catch (const DimensionMismatch& e) {
    o = {true, false, true, false, e.what()};
  } catch (const RemoteError& e) {
    o = {true, false, false, true, e.what()};
  } catch (const std::exception& e) {
    o = {true, false, false, false, e.what()};
  }
  return o;
}

// A fatal check must stop every rank or none: a rank leaving the test alone would
// leave the others waiting in the next collective.
bool on_every_rank(const Context& ctx, bool ok) { return ctx.comm().all_ok(ok); }

bool contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

// A bad argument seen on `culprit` ranks: those raise BadArgument naming `arg = value`,
// all others at least RemoteError (or BadArgument when they see it too).
void expect_raised_everywhere(const Outcome& o, bool culprit, const std::string& arg_and_value) {
  EXPECT_TRUE(o.thrown) << "no exception for " << arg_and_value;
  if (culprit) {
    EXPECT_TRUE(o.bad_argument) << o.what;
    EXPECT_TRUE(contains(o.what, arg_and_value)) << o.what;
  } else {
    EXPECT_TRUE(o.remote || o.bad_argument) << o.what;
  }
}

TYPED_TEST(DistHost, BadArgumentsRaiseOnEveryRank) {
  using T = TypeParam;
  auto rng = testing::make_rng();
  for (int hd : kHostDevices) {
    auto ctx = host_context(hd);
    const int P = ctx->global_num_devices(), me = ctx->rank(), nranks = ctx->nranks();
    SCOPED_TRACE(detail::concat(nranks, " ranks x ", hd, " host devices"));
    const int64_t m = 9, n = 23, lda = 11;
    const BlockCyclic1D layout(m, n, 4, P, 1 % P);
    const auto A = testing::random_vector<T>(static_cast<std::size_t>(lda * n), rng);
    const auto A2 = testing::random_vector<T>(static_cast<std::size_t>(lda * n), rng);
    ASSERT_GT(testing::norm_fro(m, n, A.data(), lda), 0.0);

    // Mismatched device count: every rank sees it, no communication needed.
    const Outcome bad_layout =
        outcome_of([&] { (void)DistMatrix<T>(ctx, BlockCyclic1D(m, n, 4, P + 1)); });
    EXPECT_TRUE(bad_layout.dimension_mismatch) << bad_layout.what;
    EXPECT_TRUE(contains(bad_layout.what, detail::concat("layout.num_devices() = ", P + 1)))
        << bad_layout.what;
    EXPECT_TRUE(contains(bad_layout.what, detail::concat("global_num_devices() = ", P)))
        << bad_layout.what;
    EXPECT_TRUE(outcome_of([&] {
                  (void)DistVector<T>(ctx, BlockCyclic1D(m, n, 4, P + 2));
                }).dimension_mismatch);
    EXPECT_TRUE(outcome_of([&] { (void)DistVector<T>(ctx, -1); }).bad_argument);
    EXPECT_TRUE(outcome_of([&] { (void)DistMatrix<T>(nullptr, layout); }).bad_argument);

    DistMatrix<T> dA(ctx, layout);
    dA.distribute(me == 0 ? A.data() : nullptr, lda, 0);
    ASSERT_TRUE(on_every_rank(*ctx, count_local_mismatches(dA, A.data(), lda) == 0));
    const int root = nranks - 1;

    // +------------------------------------------------------------------+
    // | each bad call raises on every rank and leaves dA holding A        |
    // +------------------------------------------------------------------+
    expect_raised_everywhere(
        outcome_of([&] { dA.distribute(me == root ? A2.data() : nullptr, m - 1, root); }),
        me == root, detail::concat("'lda' = ", m - 1));
    expect_raised_everywhere(outcome_of([&] { dA.distribute(A2.data(), lda, nranks); }), true,
                             detail::concat("'root' = ", nranks));
    expect_raised_everywhere(outcome_of([&] { dA.distribute(A2.data(), lda, -1); }), true,
                             "'root' = -1");
    expect_raised_everywhere(outcome_of([&] { dA.distribute(nullptr, lda, root); }), me == root,
                             "'A'");
    expect_raised_everywhere(
        outcome_of([&] { dA.distribute_replicated(me == root ? nullptr : A2.data(), lda); }),
        me == root, "'A'");
    expect_raised_everywhere(
        outcome_of([&] { dA.distribute_replicated(A2.data(), me == 0 ? 3 : lda); }), me == 0,
        "'lda' = 3");
    EXPECT_EQ(count_local_mismatches(dA, A.data(), lda), 0) << "a failed call wrote local storage";

    // Ranks that disagree on the root or the layout: DimensionMismatch everywhere.
    if (nranks > 1) {
      const Outcome o = outcome_of([&] { dA.distribute(A2.data(), lda, me == 0 ? 0 : 1); });
      EXPECT_TRUE(o.dimension_mismatch) << o.what;
      // The collective constructor names what differs...
      const BlockCyclic1D mine(m, n, me == 0 ? 4 : 5, P);
      const Outcome made = outcome_of([&] { DistMatrix<T> other(ctx, mine); });
      EXPECT_TRUE(made.dimension_mismatch) << made.what;
      EXPECT_TRUE(contains(made.what, "'nb'")) << made.what;
      // ... and so do the scatter and gather of a matrix made on each rank alone.
      DistMatrix<T> other(ctx, mine, local_allocation);
      std::vector<T> B(static_cast<std::size_t>(lda * n), testing::nan_value<T>());
      EXPECT_TRUE(outcome_of([&] { other.collect(B.data(), lda, -1); }).dimension_mismatch);
      EXPECT_TRUE(
          outcome_of([&] { other.distribute_replicated(A2.data(), lda); }).dimension_mismatch);
      EXPECT_EQ(count_unpoisoned(m, n, B.data(), lda, true), 0);
    }
    EXPECT_EQ(count_local_mismatches(dA, A.data(), lda), 0) << "a failed call wrote local storage";

    // +------------------------------------------------------------------+
    // | bad collect calls raise on every rank and leave B as poisoned     |
    // +------------------------------------------------------------------+
    std::vector<T> B(static_cast<std::size_t>(lda * n), testing::nan_value<T>());
    expect_raised_everywhere(outcome_of([&] { dA.collect(B.data(), m - 2, root); }), me == root,
                             detail::concat("'lda' = ", m - 2));
    expect_raised_everywhere(outcome_of([&] { dA.collect(B.data(), me == 0 ? 0 : lda, -1); }),
                             me == 0, "'lda' = 0");
    expect_raised_everywhere(outcome_of([&] { dA.collect(me == 0 ? nullptr : B.data(), lda, -1); }),
                             me == 0, "'A'");
    expect_raised_everywhere(outcome_of([&] { dA.collect(B.data(), lda, nranks + 3); }), true,
                             detail::concat("'root' = ", nranks + 3));
    EXPECT_EQ(count_unpoisoned(m, n, B.data(), lda, true), 0) << "a failed collect wrote B";

    // Vectors: null x on the root, bad roots.
    const auto x = testing::random_vector<T>(static_cast<std::size_t>(n), rng);
    for (bool replicated : {true, false}) {
      SCOPED_TRACE(replicated ? "replicated" : "block-cyclic");
      DistVector<T> v = replicated ? DistVector<T>(ctx, n) : DistVector<T>(ctx, layout);
      v.distribute(me == 0 ? x.data() : nullptr, 0);
      ASSERT_TRUE(on_every_rank(*ctx, count_local_mismatches(v, x.data()) == 0));
      expect_raised_everywhere(outcome_of([&] { v.distribute(nullptr, root); }), me == root, "'x'");
      expect_raised_everywhere(outcome_of([&] { v.distribute(x.data(), nranks); }), true,
                               detail::concat("'root' = ", nranks));
      expect_raised_everywhere(
          outcome_of([&] { v.distribute_replicated(me == root ? nullptr : x.data()); }), me == root,
          "'x'");
      std::vector<T> y(static_cast<std::size_t>(n), testing::nan_value<T>());
      expect_raised_everywhere(
          outcome_of([&] { v.collect(me == root ? nullptr : y.data(), root); }), me == root, "'x'");
      expect_raised_everywhere(outcome_of([&] { v.collect(y.data(), nranks); }), true,
                               detail::concat("'root' = ", nranks));
      EXPECT_EQ(count_unpoisoned<T>(0, n, y.data(), 1, true), 0);
      EXPECT_EQ(count_local_mismatches(v, x.data()), 0);
    }

    // The ranks are still in step: a good round trip after all the failures.
    std::vector<T> back(static_cast<std::size_t>(lda * n), testing::nan_value<T>());
    dA.collect(back.data(), lda, -1);
    EXPECT_EQ(count_diff(m, n, A.data(), lda, back.data(), lda), 0);
  }
}

TYPED_TEST(DistHost, MoveKeepsStorage) {
  using T = TypeParam;
  auto rng = testing::make_rng();
  auto ctx = host_context(2);
  const BlockCyclic1D layout(5, 12, 2, ctx->global_num_devices());
  const auto A = testing::random_vector<T>(60, rng);
  ASSERT_GT(testing::norm_fro<T>(5, 12, A.data(), 5), 0.0);
  DistMatrix<T> dA(ctx, layout);
  dA.distribute_replicated(A.data(), 5);
  DistMatrix<T> moved(std::move(dA));
  EXPECT_EQ(moved.layout(), layout);
  EXPECT_EQ(count_local_mismatches(moved, A.data(), 5), 0);
}

}  // namespace
}  // namespace mgblas
