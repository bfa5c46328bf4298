// SPDX-License-Identifier: BSD-3-Clause
/// @file
/// Distributed tall-and-skinny GEMM over row tiles: RowTiledMatrix<T> (a matrix whose
/// rows a RowTiling deals out to every device of every rank) and tsgemm_mgpu in its
/// two forms.
///
///   rows     C = alpha * A * op(B) + beta * C: A (m x k) and C (m x n) row-tiled alike,
///            B (k x n, small) replicated. Each device multiplies its own rows with the
///            single-device tsgemm (TSM2R / TSM2L on a GPU): no communication at all.
///   k-split  C = alpha * op(A) * B + beta * C, op = T or C: A (k x m) and B (k x n)
///            row-tiled alike along k, C (m x n, small) replicated on the host of every
///            rank. Each device computes op(A_local) * B_local, an m x n partial (the
///            single-device A^H B kernel on a GPU), and the Reducer sums the partials of
///            all devices of all ranks as one vector of m n elements and applies beta.
///
/// Common rules (as for the Level-2 drivers in dist/dist_blas.hpp):
/// - Collective over the ranks of the context: every rank calls with the same ops,
///   sizes, tiling and scalars. Arguments are validated on every rank first; a bad
///   argument raises on every rank (BadArgument / DimensionMismatch where found,
///   RemoteError elsewhere) before anything is written; ranks that disagree on the
///   call raise DimensionMismatch.
/// - Three call forms: with a Reducer (its context; reuse one reducer across calls to
///   keep its per-device workspaces, which also hold B on each GPU), with a context,
///   and without (A's context, a reducer from make_reducer).
/// - Quick returns: m = 0 or n = 0 returns; k = 0 or alpha = 0 makes C = beta * C;
///   beta = 0 never reads C (NaN in C does not propagate).
/// - On return the devices are synchronised and C is complete.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "core/context.hpp"
#include "core/memory.hpp"
#include "core/types.hpp"
#include "dist/dist_blas.hpp"
#include "dist/reducer.hpp"
#include "layouts/row_tiling.hpp"

namespace mgblas {

/// An m x n matrix split by rows over the global devices of a Context: global device g
/// holds rows [tiling().row_begin(g), tiling().row_end(g)), column-major, with a
/// leading dimension padded to whole 128-byte segments.
template <Scalar T>
class RowTiledMatrix {
 public:
  /// Allocates every local device's rows (uninitialised). Throws BadArgument for a
  /// null ctx or n < 0, DimensionMismatch when tiling.num_devices() differs from
  /// ctx->global_num_devices().
  RowTiledMatrix(std::shared_ptr<Context> ctx, const RowTiling& tiling, int64_t n);
  /// The same with RowTiling(m, ctx->global_num_devices(), tile).
  RowTiledMatrix(std::shared_ptr<Context> ctx, int64_t m, int64_t n, int64_t tile = 1);
  RowTiledMatrix(RowTiledMatrix&&) noexcept = default;
  RowTiledMatrix& operator=(RowTiledMatrix&&) noexcept = default;
  RowTiledMatrix(const RowTiledMatrix&) = delete;
  RowTiledMatrix& operator=(const RowTiledMatrix&) = delete;

  const RowTiling& tiling() const noexcept { return tiling_; }
  int64_t m() const noexcept { return tiling_.m(); }
  int64_t n() const noexcept { return n_; }
  Context& context() const noexcept { return *ctx_; }
  const std::shared_ptr<Context>& context_ptr() const noexcept { return ctx_; }

  /// Local device d's rows (memory of ctx->device(d); null when it holds none):
  /// local_m(d) x n, leading dimension ld(d), global row row_begin(d) first.
  T* local(int d) noexcept { return blocks_[d].data(); }
  const T* local(int d) const noexcept { return blocks_[d].data(); }
  int64_t local_m(int d) const { return tiling_.local_m(ctx_->device_offset() + d); }
  int64_t row_begin(int d) const { return tiling_.row_begin(ctx_->device_offset() + d); }
  int64_t ld(int d) const;

