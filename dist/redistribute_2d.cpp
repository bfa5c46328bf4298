// SPDX-License-Identifier: BSD-3-Clause
// DistMatrix::import_2d / export_2d: between ScaLAPACK's 2-D block-cyclic layout
// (layouts/block_cyclic_2d.hpp, host memory, one process per rank) and a DistMatrix's
// block columns, by one all-to-all: between the GPUs with NCCL when every device is a
// distinct GPU (the GPU route, below), otherwise between the ranks through host memory
// (the host route). Both routes move the same columns; they differ in where.
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
#include "dist/detail/device_threads.hpp"
#include "dist/nccl_comm.hpp"
#include "dist/reducer.hpp"
#include "kernels/columns.hpp"
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


// ---- the GPU route -------------------------------------------------------------------
// Every device of every rank a distinct GPU, NCCL between them. Each rank's local array
// is cut into contiguous ranges of local columns, one per local GPU (the GPU's "source
// part"), and copied to that GPU as it lies (compact, leading dimension = the process
// row's local rows). On the GPUs each source column is packed for the device that holds
// it in the DistMatrix, NCCL moves every pair's packet, and the holder spreads the rows
// over their places (copy_row_blocks). Export runs the same steps backwards. Both ends
// of a pair list the pair's columns in increasing global order, so no counts travel.
// A packet a device sends itself is read from its send buffer.

template <typename T>
struct GpuRoute {
  const Context& ctx;
  const BlockCyclic1D& L;
  const BlockCyclic2D& D;
  int G = 0;  // global devices
  // Per global device s: its source part, local columns [begin, end) of process column
  // pcol, each `rows` entries of process row prow (-1 and 0 outside the grid).
  std::vector<int> prow, pcol;
  std::vector<int64_t> begin, end, rows;
  // Per local device d: its source columns (relative to begin) for each global device q
  // in turn, and how many go to each q.
  std::vector<std::vector<int64_t>> source_cols, source_count;
  // Per local device d: its DistMatrix local columns that come from each global source s
  // in turn, and how many from each s.
  std::vector<std::vector<int64_t>> holder_cols, holder_count;

  GpuRoute(const Context& c, const BlockCyclic1D& l, const BlockCyclic2D& d)
      : ctx(c), L(l), D(d), G(c.global_num_devices()) {
    for (int r = 0; r < ctx.nranks(); ++r) {
      const int pr = D.prow_of(r), pc = D.pcol_of(r), nd = ctx.devices_on_rank(r);
      const int64_t locc = pc >= 0 ? D.local_cols(pc) : 0;
      for (int g = 0; g < nd; ++g) {
        prow.push_back(pr);
        pcol.push_back(pc);
        begin.push_back(locc * g / nd);
        end.push_back(locc * (g + 1) / nd);
        rows.push_back(pr >= 0 ? D.local_rows(pr) : 0);
      }
    }
  }

  int64_t global_col(int s, int64_t jl) const { return D.global_col(pcol[s], jl); }

  void list_columns() {
    const int P = ctx.num_devices(), off = ctx.device_offset();
    source_cols.assign(P, {});
    source_count.assign(P, std::vector<int64_t>(G, 0));
    holder_cols.assign(P, {});
    holder_count.assign(P, std::vector<int64_t>(G, 0));
    if (D.m() == 0) return;  // nothing travels
    for (int d = 0; d < P; ++d) {
      const int s = off + d;
      std::vector<std::vector<int64_t>> to(G);
      for (int64_t jl = begin[s]; jl < end[s]; ++jl)
        to[L.owner(global_col(s, jl))].push_back(jl - begin[s]);
      for (int q = 0; q < G; ++q) {
        source_count[d][q] = static_cast<int64_t>(to[q].size());
        source_cols[d].insert(source_cols[d].end(), to[q].begin(), to[q].end());
      }
    }
    for (int s = 0; s < G; ++s)
      for (int64_t jl = begin[s]; jl < end[s]; ++jl) {
        const int64_t j = global_col(s, jl);
        const int d = L.owner(j) - off;
        if (d < 0 || d >= P) continue;
        holder_cols[d].push_back(L.local_col(j));
        ++holder_count[d][s];
      }
  }

