// SPDX-License-Identifier: BSD-3-Clause
// Distributed Level-2 BLAS: GEMV, SYMV and HEMV on a matrix spread over every device
// of every rank by a BlockCyclic1D layout (DistMatrix<T>), on the whole matrix or on a
// trailing submatrix (the _offset forms, for drivers such as the tridiagonal and
// bidiagonal reductions that shrink their trailing matrix every step).
//
// How a call runs. Each local device multiplies its own block columns (those inside the
// submatrix) on its own stream into a partial vector of the full output length; a
// Reducer (dist/reducer.hpp) then sums the partials of all devices of all ranks and
// applies beta * y0 once, so every rank (and, for a replicated DistVector y, every
// device) receives the whole y. With the NCCL reducer the partials never leave the
// GPUs and nothing waits on the host between the products, the collective and the
// finish; with Reducer::pipeline_chunks() > 1 the local work is split so that the
// reduction of one chunk overlaps the products of the next.
//   gemv, op = N:    partial = alpha * A_local * x_local, x_local the entries of x at
//                    the device's columns (gathered on the device; or the device's
//                    part of a block-cyclic x): one gemv per device and row chunk.
//   gemv, op = T/C:  the entries of y at the device's columns (one gemv per device),
//                    assembled by the reducer (an all-gather with NCCL); with a
//                    block-cyclic y they simply stay where they are: no communication.
//   symv/hemv:       on a GPU, one kernel per device and chunk reads every stored entry
//                    of the device's columns once and adds it to y at its row and
//                    (mirrored) at its column: the engine's SYMV tile kernel when nb is
//                    a multiple of its tile (64; double complex 32), else a kernel of
//                    narrower column tiles (env MGBLAS_DIST_SYMV=columns forces it); on
//                    a host device (and with MGBLAS_DIST_SYMV=engine) the engine's
//                    symv/hemv on the diagonal block and two gemv on the panel of each
//                    local block column.
//
// Common rules of every function below:
// - Collective over the ranks of the context: every rank calls it with the same op or
//   uplo, the same sizes, offsets and layout, the same vector forms and the same x
//   (a host or replicated x and y: each rank passes the whole vector and receives the
//   whole result).
// - Vector forms: a host pointer (unit stride); a replicated DistVector (a full copy on
//   every local device; length that of the submatrix product); a block-cyclic
//   DistVector laid out like A's columns (same n, nb, P, first; full length n, the
//   entries at columns >= the submatrix's first column are used): as x of gemv op N and
//   as y of gemv op T/C only.
// - Arguments are validated on every rank before anything is written; a bad argument
//   raises on every rank (BadArgument or DimensionMismatch where it was found,
//   RemoteError on the other ranks), and y is left untouched. Ranks that disagree on
//   the call raise DimensionMismatch.
// - Three call forms: without a context (A's context, a reducer chosen per call by
//   make_reducer(..., Auto)), with an explicit context (A must match it), and with a
//   Reducer (its context; reuse one reducer across calls to keep its buffers).
// - Quick returns: an empty y returns at once; alpha == 0 or an empty inner dimension
//   makes y = beta * y with no reduction; beta == 0 never reads y (NaN in y does not
//   propagate).
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

/// gemv_mgpu with x and y as DistVectors on the same context, resident on the devices.
/// @param[in] x      replicated, length n (op N) or m (op T/C): every local device
///                   holds all of x, used in place; or (op N only) block-cyclic like
///                   A's columns: each device holds the entries at its columns.
/// @param[in,out] y  replicated, length m (op N) or n (op T/C): every local device
///                   receives all of y; or (op T/C only) block-cyclic like A's columns:
///                   each device computes the entries at its columns, no reduction.
/// Another form is a BadArgument, a wrong length or layout a DimensionMismatch.
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

// ---------------------------------------------------------------------------------
// Submatrix (offset) forms
// ---------------------------------------------------------------------------------

/// y = alpha * op(A(i0:m, j0:n)) * x + beta * y: gemv_mgpu on the trailing submatrix of
/// rows i0.. and columns j0.. of A (0 <= i0 <= m, 0 <= j0 <= n, else BadArgument). The
/// submatrix is (m - i0) x (n - j0); x and y have its lengths (host or replicated), or,
/// block-cyclic, the full length n with the entries at columns >= j0 in use. Each device
/// reads only its columns >= j0 and rows >= i0, aligned to its local storage.
/// Flops: 2(m - i0)(n - j0) (real), 8(m - i0)(n - j0) (complex).
template <Scalar T>
void gemv_mgpu_offset(Reducer& reducer, Op op, same_as_a_t<T> alpha, const DistMatrix<T>& A,
                      int64_t i0, int64_t j0, const same_as_a_t<T>* x, same_as_a_t<T> beta,
                      same_as_a_t<T>* y);
/// As above, on `ctx`.
template <Scalar T>
void gemv_mgpu_offset(const std::shared_ptr<Context>& ctx, Op op, same_as_a_t<T> alpha,
                      const DistMatrix<T>& A, int64_t i0, int64_t j0, const same_as_a_t<T>* x,
                      same_as_a_t<T> beta, same_as_a_t<T>* y);
/// As above, on A's context.
template <Scalar T>
void gemv_mgpu_offset(Op op, same_as_a_t<T> alpha, const DistMatrix<T>& A, int64_t i0,
                      int64_t j0, const same_as_a_t<T>* x, same_as_a_t<T> beta,
                      same_as_a_t<T>* y);
