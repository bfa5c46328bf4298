// SPDX-License-Identifier: BSD-3-Clause
// SYMV/HEMV kernel template (private): y += alpha * A * x with A symmetric or
// Hermitian, only the kLower (or upper) triangle read; the KBLAS design (TOMS paper,
// sections 6.2, 6.3 and 6.5, algorithm 3) with one change: the diagonal blocks are
// not a kernel of their own but the first (lower) or last (upper) tile of their block
// column, masked to the stored triangle in registers. So the whole matrix is one
// launch, the diagonal tiles cost no shared-memory mirror, and beta is applied by the
// launcher before it (y is summed into by many blocks, as KBLAS section 6.4 explains).
// The kernel walks a region (SymvRegion below): a whole (sub)matrix on one device, or
// one device's block columns of a block-cyclic matrix (symv_cyclic, used by dist/'s
// symv_mgpu), with the same tiles and the same speed.
//
// Template parameters (symv_tuning.hpp): D device scalar; kTx lanes along the rows
// of a tile (power of two <= 32); kTy thread rows; kPrefetch double-buffered register
// prefetch; kMinBlocksPerSm the register budget (launch bounds); kLower which triangle
// is stored; kConj Hermitian (conjugate in the transposed product, diagonal taken
// real) rather than symmetric.
#pragma once

#include "kernels/cuda/level2/level2_device.cuh"

