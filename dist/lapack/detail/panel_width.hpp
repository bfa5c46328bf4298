// SPDX-License-Identifier: BSD-3-Clause
// The reflector-block width of the reductions (private to dist/lapack): hetrd_mgpu's and
// gebrd_mgpu's panels, and unmtr_mgpu's blocks (which may differ from the panels the
// reduction used).
#pragma once

#include <algorithm>
#include <cstdint>

namespace mgblas::detail {

/// `requested` when non-zero (a negative one then fails the caller's check of
/// opts.panel instead of meaning "automatic"), else the largest divisor of nb that is
/// <= cap (LAPACK's ilaenv gives 32-64 for these steps), so that a block never straddles
/// two block columns of A and has one owner.
inline int64_t panel_width(int64_t nb, int64_t requested, int64_t cap = 64) {
  if (requested != 0) return requested;
  for (int64_t w = std::min(nb, cap); w > 1; --w)
    if (nb % w == 0) return w;
  return 1;
}

/// hetrd_mgpu's panels for a matrix of order n: automatic widths are at most 32 below
/// n = 6144, else at most 64. Each column step of a panel sums over its columns so far,
/// so wide panels cost most where the steps dominate (small n), and narrow ones where
/// the trailing update does (large n). One H200, d, nb = 256 (2026-11-27): 32 was 5-8 %
/// faster than 64 at n = 4096, within 1 % (either way) at 8192, 4 % slower at 16384.
inline int64_t tridiagonal_panel_width(int64_t nb, int64_t requested, int64_t n) {
  return panel_width(nb, requested, n < 6144 ? 32 : 64);
}

/// gebrd_mgpu's panels: automatic widths are at most 32. Its column steps also sum over
/// the panel's columns so far (twice: X and Y), while the trailing update is one GEMM of
/// inner dimension 2 x panel either way. One H200, d, nb = 256 (2026-11-27), 32 against
/// 64: 6 % faster at 4096, 4 % at 8192, 9 % at 32768 x 4096, even at 16384; 16 was
/// slower than 32 at 4096 and 8192.
inline int64_t bidiagonal_panel_width(int64_t nb, int64_t requested) {
  return panel_width(nb, requested, 32);
}

/// unmtr_mgpu's blocks: automatic widths are at most 128 (kernels::kLarftMaxBlock). Each
/// block's three products have inner dimension the width, so wider blocks run the
/// gemms nearer their peak. One H200, d, n = K = 8192, nb = 256 (2026-11-27): width 32
/// 0.091 s, 64 0.061 s, 128 0.047 s (lower triangle; the upper alike).
inline int64_t reflector_block_width(int64_t nb, int64_t requested) {
  return panel_width(nb, requested, 128);
}

}  // namespace mgblas::detail
