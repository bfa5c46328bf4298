// SPDX-License-Identifier: BSD-3-Clause
// Column ranges of a BlockCyclic1D on one device (private to dist): which local columns
// of a device fall in a range of global columns. A device's local columns are in
// increasing global order, so the columns of a global range [c0, c1) form one
// contiguous local range [local_begin(c0), local_begin(c1)).
#pragma once

#include <algorithm>
#include <cstdint>

#include "layouts/block_cyclic.hpp"

namespace mgblas::detail {

/// Number of local columns of global device g whose global index is below c, for
/// 0 <= c <= L.n(): the local index of g's first column at or after c.
MGBLAS_HD inline int64_t local_begin(const BlockCyclic1D& L, int g, int64_t c) {
  const int64_t nb = L.nb(), P = L.num_devices();
  const int64_t jb = c / nb;  // block holding c (num_blocks() when c = n and nb divides n)
  const int64_t s = L.first_block(g);
  // g's blocks before jb are s, s + P, ...; none of them is the (possibly narrow) last.
  int64_t cols = (jb > s ? (jb - s + P - 1) / P : 0) * nb;
  if (jb < L.num_blocks() && L.block_owner(jb) == g) cols += c - jb * nb;
  return cols;
}

/// Local columns of g in the global range [c0, c1).
MGBLAS_HD inline int64_t local_count(const BlockCyclic1D& L, int g, int64_t c0, int64_t c1) {
  return local_begin(L, g, c1) - local_begin(L, g, c0);
}

/// The largest local_count(L, g, c0, n) over all devices g: the padded per-device size
/// of a gather of the columns [c0, n) (equal send counts, as NCCL's all-gather needs).
inline int64_t max_local_count(const BlockCyclic1D& L, int64_t c0) {
  int64_t most = 0;
  for (int g = 0; g < L.num_devices(); ++g) most = std::max(most, local_count(L, g, c0, L.n()));
  return most;
}

}  // namespace mgblas::detail
