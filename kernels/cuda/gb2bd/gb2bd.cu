// SPDX-License-Identifier: BSD-3-Clause
// CUDA engine of the band-to-bidiagonal bulge chase (kernels/gb2bd_kernels.hpp): one
// persistent kernel whose thread blocks take sweeps in ascending order from a ticket
// counter and run each sweep's tasks in order. Task (s, k) waits, through a per-sweep
// progress counter in global memory, until sweep s - 1 has finished task k + 1, and
// before its left update until task k + 2 has published the one entry the two share
// (see the header). The work band, n 3b elements, is read and written through L2 only
// (ld.cg/st.cg): L1 is not coherent between multiprocessors. The pipeline's critical path
// is about 2n tasks; waiting for the whole of task k + 2 made it 3n (0.146 s at
// n = 8192, b = 32, double on an H200, bench/results/h200-chase-latency.md).
// Sweeps taken from a ticket rather than by block index: a block only ever waits on a
// sweep that a running block holds, so the chase cannot deadlock on blocks that are not
// resident.
#include <cuda_runtime.h>

#include <cub/block/block_reduce.cuh>

#include <algorithm>
#include <cstdint>
#include <type_traits>

#include "core/detail/cuda_check.hpp"
#include "core/error.hpp"
#include "core/memory.hpp"
#include "kernels/cuda/common/block_sums.cuh"
#include "kernels/cuda/common/chase_common.cuh"
#include "kernels/cuda/common/device_scalar.cuh"
#include "kernels/cuda/common/l2_access.cuh"
#include "kernels/detail/safe_reflector.hpp"
#include "kernels/gb2bd_kernels.hpp"

