// SPDX-License-Identifier: BSD-3-Clause
// The two-stage tridiagonal reduction of a distributed Hermitian (real: symmetric)
// matrix on a BlockCyclic1D DistMatrix over every device of every rank (GPUs or host
// devices), LAPACK's ?sytrd_2stage:
//   stage one, hetrd_band_mgpu: A = Q1 B Q1^H with B of half-bandwidth `band`
//     (?sytrd_sy2sb / ?hetrd_he2hb), over all devices;
//   stage two: B = Q2 T Q2^H by bulge chasing (?sytrd_sb2st; kernels/sb2st_kernels.hpp)
//     on every rank's first device, on its copy of the band.
// hetrd_2stage_mgpu runs both and returns T (d, e), as ?sytrd_2stage with VECT = 'N'.
//
// Stage one:
// Unlike the one-stage hetrd_mgpu, no step is a matrix-vector product: per panel of
// `band` columns (inside one block column of A, so on one device)
//   - the owner factors the panel below the band, A(k+b:n, k:k+b) = Q R (geqrf), and
//     makes the block reflector's V and T; one broadcast sends [V T tau] to every device;
//   - every device multiplies its own columns of the trailing matrix by V (hemm and
//     gemm per run of columns), and one all-reduce sums Y = A22 V;
//   - every device forms W = Y T - V (T^H V^H Y T) / 2 (small products) and applies the
//     rank-2k update A22 -= V W^H + W V^H to its own columns.
// The update is deferred: V and W of several panels (kmax columns, 256 on GPUs; see
// detail::two_stage_update_width) are kept and applied as one rank-2 kmax update, whose
// GEMMs run far faster than rank-2 band ones; the panels and the products with A22
// subtract the pending part in the meantime (Wang et al., arXiv 2410.02170).
// All flops but the panels' are GEMM-shaped. Device workspace beyond A: about
// n (2 band + 5 kmax) elements per device.
#pragma once

#include <cstdint>
#include <vector>

#include "core/memory.hpp"
#include "core/types.hpp"
#include "dist/lapack/hetrd_mgpu.hpp"
#include "dist/lapack/unmtr_mgpu.hpp"
#include "layouts/dist_matrix.hpp"

