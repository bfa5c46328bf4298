// SPDX-License-Identifier: BSD-3-Clause
// GEMV kernel templates (private): y = alpha * op(A) * x + beta * y, op = N, T or C,
// the KBLAS design (TOMS paper, sections 6.2-6.4, 6.6) re-derived for 16-byte loads.
//
// Template parameters (fixed per precision in gemv_tuning.hpp):
//   D        device scalar (float, double, cuFloatComplex, cuDoubleComplex)
//   kTx      threads along the rows of a column (lanes; a power of two <= 32)
//   kTy      thread rows along the columns (warps when kTx = 32)
//   kUnroll  N: columns per thread per step;  kCols  T: columns per thread
//   kPrefetch  double-buffered register prefetch (KBLAS): the next step's loads are
//            issued before the current step's arithmetic; without it the latency is
//            hidden by more resident warps only (fewer registers per thread)
//   kMinBlocksPerSm  the register budget: launch bounds for that many resident blocks
// Run-time geometry (from the launcher): `shift` virtual rows above row 0 of the
// submatrix so that reads are aligned to the parent's 128-byte segments; the grid's
// y extent splits the long dimension (KBLAS's Y): with gridDim.y == 1 a block owns
// its outputs and applies beta itself, otherwise y was scaled by beta beforehand and
// the blocks add their parts with atomics.
#pragma once

#include "kernels/cuda/level2/level2_device.cuh"

