// SPDX-License-Identifier: BSD-3-Clause
// The pure distribution functions of layouts/ (column ranges of a device, its columns
// as plain index data, runs of contiguous columns, the batch splits) on fresh random
// shapes, each against a brute-force walk over every global column or entry.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <random>
#include <vector>

#include "layouts/batch_split.hpp"
#include "layouts/block_cyclic.hpp"
#include "layouts/local_columns.hpp"
#include "tests/testing/testing.hpp"

namespace mgblas {
namespace {

constexpr int kShapes = 200;

BlockCyclic1D random_layout(std::mt19937_64& rng) {
  std::uniform_int_distribution<int64_t> n_dist(0, 300), nb_dist(1, 40);
  std::uniform_int_distribution<int> p_dist(1, 7);
  const int P = p_dist(rng);
  const int first = std::uniform_int_distribution<int>(0, P - 1)(rng);
  return BlockCyclic1D(5, n_dist(rng), nb_dist(rng), P, first);
}

// Device g's global columns in [c0, c1) in local order, by walking every column.
std::vector<int64_t> owned_columns(const BlockCyclic1D& L, int g, int64_t c0, int64_t c1) {
  std::vector<int64_t> cols;
  for (int64_t j = c0; j < c1; ++j)
    if (L.owner(j) == g) cols.push_back(j);
  return cols;
}

// +-----------------------------------------------------------------------------------+
// | local_begin(L, g, c) = #{ j < c : owner(j) = g };  local_count(L, g, c0, c1) =    |
// | #{ c0 <= j < c1 : owner(j) = g };  max_local_count(L, c0) = max over g of the      |
// | count in [c0, n);  local_columns(L, g, c0, c1).global_col(jl) for jl in its range  |
// | = the owned columns of [c0, c1) in increasing order, and = L.global_col(g, jl).    |
// +-----------------------------------------------------------------------------------+
TEST(LayoutFunctions, ColumnRangesAgainstWalk) {
  auto rng = testing::make_rng();
  int64_t checked = 0;
  for (int s = 0; s < kShapes; ++s) {
    const BlockCyclic1D L = random_layout(rng);
    const int64_t n = L.n();
    std::uniform_int_distribution<int64_t> col(0, n);
    int64_t c0 = col(rng), c1 = col(rng);
    if (c0 > c1) std::swap(c0, c1);
    SCOPED_TRACE(::testing::Message() << "n=" << n << " nb=" << L.nb() << " P="
                                      << L.num_devices() << " first=" << L.first() << " c0="
                                      << c0 << " c1=" << c1);
    int64_t most = 0;
    for (int g = 0; g < L.num_devices(); ++g) {
      const std::vector<int64_t> want = owned_columns(L, g, c0, c1);
      const int64_t before = static_cast<int64_t>(owned_columns(L, g, 0, c0).size());
      EXPECT_EQ(local_begin(L, g, c0), before);
      EXPECT_EQ(local_count(L, g, c0, c1), static_cast<int64_t>(want.size()));
      most = std::max(most, static_cast<int64_t>(owned_columns(L, g, c0, n).size()));

      const LocalColumns lc = local_columns(L, g, c0, c1);
      ASSERT_EQ(lc.count(), static_cast<int64_t>(want.size()));
      EXPECT_EQ(lc.local_begin, before);
      for (int64_t t = 0; t < lc.count(); ++t) {
        EXPECT_EQ(lc.global_col(lc.local_begin + t), want[t]);
        EXPECT_EQ(lc.global_col(lc.local_begin + t), L.global_col(g, lc.local_begin + t));
        ++checked;
      }

      // Runs: contiguous in both numberings, covering the range once, in order.
      std::vector<int64_t> seen;
      for_each_column_run(lc, [&](int64_t jl, int64_t gc, int64_t w) {
        EXPECT_GT(w, 0);
        EXPECT_LE(w, L.nb());
        for (int64_t i = 0; i < w; ++i) {
          EXPECT_EQ(lc.global_col(jl + i), gc + i);
          seen.push_back(gc + i);
        }
      });
      EXPECT_EQ(seen, want);
    }
    EXPECT_EQ(max_local_count(L, c0), most);
  }
  EXPECT_GT(checked, 0);
}

// +-----------------------------------------------------------------------------------+
// | batch_share(batch, P, g): contiguous, in device order, covering [0, batch), sizes  |
// | differing by at most one, larger ones first.  batch_split_by_work: P + 1 bounds    |
// | from 0 to batch, non-decreasing; device g's work <= total / P + the largest entry. |
// +-----------------------------------------------------------------------------------+
TEST(LayoutFunctions, BatchSplitsAgainstWalk) {
  auto rng = testing::make_rng();
  for (int s = 0; s < kShapes; ++s) {
    const int64_t batch = std::uniform_int_distribution<int64_t>(0, 60)(rng);
    const int P = std::uniform_int_distribution<int>(1, 9)(rng);
    SCOPED_TRACE(::testing::Message() << "batch=" << batch << " P=" << P);
    int64_t next = 0, prev = batch + 1;
    for (int g = 0; g < P; ++g) {
      const BatchShare sh = batch_share(batch, P, g);
      EXPECT_EQ(sh.first, next);
      EXPECT_LE(sh.count, prev);
      EXPECT_LE(sh.count, batch / P + 1);
      EXPECT_GE(sh.count, batch / P);
      next += sh.count;
      prev = sh.count;
    }
    EXPECT_EQ(next, batch);

    std::uniform_int_distribution<int64_t> dim(0, 12);
    std::vector<int64_t> m(batch), n(batch), k(batch);
    double total = 0, largest = 0;
    std::vector<double> work(batch);
    for (int64_t i = 0; i < batch; ++i) {
      m[i] = dim(rng), n[i] = dim(rng), k[i] = dim(rng);
      work[i] = m[i] > 0 && n[i] > 0 ? double(m[i]) * n[i] * std::max<int64_t>(k[i], 1) : 0;
      total += work[i];
      largest = std::max(largest, work[i]);
    }
    const std::vector<int64_t> b = batch_split_by_work(batch, m.data(), n.data(), k.data(), P);
    ASSERT_EQ(b.size(), static_cast<size_t>(P) + 1);
    EXPECT_EQ(b.front(), 0);
    EXPECT_EQ(b.back(), batch);
    for (int g = 0; g < P; ++g) {
      EXPECT_LE(b[g], b[g + 1]);
      double w = 0;
      for (int64_t i = b[g]; i < b[g + 1]; ++i) w += work[i];
      EXPECT_LE(w, total / P + largest + 1e-9 * total) << "device " << g;
    }
  }
}

}  // namespace
}  // namespace mgblas
