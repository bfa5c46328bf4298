// SPDX-License-Identifier: BSD-3-Clause
// DistMatrix<T>: a matrix placed on the devices of a Context by a BlockCyclic1D
// layout; each local device owns its block columns, stored column-major with the
// layout's padded leading dimension. DistVector<T>: a vector either replicated on
// every device or split into block-cyclic segments that follow a layout's columns.
//
// Layouts launch nothing: copies go through core's memory functions and the rank
// traffic through the Context's Communicator.
//
// The constructors and the collective calls (distribute, distribute_replicated,
// collect) agree over the ranks (core/agreement.hpp): a bad argument or a failed
// allocation on one rank raises on every rank (its own error there, RemoteError naming
// it elsewhere), and nothing is written before all ranks have validated. The layout,
// the precision and the root must be the same on every rank; a difference raises
// DimensionMismatch everywhere, naming what differs.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "core/context.hpp"
#include "core/memory.hpp"
#include "core/types.hpp"
#include "layouts/block_cyclic.hpp"
#include "layouts/block_cyclic_2d.hpp"

namespace mgblas {

/// Constructor tag for the library's drivers: allocate on this rank without agreeing
/// with the others, because the caller already runs inside an agreement (agree()).
struct LocalAllocation {};
inline constexpr LocalAllocation local_allocation{};

template <Scalar T>
class DistMatrix {
 public:
  /// Allocates each local device's block columns (uninitialised; nothing when m = 0).
  /// Collective: every rank constructs the matrix with the same layout. Throws
  /// BadArgument for a null ctx (on that rank only: there is no communicator to tell
  /// the others), DimensionMismatch if layout.num_devices() !=
  /// ctx->global_num_devices() or the ranks' layouts differ, AllocationError.
  DistMatrix(std::shared_ptr<Context> ctx, const BlockCyclic1D& layout);
  /// The same on this rank alone (see LocalAllocation).
  DistMatrix(std::shared_ptr<Context> ctx, const BlockCyclic1D& layout, LocalAllocation);
  DistMatrix(DistMatrix&&) noexcept = default;
  DistMatrix& operator=(DistMatrix&&) noexcept = default;
  DistMatrix(const DistMatrix&) = delete;
  DistMatrix& operator=(const DistMatrix&) = delete;

  const BlockCyclic1D& layout() const noexcept { return layout_; }
  Context& context() const noexcept { return *ctx_; }
  const std::shared_ptr<Context>& context_ptr() const noexcept { return ctx_; }
  int64_t m() const noexcept { return layout_.m(); }
  int64_t n() const noexcept { return layout_.n(); }

  /// Local storage of local device `d` (memory of ctx->device(d)): local_n(d) columns
  /// of ld() rows each; local column jl holds global column
  /// layout().global_col(ctx->device_offset() + d, jl).
  T* local(int d) noexcept { return blocks_[d].data(); }
  const T* local(int d) const noexcept { return blocks_[d].data(); }
  int64_t local_n(int d) const { return layout_.local_n(ctx_->device_offset() + d); }
  int64_t ld() const noexcept { return layout_.local_ld(sizeof(T)); }

  /// Fill from the host matrix A (m x n, lda >= max(1, m)) held by rank `root` in
  /// [0, nranks); A and lda are read on the root only, the others pass nullptr
  /// (ignored). A may be null when m * n = 0. Collective.
  void distribute(const T* A, int64_t lda, int root);
  /// Fill from the host matrix A that every rank holds in full. No data moves between
  /// ranks (only the agreement on errors). Collective.
  void distribute_replicated(const T* A, int64_t lda);
  /// Assemble the full matrix into A (lda >= max(1, m)) on rank `root`, or on every
  /// rank if root < 0. Collective; A and lda are ignored (A may be null) on ranks that
  /// do not receive.
  void collect(T* A, int64_t lda, int root) const;

  /// Fill from a matrix in ScaLAPACK's 2-D block-cyclic layout `desc` (same m and n as
  /// this matrix): each rank in desc's grid passes its local array `a` (host memory,
  /// leading dimension lld >= max(1, its local rows); the descriptor's LLD), ranks
  /// outside the grid pass nullptr. An all-to-all between the ranks: no rank ever holds
  /// more than its own parts. Collective; desc must be the same on every rank (lld
  /// excepted). On GPUs with NCCL the exchange runs between the GPUs (each rank's
  /// local array is copied to its GPUs as it lies), otherwise through host memory and
  /// MPI; MGBLAS_REDUCER=host forces the latter. Defined in dist/redistribute_2d.cpp,
  /// beside the communicators it needs.
  void import_2d(const BlockCyclic2D& desc, const T* a, int64_t lld);
  /// The reverse: write this matrix into the 2-D block-cyclic local arrays `a`.
  void export_2d(const BlockCyclic2D& desc, T* a, int64_t lld) const;

 private:
  void allocate();

  std::shared_ptr<Context> ctx_;
  BlockCyclic1D layout_;
  std::vector<DeviceBuffer<T>> blocks_;
};

enum class VectorLayout { Replicated, BlockCyclic };

template <Scalar T>
class DistVector {
 public:
  /// A length-n vector replicated on every local device. Collective, as DistMatrix's
  /// constructor; throws BadArgument for a null ctx or n < 0.
  DistVector(std::shared_ptr<Context> ctx, int64_t n);
  DistVector(std::shared_ptr<Context> ctx, int64_t n, LocalAllocation);
  /// Segments following the columns of `layout` (length layout.n()): each device
  /// holds the entries of the global columns it owns, in local column order
  /// (unit stride, no padding). Collective; throws as DistMatrix's constructor.
  DistVector(std::shared_ptr<Context> ctx, const BlockCyclic1D& layout);
  DistVector(std::shared_ptr<Context> ctx, const BlockCyclic1D& layout, LocalAllocation);
  DistVector(DistVector&&) noexcept = default;
  DistVector& operator=(DistVector&&) noexcept = default;
  DistVector(const DistVector&) = delete;
  DistVector& operator=(const DistVector&) = delete;

  VectorLayout kind() const noexcept { return kind_; }
  int64_t n() const noexcept { return n_; }
  const BlockCyclic1D& layout() const noexcept { return layout_; }
  Context& context() const noexcept { return *ctx_; }
  T* local(int d) noexcept { return parts_[d].data(); }
  const T* local(int d) const noexcept { return parts_[d].data(); }
  /// n for a replicated vector, the device's column count for a block-cyclic one.
  int64_t local_size(int d) const;

  /// As for DistMatrix, with host vectors of length n (unit stride). collect of a
  /// replicated vector reads each receiving rank's first device.
  void distribute(const T* x, int root);
  void distribute_replicated(const T* x);
  void collect(T* x, int root) const;

 private:
  void allocate();

  std::shared_ptr<Context> ctx_;
  VectorLayout kind_ = VectorLayout::Replicated;
  int64_t n_ = 0;
  BlockCyclic1D layout_;
  std::vector<DeviceBuffer<T>> parts_;
};

#define MGBLAS_DECLARE_DIST(T)         \
  extern template class DistMatrix<T>; \
  extern template class DistVector<T>;
MGBLAS_FOR_EACH_SCALAR(MGBLAS_DECLARE_DIST)
#undef MGBLAS_DECLARE_DIST

}  // namespace mgblas
