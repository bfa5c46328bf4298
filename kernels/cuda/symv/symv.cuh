// SPDX-License-Identifier: BSD-3-Clause
// SYMV/HEMV kernel template (private): y += alpha * A * x with A symmetric or
// Hermitian, only the kLower (or upper) triangle read; the KBLAS design (TOMS paper,
// sections 6.2, 6.3 and 6.5, algorithm 3) with one change: the diagonal blocks are
// not a kernel of their own but the first (lower) or last (upper) tile of their block
// column, masked to the stored triangle in registers. So the whole matrix is one
// launch, the diagonal tiles cost no shared-memory mirror, and beta is applied by the
// launcher before it (y is summed into by many blocks, as KBLAS section 6.4 explains).
//
// Template parameters (symv_tuning.hpp): D device scalar; kTx lanes along the rows
// of a tile (power of two <= 32); kTy thread rows; kPrefetch double-buffered register
// prefetch; kMinBlocksPerSm the register budget (launch bounds); kLower which triangle
// is stored; kConj Hermitian (conjugate in the transposed product, diagonal taken
// real) rather than symmetric.
#pragma once

#include "kernels/cuda/gemv/level2_device.cuh"

namespace mgblas::kernels::cuda::level2 {

// symv_kernel.
//
// Tiles: the virtual matrix (the submatrix with `shift` rows and columns added above
// and to the left, so that tiles are aligned to the parent's 128-byte segments) is
// cut into kNb x kNb tiles, kNb = kTx * kVec. Block (j, by) walks block column j over
// the stored tiles numbered [by * tiles_per_block, (by + 1) * tiles_per_block) counted
// from the diagonal: lower i = j, j + 1, ... (down), upper i = j, j - 1, ... (up).
// Blocks with nothing to do return at once.
// Threads: (tx, ty) holds the kVec rows at tx * kVec of a tile and the kC = kNb / kTy
// columns at ty * kC of block column j (x of block column j sits in shared memory).
// Each stored off-diagonal tile A(i, j) is read once and used twice (algorithm 3):
//   N product  y(rows of i) += A(i, j) x(cols of j): a sum over ty per tile, through
//              shared memory, then one atomic add per row;
//   T product  y(cols of j) += op(A(i, j))^T x(rows of i): kept in registers down the
//              column, summed over the kTx lanes by shuffles and added once at the end.
// On the diagonal tile only the stored triangle is used (the other one is loaded with
// the chunk but never enters an arithmetic operation, so its content, NaN included,
// does not matter); its diagonal enters the N product once.
// With kPrefetch the next tile's chunks and x values are fetched into a second register
// set before the current tile is used (double buffer).
// Shared memory: partial[2][kTy][kNb], double-buffered by tile parity so one barrier
// per tile suffices, and xj[kNb].
// Preconditions: y already scaled by beta; kNb % kTy == 0; kTx * kTy >= kNb;
// tiles_per_block > 0; A points at element (0, 0) of the submatrix.
template <typename D, int kTx, int kTy, bool kPrefetch, int kMinBlocksPerSm, bool kLower,
          bool kConj>
__global__ void __launch_bounds__(kTx * kTy, kMinBlocksPerSm)
    symv_kernel(int64_t n, D alpha, const D* __restrict__ A, int64_t lda, int64_t shift,
                bool vector_ok, const D* __restrict__ x, int64_t incx, D* y, int64_t incy,
                int64_t tiles_per_block) {
  constexpr int kVec = kVecOf<D>;
  constexpr int kNb = kTx * kVec;
  constexpr int kC = kNb / kTy;
  static_assert(kNb % kTy == 0, "tile columns must split evenly over thread rows");
  static_assert(kTx * kTy >= kNb, "one thread per row is needed for the N-product sum");
  static_assert(32 % kTx == 0, "lane groups must tile a warp");
  static_assert(kC <= 32, "column mask is 32 bits");
  __shared__ D partial[2][kTy][kNb];
  __shared__ D xj[kNb];  // x of block column j: read by every tile, kept out of registers

  const int64_t lo = shift;
  const int64_t hi = shift + n;
  const int64_t nt = ceil_div(hi, kNb);
  const int64_t j = blockIdx.x;
  // Tile k of this block is row block i = start + k (lower) or start - k (upper): both
  // walk away from the diagonal, so the blocks running together add into rows spread
  // along the diagonal instead of all into the top rows (atomics contention).
  const int64_t by = blockIdx.y;
  const int64_t start = kLower ? j + by * tiles_per_block : j - by * tiles_per_block;
  const int64_t count = kLower ? imin(tiles_per_block, nt - start) : imin(tiles_per_block, start + 1);
  if (count <= 0) return;  // uniform over the block: no barrier is skipped
  const auto tile = [&](int64_t k) { return kLower ? start + k : start - k; };

  const int tx = threadIdx.x;
  const int ty = threadIdx.y;
  const int t = ty * kTx + tx;
  if (t < kNb) {
    const int64_t col = j * kNb + t;
    xj[t] = col >= lo && col < hi ? x[(col - shift) * incx] : D{};
  }
  const int64_t col0 = j * kNb + ty * kC;  // virtual column of this thread's first column
  const D* a = A + (col0 - shift) * lda - shift;
  uint32_t col_ok = 0;
#pragma unroll
  for (int c = 0; c < kC; ++c)
    if (col0 + c >= lo && col0 + c < hi) col_ok |= 1u << c;

  D accT[kC];
#pragma unroll
  for (int c = 0; c < kC; ++c) accT[c] = D{};

  Chunk<D> cur[kC], nxt[kC];
  Chunk<D> xc, xn;
  auto fetch = [&](Chunk<D>* ch, Chunk<D>& xv, int64_t i) {
    const int64_t r = i * kNb + tx * kVec;
    const bool rows_any = r + kVec > lo && r < hi;
    const bool full = vector_ok && r >= lo && r + kVec <= hi;
    const D* p = a + r;
#pragma unroll
    for (int c = 0; c < kC; ++c) {
      if (rows_any && (col_ok >> c & 1u)) load_chunk(ch[c], p, full, r, lo, hi);
      else set_zero(ch[c]);
      p += lda;
    }
#pragma unroll
    for (int e = 0; e < kVec; ++e)
      xv.v[e] = (r + e >= lo && r + e < hi) ? x[(r + e - shift) * incx] : D{};
  };

  if (kPrefetch) fetch(cur, xc, tile(0));
  __syncthreads();  // xj complete
#pragma unroll 1
  for (int64_t k = 0; k < count; ++k) {
    const int64_t i = tile(k);
    if (!kPrefetch) fetch(cur, xc, i);
    else if (k + 1 < count) fetch(nxt, xn, tile(k + 1));
    D accN[kVec];
#pragma unroll
    for (int e = 0; e < kVec; ++e) accN[e] = D{};
    if (i != j) {
#pragma unroll
      for (int c = 0; c < kC; ++c) {
        const D xcol = xj[ty * kC + c];
#pragma unroll
        for (int e = 0; e < kVec; ++e) {
          accN[e] = device::mul_add(cur[c].v[e], xcol, accN[e]);
          accT[c] = fma_op<kConj>(cur[c].v[e], xc.v[e], accT[c]);
        }
      }
    } else {
      // Diagonal tile: local row rl = tx * kVec + e, local column cl = ty * kC + c.
#pragma unroll
      for (int c = 0; c < kC; ++c) {
        const D xcol = xj[ty * kC + c];
#pragma unroll
        for (int e = 0; e < kVec; ++e) {
          const int rl = tx * kVec + e;
          const int cl = ty * kC + c;
          const D v = cur[c].v[e];
          if (kLower ? rl > cl : rl < cl) {
            accN[e] = device::mul_add(v, xcol, accN[e]);
            accT[c] = fma_op<kConj>(v, xc.v[e], accT[c]);
          } else if (rl == cl) {
            accN[e] = device::mul_add(kConj ? real_diag(v) : v, xcol, accN[e]);
          }
        }
      }
    }

    const int buf = static_cast<int>(k & 1);
#pragma unroll
    for (int e = 0; e < kVec; ++e) partial[buf][ty][tx * kVec + e] = accN[e];
    __syncthreads();
    if (t < kNb) {
      D s = partial[buf][0][t];
#pragma unroll
      for (int q = 1; q < kTy; ++q) s = device::add(s, partial[buf][q][t]);
      const int64_t r = i * kNb + t;
      if (r >= lo && r < hi) atomic_add(y + (r - shift) * incy, device::mul(alpha, s));
    }
    if (kPrefetch) {
#pragma unroll
      for (int c = 0; c < kC; ++c) cur[c] = nxt[c];
      xc = xn;
    }
  }

#pragma unroll
  for (int c = 0; c < kC; ++c) accT[c] = group_sum<kTx>(accT[c]);
  if (tx == 0) {
#pragma unroll
    for (int c = 0; c < kC; ++c)
      if (col_ok >> c & 1u)
        atomic_add(y + (col0 + c - shift) * incy, device::mul(alpha, accT[c]));
  }
}

}  // namespace mgblas::kernels::cuda::level2
