// SPDX-License-Identifier: BSD-3-Clause
// Block- and grid-level sums of the panel kernels (private, not installed): blocks of
// kLanes x kWarps threads (the lanes of a warp take consecutive rows, the warps split the
// other dimension), sums formed in a fixed order so that every device of a reduction
// computes the same bits, and the "last block finishes" pattern for a grid-wide result
// without a second launch.
#pragma once

#include <cub/warp/warp_reduce.cuh>

#include "kernels/cuda/common/device_scalar.cuh"

namespace mgblas::kernels::cuda::device {

inline constexpr int kLanes = 32, kWarps = 8, kBlockThreads = kLanes * kWarps;

__device__ inline int flat_thread() { return threadIdx.x + kLanes * threadIdx.y; }

/// Complex sums through CUB in one pass: a struct with operator+.
template <typename D> struct Sum {
  D v;
  __device__ Sum operator+(const Sum& o) const { return {add(v, o.v)}; }
};

/// Whether this block is the last of the grid to reach this point; the other blocks'
/// writes before it are then visible to it. Resets the counter for the next launch.
__device__ inline bool last_block(unsigned* counter) {
  __shared__ bool last;
  __syncthreads();
  if (threadIdx.x == 0 && threadIdx.y == 0) {
    __threadfence();
    last = atomicAdd(counter, 1u) == gridDim.x - 1;
    if (last) *counter = 0;
  }
  __syncthreads();
  if (last) __threadfence();
  return last;
}

/// Sum of one value per thread of the block, in thread 0 (fixed order: deterministic).
template <typename S>
__device__ S block_sum(S v) {
  using WarpReduce = cub::WarpReduce<S>;
  __shared__ typename WarpReduce::TempStorage tmp[kWarps];
  __shared__ S warp_total[kWarps];
  const S w = WarpReduce(tmp[threadIdx.y]).Sum(v);
  if (threadIdx.x == 0) warp_total[threadIdx.y] = w;
  __syncthreads();
  S total = warp_total[0];
  for (int i = 1; i < kWarps; ++i) total = total + warp_total[i];
  __syncthreads();  // warp_total may be reused by the caller's next sum
  return total;
}

/// Sums each lane's value over the block's warps: the total in the threads of warp 0.
template <typename D>
__device__ D across_warps(D v) {
  __shared__ D red[kWarps][kLanes];
  red[threadIdx.y][threadIdx.x] = v;
  __syncthreads();
  D total = make_scalar<D>(0);
  if (threadIdx.y == 0)
    for (int i = 0; i < kWarps; ++i) total = add(total, red[i][threadIdx.x]);
  __syncthreads();
  return total;
}

/// In the grid's last block (after last_block): for q < count, the sum over the grid's
/// blocks b, in block order, of part[b * stride + q] (partials other blocks wrote: read
/// past L1), handed to write(q, sum) in lane 0 of the warp that formed it. Warp y takes
/// q = y, y + kWarps, ...; its lanes stride the blocks.
template <typename D, typename Write>
__device__ void sum_block_partials(const D* part, int64_t stride, int64_t count, Write&& write) {
  using WarpReduce = cub::WarpReduce<Sum<D>>;
  __shared__ typename WarpReduce::TempStorage tmp[kWarps];
  for (int64_t q = threadIdx.y; q < count; q += kWarps) {
    D tot = make_scalar<D>(0);
    for (int64_t b = threadIdx.x; b < gridDim.x; b += kLanes) tot = add(tot, __ldcg(part + b * stride + q));
    const Sum<D> w = WarpReduce(tmp[threadIdx.y]).Sum(Sum<D>{tot});
    __syncwarp();  // tmp is reused by the warp's next q
    if (threadIdx.x == 0) write(q, w.v);
  }
}

}  // namespace mgblas::kernels::cuda::device
