// SPDX-License-Identifier: BSD-3-Clause
// Splits of a batch of independent entries over P devices into contiguous ranges, one
// per global device in device order: by count (RowTiling with tile 1) or by work.
// Pure functions: every rank computes the same split from the same arguments.
#pragma once

#include <cstdint>
#include <vector>

namespace mgblas {

/// The entries [first, first + count) of one device.
struct BatchShare {
  int64_t first = 0;
  int64_t count = 0;
};

/// Even split of `batch` entries over P devices: global device g gets batch / P
/// entries, plus one if g < batch mod P, in device order (RowTiling with tile 1).
BatchShare batch_share(int64_t batch, int P, int g);

/// Split of a variable-size batch over P devices into contiguous ranges of about equal
/// work (sum of m_i n_i max(k_i, 1)); returns the P + 1 boundaries (first entry of each
/// device, then batch). Every rank computes the same split from the same sizes.
std::vector<int64_t> batch_split_by_work(int64_t batch, const int64_t* m, const int64_t* n,
                                         const int64_t* k, int P);

}  // namespace mgblas
