// SPDX-License-Identifier: BSD-3-Clause
// Context: the devices this process drives and the communicator joining it to the
// other ranks. Every operation of the library takes one.
//
// Devices across ranks form one ordered list: local device d of rank r is global
// device device_offset(r) + d. Layouts speak of global devices only.
#pragma once

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "core/communicator.hpp"
#include "core/device.hpp"

namespace mgblas {

enum class BackendChoice { Auto, Host, Cuda };

struct ContextOptions {
  /// Auto: CUDA when a GPU is visible, else host. Env MGBLAS_BACKEND=auto|host|cuda
  /// overrides the default (not an explicit Host/Cuda here).
  BackendChoice backend = BackendChoice::Auto;
  /// CUDA ordinals for this rank. Empty: env MGBLAS_DEVICES ("0,1" or "all"), else
  /// this rank's share of the node's GPUs, chosen by locality (hwloc).
  std::vector<int> gpus;
  /// GPUs per rank when chosen automatically; 0 = all GPUs of the node split evenly
  /// over its ranks (at least 1 each).
  int gpus_per_rank = 0;
  /// Host devices (host back-end). 0: env MGBLAS_HOST_DEVICES, else 1.
  int host_devices = 0;
  /// Bind the calling thread to the CPUs close to its first GPU when the process is
  /// not bound already (env MGBLAS_BIND=0 disables).
  bool bind = true;
  /// Whether collective calls also compare digests of their replicated inputs (host x,
  /// replicated DistVectors, y when beta != 0) across ranks: O(n) beside the O(n^2)
  /// work; a GPU-resident vector is digested by a kernel, and the call waits for it. -1: env
  /// MGBLAS_VERIFY_INPUTS=0|1, else on in debug builds (NDEBUG undefined), off otherwise.
  int verify_inputs = -1;
  /// Whether a collective that times out (Communicator::timeout(), or an NCCL wait past
  /// MGBLAS_NCCL_TIMEOUT) ends the job instead of raising Timeout (NcclError): the message goes to stderr, then MPI_Abort(MPI_COMM_WORLD,
  /// kTimeoutAbortCode) ends every rank. Use it where no one would handle the error, or
  /// the job would then hang in MPI_Finalize. -1: env MGBLAS_ABORT_ON_TIMEOUT=0|1, else
  /// off. Applies to the context's communicator (and its copies).
  int abort_on_timeout = -1;
};

/// How this rank was placed: one entry per local device.
struct BindingInfo {
  int rank = 0;
  int local_rank = 0;
  std::string host;
  std::string device;  // "cuda:1" or "host:0"
  std::string pci_bus_id;
  std::string cpuset;  // CPUs the rank's thread runs on
  std::string gpu_cpuset;  // CPUs closest to the GPU (hwloc); empty for a host device or unknown
  /// Who bound the thread: "mgblas" (near the first GPU), "launcher" (bound before
  /// mgblas looked, e.g. by mpirun), or "none".
  std::string bound_by = "none";
};

class Context {
 public:
  /// Context over MPI_COMM_WORLD when MPI is initialised, else a single rank.
  /// Collective over the ranks, within the deadline of MGBLAS_COMM_TIMEOUT: a bad
  /// option, environment or device list on any rank raises on every rank (that rank's
  /// own error; RemoteError naming it on the others); ranks whose settings (back-end,
  /// verify_inputs, abort_on_timeout) differ all raise DimensionMismatch.
  static std::shared_ptr<Context> create(const ContextOptions& opts = {});
  /// Context over the given ranks (duplicated). Collective over `comm`.
  static std::shared_ptr<Context> create(Communicator comm, const ContextOptions& opts = {});

  ~Context();
  Context(const Context&) = delete;
  Context& operator=(const Context&) = delete;

  Backend backend() const noexcept { return backend_; }
  const Communicator& comm() const noexcept { return comm_; }
  int rank() const noexcept { return comm_.rank(); }
  int nranks() const noexcept { return comm_.size(); }

  /// Devices of this rank.
  int num_devices() const noexcept { return static_cast<int>(devices_.size()); }
  Device& device(int local) const { return *devices_.at(local); }

  /// Devices of all ranks together, and where this rank's begin in that list.
  int global_num_devices() const noexcept { return offsets_.back(); }
  int device_offset() const noexcept { return offsets_[rank()]; }
  int device_offset(int rank) const { return offsets_.at(rank); }
  int devices_on_rank(int rank) const { return offsets_.at(rank + 1) - offsets_.at(rank); }
  /// Rank owning global device g.
  int rank_of_device(int g) const;
  /// Local index of global device g, or -1 if another rank owns it.
  int local_index_of(int g) const noexcept;

  /// This rank's placement (one entry per local device).
  const std::vector<BindingInfo>& binding() const noexcept { return binding_; }
  /// Every rank's placement as text, one line per device, in rank order
  /// (collective: every rank must call it).
  std::string binding_report() const;

  /// Wait for all devices of this rank.
  void synchronize() const;

  /// Whether collective calls compare digests of replicated inputs (ContextOptions).
  bool verify_inputs() const noexcept { return verify_inputs_; }
  /// Whether a collective timeout ends the job (ContextOptions::abort_on_timeout).
  bool abort_on_timeout() const noexcept { return abort_on_timeout_; }

  /// Per-context state of higher layers, by key (dist keeps its NCCL communicators
  /// here): empty until set, destroyed with the context and before its devices, so
  /// whatever it holds may still use them in its destructor. Not thread-safe.
  std::shared_ptr<void>& attachment(const std::string& key) { return attachments_[key]; }

 private:
  Context(Communicator comm) : comm_(std::move(comm)) {}
  // Creation's two steps: the settings (local checks), then the devices.
  void choose_settings(const ContextOptions& opts);
  void make_devices(const ContextOptions& opts);

  Communicator comm_;
  Backend backend_ = Backend::Host;
  std::vector<std::unique_ptr<Device>> devices_;
  std::vector<int> offsets_{0, 0};  // offsets_[r] = first global device of rank r
  std::vector<BindingInfo> binding_;
  bool verify_inputs_ = false;
  bool abort_on_timeout_ = false;
  int host_devices_ = 0;
  // Last member: destroyed first, while the devices and the communicator still exist.
  std::map<std::string, std::shared_ptr<void>> attachments_;
};

}  // namespace mgblas
