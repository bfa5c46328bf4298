// SPDX-License-Identifier: BSD-3-Clause
// dist's CUDA kernels: see dist/detail/dist_kernels.hpp for what each computes.
#include <algorithm>

#include "core/detail/cuda_check.hpp"
#include "dist/detail/column_range.hpp"
#include "dist/detail/dist_kernels.hpp"
#include "kernels/cuda/common/device_scalar.cuh"
#include "kernels/cuda/symv/symv.hpp"

namespace mgblas::detail::cuda {
namespace {

namespace dev = kernels::cuda::device;
using dev::device_t;

constexpr int kVectorThreads = 256;
// Vector kernels grid-stride past this many blocks (enough to fill any current GPU).
constexpr int64_t kVectorMaxBlocks = 8192;

__device__ inline void atomic_add(float* p, float v) { atomicAdd(p, v); }
__device__ inline void atomic_add(double* p, double v) { atomicAdd(p, v); }
__device__ inline void atomic_add(cuFloatComplex* p, cuFloatComplex v) {
  atomicAdd(&p->x, v.x);
  atomicAdd(&p->y, v.y);
}
__device__ inline void atomic_add(cuDoubleComplex* p, cuDoubleComplex v) {
  atomicAdd(&p->x, v.x);
  atomicAdd(&p->y, v.y);
}

__device__ inline float shfl_xor(float v, int m) { return __shfl_xor_sync(0xffffffffu, v, m); }
__device__ inline double shfl_xor(double v, int m) { return __shfl_xor_sync(0xffffffffu, v, m); }
__device__ inline cuFloatComplex shfl_xor(cuFloatComplex v, int m) {
  return {shfl_xor(v.x, m), shfl_xor(v.y, m)};
}
__device__ inline cuDoubleComplex shfl_xor(cuDoubleComplex v, int m) {
  return {shfl_xor(v.x, m), shfl_xor(v.y, m)};
}

// The diagonal of a Hermitian matrix is real by definition; its stored imaginary part
// is ignored (as BLAS does).
__device__ inline float real_part(float a) { return a; }
__device__ inline double real_part(double a) { return a; }
__device__ inline cuFloatComplex real_part(cuFloatComplex a) { return {a.x, 0.0f}; }
__device__ inline cuDoubleComplex real_part(cuDoubleComplex a) { return {a.x, 0.0}; }

unsigned vector_blocks(int64_t n) {
  return dev::grid_dim(n, kVectorThreads, kVectorMaxBlocks);
}

// ---- vector kernels: one thread per entry, grid-stride -------------------------------

template <typename D>
__global__ void __launch_bounds__(kVectorThreads)
    finish_sum_kernel(int64_t n, const D* s, D beta, D* y) {
  const bool overwrite = dev::is_zero(beta);
  for (int64_t i = blockIdx.x * int64_t{blockDim.x} + threadIdx.x; i < n;
       i += int64_t{gridDim.x} * blockDim.x) {
    const D si = s ? s[i] : D{};
    y[i] = overwrite ? si : dev::mul_add(beta, y[i], si);
  }
}

template <typename D>
__global__ void __launch_bounds__(kVectorThreads)
    gather_columns_kernel(BlockCyclic1D L, int g, int64_t jl0, int64_t count, const D* x,
                          int64_t c0, D* out) {
  for (int64_t t = blockIdx.x * int64_t{blockDim.x} + threadIdx.x; t < count;
       t += int64_t{gridDim.x} * blockDim.x)
    out[t] = x[L.global_col(g, jl0 + t) - c0];
}

template <typename D>
__global__ void __launch_bounds__(kVectorThreads)
    scatter_columns_kernel(BlockCyclic1D L, int g, int64_t jl0, int64_t count, const D* in,
                           int64_t c0, D* y) {
  for (int64_t t = blockIdx.x * int64_t{blockDim.x} + threadIdx.x; t < count;
       t += int64_t{gridDim.x} * blockDim.x)
    y[L.global_col(g, jl0 + t) - c0] = in[t];
}

template <typename D>
__global__ void __launch_bounds__(kVectorThreads)
    unpack_columns_kernel(BlockCyclic1D L, int64_t c0, const D* gathered, int64_t stride, D beta,
                          D* y) {
  const bool overwrite = dev::is_zero(beta);
  const int64_t n = L.n() - c0;
  for (int64_t i = blockIdx.x * int64_t{blockDim.x} + threadIdx.x; i < n;
       i += int64_t{gridDim.x} * blockDim.x) {
    const int64_t gc = c0 + i;
    const int o = L.owner(gc);
    const D v = gathered[o * stride + L.local_col(gc) - local_begin(L, o, c0)];
    y[i] = overwrite ? v : dev::mul_add(beta, y[i], v);
  }
}

// ---- SYMV/HEMV over block-cyclic local columns ----------------------------------------
//
// Mapping. A thread block owns a tile of kCols consecutive local columns (blockIdx.x,
// longest tiles first) and every kParts-th group of 256 rows of the stored triangle in
// those columns (blockIdx.y = its first group, kParts = gridDim.y); inside a group,
// warp w takes rows [32 w, 32 w + 32), one row per lane, so each column is read in
// 32-row coalesced segments starting at a multiple of 32 rows (the local leading
// dimension keeps columns 128-byte aligned).
//
// Each stored entry a = A(r, c) is read once and used twice: a * x(c) goes to y(r) (a
// register sum over the tile's columns, one atomic add per row and tile), op(a) * x(r)
// to y(c) (kCols register sums per thread, reduced over the block at the end, one
// atomic add per column and block). op = conj for Hermitian. Diagonal entries add only
// to y(r). Groups entirely off the diagonal band of the tile (the common case) skip all
// masks and issue the tile's kCols loads back to back.
//
// Shared memory: the tile's columns (relative to its first), x at them, and the
// per-warp column sums. kCols: 16 columns (8 for double complex) keep the loaded
// entries, the column sums and the tile's x (which the compiler keeps in registers) at
// <= 128 registers per thread (2 blocks of 256 threads per SM) without spilling, with
// 16 loads of 32 consecutive rows in flight per warp.
constexpr int kSymvThreads = 256;
constexpr int kSymvWarps = kSymvThreads / 32;
constexpr int kGroupRows = kSymvWarps * 32;

template <typename D>
constexpr int symv_tile_cols() {
  return sizeof(D) > 8 ? 8 : 16;
}

template <typename D, bool kLower, bool kHerm>
__global__ void __launch_bounds__(kSymvThreads, 2)
    symv_block_cyclic_kernel(BlockCyclic1D L, int g, const D* __restrict__ A, int64_t ld,
                             int64_t off, int64_t jl0, int64_t jl1, D alpha,
                             const D* __restrict__ x, D* y) {
  constexpr int kCols = symv_tile_cols<D>();
  __shared__ int dcol[kCols];  // global column - gmin (< 2^31: the tile spans < n columns)
  __shared__ D xcol[kCols];
  __shared__ D tsum[kSymvWarps][kCols];

  const int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  // Lower: the first tiles have the longest columns; upper: the last ones. Start those
  // first so that no long block is left running alone at the end.
  const int64_t tile = kLower ? blockIdx.x : gridDim.x - 1 - blockIdx.x;
  const int64_t t0 = jl0 + tile * kCols;
  const int ncols = static_cast<int>(jl1 - t0 < kCols ? jl1 - t0 : kCols);
  const int64_t gmin = L.global_col(g, t0), gmax = L.global_col(g, t0 + ncols - 1);
  // Rows of the stored triangle in these columns (inside the submatrix), in groups.
  const int64_t r_lo = kLower ? gmin : off;
  const int64_t r_hi = kLower ? L.n() : gmax + 1;
  const int64_t start = r_lo / 32 * 32;
  const int64_t groups = (r_hi - start + kGroupRows - 1) / kGroupRows;
  if (blockIdx.y >= groups) return;  // the whole block: before any barrier

  if (threadIdx.x < kCols) {
    const int c = threadIdx.x;
    const int64_t gc = c < ncols ? L.global_col(g, t0 + c) : gmin;
    dcol[c] = static_cast<int>(gc - gmin);
    xcol[c] = c < ncols ? x[gc - off] : D{};
  }
  __syncthreads();

  const D* base = A + t0 * ld;
  const bool full = ncols == kCols;
  D tacc[kCols];
#pragma unroll
  for (int c = 0; c < kCols; ++c) tacc[c] = D{};

  for (int64_t grp = blockIdx.y; grp < groups; grp += gridDim.y) {
    const int64_t r0 = start + grp * kGroupRows + warp * 32;
    const int64_t r = r0 + lane;
    if (r < r_lo || r >= r_hi) continue;
    const D xr = x[r - off];
    D nacc{};
    // Warp-uniform: every row of the warp strictly below (lower) / above (upper) every
    // column of a full tile, so every entry is stored and none is diagonal.
    const bool clear = full && (kLower ? r0 > gmax : r0 + 31 < gmin);
    if (clear) {
      D a[kCols];
#pragma unroll
      for (int c = 0; c < kCols; ++c) a[c] = base[c * ld + r];
#pragma unroll
      for (int c = 0; c < kCols; ++c) {
        nacc = dev::mul_add(a[c], xcol[c], nacc);
        tacc[c] = dev::mul_add(kHerm ? dev::conj(a[c]) : a[c], xr, tacc[c]);
      }
    } else {
      // Near the band: rows within a few warps of the tile's columns, so r - gmin is
      // small (lower: in [0, gmax - gmin + 31]; upper: >= -62).
      const int rr = static_cast<int>(r - gmin);
#pragma unroll
      for (int c = 0; c < kCols; ++c) {
        const int dc = dcol[c];
        // Entries outside the stored triangle are never loaded: they may hold anything.
        if (c < ncols && (kLower ? rr >= dc : rr <= dc)) {
          const D a = base[c * ld + r];
          if (rr == dc) {
            nacc = dev::mul_add(kHerm ? real_part(a) : a, xcol[c], nacc);
          } else {
            nacc = dev::mul_add(a, xcol[c], nacc);
            tacc[c] = dev::mul_add(kHerm ? dev::conj(a) : a, xr, tacc[c]);
          }
        }
      }
    }
    atomic_add(&y[r - off], dev::mul(alpha, nacc));
  }

  // Column sums: over the lanes of each warp, then over the warps.
#pragma unroll
  for (int c = 0; c < kCols; ++c) {
    D v = tacc[c];
#pragma unroll
    for (int m = 16; m > 0; m /= 2) v = dev::add(v, shfl_xor(v, m));
    if (lane == 0) tsum[warp][c] = v;
  }
  __syncthreads();
  if (threadIdx.x < ncols) {
    D s{};
#pragma unroll
    for (int w = 0; w < kSymvWarps; ++w) s = dev::add(s, tsum[w][threadIdx.x]);
    atomic_add(&y[gmin + dcol[threadIdx.x] - off], dev::mul(alpha, s));
  }
}

template <typename D, bool kLower, bool kHerm>
void launch_symv(cudaStream_t stream, const BlockCyclic1D& L, int g, const D* A, int64_t ld,
                 int64_t off, int64_t jl0, int64_t jl1, D alpha, const D* x, D* y) {
  constexpr int kCols = symv_tile_cols<D>();
  const int64_t tiles = (jl1 - jl0 + kCols - 1) / kCols;
  // The longest tile's row count bounds the groups of any tile.
  const int64_t rows = kLower ? L.n() - L.global_col(g, jl0) / 32 * 32
                              : L.global_col(g, jl1 - 1) + 1 - off / 32 * 32;
  const int64_t groups = (rows + kGroupRows - 1) / kGroupRows;
  // About 16 groups per block on the longest tile (so long blocks stay few and start
  // first), but at least 4 blocks per tile where there are rows for them, so that short
  // problems still spread over the GPU.
  const int64_t parts = std::clamp<int64_t>(std::max<int64_t>((groups + 15) / 16, std::min<int64_t>(groups, 4)),
                                            1, dev::kMaxGridY);
  const dim3 grid(static_cast<unsigned>(tiles), static_cast<unsigned>(parts));
  symv_block_cyclic_kernel<D, kLower, kHerm>
      <<<grid, kSymvThreads, 0, stream>>>(L, g, A, ld, off, jl0, jl1, alpha, x, y);
  MGBLAS_CHECK_LAUNCH(stream);
}

}  // namespace

template <Scalar T>
void finish_sum(cudaStream_t stream, int64_t n, const T* s, T beta, T* y) {
  if (n <= 0) return;
  finish_sum_kernel<<<vector_blocks(n), kVectorThreads, 0, stream>>>(
      n, dev::device_ptr(s), dev::to_device(beta), dev::device_ptr(y));
  MGBLAS_CHECK_LAUNCH(stream);
}

template <Scalar T>
void gather_columns(cudaStream_t stream, const BlockCyclic1D& L, int g, int64_t jl0,
                    int64_t count, const T* x, int64_t c0, T* out) {
  if (count <= 0) return;
  gather_columns_kernel<<<vector_blocks(count), kVectorThreads, 0, stream>>>(
      L, g, jl0, count, dev::device_ptr(x), c0, dev::device_ptr(out));
  MGBLAS_CHECK_LAUNCH(stream);
}

template <Scalar T>
void scatter_columns(cudaStream_t stream, const BlockCyclic1D& L, int g, int64_t jl0,
                     int64_t count, const T* in, int64_t c0, T* y) {
  if (count <= 0) return;
  scatter_columns_kernel<<<vector_blocks(count), kVectorThreads, 0, stream>>>(
      L, g, jl0, count, dev::device_ptr(in), c0, dev::device_ptr(y));
  MGBLAS_CHECK_LAUNCH(stream);
}

template <Scalar T>
void unpack_columns(cudaStream_t stream, const BlockCyclic1D& L, int64_t c0, const T* gathered,
                    int64_t stride, T beta, T* y) {
  const int64_t n = L.n() - c0;
  if (n <= 0) return;
  unpack_columns_kernel<<<vector_blocks(n), kVectorThreads, 0, stream>>>(
      L, c0, dev::device_ptr(gathered), stride, dev::to_device(beta), dev::device_ptr(y));
  MGBLAS_CHECK_LAUNCH(stream);
}

template <Scalar T>
void symv_block_cyclic(cudaStream_t stream, Uplo uplo, bool herm, const BlockCyclic1D& L, int g,
                       const T* A, int64_t ld, int64_t off, int64_t jl0, int64_t jl1, T alpha,
                       const T* x, T* y, bool tiles) {
  if (jl1 <= jl0) return;
  if (tiles && L.nb() % kernels::cuda::level2::symv_tile<T>() == 0) {
    // The engine's kernel: 16-byte loads and one atomic per row per 32 or 64 columns
    // (the column kernel below: one per 8 or 16), as fast per GPU as on one.
    const kernels::cuda::level2::CyclicShare share{
        L.nb(), L.num_devices(), L.first_block(g), jl0, jl1, L.global_col(g, jl0),
        L.global_col(g, jl1 - 1) + 1};
    kernels::cuda::level2::symv_cyclic<T>(stream, uplo, herm, L.n(), off, share, alpha, A, ld, x,
                                          y);
    return;
  }
  using D = device_t<T>;
  const D* a = dev::device_ptr(A);
  const D* xd = dev::device_ptr(x);
  D* yd = dev::device_ptr(y);
  const D al = dev::to_device(alpha);
  // Real T: Hermitian is symmetric; one instance serves both.
  const bool conj = herm && is_complex_v<T>;
  if (uplo == Uplo::Lower) {
    if (conj) launch_symv<D, true, true>(stream, L, g, a, ld, off, jl0, jl1, al, xd, yd);
    else launch_symv<D, true, false>(stream, L, g, a, ld, off, jl0, jl1, al, xd, yd);
  } else {
    if (conj) launch_symv<D, false, true>(stream, L, g, a, ld, off, jl0, jl1, al, xd, yd);
    else launch_symv<D, false, false>(stream, L, g, a, ld, off, jl0, jl1, al, xd, yd);
  }
}

MGBLAS_FOR_EACH_SCALAR(MGBLAS_DIST_KERNELS_INSTANTIATE)

}  // namespace mgblas::detail::cuda
