// SPDX-License-Identifier: BSD-3-Clause
// Batch splits over devices (layouts/batch_split.hpp).
#include "layouts/batch_split.hpp"

#include <algorithm>

#include "core/error.hpp"
#include "layouts/row_tiling.hpp"

namespace mgblas {

BatchShare batch_share(int64_t batch, int P, int g) {
  const RowTiling tiling(batch, P, 1);
  return {tiling.row_begin(g), tiling.local_m(g)};
}

std::vector<int64_t> batch_split_by_work(int64_t batch, const int64_t* m, const int64_t* n,
                                         const int64_t* k, int P) {
  MGBLAS_CHECK_ARG(P >= 1, "P", P, ">= 1");
  std::vector<double> prefix(static_cast<std::size_t>(batch) + 1, 0.0);
  for (int64_t i = 0; i < batch; ++i) {
    const double w = m[i] > 0 && n[i] > 0
                         ? static_cast<double>(m[i]) * n[i] * std::max<int64_t>(k[i], 1)
                         : 0.0;
    prefix[i + 1] = prefix[i] + w;
  }
  std::vector<int64_t> bounds(static_cast<std::size_t>(P) + 1, batch);
  bounds[0] = 0;
  const double total = prefix.back();
  for (int g = 1; g < P; ++g) {
    if (total <= 0) {
      bounds[g] = batch_share(batch, P, g).first;  // nothing to balance: by count
      continue;
    }
    const double target = total * g / P;
    const auto it = std::lower_bound(prefix.begin(), prefix.end(), target);
    bounds[g] = std::max(bounds[g - 1], static_cast<int64_t>(it - prefix.begin()));
  }
  return bounds;
}

}  // namespace mgblas
