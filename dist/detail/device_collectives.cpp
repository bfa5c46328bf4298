// SPDX-License-Identifier: BSD-3-Clause
#include "dist/detail/device_collectives.hpp"

#include <cstring>

#include "core/error.hpp"
#include "dist/nccl_comm.hpp"

namespace mgblas::detail {

DeviceCollectives::DeviceCollectives(Context& ctx, ReducerKind kind) : ctx_(ctx) {
  if (resolve_reducer_kind(ctx, kind) != ReducerKind::Nccl) return;
  try {
    nccl_ = NcclCommunicator::of(ctx);
  } catch (const NotImplemented&) {
    // Two devices on one GPU: every rank learns it from the same list and falls back.
    if (kind != ReducerKind::Auto) throw;
  }
  for (int d = 0; d < ctx.num_devices(); ++d) streams_.push_back(ctx.device(d).stream());
}

DeviceCollectives::~DeviceCollectives() = default;

template <Scalar T>
T* DeviceCollectives::staging(int64_t count) {
  const std::size_t bytes = static_cast<std::size_t>(count) * sizeof(T);
  if (staging_.size() < bytes) staging_ = PinnedBuffer<std::byte>(bytes);
  return reinterpret_cast<T*>(staging_.data());
}

template <Scalar T>
void DeviceCollectives::allreduce_sum(const std::vector<T*>& bufs, int64_t count) {
  if (count <= 0) return;
  if (ctx_.global_num_devices() == 1) return;
  if (nccl_) {
    nccl_->allreduce_sum<T>(std::vector<const T*>(bufs.begin(), bufs.end()), bufs, count,
                            streams_);
    return;
  }
  // Host staging: the local sum in pinned memory, MPI across ranks, back to each device.
  T* sum = staging<T>(count);
  const int P = ctx_.num_devices();
  for (int d = 0; d < P; ++d) {
    const Device& dev = ctx_.device(d);
    if (!dev.is_gpu()) {
      if (d == 0) std::memcpy(sum, bufs[0], static_cast<std::size_t>(count) * sizeof(T));
      else
        for (int64_t i = 0; i < count; ++i) sum[i] += bufs[d][i];
      continue;
    }
    std::vector<T> part(static_cast<std::size_t>(count));
    dev.make_current();
    copy_vector(dev, count, bufs[d], part.data());
    for (int64_t i = 0; i < count; ++i) sum[i] = d == 0 ? part[i] : sum[i] + part[i];
  }
  ctx_.comm().allreduce_sum(sum, count);
  for (int d = 0; d < P; ++d) {
    const Device& dev = ctx_.device(d);
    dev.make_current();
    copy_vector(dev, count, static_cast<const T*>(sum), bufs[d]);
  }
}

template <Scalar T>
void DeviceCollectives::broadcast(const std::vector<T*>& bufs, int64_t count, int root) {
  if (count <= 0 || ctx_.global_num_devices() == 1) return;
  if (nccl_) {
    nccl_->broadcast<T>(bufs, count, root, streams_);
    return;
  }
  const int root_rank = ctx_.rank_of_device(root);
  const int root_local = ctx_.local_index_of(root);
  T* h = staging<T>(count);
  if (root_local >= 0) {
    const Device& dev = ctx_.device(root_local);
    dev.make_current();
    copy_vector(dev, count, static_cast<const T*>(bufs[root_local]), h);
  }
  if (ctx_.nranks() > 1)
    ctx_.comm().bcast(h, static_cast<std::size_t>(count) * sizeof(T), root_rank);
  for (int d = 0; d < ctx_.num_devices(); ++d) {
    if (d == root_local) continue;
    const Device& dev = ctx_.device(d);
    dev.make_current();
    copy_vector(dev, count, static_cast<const T*>(h), bufs[d]);
  }
}

void DeviceCollectives::wait() {
  if (nccl_) {
    nccl_->wait(streams_);
    return;
  }
  ctx_.synchronize();
}

#define MGBLAS_INSTANTIATE(T)                                                         \
  template void DeviceCollectives::allreduce_sum<T>(const std::vector<T*>&, int64_t); \
  template void DeviceCollectives::broadcast<T>(const std::vector<T*>&, int64_t, int);
MGBLAS_FOR_EACH_SCALAR(MGBLAS_INSTANTIATE)
#undef MGBLAS_INSTANTIATE

}  // namespace mgblas::detail
