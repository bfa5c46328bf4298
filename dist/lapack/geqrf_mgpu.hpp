// SPDX-License-Identifier: BSD-3-Clause
// QR factorisation of a distributed general matrix, A = Q R, LAPACK's ?geqrf on a
// BlockCyclic1D DistMatrix over every device of every rank (GPUs or host devices): the
// first step of the SVD of a tall matrix (gesvd_mgpu, issue 35).
//
// The algorithm is LAPACK's right-looking blocked one (DGEQRF), split along A's columns:
// per panel of `panel` columns (a divisor of nb, so one device owns it), the owner
// factors its (m - j) x panel block with the single-device ?geqrf (host engine LAPACK,
// CUDA engine cuSOLVER); the panel's tau and its reflectors made explicit (V) are
// broadcast to every device, each device forms T (larft) and applies H^H = I - V T^H V^H
// to its own columns right of the panel with three gemms (the machinery of unmtr_mgpu
// and unmbr_mgpu, dist/lapack/detail/reflector_blocks.hpp). A's columns never move.
#pragma once

#include <cstdint>

#include "core/types.hpp"
#include "dist/reducer.hpp"
#include "layouts/dist_matrix.hpp"

namespace mgblas {

struct GeqrfOptions {
  /// Columns per panel: a divisor of A's nb, at most 128 (kernels::kLarftMaxBlock); 0
  /// picks the largest divisor of nb that is <= 128.
  int64_t panel = 0;
  /// How each panel's reflectors and tau are broadcast: Auto is NCCL when every device
  /// is a distinct GPU and NCCL is built (MGBLAS_REDUCER overrides), else host staging.
  ReducerKind transport = ReducerKind::Auto;
};

/// A = Q R, LAPACK's ?geqrf, k = min(m, n): R (k x n, upper trapezoidal) in A's upper
/// triangle, Q = H(0) H(1) ... H(k-1), H(i) = I - tau[i] v_i v_i^H, v_i(0:i) = 0,
/// v_i(i) = 1 (not stored), v_i(i+1:m) in A(i+1:m, i) (unmbr_mgpu(Vect::Q, ...) applies
/// this Q for m >= n).
///
/// @param[in,out] A  m x n (any m, n >= 0), BlockCyclic1D over every device of its context.
/// @param[out] tau   k entries in host memory, the same on every rank on return; may be
///                   null when k = 0.
/// @param[in] opts   panel width and transport (see GeqrfOptions).
///
/// Collective over the ranks of A's context; every rank passes the same arguments.
/// Errors, raised on every rank (the others RemoteError) before A or tau is written:
/// BadArgument for a null tau when k > 0 or a panel that is not a divisor of nb in
/// [1, 128]; DimensionMismatch for a layout over other devices than the context's.
/// A NaN in A is no error: it propagates to R, the reflectors and tau.
/// On GPUs nothing in the loop waits for the host; the call returns when A and tau are
/// complete.
/// Flops: 2 n^2 (m - n / 3) for m >= n, 2 m^2 (n - m / 3) for m < n (real; 4x that for
/// complex), plus about m k b (b the panel) for the panels' T on every device; the
/// broadcasts carry about m k entries in all.
template <Scalar T>
void geqrf_mgpu(DistMatrix<T>& A, T* tau, const GeqrfOptions& opts = {});

}  // namespace mgblas
