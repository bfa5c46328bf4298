// SPDX-License-Identifier: BSD-3-Clause
// The CUDA engine's Q2 application in double on FP64 tensor cores (DMMA): C := op(Q2) C
// as blocks I - V T V^H, one per window of kSweeps sweeps and step k (kernels/
// sb2st_kernels.hpp: G(g, k) = H(s0, k) ... H(s0 + L - 1, k), applied in apply_q.cuh's
// order). apply_q.cuh's launcher calls run_blocks_mma for double when the band fits.
//
// Why blocks here, when apply_q.cuh applies reflectors one at a time: there the FP64 pipe
// and the shared-memory pipe that feeds it cap the rate at 12-15% of DGEMM's on an H200.
// The tensor cores have twice the FP64 rate and take 512 multiply-adds per instruction
// (m16n8k4); the price is the zeros of the blocks. V is (kBand + L) x L with kBand
// entries per column, and Y = V T (op C: V T^H) is about as large: with the 16 x 4 tiles
// of zeros skipped (both are banded), a step costs about 1.6x the nominal 4 kBand L flops
// per column at kBand = L = 32. Measured (H200, 2026-11-29, bench/results/
// h200-band2tri-apply-q.md): 0.72-0.75 s for n = m = 16384 (11.8-12.2 TFLOP/s nominal,
// 22-23% of DGEMM's rate) against 1.31 s one reflector at a time; Nsight Compute puts the
// shared-memory pipe (L1/TEX 70%) and short-scoreboard waits first, the tensor pipe at
// 33%, with 8 warps per SM (shared memory: two packed steps of 32 KB and 12 KB per warp).
//
// The pieces:
// - pack_blocks: one thread block per step (window i, step k) writes V and -Y in the
//   order of the mma fragments (so a warp reads a fragment as 256 contiguous bytes):
//   V(r, j) = v_j(r - j) (local row r is C's row s0 + 1 + k be + r), the Gram matrix
//   V^H V, T by LAPACK's larft recurrence (forward, columnwise), Y = V T or V T^H.
// - apply_blocks: a warp owns 16 columns of C for the whole call (columns are independent:
//   no grid-wide synchronisation). It keeps the step's kRows rows of them in a shared-
//   memory ring indexed by C's row and, per step, computes W = V^H C_tile (L x 16) and
//   C_tile += (-Y) W with 16 x 8 x 4 DMMAs, writes the kBand rows the window is done with
//   back to C and takes the next kBand rows, whose loads it issued before the
//   arithmetic. The block's warps share the packed step (cp.async, double-buffered).
// Memory: the packed steps of a chunk, at most MGBLAS_SB2ST_APPLY_Q_PACK_BYTES (256 MiB);
// the call waits for its stream before it frees them.
#pragma once

#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>

#include "core/detail/cuda_check.hpp"
#include "core/device.hpp"
#include "core/memory.hpp"
#include "kernels/cuda/common/device_scalar.cuh"
#include "kernels/cuda/sb2st/apply_q_common.cuh"
#include "kernels/sb2st_kernels.hpp"

