// SPDX-License-Identifier: BSD-3-Clause
// gesvd_2d: the SVD's ScaLAPACK-shaped entry. A ScaLAPACK caller holds A (and wants U and
// V) as 2-D block-cyclic local arrays on a BLACS grid; this call takes them as they are
// (descriptor, local array, leading dimension; p?gesvd's arguments but ia = ja = 1) and
// runs
//   1. DistMatrix::import_2d: A's local arrays into a BlockCyclic1D DistMatrix over every
//      device of the context (one all-to-all; no rank holds more than its share);
//   2. gesvd_mgpu on it (A's local arrays are only read: the reduction destroys the copy);
//   3. DistMatrix::export_2d of the singular vectors into U's and V's local arrays (their
//      first columns only).
// Unlike p?gesvd, which returns VT = V^H, the right vectors come back as V (n x KV), the
// form gesvd_mgpu gives: a caller that wants VT transposes its own local arrays or, with
// ScaLAPACK at hand, calls p?tran(c).
#pragma once

#include <cstdint>
#include <memory>

#include "core/context.hpp"
#include "core/types.hpp"
#include "dist/lapack/gesvd_mgpu.hpp"
#include "layouts/block_cyclic_2d.hpp"

namespace mgblas {

/// Where gesvd_2d's time goes, seconds of wall time on this rank.
struct Gesvd2DProfile {
  double redistribute_in = 0;   ///< A's local arrays to the devices (import_2d)
  double solve = 0;             ///< gesvd_mgpu (its phases: Gesvd2DOptions::gesvd.profile)
  double redistribute_out = 0;  ///< the vectors to U's and V's local arrays (export_2d)
  double total = 0;             ///< the whole call
};

/// Tuning of gesvd_2d.
struct Gesvd2DOptions {
  /// Column block of the devices' copies of A, U and V (BlockCyclic1D nb); 0 picks 256,
  /// or for a narrow matrix the smallest multiple of 32 that gives every device a block
  /// column.
  int64_t nb = 0;
  GesvdOptions gesvd;                ///< passed to gesvd_mgpu (its profile pointer too)
  Gesvd2DProfile* profile = nullptr;
};

/// Singular values and, when descu or descv is given, singular vectors of the m x n A
/// held in ScaLAPACK's 2-D block-cyclic layout: A V = U diag(s), ScaLAPACK's p?gesvd on
/// the whole matrices of the descriptors, V in place of VT.
///
/// @param[in] ctx    the context whose devices (and ranks) do the work; its ranks are the
///                   processes of the grids (BLACS's order: layouts/block_cyclic_2d.hpp).
/// @param[in] desca  A's layout, m x n (any m and n) on a grid of at most ctx's ranks (any
///                   mb, nb, sources, grid order); the same on every rank.
/// @param[in] a      this rank's local array of A (host memory, LOCr x LOCc, column-major
///                   with leading dimension lda); null where it holds nothing. Read only.
/// @param[in] lda    a's leading dimension, >= max(1, LOCr) (each rank its own).
/// @param[out] s     host memory, room for k = min(m, n) values (every rank): all of them,
///                   descending, on every rank.
/// @param[in] descu  nullptr: no left vectors (u, ldu are not read). Else U's layout,
///                   m x KU with KU >= nvec, on any grid that fits in ctx's ranks, its
///                   blocks independent of A's; the same on every rank.
/// @param[out] u     this rank's local array of U (host memory, leading dimension ldu >=
///                   max(1, its LOCr)): columns 0..nvec-1 receive the left singular
///                   vectors of s[0..nvec-1]; with KU = m > k and all k vectors wanted,
///                   columns k..m-1 an orthonormal basis of the complement (gesvd_mgpu's
///                   full U). Other columns, and the rows past LOCr, are not touched.
/// @param[in] descv, v, ldv  the same for V, n x KV: the right singular vectors (V, not
///                   V^H), full when KV = n > k and all k vectors are wanted.
/// @param[in] nvec   the vectors wanted, of the nvec largest singular values, 0 <= nvec
///                   <= k; -1 means all k.
/// @param[in] opts   the devices' block width, gesvd_mgpu's tuning, an optional profile.
///
/// Collective over ctx's ranks. Errors, on every rank (the others RemoteError), before s,
/// u or v is written: BadArgument for a null ctx (that rank only), a null s (k > 0), nvec
/// outside [-1, k], a null a, u or v where the rank holds part of the matrix, lda, ldu or
/// ldv below the local rows, a grid larger than the ranks, opts.nb < 0, and gesvd_mgpu's
/// own option checks (under its name); DimensionMismatch for descu with other than m rows
/// or fewer than nvec columns, descv with other than n rows or fewer than nvec columns,
/// and for desca, descu, descv, nvec or opts.nb differing between ranks (naming the field
/// and the ranks' values). A NaN or infinity in A is a BadArgument naming A (s, u and v
/// untouched). Accuracy: gesvd_mgpu's. Memory: the devices hold A, and U's and V's
/// written columns, in the 1-D layout, plus the exchange's buffers (import_2d: on the
/// GPUs, or in host memory on the host route).
template <Scalar T>
void gesvd_2d(const std::shared_ptr<Context>& ctx, const BlockCyclic2D& desca, const T* a,
              int64_t lda, real_type_t<T>* s, const BlockCyclic2D* descu, T* u, int64_t ldu,
              const BlockCyclic2D* descv, T* v, int64_t ldv, int64_t nvec = -1,
              const Gesvd2DOptions& opts = {});

}  // namespace mgblas
