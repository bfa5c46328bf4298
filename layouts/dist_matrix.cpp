// SPDX-License-Identifier: BSD-3-Clause
#include "layouts/dist_matrix.hpp"

#include <algorithm>
#include <cstdint>
#include <type_traits>
#include <utility>
#include <vector>

#include "core/agreement.hpp"
#include "core/checked.hpp"
#include "core/error.hpp"
#include "layouts/detail/placement.hpp"

namespace mgblas {

namespace {

// Columns of a BlockCyclic1D placed on the local devices (a placement of
// layouts/detail/placement.hpp): `rows` entries per column (m for a matrix, 1 for a
// block-cyclic vector), device storage with leading dimension `ld`, and `locals[d]`
// the storage of local device d (T* to scatter into, const T* to gather from).
//
// Between ranks, a rank's columns travel "packed": its devices in order, each
// device's local columns in local order, `rows` entries per column with no padding.
// A packed device part then lands in device storage with one copy_matrix.
template <typename Ptr>
struct ColumnPlacement {
  using T = std::remove_const_t<std::remove_pointer_t<Ptr>>;
  const Context& ctx;
  const BlockCyclic1D& layout;
  int64_t rows;
  int64_t ld;
  const std::vector<Ptr>& locals;

  CallRecord record(const char* what) const {
    CallRecord rec(what);
    rec.add_precision<T>()
        .add("rows", rows)
        .add("n", layout.n())
        .add("nb", layout.nb())
        .add("P", layout.num_devices())
        .add("first", layout.first());
    return rec;
  }
  int64_t host_rows() const { return rows; }
  int64_t host_cols() const { return layout.n(); }
  int64_t unit_len() const { return rows; }
  // Number of columns rank r's devices hold together.
  int64_t rank_units(int r) const {
    int64_t cols = 0;
    for (int g = ctx.device_offset(r); g < ctx.device_offset(r) + ctx.devices_on_rank(r); ++g)
      cols += layout.local_n(g);
    return cols;
  }

  // Calls f(global_col, local_col, width) for each run of local columns of global
  // device g that is contiguous in the global matrix too: every block when P > 1, all
  // columns at once when P = 1.
  template <typename F>
  void for_each_run(int g, F&& f) const {
    const int64_t nb = layout.nb();
    int64_t gc = 0, lc = 0, w = 0;
    for (int64_t lb = 0; lb < layout.local_blocks(g); ++lb) {
      const int64_t jb = layout.first_block(g) + lb * layout.num_devices();
      const int64_t bw = layout.block_width(jb);
      if (w > 0 && gc + w == jb * nb && lc + w == lb * nb) {
        w += bw;
        continue;
      }
      if (w > 0) f(gc, lc, w);
      gc = jb * nb;
      lc = lb * nb;
      w = bw;
    }
    if (w > 0) f(gc, lc, w);
  }

  // Rank r's columns of the host matrix A into buf, packed, and back.
  void pack_rank(int r, const T* A, int64_t lda, T* buf) const {
    int64_t base = 0;
    for (int g = ctx.device_offset(r); g < ctx.device_offset(r) + ctx.devices_on_rank(r); ++g) {
      for_each_run(g, [&](int64_t gc, int64_t lc, int64_t w) {
        copy_host_matrix(rows, w, A + gc * lda, lda, buf + (base + lc) * rows, rows);
      });
      base += layout.local_n(g);
    }
  }
  void unpack_rank(int r, const T* buf, T* A, int64_t lda) const {
    int64_t base = 0;
    for (int g = ctx.device_offset(r); g < ctx.device_offset(r) + ctx.devices_on_rank(r); ++g) {
      for_each_run(g, [&](int64_t gc, int64_t lc, int64_t w) {
        copy_host_matrix(rows, w, buf + (base + lc) * rows, rows, A + gc * lda, lda);
      });
      base += layout.local_n(g);
    }
  }

  // This rank's packed columns into its device storage and back: one copy per device.
  void packed_to_devices(const T* buf) const {
    int64_t base = 0;
    for (int d = 0; d < ctx.num_devices(); ++d) {
      const int64_t cols = layout.local_n(ctx.device_offset() + d);
      copy_matrix(ctx.device(d), rows, cols, buf + base * rows, rows, locals[d], ld);
      base += cols;
    }
  }
  void devices_to_packed(T* buf) const {
    int64_t base = 0;
    for (int d = 0; d < ctx.num_devices(); ++d) {
      const int64_t cols = layout.local_n(ctx.device_offset() + d);
      copy_matrix(ctx.device(d), rows, cols, locals[d], ld, buf + base * rows, rows);
      base += cols;
    }
  }

