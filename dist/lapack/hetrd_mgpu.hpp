// SPDX-License-Identifier: BSD-3-Clause
// Tridiagonal reduction of a distributed Hermitian (real: symmetric) matrix,
// A = Q T Q^H, LAPACK's ?sytrd / ?hetrd on a BlockCyclic1D DistMatrix over every device
// of every rank (GPUs or host devices).
//
// The algorithm is LAPACK's blocked one (DSYTRD with a DLATRD panel), arranged so that
// a GPU never waits for the host:
//   - each panel of `panel` columns (inside one block column of A) is broadcast from its
//     owner to every device (NCCL on GPUs, host + MPI otherwise);
//   - every device then runs the panel's column steps on its own copy (column update,
//     reflector, the panel's dot products: kernels/latrd_kernels.hpp), so reflectors and
//     W need no communication; the only per-column collective is the sum of the devices'
//     shares of w = A22 v (the distributed SYMV/HEMV on the trailing matrix);
//   - the panel is stored back into its owner's columns, and every device applies the
//     rank-2k update A22 -= V W^H + W V^H to its own trailing block columns.
// The upper triangle is reduced from the last column backwards, as LAPACK does; its
// panels are copied in reverse row and column order, where the steps are the lower ones.
// Per column: five kernels per device and one all-reduce of n - j elements; per panel:
// one broadcast and a rank-2k update. Device workspace beyond A: about 5 n x panel
// elements per device (the panel, W and the update's stacked [V W V]), and for the upper
// triangle one n x panel and 5 n more (its reversed copies).
#pragma once

#include <cstdint>
#include <type_traits>

#include "core/types.hpp"
#include "dist/reducer.hpp"
#include "layouts/dist_matrix.hpp"

namespace mgblas {

/// Where a reduction's time goes, in seconds of wall time on this rank (filled when
/// HetrdOptions::profile points at one; the devices are then synchronised at every phase
/// boundary, which costs some of the overlap an unprofiled call has).
struct HetrdProfile {
  double symv = 0;     ///< the devices' SYMV/HEMV shares of the panels' columns
  double panel = 0;    ///< the rest of the panels' column steps (reflectors, corrections)
  double comm = 0;     ///< per-column sums and panel broadcasts
  double update = 0;   ///< panel store and the rank-2k updates of the trailing matrix
  double chase = 0;    ///< two-stage only (hetrd_2stage_mgpu): band to tridiagonal
  double total = 0;    ///< the whole call, argument agreement included
};

/// How an eigenvalue solver reduces A to tridiagonal form: one stage (hetrd_mgpu) or two
/// (hetrd_2stage_mgpu: dense to band, then the bulge chase), or Auto (the faster one by a
/// rule fitted to measurements, dist/lapack/hetrd_2stage_mgpu.hpp).
enum class Stages : char { Auto = 'A', One = '1', Two = '2' };

/// Tuning and transport of hetrd_mgpu / sytrd_mgpu.
struct HetrdOptions {
  /// Columns per panel: a divisor of A's nb, at most 128; 0 picks the largest divisor of
  /// nb that is <= 32 for n < 6144, else <= 64 (LAPACK's ilaenv gives 32-64 for this
  /// step; the narrower panels were faster at n = 4096 on an H200).
  int64_t panel = 0;
  /// hetrd_2stage_mgpu's band half-width: a divisor of A's nb, at most 128; 0 picks the
  /// largest divisor of nb that is <= 32 (dist/lapack/hetrd_2stage_mgpu.cpp says why).
  int64_t band = 0;
  /// How the devices' shares are summed and panels broadcast: Auto is NCCL when every
  /// device is a distinct GPU and NCCL is built (MGBLAS_REDUCER overrides), else host.
  ReducerKind transport = ReducerKind::Auto;
  /// When not null, receives the time per phase (see HetrdProfile).
  HetrdProfile* profile = nullptr;
};

/// Reduces the n x n Hermitian A (real T: symmetric) to real symmetric tridiagonal form
/// T = Q^H A Q, Q = H(0) H(1) ... H(n-2), H(i) = I - tau[i] v_i v_i^H.
///
/// @param[in] uplo     the stored triangle: Lower, Q = H(0) ... H(n-2) as above; Upper
///                     (LAPACK's order), Q = H(n-2) ... H(0), v_i(i) = 1 and v_i(0:i-1)
///                     in A(0:i-1, i+1), e[i] = T(i, i+1).
/// @param[in,out] A    n x n on the devices of its context, any nb; on return the
///                     diagonal and first off-diagonal of the `uplo` triangle hold T (d
///                     and e), and beyond them the reflectors as LAPACK stores them
///                     (lower: v_i(i+1) = 1 not stored, v_i(i+2:n) in A(i+2:n, i)). The
///                     other triangle is not touched. Imaginary parts of the diagonal are
///                     taken as zero.
/// @param[out] d       replicated DistVector of length n on A's context: T's diagonal.
/// @param[out] e       replicated, length max(0, n - 1): T's off-diagonal (real).
/// @param[out] tau     replicated, length max(0, n - 1): the reflectors' scalars.
///
/// Collective over the ranks of A's context; every rank passes the same arguments.
/// Errors: BadArgument / DimensionMismatch raised on every rank (the
/// others RemoteError) before anything is written. On GPUs the call returns when the
/// result is complete; between its collectives no device waits for the host.
/// A NaN or infinity in the read triangle is not an error (finding it would cost a pass
/// over A): it spreads through the reflectors, and d, e or tau hold a NaN or infinity on
/// return (tested on both engines); finite outputs mean a finite input.
/// Flops: (4/3) n^3 (real), 4x that for complex; half of them in the SYMV/HEMV.
template <Scalar T>
void hetrd_mgpu(Uplo uplo, DistMatrix<T>& A, DistVector<real_type_t<T>>& d,
                DistVector<real_type_t<T>>& e, DistVector<T>& tau, const HetrdOptions& opts = {});

/// hetrd_mgpu with d (n), e and tau (max(0, n - 1)) in host memory, the same on every
/// rank on return.
template <Scalar T>
void hetrd_mgpu(Uplo uplo, DistMatrix<T>& A, real_type_t<T>* d, real_type_t<T>* e, T* tau,
                const HetrdOptions& opts = {});

/// The real symmetric names of hetrd_mgpu (LAPACK ?sytrd), for float and double.
template <Scalar T>
  requires(!is_complex_v<T>)
void sytrd_mgpu(Uplo uplo, DistMatrix<T>& A, DistVector<T>& d, DistVector<T>& e,
                DistVector<T>& tau, const HetrdOptions& opts = {}) {
  hetrd_mgpu<T>(uplo, A, d, e, tau, opts);
}
template <Scalar T>
  requires(!is_complex_v<T>)
void sytrd_mgpu(Uplo uplo, DistMatrix<T>& A, std::type_identity_t<T>* d,
                std::type_identity_t<T>* e, std::type_identity_t<T>* tau,
                const HetrdOptions& opts = {}) {
  hetrd_mgpu<T>(uplo, A, d, e, tau, opts);
}

}  // namespace mgblas
