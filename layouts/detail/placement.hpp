// SPDX-License-Identifier: BSD-3-Clause
// The one scatter/gather path of layouts/' distributed containers (private): a host
// matrix to and from the devices of every rank, for any placement that says which part
// each rank and device holds (DistMatrix and DistVector: block columns, RowTiledMatrix:
// row tiles).
//
// A placement `p` provides, for its scalar T:
//   p.ctx                              the Context
//   p.record(what)                     a CallRecord of what every rank must pass alike
//   p.host_rows(), p.host_cols()       the shape of the host matrix
//   p.rank_units(r), p.unit_len()      rank r's packed part: rank_units(r) * unit_len()
//                                      elements (columns of `rows` entries, or rows of
//                                      n entries)
//   p.pack_rank(r, A, lda, buf)        rank r's part of host A into buf, packed
//   p.unpack_rank(r, buf, A, lda)      the reverse
//   p.host_to_devices(A, lda)          this rank's part of A into its device storage
//   p.devices_to_host(A, lda)          the reverse
//   p.packed_to_devices(buf)           this rank's packed part into its devices
//   p.devices_to_packed(buf)           the reverse
#pragma once

#include <algorithm>
#include <cstdint>
#include <vector>

#include "core/agreement.hpp"
#include "core/checked.hpp"
#include "core/context.hpp"
#include "core/error.hpp"
#include "core/memory.hpp"

namespace mgblas::detail {

// Point-to-point tags of the scatter and the gather; pairs of ranks exchange at most
// one message per call, and MPI keeps messages between a pair in order.
inline constexpr int kTagDistribute = 0x6d67;
inline constexpr int kTagCollect = 0x6d68;

// Largest packed part among the ranks other than `skip`.
template <typename Placement>
int64_t max_other_units(const Placement& p, int skip) {
  int64_t units = 0;
  for (int r = 0; r < p.ctx.nranks(); ++r)
    if (r != skip) units = std::max(units, p.rank_units(r));
  return units;
}

inline void check_root(int root, int nranks, bool allow_all) {
  if (allow_all)
    MGBLAS_CHECK_ARG(root < nranks, "root", root, "< nranks = ", nranks,
                     " (or negative: every rank receives)");
  else
    MGBLAS_CHECK_ARG(root >= 0 && root < nranks, "root", root, "in [0, nranks = ", nranks, ")");
}

template <typename T>
void check_host_array(const T* A, const char* a_name, int64_t lda, int64_t rows, int64_t cols) {
  MGBLAS_CHECK_ARG(lda >= std::max<int64_t>(1, rows), "lda", lda, ">= max(1, m) = ",
                   std::max<int64_t>(1, rows));
  MGBLAS_CHECK_PTR(A, a_name, rows * cols > 0);
}

// Scatter of the host matrix A from `root` into the placement's storage. Phase 1
// validates and allocates (nothing written); phase 2 moves data, the root sending
// before touching its devices so a device failure cannot strand a receiver.
template <typename T, typename Placement>
void scatter(const Placement& p, const T* A, int64_t lda, int root, const char* a_name,
             const char* what) {
  const Communicator& comm = p.ctx.comm();
  const int me = comm.rank();
  PinnedBuffer<T> stage;
  CallRecord rec = p.record(what);
  rec.add("root", root);
  agree(comm, rec, [&] {
    check_root(root, comm.size(), false);
    if (me == root) check_host_array(A, a_name, lda, p.host_rows(), p.host_cols());
    const int64_t units = me == root ? max_other_units(p, root) : p.rank_units(me);
    stage = PinnedBuffer<T>(
        static_cast<std::size_t>(checked_mul(units, p.unit_len(), "staging size")));
  });
  all_or_nothing(comm, what, [&] {
    if (me == root) {
      for (int r = 0; r < comm.size(); ++r) {
        const int64_t count = p.rank_units(r) * p.unit_len();
        if (r == root || count == 0) continue;
        p.pack_rank(r, A, lda, stage.data());
        comm.send(stage.data(), count * sizeof(T), r, kTagDistribute);
      }
      p.host_to_devices(A, lda);
    } else {
      const int64_t count = p.rank_units(me) * p.unit_len();
      if (count > 0) comm.recv(stage.data(), count * sizeof(T), root, kTagDistribute);
      p.packed_to_devices(stage.data());
    }
  });
}

// Every rank copies its own part from its full copy of A (no rank traffic).
template <typename T, typename Placement>
void scatter_replicated(const Placement& p, const T* A, int64_t lda, const char* a_name,
                        const char* what) {
  const Communicator& comm = p.ctx.comm();
  CallRecord rec = p.record(what);
  rec.add("root", -2);
  agree(comm, rec, [&] { check_host_array(A, a_name, lda, p.host_rows(), p.host_cols()); });
  all_or_nothing(comm, what, [&] { p.host_to_devices(A, lda); });
}

// Gather of the placement's storage into the host matrix A on `root` (root < 0: on
// every rank, as one broadcast per rank). Senders read their devices in the
// validating phase, so a device failure cannot strand the receiving root.
template <typename T, typename Placement>
void gather(const Placement& p, T* A, int64_t lda, int root, const char* a_name,
            const char* what) {
  const Communicator& comm = p.ctx.comm();
  const int me = comm.rank();
  const bool to_all = root < 0;
  const bool receives = to_all || me == root;
  PinnedBuffer<T> mine, other;
  CallRecord rec = p.record(what);
  rec.add("root", root < 0 ? -1 : root);
  agree(comm, rec, [&] {
    check_root(root, comm.size(), true);
    if (receives) {
      check_host_array(A, a_name, lda, p.host_rows(), p.host_cols());
      other = PinnedBuffer<T>(static_cast<std::size_t>(
          checked_mul(max_other_units(p, me), p.unit_len(), "staging size")));
    }
    if ((to_all && comm.size() > 1) || me != root) {
      mine = PinnedBuffer<T>(static_cast<std::size_t>(
          checked_mul(p.rank_units(me), p.unit_len(), "staging size")));
      p.devices_to_packed(mine.data());
    }
  });
  all_or_nothing(comm, what, [&] {
    if (to_all) {
      for (int r = 0; r < comm.size(); ++r) {
        const int64_t count = p.rank_units(r) * p.unit_len();
        if (count == 0 || comm.size() == 1) continue;
        comm.bcast(r == me ? mine.data() : other.data(), count * sizeof(T), r);
        if (r != me) p.unpack_rank(r, other.data(), A, lda);
      }
      // Its own part straight from its devices, as the root does below (one copy, and
      // A may then be device memory on a single rank, as Python's to_array passes).
      p.devices_to_host(A, lda);
    } else if (me == root) {
      for (int r = 0; r < comm.size(); ++r) {
        const int64_t count = p.rank_units(r) * p.unit_len();
        if (r == root || count == 0) continue;
        comm.recv(other.data(), count * sizeof(T), r, kTagCollect);
        p.unpack_rank(r, other.data(), A, lda);
      }
      p.devices_to_host(A, lda);
    } else {
      const int64_t count = p.rank_units(me) * p.unit_len();
      if (count > 0) comm.send(mine.data(), count * sizeof(T), root, kTagCollect);
    }
  });
}

/// The storage of each local device, as a placement's `locals`.
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

}  // namespace mgblas::detail
