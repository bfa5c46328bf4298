// SPDX-License-Identifier: BSD-3-Clause
// CUDA engine of the back-transformation of stage two, C := op(Q2) C
// (kernels/sb2st_kernels.hpp band_to_tridiag_apply_q): kernels and launcher, instantiated
// per precision by apply_q_{s,d,c,z}.cu.
//
// Order. A window is L consecutive sweeps s0 .. s0 + L - 1; Q2 C applies, window by window
// from the last, for k = 0, 1, ...: H(s0 + L - 1, k), ..., H(s0, k) (op C: everything in
// reverse, tau conjugated). That reorders Q2's product only across commuting pairs:
// H(s', k'), s' > s, shares rows with H(s, k) only if k' <= k. Step k of a window touches
// the b + L - 1 rows from s0 + 1 + k b. (sb2st_kernels.hpp's compact-WY blocks are the
// case L <= b; any L works reflector by reflector.)
//
// Two kernels. Double, where the band is <= 32 on compute capability >= 8.0, and complex
// double at band 32, take the blocks I - V T V^H on FP64 tensor cores (apply_q_mma.cuh:
// 0.507 s at n = m = 16384 on an H200 with band 32 in double, 35% of DGEMM's rate, against
// 1.31 s here). Everything else takes the
// kernels below, which apply the reflectors one at a time (rank-1 updates): they do the
// nominal flops only (blocks cost about 1.6x them: V is banded, plus T), C streams through
// DRAM once per window (L / 4 flop/byte in double), and columns are independent, so a
// thread block owns its columns for the whole call: no grid-wide synchronisation, C
// updated in place, one launch per chunk of windows (plus one to pack it). Measured on an
// H200 they reach 6.7-8.3 TFLOP/s in double (12-15% of DGEMM's rate) and 10-11 in complex
// double (19-22% of ZGEMM's), flat from n = 8192 to 32768: an SM throughput other than
// FP64's bounds them, most likely the shared-memory pipe (one 16-byte load of v per two
// FMAs per column, the lane sums' shuffles) (bench/results/h200-band2tri-apply-q.md).
//
// Memory: the packed steps of a chunk (at most 256 MiB, MGBLAS_SB2ST_APPLY_Q_PACK_BYTES);
// the call waits for its stream before it frees them.
#pragma once

#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>
#include <type_traits>
#include <utility>

#include "core/detail/cuda_check.hpp"
#include "core/device.hpp"
#include "core/error.hpp"
#include "core/memory.hpp"
#include "kernels/cuda/common/debug_env.hpp"
#include "kernels/cuda/common/device_scalar.cuh"
#include "kernels/cuda/common/variant.hpp"
#include "kernels/cuda/sb2st/apply_q_common.cuh"
#include "kernels/cuda/sb2st/apply_q_mma.cuh"
#include "kernels/cuda/sb2st/apply_q_tuning.hpp"
#include "kernels/sb2st_kernels.hpp"

