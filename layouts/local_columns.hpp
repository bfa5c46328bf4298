// SPDX-License-Identifier: BSD-3-Clause
// LocalColumns: a contiguous range of one device's local columns as plain index data,
// the form in which layouts/ hands a distribution to device kernels (kernels/ never
// sees a layout type). Local columns come in blocks of nb; local block q starts at
// global column first_col + q * stride. BlockCyclic1D::local_columns fills it
// (stride = P * nb); one contiguous range is nb = stride = its width.
#pragma once

#include <cstdint>

#include "core/types.hpp"

namespace mgblas {

struct LocalColumns {
  int64_t nb = 1;         ///< columns per local block, >= 1
  int64_t stride = 1;     ///< global columns from one local block to the next, >= nb
  int64_t first_col = 0;  ///< global column of local column 0
  int64_t local_begin = 0, local_end = 0;  ///< the range [local_begin, local_end)

  MGBLAS_HD int64_t count() const { return local_end - local_begin; }
  /// Global column of local column jl.
  MGBLAS_HD int64_t global_col(int64_t jl) const {
    return first_col + jl / nb * stride + jl % nb;
  }
};

/// Calls f(jl, gc, w) for each run of the range's local columns that is contiguous in
/// the global matrix, in order: local columns [jl, jl + w) are global [gc, gc + w).
template <typename F>
void for_each_column_run(const LocalColumns& c, F&& f) {
  for (int64_t jl = c.local_begin; jl < c.local_end;) {
    const int64_t end = jl / c.nb * c.nb + c.nb;  // end of jl's local block
    const int64_t w = (end < c.local_end ? end : c.local_end) - jl;
    f(jl, c.global_col(jl), w);
    jl += w;
  }
}

}  // namespace mgblas
