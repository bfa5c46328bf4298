// SPDX-License-Identifier: BSD-3-Clause
// RowTiledMatrix (layouts/row_tiled_matrix.hpp): allocation, and scatter/gather through
// the one path of layouts/detail/placement.hpp.
#include "layouts/row_tiled_matrix.hpp"

#include <cstdint>
#include <type_traits>
#include <utility>
#include <vector>

#include "core/checked.hpp"
#include "core/error.hpp"
#include "layouts/block_cyclic.hpp"
#include "layouts/detail/placement.hpp"

namespace mgblas {

void detail::add_row_tiling_fields(CallRecord& rec, const char* m, const char* n,
                                   const RowTiling& t, int64_t cols) {
  rec.add(m, t.m()).add(n, cols).add("tile", t.tile()).add("P", t.num_devices());
}

void detail::check_row_tiling(const Context& ctx, const RowTiling& t, const char* name) {
  if (t.num_devices() != ctx.global_num_devices())
    MGBLAS_THROW(DimensionMismatch, "argument '", name, "': row tiling over P = ",
                 t.num_devices(), " devices, but the context has ", ctx.global_num_devices(),
                 " devices over all ranks");
}

namespace {

// The rows of a RowTiling placed on the local devices (a placement of
// layouts/detail/placement.hpp): local device d holds its rows of all n columns at
// locals[d] (T* to scatter into, const T* to gather from). Between ranks, a rank's rows
// travel packed as one column-major block: its devices' rows are contiguous, since the
// global device list orders the ranks' devices and RowTiling gives each device one
// contiguous block.
template <typename Ptr>
struct RowPlacement {
  using T = std::remove_const_t<std::remove_pointer_t<Ptr>>;
  const Context& ctx;
  const RowTiling& tiling;
  int64_t n;
  const std::vector<Ptr>& locals;

  struct Rows {
    int64_t begin, end;
    int64_t count() const { return end - begin; }
  };
  Rows rank_rows(int r) const {
    const int g0 = ctx.device_offset(r), g1 = g0 + ctx.devices_on_rank(r);
    if (g1 == g0) return {0, 0};
    return {tiling.row_begin(g0), tiling.row_end(g1 - 1)};
  }
  int64_t local_m(int d) const { return tiling.local_m(ctx.device_offset() + d); }
  int64_t row_begin(int d) const { return tiling.row_begin(ctx.device_offset() + d); }
  int64_t ld(int d) const { return BlockCyclic1D::padded_ld(local_m(d), sizeof(T)); }

  CallRecord record(const char* what) const {
    CallRecord rec(what);
    rec.add_precision<T>();
    detail::add_row_tiling_fields(rec, "m", "n", tiling, n);
    return rec;
  }
  int64_t host_rows() const { return tiling.m(); }
  int64_t host_cols() const { return n; }
  int64_t unit_len() const { return n; }
  int64_t rank_units(int r) const { return rank_rows(r).count(); }

  void pack_rank(int r, const T* A, int64_t lda, T* buf) const {
    const Rows rr = rank_rows(r);
    copy_host_matrix(rr.count(), n, A + rr.begin, lda, buf, rr.count());
  }
  void unpack_rank(int r, const T* buf, T* A, int64_t lda) const {
    const Rows rr = rank_rows(r);
    copy_host_matrix(rr.count(), n, buf, rr.count(), A + rr.begin, lda);
  }
  void host_to_devices(const T* A, int64_t lda) const {
    for (int d = 0; d < ctx.num_devices(); ++d)
      copy_matrix(ctx.device(d), local_m(d), n, A + row_begin(d), lda, locals[d], ld(d));
  }
  void devices_to_host(T* A, int64_t lda) const {
    for (int d = 0; d < ctx.num_devices(); ++d)
      copy_matrix(ctx.device(d), local_m(d), n, locals[d], ld(d), A + row_begin(d), lda);
  }
  void packed_to_devices(const T* buf) const {
    const Rows rr = rank_rows(ctx.rank());
    for (int d = 0; d < ctx.num_devices(); ++d)
      copy_matrix(ctx.device(d), local_m(d), n, buf + (row_begin(d) - rr.begin), rr.count(),
                  locals[d], ld(d));
  }
  void devices_to_packed(T* buf) const {
    const Rows rr = rank_rows(ctx.rank());
    for (int d = 0; d < ctx.num_devices(); ++d)
      copy_matrix(ctx.device(d), local_m(d), n, locals[d], ld(d),
                  buf + (row_begin(d) - rr.begin), rr.count());
  }
};

}  // namespace

template <Scalar T>
RowTiledMatrix<T>::RowTiledMatrix(std::shared_ptr<Context> ctx, const RowTiling& tiling, int64_t n)
    : ctx_(std::move(ctx)), tiling_(tiling), n_(n) {
  MGBLAS_CHECK_ARG(ctx_ != nullptr, "ctx", "nullptr", "a Context");
  // Collective like DistMatrix's: a bad n, a tiling of another P or a failed allocation
  // on one rank is an error on every rank, not a later hang in distribute.
  CallRecord rec("RowTiledMatrix");
  rec.add_precision<T>();
  detail::add_row_tiling_fields(rec, "m", "n", tiling_, n);
  agree(ctx_->comm(), rec, [&] {
    MGBLAS_CHECK_ARG(n >= 0, "n", n, ">= 0");
    detail::check_row_tiling(*ctx_, tiling_, "tiling");
    blocks_.reserve(ctx_->num_devices());
    for (int d = 0; d < ctx_->num_devices(); ++d) {
      const int64_t elems = local_m(d) > 0 ? checked_mul(ld(d), n_, "local matrix size") : 0;
      blocks_.emplace_back(ctx_->device(d), static_cast<std::size_t>(elems));
    }
  });
}

template <Scalar T>
RowTiledMatrix<T>::RowTiledMatrix(std::shared_ptr<Context> ctx, int64_t m, int64_t n, int64_t tile)
    : RowTiledMatrix(ctx, RowTiling(m, ctx ? ctx->global_num_devices() : 1, tile), n) {}

template <Scalar T>
int64_t RowTiledMatrix<T>::ld(int d) const {
  return BlockCyclic1D::padded_ld(local_m(d), sizeof(T));
}

template <Scalar T>
void RowTiledMatrix<T>::distribute(const T* A, int64_t lda, int root) {
  const auto locals = detail::pointers(blocks_);
  const RowPlacement<T*> p{*ctx_, tiling_, n_, locals};
  detail::scatter<T>(p, A, lda, root, "A", "RowTiledMatrix::distribute");
}

template <Scalar T>
void RowTiledMatrix<T>::distribute_replicated(const T* A, int64_t lda) {
  const auto locals = detail::pointers(blocks_);
  const RowPlacement<T*> p{*ctx_, tiling_, n_, locals};
  detail::scatter_replicated<T>(p, A, lda, "A", "RowTiledMatrix::distribute_replicated");
}

template <Scalar T>
void RowTiledMatrix<T>::collect(T* A, int64_t lda, int root) const {
  const auto locals = detail::pointers(blocks_);
  const RowPlacement<const T*> p{*ctx_, tiling_, n_, locals};
  detail::gather<T>(p, A, lda, root, "A", "RowTiledMatrix::collect");
}

#define MGBLAS_INSTANTIATE(T) template class RowTiledMatrix<T>;
MGBLAS_FOR_EACH_SCALAR(MGBLAS_INSTANTIATE)
#undef MGBLAS_INSTANTIATE

}  // namespace mgblas
