// SPDX-License-Identifier: BSD-3-Clause
// Bidiagonal reduction of a distributed general matrix, Q^H A P = B, LAPACK's ?gebrd on a
// BlockCyclic1D DistMatrix over every device of every rank (GPUs or host devices).
//
// The algorithm is LAPACK's blocked one (DGEBRD with a DLABRD panel), split along A's
// columns so that each column needs one collective:
//   - the quantities indexed by A's rows (the panel's column reflectors V and the panel's
//     X) are replicated: the panel is broadcast from its owner once, and every device
//     forms the column reflectors and X itself;
//   - the quantities indexed by A's columns (the row reflectors U, kept in A's rows, and
//     the panel's Y) stay with the device that owns the column: A^H v lands there
//     without communication;
//   - on large trailing matrices (GebrdOptions::one_pass), A^H v and A u read it once
//     between them: a column's entry of u needs only that column's entry of A^H v, so
//     one kernel can form both from the same read of each column;
//   - A u, the row reflector's norm and the few dot products against the column-indexed
//     quantities are each device's share, summed in one all-reduce per column (the row
//     reflector is normalised after the sum, so the sum can carry its norm with it);
//   - the trailing update A22 -= V Y^H + X U is one GEMM per device on its own columns,
//     [V X] [Y U^H]^H, with no communication (the stacked factors are copies: device
//     workspace of about 4 (m + local columns) x panel elements beyond A's).
// m >= n gives an upper bidiagonal B, m < n a lower one (LAPACK's two branches).
#pragma once

#include <cstdint>

#include "core/types.hpp"
#include "dist/reducer.hpp"
#include "layouts/dist_matrix.hpp"

namespace mgblas {

/// Where a bidiagonal reduction's time goes, in seconds of wall time on this rank (filled
/// when GebrdOptions::profile points at one; the devices are then synchronised at every
/// phase boundary).
struct GebrdProfile {
  double products = 0;  ///< the two large products per column, A^H v and A u (GEMVs or
                        ///< the fused row step, which includes the row's update)
  double panel = 0;     ///< everything else of a column: reflectors, corrections, row update
  double comm = 0;      ///< per-column sums and panel broadcasts
  double update = 0;    ///< the trailing GEMMs and the panel store
  double total = 0;     ///< the whole call, argument agreement included
};

/// The form of a column's two large products on every column, for the callers that
/// choose it outright (the C API, Python, the tester): Auto leaves one_pass and
/// one_pass_min_bytes at their defaults; One: one read on every column; Two: the two
/// GEMVs on every column.
enum class GebrdPass { Auto, One, Two };

/// Tuning and transport of gebrd_mgpu.
struct GebrdOptions {
  /// Columns per panel: a divisor of A's nb, at most 64; 0 picks the largest divisor of
  /// nb that is <= 32 (narrower panels make the column steps shorter; see
  /// dist/lapack/detail/panel_width.hpp).
  int64_t panel = 0;
  /// How per-column sums and panel broadcasts travel: Auto is NCCL when every device is a
  /// distinct GPU and NCCL is built (MGBLAS_REDUCER overrides), else host.
  ReducerKind transport = ReducerKind::Auto;
  /// When not null, receives the time per phase.
  GebrdProfile* profile = nullptr;
  /// A column's two large products from one read of the trailing matrix (the fused row
  /// step, kernels::labrd_fused) instead of two GEMVs, on the columns whose trailing
  /// matrix holds at least one_pass_min_bytes per device; same results up to rounding.
  /// false: the two GEMVs on every column.
  bool one_pass = true;
  /// Below this many bytes of trailing matrix per device the two GEMVs run instead: the
  /// second GEMV then reads A from L2 (50 MB on an H100 or H200), so one pass saves no
  /// DRAM traffic. 32 MiB since the fused kernel's per-tile sums got cheaper (H200,
  /// tester_gebrd --one-pass-min-mib 128/64/32/16/0: d n = 4096-16384 within 2 %, s
  /// n = 8192 0.688 s at 128 MiB, 0.623 s at 32; bench/results/h200-panel-sums.md).
  /// 0: every column; >= 0.
  int64_t one_pass_min_bytes = int64_t{32} << 20;

  /// Sets one_pass and one_pass_min_bytes for `pass`.
  GebrdOptions& set_pass(GebrdPass pass) {
    const GebrdOptions defaults;
    one_pass = pass == GebrdPass::Auto ? defaults.one_pass : pass == GebrdPass::One;
    one_pass_min_bytes = pass == GebrdPass::Auto ? defaults.one_pass_min_bytes : 0;
    return *this;
  }
};

/// Reduces the m x n matrix A to bidiagonal form B = Q^H A P (real T: Q^T A P), k =
/// min(m, n), Q = H(0) ... H(k-1), P = G(0) ... G(k-1) (G(k-1) = I when m >= n, H(k-1)
/// = I when m < n), H(i) = I - tauq[i] v v^H, G(i) = I - taup[i] u u^H.
///
/// @param[in,out] A    m x n on the devices of its context, any nb. On return, as LAPACK
///                     stores it: m >= n: B upper bidiagonal (d on the diagonal, e on the
///                     first superdiagonal), v_i(i) = 1 and v_i(i+1:m) in A(i+1:m, i),
///                     u_i(i+1) = 1 and u_i(i+2:n) in A(i, i+2:n) (as ?gebrd stores
///                     them, for complex T too); m < n: B lower bidiagonal (e on the subdiagonal),
///                     v_i(i+1) = 1 and v_i(i+2:m) in A(i+2:m, i), u_i(i) = 1 and
///                     u_i(i+1:n) in A(i, i+1:n).
/// @param[out] d       replicated DistVector of length k: B's diagonal (real).
/// @param[out] e       replicated, length max(0, k - 1): B's off-diagonal (real).
/// @param[out] tauq    replicated, length k: the scalars of Q's reflectors.
/// @param[out] taup    replicated, length k: the scalars of P's reflectors.
///
/// Collective over the ranks of A's context; every rank passes the same arguments.
/// Errors: BadArgument / DimensionMismatch raised on every rank (the others RemoteError)
/// before anything is written. On GPUs no device waits for the host inside the call.
/// Entries of any finite size: when A's largest entry lies outside LAPACK's drivers'
/// range [sqrt(safmin) / eps, eps / sqrt(safmin)] (about 1e-138 to 1e138 in double), A is
/// scaled by a power of two for the reduction and d, e scaled back, as ?gesvd does; the
/// reflectors and tau do not depend on the scale (one extra read of A; a write only
/// when scaled).
/// A NaN or infinity in A is not an error (finding it would cost a pass over A): it
/// spreads through the reflectors, and d, e, tauq or taup hold a NaN or infinity on
/// return (tested on both engines); finite outputs mean a finite input.
/// Flops: 4 m n^2 - 4 n^3 / 3 for m >= n (real; 4x for complex), half of them in the two
/// matrix-vector products per column.
template <Scalar T>
void gebrd_mgpu(DistMatrix<T>& A, DistVector<real_type_t<T>>& d, DistVector<real_type_t<T>>& e,
                DistVector<T>& tauq, DistVector<T>& taup, const GebrdOptions& opts = {});

/// gebrd_mgpu with d (k), e (max(0, k - 1)), tauq and taup (k) in host memory, the same
/// on every rank on return.
template <Scalar T>
void gebrd_mgpu(DistMatrix<T>& A, real_type_t<T>* d, real_type_t<T>* e, T* tauq, T* taup,
                const GebrdOptions& opts = {});

}  // namespace mgblas
