// SPDX-License-Identifier: BSD-3-Clause
// The CUDA engine's float symmetric and complex float Hermitian products with 17 to 32
// columns (skinny.hpp): C = alpha S B + beta C, S m x m with one triangle stored, B m x n,
// n <= 32.
//
// Why: stage one of the two-stage reduction multiplies the trailing matrix by the band's
// 32 columns once per panel, and its diagonal squares went to cuBLAS's SSYMM / CHEMM,
// which run 4-6x slower than SGEMM / CGEMM of the same size on an H200 (SSYMM 0.92 ms
// against 0.20 ms at m = 8192, 2.86 against 0.52 ms at 16384; bench/probes/symm_n32.cu).
// hetrd_2stage s n = 32768 spent 2.49 s of 3.9 s in that product
// (bench/results/h200-svd-overlap.md). DSYMM is within 2.3x of DGEMM there and ZHEMM
// within 10% of ZGEMM, so double and complex double stay on cuBLAS. As a plain product
// (op(A) = A or A^T) the float kernel ran at 0.7-1.3x cuBLAS's SGEMM, so gemm stays on
// cuBLAS too (bench/results/h200-skinny-sgemm.md).
//
// Mapping: block (bx, by) owns rows [256 bx, 256 bx + 256) of C and the range
// [by kps, (by + 1) kps) of S's columns (k = m). With gridDim.y > 1 it writes raw partial
// sums to work, and tsm2::reduce_kernel finishes C, adding the splits in order: no
// atomics, so every run gives the same bits. A warp owns 64 rows and all 32 columns; lane
// l a micro-tile of 8 rows ((l / 4) 8 + i) by 8 columns ((l % 4) 8 + j), 64 accumulators.
// Per k it reads 8 values of S and 8 of B from shared memory, in 16-byte loads.
// - Why 8 x 8: a broadcast load still moves 16 bytes per lane through the shared-memory
//   pipe (tsgemm.cuh), and 16 x 16 bytes per 64 multiply-adds keep that pipe below the FMA
//   pipe's rate.
// - The pipeline: tiles of 32 k (S: 256 x 32, B: 32 x 32) pass through a three-stage
//   cp.async ring, one barrier per tile.
// - How a tile of S is read (read_of below): as A or as A^T, with 16-byte copies along
//   A's contiguous rows, or element by element where it crosses the diagonal. A tile read
//   as A is stored k-major (As[p][r]), one read as A^T row-major (mirror_slot), so that
//   either way the micro-tile's values come in 16-byte loads.
// Each stored element is read twice, once for each place it holds in S: m^2 floats, 1.07 GB
// at m = 16384 (ncu: 1.05 GB from DRAM), in 0.55 ms 1.9 TB/s, 43% of the 4.5 TB/s measured
// for reads, with the FMA pipe 56% busy. It is bound by issue and latency, not by memory:
// 2 warps per scheduler (245 registers), stalled mostly on dispatch, shared-memory and
// fixed-latency dependencies (bench/results/h200-skinny-pipes.md).
#include <cuda_runtime.h>

#include <algorithm>
#include <cmath>
#include <complex>
#include <cstdint>

#include "core/detail/cuda_check.hpp"
#include "kernels/cuda/common/debug_env.hpp"
#include "kernels/cuda/common/device_scalar.cuh"
#include "kernels/cuda/gemm/skinny.hpp"
#include "kernels/cuda/tsgemm/tsgemm.cuh"
#include "kernels/cuda/tsgemm/tsgemm_model.hpp"

