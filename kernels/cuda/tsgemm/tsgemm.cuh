// SPDX-License-Identifier: BSD-3-Clause
// Tall-and-skinny GEMM kernel templates (private): C = alpha * op(A) * op(B) + beta * C,
// column-major, after the TSM2R / TSM2L design of Rivera, Chen et al. (JPDC 2021,
// ../../../../shared/papers/tsm2-tall-skinny-gemm.txt), re-derived for Hopper, plus the
// k-split A^H * B kernel the paper leaves out.
//
// Common conventions:
//   D        device scalar (float, double, cuFloatComplex, cuDoubleComplex)
//   op(B)    element (p, j) of op(B) is B[p * b_rs + j * b_cs], conjugated when
//            conj_b: op N is (b_rs, b_cs) = (1, ldb), op T/C is (ldb, 1). B is small
//            and staged through shared memory, so its layout costs little.
//   work     when non-null the kernel stores raw partial sums (no alpha, no beta) of
//            k-split number s at work[(s * n + j) * m + i], and reduce_kernel finishes
//            C; when null it applies C = alpha * sum + beta * C itself.
//   beta == 0 never reads C (C may hold NaN).
// Rows beyond m are computed on a clamped (valid) row and never stored, so no thread
// is idle at a barrier and no load needs a per-thread mask; columns beyond k (a short
// last tile) are zero in both operands.
#pragma once

#include <cstdint>
#include <cstring>

#include "kernels/cuda/common/device_scalar.cuh"
#include "kernels/cuda/level2/level2_device.cuh"

