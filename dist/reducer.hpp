// SPDX-License-Identifier: BSD-3-Clause
// Reducer: sums one partial vector per device, over every device of every rank, and
// finishes y = sum + beta * y0 once. The distributed drivers (dist/dist_blas.hpp) hand
// it the partial products of their devices; the reducer decides how they travel.
//
// Two implementations sit behind one interface:
//   HostReducer  device-to-host copies into pinned buffers, a host sum over the local
//                devices, Communicator::allreduce_sum across ranks (any back-end).
//   NcclReducer  NCCL all-reduce of the partials on the GPUs (all-gather for partials
//                that are disjoint), y finished on the devices by one small kernel each.
//
// A reduction runs in phases so that one rank's local failure never leaves the others
// waiting inside a collective:
//   produce  (local)       the caller queues its partial products, possibly in chunks;
//                          after each chunk the reducer may start moving the entries that
//                          chunk completed (NCCL queues its collective: the pipeline);
//   agree                  every rank learns whether all ranks produced (one MPI
//                          all-reduce of a flag); if not, in-flight NCCL work is aborted
//                          and every rank raises;
//   finish   (collective)  waiting, the cross-rank sum where it is still due, and
//                          y = sum + beta * y0.
#pragma once

#include <cstddef>
#include <cstdint>
#include <exception>
#include <memory>
#include <string>
#include <vector>

#include "core/communicator.hpp"
#include "core/context.hpp"
#include "core/error.hpp"
#include "core/memory.hpp"
#include "core/types.hpp"
#include "layouts/block_cyclic.hpp"

namespace mgblas {

class NcclCommunicator;

/// How partial vectors are summed across devices and ranks.
enum class ReducerKind {
  /// NCCL when every device of every rank is a distinct GPU and NCCL is built, else
  /// Host. Env MGBLAS_REDUCER=auto|host|nccl overrides an Auto request.
  Auto,
  /// Device-to-host copies, host sum, MPI all-reduce on pinned buffers.
  Host,
  /// Device-side NCCL collectives.
  Nccl,
};

inline const char* to_string(ReducerKind k) {
  return k == ReducerKind::Auto ? "auto" : k == ReducerKind::Host ? "host" : "nccl";
}

/// Where a reduction writes y (and reads y0 when beta != 0): a host vector, the same on
/// every rank, or one full copy on every local device (a replicated DistVector).
/// ReduceOutput<void> is the untyped form the reducer's virtual entries take.
template <typename T>
struct ReduceOutput {
  T* host = nullptr;
  /// Empty, or one pointer per local device, in that device's memory.
  std::vector<T*> devices;
};

/// What one chunk of a reduction's producer hands over.
template <Scalar T>
struct Partials {
  /// One pointer per local device to its full-length partial vector (the same pointers
  /// for every chunk), in that device's memory, or nullptr: the device adds nothing.
  std::vector<const T*> parts;
  /// Entries [lo, hi) are final on every device once the chunk's queued work is done.
  /// The chunks' ranges are disjoint and together cover [0, n).
  int64_t lo = 0, hi = 0;
};

/// Base of every reducer. Bound to one Context (kept alive by the reducer); not
/// thread-safe: one reducer per thread that issues operations. Reuse one reducer across
/// calls to keep its buffers (pinned staging, device workspaces) allocated.
class Reducer {
 public:
  virtual ~Reducer();
  Reducer(const Reducer&) = delete;
  Reducer& operator=(const Reducer&) = delete;

  ReducerKind kind() const noexcept { return kind_; }
  /// Short description for reports, e.g. "host (pinned staging + MPI_Allreduce)".
  virtual std::string description() const = 0;
  Context& context() const noexcept { return *ctx_; }
  const std::shared_ptr<Context>& context_ptr() const noexcept { return ctx_; }

  /// Number of chunks the distributed drivers split their local work into, so that the
  /// reduction of one chunk overlaps the computation of the next (NCCL reducer; the host
  /// reducer only collects after the last). 1 (no pipeline) unless set or given by env
  /// MGBLAS_PIPELINE_CHUNKS when the reducer was made. Values below 1 count as 1.
  int pipeline_chunks() const noexcept { return chunks_; }
  void set_pipeline_chunks(int chunks) noexcept { chunks_ = chunks < 1 ? 1 : chunks; }

