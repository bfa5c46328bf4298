// SPDX-License-Identifier: BSD-3-Clause
// The reductions' panel widths (dist/lapack/detail/panel_width.hpp): an automatic width
// is the largest divisor of nb under the rule's cap (so a panel never straddles two
// block columns), hetrd's cap moves from 32 to 64 at n = 6144, gebrd's stays 32, and a
// requested width passes through unchanged for the callers' own checks.
#include <gtest/gtest.h>

#include <cstdint>

#include "dist/lapack/detail/panel_width.hpp"

namespace mgblas::detail {
namespace {

// Whether w is the largest divisor of nb that is <= cap.
bool largest_divisor_under(int64_t nb, int64_t cap, int64_t w) {
  if (w < 1 || w > cap || nb % w != 0) return false;
  for (int64_t v = w + 1; v <= cap && v <= nb; ++v)
    if (nb % v == 0) return false;
  return true;
}

TEST(PanelWidth, AutomaticIsTheLargestDivisorUnderTheCap) {
  for (int64_t nb = 1; nb <= 300; ++nb)
    for (int64_t cap : {1, 16, 32, 64, 128}) {
      const int64_t w = panel_width(nb, 0, cap);
      EXPECT_TRUE(largest_divisor_under(nb, cap, w)) << "nb=" << nb << " cap=" << cap << " w=" << w;
    }
}

TEST(PanelWidth, TridiagonalCapFollowsN) {
  for (int64_t nb = 1; nb <= 300; ++nb) {
    for (int64_t n : {1, 100, 4096, 6143})
      EXPECT_TRUE(largest_divisor_under(nb, 32, tridiagonal_panel_width(nb, 0, n)))
          << "nb=" << nb << " n=" << n;
    for (int64_t n : {6144, 16384, 1 << 20})
      EXPECT_TRUE(largest_divisor_under(nb, 64, tridiagonal_panel_width(nb, 0, n)))
          << "nb=" << nb << " n=" << n;
  }
  EXPECT_EQ(tridiagonal_panel_width(256, 0, 4096), 32);
  EXPECT_EQ(tridiagonal_panel_width(256, 0, 8192), 64);
  EXPECT_EQ(tridiagonal_panel_width(96, 0, 8192), 48);
}

TEST(PanelWidth, BidiagonalCapIs32) {
  for (int64_t nb = 1; nb <= 300; ++nb)
    EXPECT_TRUE(largest_divisor_under(nb, 32, bidiagonal_panel_width(nb, 0))) << "nb=" << nb;
  EXPECT_EQ(bidiagonal_panel_width(256, 0), 32);
  EXPECT_EQ(bidiagonal_panel_width(48, 0), 24);
  EXPECT_EQ(bidiagonal_panel_width(7, 0), 7);
}

TEST(PanelWidth, RequestedWidthPassesThrough) {
  for (int64_t req : {-5, -1, 1, 3, 16, 64, 128, 1000}) {
    EXPECT_EQ(panel_width(256, req), req);
    EXPECT_EQ(tridiagonal_panel_width(256, req, 4096), req);
    EXPECT_EQ(tridiagonal_panel_width(256, req, 65536), req);
    EXPECT_EQ(bidiagonal_panel_width(256, req), req);
  }
}

}  // namespace
}  // namespace mgblas::detail
