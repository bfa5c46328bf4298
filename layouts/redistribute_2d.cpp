// SPDX-License-Identifier: BSD-3-Clause
// DistMatrix::import_2d / export_2d: between ScaLAPACK's 2-D block-cyclic layout
// (layouts/block_cyclic_2d.hpp, host memory, one process per rank) and a DistMatrix's
// block columns, by one all-to-all between the ranks.
//
// What travels between a 2-D process (prow, pcol) and a rank q is every local column
// of that process whose global column lives on one of q's devices: LOCr(prow) entries
// per column, in increasing column order, rows in the process's local order. Both
// sides can list those columns alone (the process column's columns, filtered by their
// owner rank), so no counts are exchanged. On the 2-D side a column travels as it lies
// in the local array; on the DistMatrix side its entries are spread over the rows of
// the process row's blocks, one run of up to mb entries per block.
//
// A rank's own columns skip the exchange buffers: they go straight between its local
// array and its devices. GPU devices go through a host copy of their part (the MPI here
// is not CUDA-aware; pageable, since pinning gigabytes per call costs more than the
// copy); host devices are read and written in place. The column copies of each side are
// listed first, then run in parallel (OpenMP), so that memory bandwidth, not one
// thread, sets the pace.
#include <algorithm>
#include <cstdint>
#include <cstring>
#include <memory>
#include <utility>
#include <vector>

#include "core/agreement.hpp"
#include "core/checked.hpp"
#include "core/error.hpp"
#include "core/memory.hpp"
#include "layouts/dist_matrix.hpp"

namespace mgblas {

namespace {

// Copies of at least this many bytes run on OpenMP threads; below, starting the threads
// costs more than the copies (and ranks sharing few cores would spin against each other).
constexpr int64_t kThreadedBytes = int64_t{64} << 20;

// One column copy: `rows` entries between the contiguous `packed` and `column`, which is
// either contiguous too (pr < 0) or global row 0 of a DistMatrix column whose rows of
// process row pr are taken (runs of up to mb entries).
template <typename T>
struct Move {
  T* packed;
  T* column;
  int64_t rows;
  int pr;
  bool to_column;
};

template <typename T>
struct Exchange2D {
  const Context& ctx;
  const BlockCyclic1D& L;
  const BlockCyclic2D& D;
  int me = 0, nranks = 1;
  int prow = -1, pcol = -1;     // this rank's grid position (-1: outside the grid)
  int64_t locr = 0, locc = 0;   // its local array's size
  std::vector<int> device_rank;  // global device -> rank
  // cols[pc * nranks + q]: columns of process column pc that live on rank q's devices.
  std::vector<int64_t> cols;

  Exchange2D(const Context& c, const BlockCyclic1D& l, const BlockCyclic2D& d)
      : ctx(c), L(l), D(d), me(c.rank()), nranks(c.nranks()) {
    prow = D.prow_of(me);
    pcol = D.pcol_of(me);
    locr = prow >= 0 ? D.local_rows(prow) : 0;
    locc = pcol >= 0 ? D.local_cols(pcol) : 0;
    for (int r = 0; r < nranks; ++r)
      device_rank.insert(device_rank.end(), static_cast<std::size_t>(ctx.devices_on_rank(r)), r);
  }

  int owner_rank(int64_t j) const { return device_rank[static_cast<std::size_t>(L.owner(j))]; }

  void count_columns() {
    cols.assign(static_cast<std::size_t>(D.npcol()) * nranks, 0);
    if (D.m() == 0) return;  // nothing travels
    for (int64_t j = 0; j < D.n(); ++j) ++cols[D.col_owner(j) * nranks + owner_rank(j)];
  }

  // Elements between this rank's 2-D part and rank q, and between grid rank r's 2-D
  // part and this rank's devices.
  // Nothing for this rank itself: its own columns do not pass the buffers.
  int64_t grid_side(int q) const {
    return pcol >= 0 && q != me ? locr * cols[pcol * nranks + q] : 0;
  }
  int64_t device_side(int r) const {
    if (r >= D.grid_size() || r == me) return 0;
    return D.local_rows(D.prow_of(r)) * cols[D.pcol_of(r) * nranks + me];
  }

