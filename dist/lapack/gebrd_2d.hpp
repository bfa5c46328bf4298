// SPDX-License-Identifier: BSD-3-Clause
// gebrd_2d: the bidiagonal reduction's ScaLAPACK-shaped entry, p?gebrd's arguments
// (ia = ja = 1). A ScaLAPACK caller holds A as 2-D block-cyclic local arrays on a BLACS
// grid; this call takes them as they are and runs
//   1. DistMatrix::import_2d: A's local arrays into a BlockCyclic1D DistMatrix over every
//      device of the context (one all-to-all; no rank holds more than its share);
//   2. gebrd_mgpu on it;
//   3. DistMatrix::export_2d of the reduced A back into the same local arrays.
// The local arrays then hold what p?gebrd leaves there: B's diagonal and off-diagonal
// and both sets of reflectors. Unlike p?gebrd, d, e, tauq and taup come back whole on
// every rank (p?gebrd ties them to A's rows or columns, each entry on one process row or
// column).
#pragma once

#include <cstdint>
#include <memory>

#include "core/context.hpp"
#include "core/types.hpp"
#include "dist/lapack/gebrd_mgpu.hpp"
#include "layouts/block_cyclic_2d.hpp"

namespace mgblas {

/// Where gebrd_2d's time goes, seconds of wall time on this rank.
struct Gebrd2DProfile {
  double redistribute_in = 0;   ///< A's local arrays to the devices (import_2d)
  double reduce = 0;            ///< gebrd_mgpu (its phases: Gebrd2DOptions::gebrd.profile)
  double redistribute_out = 0;  ///< the reduced A back to the local arrays (export_2d)
  double total = 0;             ///< the whole call
};

/// Tuning of gebrd_2d.
struct Gebrd2DOptions {
  /// Column block of the devices' copy of A (BlockCyclic1D nb); 0 picks 256, or for
  /// few columns the smallest multiple of 32 that gives every device a block column.
  int64_t nb = 0;
  /// Passed to gebrd_mgpu: its panel must divide the devices' nb (every width up to 32
  /// that divides 32 does for an automatic nb).
  GebrdOptions gebrd;
  Gebrd2DProfile* profile = nullptr;
};

/// Reduces the m x n matrix A, held in ScaLAPACK's 2-D block-cyclic layout, to bidiagonal
/// form B = Q^H A P in place (real T: Q^T A P): ScaLAPACK's p?gebrd on the whole matrix of
/// the descriptor. k = min(m, n); any m and n: m >= n gives an upper bidiagonal B, m < n a
/// lower one, as LAPACK's and gebrd_mgpu's two branches do.
///
/// @param[in] ctx     the context whose devices (and ranks) do the work; its ranks are the
///                    processes of the grid (BLACS's order: layouts/block_cyclic_2d.hpp).
/// @param[in] desca   A's layout, m x n on a grid of at most ctx's ranks (any mb, nb,
///                    sources, grid order: p?gebrd's mb = nb is not needed); the same on
///                    every rank.
/// @param[in,out] a   this rank's local array of A (host memory, LOCr x LOCc, column-major
///                    with leading dimension lda); null where it holds nothing. On return,
///                    as LAPACK's ?gebrd and gebrd_mgpu store it: B on the diagonal and the
///                    first super- (m >= n) or subdiagonal (m < n), the reflectors of Q
///                    below it and those of P above it (gebrd_mgpu.hpp); rows past LOCr
///                    are not touched.
/// @param[in] lda     a's leading dimension, >= max(1, LOCr) (ScaLAPACK's LLD; each rank
///                    its own; not read outside the grid).
/// @param[out] d      host memory, k values, every rank: B's diagonal.
/// @param[out] e      host memory, max(0, k - 1) values, every rank: B's off-diagonal.
/// @param[out] tauq   host memory, k values, every rank: the scalars of Q's reflectors.
/// @param[out] taup   host memory, k values, every rank: the scalars of P's reflectors.
/// @param[in] opts    the devices' block width, gebrd_mgpu's tuning, an optional profile.
///
/// The values are p?gebrd's with LAPACK's numbering: p?gebrd's D, E, TAUQ and TAUP hold
/// entry i at matrix row or column i of its grid (m >= n: D and TAUQ by column, E and
/// TAUP by row; m < n: D and TAUP by row, E and TAUQ by column), here d[i], e[i], tauq[i]
/// and taup[i].
///
/// Collective over ctx's ranks. Errors, on every rank (the others RemoteError), before a,
/// d, e, tauq or taup is written: BadArgument for a null ctx (that rank only), a null d,
/// e, tauq or taup where they have entries, a null a where the rank holds part of A, lda
/// below the local rows, a grid larger than the ranks, opts.nb < 0, opts.gebrd.panel not
/// a divisor of the devices' nb in [1, 64] (or 0), opts.gebrd.one_pass_min_bytes < 0;
/// DimensionMismatch for desca or the options differing between ranks (naming the
/// field). A NaN or infinity in A is not an error (gebrd_mgpu's rule): it spreads into
/// the outputs. Entries of any finite size (gebrd_mgpu scales out-of-range matrices).
/// Accuracy: gebrd_mgpu's. Memory: the devices hold A in the 1-D layout, plus the
/// exchange's buffers (import_2d: on the GPUs, or in host memory on the host route). Flops: gebrd_mgpu's, 4 m n^2 - 4 n^3 / 3 for
/// m >= n (real).
template <Scalar T>
void gebrd_2d(const std::shared_ptr<Context>& ctx, const BlockCyclic2D& desca, T* a,
              int64_t lda, real_type_t<T>* d, real_type_t<T>* e, T* tauq, T* taup,
              const Gebrd2DOptions& opts = {});

}  // namespace mgblas