namespace mgblas::kernels::cuda::level2 {

// The column walk of one thread of gemv_n_kernel: acc(e) += sum over its columns c of
// A(row + e, c) x(c). kFull: every chunk is a whole 16-byte vector (the common case,
// compiled apart so the masked element loads of the boundary rows cost it nothing).
template <bool kFull, int kTy, int kUnroll, bool kPrefetch, typename D>
__device__ __forceinline__ void gemv_n_columns(D* acc, const D* a, int64_t lda, const D* x,
                                               int64_t incx, int64_t c, int64_t c_end,
                                               int64_t row, int64_t lo, int64_t hi) {
  constexpr int kVec = kVecOf<D>;
  constexpr int kStep = kTy * kUnroll;
  Chunk<D> cur[kUnroll], nxt[kUnroll];
  D xc[kUnroll], xn[kUnroll];
  // Addresses advance by pointer increments: one live 64-bit pointer per operand
  // instead of one per unrolled column keeps the register count down.
  auto fetch = [&](Chunk<D>* ch, D* xv, int64_t c0) {
    const D* p = a + c0 * lda;
    const D* q = x + c0 * incx;
#pragma unroll
    for (int u = 0; u < kUnroll; ++u) {
      if (c0 + u < c_end) {
        load_chunk(ch[u], p, kFull, row, lo, hi);
        xv[u] = *q;
      } else {
        set_zero(ch[u]);
        xv[u] = D{};
      }
      p += lda;
      q += incx;
    }
  };
  if (kPrefetch && c < c_end) fetch(cur, xc, c);
#pragma unroll 1
  for (; c < c_end; c += kStep) {
    if (!kPrefetch) fetch(cur, xc, c);
    else if (c + kStep < c_end) fetch(nxt, xn, c + kStep);
#pragma unroll
    for (int u = 0; u < kUnroll; ++u)
#pragma unroll
      for (int e = 0; e < kVec; ++e) acc[e] = common::mul_add(cur[u].v[e], xc[u], acc[e]);
    if (kPrefetch) {
#pragma unroll
      for (int u = 0; u < kUnroll; ++u) {
        cur[u] = nxt[u];
        xc[u] = xn[u];
      }
    }
  }
}

// gemv_n_kernel: y(i) = alpha * sum_j A(i, j) x(j) + beta * y(i).
//
// Mapping: block (bx, by) owns the kRows = kTx * kVec virtual rows
// [bx * kRows, (bx + 1) * kRows) and the columns [by * cols_per_block, ...) of them.
// Thread (tx, ty) holds the kVec rows starting at bx * kRows + tx * kVec (one 16-byte
// chunk per column, a warp reads 512 contiguous bytes of a column) and walks the
// block's columns kUnroll at a time, column c0 + ty * kUnroll + u, in steps of
// kTy * kUnroll; with kPrefetch the next step's chunks and x values are fetched into
// a second register set before the current ones are used (double buffer).
// Shared memory: partial[kTy][kRows] for the sum over ty (4 KB for every precision
// at kTy = 8). Preconditions: kTx * kTy >= kRows (one thread per row in the final
// sum); cols_per_block > 0; A points at element (0, 0) of the submatrix.
template <typename D, int kTx, int kTy, int kUnroll, bool kPrefetch, int kMinBlocksPerSm>
__global__ void __launch_bounds__(kTx * kTy, kMinBlocksPerSm)
    gemv_n_kernel(int64_t m, int64_t n, D alpha, const D* __restrict__ A, int64_t lda,
                  int64_t shift, bool vector_ok, const D* __restrict__ x, int64_t incx, D beta,
                  D* y, int64_t incy, int64_t cols_per_block) {
  constexpr int kVec = kVecOf<D>;
  constexpr int kRows = kTx * kVec;
  static_assert(kTx * kTy >= kRows, "one thread per row is needed for the final sum");
  __shared__ D partial[kTy][kRows];

  const int tx = threadIdx.x;
  const int ty = threadIdx.y;
  const int64_t lo = shift;
  const int64_t hi = shift + m;
  const int64_t row = static_cast<int64_t>(blockIdx.x) * kRows + tx * kVec;
  const bool full = vector_ok && row >= lo && row + kVec <= hi;
  const int64_t c_begin = static_cast<int64_t>(blockIdx.y) * cols_per_block;
  const int64_t c_end = imin(n, c_begin + cols_per_block);

  D acc[kVec];
#pragma unroll
  for (int e = 0; e < kVec; ++e) acc[e] = D{};

  if (full)
    gemv_n_columns<true, kTy, kUnroll, kPrefetch>(acc, A + (row - shift), lda, x, incx, c_begin + ty * kUnroll,
                                       c_end, row, lo, hi);
  else if (row + kVec > lo && row < hi)
    gemv_n_columns<false, kTy, kUnroll, kPrefetch>(acc, A + (row - shift), lda, x, incx,
                                        c_begin + ty * kUnroll, c_end, row, lo, hi);

  // kRows sums over the kTy thread rows at once, one per output row: not CUB's block
  // reduction, which forms one sum.
#pragma unroll
  for (int e = 0; e < kVec; ++e) partial[ty][tx * kVec + e] = acc[e];
  __syncthreads();
  const int t = ty * kTx + tx;
  if (t < kRows) {
    D s = partial[0][t];
#pragma unroll
    for (int q = 1; q < kTy; ++q) s = common::add(s, partial[q][t]);
    const int64_t r = static_cast<int64_t>(blockIdx.x) * kRows + t;
    if (r >= lo && r < hi) store_output(y + (r - shift) * incy, s, alpha, beta, gridDim.y == 1);
  }
}

// gemv_t_kernel: y(j) = alpha * sum_i op(A(i, j)) x(i) + beta * y(j), op = T or C
// (kConj).
//
// Mapping: block (bx, by) owns the kTy * kCols columns starting at
// bx * kTy * kCols and the virtual rows [by * rows_per_block, ...). Thread row ty owns
// kCols adjacent columns; a step covers kSteps * kRows rows, kRows = kTx * kVec: lane
// tx holds the chunk at row s * kRows + tx * kVec of the step for s < kSteps, so each
// column is read in kSteps adjacent 512-byte runs per step (kTx = 32; kSteps = 2 keeps
// a warp on one DRAM page longer). Threads walk down, accumulating one partial dot
// product per column in registers, with the next step prefetched (double buffer) when
// kPrefetch. The sum over the kTx lanes is a shuffle reduction at the end; no shared
// memory. x is read as a 16-byte chunk when it is contiguous and aligned like A's
// chunks (x_vec_ok), else element by element.
// Preconditions: rows_per_block a positive multiple of kSteps * kRows; 32 % kTx == 0.
template <typename D, int kTx, int kTy, int kCols, int kSteps, bool kPrefetch,
          int kMinBlocksPerSm, bool kConj>
__global__ void __launch_bounds__(kTx * kTy, kMinBlocksPerSm)
    gemv_t_kernel(int64_t m, int64_t n, D alpha, const D* __restrict__ A, int64_t lda,
                  int64_t shift, bool vector_ok, const D* __restrict__ x, int64_t incx,
                  bool x_vec_ok, D beta, D* y, int64_t incy, int64_t rows_per_block) {
  constexpr int kVec = kVecOf<D>;
  constexpr int kRows = kTx * kVec;
  constexpr int kN = kCols * kSteps;  // chunks per thread per step
  static_assert(32 % kTx == 0, "lane groups must tile a warp");

  const int tx = threadIdx.x;
  const int ty = threadIdx.y;
  const int64_t lo = shift;
  const int64_t hi = shift + m;
  const int64_t col0 = (static_cast<int64_t>(blockIdx.x) * kTy + ty) * kCols;
  const int ncols = static_cast<int>(imax(0, imin(kCols, n - col0)));
  const int64_t r_begin = static_cast<int64_t>(blockIdx.y) * rows_per_block;
  const int64_t r_end = imin(hi, r_begin + rows_per_block);

  D acc[kCols];
#pragma unroll
  for (int c = 0; c < kCols; ++c) acc[c] = D{};

  if (ncols > 0) {
    const D* a = A + col0 * lda - shift;
    Chunk<D> cur[kN], nxt[kN];
    Chunk<D> xc[kSteps], xn[kSteps];
    // Chunk (c, s) of the step at row r: column c, rows r + s * kRows + [0, kVec).
    auto fetch = [&](Chunk<D>* ch, Chunk<D>* xv, int64_t r) {
#pragma unroll
      for (int s = 0; s < kSteps; ++s) {
        const int64_t rs = r + s * kRows;
        const bool full = vector_ok && rs >= lo && rs + kVec <= hi;
        const D* p = a + rs;
#pragma unroll
        for (int c = 0; c < kCols; ++c) {
          if (c < ncols && rs < hi) load_chunk(ch[s * kCols + c], p, full, rs, lo, hi);
          else set_zero(ch[s * kCols + c]);
          p += lda;
        }
        if (full && x_vec_ok) {
          load_chunk(xv[s], x + (rs - shift), true, rs, lo, hi);
        } else {
#pragma unroll
          for (int e = 0; e < kVec; ++e)
            xv[s].v[e] = (rs + e >= lo && rs + e < hi) ? x[(rs + e - shift) * incx] : D{};
        }
      }
    };
    constexpr int kStep = kSteps * kRows;
    int64_t r = r_begin + tx * kVec;
    if (kPrefetch && r < r_end) fetch(cur, xc, r);
#pragma unroll 1
    for (; r < r_end; r += kStep) {
      if (!kPrefetch) fetch(cur, xc, r);
      else if (r + kStep < r_end) fetch(nxt, xn, r + kStep);
#pragma unroll
      for (int s = 0; s < kSteps; ++s)
#pragma unroll
        for (int c = 0; c < kCols; ++c)
#pragma unroll
          for (int e = 0; e < kVec; ++e)
            acc[c] = fma_op<kConj>(cur[s * kCols + c].v[e], xc[s].v[e], acc[c]);
      if (kPrefetch) {
#pragma unroll
        for (int k = 0; k < kN; ++k) cur[k] = nxt[k];
#pragma unroll
        for (int s = 0; s < kSteps; ++s) xc[s] = xn[s];
      }
    }
  }

  // Every lane takes part in the shuffles (lanes without columns hold zeros).
#pragma unroll
  for (int c = 0; c < kCols; ++c) acc[c] = common::lane_group_sum<kTx>(acc[c]);
  if (tx == 0) {
#pragma unroll
    for (int c = 0; c < kCols; ++c)
      if (c < ncols) store_output(y + (col0 + c) * incy, acc[c], alpha, beta, gridDim.y == 1);
  }
}

}  // namespace mgblas::kernels::cuda::level2