namespace mgblas::kernels::cuda::skinny {
namespace {

constexpr int kThreads = 128;
constexpr int kBlockRows = 256;  // rows of C per block: 4 warps x 64
constexpr int kTileK = 32;       // k per pipeline stage
constexpr int kStages = 3;
constexpr int kLdA = kBlockRows + 4;   // As row stride: 16-byte rows
constexpr int kLdB = kMaxColumns + 4;  // Bs row stride
constexpr int kStageFloats = kTileK * (kLdA + kLdB);
constexpr int kSmemBytes = kStages * kStageFloats * static_cast<int>(sizeof(float));

/// One float from global to shared memory in the background (zero where !valid).
__device__ __forceinline__ void copy4(float* dst, const float* src, bool valid) {
  tsm2::copy_async<float>(dst, src, valid);
}

/// 16 bytes (both ends aligned) from global to shared memory in the background: `count`
/// elements of them read, the rest zero.
template <typename E>
__device__ __forceinline__ void copy16(E* dst, const E* src, int count) {
  const unsigned s = static_cast<unsigned>(__cvta_generic_to_shared(dst));
  asm volatile("cp.async.cg.shared.global [%0], [%1], 16, %2;\n" ::"r"(s), "l"(src),
               "r"(static_cast<int>(sizeof(E)) * count));
}

/// Stages a tile of kRows rows of S by kTile k that lies inside m x kend, wholly on one
/// side of the diagonal, with 16-byte aligned rows, and its B tile (E: float or complex
/// float; both kernels' shapes). The copies go to where the kernels' general staging puts
/// them (As[p][r] at p kLdAs + r, or the mirror slot of row r and k p, whose 16-byte
/// chunks are permuted by (r / kLaneRows) mod 8; Bs[p][c] at p kLdBs + c), from a thread's
/// fixed offset plus multiples of lda: the general form's bounds and 64-bit index
/// arithmetic cost about 30 instructions a copy, a third as many as the tile's
/// multiply-adds (bench/results/h200-skinny-pipes.md).
template <typename E, int kRows, int kTile, int kLdAs, int kLdBs, int kLaneRows>
__device__ __forceinline__ void stage_inside(E* As, E* Bs, int n, const E* A, int64_t lda,
                                             const E* B, int64_t ldb, int64_t r0, int64_t p0,
                                             bool mirror) {
  constexpr int kV = 16 / static_cast<int>(sizeof(E));  // elements a copy
  static_assert(kThreads == 128 && kRows / kV == 64 && kTile / kV == 8 && kLaneRows <= 16 &&
                    (kLaneRows & (kLaneRows - 1)) == 0,
                "the offsets below assume both kernels' shapes");
  const int t = threadIdx.x;
  // Unsigned, so that dividing by the powers of two below is a shift.
  const auto below = [](unsigned d) { return static_cast<int>(threadIdx.x / d); };
  const auto mod = [](unsigned d) { return static_cast<int>(threadIdx.x % d); };
  if (!mirror) {  // thread t: rows kV (t % 64) .. + kV - 1 of columns 2 i + t / 64
    const E* src = A + (p0 + (t >> 6)) * lda + r0 + kV * (t & 63);
    E* dst = As + (t >> 6) * kLdAs + kV * (t & 63);
#pragma unroll
    for (int i = 0; i < kTile / 2; ++i) copy16(dst + 2 * i * kLdAs, src + 2 * i * lda, kV);
  } else {  // thread t: S's row 16 i + t / 8, its columns kV (t % 8) .. + kV - 1
    const E* src = A + (r0 + (t >> 3)) * lda + p0 + kV * (t & 7);
    // Row 16 i + t / 8's chunk permutation, ((16 / kLaneRows) i + t / (8 kLaneRows)) mod 8:
    // the second term is below the first one's lowest bit, so it is an exclusive or.
    constexpr int kStep = 16 / kLaneRows;
    const int j = (t & 7) ^ below(8 * kLaneRows), row = (t >> 3) * kTile;
#pragma unroll
    for (int i = 0; i < kRows / 16; ++i)
      copy16(As + 16 * i * kTile + row + kV * (j ^ ((kStep * i) & 7)), src + 16 * i * lda, kV);
  }
  // B: thread t copies entry p0 + t % kTile of columns (128 / kTile) i + t / kTile (zeros
  // past n), the address stepped rather than multiplied per copy.
  constexpr int kCols = kThreads / kTile;
  const int64_t step = kCols * ldb;
  const E* b = B + below(kTile) * ldb + p0 + mod(kTile);
  E* bs = Bs + mod(kTile) * kLdBs + below(kTile);
#pragma unroll
  for (int i = 0; i < kMaxColumns / kCols; ++i, b += step) {
    const bool valid = kCols * i + below(kTile) < n;
    tsm2::copy_async<E>(bs + kCols * i, valid ? b : B, valid);
  }
}

/// How a tile of S is read from the stored triangle of A: wholly in it (direct: S = A
/// there, lanes along A's contiguous rows), wholly in the other one (mirror: S = A^T, lanes
/// along A's contiguous rows, which are S's columns), or across the diagonal (mixed: each
/// element from where it is stored).
enum class Read { Direct, Mirror, Mixed };

/// How tile [r0, r0 + 256) x [p0, p0 + 32) of S is read.
template <bool kLower>
__device__ __forceinline__ Read read_of(int64_t r0, int64_t p0) {
  const int64_t r1 = r0 + kBlockRows - 1, p1 = p0 + kTileK - 1;
  if (kLower)  // S(r, p) is A(r, p) where p <= r, else A(p, r)
    return p1 <= r0 ? Read::Direct : p0 >= r1 ? Read::Mirror : Read::Mixed;
  return r1 <= p0 ? Read::Direct : r0 >= p1 ? Read::Mirror : Read::Mixed;
}

/// Where S(r, p) of a mirror tile sits in its stage: row-major, 32 per row, the row's
/// 16-byte chunks j = p / 4 permuted by (r / 8) mod 8, so that the 8 row groups of a warp
/// read 8 different banks' chunks.
__device__ __forceinline__ int mirror_slot(int r, int p) {
  return r * kTileK + 4 * ((p >> 2) ^ ((r >> 3) & 7)) + (p & 3);
}

/// Stages tile [p0, p0 + 32) of k: S(r0 + r, p0 + p) at As[p][r] (direct and mixed tiles) or
/// at mirror_slot(r, p) (mirror tiles), B(p0 + p, c) at Bs[p][c]; zero outside m x kend and
/// n. Every load runs along A's contiguous index.
///
/// Most tiles lie wholly inside m x kend and wholly on one side of the diagonal, with
/// 16-byte aligned rows: those take stage_inside.
template <bool kLower>
__device__ __forceinline__ void stage_tile(float* As, float* Bs, int64_t m, int n, int64_t kend,
                                           const float* A, int64_t lda, bool vec_a, const float* B,
                                           int64_t ldb, int64_t r0, int64_t p0) {
  const int t = threadIdx.x;
  const Read how = read_of<kLower>(r0, p0);
  if (vec_a && how != Read::Mixed && r0 + kBlockRows <= m && p0 + kTileK <= kend)
    return stage_inside<float, kBlockRows, kTileK, kLdA, kLdB, 8>(As, Bs, n, A, lda, B, ldb, r0, p0,
                                                                  how == Read::Mirror);
  if (how == Read::Direct && vec_a) {
    // A's columns are S's: four rows per copy, 16 copies per thread.
#pragma unroll
    for (int i = 0; i < kTileK * kBlockRows / 4 / kThreads; ++i) {
      const int idx = i * kThreads + t, p = idx / (kBlockRows / 4),
                r = 4 * (idx % (kBlockRows / 4));
      const int64_t row = r0 + r, col = p0 + p, left = m - row;
      const int count = col < kend && left > 0 ? static_cast<int>(left < 4 ? left : 4) : 0;
      copy16(As + p * kLdA + r, count > 0 ? A + col * lda + row : A, count);
    }
  } else if (how == Read::Mirror && vec_a) {
    // A's columns are S's rows: four of S's columns per copy (p0 is a multiple of 4).
#pragma unroll
    for (int i = 0; i < kTileK * kBlockRows / 4 / kThreads; ++i) {
      const int idx = i * kThreads + t, j = idx % (kTileK / 4), r = idx / (kTileK / 4);
      const int64_t row = r0 + r, col = p0 + 4 * j, left = kend - col;
      const int count = row < m && left > 0 ? static_cast<int>(left < 4 ? left : 4) : 0;
      copy16(As + mirror_slot(r, 4 * j), count > 0 ? A + row * lda + col : A, count);
    }
  } else if (how == Read::Mirror) {
#pragma unroll 8
    for (int i = 0; i < kTileK * kBlockRows / kThreads; ++i) {
      const int idx = i * kThreads + t, p = idx % kTileK, r = idx / kTileK;
      const int64_t row = r0 + r, col = p0 + p;
      const bool valid = row < m && col < kend;
      copy4(As + mirror_slot(r, p), valid ? A + row * lda + col : A, valid);
    }
  } else {
    // Direct elements with lanes along S's rows (zeros where out of range), then, in a
    // tile across the diagonal, the mirrored ones with lanes along S's columns.
    const auto direct = [&](int64_t row, int64_t col) {
      return how == Read::Direct || (kLower ? col <= row : row <= col);
    };
#pragma unroll 8
    for (int i = 0; i < kTileK * kBlockRows / kThreads; ++i) {
      const int idx = i * kThreads + t, p = idx / kBlockRows, r = idx % kBlockRows;
      const int64_t row = r0 + r, col = p0 + p;
      const bool valid = row < m && col < kend;
      if (!valid || direct(row, col))
        copy4(As + p * kLdA + r, valid ? A + col * lda + row : A, valid);
    }
    if (how == Read::Mixed) {
#pragma unroll 8
      for (int i = 0; i < kTileK * kBlockRows / kThreads; ++i) {
        const int idx = i * kThreads + t, p = idx % kTileK, r = idx / kTileK;
        const int64_t row = r0 + r, col = p0 + p;
        if (row < m && col < kend && !direct(row, col))
          copy4(As + p * kLdA + r, A + row * lda + col, true);
      }
    }
  }
#pragma unroll
  for (int i = 0; i < kTileK * kMaxColumns / kThreads; ++i) {
    const int idx = i * kThreads + t, p = idx % kTileK, c = idx / kTileK;
    const int64_t col = p0 + p;
    const bool valid = c < n && col < kend;
    copy4(Bs + p * kLdB + c, valid ? B + c * ldb + col : B, valid);
  }
}

/// acc += the micro-tile's share of one staged tile: rows rb .. rb + 7 of S times columns
/// cb .. cb + 7 of B over the tile's 32 k, As in the tile's layout.
__device__ __forceinline__ void multiply_tile(float (&acc)[8][8], const float* As, const float* Bs,
                                              bool mirror, int rb, int cb) {
  const float* b_s = Bs + cb;
  if (!mirror) {
    const float* a_s = As + rb;
#pragma unroll 4
    for (int p = 0; p < kTileK; ++p) {
      const float4 a0 = *reinterpret_cast<const float4*>(a_s + p * kLdA);
      const float4 a1 = *reinterpret_cast<const float4*>(a_s + p * kLdA + 4);
      const float4 b0 = *reinterpret_cast<const float4*>(b_s + p * kLdB);
      const float4 b1 = *reinterpret_cast<const float4*>(b_s + p * kLdB + 4);
      const float a[8] = {a0.x, a0.y, a0.z, a0.w, a1.x, a1.y, a1.z, a1.w};
      const float b[8] = {b0.x, b0.y, b0.z, b0.w, b1.x, b1.y, b1.z, b1.w};
#pragma unroll
      for (int i = 0; i < 8; ++i)
#pragma unroll
        for (int j = 0; j < 8; ++j) acc[i][j] = fmaf(a[i], b[j], acc[i][j]);
    }
    return;
  }
  // The mirror layout: one 16-byte load gives 4 consecutive k of a row. Rows rb .. rb + 7
  // share mirror_slot's chunk permutation, (rb / 8) mod 8 = lane / 4 (rb = 64 warp + 8 (lane
  // / 4)), so their loads lie a row apart.
  const float* rows = As + rb * kTileK;
  const int perm = (rb >> 3) & 7;
#pragma unroll 2  // 2% faster than 1 and than 8 (h200-skinny-pipes.md)
  for (int p4 = 0; p4 < kTileK; p4 += 4) {
    float a[8][4];
    const int chunk = 4 * ((p4 >> 2) ^ perm);
#pragma unroll
    for (int i = 0; i < 8; ++i) {
      const float4 v = *reinterpret_cast<const float4*>(rows + i * kTileK + chunk);
      a[i][0] = v.x, a[i][1] = v.y, a[i][2] = v.z, a[i][3] = v.w;
    }
#pragma unroll
    for (int q = 0; q < 4; ++q) {
      const float4 b0 = *reinterpret_cast<const float4*>(b_s + (p4 + q) * kLdB);
      const float4 b1 = *reinterpret_cast<const float4*>(b_s + (p4 + q) * kLdB + 4);
      const float b[8] = {b0.x, b0.y, b0.z, b0.w, b1.x, b1.y, b1.z, b1.w};
#pragma unroll
      for (int i = 0; i < 8; ++i)
#pragma unroll
        for (int j = 0; j < 8; ++j) acc[i][j] = fmaf(a[i][q], b[j], acc[i][j]);
    }
  }
}

template <bool kLower>
__global__ void __launch_bounds__(kThreads, 2)
    skinny_kernel(int64_t m, int n, int64_t k, float alpha, const float* __restrict__ A,
                  int64_t lda, bool vec_a, const float* __restrict__ B, int64_t ldb, float beta,
                  float* C, int64_t ldc, int64_t kps, float* __restrict__ work) {
  extern __shared__ __align__(16) float smem[];
  const int t = threadIdx.x, lane = t % 32, warp = t / 32;
  const int64_t r0 = static_cast<int64_t>(blockIdx.x) * kBlockRows;
  const int64_t kbeg = static_cast<int64_t>(blockIdx.y) * kps, kend = tsm2::dmin(k, kbeg + kps);
  const int rb = warp * 64 + (lane / 4) * 8, cb = (lane % 4) * 8;
  const int tiles = static_cast<int>(tsm2::ceil_div(kend - kbeg, static_cast<int64_t>(kTileK)));

  float acc[8][8];
#pragma unroll
  for (int i = 0; i < 8; ++i)
#pragma unroll
    for (int j = 0; j < 8; ++j) acc[i][j] = 0.0f;

  const auto as = [&](int s) { return smem + s * kStageFloats; };
  const auto bs = [&](int s) { return smem + s * kStageFloats + kTileK * kLdA; };
#pragma unroll
  for (int s = 0; s < kStages - 1; ++s) {
    if (s < tiles)
      stage_tile<kLower>(as(s), bs(s), m, n, kend, A, lda, vec_a, B, ldb, r0, kbeg + s * kTileK);
    tsm2::commit_async();
  }
  for (int it = 0; it < tiles; ++it) {
    tsm2::wait_async_but<kStages - 2>();
    __syncthreads();  // tile it is in; every thread is done with tile it - 1's stage
    const int next = it + kStages - 1;
    if (next < tiles)
      stage_tile<kLower>(as(next % kStages), bs(next % kStages), m, n, kend, A, lda, vec_a, B, ldb,
                         r0, kbeg + static_cast<int64_t>(next) * kTileK);
    tsm2::commit_async();
    multiply_tile(acc, as(it % kStages), bs(it % kStages),
                  read_of<kLower>(r0, kbeg + static_cast<int64_t>(it) * kTileK) == Read::Mirror, rb,
                  cb);
  }
  tsm2::wait_async_but<0>();

#pragma unroll
  for (int j = 0; j < 8; ++j) {
    const int c = cb + j;
    if (c >= n) continue;
#pragma unroll
    for (int i = 0; i < 8; ++i) {
      const int64_t row = r0 + rb + i;
      if (row >= m) continue;
      if (work) {
        work[(static_cast<int64_t>(blockIdx.y) * n + c) * m + row] = acc[i][j];
      } else {
        float* cp = C + c * ldc + row;
        *cp = beta == 0.0f ? alpha * acc[i][j] : fmaf(beta, *cp, alpha * acc[i][j]);
      }
    }
  }
}

// ---- complex float: S Hermitian --------------------------------------------------------
//
// The same design on cuFloatComplex: S(r, p) is A(r, p) in the stored triangle and
// conj(A(p, r)) in the other, with the diagonal's imaginary part taken as zero (as
// ?hemm does). A lane's micro-tile is 4 rows ((l / 4) 4 + i) by 8 columns ((l % 4) 8 + j),
// 64 floats: per k 2 + 4 16-byte loads for 32 complex multiply-adds. A warp owns 32 rows,
// a block 128; tiles of 16 k. The tiles holding diagonal entries are always read element
// by element (their imaginary parts are dropped there), and the mirrored tiles are
// conjugated in registers.
namespace cplx {

using C2 = cuFloatComplex;
constexpr int kBlockRows = 128;
constexpr int kTileK = 16;
constexpr int kLdA = kBlockRows + 2;   // As row stride (complex): 16-byte rows
constexpr int kLdB = kMaxColumns + 2;  // Bs row stride
constexpr int kStageElems = kTileK * (kLdA + kLdB);
constexpr int kSmemBytes = kStages * kStageElems * static_cast<int>(sizeof(C2));
constexpr int kBlocksPerSm = 2;

/// As read_of, but a tile holding a diagonal entry is always mixed.
template <bool kLower>
__device__ __forceinline__ Read read_of(int64_t r0, int64_t p0) {
  const int64_t r1 = r0 + kBlockRows - 1, p1 = p0 + kTileK - 1;
  if (kLower) return p1 < r0 ? Read::Direct : p0 > r1 ? Read::Mirror : Read::Mixed;
  return r1 < p0 ? Read::Direct : r0 > p1 ? Read::Mirror : Read::Mixed;
}

/// A mirror tile's row-major slot of S(r, p): 16-byte chunks (2 complex) permuted by
/// (r / 4) mod 8, the 8 row groups of a warp's loads in 8 different banks' chunks.
__device__ __forceinline__ int mirror_slot(int r, int p) {
  return r * kTileK + 2 * ((p >> 1) ^ ((r >> 2) & 7)) + (p & 1);
}

template <bool kLower>
__device__ __forceinline__ void stage_tile(C2* As, C2* Bs, int64_t m, int n, int64_t kend,
                                           const C2* A, int64_t lda, bool vec_a, const C2* B,
                                           int64_t ldb, int64_t r0, int64_t p0) {
  const int t = threadIdx.x;
  const Read how = read_of<kLower>(r0, p0);
  if (vec_a && how != Read::Mixed && r0 + kBlockRows <= m && p0 + kTileK <= kend)
    return stage_inside<C2, kBlockRows, kTileK, kLdA, kLdB, 4>(As, Bs, n, A, lda, B, ldb, r0, p0,
                                                               how == Read::Mirror);
  if (how == Read::Direct) {
#pragma unroll
    for (int i = 0; i < kTileK * kBlockRows / 2 / kThreads; ++i) {
      const int idx = i * kThreads + t, p = idx / (kBlockRows / 2),
                r = 2 * (idx % (kBlockRows / 2));
      const int64_t row = r0 + r, col = p0 + p, left = m - row;
      if (vec_a) {
        const int count = col < kend && left > 0 ? static_cast<int>(left < 2 ? left : 2) : 0;
        copy16(As + p * kLdA + r, count > 0 ? A + col * lda + row : A, count);
      } else {
        for (int e = 0; e < 2; ++e) {
          const bool valid = col < kend && row + e < m;
          tsm2::copy_async<C2>(As + p * kLdA + r + e, valid ? A + col * lda + row + e : A, valid);
        }
      }
    }
  } else if (how == Read::Mirror) {
#pragma unroll
    for (int i = 0; i < kTileK * kBlockRows / 2 / kThreads; ++i) {
      const int idx = i * kThreads + t, j = idx % (kTileK / 2), r = idx / (kTileK / 2);
      const int64_t row = r0 + r, col = p0 + 2 * j, left = kend - col;
      if (vec_a) {
        const int count = row < m && left > 0 ? static_cast<int>(left < 2 ? left : 2) : 0;
        copy16(As + mirror_slot(r, 2 * j), count > 0 ? A + row * lda + col : A, count);
      } else {
        for (int e = 0; e < 2; ++e) {
          const bool valid = row < m && col + e < kend;
          tsm2::copy_async<C2>(As + mirror_slot(r, 2 * j + e), valid ? A + row * lda + col + e : A,
                               valid);
        }
      }
    }
  } else {
    // Plain loads: each entry from where it is stored, conjugated where mirrored, the
    // diagonal's imaginary part zero. Visible to the tile's multiply after the barriers
    // between (it is consumed kStages - 1 iterations later).
    for (int i = 0; i < kTileK * kBlockRows / kThreads; ++i) {
      const int idx = i * kThreads + t, p = idx / kBlockRows, r = idx % kBlockRows;
      const int64_t row = r0 + r, col = p0 + p;
      C2 v = make_cuFloatComplex(0.0f, 0.0f);
      if (row < m && col < kend) {
        const bool direct = kLower ? col <= row : row <= col;
        v = direct ? A[col * lda + row] : common::conj(A[row * lda + col]);
        if (row == col) v.y = 0.0f;
      }
      As[p * kLdA + r] = v;
    }
  }
#pragma unroll
  for (int i = 0; i < kTileK * kMaxColumns / kThreads; ++i) {
    const int idx = i * kThreads + t, p = idx % kTileK, c = idx / kTileK;
    const int64_t col = p0 + p;
    const bool valid = c < n && col < kend;
    tsm2::copy_async<C2>(Bs + p * kLdB + c, valid ? B + c * ldb + col : B, valid);
  }
}

/// acc(i, j) += a b, complex, on two floats each.
__device__ __forceinline__ void cmad(float (&acc)[2], C2 a, C2 b) {
  acc[0] = fmaf(a.x, b.x, fmaf(-a.y, b.y, acc[0]));
  acc[1] = fmaf(a.x, b.y, fmaf(a.y, b.x, acc[1]));
}

/// acc += the micro-tile's share of one staged tile (rows rb .. rb + 3, columns cb .. cb + 7).
template <bool kMirror>
__device__ __forceinline__ void multiply_tile(float (&acc)[4][8][2], const C2* As, const C2* Bs,
                                              int rb, int cb) {
  const C2* b_s = Bs + cb;
#pragma unroll 2
  for (int p2 = 0; p2 < kTileK; p2 += 2) {
    C2 a[2][4];  // a[q][i] = S(rb + i, p2 + q)
#pragma unroll
    for (int i = 0; i < 4; ++i) {
      if (kMirror) {  // one load gives a row's 2 k, conjugated (S = A^H there)
        const float4 v = *reinterpret_cast<const float4*>(As + mirror_slot(rb + i, p2));
        a[0][i] = make_cuFloatComplex(v.x, -v.y);
        a[1][i] = make_cuFloatComplex(v.z, -v.w);
      }
    }
    if (!kMirror) {
#pragma unroll
      for (int q = 0; q < 2; ++q) {
        const float4 v0 = *reinterpret_cast<const float4*>(As + (p2 + q) * kLdA + rb);
        const float4 v1 = *reinterpret_cast<const float4*>(As + (p2 + q) * kLdA + rb + 2);
        a[q][0] = make_cuFloatComplex(v0.x, v0.y);
        a[q][1] = make_cuFloatComplex(v0.z, v0.w);
        a[q][2] = make_cuFloatComplex(v1.x, v1.y);
        a[q][3] = make_cuFloatComplex(v1.z, v1.w);
      }
    }
#pragma unroll
    for (int q = 0; q < 2; ++q) {
      C2 b[8];
#pragma unroll
      for (int j2 = 0; j2 < 4; ++j2) {
        const float4 v = *reinterpret_cast<const float4*>(b_s + (p2 + q) * kLdB + 2 * j2);
        b[2 * j2] = make_cuFloatComplex(v.x, v.y);
        b[2 * j2 + 1] = make_cuFloatComplex(v.z, v.w);
      }
#pragma unroll
      for (int i = 0; i < 4; ++i)
#pragma unroll
        for (int j = 0; j < 8; ++j) cmad(acc[i][j], a[q][i], b[j]);
    }
  }
}

template <bool kLower>
__global__ void __launch_bounds__(kThreads, kBlocksPerSm)
    skinny_kernel(int64_t m, int n, int64_t k, C2 alpha, const C2* __restrict__ A, int64_t lda,
                  bool vec_a, const C2* __restrict__ B, int64_t ldb, C2 beta, C2* C, int64_t ldc,
                  int64_t kps, C2* __restrict__ work) {
  extern __shared__ __align__(16) C2 smem_c[];
  const int t = threadIdx.x, lane = t % 32, warp = t / 32;
  const int64_t r0 = static_cast<int64_t>(blockIdx.x) * kBlockRows;
  const int64_t kbeg = static_cast<int64_t>(blockIdx.y) * kps, kend = tsm2::dmin(k, kbeg + kps);
  const int rb = warp * 32 + (lane / 4) * 4, cb = (lane % 4) * 8;
  const int tiles = static_cast<int>(tsm2::ceil_div(kend - kbeg, static_cast<int64_t>(kTileK)));
  float acc[4][8][2] = {};
  const auto as = [&](int s) { return smem_c + s * kStageElems; };
  const auto bs = [&](int s) { return smem_c + s * kStageElems + kTileK * kLdA; };
#pragma unroll
  for (int s = 0; s < kStages - 1; ++s) {
    if (s < tiles)
      stage_tile<kLower>(as(s), bs(s), m, n, kend, A, lda, vec_a, B, ldb, r0, kbeg + s * kTileK);
    tsm2::commit_async();
  }
  for (int it = 0; it < tiles; ++it) {
    tsm2::wait_async_but<kStages - 2>();
    __syncthreads();  // tile it is in; every thread is done with tile it - 1's stage
    const int next = it + kStages - 1;
    if (next < tiles)
      stage_tile<kLower>(as(next % kStages), bs(next % kStages), m, n, kend, A, lda, vec_a, B, ldb,
                         r0, kbeg + static_cast<int64_t>(next) * kTileK);
    tsm2::commit_async();
    if (read_of<kLower>(r0, kbeg + static_cast<int64_t>(it) * kTileK) == Read::Mirror)
      multiply_tile<true>(acc, as(it % kStages), bs(it % kStages), rb, cb);
    else
      multiply_tile<false>(acc, as(it % kStages), bs(it % kStages), rb, cb);
  }
  tsm2::wait_async_but<0>();
#pragma unroll
  for (int j = 0; j < 8; ++j) {
    const int c = cb + j;
    if (c >= n) continue;
#pragma unroll
    for (int i = 0; i < 4; ++i) {
      const int64_t row = r0 + rb + i;
      if (row >= m) continue;
      const C2 v = make_cuFloatComplex(acc[i][j][0], acc[i][j][1]);
      if (work) {
        work[(static_cast<int64_t>(blockIdx.y) * n + c) * m + row] = v;
      } else {
        C2* cp = C + c * ldc + row;
        *cp = common::is_zero(beta) ? common::mul(alpha, v)
                                    : common::mul_add(beta, *cp, common::mul(alpha, v));
      }
    }
  }
}

}  // namespace cplx

/// The k-split partials, returned to the pool in stream order.
struct Workspace {
  cudaStream_t stream;
  void* ptr = nullptr;
  ~Workspace() {
    try {
      tsm2::workspace_free(stream, ptr);
    } catch (...) {
      // A failed free leaves the memory to the pool; the launch error is what matters.
    }
  }
};

}  // namespace

bool serves_symm(int64_t m, int64_t n) {
  if (n <= 16 || n > kMaxColumns || m < kMinSide) return false;
  return common::symm_skinny_override().value_or(true);
}

namespace {

/// C = alpha S B + beta C by `kernel` (a skinny_kernel instance): blocks of `rows` rows of C,
/// the k range split in whole tiles of `tile` so that the grid fills whole waves of the
/// `per_sm` resident blocks per SM (the fewest splits within 5% of the best wave
/// efficiency, each at least 8 tiles), the splits' partials added by reduce_kernel.
template <typename D, typename Kernel>
void launch(cudaStream_t stream, Kernel kernel, int rows, int tile, int smem, int per_sm, int64_t m,
            int n, D alpha, const D* A, int64_t lda, bool vec_a, const D* B, int64_t ldb, D beta,
            D* C, int64_t ldc) {
  const int64_t k = m;
  const int64_t row_blocks = tsm2::ceil_div(m, static_cast<int64_t>(rows));
  const int64_t resident = per_sm * static_cast<int64_t>(tsm2::device_model().sms);
  const int64_t most = std::clamp<int64_t>(k / (8 * tile), 1, 64);
  int64_t split = 1;
  double best = -1.0;
  for (int64_t sp = 1; sp <= most; ++sp) {
    const double waves = static_cast<double>(row_blocks * sp) / static_cast<double>(resident);
    const double eff = waves < 1.0 ? waves : waves / std::ceil(waves);
    if (eff > best + 0.05) split = sp, best = eff;
  }
  int64_t kps = tsm2::ceil_div(tsm2::ceil_div(k, split), static_cast<int64_t>(tile)) * tile;
  split = tsm2::ceil_div(k, kps);
  Workspace ws{stream, nullptr};
  if (split > 1) {
    ws.ptr = tsm2::workspace_alloc(stream, static_cast<std::size_t>(split * m * n) * sizeof(D));
    if (!ws.ptr) split = 1, kps = k;
  }
  D* work = static_cast<D*>(ws.ptr);
  const dim3 grid(static_cast<unsigned>(row_blocks), static_cast<unsigned>(split));
  MGBLAS_CHECK_CUDA(
      cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, smem));
  kernel<<<grid, kThreads, smem, stream>>>(m, n, k, alpha, A, lda, vec_a, B, ldb, beta, C, ldc, kps,
                                           work);
  MGBLAS_CHECK_LAUNCH(stream);
  if (work) {
    const unsigned blocks =
        common::grid_dim(m * n, 256, 8 * static_cast<int64_t>(tsm2::device_model().sms));
    tsm2::reduce_kernel<D><<<blocks, 256, 0, stream>>>(m, n, split, work, alpha, beta, C, ldc);
    MGBLAS_CHECK_LAUNCH(stream);
  }
}

}  // namespace