namespace mgblas::kernels::cuda {
namespace gb2bd {

using common::conj;
using common::device_real_t;
using common::device_t;
using common::imag_part;
using common::make_scalar;
using common::mul;
using common::mul_add;
using common::neg;
using common::real_part;

constexpr int kThreads = 256;

using common::load_cg;  // the band is read and written through L2 only
using common::store_cg;
constexpr int kChunk = common::kChaseChunk;

// The sum of v over each group of kTpr consecutive lanes, in every lane of the group (the
// shuffle's width makes lane 0 of each group the source). All 32 lanes must call it.
template <int kTpr, typename D>
__device__ __forceinline__ D group_all_sum(D v) {
  if constexpr (kTpr == 1) {
    return v;
  } else {
    const D s = common::lane_group_sum<kTpr>(v);
    if constexpr (std::is_same_v<D, device_real_t<D>>)
      return __shfl_sync(0xffffffffu, s, 0, kTpr);
    else
      return make_scalar<D>(__shfl_sync(0xffffffffu, real_part(s), 0, kTpr),
                            __shfl_sync(0xffffffffu, imag_part(s), 0, kTpr));
  }
}

// 2^e a, exactly (a power of two), for real and complex a.
template <typename D>
__device__ __forceinline__ D scaled(D a, int e) {
  if constexpr (std::is_same_v<D, device_real_t<D>>)
    return detail::refl_ldexp(a, e);
  else
    return make_scalar<D>(detail::refl_ldexp(real_part(a), e), detail::refl_ldexp(imag_part(a), e));
}

// One sweep-chasing block; a task's tile in shared memory (dynamic):
//   U = A(r .. c + m - 1, c .. c + m - 1): the right update's rows (up to 2b) over C,
//       leading dimension chase_tile_ld(2b) (kernels/cuda/common/chase_common.cuh);
//   E = A(c .. c + m - 1, c + m .. c + m + b - 1): the rest of the left update's columns,
//       leading dimension chase_tile_ld(b);
//   vp, vq: the task's reflectors G and H (b each).
// Threads: kTpr = kThreads / kRows consecutive lanes share one row (right update) or one
// column (left update) of the tile, their partial sums combined by shuffles; kRows >= 2b
// (the launcher picks it so) covers every row and column of a task in one pass. Loads and
// stores: element (i, j) of a tile by thread i + kRows (j mod kTpr), kTpr columns a pass,
// rows coalesced in the band.
//
// The progress counter of sweep s counts half-tasks: 2k + 1 once task k has written its
// head, the entry (r, c) = U(0, 0), and 2k + 2 once it has finished. Task (s, k):
//   1. thread 0 waits for progress[s - 1] >= min(2k + 4, 2 T_{s-1}) (task k + 1 of sweep
//      s - 1 finished); everyone loads U and E but for E's last entry (c + b - 1,
//      c + 2b - 1), the head of task (s - 1, k + 2) where that task exists;
//   2. ||U(0, 1:)||^2 by a block reduction, G's scalars by thread 0, vp; U(0, :) =
//      (beta, 0, ...); thread 0 writes the head and sets progress[s] = 2k + 1;
//      U(1:, :) := U(1:, :) G, row by row;
//   3. ||U(bt + 1:, 0)||^2 likewise, H's scalars, vq; thread 0 waits for progress[s - 1]
//      >= 2k + 5 and loads E's last entry; [U(bt:, 1:) E] := H^H [...], column by column;
//   4. U (but its head) and E written back, the reflectors out; fence, then progress[s] =
//      2k + 2.
// A task with m = 1 is the identity (past task 0; in real arithmetic task 0 too): it
// neither reads nor writes the band, only its reflectors (v = e_1, tau = 0).
template <typename D, int kRows>
__global__ void __launch_bounds__(kThreads)
    chase_sweeps(int64_t n, int64_t b, D* W, D* VQ, D* tauQ, D* VP, D* tauP, int* progress,
                 int* ticket) {
  static_assert(kRows >= 32 && kRows <= kThreads && kThreads % kRows == 0);
  constexpr int kTpr = kThreads / kRows;
  using R = device_real_t<D>;
  using SumSq = detail::SumSquares<R>;
  using ReduceSq = cub::BlockReduce<SumSq, kThreads>;
  __shared__ typename ReduceSq::TempStorage reduce;
  __shared__ D s_tau, s_scale;
  __shared__ R s_beta;
  __shared__ int s_exp;  // v = (2^-s_exp x) s_scale (detail::reflector_scalars_split)
  __shared__ int64_t s_sweep;
  extern __shared__ __align__(16) unsigned char smem[];
  // Tile indices are 32-bit: 64-bit arithmetic per element costs more than the task.
  const int bb = static_cast<int>(b);
  const int ldu = common::chase_tile_ld<D, kTpr>(2 * bb), lde = common::chase_tile_ld<D, kTpr>(bb);
  D* U = reinterpret_cast<D*>(smem);
  D* E = U + ldu * bb;
  D* vp = E + lde * bb;
  D* vq = vp + bb;
  const int tid = threadIdx.x;
  const int ti = tid % kRows, tj = tid / kRows;  // tile walks
  const int row0 = tid / kTpr, lane = tid % kTpr;  // row (column) products
  const int64_t ku = band2bd_work_ku(b), ldw = band2bd_work_ld(b);
  const int64_t tau_stride = band2tri_tau2_stride(n, b);
  constexpr bool kComplex = !std::is_same_v<D, R>;

  for (;;) {
    if (tid == 0) s_sweep = atomicAdd(ticket, 1);
    __syncthreads();
    const int64_t s = s_sweep;
    if (s >= n - 1) return;
    const int64_t tasks = band2bd_tasks(n, b, s);
    const int64_t prev_tasks = s > 0 ? band2bd_tasks(n, b, s - 1) : 0;
    // b = 1: the layout's second slot of the sweep (no task) is the identity.
    if (VQ != nullptr && tid == 0 && band2tri_tasks(n, b, s) > tasks) {
      VQ[band2tri_v2_offset(n, b, s, 1)] = make_scalar<D>(1);
      VP[band2tri_v2_offset(n, b, s, 1)] = make_scalar<D>(1);
    }
    for (int64_t k = 0; k < tasks; ++k) {
      const int64_t c = s + 1 + k * b, r = k == 0 ? s : c - b;
      const int m = static_cast<int>(b < n - c ? b : n - c);
      const int bt = static_cast<int>(c - r), rows = bt + m;
      const int me = static_cast<int>((c + m + b < n ? c + m + b : n) - c);  // columns c ..
      const bool generate = m > 1 || (k == 0 && kComplex);
      // Tile (i, j) at W[(ku + r + i - c - j) + (c + j) ldw]: Wu for U, We for E (none
      // where the left update has no columns past C).
      D* const Wu = W + c * ldw + (ku + r - c);
      D* const We = me > m ? W + (c + m) * ldw + (ku - m) : nullptr;

      // 1. Wait for sweep s - 1, then load U and E, kChunk columns of each in flight per
      //    thread; E's last entry waits for step 3 where task (s - 1, k + 2) exists (then
      //    m = b and E has b columns: the entry is E(b - 1, b - 1)).
      const bool shared = s > 0 && k + 2 < prev_tasks;
      common::chase_wait(progress + (s > 0 ? s - 1 : 0),
                         static_cast<int>(2 * k + 4 < 2 * prev_tasks ? 2 * k + 4 : 2 * prev_tasks),
                         s > 0);
      if (generate && ti < rows) {
        const int ue = ti < m ? me - m : 0;  // E's columns in this thread's row
        const int skip = shared && ti == bb - 1 ? bb - 1 : -1;  // E's column left for step 3
        for (int j0 = tj; j0 < m || j0 < ue; j0 += kChunk * kTpr) {
          D ru[kChunk], re[kChunk];
#pragma unroll
          for (int t = 0; t < kChunk; ++t) {
            const int j = j0 + t * kTpr;
            if (j < m) ru[t] = load_cg(Wu + (ti - j) + j * ldw);
            if (j < ue && j != skip) re[t] = load_cg(We + (ti - j) + j * ldw);
          }
#pragma unroll
          for (int t = 0; t < kChunk; ++t) {
            const int j = j0 + t * kTpr;
            if (j < m) U[ti + j * ldu] = ru[t];
            if (j < ue && j != skip) E[ti + j * lde] = re[t];
          }
        }
      }
      __syncthreads();

      // 2. G from row 0 of U (conjugated), then the rows below times G.
      D tau_p = make_scalar<D>(0);
      if (generate) {
        SumSq part = SumSq::zero();
        if (tid >= 1 && tid < m) part.add(real_part(U[tid * ldu]), imag_part(U[tid * ldu]));
        const SumSq total = ReduceSq(reduce).Sum(part);
        if (tid == 0) {
          R beta, tr, tm, sr, si;
          int ex = 0;
          detail::reflector_scalars_split<R>(real_part(U[0]), -imag_part(U[0]), total.norm(), beta,
                                             tr, tm, sr, si, ex);
          s_tau = make_scalar<D>(tr, tm);
          s_scale = make_scalar<D>(sr, si);
          s_beta = beta;
          s_exp = ex;
        }
        __syncthreads();
        tau_p = s_tau;
        for (int j = tid; j < m; j += kThreads) {
          vp[j] = j == 0 ? make_scalar<D>(1) : mul(scaled(conj(U[j * ldu]), -s_exp), s_scale);
          if (!common::is_zero(tau_p)) U[j * ldu] = make_scalar<D>(j == 0 ? s_beta : R(0));
        }
        // The head is final: out, and published to sweep s + 1's task k - 2 (thread 0
        // wrote U(0, 0) in the loop above).
        if (tid == 0) {
          store_cg(Wu, U[0]);
          common::chase_release(progress + s, static_cast<int>(2 * k + 1));
        }
        __syncthreads();
        if (!common::is_zero(tau_p)) {
          const int i = row0;
          const bool row_ok = i >= 1 && i < rows;
          D u = make_scalar<D>(0);
          // Chunks of kChunk entries in registers (the products' shared loads issued
          // together); written out rather than through chase_walk_sum / chase_walk_update,
          // which measured 11% slower here (h200-chase-latency.md).
          if (row_ok)
            for (int j0 = lane; j0 < m; j0 += kChunk * kTpr) {
#pragma unroll
              for (int t = 0; t < kChunk; ++t) {
                const int j = j0 + t * kTpr;
                if (j < m) u = mul_add(U[i + j * ldu], vp[j], u);
              }
            }
          u = mul(group_all_sum<kTpr>(u), tau_p);
          if (row_ok)
            for (int j0 = lane; j0 < m; j0 += kChunk * kTpr) {
              D ru[kChunk], rv[kChunk];
#pragma unroll
              for (int t = 0; t < kChunk; ++t) {
                const int j = j0 + t * kTpr;
                if (j < m) {
                  ru[t] = U[i + j * ldu];
                  rv[t] = vp[j];
                }
              }
#pragma unroll
              for (int t = 0; t < kChunk; ++t) {
                const int j = j0 + t * kTpr;
                if (j < m) U[i + j * ldu] = mul_add(neg(u), conj(rv[t]), ru[t]);
              }
            }
        }
        __syncthreads();
      } else if (tid == 0) {
        vp[0] = make_scalar<D>(1);
        common::chase_release(progress + s, static_cast<int>(2 * k + 1));  // nothing written
      }

      // 3. H from column 0 of U's rows bt .., then H^H times the other columns.
      D tau_q = make_scalar<D>(0);
      D* const Ub = U + bt;  // rows c .. c + m - 1
      if (generate) {
        SumSq part = SumSq::zero();
        if (tid >= 1 && tid < m) part.add(real_part(Ub[tid]), imag_part(Ub[tid]));
        const SumSq total = ReduceSq(reduce).Sum(part);
        if (tid == 0) {
          R beta, tr, tm, sr, si;
          int ex = 0;
          detail::reflector_scalars_split<R>(real_part(Ub[0]), imag_part(Ub[0]), total.norm(), beta,
                                             tr, tm, sr, si, ex);
          s_tau = make_scalar<D>(tr, tm);
          s_scale = make_scalar<D>(sr, si);
          s_beta = beta;
          s_exp = ex;
          if (shared) {  // task (s - 1, k + 2)'s head, the one entry left from step 1
            common::chase_acquire(progress + (s - 1), static_cast<int>(2 * k + 5));
            E[(bb - 1) + (bb - 1) * lde] = load_cg(We + (bb - 1) * ldw);
          }
        }
        __syncthreads();
        tau_q = s_tau;
        for (int i = tid; i < m; i += kThreads) {
          vq[i] = i == 0 ? make_scalar<D>(1) : mul(scaled(Ub[i], -s_exp), s_scale);
          if (!common::is_zero(tau_q)) Ub[i] = make_scalar<D>(i == 0 ? s_beta : R(0));
        }
        __syncthreads();
        if (!common::is_zero(tau_q)) {
          const int j = row0;
          const bool col_ok = j >= 1 && j < me;
          D* const col = !col_ok ? nullptr : j < m ? Ub + j * ldu : E + (j - m) * lde;
          D t = make_scalar<D>(0);
          if (col_ok)
            for (int i0 = lane; i0 < m; i0 += kChunk * kTpr) {
#pragma unroll
              for (int q = 0; q < kChunk; ++q) {
                const int i = i0 + q * kTpr;
                if (i < m) t = mul_add(conj(vq[i]), col[i], t);
              }
            }
          t = mul(group_all_sum<kTpr>(t), conj(tau_q));
          if (col_ok)
            for (int i0 = lane; i0 < m; i0 += kChunk * kTpr) {
              D rc[kChunk], rv[kChunk];
#pragma unroll
              for (int q = 0; q < kChunk; ++q) {
                const int i = i0 + q * kTpr;
                if (i < m) {
                  rc[q] = col[i];
                  rv[q] = vq[i];
                }
              }
#pragma unroll
              for (int q = 0; q < kChunk; ++q) {
                const int i = i0 + q * kTpr;
                if (i < m) col[i] = mul_add(neg(rv[q]), t, rc[q]);
              }
            }
        }
        __syncthreads();

        // 4. Write back.
        if (ti < rows) {
          const int ue = ti < m ? me - m : 0;
          for (int j0 = tj; j0 < m || j0 < ue; j0 += kChunk * kTpr) {
#pragma unroll
            for (int t = 0; t < kChunk; ++t) {
              const int j = j0 + t * kTpr;
              // U(0, 0), the head, is out already and may be sweep s + 1's by now.
              if (j < m && (ti | j) != 0) store_cg(Wu + (ti - j) + j * ldw, U[ti + j * ldu]);
              if (j < ue) store_cg(We + (ti - j) + j * ldw, E[ti + j * lde]);
            }
          }
        }
      } else if (tid == 0) {
        vq[0] = make_scalar<D>(1);
      }
      __syncthreads();
      if (VQ != nullptr) {
        const int64_t off = band2tri_v2_offset(n, b, s, k);
        for (int i = tid; i < m; i += kThreads) {
          VQ[off + i] = vq[i];
          VP[off + i] = vp[i];
        }
        if (tid == 0) {
          tauQ[s * tau_stride + k] = tau_q;
          tauP[s * tau_stride + k] = tau_p;
        }
      }
      common::chase_publish(progress + s, static_cast<int>(2 * k + 2));
    }
  }
}

// The work band from AB (upper band storage, b as the caller gave it): the kb = min(b,
// n - 1) superdiagonals and the diagonal copied, B(0, 0) made real, the rest zero (the
// bulge's room).
template <typename D>
__global__ void load_band(int64_t n, int64_t b, int64_t kb, const D* AB, int64_t ldab, D* W) {
  const int64_t ku = band2bd_work_ku(kb), ldw = band2bd_work_ld(kb), total = n * ldw;
  for (int64_t x = blockIdx.x * int64_t{blockDim.x} + threadIdx.x; x < total;
       x += int64_t{gridDim.x} * blockDim.x) {
    const int64_t o = x % ldw - ku, j = x / ldw;  // row j + o of column j
    D a = make_scalar<D>(0);
    if (o <= 0 && o >= -kb && j + o >= 0) a = AB[(b + o) + j * ldab];
    if (x == ku) a = common::real_diag(a);
    W[x] = a;
  }
}

template <typename D>
__global__ void extract_bidiagonal(int64_t n, int64_t kb, const D* W, device_real_t<D>* d,
                                   device_real_t<D>* e) {
  const int64_t ku = band2bd_work_ku(kb), ldw = band2bd_work_ld(kb);
  for (int64_t j = blockIdx.x * int64_t{blockDim.x} + threadIdx.x; j < n;
       j += int64_t{gridDim.x} * blockDim.x) {
    d[j] = real_part(W[ku + j * ldw]);
    if (j + 1 < n) e[j] = real_part(W[(ku - 1) + (j + 1) * ldw]);
  }
}

unsigned blocks_for(int64_t count) {
  return static_cast<unsigned>(std::max<int64_t>(1, std::min<int64_t>((count + 255) / 256, 4096)));
}

// The tile shape for b: f(integral_constant<int, kRows>) with kRows >= 2b threads' rows.
template <typename F>
void with_tile_rows(int64_t b, F&& f) {
  if (b <= 16)
    f(std::integral_constant<int, 32>{});
  else if (b <= 32)
    f(std::integral_constant<int, 64>{});
  else if (b <= 64)
    f(std::integral_constant<int, 128>{});
  else
    f(std::integral_constant<int, 256>{});
}

// The dynamic shared memory of chase_sweeps<D, kRows>: U, E and the two reflectors.
template <typename D, int kRows>
std::size_t tile_bytes(int64_t b) {
  constexpr int kTpr = kThreads / kRows;
  const int bb = static_cast<int>(b);
  const int64_t ldu = common::chase_tile_ld<D, kTpr>(2 * bb);
  const int64_t lde = common::chase_tile_ld<D, kTpr>(bb);
  return static_cast<std::size_t>((ldu + lde + 2) * b) * sizeof(D);
}

// NotImplemented, before anything is allocated or written, where the chase's tile does not
// fit: b > 128 (the widest tile shape) or beyond the device's shared memory per block
// (1 KiB left for the kernel's static shared memory).
template <typename D>
void require_tile(const Device& dev, int64_t b) {
  if (b > 128)
    MGBLAS_THROW(NotImplemented, "band_to_bidiag: b = ", b,
                 " superdiagonals; the CUDA engine takes at most 128");
  int optin = 0;
  MGBLAS_CHECK_CUDA(
      cudaDeviceGetAttribute(&optin, cudaDevAttrMaxSharedMemoryPerBlockOptin, dev.gpu_ordinal()));
  std::size_t bytes = 0;
  with_tile_rows(b, [&](auto rows) { bytes = tile_bytes<D, decltype(rows)::value>(b); });
  if (bytes + 1024 > static_cast<std::size_t>(optin))
    MGBLAS_THROW(NotImplemented, "band_to_bidiag: b = ", b, " superdiagonals need ", bytes,
                 " bytes of shared memory per block; this GPU allows ", optin);
}

template <typename D, int kRows>
void launch_chase(const Device& dev, cudaStream_t stream, int64_t n, int64_t b, D* W, D* VQ,
                  D* tauQ, D* VP, D* tauP, int* counters) {
  const auto kernel = chase_sweeps<D, kRows>;
  const std::size_t shmem = tile_bytes<D, kRows>(b);
  int sms = 0, per_sm = 0;
  MGBLAS_CHECK_CUDA(
      cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev.gpu_ordinal()));
  MGBLAS_CHECK_CUDA(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                         static_cast<int>(shmem)));
  MGBLAS_CHECK_CUDA(
      cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kernel, kThreads, shmem));
  const int64_t grid =
      std::max<int64_t>(1, std::min<int64_t>(n - 1, int64_t{std::max(per_sm, 1)} * sms));
  kernel<<<static_cast<unsigned>(grid), kThreads, shmem, stream>>>(n, b, W, VQ, tauQ, VP, tauP,
                                                                   counters, counters + n);
  MGBLAS_CHECK_LAUNCH(stream);
}

