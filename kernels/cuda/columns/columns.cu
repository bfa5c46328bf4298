// SPDX-License-Identifier: BSD-3-Clause
// The CUDA engine's column kernels: see kernels/column_kernels.hpp for what each
// computes. A device's columns come as plain index data (LocalColumns), never a layout.
#include <algorithm>

#include <cub/block/block_reduce.cuh>

#include "core/detail/cuda_check.hpp"
#include "core/hash.hpp"
#include "kernels/column_kernels.hpp"
#include "kernels/cuda/common/block_sums.cuh"
#include "kernels/cuda/common/device_scalar.cuh"
#include "kernels/cuda/level2/level2_device.cuh"
#include "kernels/cuda/level2/symv.hpp"
#include "kernels/detail/range_scale.hpp"

namespace mgblas::kernels::cuda {
namespace {

using common::device_t;
using common::atomic_add;

constexpr int kVectorThreads = 256;
// Vector kernels grid-stride past this many blocks (enough to fill any current GPU).
constexpr int64_t kVectorMaxBlocks = 8192;
// Column sets one scatter launch takes (one per blockIdx.y, passed by value); more
// sets take more launches.
constexpr int kScatterSets = 8;

// The diagonal of a Hermitian matrix is real by definition; its stored imaginary part
// is ignored (as BLAS does).
template <typename D>
__device__ inline D real_only(D a) {
  return common::make_scalar<D>(common::real_part(a));
}

unsigned vector_blocks(int64_t n) {
  return common::grid_dim(n, kVectorThreads, kVectorMaxBlocks);
}

// ---- vector kernels: one thread per entry, grid-stride -------------------------------

template <typename D>
__global__ void __launch_bounds__(kVectorThreads)
    finish_sum_kernel(int64_t n, const D* s, D beta, D* y) {
  const bool overwrite = common::is_zero(beta);
  for (int64_t i = blockIdx.x * int64_t{blockDim.x} + threadIdx.x; i < n;
       i += int64_t{gridDim.x} * blockDim.x) {
    const D si = s ? s[i] : D{};
    y[i] = overwrite ? si : common::mul_add(beta, y[i], si);
  }
}

template <typename D>
__global__ void __launch_bounds__(kVectorThreads)
    gather_columns_kernel(LocalColumns cols, const D* x, int64_t c0, D* out) {
  for (int64_t t = blockIdx.x * int64_t{blockDim.x} + threadIdx.x; t < cols.count();
       t += int64_t{gridDim.x} * blockDim.x)
    out[t] = x[cols.global_col(cols.local_begin + t) - c0];
}

struct ColumnSets {
  LocalColumns set[kScatterSets];
};

// blockIdx.y: the column set; its threads grid-stride over the set's entries.
// __grid_constant__: the set is read in place from parameter memory (indexing a by-value
// parameter array with blockIdx.y would copy it to local memory).
template <typename D>
__global__ void __launch_bounds__(kVectorThreads)
    scatter_columns_kernel(const __grid_constant__ ColumnSets sets, const D* in,
                           int64_t in_stride, int64_t c0, D beta, D* y) {
  const bool overwrite = common::is_zero(beta);
  const LocalColumns& c = sets.set[blockIdx.y];
  const D* from = in + blockIdx.y * in_stride;
  for (int64_t t = blockIdx.x * int64_t{blockDim.x} + threadIdx.x; t < c.count();
       t += int64_t{gridDim.x} * blockDim.x) {
    D& yi = y[c.global_col(c.local_begin + t) - c0];
    yi = overwrite ? from[t] : common::mul_add(beta, yi, from[t]);
  }
}

// ---- a matrix out of range: its largest entry, the factor, the scaling ----------------

// The larger of a and b where a NaN in either wins (nothing compares greater than NaN).
template <typename R>
__device__ __forceinline__ R max_keep_nan(R a, R b) {
  return (b != b || b > a) ? b : a;
}

// Magnitudes are >= 0 (or NaN with the sign bit clear, after fabs), so their bits order
// as unsigned integers do, NaN above infinity: an integer atomicMax is a max of them.
__device__ __forceinline__ void atomic_max_magnitude(float* p, float v) {
  atomicMax(reinterpret_cast<unsigned*>(p), __float_as_uint(v));
}
__device__ __forceinline__ void atomic_max_magnitude(double* p, double v) {
  atomicMax(reinterpret_cast<unsigned long long*>(p),
            static_cast<unsigned long long>(__double_as_longlong(v)));
}

// Grid-stride over the rows x cols entries (rows fastest); one atomic per block onto
// *out, which the launcher zeroes first.
template <typename D>
__global__ void __launch_bounds__(kVectorThreads)
    max_magnitude_kernel(int64_t rows, int64_t cols, const D* A, int64_t ld,
                         common::device_real_t<D>* out) {
  using R = common::device_real_t<D>;
  R most = 0;
  for (int64_t t = blockIdx.x * int64_t{blockDim.x} + threadIdx.x; t < rows * cols;
       t += int64_t{gridDim.x} * blockDim.x) {
    const D a = A[(t % rows) + (t / rows) * ld];
    most = max_keep_nan(most, fabs(common::real_part(a)));
    most = max_keep_nan(most, fabs(common::imag_part(a)));
  }
  using Reduce = cub::BlockReduce<R, kVectorThreads>;
  __shared__ typename Reduce::TempStorage temp;
  most = Reduce(temp).Reduce(most, [](R a, R b) { return max_keep_nan(a, b); });
  if (threadIdx.x == 0) atomic_max_magnitude(out, most);
}

// Each block's first thread takes the largest of the few maxima (one per device) and
// the factor; when it is 1 every thread returns without touching A.
template <typename D>
__global__ void __launch_bounds__(kVectorThreads)
    range_scale_kernel(int64_t rows, int64_t cols, int64_t count,
                       const common::device_real_t<D>* maxima, bool inverse, D* A,
                       int64_t ld) {
  using R = common::device_real_t<D>;
  __shared__ R f;
  if (threadIdx.x == 0) {
    R most = 0, factor[2];
    for (int64_t i = 0; i < count; ++i) most = max_keep_nan(most, maxima[i]);
    detail::range_scale_factors(most, factor);
    f = factor[inverse ? 1 : 0];
  }
  __syncthreads();
  if (f == R(1)) return;
  const D s = common::make_scalar<D>(f);
  for (int64_t t = blockIdx.x * int64_t{blockDim.x} + threadIdx.x; t < rows * cols;
       t += int64_t{gridDim.x} * blockDim.x) {
    D& a = A[(t % rows) + (t / rows) * ld];
    a = common::mul(s, a);
  }
}

// ---- the digest of a vector (core/hash.hpp) --------------------------------------------

// Grid-stride over the 8-byte words of `bytes` bytes at x (read as 4-byte halves, the
// low one first as on the host: a float vector is only 4-byte aligned); the last word
// zero-padded. The sums modulo 2^64 are exact in any order, so the atomics give the
// host's result.
__global__ void __launch_bounds__(kVectorThreads)
    digest_sum_kernel(const uint32_t* x, int64_t bytes, unsigned long long* out) {
  const int64_t words = (bytes + 7) / 8, halves = bytes / 4;
  uint64_t sum = 0;
  for (int64_t w = blockIdx.x * int64_t{blockDim.x} + threadIdx.x; w < words;
       w += int64_t{gridDim.x} * blockDim.x) {
    const uint64_t lo = x[2 * w], hi = 2 * w + 1 < halves ? x[2 * w + 1] : 0;
    sum += ::mgblas::detail::mix_word(lo | (hi << 32), static_cast<uint64_t>(w));
  }
  using Reduce = cub::BlockReduce<unsigned long long, kVectorThreads>;
  __shared__ typename Reduce::TempStorage temp;
  const unsigned long long block = Reduce(temp).Sum(static_cast<unsigned long long>(sum));
  if (threadIdx.x == 0) atomicAdd(out, block);
}

// ---- SYMV/HEMV over a device's local columns -------------------------------------------
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
    symv_columns_kernel(LocalColumns cols, int64_t n, const D* __restrict__ A, int64_t ld,
                        int64_t off, D alpha, const D* __restrict__ x, D* y) {
  constexpr int kCols = symv_tile_cols<D>();
  __shared__ int dcol[kCols];  // global column - gmin (< 2^31: the tile spans < n columns)
  __shared__ D xcol[kCols];
  __shared__ D tsum[kSymvWarps][kCols];

  const int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  // Lower: the first tiles have the longest columns; upper: the last ones. Start those
  // first so that no long block is left running alone at the end.
  const int64_t tile = kLower ? blockIdx.x : gridDim.x - 1 - blockIdx.x;
  const int64_t t0 = cols.local_begin + tile * kCols, jl1 = cols.local_end;
  const int ncols = static_cast<int>(jl1 - t0 < kCols ? jl1 - t0 : kCols);
  const int64_t gmin = cols.global_col(t0), gmax = cols.global_col(t0 + ncols - 1);
  // Rows of the stored triangle in these columns (inside the submatrix), in groups.
  const int64_t r_lo = kLower ? gmin : off;
  const int64_t r_hi = kLower ? n : gmax + 1;
  const int64_t start = r_lo / 32 * 32;
  const int64_t groups = (r_hi - start + kGroupRows - 1) / kGroupRows;
  if (blockIdx.y >= groups) return;  // the whole block: before any barrier

  if (threadIdx.x < kCols) {
    const int c = threadIdx.x;
    const int64_t gc = c < ncols ? cols.global_col(t0 + c) : gmin;
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
        nacc = common::mul_add(a[c], xcol[c], nacc);
        tacc[c] = common::mul_add(kHerm ? common::conj(a[c]) : a[c], xr, tacc[c]);
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
            nacc = common::mul_add(kHerm ? real_only(a) : a, xcol[c], nacc);
          } else {
            nacc = common::mul_add(a, xcol[c], nacc);
            tacc[c] = common::mul_add(kHerm ? common::conj(a) : a, xr, tacc[c]);
          }
        }
      }
    }
    atomic_add(&y[r - off], common::mul(alpha, nacc));
  }

  // Column sums: over the lanes of each warp, then over the warps.