void symm(cudaStream_t stream, Uplo uplo, int64_t m, int n, float alpha, const float* A,
          int64_t lda, const float* B, int64_t ldb, float beta, float* C, int64_t ldc) {
  // Four-row copies in the direct and mirrored tiles: an aligned start and lda.
  const bool vec_a = reinterpret_cast<uintptr_t>(A) % 16 == 0 && lda % 4 == 0;
  launch<float>(stream, uplo == Uplo::Lower ? skinny_kernel<true> : skinny_kernel<false>,
                kBlockRows, kTileK, kSmemBytes, 2, m, n, alpha, A, lda, vec_a, B, ldb, beta, C,
                ldc);
}

void hemm(cudaStream_t stream, Uplo uplo, int64_t m, int n, std::complex<float> alpha,
          const std::complex<float>* A, int64_t lda, const std::complex<float>* B, int64_t ldb,
          std::complex<float> beta, std::complex<float>* C, int64_t ldc) {
  // Two-entry copies: an aligned start and an even lda.
  const bool vec_a = reinterpret_cast<uintptr_t>(A) % 16 == 0 && lda % 2 == 0;
  launch<cplx::C2>(stream,
                   uplo == Uplo::Lower ? cplx::skinny_kernel<true> : cplx::skinny_kernel<false>,
                   cplx::kBlockRows, cplx::kTileK, cplx::kSmemBytes, cplx::kBlocksPerSm, m, n,
                   common::to_device(alpha), common::device_ptr(A), lda, vec_a,
                   common::device_ptr(B), ldb, common::to_device(beta), common::device_ptr(C), ldc);
}

}  // namespace mgblas::kernels::cuda::skinny
