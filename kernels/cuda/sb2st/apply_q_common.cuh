// SPDX-License-Identifier: BSD-3-Clause
// What both CUDA kernels of the Q2 application share (apply_q.cuh: reflectors one at a
// time through registers; apply_q_mma.cuh: blocks on FP64 tensor cores): the windows of
// sweeps in their order of application, and the block-wide copies of packed steps into
// shared memory.
#pragma once

#include <algorithm>
#include <cstdint>

#include "kernels/cuda/common/device_scalar.cuh"
#include "kernels/sb2st_kernels.hpp"

namespace mgblas::kernels::cuda::sb2st {

/// The windows of `sweeps` sweeps, W = ceil((n - 1) / sweeps), by their place i in the
/// order of application (op N from the last window, op C from the first).
struct Windows {
  int64_t n, be, sweeps, count;
  bool adjoint;
  __host__ __device__ int64_t first_sweep(int64_t i) const {
    return (adjoint ? i : count - 1 - i) * sweeps;
  }
  /// Steps of the window: the tasks of its first sweep, which has the most.
  __host__ __device__ int64_t steps(int64_t i) const {
    return band2tri_tasks(n, be, first_sweep(i));
  }
};

/// dst[0 .. bytes) = src[0 .. bytes) by the block's threads in 16-byte pieces, asynchronously
/// where the architecture has cp.async (wait_copies() before reading dst), else now. Each
/// thread commits one group, an empty one where bytes = 0.
__device__ __forceinline__ void copy_async(void* dst, const void* src, int bytes) {
  for (int x = threadIdx.x * 16; x < bytes; x += blockDim.x * 16) {
    char* d = static_cast<char*>(dst) + x;
    const char* s = static_cast<const char*>(src) + x;
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
    const unsigned a = static_cast<unsigned>(__cvta_generic_to_shared(d));
    asm volatile("cp.async.cg.shared.global [%0], [%1], 16;\n" ::"r"(a), "l"(s));
#else
    *reinterpret_cast<int4*>(d) = *reinterpret_cast<const int4*>(s);
#endif
  }
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
  asm volatile("cp.async.commit_group;\n" ::);
#endif
}
/// Waits for this thread's copies but the `kPending` groups it committed last (0: all).
template <int kPending = 0>
__device__ __forceinline__ void wait_copies() {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
  asm volatile("cp.async.wait_group %0;\n" ::"n"(kPending));
#endif
}

/// *dst = *src (8 bytes, shared from global) by this thread, asynchronously where the
/// architecture has cp.async; commit_copies() closes a group of them.
__device__ __forceinline__ void copy8_async(double* dst, const double* src) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
  const unsigned a = static_cast<unsigned>(__cvta_generic_to_shared(dst));
  asm volatile("cp.async.ca.shared.global [%0], [%1], 8;\n" ::"r"(a), "l"(src));
#else
  *dst = *src;
#endif
}
__device__ __forceinline__ void commit_copies() {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
  asm volatile("cp.async.commit_group;\n" ::);
#endif
}

/// The packed steps a call's buffer holds: pack_bytes' worth of steps of step_bytes each,
/// but at least the largest window (its first sweep's tasks), at most all the call's steps.
inline int64_t chunk_capacity(const Windows& win, int64_t step_bytes, int64_t pack_bytes) {
  int64_t total = 0;
  for (int64_t i = 0; i < win.count; ++i) total += win.steps(i);
  const int64_t cap = std::max<int64_t>(pack_bytes / step_bytes, band2tri_tasks(win.n, win.be, 0));
  return std::min(total, cap);
}

/// f(first, count, steps, most) for the chunks of windows, in order: windows first ..
/// first + count - 1 with `steps` steps in all (<= capacity; one window always fits), the
/// largest window `most` steps, count within a grid's y dimension (the pack kernels' grid).
template <typename F>
void for_each_chunk(const Windows& win, int64_t capacity, F&& f) {
  for (int64_t i = 0; i < win.count;) {
    int64_t j = i, steps = 0, most = 0;
    while (j < win.count && j - i < common::kMaxGridY && steps + win.steps(j) <= capacity) {
      steps += win.steps(j);
      most = std::max(most, win.steps(j));
      ++j;
    }
    f(i, j - i, steps, most);
    i = j;
  }
}

}  // namespace mgblas::kernels::cuda::sb2st