#pragma unroll
  for (int c = 0; c < kCols; ++c) {
    const D v = common::lane_group_sum<32>(tacc[c]);
    if (lane == 0) tsum[warp][c] = v;
  }
  __syncthreads();
  if (threadIdx.x < ncols) {
    D s{};
#pragma unroll
    for (int w = 0; w < kSymvWarps; ++w) s = common::add(s, tsum[w][threadIdx.x]);
    atomic_add(&y[gmin + dcol[threadIdx.x] - off], common::mul(alpha, s));
  }
}

template <typename D, bool kLower, bool kHerm>
void launch_symv(cudaStream_t stream, const LocalColumns& cols, int64_t n, const D* A, int64_t ld,
                 int64_t off, D alpha, const D* x, D* y) {
  constexpr int kCols = symv_tile_cols<D>();
  const int64_t tiles = (cols.count() + kCols - 1) / kCols;
  // The longest tile's row count bounds the groups of any tile.
  const int64_t rows = kLower ? n - cols.global_col(cols.local_begin) / 32 * 32
                              : cols.global_col(cols.local_end - 1) + 1 - off / 32 * 32;
  const int64_t groups = (rows + kGroupRows - 1) / kGroupRows;
  // About 16 groups per block on the longest tile (so long blocks stay few and start
  // first), but at least 4 blocks per tile where there are rows for them, so that short
  // problems still spread over the GPU.
  const int64_t parts = std::clamp<int64_t>(std::max<int64_t>((groups + 15) / 16, std::min<int64_t>(groups, 4)),
                                            1, common::kMaxGridY);
  const dim3 grid(static_cast<unsigned>(tiles), static_cast<unsigned>(parts));
  symv_columns_kernel<D, kLower, kHerm>
      <<<grid, kSymvThreads, 0, stream>>>(cols, n, A, ld, off, alpha, x, y);
  MGBLAS_CHECK_LAUNCH(stream);
}