  // The host matrix A straight into this rank's device storage and back: one copy per
  // run.
  void host_to_devices(const T* A, int64_t lda) const {
    for (int d = 0; d < ctx.num_devices(); ++d)
      for_each_run(ctx.device_offset() + d, [&](int64_t gc, int64_t lc, int64_t w) {
        copy_matrix(ctx.device(d), rows, w, A + gc * lda, lda, locals[d] + lc * ld, ld);
      });
  }
  void devices_to_host(T* A, int64_t lda) const {
    for (int d = 0; d < ctx.num_devices(); ++d)
      for_each_run(ctx.device_offset() + d, [&](int64_t gc, int64_t lc, int64_t w) {
        copy_matrix(ctx.device(d), rows, w, locals[d] + lc * ld, ld, A + gc * lda, lda);
      });
  }
};

void check_layout_devices(const Context& ctx, const BlockCyclic1D& layout) {
  if (layout.num_devices() != ctx.global_num_devices())
    MGBLAS_THROW(DimensionMismatch, "layout.num_devices() = ", layout.num_devices(),
                 " but ctx->global_num_devices() = ", ctx.global_num_devices(),
                 ": they must be equal");
}

const Context& checked_context(const std::shared_ptr<Context>& ctx) {
  MGBLAS_CHECK_ARG(ctx != nullptr, "ctx", "nullptr", "a Context");
  return *ctx;
}

}  // namespace

// ---------------------------------------------------------------------------------
// DistMatrix

// What every rank must pass to a collective constructor.
template <typename T>
CallRecord constructor_record(const char* what, const BlockCyclic1D& l) {
  CallRecord rec(what);
  rec.add_precision<T>()
      .add("m", l.m())
      .add("n", l.n())
      .add("nb", l.nb())
      .add("P", l.num_devices())
      .add("first", l.first());
  return rec;
}

template <Scalar T>
DistMatrix<T>::DistMatrix(std::shared_ptr<Context> ctx, const BlockCyclic1D& layout)
    : ctx_(std::move(ctx)), layout_(layout) {
  CallRecord rec = constructor_record<T>("DistMatrix", layout_);
  agree(checked_context(ctx_).comm(), rec, [&] { allocate(); });
}

template <Scalar T>
DistMatrix<T>::DistMatrix(std::shared_ptr<Context> ctx, const BlockCyclic1D& layout,
                          LocalAllocation)
    : ctx_(std::move(ctx)), layout_(layout) {
  checked_context(ctx_);
  allocate();
}

template <Scalar T>
void DistMatrix<T>::allocate() {
  check_layout_devices(*ctx_, layout_);
  blocks_.reserve(ctx_->num_devices());
  for (int d = 0; d < ctx_->num_devices(); ++d) {
    // With m = 0 there is nothing to store; local(d) is then null.
    const int64_t elems = layout_.m() > 0 ? checked_mul(ld(), local_n(d), "local matrix size") : 0;
    blocks_.emplace_back(ctx_->device(d), static_cast<std::size_t>(elems));
  }
}

template <Scalar T>
void DistMatrix<T>::distribute(const T* A, int64_t lda, int root) {
  const auto locals = detail::pointers(blocks_);
  const ColumnPlacement<T*> p{*ctx_, layout_, m(), ld(), locals};
  detail::scatter<T>(p, A, lda, root, "A", "DistMatrix::distribute");
}

template <Scalar T>
void DistMatrix<T>::distribute_replicated(const T* A, int64_t lda) {
  const auto locals = detail::pointers(blocks_);
  const ColumnPlacement<T*> p{*ctx_, layout_, m(), ld(), locals};
  detail::scatter_replicated<T>(p, A, lda, "A", "DistMatrix::distribute_replicated");
}

template <Scalar T>
void DistMatrix<T>::collect(T* A, int64_t lda, int root) const {
  const auto locals = detail::pointers(blocks_);
  const ColumnPlacement<const T*> p{*ctx_, layout_, m(), ld(), locals};
  detail::gather<T>(p, A, lda, root, "A", "DistMatrix::collect");
}

// ---------------------------------------------------------------------------------
// DistVector. A block-cyclic vector is a 1 x n matrix over the same layout with unit
// leading dimension everywhere; a replicated one is a broadcast.

template <Scalar T>
DistVector<T>::DistVector(std::shared_ptr<Context> ctx, int64_t n)
    : ctx_(std::move(ctx)), kind_(VectorLayout::Replicated), n_(n) {
  CallRecord rec("DistVector (replicated)");
  rec.add_precision<T>().add("n", n);
  agree(checked_context(ctx_).comm(), rec, [&] { allocate(); });
}

template <Scalar T>
DistVector<T>::DistVector(std::shared_ptr<Context> ctx, int64_t n, LocalAllocation)
    : ctx_(std::move(ctx)), kind_(VectorLayout::Replicated), n_(n) {
  checked_context(ctx_);
  allocate();
}

template <Scalar T>
DistVector<T>::DistVector(std::shared_ptr<Context> ctx, const BlockCyclic1D& layout)
    : ctx_(std::move(ctx)), kind_(VectorLayout::BlockCyclic), n_(layout.n()), layout_(layout) {
  CallRecord rec = constructor_record<T>("DistVector (block-cyclic)", layout_);
  agree(checked_context(ctx_).comm(), rec, [&] { allocate(); });
}

template <Scalar T>
DistVector<T>::DistVector(std::shared_ptr<Context> ctx, const BlockCyclic1D& layout,
                          LocalAllocation)
    : ctx_(std::move(ctx)), kind_(VectorLayout::BlockCyclic), n_(layout.n()), layout_(layout) {
  checked_context(ctx_);
  allocate();
}

template <Scalar T>
void DistVector<T>::allocate() {
  MGBLAS_CHECK_ARG(n_ >= 0, "n", n_, ">= 0");
  if (kind_ == VectorLayout::BlockCyclic) check_layout_devices(*ctx_, layout_);
  parts_.reserve(ctx_->num_devices());
  for (int d = 0; d < ctx_->num_devices(); ++d)
    parts_.emplace_back(ctx_->device(d), static_cast<std::size_t>(local_size(d)));
}

template <Scalar T>
int64_t DistVector<T>::local_size(int d) const {
  return kind_ == VectorLayout::Replicated ? n_ : layout_.local_n(ctx_->device_offset() + d);
}

template <Scalar T>
void DistVector<T>::distribute(const T* x, int root) {
  constexpr const char* what = "DistVector::distribute";
  if (kind_ == VectorLayout::BlockCyclic) {
    const auto locals = detail::pointers(parts_);
    detail::scatter<T>(ColumnPlacement<T*>{*ctx_, layout_, 1, 1, locals}, x, 1, root, "x",
                       what);
    return;
  }
  const Communicator& comm = ctx_->comm();
  const int me = comm.rank();
  PinnedBuffer<T> stage;
  CallRecord rec(what);
  rec.add_precision<T>().add("n", n_).add("root", root);
  agree(comm, rec, [&] {
    detail::check_root(root, comm.size(), false);
    if (me == root) MGBLAS_CHECK_PTR(x, "x", n_ > 0);
    if (me != root) stage = PinnedBuffer<T>(static_cast<std::size_t>(n_));
  });
  all_or_nothing(comm, what, [&] {
    // MPI_Bcast only reads the root's buffer, so the const_cast writes nothing.
    const T* src = me == root ? x : stage.data();
    comm.bcast(const_cast<T*>(src), n_ * sizeof(T), root);
    for (int d = 0; d < ctx_->num_devices(); ++d) copy_vector(ctx_->device(d), n_, src, local(d));
  });
}

template <Scalar T>
void DistVector<T>::distribute_replicated(const T* x) {
  constexpr const char* what = "DistVector::distribute_replicated";
  if (kind_ == VectorLayout::BlockCyclic) {
    const auto locals = detail::pointers(parts_);
    detail::scatter_replicated<T>(ColumnPlacement<T*>{*ctx_, layout_, 1, 1, locals}, x, 1, "x",
                                  what);
    return;
  }
  const Communicator& comm = ctx_->comm();
  CallRecord rec(what);
  rec.add_precision<T>().add("n", n_);
  agree(comm, rec, [&] { MGBLAS_CHECK_PTR(x, "x", n_ > 0); });
  all_or_nothing(comm, what, [&] {
    for (int d = 0; d < ctx_->num_devices(); ++d) copy_vector(ctx_->device(d), n_, x, local(d));
  });
}

template <Scalar T>
void DistVector<T>::collect(T* x, int root) const {
  constexpr const char* what = "DistVector::collect";
  if (kind_ == VectorLayout::BlockCyclic) {
    const auto locals = detail::pointers(parts_);
    detail::gather<T>(ColumnPlacement<const T*>{*ctx_, layout_, 1, 1, locals}, x, 1, root, "x",
                      what);
    return;
  }
  // Every rank holds the whole vector: receivers read their own first device.
  const Communicator& comm = ctx_->comm();
  const bool receives = root < 0 || comm.rank() == root;
  CallRecord rec(what);
  rec.add_precision<T>().add("n", n_).add("root", root < 0 ? -1 : root);
  agree(comm, rec, [&] {
    detail::check_root(root, comm.size(), true);
    if (receives) MGBLAS_CHECK_PTR(x, "x", n_ > 0);
  });
  all_or_nothing(comm, what, [&] {
    if (receives && ctx_->num_devices() > 0) copy_vector(ctx_->device(0), n_, local(0), x);
  });
}

#define MGBLAS_INSTANTIATE(T)   \
  template class DistMatrix<T>; \
  template class DistVector<T>;
MGBLAS_FOR_EACH_SCALAR(MGBLAS_INSTANTIATE)
#undef MGBLAS_INSTANTIATE

}  // namespace mgblas