namespace mgblas::kernels::cuda::tsm2 {

using common::ceil_div;
using common::maybe_conj;

/// Elements of D per 16-byte shared-memory vector load.
template <typename D>
inline constexpr int kVecOf = 16 / static_cast<int>(sizeof(D));

__device__ __forceinline__ int64_t dmin(int64_t a, int64_t b) { return a < b ? a : b; }

/// kVecOf<D> consecutive elements at p (16-byte aligned shared memory) in one load.
template <typename D>
__device__ __forceinline__ void load_vec16(D (&v)[kVecOf<D>], const D* p) {
  const uint4 raw = *reinterpret_cast<const uint4*>(p);
  memcpy(&v, &raw, sizeof(raw));
}

/// Final store of one C element: alpha * s + beta * C, C not read when beta == 0.
template <typename D>
__device__ __forceinline__ void store_c(D* c, D s, D alpha, D beta) {
  const D as = common::mul(alpha, s);
  *c = common::is_zero(beta) ? as : common::mul_add(beta, *c, as);
}

/// One element from global to shared memory without passing through registers
/// (cp.async, sm_80+): the copy runs in the background until wait_async(). With
/// `valid` false nothing is read and the element becomes zero (src-size 0); `src`
/// must still be a mapped address.
template <typename D>
__device__ __forceinline__ void copy_async(D* dst, const D* src, bool valid) {
#if __CUDA_ARCH__ >= 800
  static_assert(sizeof(D) == 4 || sizeof(D) == 8 || sizeof(D) == 16, "cp.async sizes");
  const unsigned s = static_cast<unsigned>(__cvta_generic_to_shared(dst));
  asm volatile("cp.async.ca.shared.global [%0], [%1], %2, %3;\n" ::"r"(s), "l"(src),
               "n"(static_cast<int>(sizeof(D))), "r"(valid ? static_cast<int>(sizeof(D)) : 0));
#else
  *dst = valid ? *src : D{};
#endif
}
__device__ __forceinline__ void commit_async() {
#if __CUDA_ARCH__ >= 800
  asm volatile("cp.async.commit_group;\n" ::);
#endif
}
/// Waits for this thread's cp.async copies (other threads' need a barrier as well).
__device__ __forceinline__ void wait_async() {
#if __CUDA_ARCH__ >= 800
  asm volatile("cp.async.wait_group 0;\n" ::: "memory");
#endif
}
/// Waits until at most kPending of this thread's committed copy groups are in flight.
template <int kPending>
__device__ __forceinline__ void wait_async_but() {
#if __CUDA_ARCH__ >= 800
  asm volatile("cp.async.wait_group %0;\n" ::"n"(kPending) : "memory");
#endif
}

// ---- TSM2R: large A (m x k) times skinny op(B) (k x n) -----------------------------------
//
// Mapping: block (bx, by) owns the kT1 kR rows [bx kT1 kR, (bx + 1) kT1 kR) of A and C
// and the k range [by k_per_split, (by + 1) k_per_split) (gridDim.y > 1 only with
// `work`). Thread t owns the kR rows bx kT1 kR + r kT1 + t, r < kR (the paper has kR =
// 1): each load of a warp reads 32 consecutive rows of a column (coalesced). For each
// pass over kT2 columns of C [j0, j0 + kT2), the thread keeps kR kT2 accumulators in
// registers and walks its k range in B tiles of kT1 rows: the outer product of its A
// elements A(row_r, p) with row p of the tile adds into all of them, so A is read once
// per pass.
// Shared memory: two B tiles of kT1 x kT2 (double buffer), column-major, bs[c kT1 + q]:
// thread t stages row t of a tile (coalesced global reads of each column of op(B))
// into consecutive banks (no conflict), and every thread of a warp reads the same
// element when computing (broadcast), kVecOf<D> consecutive rows per 16-byte load.
// Why kR > 1: a broadcast read still moves 16 bytes per lane through the shared-memory
// pipe (measured on the H200: 128-170 bytes per clock per SM), so with one row per
// thread every A element costs kT2 sizeof(D) bytes of it and kT2 >= 8 is bound by
// shared memory, not by DRAM; kR rows share each B value, dividing that cost by kR.
// Prefetch: the next B tile is copied into the other buffer asynchronously (cp.async,
// so it holds no registers: the paper's register staging of B cost 2 kT2 registers
// per thread here, addresses included) while the current tile is consumed, one barrier
// per tile; A is fetched kT3 elements ahead into a second register set (double
// buffer), across tile boundaries too.
// Preconditions: m, k >= 1, n >= 1; k_per_split a multiple of kT1; blockDim.x == kT1.
template <typename D, int kT1, int kT2, int kT3, int kR, int kMinBlocks>
__global__ void __launch_bounds__(kT1, kMinBlocks)
    tsm2r_kernel(int64_t m, int64_t n, int64_t k, D alpha, const D* __restrict__ A, int64_t lda,
                 const D* __restrict__ B, int64_t b_rs, int64_t b_cs, bool conj_b, D beta, D* C,
                 int64_t ldc, int64_t k_per_split, D* __restrict__ work) {
  constexpr int kVec = kVecOf<D>;
  static_assert(kT1 % kT3 == 0 && kT3 % kVec == 0 && kT1 % 32 == 0 && kR >= 1,
                "see tsgemm_tuning.hpp");
  __shared__ __align__(16) D bs[2][kT2 * kT1];

  const int t = threadIdx.x;
  const int64_t row0 = static_cast<int64_t>(blockIdx.x) * kT1 * kR + t;
  // Row r of the thread is row0 + r kT1; past m it reads row m - 1 and is not stored.
  int64_t a_off[kR];
#pragma unroll
  for (int r = 0; r < kR; ++r) a_off[r] = dmin(row0 + r * kT1, m - 1);
  const int64_t k_begin = static_cast<int64_t>(blockIdx.y) * k_per_split;
  const int64_t k_end = dmin(k, k_begin + k_per_split);
  const int64_t ntiles = ceil_div(k_end - k_begin, kT1);

  // Row p of op(B), columns [j0, j0 + kT2), into column-major tile `dst` (zero past
  // k_end or n; those addresses fall back to B itself, which is mapped).
  auto stage_b = [&](D* dst, int64_t p, int64_t j0) {
    const bool in_k = p < k_end;
    const D* b = B + (in_k ? p * b_rs + j0 * b_cs : 0);
#pragma unroll
    for (int c = 0; c < kT2; ++c) {
      const bool valid = in_k && j0 + c < n;
      copy_async(dst + c * kT1 + t, valid ? b : B, valid);
      b += b_cs;
    }
    commit_async();
  };
  // After this thread's copies landed: op(B) = C conjugates its own staged row.
  auto finish_b = [&](D* dst) {
    wait_async();
    if (conj_b) {
#pragma unroll
      for (int c = 0; c < kT2; ++c) dst[c * kT1 + t] = common::conj(dst[c * kT1 + t]);
    }
  };
  // A(row_r, p .. p + kT3) for every row r: one uniform test decides between the
  // unmasked common case and the masked end of the k range. Addresses advance by
  // increments.
  auto load_a = [&](D (&v)[kR][kT3], int64_t p) {
#pragma unroll
    for (int r = 0; r < kR; ++r) {
      const D* a = A + a_off[r] + p * lda;
      if (p + kT3 <= k_end) {
#pragma unroll
        for (int u = 0; u < kT3; ++u, a += lda) v[r][u] = __ldg(a);
      } else {
#pragma unroll
        for (int u = 0; u < kT3; ++u, a += lda) v[r][u] = p + u < k_end ? __ldg(a) : D{};
      }
    }
  };

  for (int64_t j0 = 0; j0 < n; j0 += kT2) {
    D acc[kR][kT2];
#pragma unroll
    for (int r = 0; r < kR; ++r)
#pragma unroll
      for (int c = 0; c < kT2; ++c) acc[r][c] = D{};
    stage_b(bs[0], k_begin + t, j0);
    D a_cur[kR][kT3], a_nxt[kR][kT3];
    load_a(a_cur, k_begin);
    finish_b(bs[0]);
    __syncthreads();

#pragma unroll 1
    for (int64_t tile = 0; tile < ntiles; ++tile) {
      const D* bt = bs[tile & 1];
      const int64_t p0 = k_begin + tile * kT1;
      const bool more = tile + 1 < ntiles;
      // Every thread finished reading the other buffer before the last barrier.
      if (more) stage_b(bs[(tile + 1) & 1], p0 + kT1 + t, j0);
      // The last tile stops at k_end: a_cur always holds loaded values (a chunk past
      // the end would multiply stale registers, possibly NaN, by the zero rows of B).
#pragma unroll 1
      for (int q = 0; q < kT1 && p0 + q < k_end; q += kT3) {
        // The next kT3 elements of the rows follow on directly, into the next tile.
        if (p0 + q + kT3 < k_end) load_a(a_nxt, p0 + q + kT3);
#pragma unroll
        for (int u = 0; u < kT3; u += kVec) {
#pragma unroll
          for (int c = 0; c < kT2; ++c) {
            D bv[kVec];
            load_vec16(bv, bt + c * kT1 + q + u);
#pragma unroll
            for (int r = 0; r < kR; ++r)
#pragma unroll
              for (int e = 0; e < kVec; ++e)
                acc[r][c] = common::mul_add(a_cur[r][u + e], bv[e], acc[r][c]);
          }
        }
#pragma unroll
        for (int r = 0; r < kR; ++r)
#pragma unroll
          for (int u = 0; u < kT3; ++u) a_cur[r][u] = a_nxt[r][u];
      }
      if (more) finish_b(bs[(tile + 1) & 1]);
      __syncthreads();
    }

#pragma unroll
    for (int r = 0; r < kR; ++r) {
      const int64_t row = row0 + r * kT1;
      if (row >= m) break;
#pragma unroll
      for (int c = 0; c < kT2; ++c) {
        const int64_t j = j0 + c;
        if (j >= n) break;
        if (work) work[(static_cast<int64_t>(blockIdx.y) * n + j) * m + row] = acc[r][c];
        else store_c(C + row + j * ldc, acc[r][c], alpha, beta);
      }
    }
  }
}

/// acc[r][c] += sum_e a[r][a0 + e] B(e, c), e < kVecOf<D>, for B column-major at b
/// (16-byte aligned, column stride ld): one 16-byte shared-memory load per column, each
/// value shared by the kRows rows. a0 must fold to a constant (unrolled callers).
template <typename D, int kRows, int kCols, int kA>
__device__ __forceinline__ void fma_vec(D (&acc)[kRows][kCols], const D (&a)[kRows][kA], int a0,
                                        const D* b, int ld) {
  constexpr int kVec = kVecOf<D>;
#pragma unroll
  for (int c = 0; c < kCols; ++c) {
    D bv[kVec];
    load_vec16(bv, b + c * ld);
#pragma unroll
    for (int r = 0; r < kRows; ++r)
#pragma unroll
      for (int e = 0; e < kVec; ++e) acc[r][c] = common::mul_add(a[r][a0 + e], bv[e], acc[r][c]);
  }
}

// ---- TSM2L: tall-skinny A (m x k, k <= kMaxK) times small op(B) (k x n, n <= kN) ---------
//
// Mapping: fewer threads than rows (the paper's tile count is m / (gridDim.x
// blockDim.x)): thread g = blockIdx.x kThreads + t walks rows g, g + G, g + 2G, ...
// (G = gridDim.x kThreads, so a warp reads 32 consecutive rows of a column: coalesced),
// kR of them at a time (step s: rows g + (s kR + r) G, r < kR), and each row's k
// elements in fetches of kT3, keeping kR kN accumulators (kR rows of C).
// Shared memory: all of op(B), kKMax x kN column-major with zeros past k and n, staged
// once per block; computed on as in TSM2R (broadcast, 16-byte loads along k, each B
// value shared by the kR rows: see TSM2R for why that matters).
// How A is fetched (the paper's two optimisations, and a third for sm_80+):
//   kStages == 0, !kInterleave  Opt1: prefetch within a step only; each step starts
//                               with an exposed load (steps done one after the other).
//   kStages == 0, kInterleave   Opt2: the next (step, chunk) is fetched into a second
//                               register set before the current chunk is computed,
//                               across step ends too (loads in flight while the
//                               finished rows are stored).
//   kStages >= 2                the next kStages - 1 fetches are in flight as cp.async
//                               copies into the thread's own shared-memory slots
//                               as[stage][r][u][t] (consecutive threads, consecutive
//                               words: no bank conflict); in-flight bytes cost no
//                               registers. Each thread reads back only its own slots,
//                               so no barrier is needed.
// Rows at or past m are neither read nor stored (their values are zero).
// Preconditions: 1 <= k <= kMaxK, 1 <= n <= kN, m >= 1; blockDim.x == kThreads.
template <typename D, int kThreads, int kN, int kT3, int kR, bool kInterleave, int kStages,
          int kKMax, int kMinBlocks>
__global__ void __launch_bounds__(kThreads, kMinBlocks)
    tsm2l_kernel(int64_t m, int n, int k, D alpha, const D* __restrict__ A, int64_t lda,
                 const D* __restrict__ B, int64_t b_rs, int64_t b_cs, bool conj_b, D beta, D* C,
                 int64_t ldc) {
  constexpr int kVec = kVecOf<D>;
  static_assert(kKMax % kT3 == 0 && kT3 % kVec == 0 && kR >= 1, "see tsgemm_tuning.hpp");
  static_assert(kStages == 0 || kStages >= 2, "staged fetch needs two stages or more");
  __shared__ __align__(16) D bs[kN * kKMax];

  const int t = threadIdx.x;
  for (int idx = t; idx < kN * kKMax; idx += kThreads) {
    const int c = idx / kKMax, p = idx % kKMax;
    bs[idx] = (p < k && c < n) ? maybe_conj(B[p * b_rs + c * b_cs], conj_b) : D{};
  }
  __syncthreads();

  const int64_t stride = static_cast<int64_t>(gridDim.x) * kThreads;
  const int64_t row0 = static_cast<int64_t>(blockIdx.x) * kThreads + t;
  if (row0 >= m) return;  // no barrier below
  const int nch = static_cast<int>(ceil_div(k, kT3));
  // Row r of step s.
  auto row_of = [&](int64_t s, int r) { return row0 + (s * kR + r) * stride; };

  auto load_a = [&](D (&v)[kR][kT3], int64_t s, int ch) {
    const int p = ch * kT3;
#pragma unroll
    for (int r = 0; r < kR; ++r) {
      const int64_t row = row_of(s, r);
      const D* a = A + row + p * lda;
      if (row < m && p + kT3 <= k) {
#pragma unroll
        for (int u = 0; u < kT3; ++u, a += lda) v[r][u] = __ldg(a);
      } else {
#pragma unroll
        for (int u = 0; u < kT3; ++u, a += lda) v[r][u] = row < m && p + u < k ? __ldg(a) : D{};
      }
    }
  };
  auto fma_chunk = [&](D (&acc)[kR][kN], const D (&a)[kR][kT3], int ch) {
    const D* bc = bs + ch * kT3;
#pragma unroll
    for (int u = 0; u < kT3; u += kVec) {
      fma_vec(acc, a, u, bc + u, kKMax);
    }
  };
  auto store_rows = [&](D (&acc)[kR][kN], int64_t s) {
#pragma unroll
    for (int r = 0; r < kR; ++r) {
      const int64_t row = row_of(s, r);
#pragma unroll
      for (int c = 0; c < kN; ++c) {
        if (row < m && c < n) store_c(C + row + c * ldc, acc[r][c], alpha, beta);
        acc[r][c] = D{};
      }
    }
  };

  D acc[kR][kN];
#pragma unroll
  for (int r = 0; r < kR; ++r)
#pragma unroll
    for (int c = 0; c < kN; ++c) acc[r][c] = D{};
  D a_cur[kR][kT3];

  if constexpr (kStages > 0) {
    __shared__ D as[kStages][kR][kT3][kThreads];
    // Fetch number f covers chunk f % nch of step f / nch; past the last row it
    // commits an empty group, so that wait_async_but counts stay uniform.
    auto issue = [&](int64_t f) {
      const int64_t s = f / nch;
      const int p = static_cast<int>(f % nch) * kT3;
      D (*slots)[kT3][kThreads] = as[f % kStages];
#pragma unroll
      for (int r = 0; r < kR; ++r) {
        const int64_t row = row_of(s, r);
        if (row >= m) continue;
        const D* a = A + row + p * lda;
#pragma unroll
        for (int u = 0; u < kT3; ++u, a += lda)
          copy_async(&slots[r][u][t], p + u < k ? a : A, p + u < k);
      }
      commit_async();
    };
#pragma unroll
    for (int f = 0; f < kStages - 1; ++f) issue(f);
#pragma unroll 1
    for (int64_t f = 0;; ++f) {
      const int64_t s = f / nch;
      if (row_of(s, 0) >= m) break;
      issue(f + kStages - 1);
      wait_async_but<kStages - 1>();  // fetch f has landed
      D (*slots)[kT3][kThreads] = as[f % kStages];
#pragma unroll
      for (int r = 0; r < kR; ++r)
#pragma unroll
        for (int u = 0; u < kT3; ++u) a_cur[r][u] = row_of(s, r) < m ? slots[r][u][t] : D{};
      const int ch = static_cast<int>(f % nch);
      fma_chunk(acc, a_cur, ch);
      if (ch == nch - 1) store_rows(acc, s);
    }
    wait_async();  // nothing of this thread's may still be landing when it exits
  } else {
    D a_nxt[kR][kT3];
    int64_t s = 0;
    int ch = 0;
    load_a(a_cur, 0, 0);
#pragma unroll 1
    for (;;) {
      int ch_n = ch + 1;
      int64_t s_n = s;
      if (ch_n == nch) {
        ch_n = 0;
        s_n = s + 1;
      }
      const bool has_next = row_of(s_n, 0) < m;
      const bool prefetch = has_next && (kInterleave || ch_n != 0);
      if (prefetch) load_a(a_nxt, s_n, ch_n);
      fma_chunk(acc, a_cur, ch);
      if (ch_n == 0) store_rows(acc, s);
      if (!has_next) break;
      if (prefetch) {
#pragma unroll
        for (int r = 0; r < kR; ++r)
#pragma unroll
          for (int u = 0; u < kT3; ++u) a_cur[r][u] = a_nxt[r][u];
      } else {
        load_a(a_cur, s_n, 0);
      }
      s = s_n;
      ch = ch_n;
    }
  }
}

// ---- TSM2L with the columns of C spread over threads (kP threads per row) ----------------
//
// Why: at k = n = 32 a thread of tsm2l_kernel keeps kR kN accumulators (float r2: 152
// registers, double r2: 254, 2 or 3 blocks per SM), too few threads to keep the loads in
// flight that the bandwidth needs; with kR = 1 each B value read from shared memory
// feeds one multiply-add per element and the shared-memory pipe is the bound. Here kP =
// kN / kCols threads share a row, each owning kCols columns of C for kR rows: kR kCols
// accumulators, each B value feeding kR multiply-adds and each A value kCols.
// Mapping: kRowThreads = kThreads / kP threads per column group; the group index cg =
// t / kRowThreads is uniform over a warp, lt = t % kRowThreads. The block walks tiles of
// kTile = kRowThreads kR rows (tile blockIdx.x, + gridDim.x, ...); thread (cg, lt) owns
// rows lt + r kRowThreads (r < kR) of a tile and columns [cg kCols, (cg + 1) kCols):
// a warp reads and writes 32 consecutive rows of a column (coalesced).
// Shared memory: all of op(B), kKMax x kN column-major with zeros past k and n (as in
// tsm2l_kernel: a warp reads it as a broadcast, kVecOf<D> values along k per load);
// A in kStages slots as[stage][u][i] of kT3 columns x kTile rows, filled by cp.async
// from all threads (element (i, p) by consecutive threads for consecutive i: each A
// element read once from global memory, coalesced; zero past m and k), kStages - 1
// chunks in flight while one is computed; read back by the kP warps of a row (32
// consecutive words per warp: no bank conflict). One barrier per chunk: the slot
// refilled next was read by other threads in the previous chunk.
// Preconditions: 1 <= k <= kKMax, 1 <= n <= kN, m >= 1; blockDim.x == kThreads.
template <typename D, int kThreads, int kN, int kCols, int kT3, int kR, int kStages, int kKMax,
          int kMinBlocks>
__global__ void __launch_bounds__(kThreads, kMinBlocks)
    tsm2l_cols_kernel(int64_t m, int n, int k, D alpha, const D* __restrict__ A, int64_t lda,
                      const D* __restrict__ B, int64_t b_rs, int64_t b_cs, bool conj_b, D beta,
                      D* C, int64_t ldc) {
  constexpr int kVec = kVecOf<D>;
  constexpr int kP = kN / kCols;
  constexpr int kRowThreads = kThreads / kP;
  constexpr int kTile = kRowThreads * kR;
  constexpr int kCopies = kT3 * kTile / kThreads;
  static_assert(kN % kCols == 0 && kThreads % kP == 0 && kRowThreads % 32 == 0,
                "whole warps per column group: see tsgemm_tuning.hpp");
  static_assert(kKMax % kT3 == 0 && kT3 % kVec == 0 && (kT3 * kTile) % kThreads == 0 &&
                    kStages >= 2,
                "see tsgemm_tuning.hpp");
  __shared__ __align__(16) D bs[kN * kKMax];
  __shared__ D as[kStages][kT3][kTile];

  const int t = threadIdx.x;
  for (int idx = t; idx < kN * kKMax; idx += kThreads) {
    const int c = idx / kKMax, p = idx % kKMax;
    bs[idx] = (p < k && c < n) ? maybe_conj(B[p * b_rs + c * b_cs], conj_b) : D{};
  }
  const int64_t tiles = ceil_div(m, static_cast<int64_t>(kTile));
  if (static_cast<int64_t>(blockIdx.x) >= tiles) return;  // whole block: no barrier skipped
  const int nch = static_cast<int>(ceil_div(k, kT3));
  // Fetch f: chunk f % nch of the block's tile f / nch.
  const int64_t fetches = ceil_div(tiles - blockIdx.x, static_cast<int64_t>(gridDim.x)) * nch;
  auto tile_row = [&](int64_t f) {
    return (blockIdx.x + (f / nch) * static_cast<int64_t>(gridDim.x)) * kTile;
  };
  // Past the last fetch an empty group is committed, so the wait counts stay uniform.
  auto issue = [&](int64_t f) {
    if (f < fetches) {
      const int64_t r0 = tile_row(f);
      const int p0 = static_cast<int>(f % nch) * kT3;
      D (*slot)[kTile] = as[f % kStages];
#pragma unroll
      for (int q = 0; q < kCopies; ++q) {
        const int idx = q * kThreads + t;
        const int u = idx / kTile, i = idx % kTile;
        const bool valid = r0 + i < m && p0 + u < k;
        copy_async(&slot[u][i], valid ? A + r0 + i + (p0 + u) * lda : A, valid);
      }
    }
    commit_async();
  };
#pragma unroll
  for (int f = 0; f < kStages - 1; ++f) issue(f);

  const int cg = t / kRowThreads, lt = t % kRowThreads;
  const D* bcol = bs + cg * kCols * kKMax;
  D acc[kR][kCols];
#pragma unroll
  for (int r = 0; r < kR; ++r)
#pragma unroll
    for (int c = 0; c < kCols; ++c) acc[r][c] = D{};

#pragma unroll 1
  for (int64_t f = 0; f < fetches; ++f) {
    wait_async_but<kStages - 2>();  // this thread's copies of fetch f have landed,
    __syncthreads();                // everyone's too, and slot (f - 1) % kStages is free
    issue(f + kStages - 1);
    const D (*slot)[kTile] = as[f % kStages];
    const int ch = static_cast<int>(f % nch);
    const D* bc = bcol + ch * kT3;
#pragma unroll
    for (int u = 0; u < kT3; u += kVec) {
      D a[kR][kVec];
#pragma unroll
      for (int r = 0; r < kR; ++r)
#pragma unroll
        for (int e = 0; e < kVec; ++e) a[r][e] = slot[u + e][lt + r * kRowThreads];
      fma_vec(acc, a, 0, bc + u, kKMax);
    }
    if (ch == nch - 1) {
      const int64_t r0 = tile_row(f);
#pragma unroll
      for (int r = 0; r < kR; ++r) {
        const int64_t row = r0 + lt + r * kRowThreads;
#pragma unroll
        for (int c = 0; c < kCols; ++c) {
          const int j = cg * kCols + c;
          if (row < m && j < n) store_c(C + row + j * ldc, acc[r][c], alpha, beta);
          acc[r][c] = D{};
        }
      }
    }
  }
  wait_async();  // the trailing groups are empty; nothing may still be landing at exit
}

// ---- A^H B: op(A) (m x k, A stored k x m) times B (k x n), both tall: the k-split --------
//
// Mapping: blockIdx.x picks a kTm x kTn tile of C (rows i0.., columns j0..), blockIdx.y a
// k range [by k_per_split, ...). Thread t walks rows p = k_begin + t, + kThreads, ...:
// it reads A(p, i0 .. i0 + kTm) and B(p, j0 .. j0 + kTn) (consecutive p across a warp:
// coalesced along every column), the next row fetched while the current one is
// multiplied (double buffer), and accumulates the kTm x kTn outer products
// conj(A(p, i)) B(p, j) in registers. The block then sums its threads' tiles: a
// shuffle reduction within each warp, the warps' sums through shared memory
// red[warps][kTm kTn]; thread e < kTm kTn writes element e of the tile (to C, or the
// raw sum to `work` when the k range is split over gridDim.y).
// Columns past m or n read a clamped valid column and are never stored.
// Preconditions: m, n, k >= 1; blockDim.x == kThreads (whole warps).
template <typename D, int kThreads, int kTm, int kTn, bool kConj, int kMinBlocks>
__global__ void __launch_bounds__(kThreads, kMinBlocks)
    tsmttsm_kernel(int64_t m, int64_t n, int64_t k, D alpha, const D* __restrict__ A,
                   int64_t lda, const D* __restrict__ B, int64_t ldb, D beta, D* C, int64_t ldc,
                   int64_t k_per_split, D* __restrict__ work) {
  static_assert(kThreads % 32 == 0, "whole warps");
  constexpr int kWarps = kThreads / 32;
  __shared__ D red[kWarps][kTm * kTn];

  const int t = threadIdx.x;
  const int64_t tiles_m = ceil_div(m, kTm);
  const int64_t i0 = (blockIdx.x % tiles_m) * kTm;
  const int64_t j0 = (blockIdx.x / tiles_m) * kTn;
  const int64_t k_begin = static_cast<int64_t>(blockIdx.y) * k_per_split;
  const int64_t k_end = dmin(k, k_begin + k_per_split);

  int64_t a_off[kTm], b_off[kTn];
#pragma unroll
  for (int u = 0; u < kTm; ++u) a_off[u] = dmin(i0 + u, m - 1) * lda;
#pragma unroll
  for (int v = 0; v < kTn; ++v) b_off[v] = dmin(j0 + v, n - 1) * ldb;

  auto load = [&](D (&a)[kTm], D (&b)[kTn], int64_t p) {
#pragma unroll
    for (int u = 0; u < kTm; ++u) a[u] = __ldg(A + a_off[u] + p);
#pragma unroll
    for (int v = 0; v < kTn; ++v) b[v] = __ldg(B + b_off[v] + p);
  };

  D acc[kTm][kTn];
#pragma unroll
  for (int u = 0; u < kTm; ++u)
#pragma unroll
    for (int v = 0; v < kTn; ++v) acc[u][v] = D{};

  D a_cur[kTm], b_cur[kTn], a_nxt[kTm], b_nxt[kTn];
  int64_t p = k_begin + t;
  if (p < k_end) load(a_cur, b_cur, p);
#pragma unroll 1
  for (; p < k_end; p += kThreads) {
    if (p + kThreads < k_end) load(a_nxt, b_nxt, p + kThreads);
#pragma unroll
    for (int u = 0; u < kTm; ++u) {
      const D a = kConj ? common::conj(a_cur[u]) : a_cur[u];
#pragma unroll
      for (int v = 0; v < kTn; ++v) acc[u][v] = common::mul_add(a, b_cur[v], acc[u][v]);
    }
#pragma unroll
    for (int u = 0; u < kTm; ++u) a_cur[u] = a_nxt[u];
#pragma unroll
    for (int v = 0; v < kTn; ++v) b_cur[v] = b_nxt[v];
  }

  const int warp = t / 32, lane = t % 32;
#pragma unroll
  for (int u = 0; u < kTm; ++u)
#pragma unroll
    for (int v = 0; v < kTn; ++v) {
      const D s = common::lane_group_sum<32>(acc[u][v]);
      if (lane == 0) red[warp][u * kTn + v] = s;
    }
  __syncthreads();
  // The kTm kTn warp sums of every warp combined in one pass (one barrier), not one CUB
  // block reduction (and barrier) per element.
  for (int e = t; e < kTm * kTn; e += kThreads) {
    D s = red[0][e];
#pragma unroll
    for (int w = 1; w < kWarps; ++w) s = common::add(s, red[w][e]);
    const int64_t i = i0 + e / kTn, j = j0 + e % kTn;
    if (i >= m || j >= n) continue;
    if (work) work[(static_cast<int64_t>(blockIdx.y) * n + j) * m + i] = s;
    else store_c(C + i + j * ldc, s, alpha, beta);
  }
}

// ---- the second step of a k-split -------------------------------------------------------
//
// Mapping: grid-stride over the m n elements of C, i fastest (coalesced reads of each
// split's partial and of C). C(i, j) = alpha * sum_s work[(s n + j) m + i] + beta * C(i, j),
// the splits summed in order (the result does not depend on timing).
template <typename D>
__global__ void __launch_bounds__(256)
    reduce_kernel(int64_t m, int64_t n, int64_t splits, const D* __restrict__ work, D alpha,
                  D beta, D* C, int64_t ldc) {
  const int64_t count = m * n;
  const int64_t step = static_cast<int64_t>(gridDim.x) * blockDim.x;
  for (int64_t idx = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; idx < count;
       idx += step) {
    D s = work[idx];
    for (int64_t q = 1; q < splits; ++q) s = common::add(s, work[q * count + idx]);
    store_c(C + idx % m + (idx / m) * ldc, s, alpha, beta);
  }
}

}  // namespace mgblas::kernels::cuda::tsm2