namespace mgblas::kernels::cuda::sb2st {

using common::add;
using common::conj;
using common::make_scalar;
using common::mul;
using common::mul_add;
using common::neg;

inline constexpr int kApplyThreads = 128;  // 64 where 128 leaves fewer than 2 blocks per SM
inline constexpr int kPackThreads = 256;
inline constexpr int kWarpThreads = 128;  // one warp per column: 4 columns per block
inline constexpr int64_t kDefaultPackBytes = int64_t{256} << 20;

// ---- device helpers ------------------------------------------------------------------

__device__ __forceinline__ float shfl_xor(float v, int o) {
  return __shfl_xor_sync(0xffffffffu, v, o);
}
__device__ __forceinline__ double shfl_xor(double v, int o) {
  return __shfl_xor_sync(0xffffffffu, v, o);
}
__device__ __forceinline__ cuFloatComplex shfl_xor(cuFloatComplex v, int o) {
  return {__shfl_xor_sync(0xffffffffu, v.x, o), __shfl_xor_sync(0xffffffffu, v.y, o)};
}
__device__ __forceinline__ cuDoubleComplex shfl_xor(cuDoubleComplex v, int o) {
  return {__shfl_xor_sync(0xffffffffu, v.x, o), __shfl_xor_sync(0xffffffffu, v.y, o)};
}

/// The sum over the kLanes adjacent lanes of a column (aligned groups of a warp).
template <int kLanes, typename D>
__device__ __forceinline__ D lanes_sum(D v) {
#pragma unroll
  for (int o = 1; o < kLanes; o <<= 1) v = add(v, shfl_xor(v, o));
  return v;
}

/// Two consecutive elements of shared memory, p 2-element aligned: one 16-byte load where
/// the pair fits in 16 bytes (complex double: two).
__device__ __forceinline__ void load_pair(const float* p, float& a, float& b) {
  const float2 v = *reinterpret_cast<const float2*>(p);
  a = v.x, b = v.y;
}
__device__ __forceinline__ void load_pair(const double* p, double& a, double& b) {
  const double2 v = *reinterpret_cast<const double2*>(p);
  a = v.x, b = v.y;
}
__device__ __forceinline__ void load_pair(const cuFloatComplex* p, cuFloatComplex& a,
                                          cuFloatComplex& b) {
  const float4 v = *reinterpret_cast<const float4*>(p);
  a = {v.x, v.y}, b = {v.z, v.w};
}
__device__ __forceinline__ void load_pair(const cuDoubleComplex* p, cuDoubleComplex& a,
                                          cuDoubleComplex& b) {
  a = p[0], b = p[1];
}

// ---- pack_steps: a chunk's steps in the order apply_windows reads them -----------------
//
// Block (x, y): step x (in order of application) of the chunk's window first + y; threads
// over the step's step_elems() elements: taus[j] (j < L; conj(tau) for op C); gram[j kGroup
// + i'] = v_j^H v_i, i = (j / kGroup) kGroup + i' (the Gram matrices of the groups, over
// the whole reflectors); vals[(j kLanes + p) span_padded() + u] = v_j(p + kLanes (j /
// kLanes + u) - j), the entry of reflector j that meets register slot j / kLanes + u of
// lane p. Zero where there is none (outside 0 .. len - 1, an inactive reflector: s > n - 2
// or k >= T_s). Reflector j's entry e sits on local row j + e of the step.
template <typename D, int kBand, int kSweeps, int kLanes, int kGroup>
__global__ void __launch_bounds__(kPackThreads)
    pack_steps(Windows win, int64_t first, const D* V2, const D* tau2, int64_t tau_stride,
               D* pack) {
  constexpr ApplyQShape kShape{kBand, kSweeps, kLanes, kGroup};
  constexpr int kSpan = kShape.span(), kPad = kShape.span_padded();
  constexpr int kElems = kShape.step_elems(), kVals = kSweeps + kSweeps * kGroup;
  const int64_t i = first + blockIdx.y, steps = win.steps(i), kk = blockIdx.x;
  if (kk >= steps) return;
  __shared__ int64_t s_base;
  if (threadIdx.x == 0) {
    int64_t t = 0;
    for (int64_t x = first; x < i; ++x) t += win.steps(x);
    s_base = t;
  }
  __syncthreads();
  const int64_t n = win.n, be = win.be, s0 = win.first_sweep(i);
  const int64_t k = win.adjoint ? steps - 1 - kk : kk;
  // Reflector j of the step: its length (0: inactive) and where it starts in V2.
  const auto length = [&](int j) -> int64_t {
    const int64_t s = s0 + j;
    if (s > n - 2 || k >= band2tri_tasks(n, be, s)) return 0;
    return std::min(be, n - (s + 1 + k * be));
  };
  const auto entries = [&](int j) { return V2 + band2tri_v2_offset(n, be, s0 + j, k); };
  D* const out = pack + (s_base + kk) * kElems;
  for (int x = threadIdx.x; x < kElems; x += blockDim.x) {
    D val = make_scalar<D>(0);
    if (x < kSweeps) {
      if (length(x) > 0) {
        const D tau = tau2[(s0 + x) * tau_stride + k];
        val = win.adjoint ? conj(tau) : tau;
      }
    } else if (x < kVals) {
      const int j = (x - kSweeps) / kGroup, o = (j / kGroup) * kGroup + (x - kSweeps) % kGroup;
      const int64_t lj = length(j), lo = length(o);
      if (lj > 0 && lo > 0) {
        const D* vj = entries(j);
        const D* vo = entries(o);
        // rows max(j, o) .. min(j + lj, o + lo) - 1 are shared
        for (int64_t r = std::max(j, o); r < std::min(j + lj, o + lo); ++r)
          val = mul_add(conj(vj[r - j]), vo[r - o], val);
      }
    } else {
      const int y = x - kVals, j = y / (kLanes * kPad);
      const int p = (y % (kLanes * kPad)) / kPad, u = y % kPad;
      const int64_t e = p + kLanes * (j / kLanes + u) - j;
      if (u < kSpan && e >= 0 && e < length(j)) val = entries(j)[e];
    }
    out[x] = val;
  }
}

// ---- apply_windows: the reflectors, a block owning blockDim / kLanes columns ----------
//
// Thread p (< kLanes) of a column holds the step's window rows p + kLanes q (q < rows())
// in registers c[q]. Reflector j covers local rows j .. j + be - 1 and so the same slots
// j / kLanes .. + span() in every lane: with j a compile-time constant every index is one
// and c stays in registers. A group of kGroup reflectors (in order of application a_1,
// a_2, ...) is applied as
//   w = V^H c (the group's dot products, independent: summed over the lanes by shuffles),
//   y_{a_r} = tau_{a_r} (w_{a_r} - sum_{s < r} G(a_r, a_s) y_{a_s}),  G = V^H V (packed),
//   c -= V y,
// which is the reflectors one after the other (c before a_r is c - sum_{s<r} v_{a_s}
// y_{a_s}), with one dependent chain of loads, sums and shuffles per group instead of per
// reflector. Shared memory: two packed steps (the next one's cp.async in flight while this
// one computes), one barrier per step. Rows past the window or past n, and columns past m,
// hold zeros and are not stored; their v entries are zero, so they stay zero.

/// f(std::integral_constant<int, I>{}) for I = 0 .. kCount - 1, in order.
template <int kCount, typename F>
__device__ __forceinline__ void static_for(F&& f) {
  [&]<int... kI>(std::integer_sequence<int, kI...>) {
    (f(std::integral_constant<int, kI>{}), ...);
  }(std::make_integer_sequence<int, kCount>{});
}

template <typename D, int kBand, int kSweeps, int kLanes, int kGroup, bool kAdjoint, int kJ0>
__device__ __forceinline__ void apply_group(
    D (&c)[ApplyQShape{kBand, kSweeps, kLanes, kGroup}.rows()], const D* vals, const D* taus,
    const D* gram) {
  constexpr ApplyQShape kShape{kBand, kSweeps, kLanes, kGroup};
  constexpr int kRows = kShape.rows(), kSpan = kShape.span(), kPad = kShape.span_padded();
  bool active = false;  // block-uniform: no work for a group of inactive reflectors
#pragma unroll
  for (int b = 0; b < kGroup; ++b) active = active || !common::is_zero(taus[kJ0 + b]);
  if (!active) return;
  D v[kGroup][kPad], w[kGroup], y[kGroup] = {};  // y: set in order of application
  static_for<kGroup>([&](auto b) {
    constexpr int kLo = (kJ0 + b) / kLanes;
    const D* const vb = vals + (kJ0 + b) * kLanes * kPad;
#pragma unroll
    for (int u = 0; u < kPad; u += 2) load_pair(vb + u, v[b][u], v[b][u + 1]);
    D acc0 = make_scalar<D>(0), acc1 = make_scalar<D>(0);
#pragma unroll
    for (int u = 0; u < kSpan; ++u) {
      if (kLo + u < kRows) {
        if (u % 2 == 0)
          acc0 = mul_add(conj(v[b][u]), c[kLo + u], acc0);
        else
          acc1 = mul_add(conj(v[b][u]), c[kLo + u], acc1);
      }
    }
    w[b] = add(acc0, acc1);
  });
  static_for<kGroup>([&](auto b) { w[b] = lanes_sum<kLanes>(w[b]); });
  // Op N applies the group's last reflector first, op C its first. y holds -y_j (the
  // update below adds v (-y)), so w - G y is w + G (-y).
  static_for<kGroup>([&](auto r) {
    constexpr int kB = kAdjoint ? r : kGroup - 1 - r;
    D acc = w[kB];
    static_for<r>([&](auto q) {
      constexpr int kA = kAdjoint ? q : kGroup - 1 - q;
      acc = mul_add(gram[(kJ0 + kB) * kGroup + kA], y[kA], acc);
    });
    y[kB] = neg(mul(taus[kJ0 + kB], acc));
  });
  static_for<kGroup>([&](auto b) {
    constexpr int kLo = (kJ0 + b) / kLanes;
#pragma unroll
    for (int u = 0; u < kSpan; ++u)
      if (kLo + u < kRows) c[kLo + u] = mul_add(v[b][u], y[b], c[kLo + u]);
  });
}

template <typename D, int kBand, int kSweeps, int kLanes, int kGroup, bool kAdjoint, int... kI>
__device__ __forceinline__ void apply_step(
    D (&c)[ApplyQShape{kBand, kSweeps, kLanes, kGroup}.rows()], const D* vals, const D* taus,
    const D* gram, std::integer_sequence<int, kI...>) {
  // Q2 C: the step's last group first; op C: the first.
  constexpr int kGroups = kSweeps / kGroup;
  (apply_group<D, kBand, kSweeps, kLanes, kGroup, kAdjoint,
               (kAdjoint ? kI : kGroups - 1 - kI) * kGroup>(c, vals, taus, gram),
   ...);
}

template <typename D, int kBand, int kSweeps, int kLanes, int kGroup, bool kAdjoint>
__global__ void __launch_bounds__(kApplyThreads)
    apply_windows(Windows win, int64_t first, int64_t count, int64_t chunk_steps,
                  const D* pack, int64_t m, D* C, int64_t ldc) {
  constexpr ApplyQShape kShape{kBand, kSweeps, kLanes, kGroup};
  constexpr int kRows = kShape.rows(), kPad = kShape.span_padded();
  constexpr int kElems = kShape.step_elems(), kBytes = kElems * static_cast<int>(sizeof(D));
  constexpr int kVals = kSweeps + kSweeps * kGroup;
  extern __shared__ __align__(16) unsigned char smem_raw[];
  D* const buf0 = reinterpret_cast<D*>(smem_raw);
  const int p = static_cast<int>(threadIdx.x) % kLanes;
  const int64_t col = int64_t{blockIdx.x} * (blockDim.x / kLanes) + threadIdx.x / kLanes;
  const bool has_col = col < m;
  D* const Ccol = C + (has_col ? col : 0) * ldc + p;
  const int64_t n = win.n, be = win.be;

  copy_async(buf0, pack, kBytes);
  int64_t t = 0;
  for (int64_t i = first; i < first + count; ++i) {
    const int64_t s0 = win.first_sweep(i), steps = win.steps(i);
    for (int64_t kk = 0; kk < steps; ++kk, ++t) {
      const int64_t k = kAdjoint ? steps - 1 - kk : kk;
      const int64_t row0 = s0 + 1 + k * be;
      const int rows = static_cast<int>(std::min(be + kSweeps - 1, n - row0));
      D* const Cw = Ccol + row0;
      D c[kRows];
#pragma unroll
      for (int q = 0; q < kRows; ++q)
        c[q] = has_col && p + kLanes * q < rows ? Cw[kLanes * q] : make_scalar<D>(0);
      wait_copies();
      __syncthreads();  // step t in buf[t & 1]; everyone is done with step t - 1
      if (t + 1 < chunk_steps)
        copy_async(buf0 + ((t + 1) & 1) * kElems, pack + (t + 1) * kElems, kBytes);
      const D* const step = buf0 + (t & 1) * kElems;
      apply_step<D, kBand, kSweeps, kLanes, kGroup, kAdjoint>(
          c, step + kVals + p * kPad, step, step + kSweeps,
          std::make_integer_sequence<int, kSweeps / kGroup>{});
#pragma unroll
      for (int q = 0; q < kRows; ++q)
        if (has_col && p + kLanes * q < rows) Cw[kLanes * q] = c[q];
    }
  }
}

// ---- apply_reflectors_warp: any band, one warp per column -----------------------------
//
// Lanes over a reflector's rows, every reflector in Q2's order (op N: sweeps from the last;
// op C: from the first, tau conjugated), C read and written in place (L1/L2); __syncwarp
// orders one reflector's writes before the next one's reads. The engine's path for bands
// past the last shape, and the comparison kernel (MGBLAS_SB2ST_APPLY_Q=generic).
template <typename D, bool kAdjoint>
__global__ void __launch_bounds__(kWarpThreads)
    apply_reflectors_warp(int64_t n, int64_t be, const D* V2, const D* tau2,
                          int64_t tau_stride, int64_t m, D* C, int64_t ldc) {
  const int64_t col = int64_t{blockIdx.x} * (blockDim.x / 32) + threadIdx.x / 32;
  if (col >= m) return;  // the whole warp
  const int lane = static_cast<int>(threadIdx.x % 32);
  D* const c = C + col * ldc;
  for (int64_t x = 0; x + 1 < n; ++x) {
    const int64_t s = kAdjoint ? x : n - 2 - x, tasks = band2tri_tasks(n, be, s);
    for (int64_t k = 0; k < tasks; ++k) {
      D tau = tau2[s * tau_stride + k];
      if (kAdjoint) tau = conj(tau);
      if (common::is_zero(tau)) continue;
      const int64_t r = s + 1 + k * be, len = std::min(be, n - r);
      const D* const v = V2 + band2tri_v2_offset(n, be, s, k);
      D w = make_scalar<D>(0);
      for (int64_t e = lane; e < len; e += 32) w = mul_add(conj(v[e]), c[r + e], w);
      const D nw = neg(mul(tau, lanes_sum<32>(w)));
      for (int64_t e = lane; e < len; e += 32) c[r + e] = mul_add(v[e], nw, c[r + e]);
      __syncwarp();
    }
  }
}

// ---- launchers -----------------------------------------------------------------------

inline int multiprocessors(const Device& dev) {
  int sms = 0;
  MGBLAS_CHECK_CUDA(
      cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev.gpu_ordinal()));
  return std::max(sms, 1);
}

