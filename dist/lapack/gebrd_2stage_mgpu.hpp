// SPDX-License-Identifier: BSD-3-Clause
// The two-stage bidiagonal reduction of a distributed m x n matrix, m >= n, on a
// BlockCyclic1D DistMatrix over every device of every rank (GPUs or host devices); the
// SVD's reduction when gesvd_mgpu takes the two-stage path (GesvdOptions::stages):
//   stage one: A = Q1 B P1^H with B upper banded, `band` superdiagonals, over all
//     devices (dense to band; LAPACK has no such routine, the two-stage SVDs of PLASMA
//     and MAGMA do);
//   stage two: B = Q2 Bd P2^H, Bd real upper bidiagonal, by bulge chasing
//     (kernels/lapack.hpp band_to_bidiag) on every rank's first device, on its copy of
//     the band.
//
// Stage one, per panel of `band` columns k .. k+b-1 (inside one block column of A, so on
// one device):
//   - the owner factors the column panel A(k:m, k:k+b) = Q_L R (geqrf) and broadcasts
//     [V_L T_L tau_L];
//   - every device forms Z = T_L^H V_L^H A(k:m, J) for its own trailing columns J, and
//     applies Q_L^H to the b rows of the row panel A(k:k+b, J) only;
//   - the row panel is summed onto every device, and each factors it as A_row = L Q_R
//     (the QR of A_row^H: the same panel on every device gives every device the same
//     V_R, T_R), writes L and the reflectors back into its own columns of the rows
//     (LAPACK ?gelqf's storage) and forms its share of Y = A(k+b:m, :) V_R and of
//     S = Z V_R; one all-reduce sums [Y S];
//   - then W = (Y - V_L S) T_R is the right transformation's product with the left one
//     already applied, and one GEMM of inner dimension 2b per device updates the
//     trailing matrix with both sides: A(k+b:m, J) -= [V_L W] [Z; V_R(J)^H].
// Three passes over the trailing matrix per panel (Z, Y, the update), all GEMMs; the
// flops are 4 m n^2 - 4/3 n^3 (square: 8/3 n^3) for real T, 4x that for complex.
// Q1's reflectors stay in A's columns (unit on the diagonal: gebrd_mgpu's Q for m >= n),
// P1's in A's rows (unit `band` right of the diagonal), their scalars on the host.
#pragma once

#include <cstdint>
#include <vector>

#include "core/memory.hpp"
#include "core/types.hpp"
#include "dist/lapack/gebrd_mgpu.hpp"
#include "dist/lapack/hetrd_mgpu.hpp"
#include "dist/lapack/unmtr_mgpu.hpp"
#include "layouts/dist_matrix.hpp"

namespace mgblas::detail {

/// The band width of stage one for A's column block nb and a request (0: automatic, the
/// largest divisor of nb that is <= 32).
int64_t bidiag_two_stage_band(int64_t nb, int64_t requested);

/// Whether gesvd_mgpu reduces A (or its R, which has as many columns) in two stages:
/// `stages` when One or Two, else the measured rule (bench/results/h200-svd.md).
template <Scalar T>
bool bidiag_two_stage_pays(Stages stages, const DistMatrix<T>& A, bool vectors);

/// Q1 Q2 and P1 P2 of the two-stage reduction: Q1's and P1's reflectors stay in A, their
/// scalars here (host); Q2's and P2's (band_to_bidiag's VQ, tauQ, VP, tauP) on every local
/// device when kept.
template <Scalar T>
struct TwoStageBidiag {
  int64_t m = 0, n = 0, band = 0;
  std::vector<T> tauq1;  ///< n entries
  std::vector<T> taup1;  ///< max(0, n - band) entries
  std::vector<DeviceBuffer<T>> VQ, tauQ, VP, tauP;
};

/// Checks the layout L of the matrix to reduce (m >= n) and the band (named `band_name`:
/// 1 <= band <= 128, a divisor of L's nb), then allocates what the reduction keeps (Q2
/// and P2 only when `keep`) on ctx's devices: call it inside the ranks' agreement, so
/// that a failed allocation raises on every rank.
template <Scalar T>
TwoStageBidiag<T> make_two_stage_bidiag(const Context& ctx, const BlockCyclic1D& L, int64_t band,
                                        bool keep, const char* band_name);

/// The two-stage reduction on checked and agreed arguments: d (n) and e (n - 1), host
/// memory on every rank, from each rank's first device's chase; Q2 and P2 (when `q`
/// keeps them) copied to the rank's other devices. profile (may be null): stage one's
/// panels in `panel`, its Z and Y products in `products`, the update in `update`, the
/// sums, broadcasts and the band's gather in `comm`; *chase (may be null) += stage two's
/// seconds.
template <Scalar T>
void reduce_bidiag_two_stage(DistMatrix<T>& A, ReducerKind transport, GebrdProfile* profile,
                             double* chase, real_type_t<T>* d, real_type_t<T>* e,
                             TwoStageBidiag<T>& q);

/// CQ := Q CQ (CQ m x K) and CP := P CP (CP n x K) with the Q = Q1 Q2 and P = P1 P2 of
/// reduce_bidiag_two_stage(A, ...); either may be null (not applied). Q2 and P2 on every
/// device's own columns (band_to_tridiag_apply_q on the first n rows), at the same time
/// on a GPU (P2 on its side stream), then Q1 and P1 (unmbr_mgpu's blocked loop). CQ and
/// CP on A's context, checked by the caller.
template <Scalar T>
void apply_two_stage_bidiag(const DistMatrix<T>& A, const TwoStageBidiag<T>& q, DistMatrix<T>* CQ,
                            DistMatrix<T>* CP, const UnmtrOptions& opts);

}  // namespace mgblas::detail
