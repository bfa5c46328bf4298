// SPDX-License-Identifier: BSD-3-Clause
// CUDA engine of the band-to-tridiagonal bulge chase (kernels/sb2st_kernels.hpp): one
// persistent kernel whose thread blocks take sweeps in ascending order from a ticket
// counter and run each sweep's tasks in order; task (s, k) waits, through a per-sweep
// progress counter in global memory, until sweep s - 1's task k + 1 has written its first
// row, the only entries the two tasks share. The band, n 2b elements, is read and written
// through L2 only (ld.cg/st.cg): L1 is not coherent between multiprocessors, and at
// n = 32768, b = 64 the band (34 MB in double) fits the H200's L2 (60 MiB reported).
// The chase's time is about n (t + e): t a task's latency, e that of its part up to the
// row-0 hand-off. Measured on an H200 (bench/results/h200-chase-latency.md; n = 32768,
// b = 32, double): 0.40 s, from 0.66 s with 11.5 us per task whose loads were issued one
// after another and whose hand-off waited for the whole task.
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
#include "kernels/sb2st_kernels.hpp"

namespace mgblas::kernels::cuda {
namespace sb2st {

using common::add;
using common::conj;
using common::device_real_t;
using common::device_t;
using common::imag_part;
using common::make_scalar;
using common::mul;
using common::mul_add;
using common::real_part;

using common::load_cg;  // the band is read and written through L2 only
using common::store_cg;

// a - b c^H-style helpers: a - x conj(y).
template <typename D>
__device__ __forceinline__ D sub_mul_conj(D a, D x, D y) {
  return mul_add(common::neg(x), conj(y), a);
}

// The value of the first lane of each group of kTpr lanes, to the whole group.
template <int kTpr, typename D>
__device__ __forceinline__ D group_broadcast(D v) {
  if constexpr (kTpr == 1) return v;
  const int src = static_cast<int>(threadIdx.x & 31) & ~(kTpr - 1);
  if constexpr (std::is_same_v<D, device_real_t<D>>)
    return __shfl_sync(0xffffffffu, v, src);
  else
    return make_scalar<D>(__shfl_sync(0xffffffffu, real_part(v), src),
                          __shfl_sync(0xffffffffu, imag_part(v), src));
}

using common::chase_tile_ld;
constexpr int kChunk = common::kChaseChunk;

// What a task reduces over its rows in one block reduction, before its reflector is known
// (x = B(:, 0) after the right application, y' = D(:, 1:) x(1:)): ||x(1:)||^2 in three
// ranges, p = x(1:)^H D(1:, 0), q = x(1:)^H y'(1:) (real: D is Hermitian) and y'_0.
template <typename D>
struct TaskSums {
  using R = device_real_t<D>;
  detail::SumSquares<R> xx;
  D p, y0;
  R q;
  __device__ static TaskSums zero() {
    return {detail::SumSquares<R>::zero(), make_scalar<D>(0), make_scalar<D>(0), R(0)};
  }
  __device__ TaskSums operator+(const TaskSums& o) const {
    return {xx + o.xx, add(p, o.p), add(y0, o.y0), q + o.q};
  }
};

// One sweep-chasing block. Shared memory (dynamic): B and D, b x b each with leading
// dimension chase_tile_ld, and three vectors of b (v, the previous task's v, y'). kTpr
// threads share a row or a column of a product, their partial sums combined by CUB over
// the kTpr lanes; thread group g = tid / kTpr owns row g and column g + 1, and
// kThreads / kTpr >= b (the launcher picks kTpr and kThreads so): one pass covers a task.
//
// Task (s, k) in the block (see kernels/sb2st_kernels.hpp for the math; H = I - tau v v^H
// with v = (1, scale x(1:)), x = B(:, 0)):
//   1. thread 0 waits for sweep s - 1's task k + 1 to publish its row 0 (all of sweep
//      s - 1 for the last two tasks); everyone loads B = A(R_k, C) (C = {s} for k = 0,
//      R_{k-1} otherwise) and D = A(R_k, R_k);
//   2. B := B H_{k-1} (rows);
//   3. the products that need x but not H: S_j = x(1:)^H B(1:, j) per column j >= 1 and
//      y' = D(:, 1:) x(1:) per row, then one block reduction (TaskSums); thread 0 forms
//      H's scalars, y_0 = D(0, 0) + scale y'_0, v^H y = y_0 + conj(scale) p +
//      |scale|^2 q, and writes row 0 of the task: B(0, 0) = beta, D(0, 0) - 2 Re w_0;
//   4. B(0, 1:) -= t (t_j = conj(tau) (B(0, j) + conj(scale) S_j)) written, then
//      progress[s] = k + 1: the next sweep's task k - 1 shares only this row 0 with the
//      task, so it starts while the task finishes;
//   5. B(1:, 1:) -= v(1:) t, B(1:, 0) = 0, and the lower triangle of D - v w^H - w v^H
//      below row 0 written (w = tau y - (|tau|^2 / 2) (v^H y) v, y = D(:, 0) + scale y',
//      both formed entry by entry); v and tau into V2 / tau2. After the sweep's last
//      task, progress[s] = tasks + 1.
template <typename D, int kTpr, int kThreads>
__global__ void __launch_bounds__(kThreads)
    chase_sweeps(int64_t n, int64_t b, D* W, int64_t ldw, D* V2, D* tau2, int64_t tau_stride,
                 int* progress, int* ticket) {
  using R = device_real_t<D>;
  using Sums = TaskSums<D>;
  using Reduce = cub::BlockReduce<Sums, kThreads>;
  __shared__ typename Reduce::TempStorage reduce;
  __shared__ D s_tau, s_scale;
  __shared__ R s_half;
  __shared__ int64_t s_sweep;
  extern __shared__ __align__(16) unsigned char smem[];
  // Tile indices are 32-bit and the tile walks divide by nothing: 64-bit division and
  // modulo per element cost more than the arithmetic of a task. Element (i, j) of a tile
  // is row i = tid % kRowsAtOnce of column pass j = tid / kRowsAtOnce, kTpr columns per
  // pass, rows coalesced in the band.
  constexpr int kRowsAtOnce = kThreads / kTpr;
  const int bb = static_cast<int>(b), ld = chase_tile_ld<D, kTpr>(bb);
  D* B = reinterpret_cast<D*>(smem);
  D* Dm = B + bb * ld;
  D* const vb0 = Dm + bb * ld;
  D* const vb1 = vb0 + bb;
  D* yp = vb1 + bb;
  const int tid = threadIdx.x;
  const int lane_in_row = tid % kTpr;
  const int group = tid / kTpr;  // row `group`, column `group + 1`
  const int ti = tid % kRowsAtOnce, tj = tid / kRowsAtOnce;

  for (;;) {
    if (tid == 0) s_sweep = atomicAdd(ticket, 1);
    __syncthreads();
    const int64_t s = s_sweep;
    if (s >= n - 1) return;
    const int64_t tasks = band2tri_tasks(n, b, s);
    const int64_t prev_tasks = s > 0 ? band2tri_tasks(n, b, s - 1) : 0;
    D tau_prev = make_scalar<D>(0);
    for (int64_t k = 0; k < tasks; ++k) {
      D* const v = (k & 1) ? vb1 : vb0;  // a select, not an indexed array: no local memory
      const D* const vprev = (k & 1) ? vb0 : vb1;
      const int64_t r = s + 1 + k * b, c = k == 0 ? s : r - b;
      const int m = static_cast<int>(b < n - r ? b : n - r), mc = k == 0 ? 1 : bb;
      const int cr = static_cast<int>(r - c);  // B(i, j) = W[(cr + i - j) + (c + j) ldw]
      D* const Wb = W + c * ldw + cr;
      D* const Wd = W + r * ldw;
      // 1. Wait for sweep s - 1, then load B and D's lower triangle, kChunk columns of each
      //    in flight per thread.
      const int64_t need = k + 2 < prev_tasks ? k + 2 : prev_tasks + 1;
      common::chase_wait(progress + (s > 0 ? s - 1 : 0), static_cast<int>(need), s > 0);
      if (ti < m) {
        for (int j0 = tj; j0 < mc || j0 <= ti; j0 += kChunk * kTpr) {
          D rb[kChunk], rd[kChunk];
#pragma unroll
          for (int t = 0; t < kChunk; ++t) {
            const int j = j0 + t * kTpr;
            if (j < mc) rb[t] = load_cg(Wb + (ti - j) + j * ldw);
            if (j <= ti) rd[t] = load_cg(Wd + (ti - j) + j * ldw);
          }
#pragma unroll
          for (int t = 0; t < kChunk; ++t) {
            const int j = j0 + t * kTpr;
            if (j < mc) B[ti + j * ld] = rb[t];
            if (j <= ti) {
              Dm[ti + j * ld] = ti == j ? common::real_diag(rd[t]) : rd[t];
              Dm[j + ti * ld] = conj(rd[t]);
            }
          }
        }
      }
      __syncthreads();

      // 2. Right application of the previous reflector, row by row.
      const int i = group, j = group + 1;
      const bool row_ok = i < m, col_ok = j < mc;
      if (k > 0) {
        D u = make_scalar<D>(0);
        if (row_ok)
          u = common::chase_walk_sum<kTpr>(lane_in_row, mc, u, [&](D acc, int q) {
            return mul_add(B[i + q * ld], vprev[q], acc);
          });
        u = mul(group_broadcast<kTpr>(common::lane_group_sum<kTpr>(u)), tau_prev);
        if (row_ok)
          common::chase_walk_update<kTpr>(
              lane_in_row, mc, [&](int q) { return sub_mul_conj(B[i + q * ld], u, vprev[q]); },
              [&](int q, D x) { B[i + q * ld] = x; });
      }
      __syncthreads();

      // 3. S_j and y' from x = B(:, 0); one reduction; H's scalars and row 0 by thread 0.
      D sj = make_scalar<D>(0);
      if (col_ok)
        sj = common::chase_walk_sum<kTpr>(1 + lane_in_row, m, sj, [&](D acc, int q) {
          return mul_add(conj(B[q]), B[q + j * ld], acc);
        });
      sj = group_broadcast<kTpr>(common::lane_group_sum<kTpr>(sj));
      D ypi = make_scalar<D>(0);
      if (row_ok)
        ypi = common::chase_walk_sum<kTpr>(1 + lane_in_row, m, ypi, [&](D acc, int q) {
          return mul_add(Dm[i + q * ld], B[q], acc);
        });
      ypi = common::lane_group_sum<kTpr>(ypi);
      Sums part = Sums::zero();
      if (row_ok && lane_in_row == 0) {
        yp[i] = ypi;
        if (i == 0) {
          part.y0 = ypi;
        } else {
          const D x = B[i];
          part.xx.add(real_part(x), imag_part(x));
          part.p = mul(conj(x), Dm[i]);
          part.q = real_part(mul(conj(x), ypi));
        }
      }
      const Sums total = Reduce(reduce).Sum(part);
      const bool generate = m > 1 || (k == 0 && !std::is_same_v<D, R>);
      if (tid == 0) {
        D tau0 = make_scalar<D>(0), scale0 = make_scalar<D>(1), beta0 = B[0];
        if (generate) {
          R beta, tr, tm, sr, si;
          detail::reflector_scalars<R>(real_part(B[0]), imag_part(B[0]), total.xx.norm(), beta, tr,
                                       tm, sr, si);
          tau0 = make_scalar<D>(tr, tm);
          scale0 = make_scalar<D>(sr, si);
          beta0 = make_scalar<D>(beta);
        }
        R half = R(0);
        store_cg(Wb, beta0);  // B(0, 0): beta, or as it was for the identity
        if (!common::is_zero(tau0)) {
          const D y0 = mul_add(scale0, total.y0, Dm[0]);
          const R vy = real_part(y0) + real_part(mul(conj(scale0), total.p)) +
                       common::abs_sq(scale0) * total.q;
          half = R(0.5) * common::abs_sq(tau0) * vy;
          const R w0 = real_part(mul(tau0, y0)) - half;  // Re w_0, v_0 = 1
          store_cg(Wd, make_scalar<D>(real_part(Dm[0]) - 2 * w0));
        }
        s_tau = tau0;
        s_scale = scale0;
        s_half = half;
      }
      __syncthreads();
      const D tau = s_tau, scale = s_scale;
      const bool identity = common::is_zero(tau);

      // 4. Row 0 of B's other columns, then the row-0 hand-off.
      D tj_col = make_scalar<D>(0);  // t_j of this group's column (0 for the identity)
      if (col_ok) {
        const D b0j = B[j * ld];
        if (!identity) tj_col = mul(conj(tau), mul_add(conj(scale), sj, b0j));
        if (lane_in_row == 0)
          store_cg(Wb - j + j * ldw, sub_mul_conj(b0j, tj_col, make_scalar<D>(1)));
      }
      common::chase_publish(progress + s, static_cast<int>(k + 1));

      // 5. The rest of the task: nothing of it is read by the next sweep's task k - 1.
      const auto v_of = [&](int q) {  // v_q, q >= 1
        return identity ? make_scalar<D>(0) : mul(scale, B[q]);
      };
      if (col_ok)
        common::chase_walk_update<kTpr>(
            1 + lane_in_row, m,
            [&](int q) { return mul_add(common::neg(v_of(q)), tj_col, B[q + j * ld]); },
            [&](int q, D x) { store_cg(Wb + (q - j) + j * ldw, x); });
      for (int q = 1 + tid; q < m; q += kThreads)
        store_cg(Wb + q, identity ? B[q] : make_scalar<D>(0));
      if (!identity && ti >= 1 && ti < m) {
        const D half = make_scalar<D>(s_half);
        // w_q = tau (D(q, 0) + scale y'_q) - half v_q
        const auto w_of = [&](int q, D vq) {
          return sub_mul_conj(mul(tau, mul_add(scale, yp[q], Dm[q])), half, conj(vq));
        };
        const D vi = v_of(ti), wi = w_of(ti, vi);
        common::chase_walk_update<kTpr>(
            tj, ti + 1,
            [&](int q) {
              const D vq = q == 0 ? make_scalar<D>(1) : v_of(q);
              D a = sub_mul_conj(sub_mul_conj(Dm[ti + q * ld], vi, w_of(q, vq)), wi, vq);
              return ti == q ? common::real_diag(a) : a;
            },
            [&](int q, D a) { store_cg(Wd + (ti - q) + q * ldw, a); });
      }
      for (int q = tid; q < m; q += kThreads) {
        const D vq = q == 0 ? make_scalar<D>(1) : v_of(q);
        v[q] = vq;
        if (V2 != nullptr) V2[band2tri_v2_offset(n, b, s, k) + q] = vq;
      }
      if (V2 != nullptr && tid == 0) tau2[s * tau_stride + k] = tau;
      tau_prev = tau;
    }
    common::chase_publish(progress + s, static_cast<int>(tasks + 1));  // the whole sweep
  }
}

// The work band from AB: rows 0..b of each column copied (the diagonal made real), rows
// b + 1 .. ldw - 1 zeroed (the bulge's room). In place when W == AB.
template <typename D>
__global__ void load_band(int64_t n, int64_t b, const D* AB, int64_t ldab, D* W, int64_t ldw) {
  const int64_t total = n * ldw;
  for (int64_t x = blockIdx.x * int64_t{blockDim.x} + threadIdx.x; x < total;
       x += int64_t{gridDim.x} * blockDim.x) {
    const int64_t o = x % ldw, j = x / ldw;
    D a = make_scalar<D>(0);
    if (o <= b && j + o < n) a = AB[o + j * ldab];
    if (o == 0) a = common::real_diag(a);
    W[o + j * ldw] = a;
  }
}

template <typename D>
__global__ void extract_tridiagonal(int64_t n, const D* W, int64_t ldw, device_real_t<D>* d,
                                    device_real_t<D>* e) {
  for (int64_t j = blockIdx.x * int64_t{blockDim.x} + threadIdx.x; j < n;
       j += int64_t{gridDim.x} * blockDim.x) {
    d[j] = real_part(W[j * ldw]);
    if (j + 1 < n) e[j] = real_part(W[1 + j * ldw]);
  }
}

unsigned blocks_for(int64_t count) {
  return static_cast<unsigned>(std::max<int64_t>(1, std::min<int64_t>((count + 255) / 256, 4096)));
}

template <typename D, int kTpr, int kThreads>
void launch_chase(const Device& dev, cudaStream_t stream, int64_t n, int64_t b, D* W, int64_t ldw,
                  D* V2, D* tau2, int* counters) {
  const auto kernel = chase_sweeps<D, kTpr, kThreads>;
  const int64_t ld = chase_tile_ld<D, kTpr>(static_cast<int>(b));
  const std::size_t shmem = static_cast<std::size_t>(2 * b * ld + 3 * b) * sizeof(D);
  int sms = 0, optin = 0, per_sm = 0;
  MGBLAS_CHECK_CUDA(
      cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev.gpu_ordinal()));
  MGBLAS_CHECK_CUDA(
      cudaDeviceGetAttribute(&optin, cudaDevAttrMaxSharedMemoryPerBlockOptin, dev.gpu_ordinal()));
  if (shmem + 1024 > static_cast<std::size_t>(optin))
    MGBLAS_THROW(NotImplemented, "band_to_tridiag: half-bandwidth b = ", b, " needs ", shmem,
                 " bytes of shared memory per block; this GPU allows ", optin);
  MGBLAS_CHECK_CUDA(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                         static_cast<int>(shmem)));
  MGBLAS_CHECK_CUDA(
      cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kernel, kThreads, shmem));
  const int64_t grid =
      std::max<int64_t>(1, std::min<int64_t>(n - 1, int64_t{std::max(per_sm, 1)} * sms));
  kernel<<<static_cast<unsigned>(grid), kThreads, shmem, stream>>>(
      n, b, W, ldw, V2, tau2, band2tri_tau2_stride(n, b), counters, counters + n);
  MGBLAS_CHECK_LAUNCH(stream);
}

