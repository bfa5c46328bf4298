// SPDX-License-Identifier: BSD-3-Clause
// Distributed Level-2 BLAS: GEMV, SYMV and HEMV on a matrix spread over every device
// of every rank by a BlockCyclic1D layout (DistMatrix<T>), with x and y replicated.
//
// How a call runs. Each local device multiplies its own block columns with the
// single-device entries of kernels/blas.hpp, on its own queue, into a partial vector
// of the full output length; a Reducer (dist/reducer.hpp) then sums the partials of
// all devices of all ranks and applies beta * y0 once, on the host, so every rank
// receives the full y.
//   gemv, op = N:    partial = alpha * A_local * x_local, x_local the entries of x at
//                    the device's columns (gathered once: one gemv per device).
//   gemv, op = T/C:  the entries of y at the device's columns (one gemv per device),
//                    scattered to their global positions, zeros elsewhere.
//   symv/hemv:       per local block column [c0, c0 + w): the diagonal block with
//                    symv/hemv, and the off-diagonal panel of the stored triangle twice,
//                    as itself (rows beyond the block) and transposed/conjugated (rows
//                    of the block), so each stored entry is read once.
//
// Common rules of every function below:
// - Collective over the ranks of the context: every rank calls it with the same op or
//   uplo, the same sizes and layout, and the same x (x and y are replicated: each rank
//   passes the whole vector and receives the whole result).
// - Arguments are validated on every rank before anything is written; a bad argument
//   raises on every rank (BadArgument or DimensionMismatch where it was found,
//   RemoteError on the other ranks), and y is left untouched. Ranks that disagree on
//   the call raise DimensionMismatch.
// - Three call forms: without a context (A's context, a reducer chosen per call by
//   make_reducer(..., Auto)), with an explicit context (A must match it), and with a
//   Reducer (its context; reuse one reducer across calls to keep its buffers).
// - Quick returns: an empty y returns at once; alpha == 0 or an empty inner dimension
//   makes y = beta * y with no reduction; beta == 0 never reads y (NaN in y does not
//   propagate). The host vectors have unit stride.
// - On return y is complete on every rank (the devices are synchronised).
#pragma once

#include <cstdint>
#include <memory>
#include <type_traits>

#include "core/context.hpp"
#include "core/types.hpp"
#include "dist/reducer.hpp"
#include "layouts/dist_matrix.hpp"