template <typename D, int kBand, int kSweeps, int kLanes, int kGroup, bool kAdjoint>
void run_windows(const Device& dev, cudaStream_t stream, int64_t n, int64_t be, const D* V2,
                 const D* tau2, int64_t m, D* C, int64_t ldc, int64_t pack_bytes) {
  constexpr ApplyQShape kShape{kBand, kSweeps, kLanes, kGroup};
  constexpr int64_t kElems = kShape.step_elems();
  const Windows win{n, be, kSweeps, common::ceil_div(n - 1, kSweeps), kAdjoint};
  const int64_t buffer_steps =
      chunk_capacity(win, kElems * int64_t{sizeof(D)}, pack_bytes);
  DeviceBuffer<D> pack(dev, static_cast<std::size_t>(buffer_steps * kElems));

  const auto kernel = apply_windows<D, kBand, kSweeps, kLanes, kGroup, kAdjoint>;
  const int smem = static_cast<int>(2 * kElems * sizeof(D));
  MGBLAS_CHECK_CUDA(
      cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, smem));
  const int sms = multiprocessors(dev);
  const int threads =
      common::ceil_div(m * kLanes, kApplyThreads) >= 2 * sms ? kApplyThreads : kApplyThreads / 2;
  const int64_t grid = common::ceil_div(m, threads / kLanes);

  for_each_chunk(win, buffer_steps, [&](int64_t first, int64_t count, int64_t steps, int64_t most) {
    pack_steps<D, kBand, kSweeps, kLanes, kGroup>
        <<<dim3(static_cast<unsigned>(most), static_cast<unsigned>(count)), kPackThreads, 0,
           stream>>>(win, first, V2, tau2, band2tri_tau2_stride(n, be), pack.data());
    MGBLAS_CHECK_LAUNCH(stream);
    kernel<<<static_cast<unsigned>(grid), threads, smem, stream>>>(win, first, count, steps,
                                                                    pack.data(), m, C, ldc);
    MGBLAS_CHECK_LAUNCH(stream);
  });
  // The packed steps are freed on return.
  MGBLAS_CHECK_CUDA(cudaStreamSynchronize(stream));
}

