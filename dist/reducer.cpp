// SPDX-License-Identifier: BSD-3-Clause
#include "dist/reducer.hpp"

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <span>
#include <string_view>

#include "core/config.hpp"
#include "core/detail/env.hpp"
#include "dist/nccl_comm.hpp"
#include "kernels/columns.hpp"
#include "layouts/block_cyclic.hpp"

namespace mgblas {

namespace {

int chunks_from_env() {
  return static_cast<int>(detail::env_integer("MGBLAS_PIPELINE_CHUNKS", 1, 1024, 1));
}

}  // namespace

Reducer::Reducer(std::shared_ptr<Context> ctx, ReducerKind kind)
    : ctx_(std::move(ctx)), kind_(kind) {
  MGBLAS_CHECK_PTR(ctx_.get(), "ctx", true);
  chunks_ = chunks_from_env();
  workspace_.resize(ctx_->num_devices());
  for (auto& slots : workspace_) slots.resize(kWorkspaceSlots);
}

Reducer::~Reducer() = default;

void* Reducer::workspace_bytes(int d, int slot, std::size_t bytes) {
  MGBLAS_CHECK_ARG(d >= 0 && d < ctx_->num_devices(), "d", d, "in [0, ", ctx_->num_devices(), ")");
  MGBLAS_CHECK_ARG(slot >= 0 && slot < kWorkspaceSlots, "slot", slot, "in [0, ", kWorkspaceSlots,
                   ")");
  auto& buf = workspace_[d][slot];
  if (buf.size() < bytes) {
    // Grow by half again so that a sequence of slowly growing calls (a reduction to
    // tridiagonal form shrinks n by one per step, others grow) reallocates rarely.
    const std::size_t grown = std::max(bytes, buf.size() + buf.size() / 2);
    // The old buffer may still be read by queued work (a previous call's); freeing
    // device memory waits for the device, so that work finishes first.
    buf.reset();
    buf = DeviceBuffer<std::byte>(ctx_->device(d), grown);
  }
  return buf.data();
}

// The default for disjoint pieces: each device's entries scattered into a zeroed
// full-length partial, then the ordinary sum.
template <Scalar T>
void Reducer::add_columns_by_sum(const BlockCyclic1D& L, int64_t c0, const void* const* locals) {
  const int64_t n = L.n() - c0;
  std::vector<const void*> parts(ctx_->num_devices(), nullptr);
  for (int d = 0; d < ctx_->num_devices(); ++d) {
    const int g = ctx_->device_offset() + d;
    const int64_t count = local_count(L, g, c0, L.n());
    if (!locals[d] || count == 0) continue;
    const Device& dev = ctx_->device(d);
    T* part = workspace<T>(d, kOwnSlot, n);
    dev.make_current();
    memset_bytes(dev, part, 0, static_cast<std::size_t>(n) * sizeof(T), /*async=*/true);
    const LocalColumns cols = local_columns(L, g, c0, L.n());
    scatter_columns(Queue(dev), std::span(&cols, 1), static_cast<const T*>(locals[d]), count, c0,
                    T(0), part);
    parts[d] = part;
  }
  add(data_type_of<T>(), n, parts.data(), 0, n);
}

void Reducer::add_columns(DataType type, const BlockCyclic1D& L, int64_t c0,
                          const void* const* locals) {
  visit_scalar(type, [&](auto tag) {
    add_columns_by_sum<typename decltype(tag)::type>(L, c0, locals);
  }, "Reducer::add_columns");
}

// ---------------------------------------------------------------------------------
// HostReducer

HostReducer::HostReducer(std::shared_ptr<Context> ctx)
    : Reducer(std::move(ctx), ReducerKind::Host) {
  pinned_.resize(2 + context().num_devices());
}

std::string HostReducer::description() const {
  return context().nranks() > 1 ? "host (pinned staging, host sum, MPI_Allreduce)"
                                : "host (pinned staging, host sum)";
}

std::byte* HostReducer::pinned(int index, std::size_t bytes) {
  auto& buf = pinned_[index];
  if (buf.size() < bytes) {
    buf = PinnedBuffer<std::byte>();  // free first: the old and new need not coexist
    buf = PinnedBuffer<std::byte>(bytes);
  }
  return buf.data();
}

void HostReducer::begin(int64_t n, std::size_t elem, int) {
  const int P = context().num_devices();
  sources_.assign(P, nullptr);
  copying_.assign(P, false);
  pinned(0, static_cast<std::size_t>(n) * elem);
}

template <Scalar T>
void HostReducer::add_impl(int64_t n, const void* const* parts, int64_t lo, int64_t hi) {
  Context& ctx = context();
  const std::size_t bytes = static_cast<std::size_t>(n) * sizeof(T);
  // Queue every GPU's copy before waiting for any (settle), so that the copies
  // overlap each other and the remaining chunks. A host device's memory is host
  // memory: it is summed in place.
  for (int d = 0; d < ctx.num_devices(); ++d) {
    const T* part = static_cast<const T*>(parts[d]);
    if (!part) continue;
    const Device& dev = ctx.device(d);
    if (dev.is_gpu()) {
      T* staged = reinterpret_cast<T*>(pinned(1 + d, bytes));
      dev.make_current();
      copy_vector(dev, hi - lo, part + lo, staged + lo, /*async=*/true);
      sources_[d] = staged;
      copying_[d] = true;
    } else {
      sources_[d] = part;
    }
  }
}

void HostReducer::settle() {
  for (int d = 0; d < context().num_devices(); ++d)
    if (copying_[d]) context().device(d).synchronize();
}

void HostReducer::cancel() noexcept {
  // Copies may still be landing in the staging buffers: let them finish.
  for (int d = 0; d < context().num_devices(); ++d) {
    if (!copying_.empty() && copying_[d]) {
      try {
        context().device(d).synchronize();
      } catch (...) {
        // The device failed: nothing more is coming from it.
      }
    }
  }
}

template <Scalar T>
void HostReducer::finish_impl(int64_t n, T beta, const ReduceOutput<T>& y) {
  Context& ctx = context();
  T* sum = reinterpret_cast<T*>(pinned_[0].data());
  // Fixed device order keeps the result independent of timing.
  bool first = true;
  for (int d = 0; d < ctx.num_devices(); ++d) {
    const T* s = static_cast<const T*>(sources_[d]);
    if (!s) continue;
    if (first) std::memcpy(sum, s, static_cast<std::size_t>(n) * sizeof(T));
    else
      for (int64_t i = 0; i < n; ++i) sum[i] += s[i];
    first = false;
  }
  if (first) std::fill(sum, sum + n, T(0));
  if (ctx.nranks() > 1) ctx.comm().allreduce_sum(sum, n);

  if (y.devices.empty()) {
    finish_sum_host(n, static_cast<const T*>(sum), beta, y.host);
    return;
  }
  // Device outputs: y0 from the first device's copy (all copies are equal), the result
  // finished on the host and copied to every device.
  T* y0 = reinterpret_cast<T*>(pinned(1 + ctx.num_devices(), static_cast<std::size_t>(n) * sizeof(T)));
  if (beta != T(0)) {
    ctx.device(0).make_current();
    copy_vector(ctx.device(0), n, y.devices[0], y0);
  }
  finish_sum_host(n, static_cast<const T*>(sum), beta, y0);
  for (int d = 0; d < ctx.num_devices(); ++d) {
    ctx.device(d).make_current();
    copy_vector(ctx.device(d), n, static_cast<const T*>(y0), y.devices[d], /*async=*/true);
  }
  ctx.synchronize();
}

void HostReducer::add(DataType type, int64_t n, const void* const* parts, int64_t lo,
                      int64_t hi) {
  visit_scalar(type, [&](auto tag) {
    add_impl<typename decltype(tag)::type>(n, parts, lo, hi);
  }, "HostReducer::add");
}

void HostReducer::finish(DataType type, int64_t n, const void* beta,
                         const ReduceOutput<void>& y) {
  visit_scalar(type, [&](auto tag) {
    using T = typename decltype(tag)::type;
    finish_impl<T>(n, *static_cast<const T*>(beta), typed<T>(y));
  }, "HostReducer::finish");
}

// ---------------------------------------------------------------------------------
// Choosing a reducer

namespace {

bool every_device_is_gpu(const Context& ctx) {
  // The back-end is uniform over the ranks of a context (checked at creation).
  return ctx.backend() == Backend::Cuda;
}

}  // namespace

ReducerKind resolve_reducer_kind(const Context& ctx, ReducerKind requested) {
  if (requested == ReducerKind::Auto) {
    if (const char* env = std::getenv("MGBLAS_REDUCER"); env && *env) {
      const std::string_view v(env);
      if (v == "host") return ReducerKind::Host;
      if (v == "nccl") return ReducerKind::Nccl;
      if (v != "auto")
        MGBLAS_THROW(BadArgument, "environment MGBLAS_REDUCER = '", v,
                     "': must be auto, host or nccl");
    }
    const bool nccl = NcclCommunicator::available() && every_device_is_gpu(ctx);
    return nccl ? ReducerKind::Nccl : ReducerKind::Host;
  }
  return requested;
}

std::unique_ptr<Reducer> make_reducer(std::shared_ptr<Context> ctx, ReducerKind kind) {
  MGBLAS_CHECK_PTR(ctx.get(), "ctx", true);
  const ReducerKind resolved = resolve_reducer_kind(*ctx, kind);
  switch (resolved) {
    case ReducerKind::Host:
      return std::make_unique<HostReducer>(std::move(ctx));
    case ReducerKind::Nccl:
      if (!NcclCommunicator::available())
        MGBLAS_THROW(NotCompiled, "ReducerKind::Nccl: this build of mgblas has no NCCL");
      if (!every_device_is_gpu(*ctx))
        MGBLAS_THROW(BadArgument, "ReducerKind::Nccl: the context has host devices; NCCL "
                                  "needs every device to be a GPU (use ReducerKind::Host)");
      if (kind == ReducerKind::Auto) {
        // NCCL cannot take two devices on one GPU; every rank learns that from the same
        // gathered list, so every rank falls back alike.
        try {
          return std::make_unique<NcclReducer>(ctx);
        } catch (const NotImplemented&) {
          return std::make_unique<HostReducer>(std::move(ctx));
        }
      }
      return std::make_unique<NcclReducer>(std::move(ctx));
    case ReducerKind::Auto:
      break;
  }
  MGBLAS_THROW(BadArgument, "argument 'kind' = ", static_cast<int>(kind), ": must be a ReducerKind");
}

}  // namespace mgblas