namespace mgblas::kernels::cuda::sb2st {

/// The DMMA kernel's shape: reflectors of length <= kBand, windows of kSweeps sweeps.
struct MmaShape {
  int band, sweeps;
  /// Rows of a step's tile: the be + L - 1 rows of the block, rounded up to 8.
  constexpr int rows() const { return band + sweeps; }
  /// Elements of one packed step: V (rows x sweeps) and -Y (rows x sweeps).
  constexpr int step_elems() const { return 2 * rows() * sweeps; }
  /// The ring of a warp's tile: rows() rounded up to a power of two.
  constexpr int ring_rows() const {
    int r = 1;
    while (r < rows()) r *= 2;
    return r;
  }
};
inline constexpr MmaShape kMmaShape{32, 32};
inline constexpr int kMmaCols = 16;       // columns of C per warp (two 8-column mma tiles)
inline constexpr int kMmaWarps = 4;       // warps per block: 64 columns
inline constexpr int kMmaPackThreads = 256;

/// Where element (row, c) of a warp's 16-column tile sits in a 16-wide row of shared
/// memory: c ^ swizzle(row & 15), swizzle = bits 0 and 2 kept, bits 1 and 3 swapped. Any
/// 16 consecutive rows of one column then fall in 16 different slots (the loads from C,
/// 32 rows per instruction, take two wavefronts), and of any 4 consecutive rows two use
/// each half of the row (the mma's B fragments, 4 rows x 8 columns, take two).
__device__ __forceinline__ int swizzle(int r16) {
  return (r16 & 5) | ((r16 & 2) << 2) | ((r16 & 8) >> 2);
}
__device__ __forceinline__ int tile_slot(int64_t row, int c) {
  return c ^ swizzle(static_cast<int>(row & 15));
}

/// d += a b for one 16 x 8 x 4 tile in double: a = {A(g, t), A(g + 8, t)}, b = B(t, g),
/// d = {D(g, 2t), D(g, 2t + 1), D(g + 8, 2t), D(g + 8, 2t + 1)} with g = lane / 4, t =
/// lane % 4. Hopper has the m16n8k4 shape (one instruction); compute capability 8.x runs
/// it as the two m8n8k4 tiles it is made of.
__device__ __forceinline__ void mma_16x8x4(double (&d)[4], double2 a, double b) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  asm volatile(
      "mma.sync.aligned.m16n8k4.row.col.f64.f64.f64.f64 {%0, %1, %2, %3}, {%4, %5}, {%6}, "
      "{%0, %1, %2, %3};\n"
      : "+d"(d[0]), "+d"(d[1]), "+d"(d[2]), "+d"(d[3])
      : "d"(a.x), "d"(a.y), "d"(b));
#elif defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
  asm volatile("mma.sync.aligned.m8n8k4.row.col.f64.f64.f64.f64 {%0, %1}, {%2}, {%3}, {%0, %1};\n"
               : "+d"(d[0]), "+d"(d[1])
               : "d"(a.x), "d"(b));
  asm volatile("mma.sync.aligned.m8n8k4.row.col.f64.f64.f64.f64 {%0, %1}, {%2}, {%3}, {%0, %1};\n"
               : "+d"(d[2]), "+d"(d[3])
               : "d"(a.y), "d"(b));
#else
  (void)d, (void)a, (void)b;
  __trap();  // apply_q.cuh launches these kernels on compute capability >= 8.0 only
#endif
}

// ---- pack_blocks ----------------------------------------------------------------------
//
// Fragment order of a packed step (kR = rows(), kL = sweeps; pairs of doubles per lane, one
// 16-byte load):
//   V:  [((f kR / 4 + u) 32 + lane) 2 + e] = V(4 u + lane % 4, 16 f + 8 e + lane / 4)
//       (A = V^H of W = V^H C, 16 reflectors x 4 rows)
//   -Y: [kR kL + ((q kL / 4 + u) 32 + lane) 2 + e] = -Y(16 q + 8 e + lane / 4, 4 u + lane % 4)
//       (A of C += (-Y) W, 16 rows x 4 reflectors)
template <int kBand, int kSweeps, bool kAdjoint>
__global__ void __launch_bounds__(kMmaPackThreads)
    pack_blocks(Windows win, int64_t first, const double* V2, const double* tau2,
                int64_t tau_stride, double* pack) {
  constexpr MmaShape kShape{kBand, kSweeps};
  constexpr int kR = kShape.rows(), kL = kSweeps;
  const int64_t i = first + blockIdx.y, steps = win.steps(i), kk = blockIdx.x;
  if (kk >= steps) return;
  __shared__ int64_t s_base;
  __shared__ double v[kR][kL + 1], t[kL][kL + 1], g[kL][kL + 1], tau[kL];
  const int tid = static_cast<int>(threadIdx.x);
  if (tid == 0) {
    int64_t b = 0;
    for (int64_t x = first; x < i; ++x) b += win.steps(x);
    s_base = b;
  }
  const int64_t n = win.n, be = win.be, s0 = win.first_sweep(i);
  const int64_t k = kAdjoint ? steps - 1 - kk : kk;
  const auto length = [&](int j) -> int64_t {
    const int64_t s = s0 + j;
    if (s > n - 2 || k >= band2tri_tasks(n, be, s)) return 0;
    return std::min(be, n - (s + 1 + k * be));
  };
  for (int x = tid; x < kR * kL; x += blockDim.x) {
    const int r = x / kL, j = x % kL, e = r - j;
    const int64_t len = length(j);
    v[r][j] = e >= 0 && e < len ? V2[band2tri_v2_offset(n, be, s0 + j, k) + e] : 0.0;
  }
  for (int j = tid; j < kL; j += blockDim.x)
    tau[j] = length(j) > 0 ? tau2[(s0 + j) * tau_stride + k] : 0.0;
  __syncthreads();
  // g(a, j) = v_a . v_j for a < j (all that the recurrence reads).
  for (int x = tid; x < kL * kL; x += blockDim.x) {
    const int a = x / kL, j = x % kL;
    double sum = 0;
    if (a < j)
      for (int r = j; r < kR; ++r) sum += v[r][a] * v[r][j];
    g[a][j] = sum;
  }
  __syncthreads();
  // Row a of T by itself: T(a, a) = tau_a, T(a, j) = -tau_j sum_{a <= l < j} T(a, l) g(l, j).
  for (int a = tid; a < kL; a += blockDim.x) {
    for (int j = 0; j < a; ++j) t[a][j] = 0;
    t[a][a] = tau[a];
    for (int j = a + 1; j < kL; ++j) {
      double sum = 0;
      for (int l = a; l < j; ++l) sum += t[a][l] * g[l][j];
      t[a][j] = -tau[j] * sum;
    }
  }
  __syncthreads();
  double* const out = pack + (s_base + kk) * kShape.step_elems();
  for (int x = tid; x < kR * kL; x += blockDim.x) {
    const int e = x % 2, lane = (x / 2) % 32, frag = x / 64;
    {  // V's fragment
      const int f = frag / (kR / 4), u = frag % (kR / 4);
      out[x] = v[4 * u + lane % 4][16 * f + 8 * e + lane / 4];
    }
    {  // -Y's: Y(r, j) = sum_l V(r, l) M(l, j), M = T (op N) or T^T (op C)
      const int q = frag / (kL / 4), u = frag % (kL / 4);
      const int r = 16 * q + 8 * e + lane / 4, j = 4 * u + lane % 4;
      double sum = 0;
      if (kAdjoint)
        for (int l = j; l < kL; ++l) sum += v[r][l] * t[j][l];
      else
        for (int l = 0; l <= j; ++l) sum += v[r][l] * t[l][j];
      out[kR * kL + x] = -sum;
    }
  }
}