template <typename D, bool kAdjoint>
void run_warp(cudaStream_t stream, int64_t n, int64_t be, const D* V2, const D* tau2, int64_t m,
              D* C, int64_t ldc) {
  const int64_t grid = common::ceil_div(m, kWarpThreads / 32);
  apply_reflectors_warp<D, kAdjoint><<<static_cast<unsigned>(grid), kWarpThreads, 0, stream>>>(
      n, be, V2, tau2, band2tri_tau2_stride(n, be), m, C, ldc);
  MGBLAS_CHECK_LAUNCH(stream);
}

/// The engine: C := op(Q2) C on dev's `stream` (see kernels/sb2st_kernels.hpp).
template <Scalar T>
void apply_q(const Device& dev, cudaStream_t stream, Op op, int64_t n, int64_t b, const T* V2,
             const T* tau2, int64_t m, T* C, int64_t ldc) {
  using D = common::device_t<T>;
  if (n <= 1 || m <= 0) return;
  dev.make_current();
  // b >= n - 1 is a full matrix: the layout of band_to_tridiag is that of b = n - 1.
  const int64_t be = std::max<int64_t>(1, std::min(b, n - 1));
  const bool adjoint = op != Op::N;
  const auto choice = common::sb2st_apply_q_override();
  const int64_t pack_bytes =
      common::sb2st_apply_q_pack_bytes_override().value_or(kDefaultPackBytes);
  const D* v = common::device_ptr(V2);
  const D* t = common::device_ptr(tau2);
  D* c = common::device_ptr(C);
  // Double's default where the band fits, complex double's at band 32: the blocks on tensor
  // cores (apply_q_mma.cuh).
  if (!choice || choice->mma) {
    const bool ring = choice && choice->ring;
    if constexpr (std::is_same_v<D, double> || std::is_same_v<D, cuDoubleComplex>) {
      if (mma_serves<D>(dev, be, ring)) {
        if (adjoint)
          run_blocks_mma<D, true>(dev, stream, n, be, v, t, m, c, ldc, pack_bytes, ring);
        else
          run_blocks_mma<D, false>(dev, stream, n, be, v, t, m, c, ldc, pack_bytes, ring);
        return;
      }
    }
    if (choice)
      MGBLAS_THROW(BadArgument, "MGBLAS_SB2ST_APPLY_Q = ", ring ? "mma-ring" : "mma",
                   ": the tensor-core kernel is built for double with bands <= ", kMmaShape.band,
                   " and complex double with band ", kMmaShape.band,
                   " (the held tile, not mma-ring), on compute capability >= 8.0 only (band ", be,
                   ")");
  }
  constexpr std::size_t kBuilt = kBuiltApplyQShapes<T>;
  int pick = -1;
  if (!(choice && choice->generic)) {
    // The default: the first shape serving be. With a choice: the smallest band >= be of
    // the shapes of its sweeps, lanes (and group, where given).
    for (std::size_t i = 0; i < kBuilt; ++i) {
      const ApplyQShape s = built_apply_q_shape<T>(i);
      const bool named = !choice || (choice->sweeps == s.sweeps && choice->lanes == s.lanes &&
                                     (choice->group == 0 || choice->group == s.group));
      if (s.band < be || !named) continue;
      if (pick < 0 || (choice && s.band < built_apply_q_shape<T>(pick).band))
        pick = static_cast<int>(i);
      if (!choice) break;
    }
    if (choice && pick < 0)
      MGBLAS_THROW(BadArgument, "MGBLAS_SB2ST_APPLY_Q = ", choice->sweeps, "x", choice->lanes,
                   "x", choice->group, ": no such shape is built for band ", be);
  }
  if (pick < 0) {
    if (adjoint)
      run_warp<D, true>(stream, n, be, v, t, m, c, ldc);
    else
      run_warp<D, false>(stream, n, be, v, t, m, c, ldc);
    return;
  }
  common::with_variant<kBuilt>(pick, [&](auto index) {
    constexpr ApplyQShape s = built_apply_q_shape<T>(decltype(index)::value);
    if (adjoint)
      run_windows<D, s.band, s.sweeps, s.lanes, s.group, true>(dev, stream, n, be, v, t, m, c,
                                                               ldc, pack_bytes);
    else
      run_windows<D, s.band, s.sweeps, s.lanes, s.group, false>(dev, stream, n, be, v, t, m,
                                                                c, ldc, pack_bytes);
  });
}

}  // namespace mgblas::kernels::cuda::sb2st
