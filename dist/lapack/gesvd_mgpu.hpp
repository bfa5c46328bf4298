// SPDX-License-Identifier: BSD-3-Clause
// The singular value decomposition A = U diag(s) V^H of a distributed m x n matrix over
// every device of every rank, LAPACK's ?gesvd / ?gesdd on a BlockCyclic1D DistMatrix:
//   1. gebrd_mgpu reduces A to bidiagonal B = Q^H A P (upper for m >= n, lower
//      otherwise), Q's and P's reflectors kept in A; or, for m >= n, the two-stage
//      reduction (dist/lapack/gebrd_2stage_mgpu.hpp: dense to band by GEMMs over every
//      device, band to bidiagonal by a bulge chase on each rank's first device, Q = Q1 Q2
//      and P = P1 P2), chosen by GesvdOptions::stages; for a tall A (m >= 1.6 n, LAPACK
//      ?gesvd's crossover; GesvdOptions::qr_ratio) A = Q_R R first (geqrf_mgpu) and the
//      n x n R is reduced instead, so that U = Q_R Q ... below;
//   2. B's singular values: without vectors, bisection over every device on the upper
//      half of the Golub-Kahan matrix's spectrum (the 2k x 2k tridiagonal with zero
//      diagonal and off-diagonal d0, e0, d1, ..., whose eigenvalues are +-s_i); with
//      vectors, every rank's first device computes them and the wanted vectors of B
//      (kernels/lapack.hpp bidiag_svd) and each device of the rank copies its columns;
//   3. U := Q [U_B; 0] and V := P [V_B; 0] (unmbr_mgpu; two-stage: Q2 and P2 first, by
//      band_to_tridiag_apply_q on every device's columns, both at once on a GPU), on U's
//      and V's own columns.
// Only the k = min(m, n) singular values and up to k vectors come from B; a "full" U
// (m columns when m > n, LAPACK's JOBU = 'A') gets Q's last m - n columns as the
// orthonormal complement, and the same for V when n > m.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "core/types.hpp"
#include "dist/lapack/gebrd_mgpu.hpp"
#include "dist/lapack/geqrf_mgpu.hpp"
#include "dist/lapack/hetrd_mgpu.hpp"
#include "dist/lapack/unmtr_mgpu.hpp"
#include "layouts/dist_matrix.hpp"