  // Byte counts and offsets of a packed buffer holding `elems(q)` elements per rank.
  template <typename F>
  void layout(F&& elems, std::vector<std::size_t>& bytes, std::vector<std::size_t>& offs,
              int64_t& total) const {
    bytes.assign(nranks, 0);
    offs.assign(nranks, 0);
    total = 0;
    for (int q = 0; q < nranks; ++q) {
      offs[q] = static_cast<std::size_t>(total) * sizeof(T);
      bytes[q] = static_cast<std::size_t>(elems(q)) * sizeof(T);
      total = checked_add(total, elems(q), "redistribution buffer size");
    }
  }

  // Where the device side reads or writes: a host copy for GPU devices (ld = m), the
  // storage itself for host devices.
  std::vector<int64_t> stage_offset;  // per local device, -1: in place
  int64_t stage_elems() {
    stage_offset.assign(ctx.num_devices(), -1);
    int64_t total = 0;
    for (int d = 0; d < ctx.num_devices(); ++d)
      if (ctx.device(d).is_gpu()) {
        stage_offset[d] = total;
        total = checked_add(total, checked_mul(L.m(), L.local_n(ctx.device_offset() + d),
                                               "staging size"),
                            "staging size");
      }
    return total;
  }

  // 2-D side: this rank's local columns that live on other ranks, whole, to
  // (to_buffer) or from their places in `buffer` (byte offsets per rank).
  void list_grid_side(const T* a, int64_t lld, T* buffer, const std::vector<std::size_t>& offs,
                      std::vector<Move<T>>& moves, bool to_buffer) const {
    moves.clear();
    if (pcol < 0 || locr == 0) return;
    std::vector<int64_t> at(nranks);
    for (int q = 0; q < nranks; ++q) at[q] = static_cast<int64_t>(offs[q] / sizeof(T));
    for (int64_t jl = 0; jl < locc; ++jl) {
      const int q = owner_rank(D.global_col(pcol, jl));
      if (q == me) continue;
      moves.push_back({buffer + at[q], const_cast<T*>(a) + jl * lld, locr, -1, !to_buffer});
      at[q] += locr;
    }
  }
  // Device side: for each grid rank r, the columns of its process column that this
  // rank's devices hold, in increasing order, spread over (to_devices) or gathered from
  // their rows in base[d] (leading dimension lds[d]); packed at r's place in `buffer`,
  // or, for this rank's own, in its local array a.
  void list_device_side(const T* a, int64_t lld, T* buffer, const std::vector<std::size_t>& offs,
                        const std::vector<T*>& base, const std::vector<int64_t>& lds,
                        std::vector<Move<T>>& moves, bool to_devices) const {
    moves.clear();
    for (int r = 0; r < std::min(D.grid_size(), nranks); ++r) {
      const int pr = D.prow_of(r), pc = D.pcol_of(r);
      const int64_t rows = D.local_rows(pr);
      if (rows == 0) continue;
      T* packed = buffer + offs[r] / sizeof(T);
      for (int64_t jl = 0; jl < D.local_cols(pc); ++jl) {
        const int64_t j = D.global_col(pc, jl);
        if (owner_rank(j) != me) continue;
        const int d = L.owner(j) - ctx.device_offset();
        T* column = base[d] + L.local_col(j) * lds[d];
        T* from = r == me ? const_cast<T*>(a) + jl * lld : packed;
        if (r != me) packed += rows;
        moves.push_back({from, column, rows, pr, to_devices});
      }
    }
  }
};

template <typename T>
CallRecord record_2d(const char* what, const BlockCyclic1D& L, const BlockCyclic2D& D) {
  CallRecord rec(what);
  rec.add_precision<T>()
      .add("m", L.m())
      .add("n", L.n())
      .add("nb", L.nb())
      .add("desc.m", D.m())
      .add("desc.n", D.n())
      .add("desc.mb", D.mb())
      .add("desc.nb", D.nb())
      .add("desc.nprow", D.nprow())
      .add("desc.npcol", D.npcol())
      .add("desc.rsrc", D.rsrc())
      .add("desc.csrc", D.csrc())
      .add("desc.order", static_cast<int64_t>(D.order()));
  return rec;
}

// The checks every rank runs on its own arguments.
template <typename T>
void check_2d(const Exchange2D<T>& x, const T* a, const char* a_name, int64_t lld) {
  const BlockCyclic2D& D = x.D;
  if (D.m() != x.L.m() || D.n() != x.L.n())
    MGBLAS_THROW(DimensionMismatch, "desc is ", D.m(), " x ", D.n(), " but the matrix is ",
                 x.L.m(), " x ", x.L.n(), ": they must be equal");
  if (D.grid_size() > x.nranks)
    MGBLAS_THROW(BadArgument, "desc's grid is ", D.nprow(), " x ", D.npcol(), " = ",
                 D.grid_size(), " processes but the context has ", x.nranks,
                 " ranks: the grid must fit in the ranks");
  if (x.prow < 0) return;  // outside the grid: a and lld are not read
  MGBLAS_CHECK_ARG(lld >= std::max<int64_t>(1, x.locr), "lld", lld,
                   ">= max(1, local rows) = ", std::max<int64_t>(1, x.locr), " on rank ", x.me);
  MGBLAS_CHECK_PTR(a, a_name, x.locr * x.locc > 0);
  checked_mul(lld, x.locc, "local array size (lld * local columns)");
}

// Writes one byte per page of the n elements at p, on OpenMP threads when they are
// many (as run_moves).
template <typename T>
void first_touch(T* p, int64_t n) {
  constexpr int64_t kPage = 4096;
  const int64_t bytes = n * static_cast<int64_t>(sizeof(T));
  auto* c = reinterpret_cast<unsigned char*>(p);
#pragma omp parallel for schedule(static) if (bytes >= kThreadedBytes)
  for (int64_t off = 0; off < bytes; off += kPage) c[off] = 0;
}

template <typename T>
using HostArray = std::unique_ptr<T[]>;
template <typename T>
HostArray<T> host_array(int64_t n) {
  return std::make_unique_for_overwrite<T[]>(static_cast<std::size_t>(std::max<int64_t>(n, 0)));
}

template <typename T>
void run_moves(const BlockCyclic2D& D, const std::vector<Move<T>>& moves) {
  const auto count = static_cast<int64_t>(moves.size());
  int64_t total = 0;
  for (const Move<T>& mv : moves) total += mv.rows;
  const bool parallel = total * static_cast<int64_t>(sizeof(T)) >= kThreadedBytes;
#pragma omp parallel for schedule(static) if (parallel)
  for (int64_t k = 0; k < count; ++k) {
    const Move<T>& mv = moves[static_cast<std::size_t>(k)];
    if (mv.pr < 0) {
      if (mv.to_column) std::copy_n(mv.packed, mv.rows, mv.column);
      else std::copy_n(mv.column, mv.rows, mv.packed);
      continue;
    }
    for (int64_t il = 0; il < mv.rows; il += D.mb()) {
      const int64_t i = D.global_row(mv.pr, il), len = std::min(D.mb(), mv.rows - il);
      if (mv.to_column) std::copy_n(mv.packed + il, len, mv.column + i);
      else std::copy_n(mv.column + i, len, mv.packed + il);
    }
  }
}

// The byte counts and offsets of one call's all-to-all, its buffers and the host copy of
// the GPU devices' part.
template <typename T>
struct Buffers2D {
  std::vector<std::size_t> send_bytes, send_offset, recv_bytes, recv_offset;
  HostArray<T> send, recv;
  HostArray<T> stage;
};

// A rank's checks and allocations (inside the agreement): the 2-D side sends when going
// to the devices, the device side otherwise.
template <typename T>
Buffers2D<T> prepare(Exchange2D<T>& x, const T* a, int64_t lld, bool to_devices) {
  check_2d(x, a, "a", lld);
  x.count_columns();
  Buffers2D<T> b;
  auto grid = [&](int q) { return x.grid_side(q); };
  auto devices = [&](int r) { return x.device_side(r); };
  int64_t st = 0, rt = 0;
  if (to_devices) {
    x.layout(grid, b.send_bytes, b.send_offset, st);
    x.layout(devices, b.recv_bytes, b.recv_offset, rt);
  } else {
    x.layout(devices, b.send_bytes, b.send_offset, st);
    x.layout(grid, b.recv_bytes, b.recv_offset, rt);
  }
  b.send = host_array<T>(st);
  b.recv = host_array<T>(rt);
  const int64_t staged = x.stage_elems();
  b.stage = host_array<T>(staged);
  // MPI and the GPU copies write the receive buffer and the host copy on one thread;
  // their first touches (page faults) are cheaper taken here on every thread.
  first_touch(b.recv.get(), rt);
  first_touch(b.stage.get(), staged);
  return b;
}

// Where the device side reads and writes local device d's columns: its host copy
// (GPU devices, leading dimension m) or its storage (host devices).
template <typename T>
std::pair<std::vector<T*>, std::vector<int64_t>> device_columns(const Exchange2D<T>& x,
                                                                Buffers2D<T>& b,
                                                                const std::vector<T*>& locals,
                                                                int64_t ld) {
  const int devices = x.ctx.num_devices();
  std::vector<T*> base(devices);
  std::vector<int64_t> lds(devices);
  for (int d = 0; d < devices; ++d) {
    const bool staged = x.stage_offset[d] >= 0;
    base[d] = staged ? b.stage.get() + x.stage_offset[d] : locals[d];
    lds[d] = staged ? x.L.m() : ld;
  }
  return {base, lds};
}

}  // namespace

template <Scalar T>
void DistMatrix<T>::import_2d(const BlockCyclic2D& desc, const T* a, int64_t lld) {
  constexpr const char* what = "DistMatrix::import_2d";
  const Communicator& comm = ctx_->comm();
  Exchange2D<T> x(*ctx_, layout_, desc);
  Buffers2D<T> buf;
  CallRecord rec = record_2d<T>(what, layout_, desc);
  agree(comm, rec, [&] { buf = prepare(x, a, lld, /*to_devices=*/true); });
  all_or_nothing(comm, what, [&] {
    // 2-D side: the columns of other ranks, whole, into the send buffer.
    std::vector<Move<T>> moves;
    x.list_grid_side(a, lld, buf.send.get(), buf.send_offset, moves, /*to_buffer=*/true);
    run_moves(desc, moves);
    comm.alltoallv(buf.send.get(), buf.send_bytes, buf.send_offset, buf.recv.get(),
                   buf.recv_bytes, buf.recv_offset);
    // Device side: every column, received or this rank's own, spread over its rows.
    std::vector<T*> locals(ctx_->num_devices());
    for (int d = 0; d < ctx_->num_devices(); ++d) locals[d] = local(d);
    const auto [base, lds] = device_columns(x, buf, locals, ld());
    x.list_device_side(a, lld, buf.recv.get(), buf.recv_offset, base, lds, moves,
                       /*to_devices=*/true);
    run_moves(desc, moves);
    for (int d = 0; d < ctx_->num_devices(); ++d)
      if (x.stage_offset[d] >= 0)
        copy_matrix(ctx_->device(d), m(), local_n(d), base[d], m(), local(d), ld());
  });
}

template <Scalar T>
void DistMatrix<T>::export_2d(const BlockCyclic2D& desc, T* a, int64_t lld) const {
  constexpr const char* what = "DistMatrix::export_2d";
  const Communicator& comm = ctx_->comm();
  Exchange2D<T> x(*ctx_, layout_, desc);
  Buffers2D<T> buf;
  CallRecord rec = record_2d<T>(what, layout_, desc);
  agree(comm, rec, [&] { buf = prepare(x, a, lld, /*to_devices=*/false); });
  all_or_nothing(comm, what, [&] {
    std::vector<T*> locals(ctx_->num_devices());
    for (int d = 0; d < ctx_->num_devices(); ++d) locals[d] = const_cast<T*>(local(d));
    const auto [base, lds] = device_columns(x, buf, locals, ld());
    for (int d = 0; d < ctx_->num_devices(); ++d)
      if (x.stage_offset[d] >= 0)
        copy_matrix(ctx_->device(d), m(), local_n(d), local(d), ld(), base[d], m());
    // Device side: each column's rows of the process row, gathered; this rank's own
    // columns straight into its local array.
    std::vector<Move<T>> moves;
    x.list_device_side(a, lld, buf.send.get(), buf.send_offset, base, lds, moves,
                       /*to_devices=*/false);
    run_moves(desc, moves);
    comm.alltoallv(buf.send.get(), buf.send_bytes, buf.send_offset, buf.recv.get(),
                   buf.recv_bytes, buf.recv_offset);
    // 2-D side: the received columns, whole, into the local array.
    x.list_grid_side(a, lld, buf.recv.get(), buf.recv_offset, moves, /*to_buffer=*/false);
    run_moves(desc, moves);
  });
}

#define MGBLAS_INSTANTIATE(T)                                                         \
  template void DistMatrix<T>::import_2d(const BlockCyclic2D&, const T*, int64_t);    \
  template void DistMatrix<T>::export_2d(const BlockCyclic2D&, T*, int64_t) const;
MGBLAS_FOR_EACH_SCALAR(MGBLAS_INSTANTIATE)
#undef MGBLAS_INSTANTIATE

}  // namespace mgblas