  /// y = sum over all devices d of all ranks of partial_d + beta * y.
  ///
  /// Collective over the ranks of the context: every rank calls it with the same n and
  /// beta. `produce` runs first, on this rank only, and returns one pointer per local
  /// device (context().num_devices() entries): n elements in the memory of that device
  /// (on a GPU, queued work on the device's stream may still be producing them), or
  /// nullptr for a device that contributes nothing. If `produce` or the local staging
  /// throws on any rank, every rank throws (its own error, or RemoteError) and y is
  /// left untouched.
  ///
  /// @param[in] n         length of the partials and of y, >= 0 (0: nothing happens).
  /// @param[in] beta      scaling of the input y; beta == 0 does not read y (NaN in y
  ///                      does not propagate).
  /// @param[in,out] y     host vector, n elements, unit stride; on return it holds the
  ///                      same result on every rank.
  /// @param[in] produce   callable returning std::vector<const T*>.
  template <Scalar T, typename Produce>
  void reduce(int64_t n, T beta, T* y, Produce&& produce) {
    reduce_chunks<T>(n, beta, ReduceOutput<T>{y, {}}, 1, [&](int) {
      return Partials<T>{produce(), 0, n};
    });
  }

  /// The same, for partials that already exist.
  template <Scalar T>
  void reduce(int64_t n, const T* const* partials, T beta, T* y) {
    reduce(n, beta, y, [&] {
      return std::vector<const T*>(partials, partials + ctx_->num_devices());
    });
  }

  /// The general form: y (host or one copy per local device) = sum of the partials +
  /// beta * y0, the partials produced in `chunks` >= 1 pieces: produce(c) for c = 0, 1,
  /// ..., chunks - 1 queues chunk c and returns Partials<T> (its pointers and the
  /// entries it completed). Collective and failure-safe as reduce(). On return the
  /// devices of this rank are synchronised and y is complete.
  template <Scalar T, typename Produce>
  void reduce_chunks(int64_t n, T beta, const ReduceOutput<T>& y, int chunks, Produce&& produce);

  /// y[i] = v[c0 + i] + beta * y0[i] for i < L.n() - c0, where the entries of v at the
  /// global columns of `L` that device g owns are produced by device g alone (gemv with
  /// op T/C: each device computes the entries of y at its columns): `produce` returns,
  /// per local device d, max_local_count(L, c0) elements of its memory whose first
  /// local_count(L, g, c0, n) are v at g's columns >= c0 in local order (the rest is
  /// padding, never read), or nullptr for a device with no such column. L must be laid
  /// out over the context's devices. Collective and failure-safe as reduce().
  template <Scalar T, typename Produce>
  void reduce_columns(const BlockCyclic1D& L, int64_t c0, T beta, const ReduceOutput<T>& y,
                      Produce&& produce);

  /// Scratch memory of local device d with room for `count` elements of T, one of
  /// kWorkspaceSlots independent slots. Grow-only and reused across calls (contents
  /// undefined); the drivers place partial vectors and staged operands in slots 0 to
  /// kWorkspaceSlots - 2; the last slot is the reducer's own.
  static constexpr int kWorkspaceSlots = 4;
  template <Scalar T>
  T* workspace(int d, int slot, int64_t count) {
    return static_cast<T*>(workspace_bytes(d, slot, static_cast<std::size_t>(count) * sizeof(T)));
  }

 protected:
  Reducer(std::shared_ptr<Context> ctx, ReducerKind kind);
  static constexpr int kOwnSlot = kWorkspaceSlots - 1;

  // Phases. Virtual functions cannot be templates, so the typed entries take the scalar
  // type as a DataType and untyped buffers, as NCCL's API does; an implementation turns
  // them back into a template once (visit_scalar), so no list of precisions lives here.
  //   begin     local: a reduction of n elements of `elem` bytes in `chunks` chunks
  //             starts (buffers).
  //   add       local: the chunk's entries [lo, hi) are produced (or queued); may
  //             start moving them.
  //   add_columns  local: reduce_columns' pieces; by default scattered into zeroed
  //             full-length partials and handed to add().
  //   settle    local: the last chunk was added (the host reducer waits for its copies
  //             here, so that device failures surface before the agreement).
  //   cancel    after a failure on any rank: end in-flight work. Never throws.
  //   finish    collective, after every rank settled: y = sum + beta * y0.
  virtual void begin(int64_t n, std::size_t elem, int chunks) = 0;
  virtual void settle() = 0;
  virtual void cancel() noexcept = 0;
  // parts and locals: one pointer per local device to elements of `type`; beta points
  // to one element of `type`.
  virtual void add(DataType type, int64_t n, const void* const* parts, int64_t lo,
                   int64_t hi) = 0;
  virtual void add_columns(DataType type, const BlockCyclic1D& L, int64_t c0,
                           const void* const* locals);
  virtual void finish(DataType type, int64_t n, const void* beta,
                      const ReduceOutput<void>& y) = 0;

  template <Scalar T>
  void add_columns_by_sum(const BlockCyclic1D& L, int64_t c0, const void* const* locals);

