// SPDX-License-Identifier: BSD-3-Clause
// The QR factorisation of a tall panel of at most 64 columns in one cooperative kernel:
// the CUDA engine's geqrf (kernels/sy2sb_kernels.hpp) where the panel fits, which is
// every panel of the two-stage reductions' stage one (b <= 64 columns).
//
// Why: stage one factors its n / b panels one after another, each on the critical path
// (n = 16384, b = 32: 512 panels). cuSOLVER's geqrf is a chain of launches per column.
// Here the grid keeps the panel in shared memory for the whole factorisation, each block
// a slab of consecutive rows, and a column costs one grid-wide barrier. On one H200 (d,
// bench/results/h200-panel-qr.md) stage one's profiled panel phase at n = 16384 took
// 0.266 s with this kernel against 0.308 s with cuSOLVER's; the barrier and the L2 round
// trips of the partial sums, not the arithmetic, bound a column. The steps (0 once, 1-3
// for each column j):
//   0. the panel is scaled by the power of two 2^-e that brings its largest entry
//      into [1, 2), so that the products below neither underflow (a panel of tiny
//      entries lost digits in x^H a_k) nor overflow; R is scaled back at the store, v and
//      tau do not depend on the scale;
//   1. every block sums over its rows ||x||^2 and x^H a_k (x = column j below row j, a_k
//      the columns after it, all current) and writes the partial sums; block 0, which
//      holds rows 0 .. min(m, n) - 1, also writes row j;
//   2. after the barrier every block adds the partials in the same fixed order, so all
//      form the same reflector (?larfg's scalars, kernels/detail/safe_reflector.hpp) and
//      the same v^H a_k = a_jk + conj(1 / (alpha - beta)) x^H a_k, with no second barrier;
//   3. every block applies H^H = I - conj(tau) v v^H to its rows of the later columns.
// Column j's entries below the diagonal are scaled into v only when the tile is stored
// (no later column reads them). The partials are double-buffered by the parity of j: a
// block that runs ahead into column j + 1 writes the other buffer, and cannot reach
// column j + 2 before every block has passed column j + 1's barrier.
// The results are those of LAPACK's ?geqr2 (the same reflectors and signs) up to the
// order of the sums.
//
// With Tm (geqrf_wy) the kernel also forms the compact-WY factor, which larft would form
// after it with a gemm V^H V and a one-block recurrence, both on the panel chain's
// critical path. V(:, l)^H v_j for l < j (LAPACK's ?larft, Forward) is a sum over the
// rows below row j as column j's own sums are: in step 1 the threads of the columns
// before j, idle otherwise, add conj(x_j) x_l with the same rows, partials and barrier,
// and block 0 keeps y_l = conj(v_lj) + conj(sc_l) sc_j (x_l^H x_j) in Tm's upper
// triangle. After the last column block 0 runs the recurrence T(t, c) = -tau_c
// sum_{l=t}^{c-1} T(t, l) y(l, c) in shared memory, one thread per row of T (a row needs
// only its own earlier entries), and writes V explicit beside A.
#pragma once

#include <cooperative_groups.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>

#include <cub/block/block_reduce.cuh>

#include "core/detail/cuda_check.hpp"
#include "kernels/cuda/common/block_sums.cuh"
#include "kernels/cuda/common/device_scalar.cuh"
#include "kernels/cuda/common/stream_scratch.hpp"
#include "kernels/detail/safe_reflector.hpp"

