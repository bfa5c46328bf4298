// SPDX-License-Identifier: BSD-3-Clause
// What the two bulge chases (kernels/cuda/sb2st, gb2bd) share: the hand-off between
// sweeps, and the shape of the tiles a task holds in shared memory and registers.
//
// Hand-off: a block publishes how many tasks of its sweep are done in a counter in global
// memory, and the block of the next sweep waits on that counter before it reads the band.
// One thread of each block does the synchronisation and a barrier spreads it to the
// others: thread 0 polls with an acquire load and publishes with a release store (a
// fence then a plain store), the pattern of cooperative groups' grid barrier. Measured
// on an H200 (bench/results/h200-chase-latency.md): 0.3-0.5 us less per task than a
// fence in every thread before the barrier, and the hand-off is on the chase's critical
// path twice per sweep.
#pragma once

#include <cuda/atomic>

#include <cstdint>

namespace mgblas::kernels::cuda::common {

/// A thread holds kChaseChunk entries of a tile walk in registers at once: their loads
/// are issued together, not each after the previous one's use (a rolled loop over a band
/// tile's columns waited one L2 latency per column: 2 us of a tridiagonal task's 11).
inline constexpr int kChaseChunk = 8;

/// acc = op(acc, j) for j = j0, j0 + kStep, ... < end: a thread's part of a row (or column)
/// product, kChaseChunk steps unrolled so that the shared loads in `op` issue together.
template <int kStep, typename Acc, typename Op>
__device__ __forceinline__ Acc chase_walk_sum(int j0, int end, Acc acc, Op op) {
  for (int jc = j0; jc < end; jc += kChaseChunk * kStep) {
#pragma unroll
    for (int t = 0; t < kChaseChunk; ++t) {
      const int j = jc + t * kStep;
      if (j < end) acc = op(acc, j);
    }
  }
  return acc;
}

/// put(j, get(j)) for j = j0, j0 + kStep, ... < end: a thread's part of a row (or column)
/// update, the gets of kChaseChunk steps (their loads) before any of their puts.
template <int kStep, typename Get, typename Put>
__device__ __forceinline__ void chase_walk_update(int j0, int end, Get get, Put put) {
  for (int jc = j0; jc < end; jc += kChaseChunk * kStep) {
    decltype(get(0)) x[kChaseChunk];
#pragma unroll
    for (int t = 0; t < kChaseChunk; ++t) {
      const int j = jc + t * kStep;
      if (j < end) x[t] = get(j);
    }
#pragma unroll
    for (int t = 0; t < kChaseChunk; ++t) {
      const int j = jc + t * kStep;
      if (j < end) put(j, x[t]);
    }
  }
}

/// Leading dimension of a shared tile of at least `rows` rows. A warp's 128-byte phase of
/// shared memory serves W = 128 / sizeof(D) lanes: kTpr of them walk one row (columns
/// c + kTpr t) and R = W / kTpr neighbouring rows run beside them; the column walks are
/// the transpose. ld = R (mod W) gives every lane of a row walk its own bank, and of a
/// column walk too where kTpr^2 = W (d and c with kTpr = 4, where the odd ld before had
/// 4-way conflicts in both walks); ld is odd where kTpr = 1 or kTpr >= W (R <= 1).
template <typename D, int kTpr>
constexpr int chase_tile_ld(int rows) {
  constexpr int kW = 128 / static_cast<int>(sizeof(D));
  if constexpr (kTpr == 1 || kTpr >= kW) return rows | 1;
  constexpr int kR = kW / kTpr;
  return rows + ((kR - rows % kW) % kW + kW) % kW;
}

/// The calling thread waits until *counter >= need (acquire: its later loads see what the
/// publisher wrote before it published).
__device__ __forceinline__ void chase_acquire(int* counter, int need) {
  ::cuda::atomic_ref<int, ::cuda::thread_scope_device> c(*counter);
  // A guard, not a schedule: the counter belongs to a sweep that a running block holds,
  // so this ends; should it not (a bug), trap after about 10 s rather than hang the GPU.
  for (int64_t spins = 0; c.load(::cuda::memory_order_acquire) < need; ++spins) {
    if (spins > (int64_t{1} << 27)) __trap();
    __nanosleep(64);
  }
}

/// *counter = value after the calling thread's own writes (release).
__device__ __forceinline__ void chase_release(int* counter, int value) {
  ::cuda::atomic_ref<int, ::cuda::thread_scope_device> c(*counter);
  c.store(value, ::cuda::memory_order_release);
}

/// Thread 0 waits until *counter >= need (when `wait`), then the whole block passes a
/// barrier: every thread's later loads see what the publishing block wrote before it
/// published. All threads of the block call it.
__device__ __forceinline__ void chase_wait(int* counter, int need, bool wait) {
  if (threadIdx.x == 0 && wait) chase_acquire(counter, need);
  __syncthreads();
}

/// The block's writes so far made visible at GPU scope, then *counter = value. All
/// threads of the block call it.
__device__ __forceinline__ void chase_publish(int* counter, int value) {
  __syncthreads();
  if (threadIdx.x == 0) chase_release(counter, value);
}

}  // namespace mgblas::kernels::cuda::common