template <Scalar T>
void chase(const Device& dev, cudaStream_t stream, int64_t n, int64_t b, T* AB, int64_t ldab,
           real_type_t<T>* d, real_type_t<T>* e, T* V2, T* tau2) {
  using D = device_t<T>;
  if (n == 0) return;
  dev.make_current();
  // b >= n - 1 is a full matrix: the layout (one task per sweep) is that of b = n - 1.
  const int64_t be = std::max<int64_t>(1, std::min(b, n - 1)), ldw = band2tri_work_ld(be);
  DeviceBuffer<T> work(dev, ldab >= ldw ? 0 : static_cast<std::size_t>(ldw * n));
  D* W = common::device_ptr(ldab >= ldw ? AB : work.data());
  const int64_t ld = ldab >= ldw ? ldab : ldw;
  load_band<D><<<blocks_for(n * ld), 256, 0, stream>>>(n, be, common::device_ptr(AB), ldab, W, ld);
  MGBLAS_CHECK_LAUNCH(stream);
  if (n > 1) {
    DeviceBuffer<int> counters(dev, static_cast<std::size_t>(n + 1));
    MGBLAS_CHECK_CUDA(cudaMemsetAsync(counters.data(), 0, (n + 1) * sizeof(int), stream));
    D* v2 = V2 != nullptr ? common::device_ptr(V2) : nullptr;
    D* t2 = V2 != nullptr ? common::device_ptr(tau2) : nullptr;
    if (t2 != nullptr)
      MGBLAS_CHECK_CUDA(cudaMemsetAsync(t2, 0, band2tri_tau2_size(n, be) * sizeof(D), stream));
    // kThreads / kTpr >= b rows at once; 128 threads for the default band of 32 (four warps:
    // cheaper barriers and reductions than eight, half of which had no row).
    if (be <= 16)
      launch_chase<D, 16, 256>(dev, stream, n, be, W, ld, v2, t2, counters.data());
    else if (be <= 32)
      launch_chase<D, 4, 128>(dev, stream, n, be, W, ld, v2, t2, counters.data());
    else if (be <= 64)
      launch_chase<D, 4, 256>(dev, stream, n, be, W, ld, v2, t2, counters.data());
    else
      launch_chase<D, 1, 256>(dev, stream, n, be, W, ld, v2, t2, counters.data());
    extract_tridiagonal<D><<<blocks_for(n), 256, 0, stream>>>(n, W, ld, d, e);
    MGBLAS_CHECK_LAUNCH(stream);
    // The counters and the work band are freed on return: wait for the kernels.
    MGBLAS_CHECK_CUDA(cudaStreamSynchronize(stream));
  } else {
    extract_tridiagonal<D><<<1, 32, 0, stream>>>(n, W, ld, d, e);
    MGBLAS_CHECK_LAUNCH(stream);
    MGBLAS_CHECK_CUDA(cudaStreamSynchronize(stream));
  }
}

}  // namespace sb2st

#define MGBLAS_CUDA_SB2ST_(T) \
  MGBLAS_DECLARE_SB2ST_KERNEL(T) { sb2st::chase<T>(dev, stream, n, b, AB, ldab, d, e, V2, tau2); }
MGBLAS_FOR_EACH_SCALAR(MGBLAS_CUDA_SB2ST_)
#undef MGBLAS_CUDA_SB2ST_

}  // namespace mgblas::kernels::cuda
