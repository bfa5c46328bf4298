// SPDX-License-Identifier: BSD-3-Clause
// The few CUDA runtime services core needs, behind plain C++ signatures so that core
// compiles without CUDA: cuda_runtime.cpp implements them, cuda_runtime_stub.cpp
// throws NotCompiled (and reports no GPUs) in a CUDA-less build.
#pragma once

#include <cstddef>
#include <string>

#include "core/device.hpp"

namespace mgblas::detail {

int cuda_count() noexcept;

struct CudaDeviceHandles {
  cudaStream_t stream = nullptr;
  cudaStream_t side = nullptr;
  cublasHandle_t cublas = nullptr;
  std::string pci_bus_id;
  std::string product;
};
CudaDeviceHandles cuda_device_create(int ordinal);
void cuda_device_destroy(int ordinal, const CudaDeviceHandles& h) noexcept;
void cuda_set_device(int ordinal);
void cuda_stream_sync(int ordinal, cudaStream_t stream);

void* cuda_malloc(int ordinal, std::size_t bytes);
void cuda_free(int ordinal, void* ptr) noexcept;
void* cuda_malloc_host(std::size_t bytes);
void cuda_free_host(void* ptr) noexcept;
void cuda_copy_2d(int ordinal, cudaStream_t stream, void* dst, std::size_t dpitch, const void* src,
                  std::size_t spitch, std::size_t width, std::size_t height, bool async);
void cuda_memset(int ordinal, cudaStream_t stream, void* dst, int value, std::size_t bytes,
                 bool async);

/// PCI bus id of a GPU without creating a Device (for topology decisions).
std::string cuda_pci_bus_id(int ordinal);

/// "CUDA 13.0, driver 13.0" style version line for testers.
std::string cuda_version_string();

}  // namespace mgblas::detail
