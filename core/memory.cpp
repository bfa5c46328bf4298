// SPDX-License-Identifier: BSD-3-Clause
#include "core/memory.hpp"

#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <new>

#include "core/detail/cuda_runtime.hpp"
#include "core/error.hpp"

namespace mgblas {

namespace {
constexpr std::size_t kHostAlignment = 256;

[[noreturn]] void allocation_failed(std::size_t bytes, const std::string& where,
                                    const std::string& why) {
  MGBLAS_THROW(AllocationError, "cannot allocate ", bytes, " bytes (", bytes >> 20, " MiB) on ",
               where, ": ", why);
}

void* host_aligned_alloc(std::size_t bytes, const std::string& where) {
  if (bytes > SIZE_MAX - kHostAlignment) allocation_failed(bytes, where, "larger than memory");
  const std::size_t rounded = (bytes + kHostAlignment - 1) / kHostAlignment * kHostAlignment;
  void* p = std::aligned_alloc(kHostAlignment, rounded);
  if (!p) allocation_failed(bytes, where, "out of host memory");
  return p;
}

// Decided once per process so that pinned_free always matches pinned_malloc.
bool pinned_uses_cuda() {
  static const bool use = detail::cuda_count() > 0;
  return use;
}
}  // namespace

void* device_malloc(const Device& dev, std::size_t bytes) {
  if (bytes == 0) return nullptr;
  if (!dev.is_gpu()) return host_aligned_alloc(bytes, "host device " + dev.name());
  try {
    return detail::cuda_malloc(dev.gpu_ordinal(), bytes);
  } catch (const CudaError& e) {
    allocation_failed(bytes, "GPU " + dev.name(), e.what());
  }
}

void device_free(const Device& dev, void* ptr) noexcept {
  if (!ptr) return;
  if (dev.is_gpu())
    detail::cuda_free(dev.gpu_ordinal(), ptr);
  else
    std::free(ptr);
}

void* pinned_malloc(std::size_t bytes) {
  if (bytes == 0) return nullptr;
  if (!pinned_uses_cuda()) return host_aligned_alloc(bytes, "the host (staging buffer)");
  try {
    return detail::cuda_malloc_host(bytes);
  } catch (const CudaError& e) {
    allocation_failed(bytes, "the host (pinned staging buffer)", e.what());
  }
}

void pinned_free(void* ptr) noexcept {
  if (!ptr) return;
  if (pinned_uses_cuda())
    detail::cuda_free_host(ptr);
  else
    std::free(ptr);
}

void copy_2d(const Device& dev, void* dst, std::size_t dst_ld_bytes, const void* src,
             std::size_t src_ld_bytes, std::size_t rows_bytes, std::size_t cols, bool async) {
  if (rows_bytes == 0 || cols == 0) return;
  if (dev.is_gpu()) {
    detail::cuda_copy_2d(dev.gpu_ordinal(), dev.stream(), dst, dst_ld_bytes, src, src_ld_bytes,
                         rows_bytes, cols, async);
    return;
  }
  auto* d = static_cast<char*>(dst);
  const auto* s = static_cast<const char*>(src);
  if (dst_ld_bytes == rows_bytes && src_ld_bytes == rows_bytes) {
    std::memcpy(d, s, rows_bytes * cols);
    return;
  }
  for (std::size_t j = 0; j < cols; ++j)
    std::memcpy(d + j * dst_ld_bytes, s + j * src_ld_bytes, rows_bytes);
}

void memset_bytes(const Device& dev, void* dst, int value, std::size_t bytes, bool async) {
  if (bytes == 0) return;
  if (dev.is_gpu())
    detail::cuda_memset(dev.gpu_ordinal(), dev.stream(), dst, value, bytes, async);
  else
    std::memset(dst, value, bytes);
}

}  // namespace mgblas
