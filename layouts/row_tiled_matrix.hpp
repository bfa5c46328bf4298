// SPDX-License-Identifier: BSD-3-Clause
// RowTiledMatrix<T>: a matrix whose rows a RowTiling deals out to every device of every
// rank, the operand of tsgemm_mgpu (dist/tsgemm_mgpu.hpp). Its constructor and its
// collective calls agree over the ranks as DistMatrix's do (layouts/dist_matrix.hpp),
// and its scatter/gather is DistMatrix's (layouts/detail/placement.hpp).
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "core/agreement.hpp"
#include "core/context.hpp"
#include "core/memory.hpp"
#include "core/types.hpp"
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

#define MGBLAS_DECLARE_ROW_TILED(T) extern template class RowTiledMatrix<T>;
MGBLAS_FOR_EACH_SCALAR(MGBLAS_DECLARE_ROW_TILED)
#undef MGBLAS_DECLARE_ROW_TILED

namespace detail {
/// Adds what every rank must pass identically about a row-tiled matrix with `cols`
/// columns (rows and columns under the names m and n).
void add_row_tiling_fields(CallRecord& rec, const char* m, const char* n, const RowTiling& t,
                           int64_t cols);
/// DimensionMismatch naming argument `name` unless t deals over every device of ctx.
void check_row_tiling(const Context& ctx, const RowTiling& t, const char* name);
}  // namespace detail

}  // namespace mgblas