namespace mgblas::kernels::cuda::level2 {

/// Which tile columns of the matrix one launch walks, and where their columns are
/// stored. Local tile column jl (whole kNb-column tiles, in storage order) is tile
/// column virtual_of(jl) of the matrix: the identity for a matrix on one device
/// (q = stride = 1, origin = 0), or every P-th block of q tiles starting at block b
/// for a device's share of a block-cyclic layout (stride = P q, origin = b q).
struct TileColumns {
  int64_t first = 0;  ///< local tile column of block x = 0
  int64_t q = 1;
  int64_t stride = 1;
  int64_t origin = 0;
  // Tile counts fit 32 bits (2^31 tiles would be 2^36 columns): a 32-bit division is a
  // few instructions, a 64-bit one a call that cost the kernel spills.
  __host__ __device__ int64_t virtual_of(int64_t jl) const {
    const auto l = static_cast<uint32_t>(jl), b = static_cast<uint32_t>(q);
    return static_cast<int64_t>(l / b) * stride + origin + static_cast<int64_t>(l % b);
  }
};

/// The part of a symmetric matrix one launch computes with, in virtual coordinates
/// (rows and columns, the same for both): the matrix is [lo, hi) x [lo, hi); this
/// launch uses its columns [col_lo, col_hi) (all of them: col_lo = lo, col_hi = hi).
/// Element (r, c) with c in local column lc is A[a_off + lc * lda + r]; x(c) is
/// x[(c - lo) incx] and y likewise.
struct SymvRegion {
  int64_t lo, hi;
  int64_t col_lo, col_hi;
  int64_t a_off;
  TileColumns cols;
  bool vector_ok;  ///< 16-byte chunk loads legal (A and lda * size 16-byte aligned)
};

// symv_kernel.
//
// Tiles: the virtual matrix (for one device: the submatrix with `shift` rows and
// columns added above and to the left, so that tiles are aligned to the parent's
// 128-byte segments, lo = shift) is cut into kNb x kNb tiles, kNb = kTx * kVec. Block
// (x, by) walks block column j = R.cols.virtual_of(R.cols.first + x) over the stored
// tiles numbered [by * tiles_per_block, (by + 1) * tiles_per_block) counted from the
// diagonal: lower i = j, j + 1, ... (down), upper i = j, j - 1, ... (up, to the tile of
// row lo). Blocks with nothing to do return at once.
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
// quad, when not null (symmetric real or Hermitian A only), gets x^H (alpha A x) added:
// the blocks' parts summed by one atomic add each (the tridiagonal reduction's v^H A v,
// which then needs no pass of its own). Off the diagonal, the N product's part of it is
// the conjugate of the T product's, so x^H A x = 2 Re(sum_c conj(x(c)) (T sum of c)) +
// sum_c A(c, c) |x(c)|^2: formed once at the end from the T sums, plus the diagonal
// tile's diagonal, with nothing added to the tile loop.
// Preconditions: y already scaled by beta; kNb % kTy == 0; kTx * kTy >= kNb;
// tiles_per_block > 0; every column of the launch's tiles is in local storage or
// outside [col_lo, col_hi) (never read).
template <typename D, int kTx, int kTy, bool kPrefetch, int kMinBlocksPerSm, bool kLower,
          bool kConj>
__global__ void __launch_bounds__(kTx * kTy, kMinBlocksPerSm)
    symv_kernel(SymvRegion R, D alpha, const D* __restrict__ A, int64_t lda,
                const D* __restrict__ x, int64_t incx, D* y, int64_t incy,
                int64_t tiles_per_block, D* quad) {
  constexpr int kVec = kVecOf<D>;
  constexpr int kNb = kTx * kVec;
  constexpr int kC = kNb / kTy;
  static_assert(kNb % kTy == 0, "tile columns must split evenly over thread rows");
  static_assert(kTx * kTy >= kNb, "one thread per row is needed for the N-product sum");
  static_assert(32 % kTx == 0, "lane groups must tile a warp");
  static_assert(kC <= 32, "column mask is 32 bits");
  __shared__ D partial[2][kTy][kNb];
  __shared__ D xj[kNb];  // x of block column j: read by every tile, kept out of registers
  // With quad: A(c, c) |x(c)|^2 of the diagonal tile's column c (in shared memory, not a
  // register held through the tile loop).
  using Re = common::device_real_t<D>;
  __shared__ Re quad_diag[kNb];

  const int64_t lo = R.lo;
  const int64_t hi = R.hi;
  const int64_t nt = ceil_div(hi, kNb);
  const int64_t tile_lo = lo / kNb;  // first row tile holding a row of the matrix
  const int64_t jl = R.cols.first + blockIdx.x;  // local tile column
  const int64_t j = R.cols.virtual_of(jl);       // the same tile column in the matrix
  // Tile k of this block is row block i = start + k (lower) or start - k (upper): both
  // walk away from the diagonal, so the blocks running together add into rows spread
  // along the diagonal instead of all into the top rows (atomics contention).
  const int64_t by = blockIdx.y;
  const int64_t start = kLower ? j + by * tiles_per_block : j - by * tiles_per_block;
  const int64_t count =
      kLower ? imin(tiles_per_block, nt - start) : imin(tiles_per_block, start - tile_lo + 1);
  if (count <= 0) return;  // uniform over the block: no barrier is skipped
  const auto tile = [&](int64_t k) { return kLower ? start + k : start - k; };

  const int tx = threadIdx.x;
  const int ty = threadIdx.y;
  const int t = ty * kTx + tx;
  if (t < kNb) {
    const int64_t col = j * kNb + t;
    xj[t] = col >= lo && col < hi ? x[(col - lo) * incx] : D{};
    if (quad) quad_diag[t] = 0;
  }
  const int64_t col0 = j * kNb + ty * kC;  // virtual column of this thread's first column
  // Its local column: local tile columns hold whole tiles, in order.
  const D* a = A + (R.a_off + (jl * kNb + ty * kC) * lda);
  const int64_t c_lo = imax(lo, R.col_lo), c_hi = imin(hi, R.col_hi);
  uint32_t col_ok = 0;
#pragma unroll
  for (int c = 0; c < kC; ++c)
    if (col0 + c >= c_lo && col0 + c < c_hi) col_ok |= 1u << c;

  D accT[kC];
#pragma unroll
  for (int c = 0; c < kC; ++c) accT[c] = D{};

  Chunk<D> cur[kC], nxt[kC];
  Chunk<D> xc, xn;
  auto fetch = [&](Chunk<D>* ch, Chunk<D>& xv, int64_t i) {
    const int64_t r = i * kNb + tx * kVec;
    const bool rows_any = r + kVec > lo && r < hi;
    const bool full = R.vector_ok && r >= lo && r + kVec <= hi;
    const D* p = a + r;
#pragma unroll
    for (int c = 0; c < kC; ++c) {
      if (rows_any && (col_ok >> c & 1u)) load_chunk(ch[c], p, full, r, lo, hi);
      else set_zero(ch[c]);
      p += lda;
    }
#pragma unroll
    for (int e = 0; e < kVec; ++e)
      xv.v[e] = (r + e >= lo && r + e < hi) ? x[(r + e - lo) * incx] : D{};
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
    // The diagonal tile is the first one of block row 0 (tested so, not as i == j: j
    // would then stay live in registers through the loop, and entry 1 of d spilled).
    if (k != 0 || blockIdx.y != 0) {
#pragma unroll
      for (int c = 0; c < kC; ++c) {
        const D xcol = xj[ty * kC + c];
#pragma unroll
        for (int e = 0; e < kVec; ++e) {
          accN[e] = common::mul_add(cur[c].v[e], xcol, accN[e]);
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
            accN[e] = common::mul_add(v, xcol, accN[e]);
            accT[c] = fma_op<kConj>(v, xc.v[e], accT[c]);
          } else if (rl == cl) {
            accN[e] = common::mul_add(kConj ? real_diag(v) : v, xcol, accN[e]);
            if (quad) quad_diag[cl] = common::real_part(v) * common::abs_sq(xcol);
          }
        }
      }
    }

    // kNb row sums over the kTy thread rows at once (not CUB's single-sum block
    // reduction), double-buffered so that one barrier per tile suffices.
    const int buf = static_cast<int>(k & 1);
#pragma unroll
    for (int e = 0; e < kVec; ++e) partial[buf][ty][tx * kVec + e] = accN[e];
    __syncthreads();
    if (t < kNb) {
      D s = partial[buf][0][t];
#pragma unroll
      for (int q = 1; q < kTy; ++q) s = common::add(s, partial[buf][q][t]);
      const int64_t r = i * kNb + t;
      if (r >= lo && r < hi) atomic_add(y + (r - lo) * incy, common::mul(alpha, s));
    }
    if (kPrefetch) {
#pragma unroll
      for (int c = 0; c < kC; ++c) cur[c] = nxt[c];
      xc = xn;
    }
  }

