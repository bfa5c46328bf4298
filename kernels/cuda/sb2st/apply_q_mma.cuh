// SPDX-License-Identifier: BSD-3-Clause
// The CUDA engine's Q2 application in double and complex double on FP64 tensor cores
// (DMMA): C := op(Q2) C as blocks I - V T V^H, one per window of kSweeps sweeps and step k
// (kernels/sb2st_kernels.hpp: G(g, k) = H(s0, k) ... H(s0 + L - 1, k), applied in
// apply_q.cuh's order). apply_q.cuh's launcher calls run_blocks_mma for double when the
// band fits, for complex double at band 32.
//
// Why blocks here, when apply_q.cuh applies reflectors one at a time: there the FP64 pipe
// and the shared-memory pipe that feeds it cap the rate at 12-15% of DGEMM's on an H200.
// The tensor cores have twice the FP64 rate and take 512 multiply-adds per instruction
// (m16n8k4); the price is the zeros of the blocks. V is (kBand + L) x L with kBand
// entries per column, and Y = V T (op C: V T^H) is about as large: with the 16 x 4 tiles
// of zeros skipped (both are banded), a step costs about 1.6x the nominal 4 kBand L flops
// per column at kBand = L = 32. Measured on an H200 at n = m = 16384 (nominal flops): the
// ring kernel 0.72-0.75 s (11.8-12.2 TFLOP/s, 22-24% of DGEMM's rate; 2026-11-29,
// bench/results/h200-band2tri-apply-q.md), against 1.31 s one reflector at a time; the
// held tile 0.507 s (17.3 TFLOP/s, 34.7%; 2026-11-30, h200-apply-q-held.md).
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
//   Nsight Compute put its shared-memory pipe (L1/TEX 70%) and short-scoreboard waits
//   first, the tensor pipe at 33%, with 8 warps per SM.
// - apply_blocks_held (be = 32, the automatic band's usual value): the same steps with the
//   warp's 64 x 16 tile held in registers as the mmas' accumulator (below), so shared
//   memory carries only V, -Y and the rows that enter and leave. Complex double runs it on
//   8 columns a warp, their real and imaginary parts as the tile's 16 (1.45 s at n = m =
//   16384, 48% of ZGEMM's rate, against 3.27 s one reflector at a time; 2026-12-01,
//   h200-apply-q-complex.md). The ring kernel (double only) serves the other bands (and
//   MGBLAS_SB2ST_APPLY_Q=mma-ring).
// Memory: the packed steps of a chunk, at most MGBLAS_SB2ST_APPLY_Q_PACK_BYTES (256 MiB);
// the call waits for its stream before it frees them.
#pragma once

#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>
#include <type_traits>

#include "core/detail/cuda_check.hpp"
#include "core/device.hpp"
#include "core/memory.hpp"
#include "kernels/cuda/common/device_scalar.cuh"
#include "kernels/cuda/sb2st/apply_q_common.cuh"
#include "kernels/sb2st_kernels.hpp"

namespace mgblas::kernels::cuda::sb2st {

using common::conj;
using common::make_scalar;
using common::mul;
using common::mul_add;
using common::neg;

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
  // Not volatile: the instruction has no effect beyond d, so the compiler may interleave
  // independent tiles.
  asm("mma.sync.aligned.m16n8k4.row.col.f64.f64.f64.f64 {%0, %1, %2, %3}, {%4, %5}, {%6}, "
      "{%0, %1, %2, %3};\n"
      : "+d"(d[0]), "+d"(d[1]), "+d"(d[2]), "+d"(d[3])
      : "d"(a.x), "d"(a.y), "d"(b));
#elif defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
  asm("mma.sync.aligned.m8n8k4.row.col.f64.f64.f64.f64 {%0, %1}, {%2}, {%3}, {%0, %1};\n"
      : "+d"(d[0]), "+d"(d[1])
      : "d"(a.x), "d"(b));
  asm("mma.sync.aligned.m8n8k4.row.col.f64.f64.f64.f64 {%0, %1}, {%2}, {%3}, {%0, %1};\n"
      : "+d"(d[2]), "+d"(d[3])
      : "d"(a.y), "d"(b));
#else
  (void)d, (void)a, (void)b;
  __trap();  // apply_q.cuh launches these kernels on compute capability >= 8.0 only
#endif
}