template <Scalar T>
void chase(const Device& dev, cudaStream_t stream, int64_t n, int64_t b, const T* AB, int64_t ldab,
           real_type_t<T>* d, real_type_t<T>* e, T* VQ, T* tauQ, T* VP, T* tauP) {
  using D = device_t<T>;
  if (n == 0) return;
  dev.make_current();
  // b >= n - 1 is a full upper triangle: the layout (one task per sweep) is that of b = n - 1.
  const int64_t be = std::max<int64_t>(1, std::min(b, n - 1)), ldw = band2bd_work_ld(be);
  if (n > 1) require_tile<D>(dev, be);
  DeviceBuffer<T> work(dev, static_cast<std::size_t>(ldw * n));
  D* W = common::device_ptr(work.data());
  load_band<D><<<blocks_for(n * ldw), 256, 0, stream>>>(n, b, be, common::device_ptr(AB), ldab, W);
  MGBLAS_CHECK_LAUNCH(stream);
  if (n > 1) {
    DeviceBuffer<int> counters(dev, static_cast<std::size_t>(n + 1));
    MGBLAS_CHECK_CUDA(cudaMemsetAsync(counters.data(), 0, (n + 1) * sizeof(int), stream));
    D* vq = VQ != nullptr ? common::device_ptr(VQ) : nullptr;
    D* tq = VQ != nullptr ? common::device_ptr(tauQ) : nullptr;
    D* vp = VQ != nullptr ? common::device_ptr(VP) : nullptr;
    D* tp = VQ != nullptr ? common::device_ptr(tauP) : nullptr;
    if (vq != nullptr) {
      const std::size_t bytes = band2tri_tau2_size(n, be) * sizeof(D);
      MGBLAS_CHECK_CUDA(cudaMemsetAsync(tq, 0, bytes, stream));
      MGBLAS_CHECK_CUDA(cudaMemsetAsync(tp, 0, bytes, stream));
    }
    with_tile_rows(be, [&](auto rows) {
      launch_chase<D, decltype(rows)::value>(dev, stream, n, be, W, vq, tq, vp, tp,
                                             counters.data());
    });
    extract_bidiagonal<D><<<blocks_for(n), 256, 0, stream>>>(n, be, W, d, e);
    MGBLAS_CHECK_LAUNCH(stream);
    // The counters and the work band are freed on return: wait for the kernels.
    MGBLAS_CHECK_CUDA(cudaStreamSynchronize(stream));
  } else {
    extract_bidiagonal<D><<<1, 32, 0, stream>>>(n, be, W, d, e);
    MGBLAS_CHECK_LAUNCH(stream);
    MGBLAS_CHECK_CUDA(cudaStreamSynchronize(stream));
  }
}

}  // namespace gb2bd

#define MGBLAS_CUDA_GB2BD_(T)                                                           \
  MGBLAS_DECLARE_GB2BD_KERNEL(T) {                                                      \
    gb2bd::chase<T>(dev, stream, n, b, AB, ldab, d, e, VQ, tauQ, VP, tauP);             \
  }
MGBLAS_FOR_EACH_SCALAR(MGBLAS_CUDA_GB2BD_)
#undef MGBLAS_CUDA_GB2BD_

}  // namespace mgblas::kernels::cuda
