// SPDX-License-Identifier: BSD-3-Clause
// DistMatrix<T>: a matrix placed on the devices of a Context by a BlockCyclic1D
// layout; each local device owns its block columns, stored column-major with the
// layout's padded leading dimension. DistVector<T>: a vector either replicated on
// every device or split into block-cyclic segments that follow a layout's columns.
//
// Layouts launch nothing: copies go through core's memory functions and the rank
// traffic through the Context's Communicator.
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
  /// Allocates each local device's block columns (uninitialised). Throws
  /// DimensionMismatch if layout.num_devices() != ctx->global_num_devices().
  DistMatrix(std::shared_ptr<Context> ctx, const BlockCyclic1D& layout);

  const BlockCyclic1D& layout() const noexcept { return layout_; }
  Context& context() const noexcept { return *ctx_; }
  const std::shared_ptr<Context>& context_ptr() const noexcept { return ctx_; }
  int64_t m() const noexcept { return layout_.m(); }
  int64_t n() const noexcept { return layout_.n(); }

  /// Local storage of local device `d` (memory of ctx->device(d)): local_n(d) columns
  /// of ld() rows each.
  T* local(int d) noexcept { return blocks_[d].data(); }
  const T* local(int d) const noexcept { return blocks_[d].data(); }
  int64_t local_n(int d) const { return layout_.local_n(ctx_->device_offset() + d); }
  int64_t ld() const noexcept { return layout_.local_ld(sizeof(T)); }

  /// Fill from the host matrix A (m x n, lda >= max(1, m)) held by rank `root`; the
  /// others pass nullptr (ignored). Collective.
  void distribute(const T* A, int64_t lda, int root);
  /// Fill from the host matrix A that every rank holds in full. No communication.
  void distribute_replicated(const T* A, int64_t lda);
  /// Assemble the full matrix into A on rank `root`, or on every rank if root < 0.
  /// Collective; A is ignored (may be null) on ranks that do not receive.
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
  /// A length-n vector replicated on every local device.
  DistVector(std::shared_ptr<Context> ctx, int64_t n);
  /// Segments following the columns of `layout` (length layout.n()): each device
  /// holds the entries of the global columns it owns, in local column order.
  DistVector(std::shared_ptr<Context> ctx, const BlockCyclic1D& layout);

  VectorLayout kind() const noexcept { return kind_; }
  int64_t n() const noexcept { return n_; }
  const BlockCyclic1D& layout() const noexcept { return layout_; }
  Context& context() const noexcept { return *ctx_; }
  T* local(int d) noexcept { return parts_[d].data(); }
  const T* local(int d) const noexcept { return parts_[d].data(); }
  int64_t local_size(int d) const;

  /// As for DistMatrix, with host vectors of length n (unit stride).
  void distribute(const T* x, int root);
  void distribute_replicated(const T* x);
  void collect(T* x, int root) const;

 private:
  std::shared_ptr<Context> ctx_;
  VectorLayout kind_;
  int64_t n_;
  BlockCyclic1D layout_;
  std::vector<DeviceBuffer<T>> parts_;
};

}  // namespace mgblas
