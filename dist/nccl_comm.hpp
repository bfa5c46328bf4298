// SPDX-License-Identifier: BSD-3-Clause
// NcclCommunicator: NCCL communicators over every GPU of every rank of a Context, the
// device-side data path of the distributed operations (MPI keeps the control path).
//
// One NCCL communicator per local GPU, ranked in the Context's global device order
// (local device d of rank r is NCCL rank ctx.device_offset(r) + d), so layouts and
// NCCL agree on who is who. Made on first use and kept with the Context (destroyed with
// it); one rank alone uses ncclCommInitAll, several ranks ncclCommInitRank per device in
// one group with the unique id broadcast over the Context's Communicator.
//
// Failures. Creation agrees over the ranks like every collective of the library: a
// failure anywhere raises on every rank. While waiting for NCCL work, wait() polls each
// communicator's asynchronous error (and a time limit, env MGBLAS_NCCL_TIMEOUT seconds,
// default 300); on an error it aborts this rank's communicators, which ends their
// in-flight operations, before raising NcclError. An aborted communicator cannot be used
// again: NcclCommunicator::of makes a new one (collectively) on the next request.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "core/context.hpp"
#include "core/types.hpp"

namespace mgblas {

class NcclCommunicator {
 public:
  /// The communicator of ctx, made on the first call and again after an abort. Making it
  /// is collective over ctx's ranks (every rank must then call), later calls are local.
  /// Throws NotCompiled without NCCL; BadArgument when a device of ctx is not a GPU;
  /// NotImplemented (on every rank) when two devices of the context are the same GPU,
  /// which NCCL does not allow; NcclError / CudaError (failing rank) and RemoteError
  /// (the others) when making it fails.
  static std::shared_ptr<NcclCommunicator> of(Context& ctx);
  /// Whether this build of mgblas has NCCL.
  static bool available() noexcept;

  ~NcclCommunicator();
  NcclCommunicator(const NcclCommunicator&) = delete;
  NcclCommunicator& operator=(const NcclCommunicator&) = delete;

  Context& context() const noexcept;
  /// Devices of all ranks (NCCL ranks).
  int size() const noexcept;
  /// True after an error aborted the communicators.
  bool aborted() const noexcept;
  /// "NCCL 2.28.9, 4 GPUs over 2 ranks" style text for reports.
  std::string description() const;
  /// A stream of local device d owned by the communicator, for NCCL work that should
  /// overlap the work on the device's own stream.
  cudaStream_t stream(int d) const;

  /// Sum of `count` elements over every device of every rank: recv[d] = sum over all
  /// devices of send, for each local device d (send[d] == recv[d]: in place). Queued on
  /// streams[d] (memory of device d), not waited for. Collective over all ranks.
  template <Scalar T>
  void allreduce_sum(const std::vector<const T*>& send, const std::vector<T*>& recv,
                     int64_t count, const std::vector<cudaStream_t>& streams);
  /// recv[d][k * count + i] = send of global device k, element i; queued as above.
  template <Scalar T>
  void allgather(const std::vector<const T*>& send, const std::vector<T*>& recv, int64_t count,
                 const std::vector<cudaStream_t>& streams);

  /// recv[d][i] = buf of global device `root`, element i, for each local device d (the
  /// root's own entry is its send buffer; bufs[d] is both send and receive buffer of
  /// local device d: in place). Queued as above.
  template <Scalar T>
  void broadcast(const std::vector<T*>& bufs, int64_t count, int root,
                 const std::vector<cudaStream_t>& streams);
  /// Bytes one device exchanges with each global device: bytes[q] at offset[q] of its
  /// buffer, for q < size().
  struct Transfers {
    std::vector<std::size_t> bytes, offset;
  };
  /// Point to point between every pair of devices: local device d sends sends[d].bytes[q]
  /// bytes from send[d] + sends[d].offset[q] to global device q and receives
  /// recvs[d].bytes[q] bytes from q at recv[d] + recvs[d].offset[q] (memory of device d;
  /// zero-byte entries are skipped; a device's entries for itself must be zero). Every
  /// pair's counts must agree between its two ends. One group, queued on streams[d],
  /// not waited for. Collective over all ranks.
  void alltoallv(const std::vector<const void*>& send, const std::vector<Transfers>& sends,
                 const std::vector<void*>& recv, const std::vector<Transfers>& recvs,
                 const std::vector<cudaStream_t>& streams);

  /// Wait until the work queued on streams[d] (one entry per local device; nullptr
  /// skips) has completed, polling the communicators' asynchronous errors and the time
  /// limit meanwhile. On an error or at the limit: abort(), then raise NcclError (or
  /// CudaError for a failed stream).
  void wait(const std::vector<cudaStream_t>& streams);

  /// Abort this rank's communicators: their queued and running operations end, and the
  /// communicator is marked aborted. Never throws.
  void abort() noexcept;

 private:
  explicit NcclCommunicator(Context& ctx);
  enum class Collective { AllReduce, AllGather, Broadcast };
  void run(Collective c, const void* const* send, void* const* recv, std::size_t reals,
           bool is_double, const cudaStream_t* streams, int root = 0);

  struct Impl;
  std::unique_ptr<Impl> impl_;
};

template <Scalar T>
void NcclCommunicator::allreduce_sum(const std::vector<const T*>& send,
                                     const std::vector<T*>& recv, int64_t count,
                                     const std::vector<cudaStream_t>& streams) {
  // NCCL has no complex type; a complex sum is the sum of its real and imaginary parts.
  constexpr std::size_t kReals = is_complex_v<T> ? 2 : 1;
  std::vector<const void*> s(send.begin(), send.end());
  std::vector<void*> r(recv.begin(), recv.end());
  run(Collective::AllReduce, s.data(), r.data(), kReals * static_cast<std::size_t>(count),
      sizeof(real_type_t<T>) == 8, streams.data());
}

template <Scalar T>
void NcclCommunicator::allgather(const std::vector<const T*>& send, const std::vector<T*>& recv,
                                 int64_t count, const std::vector<cudaStream_t>& streams) {
  constexpr std::size_t kReals = is_complex_v<T> ? 2 : 1;
  std::vector<const void*> s(send.begin(), send.end());
  std::vector<void*> r(recv.begin(), recv.end());
  run(Collective::AllGather, s.data(), r.data(), kReals * static_cast<std::size_t>(count),
      sizeof(real_type_t<T>) == 8, streams.data());
}

template <Scalar T>
void NcclCommunicator::broadcast(const std::vector<T*>& bufs, int64_t count, int root,
                                 const std::vector<cudaStream_t>& streams) {
  constexpr std::size_t kReals = is_complex_v<T> ? 2 : 1;
  std::vector<const void*> s(bufs.begin(), bufs.end());
  std::vector<void*> r(bufs.begin(), bufs.end());
  run(Collective::Broadcast, s.data(), r.data(), kReals * static_cast<std::size_t>(count),
      sizeof(real_type_t<T>) == 8, streams.data(), root);
}

}  // namespace mgblas