  // Byte counts and offsets of one device's buffer holding count[k] columns of
  // rows_of(k) entries for each global device k; `skip` (the device itself, when >= 0)
  // gets no room.
  template <typename RowsOf>
  NcclCommunicator::Transfers layout(const std::vector<int64_t>& count, RowsOf&& rows_of,
                                     int skip, int64_t& total) const {
    NcclCommunicator::Transfers t{std::vector<std::size_t>(G, 0), std::vector<std::size_t>(G, 0)};
    total = 0;
    for (int k = 0; k < G; ++k) {
      t.offset[k] = static_cast<std::size_t>(total) * sizeof(T);
      if (k == skip) continue;
      const int64_t e = checked_mul(count[k], rows_of(k), "redistribution buffer size");
      t.bytes[k] = static_cast<std::size_t>(e) * sizeof(T);
      total = checked_add(total, e, "redistribution buffer size");
    }
    return t;
  }
  int phase(int s) const { return (prow[s] - D.rsrc() + D.nprow()) % D.nprow(); }
};

// A GPU's part moves between the local array (pageable host memory) and the GPU through
// two pinned chunks in turn: host threads copy one chunk while the copy engine moves the
// other. From pageable memory the driver's own staging ran at about 5 GB/s per GPU on
// the H200s (bench/results/h200-redistribute.md). The chunks are kept with the Context.
constexpr std::size_t kChunkBytes = std::size_t{32} << 20;
constexpr int kCopyThreads = 4;  // host threads per GPU for the chunk copies

struct PinnedChunks {
  std::vector<PinnedBuffer<std::byte>> chunk;  // two per local GPU
};

std::shared_ptr<PinnedChunks> pinned_chunks(Context& ctx) {
  auto& slot = ctx.attachment("mgblas.dist.redistribute_2d.chunks");
  auto chunks = std::static_pointer_cast<PinnedChunks>(slot);
  if (!chunks) {
    chunks = std::make_shared<PinnedChunks>();
    for (int k = 0; k < 2 * ctx.num_devices(); ++k) chunks->chunk.emplace_back(kChunkBytes);
    slot = chunks;
  }
  return chunks;
}

// rows x cols between host memory h (leading dimension lld) and the compact part p of
// dev, through the pinned chunks c0 and c1 (to_device: host to GPU). Returns when done.
template <typename T>
void copy_part(const Device& dev, int64_t rows, int64_t cols, T* h, int64_t lld, T* p,
               std::byte* c0, std::byte* c1, bool to_device) {
  if (rows <= 0 || cols <= 0) return;
  const auto per = static_cast<int64_t>(kChunkBytes / (sizeof(T) * static_cast<std::size_t>(rows)));
  if (per < 1) {  // a column longer than a chunk: the driver's staging
    if (to_device) copy_matrix(dev, rows, cols, static_cast<const T*>(h), lld, p, rows);
    else copy_matrix(dev, rows, cols, static_cast<const T*>(p), rows, h, lld);
    return;
  }
  T* pinned[2] = {reinterpret_cast<T*>(c0), reinterpret_cast<T*>(c1)};
  const int64_t chunks = (cols + per - 1) / per;
  auto width = [&](int64_t k) { return std::min(per, cols - k * per); };
  auto host_side = [&](int64_t k) {
    T* pin = pinned[k % 2];
    const int64_t j0 = k * per, w = width(k);
#pragma omp parallel for num_threads(kCopyThreads) schedule(static)
    for (int64_t j = 0; j < w; ++j) {
      T* column = h + (j0 + j) * lld;
      if (to_device) std::copy_n(column, rows, pin + j * rows);
      else std::copy_n(pin + j * rows, rows, column);
    }
  };
  auto engine_side = [&](int64_t k) {
    T* part = p + k * per * rows;
    if (to_device) copy_matrix(dev, rows, width(k), static_cast<const T*>(pinned[k % 2]), rows, part, rows, true);
    else copy_matrix(dev, rows, width(k), static_cast<const T*>(part), rows, pinned[k % 2], rows, true);
  };
  if (to_device) {
    // Chunk k is filled while chunk k - 1 moves; its buffer's last move (k - 2) was
    // waited for before chunk k - 1 was sent.
    for (int64_t k = 0; k < chunks; ++k) {
      host_side(k);
      dev.synchronize();
      engine_side(k);
    }
    dev.synchronize();
  } else {
    // Chunk k + 1 moves while chunk k is copied out.
    engine_side(0);
    for (int64_t k = 0; k < chunks; ++k) {
      dev.synchronize();
      if (k + 1 < chunks) engine_side(k + 1);
      host_side(k);
    }
  }
}

// One local device's buffers on the GPU route.
template <typename T>
struct GpuBuffers {
  DeviceBuffer<T> part, send, recv;  // source part, packets out, packets in
  DeviceBuffer<int64_t> cols;        // source_cols then holder_cols
  NcclCommunicator::Transfers sends, recvs;
};

