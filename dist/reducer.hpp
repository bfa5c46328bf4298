// SPDX-License-Identifier: BSD-3-Clause
// Reducer: sums one partial vector per device, over every device of every rank, and
// finishes y = sum + beta * y0 once. The distributed drivers (dist/dist_blas.hpp) hand
// it the partial products of their devices; the reducer decides how they travel.
//
// Two implementations sit behind one interface:
//   HostReducer  device-to-host copies into pinned buffers, a host sum over the local
//                devices, Communicator::allreduce_sum across ranks (any back-end).
//   (NCCL)       device-side all-reduce when every device is a GPU; declared as a kind,
//                not implemented yet: make_reducer(ctx, ReducerKind::Nccl) throws.
//
// A reduction runs in two phases so that one rank's local failure never leaves the
// others waiting inside a collective:
//   stage   (local)       the caller's partials are produced and collected on this rank;
//   agree                 every rank learns whether all ranks staged (all_or_nothing);
//   finish  (collective)  the cross-rank sum and y = sum + beta * y0.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "core/communicator.hpp"
#include "core/context.hpp"
#include "core/error.hpp"
#include "core/memory.hpp"
#include "core/types.hpp"

namespace mgblas {

/// How partial vectors are summed across devices and ranks.
enum class ReducerKind {
  /// NCCL when every device of every rank is a GPU and NCCL is built and available,
  /// else Host. Env MGBLAS_REDUCER=auto|host|nccl overrides an Auto request.
  Auto,
  /// Device-to-host copies, host sum, MPI all-reduce on pinned buffers.
  Host,
  /// Device-side NCCL all-reduce (not implemented yet).
  Nccl,
};

inline const char* to_string(ReducerKind k) {
  return k == ReducerKind::Auto ? "auto" : k == ReducerKind::Host ? "host" : "nccl";
}

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
    all_or_nothing(ctx_->comm(), "mgblas::Reducer::reduce", [&] {
      MGBLAS_CHECK_ARG(n >= 0, "n", n, ">= 0");
      MGBLAS_CHECK_PTR(y, "y", n > 0);
      const std::vector<const T*> partials = produce();
      if (static_cast<int>(partials.size()) != ctx_->num_devices())
        MGBLAS_THROW(DimensionMismatch, "reduce: ", partials.size(), " partials for ",
                     ctx_->num_devices(), " local devices");
      if (n > 0) stage(n, partials.data());
    });
    if (n > 0) finish(n, beta, y);
  }

  /// The same, for partials that already exist.
  template <Scalar T>
  void reduce(int64_t n, const T* const* partials, T beta, T* y) {
    reduce(n, beta, y, [&] {
      return std::vector<const T*>(partials, partials + ctx_->num_devices());
    });
  }

  /// Scratch memory of local device d with room for `count` elements of T, one of
  /// kWorkspaceSlots independent slots. Grow-only and reused across calls (contents
  /// undefined); the drivers place partial vectors and staged operands here.
  static constexpr int kWorkspaceSlots = 4;
  template <Scalar T>
  T* workspace(int d, int slot, int64_t count) {
    return static_cast<T*>(workspace_bytes(d, slot, static_cast<std::size_t>(count) * sizeof(T)));
  }

 protected:
  Reducer(std::shared_ptr<Context> ctx, ReducerKind kind);

  // Per-precision phases (virtual functions cannot be templates). stage: local, may
  // throw; keeps what finish needs. finish: collective, called on every rank after all
  // ranks staged.
#define MGBLAS_REDUCER_PHASES_(T)                                  \
  virtual void stage(int64_t n, const T* const* partials) = 0;     \
  virtual void finish(int64_t n, T beta, T* y) = 0;
  MGBLAS_REDUCER_PHASES_(float)
  MGBLAS_REDUCER_PHASES_(double)
  MGBLAS_REDUCER_PHASES_(scomplex)
  MGBLAS_REDUCER_PHASES_(zcomplex)
#undef MGBLAS_REDUCER_PHASES_

 private:
  void* workspace_bytes(int d, int slot, std::size_t bytes);

  std::shared_ptr<Context> ctx_;  // first member: outlives the device buffers below
  ReducerKind kind_;
  std::vector<std::vector<DeviceBuffer<std::byte>>> workspace_;  // [local device][slot]
};

/// The host reducer: for each GPU device an asynchronous device-to-host copy into a
/// pinned staging buffer (host devices are read in place), a host sum over the local
/// devices in device order, Communicator::allreduce_sum across ranks, then
/// y = sum + beta * y0 on the host.
class HostReducer final : public Reducer {
 public:
  explicit HostReducer(std::shared_ptr<Context> ctx);
  std::string description() const override;

 protected:
#define MGBLAS_HOST_REDUCER_PHASES_(T)                              \
  void stage(int64_t n, const T* const* partials) override;         \
  void finish(int64_t n, T beta, T* y) override;
  MGBLAS_HOST_REDUCER_PHASES_(float)
  MGBLAS_HOST_REDUCER_PHASES_(double)
  MGBLAS_HOST_REDUCER_PHASES_(scomplex)
  MGBLAS_HOST_REDUCER_PHASES_(zcomplex)
#undef MGBLAS_HOST_REDUCER_PHASES_

 private:
  template <Scalar T> void stage_impl(int64_t n, const T* const* partials);
  template <Scalar T> void finish_impl(int64_t n, T beta, T* y);
  std::byte* pinned(int index, std::size_t bytes);

  // pinned_[0]: the local sum; pinned_[1 + d]: staging of GPU device d.
  std::vector<PinnedBuffer<std::byte>> pinned_;
};

/// The reducer kind an Auto request resolves to on this context (env MGBLAS_REDUCER
/// consulted); an explicit Host or Nccl is returned as is. Throws BadArgument for an
/// unknown MGBLAS_REDUCER value.
ReducerKind resolve_reducer_kind(const Context& ctx, ReducerKind requested = ReducerKind::Auto);

/// A reducer over `ctx`. Not collective, but every rank must ask for the same kind.
/// Throws NotCompiled for Nccl in a build without NCCL and NotImplemented for Nccl
/// otherwise (until the NCCL reducer lands); Auto never selects an unavailable kind.
std::unique_ptr<Reducer> make_reducer(std::shared_ptr<Context> ctx,
                                      ReducerKind kind = ReducerKind::Auto);

}  // namespace mgblas