namespace mgblas {

/// Scalars and vectors take their type from A: `gemv_mgpu(Op::N, 1.0, A_float, ...)`
/// converts 1.0 to float instead of failing deduction.
template <typename T>
using same_as_a_t = std::type_identity_t<T>;

// ---------------------------------------------------------------------------------
// GEMV
// ---------------------------------------------------------------------------------

/// y = alpha * op(A) * x + beta * y with A distributed by block columns.
///
/// @param[in,out] reducer  sums the partial vectors; its context is the context of the
///                         call (A must live on it).
/// @param[in] op     N, T or C (C = T for real types).
/// @param[in] alpha  scalar.
/// @param[in] A      m x n, layout over reducer.context().global_num_devices() devices
///                   (else DimensionMismatch), any nb, n not necessarily a multiple of
///                   nb; devices owning no block column contribute nothing.
/// @param[in] x      host, length n (op N) or m (op T/C), the same on every rank; may be
///                   null only when alpha == 0 or a dimension is 0.
/// @param[in] beta   scalar; beta == 0 does not read y.
/// @param[in,out] y  host, length m (op N) or n (op T/C); on return the full result
///                   on every rank. May be null only when its length is 0.
///
/// Flops: 2mn (real), 8mn (complex), spread over the devices in proportion to their
/// columns; plus a length-m (op N) or length-n (op T/C) reduction over all devices.
template <Scalar T>
void gemv_mgpu(Reducer& reducer, Op op, same_as_a_t<T> alpha, const DistMatrix<T>& A,
               const same_as_a_t<T>* x, same_as_a_t<T> beta, same_as_a_t<T>* y);

/// gemv_mgpu on the context `ctx` (A must be laid out over ctx's devices and live on
/// it), with a reducer made by make_reducer(ctx).
template <Scalar T>
void gemv_mgpu(const std::shared_ptr<Context>& ctx, Op op, same_as_a_t<T> alpha,
               const DistMatrix<T>& A, const same_as_a_t<T>* x, same_as_a_t<T> beta,
               same_as_a_t<T>* y);

/// gemv_mgpu on A's context, with a reducer made by make_reducer.
template <Scalar T>
void gemv_mgpu(Op op, same_as_a_t<T> alpha, const DistMatrix<T>& A, const same_as_a_t<T>* x,
               same_as_a_t<T> beta, same_as_a_t<T>* y);

/// gemv_mgpu with x and y as replicated DistVectors on the same context: every local
/// device holds all of x (used in place) and receives all of y.
/// @param[in] x      replicated, length n (op N) or m (op T/C); a block-cyclic
///                   vector is a BadArgument, a wrong length a DimensionMismatch.
/// @param[in,out] y  replicated, length m (op N) or n (op T/C).
template <Scalar T>
void gemv_mgpu(Reducer& reducer, Op op, same_as_a_t<T> alpha, const DistMatrix<T>& A,
               const DistVector<T>& x, same_as_a_t<T> beta, DistVector<T>& y);
/// As above, on `ctx`.
template <Scalar T>
void gemv_mgpu(const std::shared_ptr<Context>& ctx, Op op, same_as_a_t<T> alpha,
               const DistMatrix<T>& A, const DistVector<T>& x, same_as_a_t<T> beta,
               DistVector<T>& y);
/// As above, on A's context.
template <Scalar T>
void gemv_mgpu(Op op, same_as_a_t<T> alpha, const DistMatrix<T>& A, const DistVector<T>& x,
               same_as_a_t<T> beta, DistVector<T>& y);

// ---------------------------------------------------------------------------------
// SYMV
// ---------------------------------------------------------------------------------

/// y = alpha * A * x + beta * y, A n x n symmetric (complex T: complex symmetric, no
/// conjugation) distributed by block columns; only the `uplo` triangle is read.
///
/// @param[in,out] reducer  as for gemv_mgpu.
/// @param[in] uplo   Lower or Upper: the stored triangle.
/// @param[in] A      n x n (m != n: DimensionMismatch), layout over the context's
///                   devices; the other triangle is never read.
/// @param[in] x      host, length n, the same on every rank; may be null only when
///                   alpha == 0 or n == 0.
/// @param[in,out] y  host, length n; not read when beta == 0.
///
/// Flops: 2n^2 (real), 8n^2 (complex); each stored entry is read once.
template <Scalar T>
void symv_mgpu(Reducer& reducer, Uplo uplo, same_as_a_t<T> alpha, const DistMatrix<T>& A,
               const same_as_a_t<T>* x, same_as_a_t<T> beta, same_as_a_t<T>* y);
/// symv_mgpu on `ctx`.
template <Scalar T>
void symv_mgpu(const std::shared_ptr<Context>& ctx, Uplo uplo, same_as_a_t<T> alpha,
               const DistMatrix<T>& A, const same_as_a_t<T>* x, same_as_a_t<T> beta,
               same_as_a_t<T>* y);
/// symv_mgpu on A's context.
template <Scalar T>
void symv_mgpu(Uplo uplo, same_as_a_t<T> alpha, const DistMatrix<T>& A,
               const same_as_a_t<T>* x, same_as_a_t<T> beta, same_as_a_t<T>* y);
/// symv_mgpu with replicated DistVectors x and y (length n).
template <Scalar T>
void symv_mgpu(Reducer& reducer, Uplo uplo, same_as_a_t<T> alpha, const DistMatrix<T>& A,
               const DistVector<T>& x, same_as_a_t<T> beta, DistVector<T>& y);
/// As above, on `ctx`.
template <Scalar T>
void symv_mgpu(const std::shared_ptr<Context>& ctx, Uplo uplo, same_as_a_t<T> alpha,
               const DistMatrix<T>& A, const DistVector<T>& x, same_as_a_t<T> beta,
               DistVector<T>& y);
/// As above, on A's context.
template <Scalar T>
void symv_mgpu(Uplo uplo, same_as_a_t<T> alpha, const DistMatrix<T>& A, const DistVector<T>& x,
               same_as_a_t<T> beta, DistVector<T>& y);

// ---------------------------------------------------------------------------------
// HEMV
// ---------------------------------------------------------------------------------

/// y = alpha * A * x + beta * y, A n x n Hermitian (real T: symmetric, the same as
/// symv_mgpu) distributed by block columns; only the `uplo` triangle is read and the
/// imaginary parts of the diagonal are taken as zero.
///
/// Parameters, quick returns and errors as for symv_mgpu. Flops: 8n^2 (complex).
template <Scalar T>
void hemv_mgpu(Reducer& reducer, Uplo uplo, same_as_a_t<T> alpha, const DistMatrix<T>& A,
               const same_as_a_t<T>* x, same_as_a_t<T> beta, same_as_a_t<T>* y);
/// hemv_mgpu on `ctx`.
template <Scalar T>
void hemv_mgpu(const std::shared_ptr<Context>& ctx, Uplo uplo, same_as_a_t<T> alpha,
               const DistMatrix<T>& A, const same_as_a_t<T>* x, same_as_a_t<T> beta,
               same_as_a_t<T>* y);
/// hemv_mgpu on A's context.
template <Scalar T>
void hemv_mgpu(Uplo uplo, same_as_a_t<T> alpha, const DistMatrix<T>& A,
               const same_as_a_t<T>* x, same_as_a_t<T> beta, same_as_a_t<T>* y);
/// hemv_mgpu with replicated DistVectors x and y (length n).
template <Scalar T>
void hemv_mgpu(Reducer& reducer, Uplo uplo, same_as_a_t<T> alpha, const DistMatrix<T>& A,
               const DistVector<T>& x, same_as_a_t<T> beta, DistVector<T>& y);
/// As above, on `ctx`.
template <Scalar T>
void hemv_mgpu(const std::shared_ptr<Context>& ctx, Uplo uplo, same_as_a_t<T> alpha,
               const DistMatrix<T>& A, const DistVector<T>& x, same_as_a_t<T> beta,
               DistVector<T>& y);
/// As above, on A's context.
template <Scalar T>
void hemv_mgpu(Uplo uplo, same_as_a_t<T> alpha, const DistMatrix<T>& A, const DistVector<T>& x,
               same_as_a_t<T> beta, DistVector<T>& y);

// Defined, with explicit instances for the four scalars, in dist/gemv_mgpu.cpp and
// dist/symv_mgpu.cpp.

}  // namespace mgblas
