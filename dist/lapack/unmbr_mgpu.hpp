// SPDX-License-Identifier: BSD-3-Clause
// Application of Q or P of a bidiagonal reduction Q^H A P = B to a block of vectors,
// LAPACK's ?unmbr / ?ormbr with side Left, over every device of every rank: the SVD's
// back-transformations (U = Q [U_B; 0], V = P V_B).
//
// Q and P are taken as gebrd_mgpu leaves them in A and tauq / taup, and applied in blocks
// of `panel` reflectors (compact WY, I - V T V^H) as unmtr_mgpu applies hetrd's Q (the
// same machinery, dist/lapack/detail/reflector_blocks.hpp). Q's reflectors lie in A's
// columns: a block's owner makes V explicit and broadcasts it. P's lie in A's rows, which
// every device holds a part of: per block, each device copies its columns of the block's
// rows to their places in a zeroed buffer, the buffers are summed over every device of
// every rank (an all-gather: NCCL on GPUs, host staging and MPI otherwise), and every
// device makes V, the sum's conjugate transpose, explicit. Then every device forms T
// and updates its own columns of C with three gemms; C's columns are never moved. Side
// Right (C Q, C P) is not offered: it would mix C's columns, which live on different
// devices.
#pragma once

#include <cstdint>
#include <type_traits>

#include "core/types.hpp"
#include "dist/lapack/unmtr_mgpu.hpp"
#include "layouts/dist_matrix.hpp"

namespace mgblas {

/// C := op(Q) C (vect Q) or C := op(P) C (vect P) with the Q and P of gebrd_mgpu on the
/// m x n A, k = min(m, n), H(i) = I - tauq[i] v_i v_i^H, G(i) = I - taup[i] u_i u_i^H
/// (LAPACK's storage, as ?gebrd leaves it):
///   m >= n: Q = H(0) H(1) ... H(k-1); v_i(0:i) = 0, v_i(i) = 1, v_i(i+1:m) in A(i+1:m, i).
///           P = G(0) G(1) ... G(k-2); u_i(0:i+1) = 0, u_i(i+1) = 1, conj(u_i(i+2:n)) in
///           A(i, i+2:n).
///   m < n:  Q = H(0) H(1) ... H(k-2); v_i(0:i+1) = 0, v_i(i+1) = 1, v_i(i+2:m) in
///           A(i+2:m, i).
///           P = G(0) G(1) ... G(k-1); u_i(0:i) = 0, u_i(i) = 1, conj(u_i(i+1:n)) in
///           A(i, i+1:n).
/// (LAPACK's conventions: the reflectors left as the identity, H(k-1) for m < n and
/// G(k-1) for m >= n, are not applied; op N applies P itself, not P^H, so that
/// A = Q B P^H gives A V_B = Q (B V_B) with V := P V_B.)
///
/// A block of reflectors is I - V T V^H (T upper; op C: I - V T^H V^H) on the rows of C
/// its vectors span: W = V^H C, W = T W (T^H W), C -= V W. Q and P are both products in
/// increasing order, so op N applies the last block first and op C the first block first.
///
/// @param[in] vect     Vect::Q or Vect::P: which factor to apply.
/// @param[in] op       Op::N: C = Q C or P C; Op::C: C = Q^H C or P^H C (real T: Op::T is
///                     accepted as Op::C).
/// @param[in] A        m x n, BlockCyclic1D over every device of its context, as gebrd_mgpu
///                     left it. Only the reflectors' part is read (vect Q: below the
///                     diagonal (m >= n) or subdiagonal (m < n); vect P: right of the
///                     superdiagonal (m >= n) or diagonal (m < n)).
/// @param[in] tau      tauq (vect Q) or taup (vect P) as gebrd_mgpu returns it: k entries
///                     in host memory, the same on every rank; may be null when there is
///                     nothing to apply (K = 0, or no reflector: vect Q with m = 1 < n,
///                     vect P with n = 1, or k = 0).
/// @param[in,out] C    vect Q: m x K; vect P: n x K; on A's context, with its own
///                     BlockCyclic1D over the K columns (any nb, any first device); each
///                     device updates its own columns. Not touched when there is nothing
///                     to apply.
/// @param[in] opts     block width and transport (see UnmtrOptions; panel: a divisor of
///                     A's nb in [1, 128], 0 for the largest such).
///
/// Collective over the ranks of A's context; every rank passes the same arguments.
/// Errors, raised on every rank (the others RemoteError) before C is written:
/// BadArgument for vect, op, C or tau on another context than A, a block-cyclic tau, a null
/// tau when there is something to apply, or a panel that is not a divisor of nb in
/// [1, 128]; DimensionMismatch for C with other rows than the vect needs, a layout over
/// other devices, or tau of other than k entries.
/// On GPUs nothing in the loop waits for the host; the call returns when C is complete.
/// Flops: 2 K r (2 l - r) (real; 4x that for complex), l = m (vect Q) or n (vect P), r
/// the number of reflectors applied, plus about b l^2 / 2 (b the panel) for the blocks' T
/// on every device that holds columns of C. Vect P adds about b l^2 on every device (V
/// made from the gathered rows by products with the identity) and sums over the devices
/// of about r l entries in all (vect Q broadcasts as many).
template <Scalar T>
void unmbr_mgpu(Vect vect, Op op, const DistMatrix<T>& A, const T* tau, DistMatrix<T>& C,
                const UnmtrOptions& opts = {});

/// unmbr_mgpu with tau as gebrd_mgpu's replicated DistVector of k entries on A's context.
template <Scalar T>
void unmbr_mgpu(Vect vect, Op op, const DistMatrix<T>& A, const DistVector<T>& tau,
                DistMatrix<T>& C, const UnmtrOptions& opts = {});

/// The real names of unmbr_mgpu (LAPACK ?ormbr), for float and double.
template <Scalar T>
  requires(!is_complex_v<T>)
void ormbr_mgpu(Vect vect, Op op, const DistMatrix<T>& A, const std::type_identity_t<T>* tau,
                DistMatrix<T>& C, const UnmtrOptions& opts = {}) {
  unmbr_mgpu<T>(vect, op, A, tau, C, opts);
}
template <Scalar T>
  requires(!is_complex_v<T>)
void ormbr_mgpu(Vect vect, Op op, const DistMatrix<T>& A, const DistVector<T>& tau,
                DistMatrix<T>& C, const UnmtrOptions& opts = {}) {
  unmbr_mgpu<T>(vect, op, A, tau, C, opts);
}

namespace detail {
/// unmbr_mgpu for a reduction to banded form with `band` off-diagonals (the two-stage
/// bidiagonal reduction's stage one): P's units `band` right of the diagonal (m >= n) or
/// Q's `band` below it (m < n); band = 1 is unmbr_mgpu. Host tau, as many as reflectors.
template <Scalar T>
void unmbr_band_mgpu(Vect vect, int64_t band, Op op, const DistMatrix<T>& A, const T* tau,
                     DistMatrix<T>& C, const UnmtrOptions& opts = {});
}  // namespace detail

}  // namespace mgblas
