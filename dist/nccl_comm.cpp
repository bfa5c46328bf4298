// SPDX-License-Identifier: BSD-3-Clause
#include "dist/nccl_comm.hpp"

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <set>
#include <sstream>
#include <thread>

#include "core/config.hpp"
#include "core/error.hpp"
#include "core/memory.hpp"

#if MGBLAS_HAVE_NCCL
#include <cuda_runtime.h>
#include <nccl.h>

#include "core/detail/cuda_check.hpp"
#include "dist/detail/nccl_check.hpp"
#endif

namespace mgblas {

namespace {
constexpr const char* kAttachmentKey = "mgblas.dist.nccl";

[[maybe_unused]] double timeout_seconds() {
  const char* v = std::getenv("MGBLAS_NCCL_TIMEOUT");
  if (!v || !*v) return 300.0;
  char* end = nullptr;
  const double s = std::strtod(v, &end);
  if (*end != '\0' || !(s > 0))
    MGBLAS_THROW(BadArgument, "environment MGBLAS_NCCL_TIMEOUT = '", v,
                 "': must be a positive number of seconds");
  return s;
}
}  // namespace

struct NcclCommunicator::Impl {
  Context* ctx = nullptr;
  bool aborted = false;
  double timeout_s = 300.0;
#if MGBLAS_HAVE_NCCL
  std::vector<ncclComm_t> comms;      // one per local device, in local order
  std::vector<cudaStream_t> streams;  // the communicator's own stream per local device
#endif
};

bool NcclCommunicator::available() noexcept { return MGBLAS_HAVE_NCCL != 0; }

std::shared_ptr<NcclCommunicator> NcclCommunicator::of(Context& ctx) {
  auto& slot = ctx.attachment(kAttachmentKey);
  auto cached = std::static_pointer_cast<NcclCommunicator>(slot);
  if (cached && !cached->aborted()) return cached;
  // Free an aborted one first: its streams and memory are of no further use.
  slot.reset();
  cached.reset();
  std::shared_ptr<NcclCommunicator> made(new NcclCommunicator(ctx));
  slot = made;
  return made;
}

Context& NcclCommunicator::context() const noexcept { return *impl_->ctx; }
int NcclCommunicator::size() const noexcept { return impl_->ctx->global_num_devices(); }
bool NcclCommunicator::aborted() const noexcept { return impl_->aborted; }

#if MGBLAS_HAVE_NCCL

namespace {

// Every device of every rank as "host/pci-bus-id", in global device order.
std::vector<std::string> global_gpu_names(const Context& ctx) {
  std::ostringstream mine;
  for (int d = 0; d < ctx.num_devices(); ++d)
    mine << ctx.comm().hostname() << '/' << ctx.device(d).pci_bus_id() << '\n';
  std::vector<std::string> names;
  for (const auto& part : ctx.comm().allgather(mine.str())) {
    std::istringstream lines(part);
    for (std::string line; std::getline(lines, line);) names.push_back(line);
  }
  return names;
}

// Closes the group of operations that `first` (the first failure, or success) ended
// and raises if anything failed. Peers may have queued their part already: a failure
// aborts the communicators, ending everything, before raising.
void end_group(NcclCommunicator& c, ncclResult_t first, const char* call, const char* func) {
  const ncclResult_t end = ncclGroupEnd();
  if (first == ncclSuccess && end == ncclSuccess) return;
  c.abort();
  detail::throw_nccl(__FILE__, __LINE__, func, first != ncclSuccess ? call : "ncclGroupEnd",
                     first != ncclSuccess ? first : end);
}

}  // namespace

NcclCommunicator::NcclCommunicator(Context& ctx) : impl_(std::make_unique<Impl>()) {
  impl_->ctx = &ctx;
  const Communicator& comm = ctx.comm();
  const int P = ctx.num_devices();
  ncclUniqueId id{};

  // Phase 1, local checks; rank 0 also draws the unique id (only ranks > 1 need it).
  all_or_nothing(comm, "NcclCommunicator", [&] {
    impl_->timeout_s = timeout_seconds();
    if (ctx.backend() != Backend::Cuda || P == 0)
      MGBLAS_THROW(BadArgument, "NCCL reductions need every device to be a GPU; this context "
                                "has ", to_string(ctx.backend()), " devices (use the host reducer)");
    if (ctx.rank() == 0 && ctx.nranks() > 1) MGBLAS_CHECK_NCCL(ncclGetUniqueId(&id));
  });

  // NCCL takes each GPU once. Every rank sees the same list, so every rank raises alike.
  const auto names = global_gpu_names(ctx);
  if (std::set<std::string>(names.begin(), names.end()).size() != names.size())
    MGBLAS_THROW(NotImplemented, "NCCL reductions need distinct GPUs, but some GPU drives two "
                                 "devices of the context (more ranks than GPUs?); use the host "
                                 "reducer");
  comm.bcast(&id, sizeof id, 0);

  // Phase 2, the communicators and streams. On a failure anywhere, whatever this rank
  // made is released (aborted: peers may have failed half-way).
  impl_->comms.assign(P, nullptr);
  impl_->streams.assign(P, nullptr);
  // Outside the try: freeing waits for the device, so only after a failure's abort().
  std::vector<DeviceBuffer<float>> bufs;
  try {
    all_or_nothing(comm, "NcclCommunicator", [&] {
      std::vector<int> ordinals(P);
      for (int d = 0; d < P; ++d) ordinals[d] = ctx.device(d).gpu_ordinal();
      if (ctx.nranks() == 1) {
        MGBLAS_CHECK_NCCL(ncclCommInitAll(impl_->comms.data(), P, ordinals.data()));
      } else {
        // One thread drives several devices: their inits must be one group, or the
        // first would wait for the others forever. The group is always closed.
        const int G = ctx.global_num_devices();
        ncclResult_t first = ncclSuccess;
        MGBLAS_CHECK_NCCL(ncclGroupStart());
        for (int d = 0; d < P && first == ncclSuccess; ++d) {
          if (cudaSetDevice(ordinals[d]) != cudaSuccess) first = ncclUnhandledCudaError;
          else first = ncclCommInitRank(&impl_->comms[d], G, id, ctx.device_offset() + d);
        }
        const ncclResult_t end = ncclGroupEnd();
        if (first != ncclSuccess)
          detail::throw_nccl(__FILE__, __LINE__, __func__, "ncclCommInitRank", first);
        MGBLAS_CHECK_NCCL(end);
      }
      for (int d = 0; d < P; ++d) {
        MGBLAS_CHECK_CUDA(cudaSetDevice(ordinals[d]));
        MGBLAS_CHECK_CUDA(cudaStreamCreateWithFlags(&impl_->streams[d], cudaStreamNonBlocking));
      }
    });

    // Connections are made on first use; make them now, while every rank is known to
    // be here, rather than inside a later operation that a failing peer may never join.
    // Queuing and waiting are separate agreements: a rank whose queuing failed never
    // joins, so the others must learn that before they wait for it.
    all_or_nothing(comm, "NcclCommunicator (first collectives)", [&] {
      const int G = ctx.global_num_devices();
      for (int d = 0; d < P; ++d) {
        bufs.emplace_back(ctx.device(d), static_cast<std::size_t>(G + 1));
        MGBLAS_CHECK_CUDA(cudaMemsetAsync(bufs[d].data(), 0, sizeof(float) * (G + 1),
                                          impl_->streams[d]));
      }
      std::vector<const float*> send(P);
      std::vector<float*> reduced(P), gathered(P);
      for (int d = 0; d < P; ++d) {
        send[d] = reduced[d] = bufs[d].data();
        gathered[d] = bufs[d].data() + 1;
      }
      allreduce_sum<float>(send, reduced, 1, impl_->streams);
      allgather<float>(send, gathered, 1, impl_->streams);
    });
    all_or_nothing(comm, "NcclCommunicator (first collectives)", [&] { wait(impl_->streams); });
  } catch (...) {
    abort();
    for (int d = 0; d < P; ++d)
      if (impl_->streams[d] && cudaSetDevice(ctx.device(d).gpu_ordinal()) == cudaSuccess)
        cudaStreamDestroy(impl_->streams[d]);
    impl_->streams.clear();
    throw;
  }
}

NcclCommunicator::~NcclCommunicator() {
  const Context& ctx = *impl_->ctx;
  // Finalizing waits for the peers' finalize; the communicators of one thread therefore
  // finalize in one group (destroying them one by one would have the first wait for the
  // second forever), then each is freed. Errors cannot be reported from here: a failed
  // finalize ends in an abort instead.
  if (!impl_->aborted) {
    bool finalized = ncclGroupStart() == ncclSuccess;
    if (finalized) {
      for (ncclComm_t c : impl_->comms)
        if (c && ncclCommFinalize(c) != ncclSuccess) finalized = false;
      finalized = ncclGroupEnd() == ncclSuccess && finalized;
    }
    for (ncclComm_t c : impl_->comms)
      if (c) finalized ? ncclCommDestroy(c) : ncclCommAbort(c);
  }
  for (std::size_t d = 0; d < impl_->streams.size(); ++d)
    if (impl_->streams[d] &&
        cudaSetDevice(ctx.device(static_cast<int>(d)).gpu_ordinal()) == cudaSuccess)
      cudaStreamDestroy(impl_->streams[d]);
}

std::string NcclCommunicator::description() const {
  int v = 0;
  ncclGetVersion(&v);
  return detail::concat("NCCL ", v / 10000, ".", (v / 100) % 100, ".", v % 100, ", ", size(),
                        " GPUs over ", impl_->ctx->nranks(), " rank(s)");
}

cudaStream_t NcclCommunicator::stream(int d) const { return impl_->streams.at(d); }

void NcclCommunicator::run(Collective c, const void* const* send, void* const* recv,
                           std::size_t reals, bool is_double, const cudaStream_t* streams,
                           int root) {
  if (impl_->aborted)
    MGBLAS_THROW(NcclError, "the NCCL communicator was aborted after an earlier failure; a new "
                            "reducer makes a new one");
  const ncclDataType_t type = is_double ? ncclFloat64 : ncclFloat32;
  const int P = static_cast<int>(impl_->comms.size());
  ncclResult_t first = ncclSuccess;
  const char* call = c == Collective::AllReduce   ? "ncclAllReduce"
                     : c == Collective::AllGather ? "ncclAllGather"
                                                  : "ncclBroadcast";
  // Several devices of one thread: one group, so NCCL launches them together.
  MGBLAS_CHECK_NCCL(ncclGroupStart());
  for (int d = 0; d < P && first == ncclSuccess; ++d) {
    cudaStream_t s = streams && streams[d] ? streams[d] : impl_->streams[d];
    switch (c) {
      case Collective::AllReduce:
        first = ncclAllReduce(send[d], recv[d], reals, type, ncclSum, impl_->comms[d], s);
        break;
      case Collective::AllGather:
        first = ncclAllGather(send[d], recv[d], reals, type, impl_->comms[d], s);
        break;
      case Collective::Broadcast:
        first = ncclBroadcast(send[d], recv[d], reals, type, root, impl_->comms[d], s);
        break;
      default:
        first = ncclInvalidArgument;  // raised below, after the group is closed
        break;
    }
  }
  end_group(*this, first, call, __func__);
}

void NcclCommunicator::alltoallv(const std::vector<const void*>& send,
                                 const std::vector<Transfers>& sends,
                                 const std::vector<void*>& recv,
                                 const std::vector<Transfers>& recvs,
                                 const std::vector<cudaStream_t>& streams) {
  if (impl_->aborted)
    MGBLAS_THROW(NcclError, "the NCCL communicator was aborted after an earlier failure; a new "
                            "reducer makes a new one");
  const int P = static_cast<int>(impl_->comms.size());
  const int G = size();
  const char* call = "ncclSend";
  ncclResult_t first = ncclSuccess;
  // Every device's sends and receives in one group: NCCL pairs them up and runs them
  // concurrently, so no ordering of the pairs can deadlock.
  MGBLAS_CHECK_NCCL(ncclGroupStart());
  for (int d = 0; d < P && first == ncclSuccess; ++d) {
    cudaStream_t s = streams[d] ? streams[d] : impl_->streams[d];
    const auto* out = static_cast<const std::byte*>(send[d]);
    auto* in = static_cast<std::byte*>(recv[d]);
    for (int q = 0; q < G && first == ncclSuccess; ++q) {
      if (const std::size_t b = sends[d].bytes[q]; b > 0) {
        call = "ncclSend";
        first = ncclSend(out + sends[d].offset[q], b, ncclInt8, q, impl_->comms[d], s);
      }
      if (const std::size_t b = recvs[d].bytes[q]; b > 0 && first == ncclSuccess) {
        call = "ncclRecv";
        first = ncclRecv(in + recvs[d].offset[q], b, ncclInt8, q, impl_->comms[d], s);
      }
    }
  }
  end_group(*this, first, call, __func__);
}

void NcclCommunicator::wait(const std::vector<cudaStream_t>& streams) {
  using clock = std::chrono::steady_clock;
  const auto deadline = clock::now() + std::chrono::duration<double>(impl_->timeout_s);
  const Context& ctx = *impl_->ctx;
  for (;;) {
    bool done = true;
    for (std::size_t d = 0; d < streams.size(); ++d) {
      if (!streams[d]) continue;
      MGBLAS_CHECK_CUDA(cudaSetDevice(ctx.device(static_cast<int>(d)).gpu_ordinal()));
      const cudaError_t e = cudaStreamQuery(streams[d]);
      if (e == cudaErrorNotReady) {
        done = false;
      } else if (e != cudaSuccess) {
        abort();
        MGBLAS_CHECK_CUDA(e);
      }
    }
    if (done) return;
    for (ncclComm_t c : impl_->comms) {
      ncclResult_t async = ncclSuccess;
      const ncclResult_t q = ncclCommGetAsyncError(c, &async);
      const ncclResult_t bad = q != ncclSuccess ? q : async;
      if (bad != ncclSuccess && bad != ncclInProgress) {
        abort();
        detail::throw_nccl(__FILE__, __LINE__, __func__, "NCCL operation (asynchronous error)", bad);
      }
    }
    if (clock::now() > deadline) {
      abort();
      const std::string message = detail::concat(
          "NCCL operation did not complete within ", impl_->timeout_s, " s on rank ", ctx.rank(),
          " (a peer failed or stopped?); the communicator was aborted. MGBLAS_NCCL_TIMEOUT sets "
          "the limit");
      // As for the MPI collectives' timeout: the job ends here when asked to, since the
      // peer that never joined would keep MPI_Finalize waiting.
      if (ctx.comm().abort_on_timeout()) Communicator::abort_job(message);
      MGBLAS_THROW(NcclError, message);
    }
    std::this_thread::yield();
  }
}

void NcclCommunicator::abort() noexcept {
  for (ncclComm_t& c : impl_->comms) {
    if (c) ncclCommAbort(c);
    c = nullptr;
  }
  impl_->aborted = true;
}

#else  // no NCCL: nothing can be made, so the members below are never reached.

NcclCommunicator::NcclCommunicator(Context& ctx) : impl_(std::make_unique<Impl>()) {
  impl_->ctx = &ctx;
  MGBLAS_THROW(NotCompiled, "NCCL: mgblas was built without NCCL (MGBLAS_ENABLE_NCCL=OFF)");
}
NcclCommunicator::~NcclCommunicator() = default;
std::string NcclCommunicator::description() const { return "NCCL not compiled"; }
cudaStream_t NcclCommunicator::stream(int) const { return nullptr; }
void NcclCommunicator::run(Collective, const void* const*, void* const*, std::size_t, bool,
                           const cudaStream_t*, int) {
  MGBLAS_THROW(NotCompiled, "NCCL: mgblas was built without NCCL");
}
void NcclCommunicator::alltoallv(const std::vector<const void*>&, const std::vector<Transfers>&,
                                 const std::vector<void*>&, const std::vector<Transfers>&,
                                 const std::vector<cudaStream_t>&) {
  MGBLAS_THROW(NotCompiled, "NCCL: mgblas was built without NCCL");
}
void NcclCommunicator::wait(const std::vector<cudaStream_t>&) {}
void NcclCommunicator::abort() noexcept { impl_->aborted = true; }

#endif

}  // namespace mgblas