// ---- apply_blocks ---------------------------------------------------------------------

// kAligned: be % 16 == 0. Every tile then starts at a row = 1 (mod 16) (windows start at
// multiples of kSweeps), so the swizzle of a tile row is known from its local index and the
// lane: the compiler hoists it out of the loops, and an access costs a few instructions.
template <int kBand, int kSweeps, bool kAdjoint, bool kAligned>
__global__ void __launch_bounds__(kMmaWarps * 32)
    apply_blocks(Windows win, int64_t first, int64_t count, int64_t chunk_steps,
                 const double* pack, int64_t m, double* C, int64_t ldc) {
  constexpr MmaShape kShape{kBand, kSweeps};
  constexpr int kR = kShape.rows(), kL = kSweeps, kRing = kShape.ring_rows();
  constexpr int kElems = kShape.step_elems();
  constexpr int kBytes = kElems * static_cast<int>(sizeof(double));
  constexpr int kPre = kBand / 32;  // rows of the next step's new rows per lane
  static_assert(kBand % 32 == 0 && kSweeps % 16 == 0, "whole fragments and load rows");
  extern __shared__ __align__(16) unsigned char smem_raw[];
  double* const buf0 = reinterpret_cast<double*>(smem_raw);
  const int warp = static_cast<int>(threadIdx.x) / 32, lane = static_cast<int>(threadIdx.x) % 32;
  const int gid = lane / 4, tig = lane % 4;
  double* const ring = buf0 + 2 * kElems + warp * (kRing + kL) * kMmaCols;
  double* const wsm = ring + kRing * kMmaCols;
  const int64_t col0 = (int64_t{blockIdx.x} * kMmaWarps + warp) * kMmaCols;
  const int ncols = static_cast<int>(std::clamp<int64_t>(m - col0, 0, kMmaCols));
  const int64_t n = win.n, be = win.be;
  const auto at = [&](int64_t row, int c) -> double& {
    return ring[(row & (kRing - 1)) * kMmaCols + tile_slot(row, c)];
  };
  // Rows [lo, hi) of the warp's columns between C and the ring (rows past n: zeros).
  const auto load_rows = [&](int64_t lo, int64_t hi) {
    for (int64_t row = lo + lane; row < hi; row += 32)
#pragma unroll
      for (int c = 0; c < kMmaCols; ++c)
        at(row, c) = c < ncols && row < n ? C[(col0 + c) * ldc + row] : 0.0;
  };
  const auto store_rows = [&](int64_t lo, int64_t hi) {
    hi = std::min(hi, n);
    for (int64_t row = lo + lane; row < hi; row += 32)
#pragma unroll
      for (int c = 0; c < kMmaCols; ++c)
        if (c < ncols) C[(col0 + c) * ldc + row] = at(row, c);
  };

  copy_async(buf0, pack, kBytes);
  int64_t t = 0;
  for (int64_t i = first; i < first + count; ++i) {
    const int64_t s0 = win.first_sweep(i), steps = win.steps(i);
    {
      const int64_t row0 = s0 + 1 + (kAdjoint ? steps - 1 : 0) * be;
      load_rows(row0, row0 + kR);
    }
    for (int64_t kk = 0; kk < steps; ++kk, ++t) {
      const int64_t k = kAdjoint ? steps - 1 - kk : kk;
      const int64_t row0 = s0 + 1 + k * be;
      const bool more = kk + 1 < steps;
      // The next step's new rows: be of them (the rest of its tile is this one's), to
      // registers now, to the ring after this step has written its finished rows out.
      const int64_t next_lo = kAdjoint ? row0 - be : row0 + kR;
      double pre[kPre][kMmaCols];
#pragma unroll
      for (int p = 0; p < kPre; ++p) {
        const int64_t row = next_lo + lane + 32 * p;
        const bool ok = more && lane + 32 * p < be && row < n;
#pragma unroll
        for (int c = 0; c < kMmaCols; ++c)
          pre[p][c] = ok && c < ncols ? C[(col0 + c) * ldc + row] : 0.0;
      }
      wait_copies();
      __syncthreads();  // step t in buf[t & 1]; everyone is done with step t - 1
      if (t + 1 < chunk_steps)
        copy_async(buf0 + ((t + 1) & 1) * kElems, pack + (t + 1) * kElems, kBytes);
      const double* const vf = buf0 + (t & 1) * kElems;
      const double* const yf = vf + kR * kL;
      // The ring index of the tile's local row r (0 <= r < kR), column c: at(row0 + r, c).
      const int row0m = static_cast<int>(row0 & (kRing - 1));
      const int lo16 = kAligned ? 1 : static_cast<int>(row0 & 15);
      const auto tile_index = [&](int r, int c) {
        return ((row0m + r) & (kRing - 1)) * kMmaCols + (c ^ swizzle((lo16 + r) & 15));
      };

      // W = V^H C_tile: V's columns 16 f .. 16 f + 15 live in rows 16 f .. 16 f + 15 + kBand - 1.
      double w[kL / 16][2][4] = {};
#pragma unroll
      for (int u = 0; u < kR / 4; ++u) {
        double b[2];
#pragma unroll
        for (int h = 0; h < 2; ++h) b[h] = ring[tile_index(4 * u + tig, 8 * h + gid)];
#pragma unroll
        for (int f = 0; f < kL / 16; ++f) {
          if (4 * u + 3 < 16 * f || 4 * u > 16 * f + 15 + kBand - 1) continue;
          const double2 a = reinterpret_cast<const double2*>(vf)[(f * (kR / 4) + u) * 32 + lane];
#pragma unroll
          for (int h = 0; h < 2; ++h) mma_16x8x4(w[f][h], a, b[h]);
        }
      }
#pragma unroll
      for (int f = 0; f < kL / 16; ++f)
#pragma unroll
        for (int h = 0; h < 2; ++h)
#pragma unroll
          for (int e = 0; e < 4; ++e) {
            const int r = 16 * f + 8 * (e / 2) + gid;
            wsm[r * kMmaCols + tile_slot(r, 8 * h + 2 * tig + e % 2)] = w[f][h][e];
          }
      __syncwarp();
      // C_tile += (-Y) W: Y's column j has rows 0 .. j + kBand - 1 (op N: V T, T upper) or
      // j .. (op C: V T^H).
      double d[kR / 16][2][4] = {};
#pragma unroll
      for (int u = 0; u < kL / 4; ++u) {
        double b[2];
#pragma unroll
        for (int h = 0; h < 2; ++h) {
          const int r = 4 * u + tig;
          b[h] = wsm[r * kMmaCols + tile_slot(r, 8 * h + gid)];
        }
#pragma unroll
        for (int q = 0; q < kR / 16; ++q) {
          const bool zero = kAdjoint ? 16 * q + 15 < 4 * u : 16 * q > 4 * u + 3 + kBand - 1;
          if (zero) continue;
          const double2 a = reinterpret_cast<const double2*>(yf)[(q * (kL / 4) + u) * 32 + lane];
#pragma unroll
          for (int h = 0; h < 2; ++h) mma_16x8x4(d[q][h], a, b[h]);
        }
      }
      // The update, a pair of columns (one 16-byte access) at a time; the swizzle's bit 0
      // swaps the pair's two slots.
#pragma unroll
      for (int q = 0; q < kR / 16; ++q)
#pragma unroll
        for (int e = 0; e < 2; ++e)
#pragma unroll
          for (int h = 0; h < 2; ++h) {
            const int r = 16 * q + 8 * e + gid, sw = swizzle((lo16 + r) & 15);
            double2& x = *reinterpret_cast<double2*>(
                ring + ((row0m + r) & (kRing - 1)) * kMmaCols + (((8 * h + 2 * tig) ^ sw) & ~1));
            const double lo = d[q][h][2 * e], hi = d[q][h][2 * e + 1];
            if (sw & 1)
              x.x += hi, x.y += lo;
            else
              x.x += lo, x.y += hi;
          }
      __syncwarp();
      if (more) {
        // Rows the window is done with: op N the first be, op C the last be.
        const int64_t done_lo = kAdjoint ? row0 + kR - be : row0;
        store_rows(done_lo, done_lo + be);
        __syncwarp();
#pragma unroll
        for (int p = 0; p < kPre; ++p)
          if (lane + 32 * p < be)
#pragma unroll
            for (int c = 0; c < kMmaCols; ++c) at(next_lo + lane + 32 * p, c) = pre[p][c];
        __syncwarp();
      } else {
        store_rows(row0, row0 + kR);
        __syncwarp();  // the next window may load rows that other lanes stored
      }
    }
  }
}