// ---- The held tile's fragments (apply_blocks_held, be = 32) ---------------------------
//
// There the warp computes the transposed products, W^T = C_tile^T V (16 x 32) and
// C_tile^T += W^T (-Y)^T, with C_tile^T as the accumulator of 16 x 8 x 4 mmas: lane
// (g, t) = (lane / 4, lane % 4) holds rows 8 j + 2 t and 8 j + 2 t + 1 of the tile's 8-row
// group j, columns g and g + 8 (c[j] = {C(8j+2t, g), C(8j+2t+1, g), C(8j+2t, g+8),
// C(8j+2t+1, g+8)}). Taking the 4 rows of a k-step as 8 j + 2 t + e (e = 0, 1), that is
// also the A operand of C^T V: {c[j][e], c[j][2 + e]}; and W^T's accumulator is the A
// operand of W^T (-Y)^T with the reflectors of a k-step taken as 8 nt + 2 t + e. So the
// tile never leaves the registers within a window; V and -Y are the B operands, packed
// in that order, zero tiles left out:
//   V:  k-step (group j, e) x reflectors 8 nt .. 8 nt + 7, j = nt + s, s < 5 (V's column l
//       lives in rows l .. l + 31): [v_frag(s, e, nt) 32 + lane] = V(8 j + 2 t + e, 8 nt + g)
//   -Y: k-step (nt, e) x rows 8 j .. 8 j + 7 (op N: Y = V T, column l in rows 0 .. l + 31;
//       op C: Y = V T^H, rows l .. 63): [y_frag(op, nt, e, j) 32 + lane] =
//       -Y(8 j + g, 8 nt + 2 t + e)
namespace held {
inline constexpr int kBand = 32, kSweeps = 32, kGroups = 8;  // kGroups: 8-row groups
inline constexpr int kVFrags = 40, kFrags = kVFrags + 52;
inline constexpr int kStepElems = kFrags * 32;
inline constexpr int kStageLd = kMmaCols + 1;  // a staged row, padded: no bank conflicts
__host__ __device__ constexpr int v_frag(int s, int e, int nt) { return (2 * s + e) * 4 + nt; }
__host__ __device__ constexpr int y_first(bool adjoint, int nt) { return adjoint ? nt : 0; }
__host__ __device__ constexpr int y_count(bool adjoint, int nt) {
  return adjoint ? kGroups - nt : 5 + nt;
}
__host__ __device__ constexpr int y_frag(bool adjoint, int nt, int e, int j) {
  const int before = adjoint ? 16 * nt - nt * (nt - 1) : 10 * nt + nt * (nt - 1);
  return kVFrags + before + e * y_count(adjoint, nt) + j - y_first(adjoint, nt);
}
static_assert(y_frag(false, 3, 1, 7) == kFrags - 1 && y_frag(true, 3, 1, 7) == kFrags - 1);
}  // namespace held

// ---- pack_blocks ----------------------------------------------------------------------
//
// Fragment order of a packed step (kR = rows(), kL = sweeps; pairs of doubles per lane, one
// 16-byte load):
//   V:  [((f kR / 4 + u) 32 + lane) 2 + e] = V(4 u + lane % 4, 16 f + 8 e + lane / 4)
//       (A = V^H of W = V^H C, 16 reflectors x 4 rows)
//   -Y: [kR kL + ((q kL / 4 + u) 32 + lane) 2 + e] = -Y(16 q + 8 e + lane / 4, 4 u + lane % 4)
//       (A of C += (-Y) W, 16 rows x 4 reflectors)
// kHeld: the order of the held tile's B fragments instead (above), for D = double or
// complex double: the B operands conj(V) (of W^T = C^T conj(V)) and -Y^T, one element of D
// per lane and fragment (complex: its two parts, the B operands of the two real products).
// Shared memory (dynamic): V (kR x kL), T and the Gram matrix (kL x kL), tau, in D.
template <typename D, int kSweeps>
constexpr int pack_smem_bytes(int rows) {
  return static_cast<int>(((rows + 2 * kSweeps) * (kSweeps + 1) + kSweeps) * sizeof(D));
}

