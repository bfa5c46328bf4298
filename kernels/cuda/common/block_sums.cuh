// SPDX-License-Identifier: BSD-3-Clause
// Warp-, block- and grid-level sums of mgblas's kernels (private, not installed), on CUB
// where CUB has the primitive: lane-group sums of the level-2 and tall-skinny kernels,
// and, for the panel kernels (blocks of kLanes x kWarps threads: the lanes of a warp take
// consecutive rows, the warps split the other dimension), block sums formed in a fixed
// order so that every device of a reduction computes the same bits, and the "last block
// finishes" pattern for a grid-wide result without a second launch.
#pragma once

#include <cub/block/block_reduce.cuh>
#include <cub/warp/warp_reduce.cuh>

#include <type_traits>

#include "kernels/cuda/common/device_scalar.cuh"
#include "kernels/detail/safe_reflector.hpp"

namespace mgblas::kernels::cuda::common {

inline constexpr int kLanes = 32, kWarps = 8, kBlockThreads = kLanes * kWarps;

__device__ inline int flat_thread() { return threadIdx.x + kLanes * threadIdx.y; }

/// Complex sums through CUB in one pass: a struct with operator+ (cuComplex has none).
template <typename D> struct Sum {
  D v;
  __device__ Sum operator+(const Sum& o) const { return {add(v, o.v)}; }
};

/// The sum of v over each group of kWidth consecutive lanes (kWidth a power of two
/// <= 32), in the group's first lane. All 32 lanes of the warp must call it. CUB's
/// shuffle reduction for these widths keeps nothing in shared memory. Complex values
/// are summed as two real sums: CUB's real-type step (a predicated add) held 14 fewer
/// registers than its generic one in the z tall-skinny A^H B kernel (nvcc 13, sm_90).
template <int kWidth, typename D>
__device__ __forceinline__ D lane_group_sum(D v) {
  static_assert(kWidth >= 1 && kWidth <= 32 && (kWidth & (kWidth - 1)) == 0);
  using R = device_real_t<D>;
  using WarpReduce = cub::WarpReduce<R, kWidth>;
  typename WarpReduce::TempStorage unused;
  if constexpr (std::is_same_v<D, R>) {
    return WarpReduce(unused).Sum(v);
  } else {
    const R re = WarpReduce(unused).Sum(real_part(v));
    return make_scalar<D>(re, WarpReduce(unused).Sum(imag_part(v)));
  }
}

/// v from the lane `lane_mask` away (XOR) in the warp: one shuffle per 32-bit word.
template <typename D>
__device__ __forceinline__ D shfl_xor(D v, int lane_mask) {
  using R = device_real_t<D>;
  if constexpr (std::is_same_v<D, R>) {
    return __shfl_xor_sync(0xffffffffu, v, lane_mask);
  } else {
    return make_scalar<D>(__shfl_xor_sync(0xffffffffu, real_part(v), lane_mask),
                          __shfl_xor_sync(0xffffffffu, imag_part(v), lane_mask));
  }
}

/// This thread's lane in its warp, for any block shape.
__device__ __forceinline__ int lane_of_warp() {
  return static_cast<int>(threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z)) & 31;
}

/// kQ sums over the 32 lanes of a warp at once (kQ a power of two <= 32): a butterfly
/// in which every step hands half of the values a lane still holds to its partner, so
/// the kQ sums take kQ - 1 + log2(32 / kQ) shuffles where one reduction per value
/// (CUB's WarpReduce) takes 5 kQ. On return v[0] holds the sum over the warp of the
/// values of index `result`; lanes that differ only in their low log2(32 / kQ) bits
/// hold the same index (lane 0 of each such group may write it). The order of the adds
/// is fixed, so the bits are the same on every run and device.
template <int kQ, typename D>
__device__ __forceinline__ int transposed_warp_sums(D (&v)[kQ]) {
  static_assert(kQ >= 1 && kQ <= 32 && (kQ & (kQ - 1)) == 0);
  const int lane = lane_of_warp();
  int index = 0;
#pragma unroll
  for (int w = kQ / 2, off = 16; w >= 1; w /= 2, off /= 2) {
    const bool upper = (lane & off) != 0;
#pragma unroll
    for (int i = 0; i < w; ++i) {
      const D send = upper ? v[i] : v[i + w];
      const D keep = upper ? v[i + w] : v[i];
      v[i] = add(keep, shfl_xor(send, off));
    }
    if (upper) index += w;
  }
#pragma unroll
  for (int off = 16 / kQ; off >= 1; off /= 2) v[0] = add(v[0], shfl_xor(v[0], off));
  return index;
}

