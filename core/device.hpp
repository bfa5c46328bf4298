// SPDX-License-Identifier: BSD-3-Clause
// Device: one engine this process drives, a CUDA GPU or a host device.
#pragma once

#include <memory>
#include <string>

// Opaque CUDA handle types, declared as the CUDA headers declare them, so that public
// headers need no CUDA include and a CUDA-less build sees the same classes.
struct CUstream_st;
typedef struct CUstream_st* cudaStream_t;
struct cublasContext;
typedef struct cublasContext* cublasHandle_t;

namespace mgblas {

enum class Backend { Host, Cuda };
inline const char* to_string(Backend b) { return b == Backend::Cuda ? "cuda" : "host"; }

/// Number of CUDA GPUs visible to this process; 0 when CUDA is not compiled in or
/// no GPU (or no driver) is present. Never throws.
int cuda_device_count() noexcept;

/// One device of a Context. A GPU device owns a non-blocking stream and a cuBLAS
/// handle bound to it; every operation of the library on that device is ordered on
/// that stream. A host device runs operations on the calling thread with the CPU BLAS.
class Device {
 public:
  /// A host device; `local_index` is its position in the owning Context.
  static std::unique_ptr<Device> make_host(int local_index);
  /// A CUDA GPU by ordinal. Throws NotCompiled without CUDA, CudaError if unusable.
  static std::unique_ptr<Device> make_cuda(int local_index, int gpu_ordinal);

  ~Device();
  Device(const Device&) = delete;
  Device& operator=(const Device&) = delete;

  Backend backend() const noexcept { return backend_; }
  bool is_gpu() const noexcept { return backend_ == Backend::Cuda; }
  /// Position among the devices of this process.
  int local_index() const noexcept { return local_index_; }
  /// Position in the global device list (all ranks), set by the Context.
  int global_index() const noexcept { return global_index_; }
  void set_global_index(int g) noexcept { global_index_ = g; }
  /// CUDA ordinal, -1 for a host device.
  int gpu_ordinal() const noexcept { return gpu_; }
  /// PCI bus id ("0000:1b:00.0") of a GPU; empty for a host device.
  const std::string& pci_bus_id() const noexcept { return pci_bus_id_; }
  /// Product name of a GPU ("NVIDIA H200"); "host" for a host device.
  const std::string& product_name() const noexcept { return product_; }
  /// Short description, e.g. "cuda:1" or "host:0".
  std::string name() const;

  /// The device's stream (nullptr for host devices).
  cudaStream_t stream() const noexcept { return stream_; }
  /// A second non-blocking stream without a cuBLAS handle (nullptr for host devices), for
  /// kernels that may run beside those of stream() (the SVD's Q2 and P2). Work on it is
  /// ordered against stream() only by the host: wait for one before using the other's data.
  cudaStream_t side_stream() const noexcept { return side_; }
  /// The device's cuBLAS handle, bound to stream() (nullptr for host devices).
  cublasHandle_t cublas() const noexcept { return cublas_; }

  /// Make this the current CUDA device of the calling thread (no-op on host).
  void make_current() const;
  /// Wait for all work queued on the device's stream (no-op on host).
  void synchronize() const;

 private:
  Device() = default;
  Backend backend_ = Backend::Host;
  int local_index_ = 0;
  int global_index_ = 0;
  int gpu_ = -1;
  std::string pci_bus_id_;
  std::string product_ = "host";
  cudaStream_t stream_ = nullptr;
  cudaStream_t side_ = nullptr;
  cublasHandle_t cublas_ = nullptr;
};

/// Where an operation is queued: a device and, for a GPU, a stream of it (by default
/// the device's own). Converts implicitly from a Device, so `gemv(dev, ...)` works.
struct Queue {
  Queue(const Device& d) : device(&d), stream(d.stream()) {}  // NOLINT: implicit by design
  Queue(const Device& d, cudaStream_t s) : device(&d), stream(s) {}
  const Device* device;
  cudaStream_t stream;
};

}  // namespace mgblas