// The buffers of every local device (inside the agreement: an allocation that fails is
// an error every rank learns). Import: sources send, holders receive; export: the
// reverse. A device's packet to itself has room in its send buffer only.
template <typename T>
std::vector<GpuBuffers<T>> gpu_prepare(GpuRoute<T>& x, bool to_devices) {
  x.list_columns();
  const int P = x.ctx.num_devices(), off = x.ctx.device_offset();
  std::vector<GpuBuffers<T>> b(P);
  for (int d = 0; d < P; ++d) {
    const Device& dev = x.ctx.device(d);
    const int s = off + d;
    int64_t source_total = 0, holder_total = 0;
    // Source side: columns of this device's part for each q, all of rows[s] entries.
    auto source = x.layout(x.source_count[d], [&](int) { return x.rows[s]; },
                           to_devices ? -1 : s, source_total);
    // Holder side: columns from each source k, of rows[k] entries.
    auto holder = x.layout(x.holder_count[d], [&](int k) { return x.rows[k]; },
                           to_devices ? s : -1, holder_total);
    b[d].sends = to_devices ? source : holder;
    b[d].recvs = to_devices ? holder : source;
    const int64_t send_total = to_devices ? source_total : holder_total;
    const int64_t recv_total = to_devices ? holder_total : source_total;
    b[d].part = DeviceBuffer<T>(dev, static_cast<std::size_t>(
                                         checked_mul(x.rows[s], x.end[s] - x.begin[s], "part size")));
    b[d].send = DeviceBuffer<T>(dev, static_cast<std::size_t>(send_total));
    b[d].recv = DeviceBuffer<T>(dev, static_cast<std::size_t>(recv_total));
    b[d].cols = DeviceBuffer<int64_t>(
        dev, x.source_cols[d].size() + x.holder_cols[d].size());
  }
  return b;
}

template <typename T>
void gpu_exchange(GpuRoute<T>& x, std::vector<GpuBuffers<T>>& b, NcclCommunicator* nccl) {
  const int P = x.ctx.num_devices();
  if (x.G == 1 || nccl == nullptr) return;  // one GPU: its only packet is to itself
  std::vector<const void*> send(P);
  std::vector<void*> recv(P);
  std::vector<cudaStream_t> streams(P);
  std::vector<NcclCommunicator::Transfers> sends(P), recvs(P);
  for (int d = 0; d < P; ++d) {
    send[d] = b[d].send.data();
    recv[d] = b[d].recv.data();
    streams[d] = x.ctx.device(d).stream();
    sends[d] = b[d].sends;
    recvs[d] = b[d].recvs;
    // The packet to itself stays in the send buffer.
    sends[d].bytes[x.ctx.device_offset() + d] = 0;
  }
  nccl->alltoallv(send, sends, recv, recvs, streams);
  nccl->wait(streams);
}

// Where local device d's packet from or to global device k lies: its receive buffer, or
// for its own packet its send buffer.
template <typename T>
T* packet(const GpuRoute<T>& x, GpuBuffers<T>& b, int d, int k, bool received) {
  const int self = x.ctx.device_offset() + d;
  if (k == self || !received) return b.send.data() + b.sends.offset[k] / sizeof(T);
  return b.recv.data() + b.recvs.offset[k] / sizeof(T);
}

// The column lists to each local GPU (one copy each).
template <typename T>
void upload_columns(const GpuRoute<T>& x, std::vector<GpuBuffers<T>>& b) {
  for (int d = 0; d < x.ctx.num_devices(); ++d) {
    std::vector<int64_t> all = x.source_cols[d];
    all.insert(all.end(), x.holder_cols[d].begin(), x.holder_cols[d].end());
    if (!all.empty())
      copy_vector(x.ctx.device(d), static_cast<int64_t>(all.size()),
                  static_cast<const int64_t*>(all.data()), b[d].cols.data());
  }
}

// Source side of local device d: its part's columns to (pack) or from (unpack) the
// packets of every global device q.
template <typename T>
void source_side(const GpuRoute<T>& x, GpuBuffers<T>& b, int d, bool pack) {
  const int s = x.ctx.device_offset() + d;
  const int64_t rows = x.rows[s], ld = std::max<int64_t>(1, rows);
  const Queue q(x.ctx.device(d));
  const int64_t* cols = b.cols.data();
  for (int k = 0; k < x.G; ++k) {
    const int64_t count = x.source_count[d][k];
    copy_row_blocks<T>(q, count, rows, ld, 1, 0, cols, packet(x, b, d, k, !pack), b.part.data(),
                       ld, /*to_columns=*/!pack);
    cols += count;
  }
}

