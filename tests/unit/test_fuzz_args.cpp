// SPDX-License-Identifier: BSD-3-Clause
// Fuzz of the argument checks and the layout maps near the 64-bit limits (issue 12):
// random sizes, offsets, increments, nb and device counts, each call compared with a
// plain model of what is valid written in 128-bit arithmetic. Valid calls are made
// with an empty dimension, so that they pass every check and then return without
// touching memory; the layout maps are checked for consistency on sampled columns.
#include <gtest/gtest.h>

#include <cstdint>
#include <limits>
#include <random>

#include "core/device.hpp"
#include "core/error.hpp"
#include "kernels/blas.hpp"
#include "layouts/block_cyclic.hpp"

namespace mgblas {
namespace {

using i128 = __int128;
constexpr i128 kMax = std::numeric_limits<int64_t>::max();

// Values spread over every magnitude, with the edges (0, 1, the limit) often.
int64_t pick(std::mt19937_64& rng, bool allow_negative = true) {
  switch (rng() % 8) {
    case 0: return 0;
    case 1: return 1;
    case 2: return std::numeric_limits<int64_t>::max() - static_cast<int64_t>(rng() % 4);
    case 3: return allow_negative ? -static_cast<int64_t>(rng() % 3 + 1) : 2;
    default: return static_cast<int64_t>(rng() >> (rng() % 63 + 1));
  }
}

bool fits(i128 v) { return v <= kMax; }

TEST(FuzzArguments, GemvOffsetMatchesTheModel) {
  std::mt19937_64 rng(std::random_device{}());
  const auto dev = Device::make_host(0);
  double a = 0, x = 0, y = 0;
  int valid = 0;
  for (int it = 0; it < 20000; ++it) {
    const Op op = rng() % 2 ? Op::N : Op::T;
    int64_t m = pick(rng), n = pick(rng);
    if (rng() % 2) m = 0; else n = 0;  // valid calls then return before any access
    const int64_t lda = pick(rng), row_off = pick(rng), col_off = pick(rng);
    const int64_t incx = pick(rng), incy = pick(rng);
    const i128 len_x = op == Op::N ? n : m, len_y = op == Op::N ? m : n;
    const bool ok = m >= 0 && n >= 0 && incx > 0 && incy > 0 && row_off >= 0 && col_off >= 0 &&
                    fits(i128{incx} * len_x) && fits(i128{incy} * len_y) &&
                    fits(i128{row_off} + m) && lda >= std::max<i128>(1, i128{row_off} + m) &&
                    fits(i128{col_off} + n) && fits(i128{lda} * (i128{col_off} + n));
    bool raised = false;
    try {
      gemv_offset(Queue(*dev), op, m, n, 1.0, &a, lda, row_off, col_off, &x, incx, 0.0, &y, incy);
    } catch (const BadArgument&) {
      raised = true;
    }
    ASSERT_EQ(raised, !ok) << "op " << static_cast<char>(op) << " m " << m << " n " << n
                           << " lda " << lda << " row_off " << row_off << " col_off " << col_off
                           << " incx " << incx << " incy " << incy;
    valid += ok;
  }
  EXPECT_GT(valid, 100);  // the model is not trivially "everything fails"
}

TEST(FuzzArguments, SymvOffsetMatchesTheModel) {
  std::mt19937_64 rng(std::random_device{}());
  const auto dev = Device::make_host(0);
  double a = 0, x = 0, y = 0;
  for (int it = 0; it < 20000; ++it) {
    const int64_t n = rng() % 4 ? 0 : pick(rng);
    const int64_t lda = pick(rng), off = pick(rng), incx = pick(rng), incy = pick(rng);
    const bool ok = n >= 0 && incx > 0 && incy > 0 && off >= 0 && fits(i128{incx} * n) &&
                    fits(i128{incy} * n) && fits(i128{off} + n) &&
                    lda >= std::max<i128>(1, i128{off} + n) && fits(i128{lda} * (i128{off} + n));
    if (ok && n > 0) continue;  // would compute: only the rejections are probed here
    bool raised = false;
    try {
      symv_offset(Queue(*dev), Uplo::Lower, n, 1.0, &a, lda, off, &x, incx, 0.0, &y, incy);
    } catch (const BadArgument&) {
      raised = true;
    }
    ASSERT_EQ(raised, !ok) << "n " << n << " lda " << lda << " off " << off << " incx " << incx
                           << " incy " << incy;
  }
}

TEST(FuzzLayouts, BlockCyclicMapsAreConsistentNearTheLimits) {
  std::mt19937_64 rng(std::random_device{}());
  int built = 0;
  for (int it = 0; it < 20000; ++it) {
    const int64_t m = pick(rng), n = pick(rng);
    const int64_t nb = rng() % 3 ? static_cast<int64_t>(rng() % 4096 + 1) : pick(rng);
    const int P = static_cast<int>(rng() % 65) - (rng() % 16 == 0 ? 1 : 0);
    const int first = P > 0 ? static_cast<int>(rng() % P) : 0;
    const bool ok = m >= 0 && n >= 0 && nb >= 1 && P >= 1 && fits(i128{n} + nb) &&
                    fits(i128{m} + 128);
    BlockCyclic1D L;
    try {
      L = BlockCyclic1D(m, n, nb, P, first);
    } catch (const BadArgument&) {
      ASSERT_FALSE(ok) << m << " " << n << " " << nb << " " << P;
      continue;
    }
    ASSERT_TRUE(ok) << m << " " << n << " " << nb << " " << P;
    ++built;
    i128 total = 0;
    for (int g = 0; g < P; ++g) {
      ASSERT_GE(L.local_n(g), 0) << "n " << n << " nb " << nb << " P " << P << " first " << first << " g " << g;
      total += L.local_n(g);
    }
    ASSERT_EQ(total, i128{n}) << n << " " << nb << " " << P;
    ASSERT_GE(L.local_ld(8), std::max<int64_t>(1, m));
    for (int s = 0; s < 8 && n > 0; ++s) {
      const int64_t j = s == 0 ? n - 1 : static_cast<int64_t>(rng() % static_cast<uint64_t>(n));
      const int g = L.owner(j);
      ASSERT_TRUE(g >= 0 && g < P);
      const int64_t jl = L.local_col(j);
      ASSERT_TRUE(jl >= 0 && jl < L.local_n(g)) << j << " " << nb << " " << P;
      ASSERT_EQ(L.global_col(g, jl), j);
    }
  }
  EXPECT_GT(built, 1000);
}

}  // namespace
}  // namespace mgblas
