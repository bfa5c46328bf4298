// SPDX-License-Identifier: BSD-3-Clause
// DistMatrix<T>: a matrix placed on the devices of a Context by a BlockCyclic1D
// layout; each local device owns its block columns, stored column-major with the
// layout's padded leading dimension. DistVector<T>: a vector either replicated on
// every device or split into block-cyclic segments that follow a layout's columns.
//
// Layouts launch nothing: copies go through core's memory functions and the rank
// traffic through the Context's Communicator.
//
// Collective calls (distribute, distribute_replicated, collect) agree on failure: a
// bad argument on one rank raises on every rank (BadArgument / DimensionMismatch where
// it was found, RemoteError elsewhere), and nothing is written before all ranks have
// validated. The layout (and root) must be the same on every rank; a difference is
// detected and raises DimensionMismatch everywhere.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "core/context.hpp"
#include "core/memory.hpp"
#include "core/types.hpp"
#include "layouts/block_cyclic.hpp"

namespace mgblas {

template <Scalar T>
class DistMatrix {
 public:
  /// Allocates each local device's block columns (uninitialised; nothing when m = 0).
  /// Throws BadArgument for a null ctx, DimensionMismatch if
  /// layout.num_devices() != ctx->global_num_devices().
  DistMatrix(std::shared_ptr<Context> ctx, const BlockCyclic1D& layout);
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

 private:
  std::shared_ptr<Context> ctx_;
  BlockCyclic1D layout_;
  std::vector<DeviceBuffer<T>> blocks_;
};

enum class VectorLayout { Replicated, BlockCyclic };

template <Scalar T>
class DistVector {
 public:
  /// A length-n vector replicated on every local device. Throws BadArgument for a
  /// null ctx or n < 0.
  DistVector(std::shared_ptr<Context> ctx, int64_t n);
  /// Segments following the columns of `layout` (length layout.n()): each device
  /// holds the entries of the global columns it owns, in local column order
  /// (unit stride, no padding). Throws as DistMatrix's constructor.
  DistVector(std::shared_ptr<Context> ctx, const BlockCyclic1D& layout);
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