namespace mgblas::kernels::cuda::sy2sb {

inline constexpr int kQrThreads = 256;
inline constexpr int kQrMaxCols = 64;
inline constexpr int kChunk = 8;        // the partials a thread loads at once
// The rows a block takes at least, where m allows. One H200, d, band 32 (2026-11-30,
// bench/results/h200-panel-qr.md): hetrd_2stage_mgpu took 0.2054 / 0.5828 s at n = 8192 /
// 16384 with 64, 0.1974 / 0.5584 s with 128 (cuSOLVER's geqrf: 0.2091 / 0.5984 s).
inline constexpr int64_t kQrSlab = 128;

// Thread t plays column k = t % kCols of the slab's rows i with i mod kGroups = t / kCols
// (g); the slab lives in shared memory row by row (pitch kCols + 1, odd, so that
// the loads and stores of a column, lanes along its rows, are free of bank conflicts).
template <typename D, int kCols>
__global__ void __launch_bounds__(kQrThreads)
    panel_qr_kernel(int64_t m, int n, D* A, int64_t lda, D* tau, D* V, int64_t ldv, D* Tm,
                    int64_t ldt, int64_t slab, D* dots,
                    common::SumSq<common::device_real_t<D>>* squares, D* top,
                    common::device_real_t<D>* peaks) {
  using R = common::device_real_t<D>;
  using Sq = common::SumSq<R>;
  constexpr int kGroups = kQrThreads / kCols, kPitch = kCols + 1;
  extern __shared__ __align__(16) unsigned char panel_qr_smem[];
  D* S = reinterpret_cast<D*>(panel_qr_smem);
  __shared__ D part[kGroups][kCols];
  __shared__ Sq part_sq[kGroups];
  __shared__ D mult[kCols];   // conj(tau) v^H a_k of the column being applied
  __shared__ D scale[kCols];  // 1 / (alpha - beta) of each column's reflector
  __shared__ D taus[kCols];   // block 0: each column's tau (Tm's diagonal)
  using PeakReduce = cub::BlockReduce<R, kQrThreads>;
  __shared__ typename PeakReduce::TempStorage peak_tmp;
  __shared__ int shift;  // e: the panel's largest entry in [2^e, 2^(e+1))
  const auto larger = [](R a, R b) { return a < b ? b : a; };
  const D zero = common::make_scalar<D>(0);
  const bool wy = Tm != nullptr;
  const int t = threadIdx.x, k = t % kCols, g = t / kCols;
  const int64_t r0 = blockIdx.x * slab;
  const int rows = static_cast<int>(std::min<int64_t>(slab, m - r0));
  R peak = 0;
  for (int64_t q = t; q < int64_t{rows} * n; q += kQrThreads) {
    const int i = static_cast<int>(q % rows), c = static_cast<int>(q / rows);
    const D a = A[r0 + i + c * lda];
    S[i * kPitch + c] = a;
    peak = larger(peak, larger(detail::refl_abs(common::real_part(a)),
                               detail::refl_abs(common::imag_part(a))));
  }
  // 0. The scaling (a max needs no fixed order).
  peak = PeakReduce(peak_tmp).Reduce(peak, larger);
  if (t == 0) peaks[blockIdx.x] = peak;
  cooperative_groups::grid_group grid = cooperative_groups::this_grid();
  grid.sync();
  peak = 0;
  for (int64_t b = t; b < gridDim.x; b += kQrThreads) peak = larger(peak, __ldcg(peaks + b));
  peak = PeakReduce(peak_tmp).Reduce(peak, larger);
  if (t == 0) shift = peak > R(0) && detail::refl_finite(peak) ? detail::refl_ilogb(peak) : 0;
  __syncthreads();
  const int e = shift;
  if (e != 0)
    for (int64_t q = t; q < int64_t{rows} * n; q += kQrThreads) {
      D& a = S[(q % rows) * kPitch + q / rows];
      a = common::make_scalar<D>(detail::refl_ldexp(common::real_part(a), -e),
                                 detail::refl_ldexp(common::imag_part(a), -e));
    }
  __syncthreads();
  const bool first = blockIdx.x == 0;
  const int kq = static_cast<int>(std::min<int64_t>(m, n));
  for (int j = 0; j < kq; ++j) {
    const int64_t buf = j & 1;
    const int i0 = first ? j + 1 : 0;  // the block's first row below row j
    // The columns whose sums with x this column needs: the later ones, and with Tm the
    // earlier ones (x^H x_l, for V^H v_j).
    const auto summed = [&](int c) { return c < n && (c > j || (wy && c < j)); };
    // 1. This block's partial sums.
    D dot = zero;
    Sq sq = Sq::zero();
    if (k == j) {
#pragma unroll 4
      for (int i = i0 + g; i < rows; i += kGroups) common::add_squares(sq, S[i * kPitch + j]);
    } else if (summed(k)) {
#pragma unroll 4
      for (int i = i0 + g; i < rows; i += kGroups)
        dot = common::mul_add(common::conj(S[i * kPitch + j]), S[i * kPitch + k], dot);
    }
    part[g][k] = dot;
    if (k == j) part_sq[g] = sq;
    __syncthreads();
    if (t < kCols) {
      D total = zero;
      for (int h = 0; h < kGroups; ++h) total = common::add(total, part[h][t]);
      dots[(buf * gridDim.x + blockIdx.x) * kCols + t] = total;
      if (t == j) {
        Sq s = Sq::zero();
        for (int h = 0; h < kGroups; ++h) s = s + part_sq[h];
        squares[buf * gridDim.x + blockIdx.x] = s;
      }
      if (first && t < n) top[buf * kCols + t] = S[j * kPitch + t];
    }
    grid.sync();
    // 2. The grid's sums and the reflector, the same bits in every block. The loads go
    // out kChunk at a time before their adds (one L2 round trip per chunk, not per block),
    // row j's with them.
    const D alpha = __ldcg(top + buf * kCols + j);
    const D a_jk = t < kCols && summed(t) ? __ldcg(top + buf * kCols + t) : zero;
    dot = zero;
    sq = Sq::zero();
    const D* dots_k = dots + buf * gridDim.x * kCols + k;
    const Sq* squares_b = squares + buf * gridDim.x;
    for (int64_t b0 = g; b0 < gridDim.x; b0 += int64_t{kGroups} * kChunk) {
      D d[kChunk];
      Sq q[kChunk];
#pragma unroll
      for (int u = 0; u < kChunk; ++u) {
        const int64_t b = b0 + int64_t{u} * kGroups;
        d[u] = summed(k) && b < gridDim.x ? __ldcg(dots_k + b * kCols) : zero;
        q[u] = k == j && b < gridDim.x ? common::load_cg(squares_b + b) : Sq::zero();
      }
#pragma unroll
      for (int u = 0; u < kChunk; ++u) dot = common::add(dot, d[u]), sq = sq + q[u];
    }
    part[g][k] = dot;
    if (k == j) part_sq[g] = sq;
    __syncthreads();
    if (t < kCols) {  // each of these threads forms the scalars (the same bits in all)
      Sq s = Sq::zero();
      for (int h = 0; h < kGroups; ++h) s = s + part_sq[h];
      R beta, tau_re, tau_im, sc_re, sc_im;
      detail::reflector_scalars(common::real_part(alpha), common::imag_part(alpha), s.norm(), beta,
                                tau_re, tau_im, sc_re, sc_im);
      const D sc = common::make_scalar<D>(sc_re, sc_im);
      if (t > j && t < n) {
        D total = zero;
        for (int h = 0; h < kGroups; ++h) total = common::add(total, part[h][t]);
        const D w = common::mul_add(common::conj(sc), total, a_jk);
        mult[t] = common::mul(common::make_scalar<D>(tau_re, -tau_im), w);
      }
      if (wy && first && t < j) {  // y_t = V(:, t)^H v_j, row j of v_t and the rows below
        D total = zero;
        for (int h = 0; h < kGroups; ++h) total = common::add(total, part[h][t]);
        const D st = scale[t];
        Tm[t + j * ldt] = common::mul_add(common::mul(common::conj(st), sc), common::conj(total),
                                          common::conj(common::mul(a_jk, st)));
      }
      if (t == j) {
        scale[j] = sc;
        if (first) {
          S[j * kPitch + j] = common::make_scalar<D>(beta);
          tau[j] = taus[j] = common::make_scalar<D>(tau_re, tau_im);
        }
      }
    }
    __syncthreads();
    // 3. H^H on the block's rows of the later columns: a_ik -= (x_i sc) mult_k; row j
    // (v_j = 1) in block 0.
    if (k > j && k < n) {
      const D mk = mult[k], sc = scale[j];
#pragma unroll 4
      for (int i = i0 + g; i < rows; i += kGroups) {
        const D v = common::mul(S[i * kPitch + j], sc);
        S[i * kPitch + k] = common::mul_add(common::neg(v), mk, S[i * kPitch + k]);
      }
      if (first && g == 0) S[j * kPitch + k] = common::sub(S[j * kPitch + k], mk);
    }
    __syncthreads();
  }
  for (int64_t q = t; q < int64_t{rows} * n; q += kQrThreads) {
    const int i = static_cast<int>(q % rows), c = static_cast<int>(q / rows);
    const int64_t r = r0 + i;
    D a = S[i * kPitch + c];
    if (c < kq && r > c) {
      a = common::mul(a, scale[c]);  // v
    } else if (e != 0) {             // R
      a = common::make_scalar<D>(detail::refl_ldexp(common::real_part(a), e),
                                 detail::refl_ldexp(common::imag_part(a), e));
    }
    A[r + c * lda] = a;
    if (wy && c < kq) V[r + c * ldv] = r > c ? a : common::make_scalar<D>(r == c ? 1 : 0);
  }
  if (!wy || !first) return;
  // Tm's recurrence in block 0's slab, now free: S's first kq rows hold y(l, c) above
  // the diagonal and T(t, c) (t < c) transposed below it, at S[c][t].
  __syncthreads();
  for (int q = t; q < kq * kq; q += kQrThreads) {
    const int l = q % kq, c = q / kq;
    if (l < c) S[l * kPitch + c] = __ldcg(Tm + l + c * ldt);
  }
  __syncthreads();
  if (t < kq) {
    const D tau_t = taus[t];
    for (int c = t + 1; c < kq; ++c) {
      D acc = common::mul(tau_t, S[t * kPitch + c]);
      for (int l = t + 1; l < c; ++l)
        acc = common::mul_add(S[l * kPitch + t], S[l * kPitch + c], acc);
      S[c * kPitch + t] = common::mul(common::neg(taus[c]), acc);
    }
  }
  __syncthreads();
  for (int q = t; q < kq * kq; q += kQrThreads) {
    const int r = q % kq, c = q / kq;
    Tm[r + c * ldt] = r < c ? S[c * kPitch + r] : r == c ? taus[c] : zero;
  }
}

// The launch of panel_qr_kernel on `stream` (the current device) when the panel fits:
// n <= 64 columns, a slab of rows per co-resident block in shared memory, cooperative
// launch supported. Returns false, having done nothing, otherwise. Slabs take at least
// min_slab rows. With Tm (not null) also V and Tm as geqrf_wy forms them.
template <typename D>
bool panel_qr(cudaStream_t stream, int64_t m, int64_t n, D* A, int64_t lda, D* tau,
              int64_t min_slab = kQrSlab, D* V = nullptr, int64_t ldv = 0, D* Tm = nullptr,
              int64_t ldt = 0) {
  using R = common::device_real_t<D>;
  using Sq = common::SumSq<R>;
  if (n > kQrMaxCols || m <= 0 || n <= 0) return false;
  const auto run = [&](auto kernel, int cols) {
    int dev = 0, coop = 0, sms = 0, optin = 0;
    MGBLAS_CHECK_CUDA(cudaGetDevice(&dev));
    MGBLAS_CHECK_CUDA(cudaDeviceGetAttribute(&coop, cudaDevAttrCooperativeLaunch, dev));
    MGBLAS_CHECK_CUDA(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev));
    MGBLAS_CHECK_CUDA(cudaDeviceGetAttribute(&optin, cudaDevAttrMaxSharedMemoryPerBlockOptin, dev));
    if (!coop) return false;
    cudaFuncAttributes attr{};
    MGBLAS_CHECK_CUDA(cudaFuncGetAttributes(&attr, kernel));
    // One block per SM at most, slabs of kQrSlab rows or more (fewer blocks: fewer
    // partials to add); block 0's slab holds the min(m, n) rows of R. (Up to 2 and 3
    // blocks per SM made a 65536 x 4096 QR's panels slower, bench/results/h200-tall-svd.md.)
    const int64_t kq = std::min(m, n);
    const int64_t blocks0 = std::min<int64_t>(sms, (m + min_slab - 1) / min_slab);
    int64_t slab = std::max(kq, (m + blocks0 - 1) / blocks0);
    const int64_t blocks = (m + slab - 1) / slab;
    const std::size_t smem = static_cast<std::size_t>(slab * (cols + 1)) * sizeof(D);
    if (smem + attr.sharedSizeBytes > static_cast<std::size_t>(optin)) return false;
    MGBLAS_CHECK_CUDA(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                           static_cast<int>(smem)));
    int per_sm = 0;
    MGBLAS_CHECK_CUDA(
        cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kernel, kQrThreads, smem));
    if (per_sm < 1 || blocks > int64_t{sms} * per_sm) return false;
    // Workspace: the partials of x^H a_k, of ||x||^2 and row j, two buffers each, and the
    // blocks' largest entries (each part 16-byte aligned).
    const auto round16 = [](std::size_t b) { return (b + 15) / 16 * 16; };
    const std::size_t dot_bytes = round16(static_cast<std::size_t>(2 * blocks * cols) * sizeof(D));
    const std::size_t sq_bytes = round16(static_cast<std::size_t>(2 * blocks) * sizeof(Sq));
    const std::size_t top_bytes = round16(static_cast<std::size_t>(2 * cols) * sizeof(D));
    const std::size_t peak_bytes = static_cast<std::size_t>(blocks) * sizeof(R);
    const common::StreamScratch work(dot_bytes + sq_bytes + top_bytes + peak_bytes, stream);
    D* dots = work.as<D>();
    Sq* squares = reinterpret_cast<Sq*>(work.bytes() + dot_bytes);
    D* top = reinterpret_cast<D*>(work.bytes() + dot_bytes + sq_bytes);
    R* peaks = reinterpret_cast<R*>(work.bytes() + dot_bytes + sq_bytes + top_bytes);
    int ni = static_cast<int>(n);
    void* params[] = {&m,  &ni,  &A,    &lda,  &tau,     &V,   &ldv,
                      &Tm, &ldt, &slab, &dots, &squares, &top, &peaks};
    MGBLAS_CHECK_CUDA(cudaLaunchCooperativeKernel(reinterpret_cast<const void*>(kernel),
                                                  dim3(static_cast<unsigned>(blocks)),
                                                  dim3(kQrThreads), params, smem, stream));
    MGBLAS_CHECK_LAUNCH(stream);
    return true;
  };
  return n <= 32 ? run(panel_qr_kernel<D, 32>, 32) : run(panel_qr_kernel<D, 64>, 64);
}

}  // namespace mgblas::kernels::cuda::sy2sb
