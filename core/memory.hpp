// SPDX-License-Identifier: BSD-3-Clause
// Memory on devices and pinned host memory: RAII buffers and copies.
//
// All copies go through the device that owns (one of) the pointers: on a GPU they
// are queued on its stream and, unless `async`, waited for; on a host device they
// are plain memcpy. Pointers may be host or device memory (CUDA unified addressing).
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <utility>

#include "core/checked.hpp"
#include "core/device.hpp"

namespace mgblas {

/// Allocate `bytes` on `dev` (cudaMalloc on a GPU, 256-byte aligned host memory
/// otherwise). Returns nullptr for 0 bytes. Throws AllocationError naming the bytes
/// and the device.
void* device_malloc(const Device& dev, std::size_t bytes);
void device_free(const Device& dev, void* ptr) noexcept;

/// Page-locked host memory when a GPU is present (fast, async-capable copies),
/// aligned ordinary memory otherwise.
void* pinned_malloc(std::size_t bytes);
void pinned_free(void* ptr) noexcept;

/// Copy a `rows_bytes` x `cols` block between column-major arrays with leading
/// dimensions given in bytes, through `dev` (either side may be device memory of dev).
void copy_2d(const Device& dev, void* dst, std::size_t dst_ld_bytes, const void* src,
             std::size_t src_ld_bytes, std::size_t rows_bytes, std::size_t cols, bool async = false);

/// Set `bytes` bytes of memory of dev to `value`.
void memset_bytes(const Device& dev, void* dst, int value, std::size_t bytes, bool async = false);

/// Typed helpers over copy_2d: element counts and leading dimensions in elements.
template <typename T>
void copy_matrix(const Device& dev, int64_t m, int64_t n, const T* src, int64_t ld_src, T* dst,
                 int64_t ld_dst, bool async = false) {
  if (m <= 0 || n <= 0) return;
  copy_2d(dev, dst, sizeof(T) * ld_dst, src, sizeof(T) * ld_src, sizeof(T) * m, n, async);
}
template <typename T>
void copy_vector(const Device& dev, int64_t n, const T* src, T* dst, bool async = false) {
  copy_matrix(dev, n, 1, src, n, dst, n, async);
}
/// An m x n block between column-major arrays that are both host memory (staging
/// buffers of the collectives): no device involved.
template <typename T>
void copy_host_matrix(int64_t m, int64_t n, const T* src, int64_t ld_src, T* dst,
                      int64_t ld_dst) {
  if (m <= 0 || n <= 0) return;
  if (ld_src == m && ld_dst == m) {
    std::copy_n(src, m * n, dst);
    return;
  }
  for (int64_t j = 0; j < n; ++j) std::copy_n(src + j * ld_src, m, dst + j * ld_dst);
}

/// Owning array of `size` elements of T on one device. Move-only.
template <typename T>
class DeviceBuffer {
 public:
  DeviceBuffer() = default;
  DeviceBuffer(const Device& dev, std::size_t size)
      : dev_(&dev),
        ptr_(static_cast<T*>(device_malloc(
            dev, checked_bytes(static_cast<int64_t>(size), sizeof(T), "device buffer")))),
        size_(size) {}
  ~DeviceBuffer() { reset(); }
  DeviceBuffer(DeviceBuffer&& o) noexcept
      : dev_(o.dev_), ptr_(std::exchange(o.ptr_, nullptr)), size_(std::exchange(o.size_, 0)) {}
  DeviceBuffer& operator=(DeviceBuffer&& o) noexcept {
    if (this != &o) {
      reset();
      dev_ = o.dev_;
      ptr_ = std::exchange(o.ptr_, nullptr);
      size_ = std::exchange(o.size_, 0);
    }
    return *this;
  }
  DeviceBuffer(const DeviceBuffer&) = delete;
  DeviceBuffer& operator=(const DeviceBuffer&) = delete;

  T* data() noexcept { return ptr_; }
  const T* data() const noexcept { return ptr_; }
  std::size_t size() const noexcept { return size_; }
  const Device* device() const noexcept { return dev_; }

  void reset() noexcept {
    if (ptr_) device_free(*dev_, ptr_);
    ptr_ = nullptr;
    size_ = 0;
  }

 private:
  const Device* dev_ = nullptr;
  T* ptr_ = nullptr;
  std::size_t size_ = 0;
};

/// Owning pinned host array of `size` elements of T. Move-only.
template <typename T>
class PinnedBuffer {
 public:
  PinnedBuffer() = default;
  explicit PinnedBuffer(std::size_t size)
      : ptr_(static_cast<T*>(pinned_malloc(
            checked_bytes(static_cast<int64_t>(size), sizeof(T), "staging buffer")))),
        size_(size) {}
  ~PinnedBuffer() { pinned_free(ptr_); }
  PinnedBuffer(PinnedBuffer&& o) noexcept
      : ptr_(std::exchange(o.ptr_, nullptr)), size_(std::exchange(o.size_, 0)) {}
  PinnedBuffer& operator=(PinnedBuffer&& o) noexcept {
    if (this != &o) {
      pinned_free(ptr_);
      ptr_ = std::exchange(o.ptr_, nullptr);
      size_ = std::exchange(o.size_, 0);
    }
    return *this;
  }
  PinnedBuffer(const PinnedBuffer&) = delete;
  PinnedBuffer& operator=(const PinnedBuffer&) = delete;

  T* data() noexcept { return ptr_; }
  const T* data() const noexcept { return ptr_; }
  std::size_t size() const noexcept { return size_; }
  T& operator[](std::size_t i) noexcept { return ptr_[i]; }
  const T& operator[](std::size_t i) const noexcept { return ptr_[i]; }

 private:
  T* ptr_ = nullptr;
  std::size_t size_ = 0;
};

}  // namespace mgblas