// ---- launcher ------------------------------------------------------------------------

/// Whether run_blocks_mma serves the call: double, compute capability >= 8.0, be <= the
/// shape's band.
inline bool mma_serves(const Device& dev, int64_t be) {
  int major = 0;
  MGBLAS_CHECK_CUDA(
      cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, dev.gpu_ordinal()));
  return major >= 8 && be <= kMmaShape.band;
}

template <bool kAdjoint>
void run_blocks_mma(const Device& dev, cudaStream_t stream, int64_t n, int64_t be,
                    const double* V2, const double* tau2, int64_t m, double* C, int64_t ldc,
                    int64_t pack_bytes) {
  constexpr MmaShape s = kMmaShape;
  constexpr int64_t kElems = s.step_elems();
  const Windows win{n, be, s.sweeps, common::ceil_div(n - 1, s.sweeps), kAdjoint};
  const int64_t buffer_steps =
      chunk_capacity(win, kElems * int64_t{sizeof(double)}, pack_bytes);
  DeviceBuffer<double> pack(dev, static_cast<std::size_t>(buffer_steps * kElems));

  const auto kernel = be % 16 == 0 ? apply_blocks<s.band, s.sweeps, kAdjoint, true>
                                    : apply_blocks<s.band, s.sweeps, kAdjoint, false>;
  const int smem = static_cast<int>(
      (2 * kElems + kMmaWarps * (s.ring_rows() + s.sweeps) * kMmaCols) * sizeof(double));
  MGBLAS_CHECK_CUDA(
      cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, smem));
  const int64_t grid = common::ceil_div(m, int64_t{kMmaWarps} * kMmaCols);
  for_each_chunk(win, buffer_steps, [&](int64_t first, int64_t count, int64_t steps, int64_t most) {
    pack_blocks<s.band, s.sweeps, kAdjoint>
        <<<dim3(static_cast<unsigned>(most), static_cast<unsigned>(count)), kMmaPackThreads,
           0, stream>>>(win, first, V2, tau2, band2tri_tau2_stride(n, be), pack.data());
    MGBLAS_CHECK_LAUNCH(stream);
    kernel<<<static_cast<unsigned>(grid), kMmaWarps * 32, smem, stream>>>(
        win, first, count, steps, pack.data(), m, C, ldc);
    MGBLAS_CHECK_LAUNCH(stream);
  });
  MGBLAS_CHECK_CUDA(cudaStreamSynchronize(stream));
}

}  // namespace mgblas::kernels::cuda::sb2st
