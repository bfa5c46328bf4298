// SPDX-License-Identifier: BSD-3-Clause
// CUDA engine of the bidiagonal reduction's panel steps (kernels/labrd_kernels.hpp).
//
// A column is two launches (update + norm + reflector, then v's scaling + Y's small
// corrections), a row one launch (Y's finish, the row's update and its sums), the finish
// one launch; none waits for the host. Grid-wide sums are block partials in `work`
// added in block order by the last block to finish (a counter in `work`), so every
// device computes the same bits.
//
// work layout: [0, 64) counters; [64, 128) the column's scale; [kPartials, ...) the
// blocks' partial sums (grids are capped at kMaxGrid blocks, which grid-stride).
#include <cstddef>
#include <cstdint>

#include "core/detail/cuda_check.hpp"
#include "kernels/cuda/common/block_sums.cuh"
#include "kernels/cuda/common/device_scalar.cuh"
#include "kernels/labrd_kernels.hpp"

namespace mgblas::kernels::cuda {
namespace {

using namespace common;

constexpr int64_t kMaxGrid = 1024;
constexpr std::size_t kScalars = 64, kPartials = 4096;
// Counters of the kernels that finish in their last block.
constexpr int kColumnCounter = 0, kDotsCounter = 1, kRowCounter = 2;
// Rows per block and tile of the dots kernel; the widest panel (columns per warp).
constexpr int kRowsPerLane = 1, kDotRows = kLanes * kRowsPerLane, kMaxPerWarp = 16;
static_assert(kMaxPerWarp * kWarps >= 2 * kLabrdMaxPanel, "a warp's share of 2 kb columns");

__device__ unsigned* counter(void* work, int which) { return static_cast<unsigned*>(work) + which; }
template <typename S> __device__ S* partials(void* work) {
  return reinterpret_cast<S*>(static_cast<unsigned char*>(work) + kPartials);
}

// beta, tau and 1 / (alpha - beta) of ?larfg from alpha and ||x||^2 as three sums, without
// overflow or underflow (kernels/detail/safe_reflector.hpp); H = I when x = 0, alpha real.
template <typename D>
__device__ void reflector_scalars(D alpha, const SumSq<device_real_t<D>>& s,
                                  device_real_t<D>& beta, D& tau, D& scale) {
  using R = device_real_t<D>;
  R tr, ti, sr, si;
  ::mgblas::kernels::detail::reflector_scalars<R>(real_part(alpha), imag_part(alpha), s.norm(),
                                                  beta, tr, ti, sr, si);
  tau = make_scalar<D>(tr, ti);
  scale = make_scalar<D>(sr, si);
}

// ---- column: update, norm, reflector -------------------------------------------------
// Tiles of 32 rows; warp y sums its share of the panel's j + jx columns for the row.
template <typename D>
__global__ void __launch_bounds__(kBlockThreads)
    column_update_kernel(int64_t mr, int64_t j, int64_t jx, D* P, int64_t ldp, const D* X,
                         int64_t ldx, const D* ycoef, const D* ucoef, device_real_t<D>* beta_out,
                         D* tau_out, void* work) {
  using R = device_real_t<D>;
  extern __shared__ unsigned char smem_raw[];
  D* coef = reinterpret_cast<D*>(smem_raw);  // [0, j): ycoef; [j, j + jx): ucoef
  const int64_t nc = j + jx;
  for (int64_t l = flat_thread(); l < nc; l += kBlockThreads) coef[l] = l < j ? ycoef[l] : ucoef[l - j];
  __syncthreads();
  const int64_t chunk = (nc + kWarps - 1) / kWarps, l0 = threadIdx.y * chunk;
  const int64_t l1 = l0 + chunk < nc ? l0 + chunk : nc;
  D* a = P + j * ldp;
  SumSq<R> sumsq = SumSq<R>::zero();
  for (int64_t t = blockIdx.x; t * kLanes < mr; t += gridDim.x) {
    const int64_t r = t * kLanes + threadIdx.x;
    D part = make_scalar<D>(0);
    if (r < mr)
      for (int64_t l = l0; l < l1; ++l)
        part = mul_add(l < j ? P[r + l * ldp] : X[r + (l - j) * ldx], coef[l], part);
    part = across_warps(part);
    if (threadIdx.y == 0 && r < mr) {
      const D v = sub(a[r], part);
      a[r] = v;
      if (r >= 1) add_squares(sumsq, v);
    }
  }
  const SumSq<R> total = block_sum(sumsq);
  if (flat_thread() == 0) partials<SumSq<R>>(work)[blockIdx.x] = total;
  if (!last_block(counter(work, kColumnCounter))) return;
  SumSq<R> s = SumSq<R>::zero();
  for (int64_t b = flat_thread(); b < gridDim.x; b += kBlockThreads)
    s = s + load_cg(partials<SumSq<R>>(work) + b);
  s = block_sum(s);
  if (flat_thread() != 0) return;
  R beta;
  D tau, scale;
  reflector_scalars<D>(__ldcg(a), s, beta, tau, scale);  // a[0]: another block's write
  *beta_out = beta;
  *tau_out = tau;
  *reinterpret_cast<D*>(static_cast<unsigned char*>(work) + kScalars) = scale;
  a[0] = make_scalar<D>(1);
}

// The warp's sums over its lanes of acc[k], the column q = y + kWarps k (q < count),
// handed to write(q, sum): eight columns per transposing butterfly (block_sums.cuh), not
// one warp reduction each.
template <typename D, typename Write>
__device__ void warp_sums_out(D (&acc)[kMaxPerWarp], int64_t count, Write&& write) {
  constexpr int kAtOnce = 8;
  static_assert(kMaxPerWarp % kAtOnce == 0);
#pragma unroll
  for (int k0 = 0; k0 < kMaxPerWarp; k0 += kAtOnce) {
    if (threadIdx.y + int64_t{kWarps} * k0 >= count) break;  // the same for the whole warp
    D g[kAtOnce];
#pragma unroll
    for (int i = 0; i < kAtOnce; ++i) g[i] = acc[k0 + i];
    write_warp_sums(g, threadIdx.y + int64_t{kWarps} * k0, kWarps, count, write);
  }
}

// ---- column: v = scale a, s = [P | X]^H v ---------------------------------------------
// Tiles of kDotRows rows (kRowsPerLane per lane); warp y takes the columns q = y, y + 8,
// ... of [P(:, 0:j) | X(:, 0:jx)]. Every warp scales its rows' v itself; warp 0 stores it
// after all have read.
template <typename D>
__global__ void __launch_bounds__(kBlockThreads)
    column_dots_kernel(int64_t mr, int64_t j, int64_t jx, D* P, int64_t ldp, const D* X,
                       int64_t ldx, D* s, void* work) {
  const D scale = *reinterpret_cast<const D*>(static_cast<unsigned char*>(work) + kScalars);
  const int64_t nc = j + jx;
  D* a = P + j * ldp;
  D acc[kMaxPerWarp];
#pragma unroll
  for (int k = 0; k < kMaxPerWarp; ++k) acc[k] = make_scalar<D>(0);
  for (int64_t t = blockIdx.x; t * kDotRows < mr; t += gridDim.x) {
    D v[kRowsPerLane];
#pragma unroll
    for (int i = 0; i < kRowsPerLane; ++i) {
      const int64_t r = t * kDotRows + i * kLanes + threadIdx.x;
      v[i] = r < mr ? (r == 0 ? a[0] : mul(scale, a[r])) : make_scalar<D>(0);
    }
    __syncthreads();  // every warp has read a before warp 0 overwrites it
    if (threadIdx.y == 0)
#pragma unroll
      for (int i = 0; i < kRowsPerLane; ++i) {
        const int64_t r = t * kDotRows + i * kLanes + threadIdx.x;
        if (r >= 1 && r < mr) a[r] = v[i];
      }
#pragma unroll
    for (int k = 0; k < kMaxPerWarp; ++k) {
      const int64_t q = threadIdx.y + int64_t{kWarps} * k;
      if (q >= nc) break;
      const D* col = q < j ? P + q * ldp : X + (q - j) * ldx;
#pragma unroll
      for (int i = 0; i < kRowsPerLane; ++i) {
        const int64_t r = t * kDotRows + i * kLanes + threadIdx.x;
        if (r < mr) acc[k] = mul_add(conj(col[r]), v[i], acc[k]);
      }
    }
  }
  D* part = partials<D>(work);
  warp_sums_out(acc, nc, [&](int64_t q, D v) { part[blockIdx.x * nc + q] = v; });
  if (!last_block(counter(work, kDotsCounter))) return;
  sum_block_partials(part, nc, nc, [&](int64_t q, D v) { s[q] = v; });
}

// ---- row: Y's finish, the row's update, its sums --------------------------------------
// Tiles of 32 columns (q = lane); the warps split each column's products (fix + jxf for
// Y's finish, jy + ju for the row) and then the sums against r (warp y: the columns l =
// y, y + 8, ... of [Y(:, 0:jy) | Ut(:, 0:ju)], each lane accumulating its own q's).
template <typename D>
__device__ D split_products(int64_t q, int64_t n1, const D* A, int64_t n2, const D* B,
                            int64_t ld, const D* c) {
  const int64_t n = n1 + n2, chunk = (n + kWarps - 1) / kWarps, l0 = threadIdx.y * chunk;
  const int64_t l1 = l0 + chunk < n ? l0 + chunk : n;
  D part = make_scalar<D>(0);
  for (int64_t l = l0; l < l1; ++l) part = mul_add(l < n1 ? A[q + l * ld] : B[q + (l - n1) * ld], c[l], part);
  return part;
}

template <typename D>
__global__ void __launch_bounds__(kBlockThreads)
    row_kernel(int64_t nq, D* Y, D* Ut, int64_t ldy, int64_t fix, int64_t jxf, const D* s,
               const D* tau_y, bool do_row, LabrdSums S, const D* vrow, int64_t ldv,
               const D* xrow, int64_t ldxr, D* row, int64_t lda, bool owns_head, const D* a1,
               D* sums, void* work) {
  using R = device_real_t<D>;
  __shared__ D cf[2 * kLabrdMaxPanel];  // Y's finish: s; the row: (conj vrow, conj xrow)
  __shared__ D cr[2 * kLabrdMaxPanel];
  __shared__ D rbuf[kLanes];
  const int flat = flat_thread();
  const int64_t nl = S.jy + S.ju;
  if (fix >= 0)
    for (int64_t l = flat; l < fix + jxf; l += kBlockThreads) cf[l] = s[l];
  if (do_row)
    for (int64_t l = flat; l < nl; l += kBlockThreads)
      cr[l] = l < S.jy ? conj(vrow[l * ldv]) : conj(xrow[(l - S.jy) * ldxr]);
  const D tau = fix >= 0 ? *tau_y : make_scalar<D>(0);
  __syncthreads();
  const int64_t q0 = owns_head ? 1 : 0;
  D acc[kMaxPerWarp];
#pragma unroll
  for (int k = 0; k < kMaxPerWarp; ++k) acc[k] = make_scalar<D>(0);
  SumSq<R> ss = SumSq<R>::zero();
  for (int64_t t = blockIdx.x; t * kLanes < nq; t += gridDim.x) {
    const int64_t q = t * kLanes + threadIdx.x;
    const bool in = q < nq;
    if (fix >= 0) {
      const D part = across_warps(in ? split_products(q, fix, Y, jxf, Ut, ldy, cf) : make_scalar<D>(0));
      if (threadIdx.y == 0 && in) Y[q + fix * ldy] = mul(tau, sub(Y[q + fix * ldy], part));
      __syncthreads();  // Y(:, fix) of this tile visible to every warp
    }
    if (!do_row) continue;
    const D part = across_warps(in ? split_products(q, S.jy, Y, S.ju, Ut, ldy, cr) : make_scalar<D>(0));
    if (threadIdx.y == 0) {
      D r = make_scalar<D>(0);
      if (in) {
        r = sub(conj(row[q * lda]), part);
        row[q * lda] = r;
        if (q == 0 && owns_head) sums[S.alpha()] = r;
      }
      rbuf[threadIdx.x] = in && q >= q0 ? r : make_scalar<D>(0);
    }
    __syncthreads();
    const D rq = rbuf[threadIdx.x];
    if (threadIdx.y == 0) add_squares(ss, rq);
#pragma unroll
    for (int k = 0; k < kMaxPerWarp; ++k) {
      const int64_t l = threadIdx.y + int64_t{kWarps} * k;
      if (l >= nl) break;
      if (in) acc[k] = mul_add(conj(l < S.jy ? Y[q + l * ldy] : Ut[q + (l - S.jy) * ldy]), rq, acc[k]);
    }
    __syncthreads();  // rbuf reused by the next tile
  }
  if (!do_row) return;
  // The head's owner: its column below the row, its Y and U entries; zeros elsewhere.
  for (int64_t i = int64_t{blockIdx.x} * kBlockThreads + flat; i < S.m1;
       i += int64_t{gridDim.x} * kBlockThreads)
    sums[S.a1() + i] = owns_head ? a1[i] : make_scalar<D>(0);
  if (blockIdx.x == 0) {
    for (int64_t l = flat; l < nl; l += kBlockThreads) {
      if (l < S.jy) sums[S.y1() + l] = owns_head ? conj(Y[l * ldy]) : make_scalar<D>(0);
      else sums[S.u1() + l - S.jy] = owns_head ? conj(Ut[(l - S.jy) * ldy]) : make_scalar<D>(0);
    }
    if (flat == 0 && !owns_head) sums[S.alpha()] = make_scalar<D>(0);
  }
  D* part = partials<D>(work);
  // The sums of the block: [Y^H r | Ut^H r | |r|^2 as three sums].
  const int64_t np = nl + LabrdSums::kSumSquares;
  warp_sums_out(acc, nl, [&](int64_t l, D v) { part[blockIdx.x * np + l] = v; });
  const SumSq<R> bss = block_sum(ss);
  if (flat == 0) {
    part[blockIdx.x * np + nl] = make_scalar<D>(bss.sml);
    part[blockIdx.x * np + nl + 1] = make_scalar<D>(bss.med);
    part[blockIdx.x * np + nl + 2] = make_scalar<D>(bss.big);
  }
  if (!last_block(counter(work, kRowCounter))) return;
  sum_block_partials(part, np, np, [&](int64_t l, D v) {
    if (l < S.jy) sums[S.q1() + l] = v;
    else if (l < nl) sums[S.q2() + l - S.jy] = v;
    else sums[S.ss() + l - nl] = make_scalar<D>(real_part(v));
  });
}

// ---- finish: G's scalars, X's column, the row as u ------------------------------------
// Blocks [0, xblocks): tiles of 32 rows of x (warps split the jy + ju products); the
// others: the row's entries, one per thread. Every block forms the scalars itself.
template <typename D>
__global__ void __launch_bounds__(kBlockThreads)
    finish_kernel(LabrdSums S, const D* sums, device_real_t<D>* beta_out, D* tau_out, D* coef,
                  int64_t jy0, const D* P, int64_t ldp, const D* X, int64_t ldx, D* x,
                  int64_t nq, bool owns_head, D* row, int64_t lda, D* ut_col,
                  unsigned xblocks) {
  using R = device_real_t<D>;
  __shared__ D cu[2 * kLabrdMaxPanel];  // [0, jy): Y^H u; [jy, jy + ju): U u
  __shared__ D scal[2];  // tau, 1 / (alpha - beta)
  __shared__ R beta_s;
  const int flat = flat_thread();
  if (flat == 0) {
    R beta;
    D tau, sc;
    const SumSq<R> ss{real_part(sums[S.ss()]), real_part(sums[S.ss() + 1]),
                      real_part(sums[S.ss() + 2])};
    reflector_scalars<D>(sums[S.alpha()], ss, beta, tau, sc);
    scal[0] = tau;
    scal[1] = sc;
    beta_s = beta;
  }
  __syncthreads();
  const D tau = scal[0], sc = scal[1];
  const int64_t nl = S.jy + S.ju;
  for (int64_t l = flat; l < nl; l += kBlockThreads)
    cu[l] = l < S.jy ? mul_add(sc, sums[S.q1() + l], sums[S.y1() + l])
                     : mul_add(sc, sums[S.q2() + l - S.jy], sums[S.u1() + l - S.jy]);
  if (blockIdx.x == 0) {
    if (flat == 0) {
      *beta_out = beta_s;
      *tau_out = tau;
      coef[jy0 + S.ju] = make_scalar<D>(1);
    }
    for (int64_t l = flat; l < nl; l += kBlockThreads) {
      if (l < S.jy) coef[l] = sums[S.y1() + l];
      else coef[jy0 + l - S.jy] = sums[S.u1() + l - S.jy];
    }
  }
  __syncthreads();
  if (blockIdx.x < xblocks) {
    const int64_t chunk = (nl + kWarps - 1) / kWarps, l0 = threadIdx.y * chunk;
    const int64_t l1 = l0 + chunk < nl ? l0 + chunk : nl;
    for (int64_t t = blockIdx.x; t * kLanes < S.m1; t += xblocks) {
      const int64_t r = t * kLanes + threadIdx.x;
      D part = make_scalar<D>(0);
      if (r < S.m1)
        for (int64_t l = l0; l < l1; ++l)
          part = mul_add(l < S.jy ? P[r + l * ldp] : X[r + (l - S.jy) * ldx], cu[l], part);
      part = across_warps(part);
      if (threadIdx.y == 0 && r < S.m1)
        x[r] = mul(tau, sub(mul_add(sc, sums[S.z() + r], sums[S.a1() + r]), part));
    }
    return;
  }
  const int64_t stride = int64_t{gridDim.x - xblocks} * kBlockThreads;
  for (int64_t q = int64_t{blockIdx.x - xblocks} * kBlockThreads + flat; q < nq; q += stride) {
    const D u = owns_head && q == 0 ? make_scalar<D>(1) : mul(sc, row[q * lda]);
    ut_col[q] = u;
    row[q * lda] = conj(u);
  }
}

template <typename D>
__global__ void store_kernel(int64_t m, const D* P, int64_t ldp, D* A, int64_t lda) {
  const int64_t l = blockIdx.y;
  for (int64_t r = l + 1 + int64_t{blockIdx.x} * blockDim.x + threadIdx.x; r < m;
       r += int64_t{gridDim.x} * blockDim.x)
    A[r + l * lda] = P[r + l * ldp];
}

template <typename D>
__global__ void put_kernel(int64_t n, const device_real_t<D>* src, D* dst, int64_t inc) {
  for (int64_t i = int64_t{blockIdx.x} * blockDim.x + threadIdx.x; i < n;
       i += int64_t{gridDim.x} * blockDim.x)
    dst[i * inc] = make_scalar<D>(src[i]);
}

const dim3 kBlock2d(kLanes, kWarps);

template <Scalar T>
void column(const Device& dev, cudaStream_t stream, int64_t mr, int64_t j, int64_t jx, T* P,
            int64_t ldp, const T* X, int64_t ldx, const T* ycoef, const T* ucoef,
            real_type_t<T>* beta_out, T* tau_out, T* s, void* work) {
  using D = device_t<T>;
  dev.make_current();
  const std::size_t smem = static_cast<std::size_t>(j + jx > 0 ? j + jx : 1) * sizeof(D);
  column_update_kernel<D><<<grid_dim(mr, kLanes, kMaxGrid), kBlock2d, smem, stream>>>(
      mr, j, jx, device_ptr(P), ldp, device_ptr(X), ldx, device_ptr(ycoef), device_ptr(ucoef),
      beta_out, device_ptr(tau_out), work);
  MGBLAS_CHECK_LAUNCH(stream);
  column_dots_kernel<D><<<grid_dim(mr, kDotRows, kMaxGrid), kBlock2d, 0, stream>>>(
      mr, j, jx, device_ptr(P), ldp, device_ptr(X), ldx, device_ptr(s), work);
  MGBLAS_CHECK_LAUNCH(stream);
}

template <Scalar T>
void row(const Device& dev, cudaStream_t stream, int64_t nq, T* Y, T* Ut, int64_t ldy,
         int64_t fix, int64_t jxf, const T* s, const T* tau_y, bool do_row, LabrdSums S,
         const T* vrow, int64_t ldv, const T* xrow, int64_t ldxr, T* rw, int64_t lda,
         bool owns_head, const T* a1, T* sums, void* work) {
  using D = device_t<T>;
  if (!do_row && (fix < 0 || nq == 0)) return;
  dev.make_current();
  row_kernel<D><<<grid_dim(nq, kLanes, kMaxGrid), kBlock2d, 0, stream>>>(
      nq, device_ptr(Y), device_ptr(Ut), ldy, fix, jxf, device_ptr(s), device_ptr(tau_y), do_row,
      S, device_ptr(vrow), ldv, device_ptr(xrow), ldxr, device_ptr(rw), lda, owns_head,
      device_ptr(a1), device_ptr(sums), work);
  MGBLAS_CHECK_LAUNCH(stream);
}

template <Scalar T>
void finish(const Device& dev, cudaStream_t stream, LabrdSums S, const T* sums,
            real_type_t<T>* beta_out, T* tau_out, T* coef, int64_t jy0, const T* P, int64_t ldp,
            T* X, int64_t ldx, T* x, int64_t nq, bool owns_head, T* rw, int64_t lda, T* ut_col) {
  using D = device_t<T>;
  dev.make_current();
  const unsigned xblocks = grid_dim(S.m1, kLanes, kMaxGrid);
  const unsigned qblocks = grid_dim(nq, kBlockThreads, kMaxGrid);
  finish_kernel<D><<<xblocks + qblocks, kBlock2d, 0, stream>>>(
      S, device_ptr(sums), beta_out, device_ptr(tau_out), device_ptr(coef), jy0, device_ptr(P),
      ldp, device_ptr(X), ldx, device_ptr(x), nq, owns_head, device_ptr(rw), lda,
      device_ptr(ut_col), xblocks);
  MGBLAS_CHECK_LAUNCH(stream);
}

}  // namespace

#define MGBLAS_CUDA_LABRD_(T)                                                                  \
  MGBLAS_DECLARE_LABRD_COLUMN_KERNEL(T) {                                                      \
    column<T>(dev, stream, mr, j, jx, P, ldp, X, ldx, ycoef, ucoef, beta_out, tau_out, s, work); \
  }                                                                                            \
  MGBLAS_DECLARE_LABRD_ROW_KERNEL(T) {                                                         \
    ::mgblas::kernels::cuda::row<T>(dev, stream, nq, Y, Ut, ldy, fix, jxf, s, tau_y, do_row, S, \
                                    vrow, ldv, xrow, ldxr, row, lda, owns_head, a1, sums, work); \
  }                                                                                            \
  MGBLAS_DECLARE_LABRD_FINISH_KERNEL(T) {                                                      \
    finish<T>(dev, stream, S, sums, beta_out, tau_out, coef, jy0, P, ldp, X, ldx, x, nq,       \
              owns_head, row, lda, ut_col);                                                    \
  }                                                                                            \
  MGBLAS_DECLARE_LABRD_STORE_KERNEL(T) {                                                       \
    dev.make_current();                                                                        \
    const dim3 grid(grid_dim(m, 256, 1024), static_cast<unsigned>(b));                         \
    store_kernel<<<grid, 256, 0, stream>>>(m, device_ptr(P), ldp, device_ptr(A), lda);         \
    MGBLAS_CHECK_LAUNCH(stream);                                                               \
  }                                                                                            \
  MGBLAS_DECLARE_LABRD_PUT_KERNEL(T) {                                                         \
    dev.make_current();                                                                        \
    put_kernel<<<grid_dim(n, 256, 1024), 256, 0, stream>>>(n, src, device_ptr(dst), inc);      \
    MGBLAS_CHECK_LAUNCH(stream);                                                               \
  }
MGBLAS_FOR_EACH_SCALAR(MGBLAS_CUDA_LABRD_)
#undef MGBLAS_CUDA_LABRD_

}  // namespace mgblas::kernels::cuda