template <Scalar T>
void finish_sum_cuda(const Device& d, cudaStream_t stream, int64_t n, const T* s, T beta, T* y) {
  if (n <= 0) return;
  d.make_current();
  finish_sum_kernel<<<vector_blocks(n), kVectorThreads, 0, stream>>>(
      n, common::device_ptr(s), common::to_device(beta), common::device_ptr(y));
  MGBLAS_CHECK_LAUNCH(stream);
}

template <Scalar T>
void gather_columns_cuda(const Device& d, cudaStream_t stream, const LocalColumns& cols,
                         const T* x, int64_t c0, T* out) {
  if (cols.count() <= 0) return;
  d.make_current();
  gather_columns_kernel<<<vector_blocks(cols.count()), kVectorThreads, 0, stream>>>(
      cols, common::device_ptr(x), c0, common::device_ptr(out));
  MGBLAS_CHECK_LAUNCH(stream);
}

template <Scalar T>
void scatter_columns_cuda(const Device& d, cudaStream_t stream, int parts,
                          const LocalColumns* cols, const T* in, int64_t in_stride, int64_t c0,
                          T beta, T* y) {
  d.make_current();
  // Every device's columns of a gather (the usual case) fit one launch for up to
  // kScatterSets devices, as one unpacking kernel did before.
  for (int p0 = 0; p0 < parts; p0 += kScatterSets) {
    const int count = std::min(kScatterSets, parts - p0);
    ColumnSets sets{};
    int64_t most = 0;
    for (int p = 0; p < count; ++p) {
      sets.set[p] = cols[p0 + p];
      most = std::max(most, cols[p0 + p].count());
    }
    if (most <= 0) continue;
    const dim3 grid(vector_blocks(most), static_cast<unsigned>(count));
    scatter_columns_kernel<<<grid, kVectorThreads, 0, stream>>>(
        sets, common::device_ptr(in + p0 * in_stride), in_stride, c0, common::to_device(beta),
        common::device_ptr(y));
    MGBLAS_CHECK_LAUNCH(stream);
  }
}

