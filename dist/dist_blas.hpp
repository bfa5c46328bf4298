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
// - Vector forms (one argument type, VectorIn / VectorInOut, takes either): a host
//   pointer (unit stride); a replicated DistVector (a full copy on every local device;
//   length that of the submatrix product); a block-cyclic DistVector laid out like A's
//   columns (same n, nb, P, first; full length n, the entries at columns >= the
//   submatrix's first column are used): as x of gemv op N and as y of gemv op T/C only.
//   x and y are both host arrays or both DistVectors (else BadArgument naming y).
// - Arguments are validated on every rank before anything is written; a bad argument
//   raises on every rank (BadArgument or DimensionMismatch where it was found,
//   RemoteError on the other ranks), and y is left untouched. Ranks that disagree on
//   the call raise DimensionMismatch.
// - Three call forms: without a context (A's context, a reducer chosen per call by
//   make_reducer(..., Auto)), with an explicit context (A must match it), and with a
//   Reducer (its context; reuse one reducer across calls to keep its buffers). The last
//   two are one leading argument of type ReducerOrContext.
// - Quick returns: an empty y or an empty inner dimension returns at once with y
//   untouched (the reference BLAS's quick return); alpha == 0 makes y = beta * y with no
//   reduction; beta == 0 never reads y (NaN in y does not propagate).
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

/// The leading argument of the call forms with a context or a Reducer: the reducer of
/// the call, or the context a reducer is made for (make_reducer(ctx), per call).
class ReducerOrContext {
 public:
  ReducerOrContext(Reducer& reducer) : reducer_(&reducer) {}  // NOLINT: implicit by design
  ReducerOrContext(const std::shared_ptr<Context>& ctx) : ctx_(&ctx) {}  // NOLINT
  /// The given reducer, or one made for the context and kept in `owned`.
  Reducer& reducer(std::unique_ptr<Reducer>& owned) const {
    if (reducer_) return *reducer_;
    owned = make_reducer(*ctx_);
    return *owned;
  }

 private:
  Reducer* reducer_ = nullptr;
  const std::shared_ptr<Context>* ctx_ = nullptr;
};

/// The vector x of a distributed Level-2 call: a host array (nullptr allowed where
/// nothing is read) or a DistVector of the call's context (see the file comment).
template <Scalar T>
class VectorIn {
 public:
  VectorIn(const T* host) : host_(host) {}                       // NOLINT: implicit by design
  VectorIn(const DistVector<T>& v) : dist_(&v) {}                // NOLINT
  const T* host() const noexcept { return host_; }
  const DistVector<T>* dist() const noexcept { return dist_; }

 private:
  const T* host_ = nullptr;
  const DistVector<T>* dist_ = nullptr;
};

/// The vector y of a distributed Level-2 call: a host array or a DistVector.
template <Scalar T>
class VectorInOut {
 public:
  VectorInOut(T* host) : host_(host) {}                          // NOLINT: implicit by design
  VectorInOut(DistVector<T>& v) : dist_(&v) {}                   // NOLINT
  T* host() const noexcept { return host_; }
  DistVector<T>* dist() const noexcept { return dist_; }

 private:
  T* host_ = nullptr;
  DistVector<T>* dist_ = nullptr;
};

/// Vector arguments take their type from A as the scalars do.
template <typename T>
using vector_in_t = VectorIn<same_as_a_t<T>>;
template <typename T>
using vector_inout_t = VectorInOut<same_as_a_t<T>>;

// ---------------------------------------------------------------------------------
// GEMV
// ---------------------------------------------------------------------------------

/// y = alpha * op(A(i0:m, j0:n)) * x + beta * y with A distributed by block columns;
/// gemv_mgpu is the whole matrix (i0 = j0 = 0).
///
/// @param[in,out] on  the Reducer that sums the partial vectors (its context is the
///                    call's: A must live on it), or the context of the call.
/// @param[in] op     N, T or C (C = T for real types).
/// @param[in] alpha  scalar.
/// @param[in] A      m x n, layout over the context's global devices (else
///                   DimensionMismatch), any nb, n not necessarily a multiple of nb;
///                   devices owning no block column contribute nothing.
/// @param[in] i0, j0 the submatrix's first row and column, in [0, m] and [0, n].
/// @param[in] x      length n - j0 (op N) or m - i0 (op T/C), the same on every rank
///                   (host or replicated); a host x may be null only when alpha == 0 or
///                   a dimension is 0. Block-cyclic like A's columns (op N only): full
///                   length n, the entries at columns >= j0 used.
/// @param[in] beta   scalar; beta == 0 does not read y.
/// @param[in,out] y  length m - i0 (op N) or n - j0 (op T/C); on return the full
///                   result on every rank (host) or every device (replicated); a
///                   block-cyclic y (op T/C only, full length n) gets the entries at
///                   each device's columns >= j0, with no reduction. A host y may be null only when its
///                   length is 0.
///
/// Flops: 2mn (real), 8mn (complex) on the submatrix, spread over the devices in
/// proportion to their columns; plus a reduction of y's length over all devices.
template <Scalar T>
void gemv_mgpu_offset(ReducerOrContext on, Op op, same_as_a_t<T> alpha, const DistMatrix<T>& A,
                      int64_t i0, int64_t j0, vector_in_t<T> x, same_as_a_t<T> beta,
                      vector_inout_t<T> y);
