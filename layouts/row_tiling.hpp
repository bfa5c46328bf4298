// SPDX-License-Identifier: BSD-3-Clause
// RowTiling: m rows split into contiguous row blocks, one per global device, each a
// whole number of `tile` rows (except the last block of the matrix). The natural split
// of a tall-and-skinny A (each device owns full rows: no reduction) and of batches.
#pragma once

#include <cstdint>

#include "core/error.hpp"
#include "layouts/block_cyclic.hpp"

namespace mgblas {

class RowTiling {
 public:
  RowTiling() = default;
  /// Throws BadArgument for m < 0, P < 1 or tile < 1.
  RowTiling(int64_t m, int P, int64_t tile = 1) : m_(m), p_(P), tile_(tile) {
    MGBLAS_CHECK_ARG(m >= 0, "m", m, ">= 0");
    MGBLAS_CHECK_ARG(P >= 1, "P", P, ">= 1");
    MGBLAS_CHECK_ARG(tile >= 1, "tile", tile, ">= 1");
  }

  MGBLAS_HD int64_t m() const { return m_; }
  MGBLAS_HD int num_devices() const { return p_; }
  MGBLAS_HD int64_t tile() const { return tile_; }
  MGBLAS_HD int64_t num_tiles() const { return (m_ + tile_ - 1) / tile_; }

  /// First row of device dev: tiles are dealt as evenly as possible, lower devices
  /// taking the extra ones (device dev gets num_tiles / P tiles, plus one if
  /// dev < num_tiles mod P).
  MGBLAS_HD int64_t row_begin(int dev) const {
    const int64_t q = num_tiles() / p_, extra = num_tiles() % p_;
    const int64_t t = dev * q + (dev < extra ? dev : extra);
    const int64_t r = t * tile_;
    return r < m_ ? r : m_;
  }
  MGBLAS_HD int64_t row_end(int dev) const { return row_begin(dev + 1 > p_ ? p_ : dev + 1); }
  MGBLAS_HD int64_t local_m(int dev) const { return row_end(dev) - row_begin(dev); }
  /// Device owning global row i (0 <= i < m).
  MGBLAS_HD int owner(int64_t i) const {
    const int64_t t = i / tile_;
    const int64_t q = num_tiles() / p_, extra = num_tiles() % p_;
    // The first `extra` devices hold q + 1 tiles each, the others q (q > 0 whenever a
    // valid tile lies past the first extra * (q + 1); the guard only keeps a row
    // outside [0, m) from dividing by zero).
    const int64_t big = extra * (q + 1);
    if (t < big) return static_cast<int>(t / (q + 1));
    return q > 0 ? static_cast<int>(extra + (t - big) / q) : p_ - 1;
  }

  friend bool operator==(const RowTiling&, const RowTiling&) = default;

 private:
  int64_t m_ = 0;
  int p_ = 1;
  int64_t tile_ = 1;
};

}  // namespace mgblas
