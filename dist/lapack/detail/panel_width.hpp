// SPDX-License-Identifier: BSD-3-Clause
// The reflector-block width of the reductions (private to dist/lapack): hetrd_mgpu's panels
// and unmtr_mgpu's blocks must agree, so both take it from here.
#pragma once

#include <algorithm>
#include <cstdint>

namespace mgblas::detail {

/// `requested` when non-zero (a negative one then fails the caller's check of
/// opts.panel instead of meaning "automatic"), else the largest divisor of nb that is
/// <= 64 (LAPACK's ilaenv gives 32-64 for these steps), so that a block never straddles
/// two block columns of A and has one owner.
inline int64_t panel_width(int64_t nb, int64_t requested) {
  if (requested != 0) return requested;
  for (int64_t w = std::min<int64_t>(nb, 64); w > 1; --w)
    if (nb % w == 0) return w;
  return 1;
}

}  // namespace mgblas::detail