/// On A's context, with a reducer made by make_reducer.
template <Scalar T>
void gemv_mgpu_offset(Op op, same_as_a_t<T> alpha, const DistMatrix<T>& A, int64_t i0,
                      int64_t j0, vector_in_t<T> x, same_as_a_t<T> beta, vector_inout_t<T> y) {
  gemv_mgpu_offset<T>(A.context_ptr(), op, alpha, A, i0, j0, x, beta, y);
}
/// The whole matrix.
template <Scalar T>
void gemv_mgpu(ReducerOrContext on, Op op, same_as_a_t<T> alpha, const DistMatrix<T>& A,
               vector_in_t<T> x, same_as_a_t<T> beta, vector_inout_t<T> y) {
  gemv_mgpu_offset<T>(on, op, alpha, A, 0, 0, x, beta, y);
}
template <Scalar T>
void gemv_mgpu(Op op, same_as_a_t<T> alpha, const DistMatrix<T>& A, vector_in_t<T> x,
               same_as_a_t<T> beta, vector_inout_t<T> y) {
  gemv_mgpu_offset<T>(A.context_ptr(), op, alpha, A, 0, 0, x, beta, y);
}

// ---------------------------------------------------------------------------------
// SYMV and HEMV
// ---------------------------------------------------------------------------------

/// y = alpha * A(off:n, off:n) * x + beta * y, A n x n symmetric (symv; complex T:
/// complex symmetric, no conjugation) or Hermitian (hemv; real T: symmetric), only the `uplo` triangle
/// read (hemv: imaginary parts of the diagonal taken as zero), distributed by block
/// columns; symv_mgpu / hemv_mgpu are the whole matrix (off = 0).
///
/// @param[in,out] on  the Reducer of the call, or its context (as for gemv).
/// @param[in] uplo   Lower or Upper.
/// @param[in] A      n x n (m == n, else DimensionMismatch), layout over the context's
///                   global devices.
/// @param[in] off    the submatrix's first row and column, in [0, n].
/// @param[in] x      length n - off, host or replicated (not block-cyclic); the same on
///                   every rank.
/// @param[in,out] y  length n - off, host or replicated; on return the full result.
///
/// Flops: 2n^2 (real), 8n^2 (complex) on the submatrix; every stored entry of the
/// triangle is read once, by its owner.
template <Scalar T>
void symv_mgpu_offset(ReducerOrContext on, Uplo uplo, same_as_a_t<T> alpha,
                      const DistMatrix<T>& A, int64_t off, vector_in_t<T> x, same_as_a_t<T> beta,
                      vector_inout_t<T> y);
template <Scalar T>
void hemv_mgpu_offset(ReducerOrContext on, Uplo uplo, same_as_a_t<T> alpha,
                      const DistMatrix<T>& A, int64_t off, vector_in_t<T> x, same_as_a_t<T> beta,
                      vector_inout_t<T> y);

// The other forms of each: on A's context, and on the whole matrix.
#define MGBLAS_SYMV_LIKE_FORMS_(KIND)                                                          \
  template <Scalar T>                                                                          \
  void KIND##_mgpu_offset(Uplo uplo, same_as_a_t<T> alpha, const DistMatrix<T>& A,             \
                          int64_t off, vector_in_t<T> x, same_as_a_t<T> beta,                  \
                          vector_inout_t<T> y) {                                               \
    KIND##_mgpu_offset<T>(A.context_ptr(), uplo, alpha, A, off, x, beta, y);                   \
  }                                                                                            \
  template <Scalar T>                                                                          \
  void KIND##_mgpu(ReducerOrContext on, Uplo uplo, same_as_a_t<T> alpha,                       \
                   const DistMatrix<T>& A, vector_in_t<T> x, same_as_a_t<T> beta,              \
                   vector_inout_t<T> y) {                                                      \
    KIND##_mgpu_offset<T>(on, uplo, alpha, A, 0, x, beta, y);                                  \
  }                                                                                            \
  template <Scalar T>                                                                          \
  void KIND##_mgpu(Uplo uplo, same_as_a_t<T> alpha, const DistMatrix<T>& A, vector_in_t<T> x,  \
                   same_as_a_t<T> beta, vector_inout_t<T> y) {                                 \
    KIND##_mgpu_offset<T>(A.context_ptr(), uplo, alpha, A, 0, x, beta, y);                     \
  }
MGBLAS_SYMV_LIKE_FORMS_(symv)
MGBLAS_SYMV_LIKE_FORMS_(hemv)
#undef MGBLAS_SYMV_LIKE_FORMS_

// gemv_mgpu_offset, symv_mgpu_offset and hemv_mgpu_offset are defined, with explicit
// instances for the precisions of the build, in dist/gemv_mgpu.cpp and dist/symv_mgpu.cpp.

}  // namespace mgblas
