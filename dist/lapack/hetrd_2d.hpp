// SPDX-License-Identifier: BSD-3-Clause
// hetrd_2d / sytrd_2d: the tridiagonal reduction's ScaLAPACK-shaped entry, p?sytrd /
// p?hetrd's arguments (ia = ja = 1). A ScaLAPACK or ELPA caller holds A as 2-D
// block-cyclic local arrays on a BLACS grid; this call takes them as they are and runs
//   1. DistMatrix::import_2d: A's local arrays into a BlockCyclic1D DistMatrix over every
//      device of the context (one all-to-all; no rank holds more than its share);
//   2. hetrd_mgpu on it (the one-stage reduction: its A is LAPACK's storage, which the
//      two-stage reduction's is not);
//   3. DistMatrix::export_2d of the reduced A back into the same local arrays.
// The local arrays then hold what p?sytrd leaves there: T's diagonal and off-diagonal
// and the reflectors in the uplo triangle. Unlike p?sytrd, d, e and tau come back whole
// on every rank (p?sytrd leaves each entry only on the process column of its matrix
// column, where LOCc(n) of them fit).
#pragma once

#include <cstdint>
#include <memory>
#include <type_traits>

#include "core/context.hpp"
#include "core/types.hpp"
#include "dist/lapack/hetrd_mgpu.hpp"
#include "layouts/block_cyclic_2d.hpp"

namespace mgblas {

/// Where hetrd_2d's time goes, seconds of wall time on this rank.
struct Hetrd2DProfile {
  double redistribute_in = 0;   ///< A's local arrays to the devices (import_2d)
  double reduce = 0;            ///< hetrd_mgpu (its phases: Hetrd2DOptions::hetrd.profile)
  double redistribute_out = 0;  ///< the reduced A back to the local arrays (export_2d)
  double total = 0;             ///< the whole call
};

/// Tuning of hetrd_2d.
struct Hetrd2DOptions {
  /// Column block of the devices' copy of A (BlockCyclic1D nb); 0 picks 256, or for a
  /// small n the smallest multiple of 32 that gives every device a block column.
  int64_t nb = 0;
  /// Passed to hetrd_mgpu: its panel must divide the devices' nb (every width up to 32
  /// that divides 32 does for an automatic nb); band is not used (one stage).
  HetrdOptions hetrd;
  Hetrd2DProfile* profile = nullptr;
};

/// Reduces the n x n Hermitian A (real T: symmetric), held in ScaLAPACK's 2-D
/// block-cyclic layout, to real symmetric tridiagonal form T = Q^H A Q in place:
/// ScaLAPACK's p?hetrd / p?sytrd on the whole matrix of the descriptor.
///
/// @param[in] ctx     the context whose devices (and ranks) do the work; its ranks are the
///                    processes of the grid (BLACS's order: layouts/block_cyclic_2d.hpp).
/// @param[in] uplo    the triangle of A that is read and overwritten; the other one is
///                    not referenced (its local entries are written back unchanged).
/// @param[in] desca   A's layout, n x n on a grid of at most ctx's ranks (any mb, nb,
///                    sources, grid order: p?sytrd's mb = nb is not needed); the same on
///                    every rank.
/// @param[in,out] a   this rank's local array of A (host memory, LOCr x LOCc, column-major
///                    with leading dimension lda); null where it holds nothing. On return,
///                    as LAPACK's ?hetrd and hetrd_mgpu store it: the diagonal and the
///                    first sub- (Lower) or superdiagonal (Upper) hold T, the entries
///                    beyond them the reflectors (hetrd_mgpu.hpp); rows past LOCr are not
///                    touched.
/// @param[in] lda     a's leading dimension, >= max(1, LOCr) (ScaLAPACK's LLD; each rank
///                    its own; not read outside the grid).
/// @param[out] d      host memory, n values, every rank: T's diagonal.
/// @param[out] e      host memory, max(0, n - 1) values, every rank: T's off-diagonal,
///                    e[i] = T(i + 1, i) = T(i, i + 1) (LAPACK's e; p?sytrd's E holds the
///                    Upper case's e[i] at matrix column i + 1, see below).
/// @param[out] tau    host memory, max(0, n - 1) values, every rank: the reflectors'
///                    scalars as LAPACK numbers them (hetrd_mgpu's tau).
/// @param[in] opts    the devices' block width, hetrd_mgpu's tuning, an optional profile.
///
/// p?sytrd's D, E and TAU are tied to A's columns: entry i lives on the process column
/// of matrix column i. Lower: D(i), E(i), TAU(i) are d[i], e[i], tau[i] here. Upper:
/// p?sytrd keeps the reflector of column i + 1 and its off-diagonal entry with that
/// column, so its E and TAU at column i + 1 are e[i] and tau[i] here (its column 0 holds
/// no reflector). The local arrays are the same either way.
///
/// Collective over ctx's ranks. Errors, on every rank (the others RemoteError), before a,
/// d, e or tau is written: BadArgument for uplo, a null ctx (that rank only), a null d,
/// e or tau where they have entries, a null a where the rank holds part of A, lda below
/// the local rows, a grid larger than the ranks, opts.nb < 0, opts.hetrd.panel not a
/// divisor of the devices' nb in [1, 128] (or 0); DimensionMismatch for a non-square
/// desca, and for desca, uplo or the options differing between ranks (naming the field).
/// A NaN or infinity in A's `uplo` triangle is not an error (hetrd_mgpu's rule): it
/// spreads into d, e, tau and a. Accuracy: hetrd_mgpu's. Memory: the devices hold A in the
/// 1-D layout, plus the exchange's buffers (import_2d: on the GPUs, or in host memory on
/// the host route). Flops:
/// hetrd_mgpu's, (4/3) n^3 (real).
template <Scalar T>
void hetrd_2d(const std::shared_ptr<Context>& ctx, Uplo uplo, const BlockCyclic2D& desca, T* a,
              int64_t lda, real_type_t<T>* d, real_type_t<T>* e, T* tau,
              const Hetrd2DOptions& opts = {});

/// The real symmetric name of hetrd_2d (ScaLAPACK's p?sytrd), for float and double.
template <Scalar T>
  requires(!is_complex_v<T>)
void sytrd_2d(const std::shared_ptr<Context>& ctx, Uplo uplo, const BlockCyclic2D& desca, T* a,
              int64_t lda, std::type_identity_t<T>* d, std::type_identity_t<T>* e,
              std::type_identity_t<T>* tau, const Hetrd2DOptions& opts = {}) {
  hetrd_2d<T>(ctx, uplo, desca, a, lda, d, e, tau, opts);
}

}  // namespace mgblas
