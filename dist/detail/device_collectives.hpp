// SPDX-License-Identifier: BSD-3-Clause
// DeviceCollectives (private to dist): sums and broadcasts of one buffer per device over
// every device of every rank, for drivers that communicate many times per call (the
// reductions of dist/lapack: one sum per column, one broadcast per panel).
//
// Unlike a Reducer, a collective here neither agrees over the ranks first nor waits: on
// GPUs with NCCL it is queued on each device's own stream, in order with the kernels
// around it, so a driver's loop never synchronises with the host. Without NCCL (host
// devices, or GPUs where NCCL is unavailable) it stages through host memory and MPI and
// returns when done. The driver validates its arguments over the ranks before its first
// collective and calls wait() at the end, which also surfaces NCCL's asynchronous
// errors and time limit (MGBLAS_NCCL_TIMEOUT).
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "core/context.hpp"
#include "core/memory.hpp"
#include "core/types.hpp"
#include "dist/reducer.hpp"

namespace mgblas {
class NcclCommunicator;
}

namespace mgblas::detail {

class DeviceCollectives {
 public:
  /// `kind` as for make_reducer (Auto: NCCL when every device is a distinct GPU and NCCL
  /// is built, else host staging). Collective over ctx's ranks when NCCL is chosen.
  explicit DeviceCollectives(Context& ctx, ReducerKind kind = ReducerKind::Auto);
  ~DeviceCollectives();
  DeviceCollectives(const DeviceCollectives&) = delete;
  DeviceCollectives& operator=(const DeviceCollectives&) = delete;

  bool uses_nccl() const noexcept { return nccl_ != nullptr; }
  Context& context() const noexcept { return ctx_; }

  /// bufs[d][i] = sum over every device of every rank of its bufs[i], for i < count;
  /// bufs[d] is count elements of memory of local device d.
  template <Scalar T>
  void allreduce_sum(const std::vector<T*>& bufs, int64_t count);

  /// bufs[d][i] = the root's bufs[i] for every local device d; `root` is a global device.
  template <Scalar T>
  void broadcast(const std::vector<T*>& bufs, int64_t count, int root);

  /// Wait for everything queued on this rank's devices (NCCL: polling its errors).
  void wait();

 private:
  template <Scalar T>
  T* staging(int64_t count);

  Context& ctx_;
  std::shared_ptr<NcclCommunicator> nccl_;
  std::vector<cudaStream_t> streams_;
  PinnedBuffer<std::byte> staging_;
};

}  // namespace mgblas::detail
