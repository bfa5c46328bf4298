// SPDX-License-Identifier: BSD-3-Clause
// heevd_2d / syevd_2d: the eigen-solver's ScaLAPACK-shaped entry. A ScaLAPACK or ELPA
// caller holds A (and wants Z) as 2-D block-cyclic local arrays on a BLACS grid; this
// call takes them as they are (descriptor, local array, leading dimension; p?syevd's
// arguments but ia = ja = iz = jz = 1) and runs
//   1. DistMatrix::import_2d: A's local arrays into a BlockCyclic1D DistMatrix over every
//      device of the context (one all-to-all; no rank holds more than its share);
//   2. heevd_mgpu on it (A's local arrays are only read: the reduction destroys the copy);
//   3. DistMatrix::export_2d of the m eigenvectors into Z's local arrays (Z's columns
//      0..m-1 only).
// The name follows import_2d / export_2d: `_mgpu` entries take a DistMatrix, `_2d`
// entries take the 2-D block-cyclic local arrays.
#pragma once

#include <cstdint>
#include <memory>
#include <type_traits>

#include "core/context.hpp"
#include "core/types.hpp"
#include "dist/lapack/heevd_mgpu.hpp"
#include "layouts/block_cyclic_2d.hpp"

namespace mgblas {

/// Where heevd_2d's time goes, seconds of wall time on this rank.
struct Heevd2DProfile {
  double redistribute_in = 0;   ///< A's local arrays to the devices (import_2d)
  double solve = 0;             ///< heevd_mgpu (its phases: Heevd2DOptions::heevd.profile)
  double redistribute_out = 0;  ///< the eigenvectors to Z's local arrays (export_2d)
  double total = 0;             ///< the whole call
};

/// Tuning of heevd_2d.
struct Heevd2DOptions {
  /// Column block of the devices' copy of A and Z (BlockCyclic1D nb); 0 picks 256, or for
  /// a small n the smallest multiple of 32 that gives every device a block column.
  int64_t nb = 0;
  HeevdOptions heevd;                ///< passed to heevd_mgpu (its profile pointer too)
  Heevd2DProfile* profile = nullptr;
};

/// Eigenvalues and, when descz is given, eigenvectors of the n x n Hermitian A (real T:
/// symmetric) held in ScaLAPACK's 2-D block-cyclic layout; ScaLAPACK's p?heevd / p?syevd
/// (with p?syevr's subsets) on the whole matrices of the descriptors.
///
/// @param[in] ctx    the context whose devices (and ranks) do the work; its ranks are the
///                   processes of the grids (BLACS's order: layouts/block_cyclic_2d.hpp).
/// @param[in] uplo   the triangle of A that is read.
/// @param[in] desca  A's layout, n x n on a grid of at most ctx's ranks (any mb, nb,
///                   sources, grid order); the same on every rank.
/// @param[in] a      this rank's local array of A (host memory, LOCr x LOCc, column-major
///                   with leading dimension lda); null where it holds nothing (outside
///                   the grid or an empty part). Read only: A is left as it was.
/// @param[in] lda    a's leading dimension, >= max(1, LOCr) (ScaLAPACK's LLD; each rank
///                   its own; not read outside the grid).
/// @param[out] w     host memory, room for n values (every rank): the m selected
///                   eigenvalues, ascending, on every rank.
/// @param[in] descz  nullptr: eigenvalues only (z, ldz are not read). Else Z's layout,
///                   n x K with K >= n for Kind::All and Kind::Value and K >= iu - il + 1
///                   for Kind::Index, on any grid that fits in ctx's ranks, its blocks
///                   independent of A's; the same on every rank (nullptr on all or none).
/// @param[out] z     this rank's local array of Z (host memory, leading dimension ldz,
///                   >= max(1, its LOCr)); columns 0..m-1 of Z receive the orthonormal
///                   eigenvectors (column j belongs to w[j]), columns m..K-1 and the
///                   rows past LOCr of z are not touched.
/// @param[in] range  which eigenpairs (EigenRange, 0-based indices).
/// @param[in] opts   the devices' block width, heevd_mgpu's tuning, an optional profile.
/// @return m, the number of eigenvalues selected.
///
/// Collective over ctx's ranks. Errors, on every rank (the others RemoteError), before w
/// or z is written: BadArgument for uplo, a null ctx (that rank only), a null w (n > 0),
/// a null a or z where the rank holds part of the matrix, lda or ldz below the local
/// rows, a grid larger than the ranks, the range's kind or bounds, opts.nb < 0;
/// DimensionMismatch for a non-square desca, descz with other than n rows or too few columns,
/// and for desca, descz, uplo, range or opts.nb differing between ranks (naming the field
/// and the ranks' values). A NaN or infinity in A's `uplo` triangle is a BadArgument
/// naming A (w and z untouched). Accuracy: heevd_mgpu's. Memory: the devices hold A and
/// the n x K (Kind::Index) or n x n columns of Z in the 1-D layout, plus the exchange's
/// buffers (import_2d: on the GPUs, or in each rank's host memory on the host route); a
/// value range selecting m < n eigenvalues adds an n x m copy.
template <Scalar T>
int64_t heevd_2d(const std::shared_ptr<Context>& ctx, Uplo uplo, const BlockCyclic2D& desca,
                 const T* a, int64_t lda, real_type_t<T>* w, const BlockCyclic2D* descz, T* z,
                 int64_t ldz, const EigenRange& range = {}, const Heevd2DOptions& opts = {});

/// The real symmetric name of heevd_2d (ScaLAPACK's p?syevd), for float and double.
template <Scalar T>
  requires(!is_complex_v<T>)
int64_t syevd_2d(const std::shared_ptr<Context>& ctx, Uplo uplo, const BlockCyclic2D& desca,
                 const T* a, int64_t lda, std::type_identity_t<T>* w, const BlockCyclic2D* descz,
                 T* z, int64_t ldz, const EigenRange& range = {},
                 const Heevd2DOptions& opts = {}) {
  return heevd_2d<T>(ctx, uplo, desca, a, lda, w, descz, z, ldz, range, opts);
}

}  // namespace mgblas