namespace mgblas {

/// Where gesvd_mgpu's time goes, seconds of wall time on this rank (filled when
/// GesvdOptions::profile points at one; each phase ends with the devices synchronised).
struct GesvdProfile {
  double qr = 0;              ///< geqrf_mgpu and the copy of R (0 unless QR first)
  double reduction = 0;       ///< gebrd_mgpu, or both stages of the two-stage reduction
  double chase = 0;           ///< of which the band-to-bidiagonal chase (two-stage only)
  double bidiagonal = 0;      ///< B's singular values (and vectors, with their copy to U, V)
  double to_devices = 0;      ///< of which the copy of B's vectors to U's and V's devices
  double back_transform = 0;  ///< Q and P applied to U_B and V_B (0 without vectors)
  double total = 0;           ///< the whole call
};

/// Tuning of gesvd_mgpu's steps.
struct GesvdOptions {
  GebrdOptions reduction;       ///< passed to gebrd_mgpu (its profile pointer too)
  UnmtrOptions back_transform;  ///< passed to the unmbr_mgpu calls
  /// A = Q R first when m >= n > 0 and m >= qr_ratio n: LAPACK ?gesvd's 1.6; 0 for every
  /// m >= n, infinity never. Wide matrices (m < n) are reduced directly.
  double qr_ratio = 1.6;
  GeqrfOptions qr;              ///< passed to geqrf_mgpu
  /// The bidiagonal reduction of the m x n matrix reduced (R when QR first): One is
  /// gebrd_mgpu; Two the two-stage reduction (needs m >= n); Auto picks two stages on GPUs
  /// for m >= n >= 2048 without vectors and m >= n >= 8192 with them (measured:
  /// bench/results/h200-svd.md), else one.
  Stages stages = Stages::Auto;
  /// The two-stage path's band width: a divisor of A's nb in [1, 128]; 0 picks the
  /// largest divisor of nb that is <= 32. Its stage one takes transport and profile from
  /// `reduction`.
  int64_t band = 0;
  GesvdProfile* profile = nullptr;
};

/// Singular values and, when U or V is given, singular vectors of the m x n matrix A:
/// A V = U diag(s), s descending, U^H U = I, V^H V = I.
///
/// @param[in,out] A    m x n on the devices of its context (BlockCyclic1D, any nb). On
///                     return it holds gebrd_mgpu's reduction (A is destroyed, as by
///                     LAPACK's ?gesvd).
/// @param[out] s       host memory, room for k = min(m, n) values (every rank): all of
///                     them, descending, on every rank.
/// @param[out] U       nullptr, or m x KU on A's context with its own BlockCyclic1D over
///                     its KU columns (any nb, any first device), KU >= nvec: columns
///                     0..nvec-1 receive the left singular vectors of s[0..nvec-1]. With
///                     KU = m > k and nvec = k ("full"), columns k..m-1 receive an
///                     orthonormal basis of the complement (Q's last columns); otherwise
///                     columns nvec..KU-1 are not touched.
/// @param[out] V       nullptr, or n x KV likewise (KV >= nvec; full when KV = n > k and
///                     nvec = k): the right singular vectors, V itself, not V^H (its
///                     columns live on the devices).
/// @param[in] nvec     the vectors wanted, of the nvec largest singular values, 0 <= nvec
///                     <= k; -1 means all k. A smaller nvec costs less in every vector
///                     step.
/// @param[in] opts     the steps' tuning and an optional GesvdProfile.
///
/// Collective over the ranks of A's context; every rank passes the same arguments.
/// Errors, on every rank (the others RemoteError), before s, U or V is written:
/// BadArgument for a null s (k > 0), nvec outside [-1, k], U or V on another context, a
/// negative or NaN opts.qr_ratio, opts.stages not Auto, One or Two, opts.stages = Two
/// with m < n, a bad opts.band (two-stage path only);
/// DimensionMismatch for U with other than m rows or fewer than nvec columns, V with
/// other than n rows or fewer than nvec columns, or a layout over other devices. A NaN or
/// infinity in A is a BadArgument naming A, found in B after the reduction (A is then
/// overwritten; s, U and V are not). Accuracy: ||A - U S V^H|| of order max(m, n) eps
/// ||A||, ||I - U^H U|| and ||I - V^H V|| of order max(m, n) eps (tests: under 30 of
/// those units); the singular values to about k eps ||A|| (absolute, as bisection on the
/// Golub-Kahan matrix gives them).
template <Scalar T>
void gesvd_mgpu(DistMatrix<T>& A, real_type_t<T>* s, DistMatrix<T>* U, DistMatrix<T>* V,
                int64_t nvec = -1, const GesvdOptions& opts = {});

/// The columns gesvd_mgpu writes in a factor of `rows` rows and `cols` columns (U: m,
/// V: n) for nvec = want of k = min(m, n): all rows of them when the factor is full
/// (want = k, cols = rows > k), else the wanted ones.
constexpr int64_t gesvd_written_columns(int64_t rows, int64_t cols, int64_t want, int64_t k) {
  return want == k && cols == rows && rows > k ? rows : want;
}

/// gesvd_mgpu returning its results: s (all k values, every rank) and, when `vectors`,
/// the thin U (m x nvec) and V (n x nvec) as new DistMatrices on A's context with A's
/// column block size nb and first device.
template <Scalar T>
struct SingularSystem {
  std::vector<real_type_t<T>> s;
  std::optional<DistMatrix<T>> U, V;  ///< with vectors only
};

template <Scalar T>
SingularSystem<T> gesvd_mgpu(DistMatrix<T>& A, bool vectors, int64_t nvec = -1,
                             const GesvdOptions& opts = {});

}  // namespace mgblas
