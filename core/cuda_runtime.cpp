// SPDX-License-Identifier: BSD-3-Clause
#include "core/detail/cuda_runtime.hpp"

#include "core/detail/cuda_check.hpp"

namespace mgblas::detail {

int cuda_count() noexcept {
  int n = 0;
  // No driver or no GPU both mean "no GPUs here"; the error state is cleared.
  if (cudaGetDeviceCount(&n) != cudaSuccess) {
    (void)cudaGetLastError();
    return 0;
  }
  return n;
}

CudaDeviceHandles cuda_device_create(int ordinal) {
  CudaDeviceHandles h;
  MGBLAS_CHECK_CUDA(cudaSetDevice(ordinal));
  cudaDeviceProp prop{};
  MGBLAS_CHECK_CUDA(cudaGetDeviceProperties(&prop, ordinal));
  h.product = prop.name;
  char bus[32] = {};
  MGBLAS_CHECK_CUDA(cudaDeviceGetPCIBusId(bus, sizeof bus, ordinal));
  h.pci_bus_id = bus;
  MGBLAS_CHECK_CUDA(cudaStreamCreateWithFlags(&h.stream, cudaStreamNonBlocking));
  try {
    MGBLAS_CHECK_CUDA(cudaStreamCreateWithFlags(&h.side, cudaStreamNonBlocking));
    MGBLAS_CHECK_CUBLAS(cublasCreate(&h.cublas));
    MGBLAS_CHECK_CUBLAS(cublasSetStream(h.cublas, h.stream));
    // Scalars (alpha, beta) are passed from the host by the library's wrappers.
    MGBLAS_CHECK_CUBLAS(cublasSetPointerMode(h.cublas, CUBLAS_POINTER_MODE_HOST));
  } catch (...) {
    if (h.cublas) cublasDestroy(h.cublas);
    if (h.side) cudaStreamDestroy(h.side);
    cudaStreamDestroy(h.stream);
    throw;
  }
  return h;
}

void cuda_device_destroy(int ordinal, const CudaDeviceHandles& h) noexcept {
  if (cudaSetDevice(ordinal) != cudaSuccess) return;
  if (h.cublas) cublasDestroy(h.cublas);
  for (cudaStream_t s : {h.side, h.stream}) {
    if (s == nullptr) continue;
    cudaStreamSynchronize(s);
    cudaStreamDestroy(s);
  }
}

void cuda_set_device(int ordinal) { MGBLAS_CHECK_CUDA(cudaSetDevice(ordinal)); }

void cuda_stream_sync(int ordinal, cudaStream_t stream) {
  MGBLAS_CHECK_CUDA(cudaSetDevice(ordinal));
  MGBLAS_CHECK_CUDA(cudaStreamSynchronize(stream));
}

void* cuda_malloc(int ordinal, std::size_t bytes) {
  void* p = nullptr;
  MGBLAS_CHECK_CUDA(cudaSetDevice(ordinal));
  MGBLAS_CHECK_CUDA(cudaMalloc(&p, bytes));
  return p;
}

void cuda_free(int ordinal, void* ptr) noexcept {
  if (cudaSetDevice(ordinal) == cudaSuccess) cudaFree(ptr);
}

void* cuda_malloc_host(std::size_t bytes) {
  void* p = nullptr;
  MGBLAS_CHECK_CUDA(cudaMallocHost(&p, bytes));
  return p;
}

void cuda_free_host(void* ptr) noexcept { cudaFreeHost(ptr); }

void cuda_copy_2d(int ordinal, cudaStream_t stream, void* dst, std::size_t dpitch, const void* src,
                  std::size_t spitch, std::size_t width, std::size_t height, bool async) {
  MGBLAS_CHECK_CUDA(cudaSetDevice(ordinal));
  MGBLAS_CHECK_CUDA(
      cudaMemcpy2DAsync(dst, dpitch, src, spitch, width, height, cudaMemcpyDefault, stream));
  if (!async) MGBLAS_CHECK_CUDA(cudaStreamSynchronize(stream));
}

void cuda_memset(int ordinal, cudaStream_t stream, void* dst, int value, std::size_t bytes,
                 bool async) {
  MGBLAS_CHECK_CUDA(cudaSetDevice(ordinal));
  MGBLAS_CHECK_CUDA(cudaMemsetAsync(dst, value, bytes, stream));
  if (!async) MGBLAS_CHECK_CUDA(cudaStreamSynchronize(stream));
}

std::string cuda_pci_bus_id(int ordinal) {
  char bus[32] = {};
  MGBLAS_CHECK_CUDA(cudaDeviceGetPCIBusId(bus, sizeof bus, ordinal));
  return bus;
}

std::string cuda_version_string() {
  int rt = 0, drv = 0;
  cudaRuntimeGetVersion(&rt);
  cudaDriverGetVersion(&drv);
  return concat("CUDA runtime ", rt / 1000, ".", (rt % 1000) / 10, ", driver ", drv / 1000, ".",
                (drv % 1000) / 10);
}

}  // namespace mgblas::detail
