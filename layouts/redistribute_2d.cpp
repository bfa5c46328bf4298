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
// GPU devices go through a host copy of their part (the MPI here is not CUDA-aware);
// host devices are read and written in place.
#include <algorithm>
#include <cstdint>
#include <cstring>
#include <memory>
#include <vector>

#include "core/agreement.hpp"
#include "core/checked.hpp"
#include "core/error.hpp"
#include "core/memory.hpp"
#include "layouts/dist_matrix.hpp"

namespace mgblas {

namespace {

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
  int64_t grid_side(int q) const { return pcol >= 0 ? locr * cols[pcol * nranks + q] : 0; }
  int64_t device_side(int r) const {
    if (r >= D.grid_size()) return 0;
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

  // Calls f(j, d, column) for every column j of process column pc held by this rank's
  // devices, in increasing order; `column` points at global row 0 of j in local device
  // d's storage (or its host copy).
  template <typename Ptr, typename F>
  void for_each_device_column(int pc, const std::vector<Ptr>& base, const std::vector<int64_t>& ld,
                              F&& f) const {
    for (int64_t jl = 0; jl < D.local_cols(pc); ++jl) {
      const int64_t j = D.global_col(pc, jl);
      if (owner_rank(j) != me) continue;
      const int d = L.owner(j) - ctx.device_offset();
      f(base[d] + L.local_col(j) * ld[d]);
    }
  }
  // Calls f(global row, local row, length) for each block of rows of process row pr.
  template <typename F>
  void for_each_row_run(int pr, F&& f) const {
    const int64_t rows = D.local_rows(pr);
    for (int64_t il = 0; il < rows; il += D.mb())
      f(D.global_row(pr, il), il, std::min(D.mb(), rows - il));
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

template <typename T>
using HostArray = std::unique_ptr<T[]>;
template <typename T>
HostArray<T> host_array(int64_t n) {
  return std::make_unique_for_overwrite<T[]>(static_cast<std::size_t>(std::max<int64_t>(n, 0)));
}

// The byte counts and offsets of one call's all-to-all, its buffers and the host copy of
// the GPU devices' part.
template <typename T>
struct Buffers2D {
  std::vector<std::size_t> send_bytes, send_offset, recv_bytes, recv_offset;
  HostArray<T> send, recv;
  PinnedBuffer<T> stage;
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
  b.stage = PinnedBuffer<T>(static_cast<std::size_t>(x.stage_elems()));
  return b;
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
  auto& [sbytes, soffs, rbytes, roffs, sendbuf, recvbuf, stage] = buf;
  all_or_nothing(comm, what, [&] {
    // 2-D side: each local column whole to the rank holding its global column.
    if (x.pcol >= 0 && x.locr > 0) {
      std::vector<int64_t> at(x.nranks);
      for (int q = 0; q < x.nranks; ++q) at[q] = static_cast<int64_t>(soffs[q] / sizeof(T));
      for (int64_t jl = 0; jl < x.locc; ++jl) {
        int64_t& pos = at[x.owner_rank(desc.global_col(x.pcol, jl))];
        std::copy_n(a + jl * lld, x.locr, sendbuf.get() + pos);
        pos += x.locr;
      }
    }
    comm.alltoallv(sendbuf.get(), sbytes, soffs, recvbuf.get(), rbytes, roffs);
    // Device side: spread each received column over its rows.
    std::vector<T*> base(ctx_->num_devices());
    std::vector<int64_t> lds(ctx_->num_devices());
    for (int d = 0; d < ctx_->num_devices(); ++d) {
      const bool staged = x.stage_offset[d] >= 0;
      base[d] = staged ? stage.data() + x.stage_offset[d] : local(d);
      lds[d] = staged ? m() : ld();
    }
    for (int r = 0; r < std::min(desc.grid_size(), x.nranks); ++r) {
      const int pr = desc.prow_of(r);
      const T* src = recvbuf.get() + roffs[r] / sizeof(T);
      const int64_t rows = desc.local_rows(pr);
      if (rows == 0) continue;
      x.for_each_device_column(desc.pcol_of(r), base, lds, [&](T* column) {
        x.for_each_row_run(pr, [&](int64_t i, int64_t il, int64_t len) {
          std::copy_n(src + il, len, column + i);
        });
        src += rows;
      });
    }
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
  auto& [sbytes, soffs, rbytes, roffs, sendbuf, recvbuf, stage] = buf;
  all_or_nothing(comm, what, [&] {
    std::vector<const T*> base(ctx_->num_devices());
    std::vector<int64_t> lds(ctx_->num_devices());
    for (int d = 0; d < ctx_->num_devices(); ++d) {
      const bool staged = x.stage_offset[d] >= 0;
      if (staged)
        copy_matrix(ctx_->device(d), m(), local_n(d), local(d), ld(),
                    stage.data() + x.stage_offset[d], m());
      base[d] = staged ? stage.data() + x.stage_offset[d] : local(d);
      lds[d] = staged ? m() : ld();
    }
    // Device side: gather each column's rows of process row pr, in its local order.
    for (int r = 0; r < std::min(desc.grid_size(), x.nranks); ++r) {
      const int pr = desc.prow_of(r);
      T* dst = sendbuf.get() + soffs[r] / sizeof(T);
      const int64_t rows = desc.local_rows(pr);
      if (rows == 0) continue;
      x.for_each_device_column(desc.pcol_of(r), base, lds, [&](const T* column) {
        x.for_each_row_run(pr, [&](int64_t i, int64_t il, int64_t len) {
          std::copy_n(column + i, len, dst + il);
        });
        dst += rows;
      });
    }
    comm.alltoallv(sendbuf.get(), sbytes, soffs, recvbuf.get(), rbytes, roffs);
    // 2-D side: each received column whole into the local array.
    if (x.pcol >= 0 && x.locr > 0) {
      std::vector<int64_t> at(x.nranks);
      for (int q = 0; q < x.nranks; ++q) at[q] = static_cast<int64_t>(roffs[q] / sizeof(T));
      for (int64_t jl = 0; jl < x.locc; ++jl) {
        int64_t& pos = at[x.owner_rank(desc.global_col(x.pcol, jl))];
        std::copy_n(recvbuf.get() + pos, x.locr, a + jl * lld);
        pos += x.locr;
      }
    }
  });
}

#define MGBLAS_INSTANTIATE(T)                                                         \
  template void DistMatrix<T>::import_2d(const BlockCyclic2D&, const T*, int64_t);    \
  template void DistMatrix<T>::export_2d(const BlockCyclic2D&, T*, int64_t) const;
MGBLAS_FOR_EACH_SCALAR(MGBLAS_INSTANTIATE)
#undef MGBLAS_INSTANTIATE

}  // namespace mgblas