  /// The typed view of an untyped output (the implementations' side of the entry).
  template <Scalar T>
  static ReduceOutput<T> typed(const ReduceOutput<void>& y) {
    ReduceOutput<T> t{static_cast<T*>(y.host), {}};
    for (void* p : y.devices) t.devices.push_back(static_cast<T*>(p));
    return t;
  }

 private:
  void* workspace_bytes(int d, int slot, std::size_t bytes);
  template <Scalar T>
  void check_output(int64_t n, const ReduceOutput<T>& y) const;
  template <Scalar T>
  static ReduceOutput<void> untyped(const ReduceOutput<T>& y) {
    return {y.host, std::vector<void*>(y.devices.begin(), y.devices.end())};
  }
  template <Scalar T>
  const void* const* untyped(const std::vector<const T*>& parts) {
    untyped_parts_.assign(parts.begin(), parts.end());
    return untyped_parts_.data();
  }

  std::shared_ptr<Context> ctx_;  // first member: outlives the device buffers below
  ReducerKind kind_;
  int chunks_ = 1;
  std::vector<std::vector<DeviceBuffer<std::byte>>> workspace_;  // [local device][slot]
  std::vector<const void*> untyped_parts_;  // reused: one reducer per thread
};

/// The host reducer: for each GPU device an asynchronous device-to-host copy into a
/// pinned staging buffer (host devices are read in place), a host sum over the local
/// devices in device order, Communicator::allreduce_sum across ranks, then
/// y = sum + beta * y0 on the host (copied to every device for device outputs).
class HostReducer final : public Reducer {
 public:
  explicit HostReducer(std::shared_ptr<Context> ctx);
  std::string description() const override;

 protected:
  void begin(int64_t n, std::size_t elem, int chunks) override;
  void settle() override;
  void cancel() noexcept override;
  void add(DataType type, int64_t n, const void* const* parts, int64_t lo, int64_t hi) override;
  void finish(DataType type, int64_t n, const void* beta, const ReduceOutput<void>& y) override;

 private:
  template <Scalar T> void add_impl(int64_t n, const void* const* parts, int64_t lo, int64_t hi);
  template <Scalar T> void finish_impl(int64_t n, T beta, const ReduceOutput<T>& y);
  std::byte* pinned(int index, std::size_t bytes);

  // pinned_[0]: the local sum; pinned_[1 + d]: staging of GPU device d;
  // pinned_[1 + P]: y0 of a device output.
  std::vector<PinnedBuffer<std::byte>> pinned_;
  // The current reduction, per device: where its partial lives (the staged copy of a
  // GPU's, a host device's in place; null: adds nothing) and whether copies are queued.
  std::vector<const void*> sources_;
  std::vector<bool> copying_;
};

/// The NCCL reducer: the partials are summed on the GPUs by ncclAllReduce (one per chunk;
/// with several chunks on the communicator's own streams, so a chunk's reduction
/// overlaps the next chunk's products), disjoint pieces gathered by ncclAllGather; then
/// one kernel per device writes y = sum + beta * y0 (device outputs), or device 0's sum
/// is copied to the host and finished there (host output). Every device of the context
/// must be a GPU. Waiting polls NCCL's asynchronous errors (NcclCommunicator::wait).
class NcclReducer final : public Reducer {
 public:
  /// Collective the first time a context uses NCCL (NcclCommunicator::of). Throws as
  /// NcclCommunicator::of.
  explicit NcclReducer(std::shared_ptr<Context> ctx);
  ~NcclReducer() override;
  std::string description() const override;
  NcclCommunicator& communicator() const noexcept { return *nccl_; }

 protected:
  void begin(int64_t n, std::size_t elem, int chunks) override;
  void settle() override;
  void cancel() noexcept override;
  void add(DataType type, int64_t n, const void* const* parts, int64_t lo, int64_t hi) override;
  void add_columns(DataType type, const BlockCyclic1D& L, int64_t c0,
                   const void* const* locals) override;
  void finish(DataType type, int64_t n, const void* beta, const ReduceOutput<void>& y) override;

 private:
  template <Scalar T> void add_impl(int64_t n, const void* const* parts, int64_t lo, int64_t hi);
  template <Scalar T>
  void add_columns_impl(const BlockCyclic1D& L, int64_t c0, const void* const* locals);
  template <Scalar T> void finish_impl(int64_t n, T beta, const ReduceOutput<T>& y);

