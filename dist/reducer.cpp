// SPDX-License-Identifier: BSD-3-Clause
#include "dist/reducer.hpp"

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <string_view>

#include "core/config.hpp"

namespace mgblas {

Reducer::Reducer(std::shared_ptr<Context> ctx, ReducerKind kind)
    : ctx_(std::move(ctx)), kind_(kind) {
  MGBLAS_CHECK_PTR(ctx_.get(), "ctx", true);
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
    buf.reset();  // free first: the old and new buffers need not coexist
    buf = DeviceBuffer<std::byte>(ctx_->device(d), grown);
  }
  return buf.data();
}

HostReducer::HostReducer(std::shared_ptr<Context> ctx)
    : Reducer(std::move(ctx), ReducerKind::Host) {
  pinned_.resize(1 + context().num_devices());
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

template <Scalar T>
void HostReducer::stage_impl(int64_t n, const T* const* partials) {
  Context& ctx = context();
  const int P = ctx.num_devices();
  const std::size_t bytes = static_cast<std::size_t>(n) * sizeof(T);
  T* sum = reinterpret_cast<T*>(pinned(0, bytes));

  // Queue every GPU's copy before waiting for any, so that the copies overlap. A host
  // device's memory is host memory: it is summed in place.
  std::vector<const T*> sources(P, nullptr);
  for (int d = 0; d < P; ++d) {
    if (!partials[d]) continue;
    const Device& dev = ctx.device(d);
    if (dev.is_gpu()) {
      T* staged = reinterpret_cast<T*>(pinned(1 + d, bytes));
      dev.make_current();
      copy_vector(dev, n, partials[d], staged, /*async=*/true);
      sources[d] = staged;
    } else {
      sources[d] = partials[d];
    }
  }
  for (int d = 0; d < P; ++d)
    if (sources[d] && ctx.device(d).is_gpu()) ctx.device(d).synchronize();

  // Fixed device order keeps the result independent of timing.
  bool first = true;
  for (int d = 0; d < P; ++d) {
    const T* s = sources[d];
    if (!s) continue;
    if (first) {
      std::memcpy(sum, s, bytes);
      first = false;
    } else {
      for (int64_t i = 0; i < n; ++i) sum[i] += s[i];
    }
  }
  if (first) std::fill(sum, sum + n, T(0));
}

template <Scalar T>
void HostReducer::finish_impl(int64_t n, T beta, T* y) {
  T* sum = reinterpret_cast<T*>(pinned_[0].data());
  if (context().nranks() > 1) context().comm().allreduce_sum(sum, n);
  // beta == 0 overwrites y without reading it, so NaN or garbage in y cannot leak.
  if (beta == T(0)) {
    std::copy(sum, sum + n, y);
  } else if (beta == T(1)) {
    for (int64_t i = 0; i < n; ++i) y[i] += sum[i];
  } else {
    for (int64_t i = 0; i < n; ++i) y[i] = sum[i] + beta * y[i];
  }
}

#define MGBLAS_HOST_REDUCER_PHASES_(T)                                                     \
  void HostReducer::stage(int64_t n, const T* const* partials) { stage_impl(n, partials); } \
  void HostReducer::finish(int64_t n, T beta, T* y) { finish_impl(n, beta, y); }
MGBLAS_HOST_REDUCER_PHASES_(float)
MGBLAS_HOST_REDUCER_PHASES_(double)
MGBLAS_HOST_REDUCER_PHASES_(scomplex)
MGBLAS_HOST_REDUCER_PHASES_(zcomplex)
#undef MGBLAS_HOST_REDUCER_PHASES_

namespace {

bool every_device_is_gpu(const Context& ctx) {
  // The back-end is uniform over the ranks of a context (checked at creation).
  return ctx.backend() == Backend::Cuda;
}

// Whether an NCCL reducer can be built in this build; false until it is implemented.
constexpr bool nccl_reducer_available() { return false; }

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
    const bool nccl = MGBLAS_HAVE_NCCL && nccl_reducer_available() && every_device_is_gpu(ctx);
    return nccl ? ReducerKind::Nccl : ReducerKind::Host;
  }
  return requested;
}

std::unique_ptr<Reducer> make_reducer(std::shared_ptr<Context> ctx, ReducerKind kind) {
  MGBLAS_CHECK_PTR(ctx.get(), "ctx", true);
  switch (resolve_reducer_kind(*ctx, kind)) {
    case ReducerKind::Host:
      return std::make_unique<HostReducer>(std::move(ctx));
    case ReducerKind::Nccl:
      if (!MGBLAS_HAVE_NCCL)
        MGBLAS_THROW(NotCompiled, "ReducerKind::Nccl: this build of mgblas has no NCCL");
      MGBLAS_THROW(NotImplemented, "ReducerKind::Nccl: the NCCL reducer is not implemented yet; "
                                   "use ReducerKind::Host (or MGBLAS_REDUCER=host)");
    case ReducerKind::Auto:
      break;
  }
  MGBLAS_THROW(BadArgument, "argument 'kind' = ", static_cast<int>(kind), ": must be a ReducerKind");
}

}  // namespace mgblas