/// The warp's kQ sums over its lanes of v[i], the values of column first + stride i,
/// handed to write(q, sum) for each q < count by one lane (transposed_warp_sums).
template <int kQ, typename D, typename Write>
__device__ __forceinline__ void write_warp_sums(D (&v)[kQ], int64_t first, int64_t stride,
                                                int64_t count, Write&& write) {
  const int64_t q = first + int64_t{transposed_warp_sums(v)} * stride;
  if ((lane_of_warp() & (32 / kQ - 1)) == 0 && q < count) write(q, v[0]);
}

/// The three sums of squares of a reflector's norm (kernels/detail/safe_reflector.hpp):
/// plain sums, added by block_sum and across blocks and devices like any other sum.
template <typename R> using SumSq = ::mgblas::kernels::detail::SumSquares<R>;

/// |v|^2 into s (the real and imaginary parts each into its range's sum).
template <typename D>
__device__ __forceinline__ void add_squares(SumSq<device_real_t<D>>& s, D v) {
  if constexpr (std::is_same_v<D, device_real_t<D>>) s.add(v);
  else s.add(real_part(v), imag_part(v));
}

/// Another block's sums, read past the (incoherent) L1.
template <typename R> __device__ __forceinline__ SumSq<R> load_cg(const SumSq<R>* p) {
  return {__ldcg(&p->sml), __ldcg(&p->med), __ldcg(&p->big)};
}

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

/// Sum of one value per thread of the block, in thread 0: each warp's sum, then the warp
/// sums added in warp order (deterministic). S needs operator+ (Sum<D> for complex D).
template <typename S>
__device__ S block_sum(S v) {
  using BlockReduce = cub::BlockReduce<S, kLanes, cub::BLOCK_REDUCE_WARP_REDUCTIONS, kWarps>;
  __shared__ typename BlockReduce::TempStorage tmp;
  const S total = BlockReduce(tmp).Sum(v);
  __syncthreads();  // tmp may be reused by the caller's next sum
  return total;
}

/// Sums each lane's K values over the block's warps, with one pair of barriers for all K
/// (CUB's BlockReduce forms a single sum): the totals, in v, in the threads of warp 0;
/// the other warps' v are left as they were.
template <int K, typename D>
__device__ void across_warps(D (&v)[K]) {
  __shared__ D red[K][kWarps][kLanes];
#pragma unroll
  for (int k = 0; k < K; ++k) red[k][threadIdx.y][threadIdx.x] = v[k];
  __syncthreads();
  if (threadIdx.y == 0)
#pragma unroll
    for (int k = 0; k < K; ++k) {
      D total = make_scalar<D>(0);
      for (int i = 0; i < kWarps; ++i) total = add(total, red[k][i][threadIdx.x]);
      v[k] = total;
    }
  __syncthreads();
}

/// across_warps of one value: the total in the threads of warp 0 (elsewhere: v).
template <typename D>
__device__ D across_warps(D v) {
  D one[1] = {v};
  across_warps<1>(one);
  return one[0];
}

/// In the grid's last block (after last_block): for q < count, the sum over the grid's
/// blocks b of part[b * stride + q] (partials other blocks wrote: read past L1), handed
/// to write(q, sum) in one lane of the warp that formed it. Warp y takes q = y + kWarps i,
/// kSumsAtOnce of them at a time: its lanes stride the blocks and the sums leave the warp
/// through one transposing butterfly. (One sum at a time waited a full L2 round trip per
/// q: up to 16 in a row per warp for a panel of 128 columns.) The order of the adds is
/// fixed, so every device forms the same bits.
template <typename D, typename Write>
__device__ void sum_block_partials(const D* part, int64_t stride, int64_t count, Write&& write) {
  constexpr int kSumsAtOnce = 8;
  for (int64_t q0 = threadIdx.y; q0 < count; q0 += kWarps * kSumsAtOnce) {
    D tot[kSumsAtOnce];
#pragma unroll
    for (int i = 0; i < kSumsAtOnce; ++i) tot[i] = make_scalar<D>(0);
    for (int64_t b = threadIdx.x; b < gridDim.x; b += kLanes)
#pragma unroll
      for (int i = 0; i < kSumsAtOnce; ++i) {
        const int64_t q = q0 + int64_t{i} * kWarps;
        if (q < count) tot[i] = add(tot[i], __ldcg(part + b * stride + q));
      }
    write_warp_sums(tot, q0, kWarps, count, write);
  }
}

}  // namespace mgblas::kernels::cuda::common
