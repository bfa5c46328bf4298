// SPDX-License-Identifier: BSD-3-Clause
// Property tests of the index maps BlockCyclic1D and RowTiling: exhaustive over small
// shapes, random over larger ones, and the argument checks of their constructors.
#include <gtest/gtest.h>

#include <algorithm>
#include <complex>
#include <cstdint>
#include <numeric>
#include <random>
#include <string>
#include <vector>

#include "core/error.hpp"
#include "layouts/block_cyclic.hpp"
#include "layouts/row_tiling.hpp"
#include "tests/testing/testing.hpp"

namespace mgblas {
namespace {

std::string describe(const BlockCyclic1D& l) {
  return detail::concat("BlockCyclic1D(m=", l.m(), ", n=", l.n(), ", nb=", l.nb(),
                        ", P=", l.num_devices(), ", first=", l.first(), ")");
}

// Element sizes the padded leading dimension must serve: the four scalars, plus odd
// sizes that do not divide 128.
constexpr int64_t kElemSizes[] = {sizeof(float),
                                  sizeof(double),
                                  sizeof(std::complex<float>),
                                  sizeof(std::complex<double>),
                                  1,
                                  2,
                                  3,
                                  12,
                                  24,
                                  48,
                                  128,
                                  256};

// +------------------------------------------------------------------------------+
// | ld = padded_ld(m, s):  ld >= max(1, m),  (ld * s) mod 128 = 0,  and ld is the |
// | smallest such value (ld - 128 / gcd(128, s) < max(1, m)).                    |
// +------------------------------------------------------------------------------+
void check_padded_ld(int64_t m) {
  for (int64_t s : kElemSizes) {
    const int64_t ld = BlockCyclic1D::padded_ld(m, s);
    const int64_t segment_rows = 128 / std::gcd<int64_t>(128, s);
    EXPECT_GE(ld, std::max<int64_t>(1, m)) << "m=" << m << " elem=" << s;
    EXPECT_EQ(ld * s % 128, 0) << "m=" << m << " elem=" << s << " ld=" << ld;
    EXPECT_LT(ld - segment_rows, std::max<int64_t>(1, m)) << "m=" << m << " elem=" << s;
  }
}

// Every property of a BlockCyclic1D, checked column by column; returns the number of
// columns visited so callers can assert the check was not vacuous.
int64_t check_block_cyclic(const BlockCyclic1D& l) {
  SCOPED_TRACE(describe(l));
  const int64_t n = l.n(), nb = l.nb();
  const int P = l.num_devices();
  int64_t failures = 0;
  auto fail = [&](bool bad) { failures += bad ? 1 : 0; };

  // +------------------------------------------------------------------+
  // | num_blocks = ceil(n / nb);  widths in [1, nb] sum to n;           |
  // | sum_g local_n(g) = n;  sum_g local_blocks(g) = num_blocks         |
  // +------------------------------------------------------------------+
  EXPECT_EQ(l.num_blocks(), (n + nb - 1) / nb);
  int64_t width_sum = 0;
  for (int64_t jb = 0; jb < l.num_blocks(); ++jb) {
    const int64_t w = l.block_width(jb);
    fail(w < 1 || w > nb);
    fail(jb + 1 < l.num_blocks() && w != nb);
    width_sum += w;
  }
  EXPECT_EQ(width_sum, n);

  int64_t n_sum = 0, blocks_sum = 0;
  for (int g = 0; g < P; ++g) {
    n_sum += l.local_n(g);
    blocks_sum += l.local_blocks(g);
    // A device's columns are its blocks' widths; it owns its first block if any.
    int64_t from_blocks = 0, counted_blocks = 0;
    for (int64_t jb = 0; jb < l.num_blocks(); ++jb)
      if (l.block_owner(jb) == g) {
        from_blocks += l.block_width(jb);
        ++counted_blocks;
      }
    EXPECT_EQ(l.local_n(g), from_blocks) << "device " << g;
    EXPECT_EQ(l.local_blocks(g), counted_blocks) << "device " << g;
    if (l.first_block(g) < l.num_blocks())
      EXPECT_EQ(l.block_owner(l.first_block(g)), g);
    else
      EXPECT_EQ(l.local_blocks(g), 0) << "device " << g;
  }
  EXPECT_EQ(n_sum, n);
  EXPECT_EQ(blocks_sum, l.num_blocks());

  // +------------------------------------------------------------------+
  // | for all j: g = owner(j) in [0, P), jl = local_col(j) in           |
  // |   [0, local_n(g)), global_col(g, jl) = j, and (g, jl) is hit once |
  // +------------------------------------------------------------------+
  std::vector<std::vector<int>> hits(P);
  for (int g = 0; g < P; ++g) hits[g].assign(static_cast<std::size_t>(l.local_n(g)), 0);
  for (int64_t j = 0; j < n; ++j) {
    const int g = l.owner(j);
    if (g < 0 || g >= P) {
      fail(true);
      continue;
    }
    fail(g != l.block_owner(j / nb));
    const int64_t jl = l.local_col(j);
    if (jl < 0 || jl >= l.local_n(g)) {
      fail(true);
      continue;
    }
    ++hits[g][jl];
    fail(l.global_col(g, jl) != j);
  }
  for (int g = 0; g < P; ++g)
    for (int h : hits[g]) fail(h != 1);

  // +------------------------------------------------------------------+
  // | for all g, jl < local_n(g): j = global_col(g, jl) in [0, n),      |
  // |   owner(j) = g, local_col(j) = jl, increasing in jl               |
  // +------------------------------------------------------------------+
  for (int g = 0; g < P; ++g) {
    int64_t previous = -1;
    for (int64_t jl = 0; jl < l.local_n(g); ++jl) {
      const int64_t j = l.global_col(g, jl);
      fail(j < 0 || j >= n || j <= previous);
      fail(j >= 0 && j < n && (l.owner(j) != g || l.local_col(j) != jl));
      previous = j;
    }
  }

  for (int64_t s : kElemSizes) EXPECT_EQ(l.local_ld(s), BlockCyclic1D::padded_ld(l.m(), s));
  EXPECT_EQ(failures, 0);
  return n;
}

TEST(BlockCyclic1D, ExhaustiveSmall) {
  int64_t cases = 0, columns = 0;
  for (int64_t n = 0; n <= 24; ++n)
    for (int64_t nb = 1; nb <= 8; ++nb)
      for (int P = 1; P <= 7; ++P)
        for (int first = 0; first < P; ++first) {
          const int64_t m = (n * 7 + nb) % 5;  // m only sets ld; vary it cheaply
          columns += check_block_cyclic(BlockCyclic1D(m, n, nb, P, first));
          ++cases;
          if (::testing::Test::HasFailure()) return;
        }
  EXPECT_GT(cases, 0);
  EXPECT_GT(columns, 0);
}

TEST(BlockCyclic1D, RandomShapes) {
  auto rng = testing::make_rng();
  std::uniform_int_distribution<int64_t> nd(0, 3000), nbd(1, 300), md(0, 5000);
  std::uniform_int_distribution<int> pd(1, 20);
  int64_t columns = 0;
  for (int c = 0; c < 400; ++c) {
    const int P = pd(rng);
    const int first = std::uniform_int_distribution<int>(0, P - 1)(rng);
    columns += check_block_cyclic(BlockCyclic1D(md(rng), nd(rng), nbd(rng), P, first));
    if (::testing::Test::HasFailure()) return;
  }
  EXPECT_GT(columns, 0);
}

TEST(BlockCyclic1D, EdgeShapes) {
  // n < nb, n a multiple of nb, more devices than blocks, m or n zero.
  const BlockCyclic1D cases[] = {
      {0, 0, 1, 1},  {5, 0, 4, 3},     {0, 9, 4, 3, 2}, {7, 3, 8, 4, 3},    {7, 16, 4, 4},
      {7, 17, 4, 4}, {3, 5, 2, 16, 9}, {1, 1, 1, 1},    {100, 1, 64, 2, 1}, {9, 64, 64, 3, 1}};
  for (const auto& l : cases) check_block_cyclic(l);

  const BlockCyclic1D small(7, 3, 8, 4, 3);  // one narrow block, on device 3
  EXPECT_EQ(small.num_blocks(), 1);
  EXPECT_EQ(small.block_width(0), 3);
  EXPECT_EQ(small.local_n(3), 3);
  EXPECT_EQ(small.local_n(0), 0);
  EXPECT_EQ(small.local_blocks(0), 0);

  // The diagram in block_cyclic.hpp: 5 blocks over 2 devices.
  const BlockCyclic1D doc(10, 10, 2, 2);
  EXPECT_EQ(doc.local_n(0), 6);
  EXPECT_EQ(doc.local_n(1), 4);
  EXPECT_EQ(doc.global_col(0, 2), 4);
  EXPECT_EQ(doc.global_col(1, 3), 7);
}

TEST(BlockCyclic1D, LargeIndicesDoNotOverflow) {
  // Columns beyond 2^31: sampled round trips, and column counts summed over devices.
  auto rng = testing::make_rng();
  const BlockCyclic1D l(1000, (int64_t{1} << 40) + 12345, 4096, 7, 5);
  int64_t total = 0;
  for (int g = 0; g < l.num_devices(); ++g) total += l.local_n(g);
  EXPECT_EQ(total, l.n());
  std::uniform_int_distribution<int64_t> jd(0, l.n() - 1);
  for (int k = 0; k < 10000; ++k) {
    const int64_t j = k == 0 ? l.n() - 1 : jd(rng);
    const int g = l.owner(j);
    ASSERT_GE(g, 0);
    ASSERT_LT(g, l.num_devices());
    ASSERT_LT(l.local_col(j), l.local_n(g));
    ASSERT_EQ(l.global_col(g, l.local_col(j)), j);
  }
}

TEST(BlockCyclic1D, PaddedLeadingDimension) {
  for (int64_t m = 0; m <= 600; ++m) check_padded_ld(m);
  check_padded_ld(int64_t{1} << 33);
  EXPECT_EQ(BlockCyclic1D::padded_ld(0, 8), 16);
  EXPECT_EQ(BlockCyclic1D::padded_ld(17, 8), 32);
  EXPECT_EQ(BlockCyclic1D::padded_ld(33, 4), 64);
  EXPECT_EQ(BlockCyclic1D::padded_ld(9, 16), 16);
  EXPECT_EQ(BlockCyclic1D::padded_ld(1, 24), 16);  // 16 * 24 = 3 * 128 bytes
}

// Expects f() to throw BadArgument whose message names `arg` and shows `value`.
template <typename F>
void expect_bad_argument(F&& f, const std::string& arg, const std::string& value) {
  try {
    f();
    ADD_FAILURE() << "no BadArgument for " << arg << " = " << value;
  } catch (const BadArgument& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("'" + arg + "' = " + value), std::string::npos) << what;
  } catch (const std::exception& e) {
    ADD_FAILURE() << "wrong exception for " << arg << ": " << e.what();
  }
}

TEST(BlockCyclic1D, BadArgumentsThrow) {
  expect_bad_argument([] { BlockCyclic1D(-1, 4, 2, 2); }, "m", "-1");
  expect_bad_argument([] { BlockCyclic1D(4, -3, 2, 2); }, "n", "-3");
  expect_bad_argument([] { BlockCyclic1D(4, 4, 0, 2); }, "nb", "0");
  expect_bad_argument([] { BlockCyclic1D(4, 4, -5, 2); }, "nb", "-5");
  expect_bad_argument([] { BlockCyclic1D(4, 4, 2, 0); }, "P", "0");
  expect_bad_argument([] { BlockCyclic1D(4, 4, 2, 3, 3); }, "first", "3");
  expect_bad_argument([] { BlockCyclic1D(4, 4, 2, 3, -1); }, "first", "-1");
  EXPECT_NO_THROW(BlockCyclic1D(0, 0, 1, 1, 0));
}

TEST(BlockCyclic1D, EqualityComparesAllParameters) {
  EXPECT_EQ(BlockCyclic1D(4, 5, 2, 3, 1), BlockCyclic1D(4, 5, 2, 3, 1));
  EXPECT_NE(BlockCyclic1D(4, 5, 2, 3, 1), BlockCyclic1D(4, 5, 2, 3, 2));
  EXPECT_NE(BlockCyclic1D(4, 5, 2, 3, 1), BlockCyclic1D(4, 5, 3, 3, 1));
}

// Every property of a RowTiling; returns the number of rows visited.
int64_t check_row_tiling(const RowTiling& t) {
  SCOPED_TRACE(
      detail::concat("RowTiling(m=", t.m(), ", P=", t.num_devices(), ", tile=", t.tile(), ")"));
  const int64_t m = t.m(), tile = t.tile();
  const int P = t.num_devices();
  int64_t failures = 0;
  auto fail = [&](bool bad) { failures += bad ? 1 : 0; };

  // +------------------------------------------------------------------------+
  // | [row_begin(d), row_end(d)) partition [0, m) in device order; each begin |
  // | is a multiple of tile (or m); tile counts differ by <= 1, lower devices |
  // | holding the extra ones; owner(i) = the d whose range holds i            |
  // +------------------------------------------------------------------------+
  EXPECT_EQ(t.num_tiles(), (m + tile - 1) / tile);
  EXPECT_EQ(t.row_begin(0), 0);
  EXPECT_EQ(t.row_end(P - 1), m);
  int64_t rows = 0, prev_tiles = -1, min_tiles = INT64_MAX, max_tiles = 0;
  for (int d = 0; d < P; ++d) {
    const int64_t b = t.row_begin(d), e = t.row_end(d);
    fail(b > e || b < 0 || e > m);
    fail(b % tile != 0 && b != m);
    if (d + 1 < P) fail(e != t.row_begin(d + 1));
    fail(t.local_m(d) != e - b);
    rows += e - b;
    const int64_t tiles = (e - b + tile - 1) / tile;
    fail(prev_tiles >= 0 && tiles > prev_tiles);
    prev_tiles = tiles;
    min_tiles = std::min(min_tiles, tiles);
    max_tiles = std::max(max_tiles, tiles);
  }
  EXPECT_EQ(rows, m);
  EXPECT_LE(max_tiles - min_tiles, 1);
  for (int64_t i = 0; i < m; ++i) {
    const int d = t.owner(i);
    if (d < 0 || d >= P) {
      fail(true);
      continue;
    }
    fail(i < t.row_begin(d) || i >= t.row_end(d));
  }
  EXPECT_EQ(failures, 0);
  return m;
}

TEST(RowTiling, ExhaustiveSmall) {
  int64_t rows = 0;
  for (int64_t m = 0; m <= 70; ++m)
    for (int64_t tile = 1; tile <= 9; ++tile)
      for (int P = 1; P <= 9; ++P) {
        rows += check_row_tiling(RowTiling(m, P, tile));
        if (::testing::Test::HasFailure()) return;
      }
  EXPECT_GT(rows, 0);
}

TEST(RowTiling, RandomShapes) {
  auto rng = testing::make_rng();
  std::uniform_int_distribution<int64_t> md(0, 20000), td(1, 512);
  std::uniform_int_distribution<int> pd(1, 24);
  int64_t rows = 0;
  for (int c = 0; c < 300; ++c) {
    rows += check_row_tiling(RowTiling(md(rng), pd(rng), td(rng)));
    if (::testing::Test::HasFailure()) return;
  }
  EXPECT_GT(rows, 0);
}

TEST(RowTiling, KnownSplits) {
  // 5 tiles over 3 devices: 2, 2, 1 tiles; the last tile is partial (m = 9, tile 2).
  const RowTiling t(9, 3, 2);
  EXPECT_EQ(t.row_begin(1), 4);
  EXPECT_EQ(t.row_begin(2), 8);
  EXPECT_EQ(t.local_m(2), 1);
  EXPECT_EQ(t.owner(8), 2);
  // More devices than tiles: the last devices own nothing.
  const RowTiling few(3, 5, 1);
  EXPECT_EQ(few.local_m(2), 1);
  EXPECT_EQ(few.local_m(3), 0);
  EXPECT_EQ(few.local_m(4), 0);
  EXPECT_EQ(few.owner(2), 2);
  // Large sizes.
  const RowTiling big((int64_t{1} << 40) + 7, 6, 128);
  int64_t sum = 0;
  for (int d = 0; d < 6; ++d) sum += big.local_m(d);
  EXPECT_EQ(sum, big.m());
  EXPECT_EQ(big.owner(big.m() - 1), 5);
  EXPECT_EQ(big.owner(big.row_begin(3)), 3);
  EXPECT_EQ(big.owner(big.row_begin(3) - 1), 2);
}

TEST(RowTiling, BadArgumentsThrow) {
  expect_bad_argument([] { RowTiling(-2, 2, 1); }, "m", "-2");
  expect_bad_argument([] { RowTiling(10, 0, 1); }, "P", "0");
  expect_bad_argument([] { RowTiling(10, 2, 0); }, "tile", "0");
  EXPECT_NO_THROW(RowTiling(0, 1, 1));
}

}  // namespace
}  // namespace mgblas