  /// Fill from the host matrix A (m x n, lda >= max(1, m)) of rank `root`; A and lda
  /// are read on the root only. Collective.
  void distribute(const T* A, int64_t lda, int root);
  /// Fill from the host matrix A that every rank holds in full (no rank traffic).
  void distribute_replicated(const T* A, int64_t lda);
  /// Assemble the matrix into A (lda >= max(1, m)) on rank `root`, or on every rank
  /// when root < 0. Collective; A is ignored on ranks that do not receive.
  void collect(T* A, int64_t lda, int root) const;

 private:
  std::shared_ptr<Context> ctx_;
  RowTiling tiling_;
  int64_t n_ = 0;
  std::vector<DeviceBuffer<T>> blocks_;
};

/// Rows form: C = alpha * A * op(B) + beta * C.
///
/// @param[in,out] reducer  its context is the call's (A and C must live on it); its
///                         workspace holds B on each GPU.
/// @param[in] opB    N, T or C: op(B) is k x n.
/// @param[in] A      m x k, row-tiled over the context's devices.
/// @param[in] B      host, k x n (opB = N, ldb >= max(1, k)) or n x k (ldb >= max(1, n)),
///                   the same on every rank; may be null when k = 0 or alpha = 0.
/// @param[in,out] C  m x n, the same tiling as A (else DimensionMismatch).
/// Flops: 2mnk (real), 8mnk (complex), spread over the devices with their rows.
template <Scalar T>
void tsgemm_mgpu(Reducer& reducer, Op opB, same_as_a_t<T> alpha, const RowTiledMatrix<T>& A,
                 const same_as_a_t<T>* B, int64_t ldb, same_as_a_t<T> beta, RowTiledMatrix<T>& C);
/// The rows form on `ctx`.
template <Scalar T>
void tsgemm_mgpu(const std::shared_ptr<Context>& ctx, Op opB, same_as_a_t<T> alpha,
                 const RowTiledMatrix<T>& A, const same_as_a_t<T>* B, int64_t ldb,
                 same_as_a_t<T> beta, RowTiledMatrix<T>& C);
/// The rows form on A's context.
template <Scalar T>
void tsgemm_mgpu(Op opB, same_as_a_t<T> alpha, const RowTiledMatrix<T>& A, const same_as_a_t<T>* B,
                 int64_t ldb, same_as_a_t<T> beta, RowTiledMatrix<T>& C);

/// k-split form: C = alpha * op(A) * B + beta * C with op = T or C (N is a BadArgument).
///
/// @param[in,out] reducer  sums the m x n partials (NCCL or host, by its kind).
/// @param[in] A      k x m, row-tiled over the context's devices (k = A.m(), m = A.n()).
/// @param[in] B      k x n, the same tiling as A.
/// @param[in,out] C  host, m x n, ldc >= max(1, m), the same on every rank; on return
///                   the full result on every rank.
/// Flops: 2mnk (real), 8mnk (complex); plus an m n reduction over all devices.
template <Scalar T>
void tsgemm_mgpu(Reducer& reducer, Op opA, same_as_a_t<T> alpha, const RowTiledMatrix<T>& A,
                 const RowTiledMatrix<T>& B, same_as_a_t<T> beta, same_as_a_t<T>* C, int64_t ldc);
/// The k-split form on `ctx`.
template <Scalar T>
void tsgemm_mgpu(const std::shared_ptr<Context>& ctx, Op opA, same_as_a_t<T> alpha,
                 const RowTiledMatrix<T>& A, const RowTiledMatrix<T>& B, same_as_a_t<T> beta,
                 same_as_a_t<T>* C, int64_t ldc);
/// The k-split form on A's context.
template <Scalar T>
void tsgemm_mgpu(Op opA, same_as_a_t<T> alpha, const RowTiledMatrix<T>& A,
                 const RowTiledMatrix<T>& B, same_as_a_t<T> beta, same_as_a_t<T>* C, int64_t ldc);

#define MGBLAS_DECLARE_ROW_TILED(T) extern template class RowTiledMatrix<T>;
MGBLAS_FOR_EACH_SCALAR(MGBLAS_DECLARE_ROW_TILED)
#undef MGBLAS_DECLARE_ROW_TILED

}  // namespace mgblas