template <Scalar T>
void max_magnitude_cuda(const Device& d, cudaStream_t stream, int64_t rows, int64_t cols,
                        const T* A, int64_t ld, real_type_t<T>* out) {
  d.make_current();
  MGBLAS_CHECK_CUDA(cudaMemsetAsync(out, 0, sizeof(real_type_t<T>), stream));
  if (rows <= 0 || cols <= 0) return;
  max_magnitude_kernel<<<vector_blocks(rows * cols), kVectorThreads, 0, stream>>>(
      rows, cols, common::device_ptr(A), ld, out);
  MGBLAS_CHECK_LAUNCH(stream);
}

template <Scalar T>
void range_scale_cuda(const Device& d, cudaStream_t stream, int64_t rows, int64_t cols,
                      int64_t count, const real_type_t<T>* maxima, bool inverse, T* A,
                      int64_t ld) {
  if (rows <= 0 || cols <= 0) return;
  d.make_current();
  range_scale_kernel<<<vector_blocks(rows * cols), kVectorThreads, 0, stream>>>(
      rows, cols, count, maxima, inverse, common::device_ptr(A), ld);
  MGBLAS_CHECK_LAUNCH(stream);
}

template <Scalar T>
void digest_sum_cuda(const Device& d, cudaStream_t stream, int64_t n, const T* x, uint64_t* out) {
  d.make_current();
  MGBLAS_CHECK_CUDA(cudaMemsetAsync(out, 0, sizeof(uint64_t), stream));
  const int64_t bytes = n * static_cast<int64_t>(sizeof(T));
  if (bytes <= 0) return;
  digest_sum_kernel<<<vector_blocks((bytes + 7) / 8), kVectorThreads, 0, stream>>>(
      reinterpret_cast<const uint32_t*>(x), bytes, reinterpret_cast<unsigned long long*>(out));
  MGBLAS_CHECK_LAUNCH(stream);
}

template <Scalar T>
void symv_columns_cuda(const Device& d, cudaStream_t stream, Uplo uplo, bool herm, int64_t n,
                       int64_t off, const LocalColumns& cols, T alpha, const T* A, int64_t ld,
                       const T* x, T* y, bool tiles, T* quad) {
  if (cols.count() <= 0) return;
  d.make_current();
  // The engine's tile kernel needs blocks aligned to its tiles (nb, the block stride and
  // the first column multiples of the tile); layouts/' BlockCyclic1D gives the latter
  // two whenever nb is one.
  const int64_t tile = level2::symv_tile<T>();
  const bool aligned = cols.nb % tile == 0 && cols.stride % tile == 0 && cols.first_col % tile == 0;
  if (tiles && aligned) {
    // The engine's kernel: 16-byte loads and one atomic per row per 32 or 64 columns
    // (the column kernel below: one per 8 or 16), as fast per GPU as on one.
    level2::symv_cyclic<T>(stream, uplo, herm, n, off, cols, alpha, A, ld, x, y, quad);
    return;
  }
  if (quad)
    MGBLAS_THROW(NotImplemented, "symv_columns: x^H S x (quad) needs the tile kernel: blocks of ",
                 cols.nb, " columns every ", cols.stride, " from column ", cols.first_col,
                 " are not multiples of its tile (", tile, ")");
  using D = device_t<T>;
  const D* a = common::device_ptr(A);
  const D* xd = common::device_ptr(x);
  D* yd = common::device_ptr(y);
  const D al = common::to_device(alpha);
  // Real T: Hermitian is symmetric; one instance serves both.
  const bool conj = herm && is_complex_v<T>;
  if (uplo == Uplo::Lower) {
    if (conj) launch_symv<D, true, true>(stream, cols, n, a, ld, off, al, xd, yd);
    else launch_symv<D, true, false>(stream, cols, n, a, ld, off, al, xd, yd);
  } else {
    if (conj) launch_symv<D, false, true>(stream, cols, n, a, ld, off, al, xd, yd);
    else launch_symv<D, false, false>(stream, cols, n, a, ld, off, al, xd, yd);
  }
}