  struct State;
  std::shared_ptr<NcclCommunicator> nccl_;
  std::unique_ptr<State> state_;
};

/// The reducer kind an Auto request resolves to on this context (env MGBLAS_REDUCER
/// consulted); an explicit Host or Nccl is returned as is. Throws BadArgument for an
/// unknown MGBLAS_REDUCER value.
ReducerKind resolve_reducer_kind(const Context& ctx, ReducerKind requested = ReducerKind::Auto);

/// A reducer over `ctx`. Every rank must ask for the same kind. An NCCL reducer is
/// collective the first time the context uses NCCL (and after an NCCL failure): see
/// NcclCommunicator::of. Throws NotCompiled for Nccl in a build without NCCL and
/// BadArgument for Nccl on a context with host devices; Auto never selects an
/// unavailable kind (it falls back to Host, on every rank alike, when NCCL cannot take
/// the context's GPUs).
std::unique_ptr<Reducer> make_reducer(std::shared_ptr<Context> ctx,
                                      ReducerKind kind = ReducerKind::Auto);

// ---------------------------------------------------------------------------------
// Implementation of the templates.

template <Scalar T>
void Reducer::check_output(int64_t n, const ReduceOutput<T>& y) const {
  MGBLAS_CHECK_ARG(n >= 0, "n", n, ">= 0");
  if (y.devices.empty()) {
    MGBLAS_CHECK_PTR(y.host, "y", n > 0);
    return;
  }
  if (static_cast<int>(y.devices.size()) != ctx_->num_devices())
    MGBLAS_THROW(DimensionMismatch, "reduce: ", y.devices.size(), " output vectors for ",
                 ctx_->num_devices(), " local devices");
  for (T* p : y.devices) MGBLAS_CHECK_PTR(p, "y.devices[d]", n > 0);
}

template <Scalar T, typename Produce>
void Reducer::reduce_chunks(int64_t n, T beta, const ReduceOutput<T>& y, int chunks,
                            Produce&& produce) {
  std::exception_ptr failure;
  try {
    check_output(n, y);
    MGBLAS_CHECK_ARG(chunks >= 1, "chunks", chunks, ">= 1");
    if (n > 0) begin(n, sizeof(T), chunks);
    int64_t covered = 0;
    for (int c = 0; c < chunks; ++c) {
      const Partials<T> p = produce(c);
      if (static_cast<int>(p.parts.size()) != ctx_->num_devices())
        MGBLAS_THROW(DimensionMismatch, "reduce: ", p.parts.size(), " partials for ",
                     ctx_->num_devices(), " local devices");
      if (p.lo < 0 || p.hi < p.lo || p.hi > n)
        MGBLAS_THROW(BadArgument, "reduce: chunk ", c, " completes entries [", p.lo, ", ", p.hi,
                     ") outside [0, ", n, ")");
      covered += p.hi - p.lo;
      if (n > 0 && p.hi > p.lo) add(data_type_of<T>(), n, untyped(p.parts), p.lo, p.hi);
    }
    if (covered != n)
      MGBLAS_THROW(BadArgument, "reduce: the chunks complete ", covered, " entries of ", n);
    if (n > 0) settle();
  } catch (...) {
    failure = std::current_exception();
  }
  if (!ctx_->comm().all_ok(!failure)) {
    cancel();
    if (failure) std::rethrow_exception(failure);
    MGBLAS_THROW(RemoteError, "mgblas::Reducer::reduce: failed on another rank (see that rank's "
                              "error)");
  }
  if (n > 0) finish(data_type_of<T>(), n, &beta, untyped(y));
}

template <Scalar T, typename Produce>
void Reducer::reduce_columns(const BlockCyclic1D& L, int64_t c0, T beta, const ReduceOutput<T>& y,
                             Produce&& produce) {
  const int64_t n = L.n() - c0;
  std::exception_ptr failure;
  try {
    check_output(n, y);
    if (L.num_devices() != ctx_->global_num_devices())
      MGBLAS_THROW(DimensionMismatch, "reduce_columns: layout over ", L.num_devices(),
                   " devices, the context has ", ctx_->global_num_devices());
    MGBLAS_CHECK_ARG(c0 >= 0 && c0 <= L.n(), "c0", c0, "in [0, n = ", L.n(), "]");
    if (n > 0) {
      begin(n, sizeof(T), 1);
      const std::vector<const T*> locals = produce();
      if (static_cast<int>(locals.size()) != ctx_->num_devices())
        MGBLAS_THROW(DimensionMismatch, "reduce_columns: ", locals.size(), " pieces for ",
                     ctx_->num_devices(), " local devices");
      add_columns(data_type_of<T>(), L, c0, untyped(locals));
      settle();
    }
  } catch (...) {
    failure = std::current_exception();
  }
  if (!ctx_->comm().all_ok(!failure)) {
    cancel();
    if (failure) std::rethrow_exception(failure);
    MGBLAS_THROW(RemoteError, "mgblas::Reducer::reduce_columns: failed on another rank (see "
                              "that rank's error)");
  }
  if (n > 0) finish(data_type_of<T>(), n, &beta, untyped(y));
}

}  // namespace mgblas