  // A butterfly of shuffles, not CUB's WarpReduce: at n = 4096 a block reduces right
  // after its one tile, and CUB's volatile-asm shuffles, which the compiler does not
  // interleave over the kC sums, left SYMV/HEMV 9-18 % slower there on an H200 (2-4 %
  // with the kC sums in one CUB struct); the butterfly is as fast as before CUB.
#pragma unroll
  for (int m = kTx / 2; m > 0; m /= 2)
#pragma unroll
    for (int c = 0; c < kC; ++c) accT[c] = common::add(accT[c], common::shfl_xor(accT[c], m));
  // With quad, this thread's part of x^H A x (real): 2 Re(conj(x(c)) (T sum of c)) for
  // its columns, and the diagonal tile's A(c, c) |x(c)|^2.
  Re xq = quad && t < kNb ? quad_diag[t] : Re(0);
  if (tx == 0) {
#pragma unroll
    for (int c = 0; c < kC; ++c)
      if (col_ok >> c & 1u) {
        atomic_add(y + (col0 + c - lo) * incy, common::mul(alpha, accT[c]));
        if (quad) xq += Re(2) * common::real_part(common::mul(common::conj(xj[ty * kC + c]), accT[c]));
      }
  }
  if (quad) {  // uniform over the launch: the block sum's barrier is reached by all or none
    // The block's sum (CUB over the kTx x kTy block, t its linear thread), times alpha.
    using BlockReduce = cub::BlockReduce<Re, kTx, cub::BLOCK_REDUCE_WARP_REDUCTIONS, kTy>;
    __shared__ typename BlockReduce::TempStorage quad_sum;
    const Re sum = BlockReduce(quad_sum).Sum(xq);
    if (t == 0) atomic_add(quad, common::mul(alpha, common::make_scalar<D>(sum)));
  }
}

}  // namespace mgblas::kernels::cuda::level2