// ---- row blocks of a 2-D redistribution ---------------------------------------------

// blockIdx.y (grid-stride): a column; its threads stride over the column's local rows.
// A run of mb rows is contiguous on both sides, so the accesses coalesce.
template <typename D>
__global__ void __launch_bounds__(kVectorThreads)
    copy_row_blocks_kernel(int64_t count, int64_t rows, int64_t mb, int nprow, int phase,
                           const int64_t* cols, D* packed, D* A, int64_t ld, bool to_columns) {
  for (int64_t c = blockIdx.y; c < count; c += gridDim.y) {
    D* column = A + cols[c] * ld;
    D* run = packed + c * rows;
    for (int64_t il = blockIdx.x * int64_t{blockDim.x} + threadIdx.x; il < rows;
         il += int64_t{gridDim.x} * blockDim.x) {
      const int64_t i = (il / mb * nprow + phase) * mb + il % mb;
      if (to_columns) column[i] = run[il];
      else run[il] = column[i];
    }
  }
}

template <Scalar T>
void copy_row_blocks_cuda(const Device& d, cudaStream_t stream, int64_t count, int64_t rows,
                          int64_t mb, int nprow, int phase, const int64_t* cols, T* packed,
                          T* A, int64_t ld, bool to_columns) {
  if (count <= 0 || rows <= 0) return;
  d.make_current();
  // Enough blocks per column for long columns, grid-stride past 65535 columns.
  const dim3 grid(common::grid_dim(rows, kVectorThreads, 16),
                  static_cast<unsigned>(std::min<int64_t>(count, 65535)));
  copy_row_blocks_kernel<<<grid, kVectorThreads, 0, stream>>>(
      count, rows, mb, nprow, phase, cols, common::device_ptr(packed), common::device_ptr(A), ld,
      to_columns);
  MGBLAS_CHECK_LAUNCH(stream);
}

}  // namespace

#define MGBLAS_CUDA_COLUMNS_(T)                                                               \
  MGBLAS_DECLARE_FINISH_SUM_KERNEL(T) { finish_sum_cuda(dev, stream, n, s, beta, y); }        \
  MGBLAS_DECLARE_GATHER_COLUMNS_KERNEL(T) {                                                   \
    gather_columns_cuda(dev, stream, cols, x, c0, out);                                       \
  }                                                                                           \
  MGBLAS_DECLARE_SCATTER_COLUMNS_KERNEL(T) {                                                  \
    scatter_columns_cuda(dev, stream, parts, cols, in, in_stride, c0, beta, y);               \
  }                                                                                           \
  MGBLAS_DECLARE_SYMV_COLUMNS_KERNEL(T) {                                                     \
    symv_columns_cuda(dev, stream, uplo, herm, n, off, cols, alpha, A, ld, x, y, tiles, quad); \
  }                                                                                           \
  MGBLAS_DECLARE_MAX_MAGNITUDE_KERNEL(T) {                                                    \
    max_magnitude_cuda(dev, stream, rows, cols, A, ld, out);                                  \
  }                                                                                           \
  MGBLAS_DECLARE_RANGE_SCALE_KERNEL(T) {                                                      \
    range_scale_cuda(dev, stream, rows, cols, count, maxima, inverse, A, ld);                 \
  }                                                                                           \
  MGBLAS_DECLARE_DIGEST_SUM_KERNEL(T) { digest_sum_cuda(dev, stream, n, x, out); }          \
  MGBLAS_DECLARE_COPY_ROW_BLOCKS_KERNEL(T) {                                                  \
    copy_row_blocks_cuda(dev, stream, count, rows, mb, nprow, phase, cols, packed, A, ld,     \
                         to_columns);                                                         \
  }
MGBLAS_FOR_EACH_SCALAR(MGBLAS_CUDA_COLUMNS_)
#undef MGBLAS_CUDA_COLUMNS_

}  // namespace mgblas::kernels::cuda