template <typename D, int kBand, int kSweeps, bool kAdjoint, bool kHeld>
__global__ void __launch_bounds__(kMmaPackThreads)
    pack_blocks(Windows win, int64_t first, const D* V2, const D* tau2, int64_t tau_stride,
                D* pack) {
  static_assert(kHeld || std::is_same_v<D, double>, "the ring kernel is double only");
  constexpr MmaShape kShape{kBand, kSweeps};
  constexpr int kR = kShape.rows(), kL = kSweeps;
  const int64_t i = first + blockIdx.y, steps = win.steps(i), kk = blockIdx.x;
  if (kk >= steps) return;
  __shared__ int64_t s_base;
  extern __shared__ __align__(16) unsigned char smem_raw[];
  using Row = D[kL + 1];
  Row* const v = reinterpret_cast<Row*>(smem_raw);
  Row* const t = v + kR;
  Row* const g = t + kL;
  D* const tau = reinterpret_cast<D*>(g + kL);
  const D zero = make_scalar<D>(0);
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
    v[r][j] = e >= 0 && e < len ? V2[band2tri_v2_offset(n, be, s0 + j, k) + e] : zero;
  }
  for (int j = tid; j < kL; j += blockDim.x)
    tau[j] = length(j) > 0 ? tau2[(s0 + j) * tau_stride + k] : zero;
  __syncthreads();
  // g(a, j) = v_a^H v_j for a < j (all that the recurrence reads).
  for (int x = tid; x < kL * kL; x += blockDim.x) {
    const int a = x / kL, j = x % kL;
    D sum = zero;
    if (a < j)
      for (int r = j; r < kR; ++r) sum = mul_add(conj(v[r][a]), v[r][j], sum);
    g[a][j] = sum;
  }
  __syncthreads();
  // Row a of T by itself: T(a, a) = tau_a, T(a, j) = -tau_j sum_{a <= l < j} T(a, l) g(l, j).
  for (int a = tid; a < kL; a += blockDim.x) {
    for (int j = 0; j < a; ++j) t[a][j] = zero;
    t[a][a] = tau[a];
    for (int j = a + 1; j < kL; ++j) {
      D sum = zero;
      for (int l = a; l < j; ++l) sum = mul_add(t[a][l], g[l][j], sum);
      t[a][j] = neg(mul(tau[j], sum));
    }
  }
  __syncthreads();
  // Y(r, j) = sum_l V(r, l) M(l, j), M = T (op N) or T^H (op C).
  const auto y = [&](int r, int j) {
    D sum = zero;
    if (kAdjoint)
      for (int l = j; l < kL; ++l) sum = mul_add(v[r][l], conj(t[j][l]), sum);
    else
      for (int l = 0; l <= j; ++l) sum = mul_add(v[r][l], t[l][j], sum);
    return sum;
  };
  if constexpr (kHeld) {
    static_assert(kBand == held::kBand && kSweeps == held::kSweeps);
    D* const out = pack + (s_base + kk) * held::kStepElems;
    // V's fragments, then all (nt, e, j) of -Y's, the zero tiles skipped.
    for (int x = tid; x < (held::kVFrags + 4 * 2 * held::kGroups) * 32; x += blockDim.x) {
      const int f = x / 32, lane = x % 32, g = lane / 4, tq = lane % 4;
      if (f < held::kVFrags) {
        const int s = f / 8, e = f / 4 % 2, nt = f % 4;
        out[x] = conj(v[8 * (nt + s) + 2 * tq + e][8 * nt + g]);
        continue;
      }
      const int nt = (f - held::kVFrags) / 16, e = (f - held::kVFrags) / 8 % 2,
                j = (f - held::kVFrags) % 8, j0 = held::y_first(kAdjoint, nt);
      if (j < j0 || j >= j0 + held::y_count(kAdjoint, nt)) continue;
      out[held::y_frag(kAdjoint, nt, e, j) * 32 + lane] = neg(y(8 * j + g, 8 * nt + 2 * tq + e));
    }
    return;
  } else {
    double* const out = pack + (s_base + kk) * kShape.step_elems();
    for (int x = tid; x < kR * kL; x += blockDim.x) {
      const int e = x % 2, lane = (x / 2) % 32, frag = x / 64;
      {  // V's fragment
        const int f = frag / (kR / 4), u = frag % (kR / 4);
        out[x] = v[4 * u + lane % 4][16 * f + 8 * e + lane / 4];
      }
      {  // -Y's
        const int q = frag / (kL / 4), u = frag % (kL / 4);
        out[kR * kL + x] = -y(16 * q + 8 * e + lane / 4, 4 * u + lane % 4);
      }
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

// ---- apply_blocks_held ----------------------------------------------------------------
//
// The ring kernel above moves every element of C through shared memory four times a step
// (the B operands of W = V^H C, the update's read and write, the ring's new rows), and
// Nsight Compute puts that pipe first. Here, for be = 32, a warp holds its 64 x 16 tile in
// registers for a whole window (the layout above), so shared memory carries only the
// packed V and -Y (one 8-byte B operand per mma) and the rows that enter and leave. The
// tile moves 32 rows a step (down; op C up): its two 32-row halves swap roles, so the
// tile's row group j is in register group (j + 4 (step & 1)) mod 8 (kSw = step & 1, a
// template argument: register arrays need indices known at compile time). The finished
// half leaves and the next rows enter through the warp's staging buffer (32 rows x 16
// columns), which cp.async fills a step ahead.
//
// Complex double (D = cuDoubleComplex) runs the same steps on 8 columns a warp: the tile's
// 16 columns are their real parts (0 .. 7) and imaginary parts (8 .. 15), so rows g and
// g + 8 of C_tile^T, the two rows of a lane's A fragment, are one element's two parts. A
// complex product X B, with X stacked as [Re X; Im X] and B = Br + i Bi, is then two real
// products on the same fragments: X Br + X' Bi, X' = [-Im X; Re X], whose fragment is the
// lane's own pair swapped with one part negated. A complex step is 2x a real step's mmas on
// half the columns, 4x per column as the arithmetic is; the packed step is 2x the bytes.

/// Whether D is complex double (else double).
template <typename D>
inline constexpr bool kHeldComplex = !std::is_same_v<D, double>;
/// Columns of C a warp holds: 16 doubles or 8 complex doubles.
template <typename D>
inline constexpr int kHeldCols = kHeldComplex<D> ? kMmaCols / 2 : kMmaCols;

/// d += a b for the stacked a (d += a b.x + a' b.y in complex, a' = {-a.y, a.x}).
template <typename D>
__device__ __forceinline__ void held_mma(double (&d)[4], double2 a, D b) {
  if constexpr (kHeldComplex<D>) {
    mma_16x8x4(d, a, b.x);
    mma_16x8x4(d, make_double2(-a.y, a.x), b.y);
  } else {
    mma_16x8x4(d, a, b);
  }
}

/// One step: W^T = C_tile^T conj(V), C_tile^T += W^T (-Y)^T, vf the packed step.
template <typename D, bool kAdjoint, int kSw>
__device__ __forceinline__ void held_update(double (&c)[held::kGroups][4], const D* vf, int lane) {
  // Two partial sums of W^T (real: the k-steps e = 0 and 1; complex: the products with
  // the real and the imaginary parts of B): eight independent chains of mmas, so that two
  // warps a scheduler cover the DMMA's latency.
  double w[4][4] = {}, w1[4][4] = {};
#pragma unroll
  for (int s = 0; s < 5; ++s)
#pragma unroll
    for (int e = 0; e < 2; ++e)
#pragma unroll
      for (int nt = 0; nt < 4; ++nt) {
        const int r = (nt + s + 4 * kSw) % held::kGroups;
        const double2 a = make_double2(c[r][e], c[r][2 + e]);
        const D b = vf[held::v_frag(s, e, nt) * 32 + lane];
        if constexpr (kHeldComplex<D>) {
          mma_16x8x4(w[nt], a, b.x);
          mma_16x8x4(w1[nt], make_double2(-a.y, a.x), b.y);
        } else {
          mma_16x8x4(e == 0 ? w[nt] : w1[nt], a, b);
        }
      }
#pragma unroll
  for (int nt = 0; nt < 4; ++nt)
#pragma unroll
    for (int x = 0; x < 4; ++x) w[nt][x] += w1[nt][x];
#pragma unroll
  for (int nt = 0; nt < 4; ++nt)
#pragma unroll
    for (int e = 0; e < 2; ++e)
#pragma unroll
      for (int x = 0; x < held::y_count(kAdjoint, nt); ++x) {
        const int j = held::y_first(kAdjoint, nt) + x, r = (j + 4 * kSw) % held::kGroups;
        held_mma<D>(c[r], make_double2(w[nt][e], w[nt][2 + e]),
                    vf[held::y_frag(kAdjoint, nt, e, j) * 32 + lane]);
      }
}

/// The finished half (op N the tile's upper, op C its lower) to the staging buffer, the
/// next rows from it, slot for slot: each lane trades its own 16 elements.
template <bool kAdjoint, int kSw>
__device__ __forceinline__ void held_swap(double (&c)[held::kGroups][4], double* stage, int g,
                                          int tq) {
  constexpr int h = kAdjoint ? 4 - 4 * kSw : 4 * kSw;
#pragma unroll
  for (int j = 0; j < 4; ++j)
#pragma unroll
    for (int x = 0; x < 4; ++x) {
      double& slot = stage[(8 * j + 2 * tq + x % 2) * held::kStageLd + g + 8 * (x / 2)];
      const double in = slot;
      slot = c[h + j][x];
      c[h + j][x] = in;
    }
}

/// The tile (rows row0 .. row0 + 63 of the warp's columns Cw) from C (kLoad, step 0's
/// register groups) or to C (kSw's): rows >= n and columns >= ncols are zeros, not stored.
/// Lane (g, tq)'s elements: rows 8 j + 2 tq + e of column g and g + 8 (real), or of complex
/// column g, both parts (one 16-byte access).
template <typename D, bool kLoad, int kSw>
__device__ __forceinline__ void held_tile(double (&c)[held::kGroups][4], D* Cw, int64_t ldc,
                                          int64_t row0, int64_t n, int ncols, int g, int tq) {
#pragma unroll
  for (int j = 0; j < held::kGroups; ++j)
#pragma unroll
    for (int e = 0; e < 2; ++e) {
      const int64_t row = row0 + 8 * j + 2 * tq + e;
      double* const r = c[(j + 4 * kSw) % held::kGroups];
      if constexpr (kHeldComplex<D>) {
        const bool in = row < n && g < ncols;
        if (kLoad) {
          const D x = in ? Cw[g * ldc + row] : make_scalar<D>(0);
          r[e] = x.x, r[2 + e] = x.y;
        } else if (in) {
          Cw[g * ldc + row] = make_scalar<D>(r[e], r[2 + e]);
        }
      } else {
#pragma unroll
        for (int h = 0; h < 2; ++h) {
          const int col = g + 8 * h;
          const bool in = row < n && col < ncols;
          if (kLoad)
            r[2 * h + e] = in ? Cw[col * ldc + row] : 0.0;
          else if (in)
            Cw[col * ldc + row] = r[2 * h + e];
        }
      }
    }
}

// Two blocks per SM (registers a thread: 186-192 in double, 218 in complex double; shared
// memory: 64.5 KB a block in double, 109 KB in complex double).
template <typename D, bool kAdjoint>
__global__ void __launch_bounds__(kMmaWarps * 32, 2)
    apply_blocks_held(Windows win, int64_t first, int64_t count, int64_t chunk_steps, const D* pack,
                      int64_t m, D* C, int64_t ldc) {
  constexpr int kElems = held::kStepElems, kBand = held::kBand, kCols = kHeldCols<D>;
  constexpr int kBytes = kElems * static_cast<int>(sizeof(D));
  extern __shared__ __align__(16) unsigned char smem_raw[];
  D* const buf0 = reinterpret_cast<D*>(smem_raw);
  const int warp = static_cast<int>(threadIdx.x) / 32, lane = static_cast<int>(threadIdx.x) % 32;
  const int g = lane / 4, tq = lane % 4;
  double* const stage = reinterpret_cast<double*>(buf0 + 2 * kElems) + warp * 32 * held::kStageLd;
  const int64_t col0 = (int64_t{blockIdx.x} * kMmaWarps + warp) * kCols;
  const int ncols = static_cast<int>(std::clamp<int64_t>(m - col0, 0, kCols));
  D* const Cw = C + std::min(col0, m) * ldc;  // the warp's first column
  const int64_t n = win.n;
  // Slot x (< 16) of a staged row: column x, or the real (x < 8) or imaginary part of
  // complex column x % 8.
  const auto slot_col = [](int x) { return kHeldComplex<D> ? x % 8 : x; };
  const auto slot_ptr = [&](int64_t row, int x) {
    return reinterpret_cast<double*>(Cw + slot_col(x) * ldc + row) + (kHeldComplex<D> ? x / 8 : 0);
  };
  // The staging buffer's row `lane`: rows lo + lane of C, from C (asynchronously, one
  // group; an empty one if !any) or to C.
  const auto stage_in = [&](int64_t lo, bool any) {
    const int64_t row = lo + lane;
    if (any)
#pragma unroll
      for (int x = 0; x < kMmaCols; ++x) {
        double* const d = stage + lane * held::kStageLd + x;
        if (row < n && slot_col(x) < ncols)
          copy8_async(d, slot_ptr(row, x));
        else
          *d = 0.0;
      }
    commit_copies();
  };
  const auto stage_out = [&](int64_t lo) {
    const int64_t row = lo + lane;
    const double* const src = stage + lane * held::kStageLd;
    if (row < n)
#pragma unroll
      for (int x = 0; x < kCols; ++x)
        if (x < ncols) {
          if constexpr (kHeldComplex<D>)
            Cw[x * ldc + row] = make_scalar<D>(src[x], src[x + 8]);
          else
            Cw[x * ldc + row] = src[x];
        }
  };

  // cp.async groups, per thread and in order: the packed step t + 1 (committed at step
  // t's start), the staged rows of step t + 2 (at its end); so each wait leaves the
  // newest group pending.
  copy_async(buf0, pack, kBytes);
  double c[held::kGroups][4];
  int64_t t = 0;
  for (int64_t i = first; i < first + count; ++i) {
    const int64_t s0 = win.first_sweep(i), steps = win.steps(i);
    const auto tile_row = [&](int64_t kk) {
      return s0 + 1 + (kAdjoint ? steps - 1 - kk : kk) * kBand;
    };
    // The rows step kk (>= 1) takes in: op N the tile's lower half, op C its upper half.
    const auto new_rows = [&](int64_t kk) { return tile_row(kk) + (kAdjoint ? 0 : kBand); };
    held_tile<D, true, 0>(c, Cw, ldc, tile_row(0), n, ncols, g, tq);
    stage_in(new_rows(1), steps > 1);
    for (int64_t kk = 0; kk < steps; ++kk, ++t) {
      wait_copies<1>();
      __syncthreads();  // step t in buf[t & 1]; everyone is done with step t - 1
      copy_async(buf0 + ((t + 1) & 1) * kElems, pack + (t + 1) * kElems,
                 t + 1 < chunk_steps ? kBytes : 0);
      const D* const vf = buf0 + (t & 1) * kElems;
      const bool odd = kk & 1;
      if (odd)
        held_update<D, kAdjoint, 1>(c, vf, lane);
      else
        held_update<D, kAdjoint, 0>(c, vf, lane);
      if (kk + 1 < steps) {
        wait_copies<1>();
        __syncwarp();  // the staged rows of step kk + 1, copied by every lane
        if (odd)
          held_swap<kAdjoint, 1>(c, stage, g, tq);
        else
          held_swap<kAdjoint, 0>(c, stage, g, tq);
        __syncwarp();
        stage_out(tile_row(kk) + (kAdjoint ? kBand : 0));
        __syncwarp();
        stage_in(new_rows(kk + 2), kk + 2 < steps);
      } else {
        if (odd)
          held_tile<D, false, 1>(c, Cw, ldc, tile_row(kk), n, ncols, g, tq);
        else
          held_tile<D, false, 0>(c, Cw, ldc, tile_row(kk), n, ncols, g, tq);
        __syncwarp();  // the next window may load rows that other lanes stored
      }
    }
  }
}

// ---- launcher ------------------------------------------------------------------------

/// Whether run_blocks_mma serves the call: compute capability >= 8.0 and, in double, be <=
/// the shape's band; in complex double be = the band and not `ring` (the held tile only).
template <typename D>
bool mma_serves(const Device& dev, int64_t be, bool ring) {
  int major = 0;
  MGBLAS_CHECK_CUDA(
      cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, dev.gpu_ordinal()));
  if (major < 8) return false;
  if constexpr (std::is_same_v<D, double>)
    return be <= kMmaShape.band;
  else if constexpr (std::is_same_v<D, cuDoubleComplex>)
    return be == kMmaShape.band && !ring;
  else
    return false;
}

/// C := op(Q2) C by the blocks on tensor cores: apply_blocks_held where be = 32 (unless
/// `ring`), else the ring kernel (double only; see mma_serves).
template <typename D, bool kAdjoint>
void run_blocks_mma(const Device& dev, cudaStream_t stream, int64_t n, int64_t be, const D* V2,
                    const D* tau2, int64_t m, D* C, int64_t ldc, int64_t pack_bytes, bool ring) {
  constexpr MmaShape s = kMmaShape;
  static_assert(s.band == held::kBand && s.sweeps == held::kSweeps);
  const bool held = !ring && be == s.band;
  const int64_t elems = held ? held::kStepElems : s.step_elems();
  const Windows win{n, be, s.sweeps, common::ceil_div(n - 1, s.sweeps), kAdjoint};
  const int64_t buffer_steps = chunk_capacity(win, elems * int64_t{sizeof(D)}, pack_bytes);
  DeviceBuffer<D> pack(dev, static_cast<std::size_t>(buffer_steps * elems));

  void (*kernel)(Windows, int64_t, int64_t, int64_t, const D*, int64_t, D*, int64_t) =
      apply_blocks_held<D, kAdjoint>;
  void (*pack_kernel)(Windows, int64_t, const D*, const D*, int64_t, D*) =
      pack_blocks<D, s.band, s.sweeps, kAdjoint, true>;
  int64_t per_warp = 32 * held::kStageLd;  // doubles
  int64_t cols = int64_t{kMmaWarps} * kHeldCols<D>;
  if constexpr (std::is_same_v<D, double>) {
    if (!held) {
      kernel = be % 16 == 0 ? apply_blocks<s.band, s.sweeps, kAdjoint, true>
                            : apply_blocks<s.band, s.sweeps, kAdjoint, false>;
      pack_kernel = pack_blocks<D, s.band, s.sweeps, kAdjoint, false>;
      per_warp = (s.ring_rows() + s.sweeps) * kMmaCols;
    }
  }
  const int smem = static_cast<int>(2 * elems * sizeof(D) + kMmaWarps * per_warp * sizeof(double));
  MGBLAS_CHECK_CUDA(
      cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, smem));
  constexpr int kPackSmem = pack_smem_bytes<D, s.sweeps>(s.rows());
  MGBLAS_CHECK_CUDA(
      cudaFuncSetAttribute(pack_kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, kPackSmem));
  const int64_t grid = common::ceil_div(m, cols);
  for_each_chunk(win, buffer_steps, [&](int64_t first, int64_t count, int64_t steps, int64_t most) {
    pack_kernel<<<dim3(static_cast<unsigned>(most), static_cast<unsigned>(count)), kMmaPackThreads,
                  kPackSmem, stream>>>(win, first, V2, tau2, band2tri_tau2_stride(n, be),
                                       pack.data());
    MGBLAS_CHECK_LAUNCH(stream);
    kernel<<<static_cast<unsigned>(grid), kMmaWarps * 32, smem, stream>>>(
        win, first, count, steps, pack.data(), m, C, ldc);
    MGBLAS_CHECK_LAUNCH(stream);
  });
  MGBLAS_CHECK_CUDA(cudaStreamSynchronize(stream));
}

}  // namespace mgblas::kernels::cuda::sb2st
