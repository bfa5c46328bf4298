// SPDX-License-Identifier: BSD-3-Clause
// BlockCyclic1D: a global m x n matrix split into block columns of width nb, block
// column jb living on global device (jb + first) mod P (the KBLAS/MAGMA multi-GPU
// layout). Pure index arithmetic, usable on host and device.
//
//   global columns:  | b0 | b1 | b2 | b3 | b4 |       P = 2, first = 0
//   device 0 holds:  | b0 | b2 | b4 |                 (local column-major, ld padded)
//   device 1 holds:  | b1 | b3 |
#pragma once

#include <algorithm>
#include <cstdint>
#include <climits>

#include "core/error.hpp"
#include "core/types.hpp"
#include "layouts/local_columns.hpp"

namespace mgblas {

class BlockCyclic1D {
 public:
  BlockCyclic1D() = default;
  /// Throws BadArgument for m, n < 0, nb < 1, P < 1 or first outside [0, P).
  BlockCyclic1D(int64_t m, int64_t n, int64_t nb, int P, int first = 0)
      : m_(m), n_(n), nb_(nb), p_(P), first_(first) {
    MGBLAS_CHECK_ARG(m >= 0, "m", m, ">= 0");
    MGBLAS_CHECK_ARG(n >= 0, "n", n, ">= 0");
    MGBLAS_CHECK_ARG(nb >= 1, "nb", nb, ">= 1");
    MGBLAS_CHECK_ARG(P >= 1, "P", P, ">= 1");
    MGBLAS_CHECK_ARG(first >= 0 && first < P, "first", first, "in [0, P = ", P, ")");
    // Index arithmetic stays in 64 bits: rounding n up to whole blocks and m up to a
    // padded leading dimension must not overflow.
    MGBLAS_CHECK_ARG(n <= INT64_MAX - nb, "n", n, "<= INT64_MAX - nb (nb = ", nb, ")");
    MGBLAS_CHECK_ARG(m <= INT64_MAX - 128, "m", m, "<= INT64_MAX - 128");
  }

  MGBLAS_HD int64_t m() const { return m_; }
  MGBLAS_HD int64_t n() const { return n_; }
  MGBLAS_HD int64_t nb() const { return nb_; }
  MGBLAS_HD int num_devices() const { return p_; }
  MGBLAS_HD int first() const { return first_; }

  /// Number of block columns, the last one possibly narrower than nb.
  MGBLAS_HD int64_t num_blocks() const { return (n_ + nb_ - 1) / nb_; }
  /// Width of block column jb.
  MGBLAS_HD int64_t block_width(int64_t jb) const {
    return jb < num_blocks() - 1 ? nb_ : n_ - (num_blocks() - 1) * nb_;
  }
  /// Global device owning block column jb / global column j.
  MGBLAS_HD int block_owner(int64_t jb) const {
    return static_cast<int>((jb % p_ + first_) % p_);  // jb + first could overflow
  }
  MGBLAS_HD int owner(int64_t j) const { return block_owner(j / nb_); }
  /// Index of global column j among its owner's local columns.
  MGBLAS_HD int64_t local_col(int64_t j) const { return (j / nb_) / p_ * nb_ + j % nb_; }
  /// Global column of local column jl of device dev.
  MGBLAS_HD int64_t global_col(int dev, int64_t jl) const {
    return (first_block(dev) + jl / nb_ * p_) * nb_ + jl % nb_;
  }
  /// First global block column of device dev (may be >= num_blocks(): it owns none).
  MGBLAS_HD int64_t first_block(int dev) const { return (dev - first_ + p_) % p_; }
  /// Number of block columns device dev owns.
  MGBLAS_HD int64_t local_blocks(int dev) const {
    const int64_t s = first_block(dev);
    // ceil((num_blocks - s) / P), written so that it cannot overflow near INT64_MAX.
    return num_blocks() > s ? (num_blocks() - s - 1) / p_ + 1 : 0;
  }
  /// Number of columns device dev owns.
  MGBLAS_HD int64_t local_n(int dev) const {
    const int64_t blocks = local_blocks(dev);
    if (blocks == 0) return 0;
    const bool owns_last = block_owner(num_blocks() - 1) == dev;
    return blocks * nb_ - (owns_last ? nb_ * num_blocks() - n_ : 0);
  }

  /// Leading dimension of local storage: >= max(1, m), rounded up to a multiple of
  /// 128 bytes so that every local column starts on a memory-transaction boundary.
  MGBLAS_HD int64_t local_ld(int64_t elem_size) const { return padded_ld(m_, elem_size); }
  MGBLAS_HD static int64_t padded_ld(int64_t rows, int64_t elem_size) {
    // Fewest rows whose bytes fill whole 128-byte segments: 128 / gcd(128, elem_size)
    // (128 / elem_size alone misses sizes that do not divide 128, e.g. 24 bytes).
    int64_t a = 128, b = elem_size;
    while (b > 0) {
      const int64_t t = a % b;
      a = b;
      b = t;
    }
    const int64_t per_segment = 128 / a;
    const int64_t r = rows < 1 ? 1 : rows;
    return (r + per_segment - 1) / per_segment * per_segment;
  }

  friend bool operator==(const BlockCyclic1D&, const BlockCyclic1D&) = default;

 private:
  int64_t m_ = 0, n_ = 0, nb_ = 1;
  int p_ = 1, first_ = 0;
};

// ---- Column ranges of one device ------------------------------------------------------
// A device's local columns are in increasing global order, so the columns of a global
// range [c0, c1) it holds form one contiguous local range [local_begin(c0),
// local_begin(c1)).

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

/// Device g's columns in the global range [c0, c1) (0 <= c0 <= c1 <= n) as plain index
/// data for a kernel.
MGBLAS_HD inline LocalColumns local_columns(const BlockCyclic1D& L, int g, int64_t c0,
                                            int64_t c1) {
  return {L.nb(), L.nb() * L.num_devices(), L.first_block(g) * L.nb(), local_begin(L, g, c0),
          local_begin(L, g, c1)};
}

}  // namespace mgblas