namespace mgblas {

/// Reduces the n x n Hermitian A to the band form B = Q1^H A Q1 of half-bandwidth
/// `band`.
///   Lower: Q1 = H(0) H(1) ... H(n-band-1), H(i) = I - tau[i] v_i v_i^H with
///          v_i(0:i+band) = 0, v_i(i+band) = 1 (LAPACK's ?geqrf reflectors of
///          A(band:n, 0:n-band)); B's lower band is in A's, v_i(i+band+1:n) below it in
///          column i.
///   Upper: the same for A~ = J A J (J reverses the order of rows and columns, so A~'s
///          lower triangle is A's upper one): Q1 = J Q1~ J, B = J B~ J, with B~'s band
///          and Q1~'s reflectors where the lower case keeps them in A~, i.e. A(r, c)
///          holds A~(n-1-r, n-1-c): B's upper band in A's, v_i above it.
///
/// @param[in] uplo     the stored triangle, Uplo::Lower or Uplo::Upper.
/// @param[in,out] A    n x n on the devices of its context; nb a multiple of `band`; as
///                     above on return. The other triangle is not touched. Imaginary
///                     parts of the diagonal are taken as zero.
/// @param[in] band     the half-bandwidth b: 1 <= b <= 128 (the block reflector's width),
///                     a divisor of A's nb.
/// @param[out] tau     host memory, max(0, n - band) entries, the same on every rank.
/// @param[out] AB      host memory or null: B in LAPACK's lower band storage,
///                     AB[(i - j) + j ldab] = B(i, j) for j <= i <= min(n - 1, j + band),
///                     the same on every rank (the input of a bulge chase).
/// @param[in] ldab     AB's leading dimension, >= band + 1 (read when AB is not null).
///
/// Collective over the ranks of A's context; every rank passes the same arguments.
/// Errors: BadArgument / DimensionMismatch raised on every rank (the
/// others RemoteError) before anything is written. opts.panel is ignored (the panel is
/// the band); opts.transport and opts.profile as for hetrd_mgpu, the profile's `symv`
/// holding the products with V (hemm), `panel` the panels' catch-up, QR and W, and
/// `update` the deferred rank-2k updates.
/// Flops: (4/3) n^3 (real), 4x that for complex; all but O(n^2 band) in GEMMs.
template <Scalar T>
void hetrd_band_mgpu(Uplo uplo, DistMatrix<T>& A, int64_t band, T* tau, T* AB, int64_t ldab,
                     const HetrdOptions& opts = {});

/// T = Q^H A Q, real symmetric tridiagonal, by the two-stage reduction: d (n) and e
/// (max(0, n - 1)) in host memory, the same on every rank. The band's half-width is
/// opts.band (0: automatic, the largest divisor of A's nb that is <= 32). A is
/// overwritten with stage one's reflectors (as hetrd_band_mgpu leaves them); Q itself is
/// not kept (unmtr_mgpu takes hetrd_mgpu's one-stage Q only). Collective; errors as
/// hetrd_band_mgpu's, plus null d or e and opts.band. opts.profile: stage one's phases
/// as in hetrd_band_mgpu, the gather of the band in `comm`, stage two in `chase`.
template <Scalar T>
void hetrd_2stage_mgpu(Uplo uplo, DistMatrix<T>& A, real_type_t<T>* d, real_type_t<T>* e,
                       const HetrdOptions& opts = {});

namespace detail {

/// The half-bandwidth hetrd_2stage_mgpu uses for A's column block nb and a request (0:
/// automatic).
int64_t two_stage_band(int64_t nb, int64_t requested);

/// Stage one's deferred update: the pending columns (a multiple of `band`) after which
/// the trailing matrix takes them as one rank-2k update. MGBLAS_SY2SB_UPDATE (columns,
/// rounded down to a multiple of band, at least band) overrides the measured choice; band
/// itself is LAPACK's panel-by-panel order.
int64_t two_stage_update_width(const Device& dev, int64_t band);

/// Stage one's product A22 V on one device, V of `cols` columns: the trailing matrix is
/// halved until its diagonal squares have at most this many columns, which go to the
/// engine's hemm; the rectangles beside them take two gemms. Unlimited where the engine's
/// hemm is fastest whole (kernels::hemm_whole). MGBLAS_SY2SB_HEMM_BLOCK
/// (columns, 64 .. 65536) overrides the measured choice.
template <Scalar T>
int64_t two_stage_hemm_block(const Device& dev, int64_t cols);

/// Whether heevd_mgpu reduces A in two stages (with or without vectors): `stages` when it
/// is One or Two, else the measured rule (bench/results/h200-twostage.md).
template <Scalar T>
bool two_stage_pays(Stages stages, const DistMatrix<T>& A, bool vectors);

/// What reduce_to_band leaves on each local device: the band in LAPACK's lower band
/// storage (ldab = 2 band: the rows past band + 1 zero, room for the chase's bulge) and
/// tau (max(0, n - band) entries), both whole on every device.
template <Scalar T>
struct DeviceBand {
  int64_t n = 0, band = 0, ldab = 1;
  std::vector<DeviceBuffer<T>> AB, tau;
};

/// hetrd_band_mgpu's work on checked arguments, with the band (B's, lower band storage,
/// for either triangle) and tau left on every device of every rank.
template <Scalar T>
DeviceBand<T> reduce_to_band(DistMatrix<T>& A, Uplo uplo, int64_t band, ReducerKind transport,
                             HetrdProfile* profile);

/// The two-stage reduction with its Q kept, A = Q T Q^H with Q = Q1 Q2: what the
/// eigen-solver with vectors needs from it. Q1's reflectors stay in A; the rest is here.
template <Scalar T>
struct TwoStageQ {
  int64_t n = 0, band = 0;
  /// Q1's tau in the order of detail::apply_reflectors_mgpu (reflector i in column i for
  /// Lower, column i + band for Upper): host, max(0, n - band) entries.
  std::vector<T> tau1;
  /// Q2's reflectors (band_to_tridiag's V2 and tau2) on every local device.
  std::vector<DeviceBuffer<T>> V2, tau2;
};

/// Checks A and the band as hetrd_2stage_mgpu does (opts.band named `band_name`), then
/// allocates Q2's reflectors on every local device: call it inside the ranks' agreement,
/// so that a failed allocation raises on every rank.
template <Scalar T>
TwoStageQ<T> make_two_stage_q(Uplo uplo, const DistMatrix<T>& A, int64_t band,
                              const char* band_name);

/// hetrd_2stage_mgpu on checked and agreed arguments, keeping Q in `q` (from
/// make_two_stage_q): d and e (host, every rank) from each rank's first device's chase,
/// whose reflectors are then copied to the rank's other devices.
template <Scalar T>
void reduce_two_stage(DistMatrix<T>& A, Uplo uplo, ReducerKind transport, HetrdProfile* profile,
                      real_type_t<T>* d, real_type_t<T>* e, TwoStageQ<T>& q);

/// C := Q C with the Q of reduce_two_stage(A, uplo, ...): Q2 on every device's own
/// columns of C (band_to_tridiag_apply_q), then Q1 (detail::apply_reflectors_mgpu with
/// off = band). C n x K on A's context, checked by the caller.
template <Scalar T>
void apply_two_stage_q(Uplo uplo, const DistMatrix<T>& A, const TwoStageQ<T>& Q,
                       DistMatrix<T>& C, const UnmtrOptions& opts);

}  // namespace detail
}  // namespace mgblas
