// SPDX-License-Identifier: BSD-3-Clause
#include "layouts/dist_matrix.hpp"

#include <algorithm>
#include <cstdint>
#include <utility>
#include <vector>

#include "core/agreement.hpp"
#include "core/checked.hpp"
#include "core/error.hpp"

namespace mgblas {

namespace {

// Point-to-point tags of the scatter and the gather; pairs of ranks exchange at most
// one message per call, and MPI keeps messages between a pair in order.
constexpr int kTagDistribute = 0x6d67;
constexpr int kTagCollect = 0x6d68;

// Columns of a BlockCyclic1D placed on the local devices: `rows` entries per column
// (m for a matrix, 1 for a block-cyclic vector), device storage with leading
// dimension `ld`, and `locals[d]` the storage of local device d.
//
// Between ranks, a rank's columns travel "packed": its devices in order, each
// device's local columns in local order, `rows` entries per column with no padding.
// A packed device part then lands in device storage with one copy_matrix.
template <typename Ptr>
struct Placement {
  const Context& ctx;
  const BlockCyclic1D& layout;
  int64_t rows;
  int64_t ld;
  const std::vector<Ptr>& locals;
};

// Calls f(global_col, local_col, width) for each run of local columns of global device
// g that is contiguous in the global matrix too: every block when P > 1, all columns
// at once when P = 1.
template <typename F>
void for_each_run(const BlockCyclic1D& layout, int g, F&& f) {
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

// Number of columns rank r's devices hold together.
int64_t rank_cols(const Context& ctx, const BlockCyclic1D& layout, int r) {
  int64_t cols = 0;
  for (int g = ctx.device_offset(r); g < ctx.device_offset(r) + ctx.devices_on_rank(r); ++g)
    cols += layout.local_n(g);
  return cols;
}

// Largest packed part among the ranks other than `skip` (skip < 0: all ranks).
int64_t max_other_cols(const Context& ctx, const BlockCyclic1D& layout, int skip) {
  int64_t cols = 0;
  for (int r = 0; r < ctx.nranks(); ++r)
    if (r != skip) cols = std::max(cols, rank_cols(ctx, layout, r));
  return cols;
}

// Host-to-host copy of an m x n block between column-major arrays.
template <typename T>
void host_copy(int64_t m, int64_t n, const T* src, int64_t lds, T* dst, int64_t ldd) {
  if (m <= 0 || n <= 0) return;
  if (lds == m && ldd == m) {
    std::copy_n(src, m * n, dst);
    return;
  }
  for (int64_t j = 0; j < n; ++j) std::copy_n(src + j * lds, m, dst + j * ldd);
}

// Packs rank r's columns of the host matrix A into buf.
template <typename T, typename Ptr>
void pack_rank(const Placement<Ptr>& p, int r, const T* A, int64_t lda, T* buf) {
  int64_t base = 0;
  for (int g = p.ctx.device_offset(r); g < p.ctx.device_offset(r) + p.ctx.devices_on_rank(r); ++g) {
    for_each_run(p.layout, g, [&](int64_t gc, int64_t lc, int64_t w) {
      host_copy(p.rows, w, A + gc * lda, lda, buf + (base + lc) * p.rows, p.rows);
    });
    base += p.layout.local_n(g);
  }
}

// The reverse of pack_rank: writes rank r's packed columns into A.
template <typename T, typename Ptr>
void unpack_rank(const Placement<Ptr>& p, int r, const T* buf, T* A, int64_t lda) {
  int64_t base = 0;
  for (int g = p.ctx.device_offset(r); g < p.ctx.device_offset(r) + p.ctx.devices_on_rank(r); ++g) {
    for_each_run(p.layout, g, [&](int64_t gc, int64_t lc, int64_t w) {
      host_copy(p.rows, w, buf + (base + lc) * p.rows, p.rows, A + gc * lda, lda);
    });
    base += p.layout.local_n(g);
  }
}

// This rank's packed columns into its device storage: one copy per device.
template <typename T>
void packed_to_devices(const Placement<T*>& p, const T* buf) {
  int64_t base = 0;
  for (int d = 0; d < p.ctx.num_devices(); ++d) {
    const int64_t cols = p.layout.local_n(p.ctx.device_offset() + d);
    copy_matrix(p.ctx.device(d), p.rows, cols, buf + base * p.rows, p.rows, p.locals[d], p.ld);
    base += cols;
  }
}

template <typename T>
void devices_to_packed(const Placement<const T*>& p, T* buf) {
  int64_t base = 0;
  for (int d = 0; d < p.ctx.num_devices(); ++d) {
    const int64_t cols = p.layout.local_n(p.ctx.device_offset() + d);
    copy_matrix(p.ctx.device(d), p.rows, cols, p.locals[d], p.ld, buf + base * p.rows, p.rows);
    base += cols;
  }
}

// The host matrix A straight into this rank's device storage: one copy per run.
template <typename T>
void host_to_devices(const Placement<T*>& p, const T* A, int64_t lda) {
  for (int d = 0; d < p.ctx.num_devices(); ++d)
    for_each_run(p.layout, p.ctx.device_offset() + d, [&](int64_t gc, int64_t lc, int64_t w) {
      copy_matrix(p.ctx.device(d), p.rows, w, A + gc * lda, lda, p.locals[d] + lc * p.ld, p.ld);
    });
}

template <typename T>
void devices_to_host(const Placement<const T*>& p, T* A, int64_t lda) {
  for (int d = 0; d < p.ctx.num_devices(); ++d)
    for_each_run(p.layout, p.ctx.device_offset() + d, [&](int64_t gc, int64_t lc, int64_t w) {
      copy_matrix(p.ctx.device(d), p.rows, w, p.locals[d] + lc * p.ld, p.ld, A + gc * lda, lda);
    });
}

// What every rank must pass identically to a scatter or gather: the precision, the
// layout and the root.
template <typename T>
CallRecord placement_record(const char* what, const BlockCyclic1D& l, int64_t rows, int root) {
  CallRecord rec(what);
  rec.add_precision<T>()
      .add("rows", rows)
      .add("n", l.n())
      .add("nb", l.nb())
      .add("P", l.num_devices())
      .add("first", l.first())
      .add("root", root);
  return rec;
}

void check_layout_devices(const Context& ctx, const BlockCyclic1D& layout) {
  if (layout.num_devices() != ctx.global_num_devices())
    MGBLAS_THROW(DimensionMismatch, "layout.num_devices() = ", layout.num_devices(),
                 " but ctx->global_num_devices() = ", ctx.global_num_devices(),
                 ": they must be equal");
}

void check_root(int root, int nranks, bool allow_all) {
  if (allow_all)
    MGBLAS_CHECK_ARG(root < nranks, "root", root, "< nranks = ", nranks,
                     " (or negative: every rank receives)");
  else
    MGBLAS_CHECK_ARG(root >= 0 && root < nranks, "root", root, "in [0, nranks = ", nranks, ")");
}

template <typename T>
void check_host_array(const T* A, const char* a_name, int64_t lda, const char* lda_name,
                      int64_t rows, int64_t cols) {
  MGBLAS_CHECK_ARG(lda >= std::max<int64_t>(1, rows), lda_name, lda,
                   ">= max(1, m) = ", std::max<int64_t>(1, rows));
  MGBLAS_CHECK_PTR(A, a_name, rows * cols > 0);
}

// Scatter of the rows x n host matrix A from `root` into the placement's storage.
// Phase 1 validates and allocates (nothing written); phase 2 moves data, the root
// sending before touching its devices so a device failure cannot strand a receiver.
template <typename T>
void scatter_cols(const Placement<T*>& p, const T* A, int64_t lda, int root, const char* a_name,
                  const char* what) {
  const Communicator& comm = p.ctx.comm();
  const int me = comm.rank();
  PinnedBuffer<T> stage;
  CallRecord rec = placement_record<T>(what, p.layout, p.rows, root);
  agree(comm, rec, [&] {
    check_root(root, comm.size(), false);
    if (me == root) check_host_array(A, a_name, lda, "lda", p.rows, p.layout.n());
    const int64_t cols =
        me == root ? max_other_cols(p.ctx, p.layout, root) : rank_cols(p.ctx, p.layout, me);
    stage = PinnedBuffer<T>(static_cast<std::size_t>(checked_mul(cols, p.rows, "staging size")));
  });
  all_or_nothing(comm, what, [&] {
    if (me == root) {
      for (int r = 0; r < comm.size(); ++r) {
        const int64_t count = rank_cols(p.ctx, p.layout, r) * p.rows;
        if (r == root || count == 0) continue;
        pack_rank(p, r, A, lda, stage.data());
        comm.send(stage.data(), count * sizeof(T), r, kTagDistribute);
      }
      host_to_devices(p, A, lda);
    } else {
      const int64_t count = rank_cols(p.ctx, p.layout, me) * p.rows;
      if (count > 0) comm.recv(stage.data(), count * sizeof(T), root, kTagDistribute);
      packed_to_devices(p, stage.data());
    }
  });
}

// Every rank copies its own columns from its full copy of A.
template <typename T>
void scatter_cols_replicated(const Placement<T*>& p, const T* A, int64_t lda, const char* a_name,
                             const char* what) {
  const Communicator& comm = p.ctx.comm();
  CallRecord rec = placement_record<T>(what, p.layout, p.rows, -2);
  agree(comm, rec, [&] { check_host_array(A, a_name, lda, "lda", p.rows, p.layout.n()); });
  all_or_nothing(comm, what, [&] { host_to_devices(p, A, lda); });
}

// Gather of the placement's storage into the host matrix A on `root` (root < 0: on
// every rank, as one broadcast per rank). Senders read their devices in the
// validating phase, so a device failure cannot strand the receiving root.
template <typename T>
void gather_cols(const Placement<const T*>& p, T* A, int64_t lda, int root, const char* a_name,
                 const char* what) {
  const Communicator& comm = p.ctx.comm();
  const int me = comm.rank();
  const bool to_all = root < 0;
  const bool receives = to_all || me == root;
  PinnedBuffer<T> mine, other;
  CallRecord rec = placement_record<T>(what, p.layout, p.rows, root < 0 ? -1 : root);
  agree(comm, rec, [&] {
    check_root(root, comm.size(), true);
    if (receives) check_host_array(A, a_name, lda, "lda", p.rows, p.layout.n());
    if (receives)
      other = PinnedBuffer<T>(static_cast<std::size_t>(
          checked_mul(max_other_cols(p.ctx, p.layout, me), p.rows, "staging size")));
    if ((to_all && comm.size() > 1) || me != root) {
      mine = PinnedBuffer<T>(static_cast<std::size_t>(
          checked_mul(rank_cols(p.ctx, p.layout, me), p.rows, "staging size")));
      devices_to_packed(p, mine.data());
    }
  });
  all_or_nothing(comm, what, [&] {
    if (to_all) {
      for (int r = 0; r < comm.size(); ++r) {
        const int64_t count = rank_cols(p.ctx, p.layout, r) * p.rows;
        if (count == 0 || comm.size() == 1) continue;
        comm.bcast(r == me ? mine.data() : other.data(), count * sizeof(T), r);
        if (r != me) unpack_rank(p, r, other.data(), A, lda);
      }
      // Its own columns straight from its devices, as the root does below (one copy,
      // and A may then be device memory on a single rank, as Python's to_array passes).
      devices_to_host(p, A, lda);
    } else if (me == root) {
      for (int r = 0; r < comm.size(); ++r) {
        const int64_t count = rank_cols(p.ctx, p.layout, r) * p.rows;
        if (r == root || count == 0) continue;
        comm.recv(other.data(), count * sizeof(T), r, kTagCollect);
        unpack_rank(p, r, other.data(), A, lda);
      }
      devices_to_host(p, A, lda);
    } else {
      const int64_t count = rank_cols(p.ctx, p.layout, me) * p.rows;
      if (count > 0) comm.send(mine.data(), count * sizeof(T), root, kTagCollect);
    }
  });
}

template <typename T>
std::vector<T*> pointers(std::vector<DeviceBuffer<T>>& bufs) {
  std::vector<T*> out;
  for (auto& b : bufs) out.push_back(b.data());
  return out;
}
template <typename T>
std::vector<const T*> pointers(const std::vector<DeviceBuffer<T>>& bufs) {
  std::vector<const T*> out;
  for (const auto& b : bufs) out.push_back(b.data());
  return out;
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
  const auto locals = pointers(blocks_);
  scatter_cols(Placement<T*>{*ctx_, layout_, m(), ld(), locals}, A, lda, root, "A",
               "DistMatrix::distribute");
}

template <Scalar T>
void DistMatrix<T>::distribute_replicated(const T* A, int64_t lda) {
  const auto locals = pointers(blocks_);
  scatter_cols_replicated(Placement<T*>{*ctx_, layout_, m(), ld(), locals}, A, lda, "A",
                          "DistMatrix::distribute_replicated");
}

template <Scalar T>
void DistMatrix<T>::collect(T* A, int64_t lda, int root) const {
  const auto locals = pointers(blocks_);
  gather_cols(Placement<const T*>{*ctx_, layout_, m(), ld(), locals}, A, lda, root, "A",
              "DistMatrix::collect");
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
    const auto locals = pointers(parts_);
    scatter_cols(Placement<T*>{*ctx_, layout_, 1, 1, locals}, x, 1, root, "x", what);
    return;
  }
  const Communicator& comm = ctx_->comm();
  const int me = comm.rank();
  PinnedBuffer<T> stage;
  CallRecord rec(what);
  rec.add_precision<T>().add("n", n_).add("root", root);
  agree(comm, rec, [&] {
    check_root(root, comm.size(), false);
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
    const auto locals = pointers(parts_);
    scatter_cols_replicated(Placement<T*>{*ctx_, layout_, 1, 1, locals}, x, 1, "x", what);
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
    const auto locals = pointers(parts_);
    gather_cols(Placement<const T*>{*ctx_, layout_, 1, 1, locals}, x, 1, root, "x", what);
    return;
  }
  // Every rank holds the whole vector: receivers read their own first device.
  const Communicator& comm = ctx_->comm();
  const bool receives = root < 0 || comm.rank() == root;
  CallRecord rec(what);
  rec.add_precision<T>().add("n", n_).add("root", root < 0 ? -1 : root);
  agree(comm, rec, [&] {
    check_root(root, comm.size(), true);
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
