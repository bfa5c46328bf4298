// SPDX-License-Identifier: BSD-3-Clause
// BlockCyclic2D: ScaLAPACK's 2-D block-cyclic layout, one process per rank. The global
// m x n matrix is cut into mb x nb blocks; block (ib, jb) lives on process row
// (ib + rsrc) mod nprow and process column (jb + csrc) mod npcol, and each process
// stores its blocks column-major in one local array of LOCr x LOCc entries with a
// leading dimension lld >= max(1, LOCr) of its own (the descriptor's LLD).
//
//   global block rows/cols:  nprow = 2, npcol = 3, rsrc = csrc = 0
//        c0  c1  c2  c3           process (0, 0) holds blocks (0,0) (0,3) (2,0) (2,3)
//   r0 | 00  01  02  00 |         process (1, 2) holds blocks (1,2) (3,2)
//   r1 | 10  11  12  10 |
//   r2 | 00  01  02  00 |
//   r3 | 10  11  12  10 |
//
// Ranks map to grid positions as BLACS's gridinit does: row-major ('R', the default)
// rank = prow npcol + pcol, column-major ('C') rank = pcol nprow + prow. Ranks from
// nprow npcol on are outside the grid and hold nothing. Pure index arithmetic (the
// functions numroc, indxg2p, indxg2l and indxl2g of ScaLAPACK's TOOLS, 0-based).
#pragma once

#include <cstdint>

#include "core/error.hpp"

namespace mgblas {

enum class GridOrder { RowMajor, ColumnMajor };

class BlockCyclic2D {
 public:
  BlockCyclic2D() = default;
  /// Throws BadArgument for m, n < 0, mb, nb < 1, nprow, npcol < 1 or a source process
  /// outside the grid.
  BlockCyclic2D(int64_t m, int64_t n, int64_t mb, int64_t nb, int nprow, int npcol,
                int rsrc = 0, int csrc = 0, GridOrder order = GridOrder::RowMajor)
      : m_(m), n_(n), mb_(mb), nb_(nb), nprow_(nprow), npcol_(npcol), rsrc_(rsrc), csrc_(csrc),
        order_(order) {
    MGBLAS_CHECK_ARG(m >= 0, "m", m, ">= 0");
    MGBLAS_CHECK_ARG(n >= 0, "n", n, ">= 0");
    MGBLAS_CHECK_ARG(mb >= 1, "mb", mb, ">= 1");
    MGBLAS_CHECK_ARG(nb >= 1, "nb", nb, ">= 1");
    MGBLAS_CHECK_ARG(nprow >= 1, "nprow", nprow, ">= 1");
    MGBLAS_CHECK_ARG(npcol >= 1, "npcol", npcol, ">= 1");
    MGBLAS_CHECK_ARG(rsrc >= 0 && rsrc < nprow, "rsrc", rsrc, "in [0, nprow = ", nprow, ")");
    MGBLAS_CHECK_ARG(csrc >= 0 && csrc < npcol, "csrc", csrc, "in [0, npcol = ", npcol, ")");
    // Rounding up to whole blocks must not overflow.
    MGBLAS_CHECK_ARG(m <= INT64_MAX - mb, "m", m, "<= INT64_MAX - mb (mb = ", mb, ")");
    MGBLAS_CHECK_ARG(n <= INT64_MAX - nb, "n", n, "<= INT64_MAX - nb (nb = ", nb, ")");
  }

  int64_t m() const { return m_; }
  int64_t n() const { return n_; }
  int64_t mb() const { return mb_; }
  int64_t nb() const { return nb_; }
  int nprow() const { return nprow_; }
  int npcol() const { return npcol_; }
  int rsrc() const { return rsrc_; }
  int csrc() const { return csrc_; }
  GridOrder order() const { return order_; }
  int grid_size() const { return nprow_ * npcol_; }

  /// Rank of grid position (prow, pcol), and back (-1 for a rank outside the grid).
  int rank_of(int prow, int pcol) const {
    return order_ == GridOrder::RowMajor ? prow * npcol_ + pcol : pcol * nprow_ + prow;
  }
  int prow_of(int rank) const {
    if (rank < 0 || rank >= grid_size()) return -1;
    return order_ == GridOrder::RowMajor ? rank / npcol_ : rank % nprow_;
  }
  int pcol_of(int rank) const {
    if (rank < 0 || rank >= grid_size()) return -1;
    return order_ == GridOrder::RowMajor ? rank % npcol_ : rank / nprow_;
  }

  /// Process row / column owning global row i / column j (indxg2p).
  int row_owner(int64_t i) const { return owner(i, mb_, nprow_, rsrc_); }
  int col_owner(int64_t j) const { return owner(j, nb_, npcol_, csrc_); }
  /// Rows held by process row prow, columns by process column pcol (numroc).
  int64_t local_rows(int prow) const { return count(m_, mb_, nprow_, rsrc_, prow); }
  int64_t local_cols(int pcol) const { return count(n_, nb_, npcol_, csrc_, pcol); }
  /// Local index of global row i / column j on its owner (indxg2l).
  int64_t local_row(int64_t i) const { return i / (mb_ * nprow_) * mb_ + i % mb_; }
  int64_t local_col(int64_t j) const { return j / (nb_ * npcol_) * nb_ + j % nb_; }
  /// Global row of local row il of process row prow, column of jl of pcol (indxl2g).
  int64_t global_row(int prow, int64_t il) const { return global(il, mb_, nprow_, rsrc_, prow); }
  int64_t global_col(int pcol, int64_t jl) const { return global(jl, nb_, npcol_, csrc_, pcol); }

  /// Everything but the local leading dimension, which is each rank's own.
  friend bool operator==(const BlockCyclic2D&, const BlockCyclic2D&) = default;

 private:
  static int owner(int64_t i, int64_t b, int p, int src) {
    return static_cast<int>((i / b % p + src) % p);
  }
  // Entries of a length-len dimension cut in blocks of b that process `me` of p holds
  // when block 0 lives on process src.
  static int64_t count(int64_t len, int64_t b, int p, int src, int me) {
    const int64_t blocks = (len + b - 1) / b;
    const int64_t k = (me - src + p) % p;  // me holds blocks k, k + p, ...
    if (k >= blocks) return 0;
    const int64_t mine = (blocks - k - 1) / p + 1;
    const bool has_last = (blocks - 1) % p == k;
    return mine * b - (has_last ? blocks * b - len : 0);
  }
  static int64_t global(int64_t il, int64_t b, int p, int src, int me) {
    const int64_t k = (me - src + p) % p;
    return (il / b * p + k) * b + il % b;
  }

  int64_t m_ = 0, n_ = 0, mb_ = 1, nb_ = 1;
  int nprow_ = 1, npcol_ = 1, rsrc_ = 0, csrc_ = 0;
  GridOrder order_ = GridOrder::RowMajor;
};

}  // namespace mgblas
