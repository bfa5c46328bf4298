// SPDX-License-Identifier: BSD-3-Clause
// CUDA-less build: no GPUs, and every GPU service says it was not compiled.
#include "core/detail/cuda_runtime.hpp"
#include "core/error.hpp"

namespace mgblas::detail {

namespace {
[[noreturn]] void not_compiled(const char* what) {
  MGBLAS_THROW(NotCompiled, what, ": mgblas was built without CUDA (MGBLAS_ENABLE_CUDA=OFF)");
}
}  // namespace

int cuda_count() noexcept { return 0; }
CudaDeviceHandles cuda_device_create(int) { not_compiled("cuda_device_create"); }
void cuda_device_destroy(int, const CudaDeviceHandles&) noexcept {}
void cuda_set_device(int) { not_compiled("cuda_set_device"); }
void cuda_stream_sync(int, cudaStream_t) { not_compiled("cuda_stream_sync"); }
void* cuda_malloc(int, std::size_t) { not_compiled("cuda_malloc"); }
void cuda_free(int, void*) noexcept {}
void* cuda_malloc_host(std::size_t) { not_compiled("cuda_malloc_host"); }
void cuda_free_host(void*) noexcept {}
void cuda_copy_2d(int, cudaStream_t, void*, std::size_t, const void*, std::size_t, std::size_t,
                  std::size_t, bool) {
  not_compiled("cuda_copy_2d");
}
void cuda_memset(int, cudaStream_t, void*, int, std::size_t, bool) { not_compiled("cuda_memset"); }
std::string cuda_pci_bus_id(int) { not_compiled("cuda_pci_bus_id"); }
std::string cuda_version_string() { return "CUDA not compiled"; }

}  // namespace mgblas::detail