/// With DistVectors (see gemv_mgpu with DistVectors for the forms).
template <Scalar T>
void gemv_mgpu_offset(Reducer& reducer, Op op, same_as_a_t<T> alpha, const DistMatrix<T>& A,
                      int64_t i0, int64_t j0, const DistVector<T>& x, same_as_a_t<T> beta,
                      DistVector<T>& y);
/// As above, on `ctx`.
template <Scalar T>
void gemv_mgpu_offset(const std::shared_ptr<Context>& ctx, Op op, same_as_a_t<T> alpha,
                      const DistMatrix<T>& A, int64_t i0, int64_t j0, const DistVector<T>& x,
                      same_as_a_t<T> beta, DistVector<T>& y);
/// As above, on A's context.
template <Scalar T>
void gemv_mgpu_offset(Op op, same_as_a_t<T> alpha, const DistMatrix<T>& A, int64_t i0,
                      int64_t j0, const DistVector<T>& x, same_as_a_t<T> beta,
                      DistVector<T>& y);

/// y = alpha * S * x + beta * y with S = A(off:n, off:n), the trailing (n - off) x
/// (n - off) diagonal submatrix of the symmetric A (0 <= off <= n, else BadArgument);
/// x and y have length n - off (host or replicated DistVectors). Only the `uplo`
/// triangle of S is read. Flops: 2(n - off)^2 (real), 8(n - off)^2 (complex).
template <Scalar T>
void symv_mgpu_offset(Reducer& reducer, Uplo uplo, same_as_a_t<T> alpha,
                      const DistMatrix<T>& A, int64_t off, const same_as_a_t<T>* x,
                      same_as_a_t<T> beta, same_as_a_t<T>* y);
/// As above, on `ctx`.
template <Scalar T>
void symv_mgpu_offset(const std::shared_ptr<Context>& ctx, Uplo uplo, same_as_a_t<T> alpha,
                      const DistMatrix<T>& A, int64_t off, const same_as_a_t<T>* x,
                      same_as_a_t<T> beta, same_as_a_t<T>* y);
/// As above, on A's context.
template <Scalar T>
void symv_mgpu_offset(Uplo uplo, same_as_a_t<T> alpha, const DistMatrix<T>& A, int64_t off,
                      const same_as_a_t<T>* x, same_as_a_t<T> beta, same_as_a_t<T>* y);
/// With replicated DistVectors of length n - off.
template <Scalar T>
void symv_mgpu_offset(Reducer& reducer, Uplo uplo, same_as_a_t<T> alpha,
                      const DistMatrix<T>& A, int64_t off, const DistVector<T>& x,
                      same_as_a_t<T> beta, DistVector<T>& y);
/// As above, on `ctx`.
template <Scalar T>
void symv_mgpu_offset(const std::shared_ptr<Context>& ctx, Uplo uplo, same_as_a_t<T> alpha,
                      const DistMatrix<T>& A, int64_t off, const DistVector<T>& x,
                      same_as_a_t<T> beta, DistVector<T>& y);
/// As above, on A's context.
template <Scalar T>
void symv_mgpu_offset(Uplo uplo, same_as_a_t<T> alpha, const DistMatrix<T>& A, int64_t off,
                      const DistVector<T>& x, same_as_a_t<T> beta, DistVector<T>& y);

/// hemv_mgpu on the trailing submatrix A(off:n, off:n) of the Hermitian A: as
/// symv_mgpu_offset, with the imaginary parts of the diagonal taken as zero.
template <Scalar T>
void hemv_mgpu_offset(Reducer& reducer, Uplo uplo, same_as_a_t<T> alpha,
                      const DistMatrix<T>& A, int64_t off, const same_as_a_t<T>* x,
                      same_as_a_t<T> beta, same_as_a_t<T>* y);
/// As above, on `ctx`.
template <Scalar T>
void hemv_mgpu_offset(const std::shared_ptr<Context>& ctx, Uplo uplo, same_as_a_t<T> alpha,
                      const DistMatrix<T>& A, int64_t off, const same_as_a_t<T>* x,
                      same_as_a_t<T> beta, same_as_a_t<T>* y);
/// As above, on A's context.
template <Scalar T>
void hemv_mgpu_offset(Uplo uplo, same_as_a_t<T> alpha, const DistMatrix<T>& A, int64_t off,
                      const same_as_a_t<T>* x, same_as_a_t<T> beta, same_as_a_t<T>* y);
/// With replicated DistVectors of length n - off.
template <Scalar T>
void hemv_mgpu_offset(Reducer& reducer, Uplo uplo, same_as_a_t<T> alpha,
                      const DistMatrix<T>& A, int64_t off, const DistVector<T>& x,
                      same_as_a_t<T> beta, DistVector<T>& y);
/// As above, on `ctx`.
template <Scalar T>
void hemv_mgpu_offset(const std::shared_ptr<Context>& ctx, Uplo uplo, same_as_a_t<T> alpha,
                      const DistMatrix<T>& A, int64_t off, const DistVector<T>& x,
                      same_as_a_t<T> beta, DistVector<T>& y);
/// As above, on A's context.
template <Scalar T>
void hemv_mgpu_offset(Uplo uplo, same_as_a_t<T> alpha, const DistMatrix<T>& A, int64_t off,
                      const DistVector<T>& x, same_as_a_t<T> beta, DistVector<T>& y);

// Defined, with explicit instances for the four scalars, in dist/gemv_mgpu.cpp and
// dist/symv_mgpu.cpp.

}  // namespace mgblas