// Holder side of local device d: its DistMatrix columns (local, leading dimension ld)
// from (unpack) or to (pack) the packets of every global source k.
template <typename T>
void holder_side(const GpuRoute<T>& x, GpuBuffers<T>& b, int d, T* local, int64_t ld,
                 bool unpack) {
  const Queue q(x.ctx.device(d));
  const int64_t* cols = b.cols.data() + x.source_cols[d].size();
  for (int k = 0; k < x.G; ++k) {
    const int64_t count = x.holder_count[d][k];
    if (count > 0)
      copy_row_blocks<T>(q, count, x.rows[k], x.D.mb(), x.D.nprow(), x.phase(k), cols,
                         packet(x, b, d, k, unpack), local, ld, /*to_columns=*/unpack);
    cols += count;
  }
}

// The NCCL communicator of the GPU route (null on one GPU) and whether to take it: NCCL
// built, every device a GPU, not forced off by MGBLAS_REDUCER=host, and no GPU driving
// two devices. Collective when it makes the communicator; every rank decides alike
// (from the same gathered list of GPUs).
struct Route {
  bool gpu = false;
  std::shared_ptr<NcclCommunicator> nccl;
};
Route choose_route(Context& ctx) {
  Route r;
  if (resolve_reducer_kind(ctx) != ReducerKind::Nccl) return r;
  if (ctx.global_num_devices() == 1) {
    r.gpu = true;
    return r;
  }
  try {
    r.nccl = NcclCommunicator::of(ctx);
    r.gpu = true;
  } catch (const NotImplemented&) {
  }
  return r;
}

// The GPU route of import_2d (to_devices) or export_2d: `a` and lld the local array,
// locals and ld the DistMatrix's columns on each local device.
template <typename T>
void gpu_route(Context& ctx, const BlockCyclic1D& L, const BlockCyclic2D& desc, T* a,
               int64_t lld, const std::vector<T*>& locals, int64_t ld, const char* what,
               NcclCommunicator* nccl, bool to_devices) {
  Exchange2D<T> checks(ctx, L, desc);
  GpuRoute<T> x(ctx, L, desc);
  std::vector<GpuBuffers<T>> buf;
  std::shared_ptr<PinnedChunks> chunks;
  CallRecord rec = record_2d<T>(what, L, desc);
  agree(ctx.comm(), rec, [&] {
    check_2d(checks, a, "a", lld);
    buf = gpu_prepare(x, to_devices);
    chunks = pinned_chunks(ctx);
  });
  all_or_nothing(ctx.comm(), what, [&] {
    upload_columns(x, buf);
    // Each GPU's part of the local array: in and packed per holder (import), or unpacked
    // from the holders' packets and out (export).
    auto part = [&](int d) {
      const int s = ctx.device_offset() + d;
      const Device& dev = ctx.device(d);
      dev.make_current();
      auto move = [&] {
        copy_part(dev, x.rows[s], x.end[s] - x.begin[s], a + x.begin[s] * lld, lld,
                  buf[d].part.data(), chunks->chunk[2 * d].data(),
                  chunks->chunk[2 * d + 1].data(), to_devices);
      };
      if (to_devices) move();
      source_side(x, buf[d], d, /*pack=*/to_devices);
      if (!to_devices) move();
    };
    if (to_devices) detail::for_each_local_device(ctx, part);
    else
      for (int d = 0; d < ctx.num_devices(); ++d) holder_side(x, buf[d], d, locals[d], ld, false);
    gpu_exchange(x, buf, nccl);
    if (!to_devices) {
      detail::for_each_local_device(ctx, part);
      return;
    }
    for (int d = 0; d < ctx.num_devices(); ++d) holder_side(x, buf[d], d, locals[d], ld, true);
    for (int d = 0; d < ctx.num_devices(); ++d) ctx.device(d).synchronize();
  });
}

}  // namespace

template <Scalar T>
void DistMatrix<T>::import_2d(const BlockCyclic2D& desc, const T* a, int64_t lld) {
  constexpr const char* what = "DistMatrix::import_2d";
  const Communicator& comm = ctx_->comm();
  if (const Route route = choose_route(*ctx_); route.gpu) {
    std::vector<T*> locals(ctx_->num_devices());
    for (int d = 0; d < ctx_->num_devices(); ++d) locals[d] = local(d);
    gpu_route(*ctx_, layout_, desc, const_cast<T*>(a), lld, locals, ld(), what, route.nccl.get(),
              /*to_devices=*/true);
    return;
  }
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
  if (const Route route = choose_route(*ctx_); route.gpu) {
    std::vector<T*> locals(ctx_->num_devices());
    for (int d = 0; d < ctx_->num_devices(); ++d) locals[d] = const_cast<T*>(local(d));
    gpu_route(*ctx_, layout_, desc, a, lld, locals, ld(), what, route.nccl.get(),
              /*to_devices=*/false);
    return;
  }
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
