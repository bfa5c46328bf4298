// SPDX-License-Identifier: BSD-3-Clause
// Application of the unitary (real: orthogonal) Q of a tridiagonal reduction to a block of
// vectors, LAPACK's ?unmtr / ?ormtr with side Left and either triangle, over every device
// of every rank: the step that turns the eigenvectors of T into those of A.
//
// Q is taken as hetrd_mgpu leaves it in A and tau. The reflectors are applied in blocks
// of `panel` (compact WY, I - V T V^H): per block, its owner makes V explicit and
// broadcasts it (NCCL on GPUs, host + MPI otherwise), every device forms T and updates
// its own columns of C with three gemms. C's columns are never moved. Side Right (C Q)
// is not offered: it would mix C's columns, which live on different devices.
#pragma once

#include <cstdint>
#include <type_traits>

#include "core/types.hpp"
#include "dist/reducer.hpp"
#include "layouts/dist_matrix.hpp"

namespace mgblas {

/// Tuning and transport of unmtr_mgpu / ormtr_mgpu.
struct UnmtrOptions {
  /// Reflectors per block: a divisor of A's nb, at most 128 (kernels::kLarftMaxBlock); 0
  /// picks the largest divisor of nb that is <= 128 (any divisor is valid whatever panel
  /// the reduction used).
  int64_t panel = 0;
  /// How each block of reflectors is broadcast: Auto is NCCL when every device is a
  /// distinct GPU and NCCL is built (MGBLAS_REDUCER overrides), else host staging.
  ReducerKind transport = ReducerKind::Auto;
};

/// C := op(Q) C with the Q of hetrd_mgpu(uplo, A, ...), H(i) = I - tau[i] v_i v_i^H
/// (LAPACK's storage):
///   Lower: Q = H(0) H(1) ... H(n-2); v_i(0:i+1) = 0, v_i(i+1) = 1 (not stored),
///          v_i(i+2:n) in A(i+2:n, i).
///   Upper: Q = H(n-2) ... H(1) H(0); v_i(i+1:n) = 0, v_i(i) = 1 (not stored),
///          v_i(0:i) in A(0:i, i + 1).
///
/// A block of reflectors is I - V T V^H (op C: I - V T^H V^H) on the rows its vectors
/// span: W = V^H C, W = T W (T^H W), C -= V W; op N applies the blocks in the order that
/// makes Q C (Lower: last block first), op C the other.
///
/// @param[in] uplo     the triangle hetrd_mgpu reduced (Uplo::Lower or Uplo::Upper).
/// @param[in] op       Op::N: C = Q C; Op::C: C = Q^H C (real T: Op::T is accepted as
///                     Op::C).
/// @param[in] A        n x n, BlockCyclic1D over every device of its context, as
///                     hetrd_mgpu(uplo) left it. Only the reflectors' part is read (Lower:
///                     below the subdiagonal; Upper: above the superdiagonal).
/// @param[in] tau      replicated DistVector of length max(0, n - 1) on A's context (as
///                     hetrd_mgpu returns it).
/// @param[in,out] C    n x K on A's context, with its own BlockCyclic1D over the K
///                     columns (any nb, any first device); each device updates its own
///                     columns. K = 0 or n <= 1: C is not touched (Q = I for n = 1).
/// @param[in] opts     block width and transport (see UnmtrOptions).
///
/// Collective over the ranks of A's context; every rank passes the same arguments.
/// Errors, raised on every rank (the others RemoteError) before C is written:
/// BadArgument for uplo, op, a C or tau on another context, a block-cyclic tau or a panel
/// that is not a divisor of nb in [1, 128]; DimensionMismatch for a non-square A, C with
/// other than n rows, a layout over other devices, or tau of other than n - 1 entries.
/// On GPUs nothing in the loop waits for the host; the call returns when C is complete.
/// Flops: about 2 n^2 K (real), 4x that for complex, plus about b n^2 (b the panel) for
/// the blocks' T on every device that holds columns of C.
template <Scalar T>
void unmtr_mgpu(Uplo uplo, Op op, const DistMatrix<T>& A, const DistVector<T>& tau,
                DistMatrix<T>& C, const UnmtrOptions& opts = {});

/// unmtr_mgpu with tau in host memory: max(0, n - 1) entries, the same on every rank (as
/// the host-output hetrd_mgpu returns them); may be null when n <= 1 or K = 0.
template <Scalar T>
void unmtr_mgpu(Uplo uplo, Op op, const DistMatrix<T>& A, const T* tau, DistMatrix<T>& C,
                const UnmtrOptions& opts = {});

/// The real names of unmtr_mgpu (LAPACK ?ormtr), for float and double.
template <Scalar T>
  requires(!is_complex_v<T>)
void ormtr_mgpu(Uplo uplo, Op op, const DistMatrix<T>& A, const DistVector<T>& tau,
                DistMatrix<T>& C, const UnmtrOptions& opts = {}) {
  unmtr_mgpu<T>(uplo, op, A, tau, C, opts);
}
template <Scalar T>
  requires(!is_complex_v<T>)
void ormtr_mgpu(Uplo uplo, Op op, const DistMatrix<T>& A, const std::type_identity_t<T>* tau,
                DistMatrix<T>& C, const UnmtrOptions& opts = {}) {
  unmtr_mgpu<T>(uplo, op, A, tau, C, opts);
}

namespace detail {

/// unmtr_mgpu's work on arguments the caller has checked and agreed on, for reflectors
/// whose unit lies `off` rows from their column (detail::ReflectorBlocks in
/// dist/lapack/detail/reflector_blocks.hpp):
///   Lower: Q = H(0) H(1) ... H(r-1), r = min(n, m - off) for an m x n A (m rows of C);
///          reflector i in column i, unit at row i + off, its entries below in
///          A(i+off+1:m, i).
///   Upper: (square A) Q = H(n-off-1) ... H(1) H(0); reflector i in column i + off, unit
///          at row i, its entries above in A(0:i, i + off).
/// off = 1 is hetrd_mgpu's Q; off = band is stage one's Q1 of the two-stage reduction
/// (hetrd_band_mgpu; Upper with its tau reversed, since its reflector i lies in column
/// n - 1 - i); Lower with m x n, off = 0 (m >= n) or 1 (m < n) is gebrd_mgpu's Q.
/// tau: host memory, max(0, r) entries, tau[i] of reflector i.
template <Scalar T>
void apply_reflectors_mgpu(Uplo uplo, Op op, const DistMatrix<T>& A, int64_t off, const T* tau,
                           DistMatrix<T>& C, const UnmtrOptions& opts);

/// The same for reflectors kept in A's rows (LAPACK's ?gelqf storage; gebrd_mgpu's P with
/// off = 1 for m >= n, 0 for m < n): Q = H(0) H(1) ... H(r-1), r = min(m, n - off); C has
/// n rows; reflector i in row i, unit at column i + off, the conjugates of its entries
/// in A(i, i+off+1:n). Each block's rows are summed over every device of every rank (see
/// reflector_blocks.hpp). tau: host memory, max(0, r) entries.
template <Scalar T>
void apply_row_reflectors_mgpu(Op op, const DistMatrix<T>& A, int64_t off, const T* tau,
                               DistMatrix<T>& C, const UnmtrOptions& opts);

}  // namespace detail
}  // namespace mgblas
