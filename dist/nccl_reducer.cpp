// SPDX-License-Identifier: BSD-3-Clause
// NcclReducer: the partials summed (or gathered) by NCCL on the GPUs, y finished there.
#include <algorithm>

#include "core/config.hpp"
#include "dist/nccl_comm.hpp"
#include "dist/reducer.hpp"
#include "kernels/columns.hpp"
#include "layouts/block_cyclic.hpp"

#if MGBLAS_HAVE_NCCL
#include <cuda_runtime.h>

#include "core/detail/cuda_check.hpp"
#endif

namespace mgblas {

#if MGBLAS_HAVE_NCCL

struct NcclReducer::State {
  enum class Mode { Sum, Gather };
  Mode mode = Mode::Sum;
  int64_t n = 0;
  std::size_t elem = 0;
  // Several chunks: the collectives run on the communicator's streams, ordered after
  // each chunk's products by `ready` and before the finish by `done`.
  bool pipelined = false;
  std::vector<DeviceBuffer<std::byte>> sum;       // per device: n elements, the result
  std::vector<DeviceBuffer<std::byte>> zeros;     // per device: stands in for a null partial
  std::vector<bool> zeroed;                       // zeros filled in this reduction
  std::vector<DeviceBuffer<std::byte>> gathered;  // per device: all devices' pieces
  std::vector<cudaEvent_t> ready, done;
  PinnedBuffer<std::byte> host;                   // device 0's result, for a host output
  // Gather mode: every device's columns at or after c0 (global device order), c0 and
  // the padded piece length.
  std::vector<LocalColumns> columns;
  int64_t c0 = 0;
  int64_t stride = 0;
};

namespace {

std::byte* grown(std::vector<DeviceBuffer<std::byte>>& bufs, const Context& ctx, int d,
                 std::size_t bytes) {
  auto& b = bufs[d];
  if (b.size() < bytes) {
    b.reset();  // waits for queued work on the old buffer (freeing device memory does)
    b = DeviceBuffer<std::byte>(ctx.device(d), std::max(bytes, b.size() + b.size() / 2));
  }
  return b.data();
}

std::vector<cudaStream_t> device_streams(const Context& ctx) {
  std::vector<cudaStream_t> s(ctx.num_devices());
  for (int d = 0; d < ctx.num_devices(); ++d) s[d] = ctx.device(d).stream();
  return s;
}

}  // namespace

NcclReducer::NcclReducer(std::shared_ptr<Context> ctx)
    : Reducer(std::move(ctx), ReducerKind::Nccl), state_(std::make_unique<State>()) {
  nccl_ = NcclCommunicator::of(context());
  const int P = context().num_devices();
  state_->sum.resize(P);
  state_->zeros.resize(P);
  state_->gathered.resize(P);
  state_->ready.assign(P, nullptr);
  state_->done.assign(P, nullptr);
  for (int d = 0; d < P; ++d) {
    context().device(d).make_current();
    MGBLAS_CHECK_CUDA(cudaEventCreateWithFlags(&state_->ready[d], cudaEventDisableTiming));
    MGBLAS_CHECK_CUDA(cudaEventCreateWithFlags(&state_->done[d], cudaEventDisableTiming));
  }
}

NcclReducer::~NcclReducer() {
  for (int d = 0; d < context().num_devices(); ++d) {
    if (cudaSetDevice(context().device(d).gpu_ordinal()) != cudaSuccess) continue;
    if (state_->ready[d]) cudaEventDestroy(state_->ready[d]);
    if (state_->done[d]) cudaEventDestroy(state_->done[d]);
  }
}

std::string NcclReducer::description() const {
  return "nccl (" + nccl_->description() + ")";
}

void NcclReducer::begin(int64_t n, std::size_t elem, int chunks) {
  State& s = *state_;
  s.mode = State::Mode::Sum;
  s.n = n;
  s.elem = elem;
  s.pipelined = chunks > 1;
  s.zeroed.assign(context().num_devices(), false);
  for (int d = 0; d < context().num_devices(); ++d)
    grown(s.sum, context(), d, static_cast<std::size_t>(n) * elem);
}

template <Scalar T>
void NcclReducer::add_impl(int64_t n, const void* const* parts, int64_t lo, int64_t hi) {
  Context& ctx = context();
  State& s = *state_;
  const int P = ctx.num_devices();
  std::vector<const T*> send(P);
  std::vector<T*> recv(P);
  std::vector<cudaStream_t> streams(P);
  for (int d = 0; d < P; ++d) {
    const Device& dev = ctx.device(d);
    dev.make_current();
    const T* part = static_cast<const T*>(parts[d]);
    if (!part) {
      // Every device joins the collective; one with nothing to add sends zeros.
      T* z = reinterpret_cast<T*>(grown(s.zeros, ctx, d, static_cast<std::size_t>(n) * sizeof(T)));
      if (!s.zeroed[d])
        memset_bytes(dev, z, 0, static_cast<std::size_t>(n) * sizeof(T), /*async=*/true);
      s.zeroed[d] = true;
      part = z;
    }
    send[d] = part + lo;
    recv[d] = reinterpret_cast<T*>(s.sum[d].data()) + lo;
    streams[d] = dev.stream();
    if (s.pipelined) {
      // The collective waits for this chunk's products only; the device stream goes on
      // with the next chunk meanwhile.
      MGBLAS_CHECK_CUDA(cudaEventRecord(s.ready[d], dev.stream()));
      MGBLAS_CHECK_CUDA(cudaStreamWaitEvent(nccl_->stream(d), s.ready[d], 0));
      streams[d] = nccl_->stream(d);
    }
  }
  nccl_->allreduce_sum<T>(send, recv, hi - lo, streams);
}

template <Scalar T>
void NcclReducer::add_columns_impl(const BlockCyclic1D& L, int64_t c0,
                                   const void* const* locals) {
  Context& ctx = context();
  State& s = *state_;
  const int P = ctx.num_devices();
  s.mode = State::Mode::Gather;
  s.columns.clear();
  for (int g = 0; g < L.num_devices(); ++g) s.columns.push_back(local_columns(L, g, c0, L.n()));
  s.c0 = c0;
  s.stride = max_local_count(L, c0);
  s.pipelined = false;
  const std::size_t piece = static_cast<std::size_t>(s.stride) * sizeof(T);
  std::vector<const T*> send(P);
  std::vector<T*> recv(P);
  for (int d = 0; d < P; ++d) {
    recv[d] = reinterpret_cast<T*>(
        grown(s.gathered, ctx, d, piece * static_cast<std::size_t>(L.num_devices())));
    // A device without columns sends padding: any memory of the right size will do.
    send[d] = locals[d] ? static_cast<const T*>(locals[d])
                        : reinterpret_cast<const T*>(grown(s.zeros, ctx, d, piece));
  }
  nccl_->allgather<T>(send, recv, s.stride, device_streams(ctx));
}

void NcclReducer::settle() {}

void NcclReducer::cancel() noexcept { nccl_->abort(); }

template <Scalar T>
void NcclReducer::finish_impl(int64_t n, T beta, const ReduceOutput<T>& y) {
  Context& ctx = context();
  State& s = *state_;
  const int P = ctx.num_devices();
  const bool to_host = y.devices.empty();
  for (int d = 0; d < P; ++d) {
    const Device& dev = ctx.device(d);
    dev.make_current();
    if (s.pipelined) {
      MGBLAS_CHECK_CUDA(cudaEventRecord(s.done[d], nccl_->stream(d)));
      MGBLAS_CHECK_CUDA(cudaStreamWaitEvent(dev.stream(), s.done[d], 0));
    }
    T* sum = reinterpret_cast<T*>(s.sum[d].data());
    if (s.mode == State::Mode::Gather) {
      // Device outputs take beta here; a host output gets it on the host below.
      const T* gathered = reinterpret_cast<const T*>(s.gathered[d].data());
      if (!to_host)
        scatter_columns(Queue(dev), s.columns, gathered, s.stride, s.c0, beta, y.devices[d]);
      else if (d == 0)
        scatter_columns(Queue(dev), s.columns, gathered, s.stride, s.c0, T(0), sum);
    } else if (!to_host) {
      finish_sum(Queue(dev), n, static_cast<const T*>(sum), beta, y.devices[d]);
    }
  }
  T* staged = nullptr;
  if (to_host) {
    const std::size_t bytes = static_cast<std::size_t>(n) * sizeof(T);
    if (s.host.size() < bytes) {
      s.host = PinnedBuffer<std::byte>();
      s.host = PinnedBuffer<std::byte>(bytes);
    }
    staged = reinterpret_cast<T*>(s.host.data());
    ctx.device(0).make_current();
    copy_vector(ctx.device(0), n, reinterpret_cast<const T*>(s.sum[0].data()), staged,
                /*async=*/true);
  }
  // Every device's collective must be complete before returning, not only device 0's.
  nccl_->wait(device_streams(ctx));
  if (to_host) finish_sum_host(n, static_cast<const T*>(staged), beta, y.host);
}

void NcclReducer::add(DataType type, int64_t n, const void* const* parts, int64_t lo,
                      int64_t hi) {
  visit_scalar(type, [&](auto tag) {
    add_impl<typename decltype(tag)::type>(n, parts, lo, hi);
  }, "NcclReducer::add");
}

void NcclReducer::add_columns(DataType type, const BlockCyclic1D& L, int64_t c0,
                              const void* const* locals) {
  visit_scalar(type, [&](auto tag) {
    add_columns_impl<typename decltype(tag)::type>(L, c0, locals);
  }, "NcclReducer::add_columns");
}

void NcclReducer::finish(DataType type, int64_t n, const void* beta,
                         const ReduceOutput<void>& y) {
  visit_scalar(type, [&](auto tag) {
    using T = typename decltype(tag)::type;
    finish_impl<T>(n, *static_cast<const T*>(beta), typed<T>(y));
  }, "NcclReducer::finish");
}

#else  // no NCCL: the constructor says so; nothing else is reachable.

struct NcclReducer::State {};

NcclReducer::NcclReducer(std::shared_ptr<Context> ctx)
    : Reducer(std::move(ctx), ReducerKind::Nccl) {
  MGBLAS_THROW(NotCompiled, "ReducerKind::Nccl: this build of mgblas has no NCCL");
}
NcclReducer::~NcclReducer() = default;
std::string NcclReducer::description() const { return "nccl (not compiled)"; }
void NcclReducer::begin(int64_t, std::size_t, int) {}
void NcclReducer::settle() {}
void NcclReducer::cancel() noexcept {}
void NcclReducer::add(DataType, int64_t, const void* const*, int64_t, int64_t) {}
void NcclReducer::add_columns(DataType, const BlockCyclic1D&, int64_t, const void* const*) {}
void NcclReducer::finish(DataType, int64_t, const void*, const ReduceOutput<void>&) {}

#endif

}  // namespace mgblas
