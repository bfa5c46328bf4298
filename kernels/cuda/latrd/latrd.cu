// SPDX-License-Identifier: BSD-3-Clause
// CUDA engine of the tridiagonal reduction's panel steps (kernels/latrd_kernels.hpp).
//
// Every step is one or two launches over the rows of the panel and never waits for the
// host: the reflector's norm, the panel's dot products and w^H v are block sums combined
// by the last block to finish (a counter in `work`), in block order, so every device of
// a reduction computes bit-identical reflectors from identical inputs.
//
// work layout: [0, 64) counters (reset by the block that used them); [64, 128) scalars
// passed between launches (the reflector's scale, the finish's alpha); [kPartials, ...)
// the blocks' partial sums.
#include <cooperative_groups.h>
#include <cub/block/block_reduce.cuh>

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <type_traits>

#include "core/detail/cuda_check.hpp"
#include "kernels/cuda/common/block_sums.cuh"
#include "kernels/cuda/common/debug_env.hpp"
#include "kernels/cuda/common/device_scalar.cuh"
#include "kernels/detail/safe_reflector.hpp"
#include "kernels/gemm_kernels.hpp"
#include "kernels/latrd_kernels.hpp"

namespace mgblas::kernels::cuda {
namespace {

using namespace common;

constexpr int kThreads = 256;
// Partial sums in `work`: one per block of 32 rows, 2j per block of 128 rows for the dot
// products (m = 2^18 rows, j = 128: 2048 blocks * 256 * 16 B = 8 MiB).
constexpr int kMaxBlocks = 65535;
constexpr std::size_t kScalars = 64, kPartials = 4096;
// A block's column sums in step_kernel: the three sums of squares of the column's norm
// (safe_reflector.hpp) and a flag (1: one of the block's dot products for t overflowed).
template <typename R> struct ColumnSums {
  SumSq<R> sq;
  R bad;
  __device__ ColumnSums operator+(const ColumnSums& o) const { return {sq + o.sq, bad + o.bad}; }
};
template <typename R> __device__ __forceinline__ ColumnSums<R> load_column_sums(const ColumnSums<R>* p) {
  return {common::load_cg(&p->sq), __ldcg(&p->bad)};
}
constexpr std::size_t kSumSqBytes = 32;
static_assert(sizeof(ColumnSums<double>) <= kSumSqBytes);

// The kernels' blocks are kLanes x kWarps threads: the lanes of a warp take consecutive
// rows (coalesced loads of a column), the warps split the other dimension (the panel's
// columns), so that every thread has only a few independent loads to wait for. A loop of
// j dependent load pairs per row thread was latency-bound: ~50 us per column at any n.
static_assert(kThreads == kBlockThreads);

// sum_l A(r, l) s[l] + B(r, l) s[j + l] over this warp's share of l < j, for row r:
// the warps of a block split [0, j) into kWarps chunks. Summed over the warps in `red`.
template <typename D>
__device__ D panel_row_sum(int64_t r, int64_t j, const D* A, int64_t lda, const D* B,
                           int64_t ldb, const D* s) {
  const int64_t chunk = (j + kWarps - 1) / kWarps;
  const int64_t l0 = threadIdx.y * chunk, l1 = l0 + chunk < j ? l0 + chunk : j;
  D sa = make_scalar<D>(0), sb = make_scalar<D>(0);
#pragma unroll 8
  for (int64_t l = l0; l < l1; ++l) {
    sa = mul_add(A[r + l * lda], s[l], sa);
    sb = mul_add(B[r + l * ldb], s[j + l], sb);
  }
  return add(sa, sb);
}

// ---- step 1 + 2: the column update and the reflector's norm --------------------------
// Block: 32 rows of [j, m) x 8 warps over the panel's columns l < j. Row j's values of V
// and W (conjugated) in shared memory. Blocks add |a_r|^2 for r >= j + 2; the last block
// forms beta, tau, d, e and the scale 1/(alpha - beta) of v (applied by the next launch).
template <typename D>
__global__ void __launch_bounds__(kThreads)
    reflector_kernel(bool herm, int64_t m, int64_t j, D* Pn, int64_t ldp, const D* W,
                     int64_t ldw, device_real_t<D>* d, device_real_t<D>* e, D* tau, unsigned char* work) {
  using R = device_real_t<D>;
  extern __shared__ unsigned char smem_raw[];
  D* row = reinterpret_cast<D*>(smem_raw);  // [0, j): conj W(j, l); [j, 2j): conj V(j, l)
  for (int64_t l = flat_thread(); l < j; l += kThreads) {
    row[l] = conj(W[j + l * ldw]);
    row[j + l] = conj(Pn[j + l * ldp]);
  }
  __syncthreads();
  D* a = Pn + j * ldp;
  const int64_t r = j + int64_t{blockIdx.x} * kLanes + threadIdx.x;
  const D upd = across_warps(r < m ? panel_row_sum(r, j, Pn, ldp, W, ldw, row) : make_scalar<D>(0));
  SumSq<R> sumsq = SumSq<R>::zero();
  if (threadIdx.y == 0 && r < m) {
    D v = sub(a[r], upd);
    if (herm && r == j) v = make_scalar<D>(real_part(v));
    a[r] = v;
    if (r >= j + 2) add_squares(sumsq, v);
  }
  const SumSq<R> block_total = block_sum(sumsq);
  SumSq<R>* partial = reinterpret_cast<SumSq<R>*>(work + kPartials);
  if (flat_thread() == 0) partial[blockIdx.x] = block_total;
  if (!last_block(reinterpret_cast<unsigned*>(work))) return;

  SumSq<R> s = SumSq<R>::zero();
  for (int b = flat_thread(); b < gridDim.x; b += kThreads) s = s + load_cg(partial + b);
  s = block_sum(s);
  if (flat_thread() != 0) return;
  // Values other blocks wrote: read past the (incoherent) L1.
  d[j] = real_part(__ldcg(a + j));
  if (j + 1 >= m) return;
  const D alpha = __ldcg(a + j + 1);
  const R ar = real_part(alpha), ai = imag_part(alpha);
  D* scale = reinterpret_cast<D*>(work + kScalars);
  // beta, tau and 1 / (alpha - beta) without overflow or underflow (safe_reflector.hpp);
  // H = I when x = 0 and alpha is real.
  R beta, tr, ti, sr, si;
  ::mgblas::kernels::detail::reflector_scalars<R>(ar, ai, s.norm(), beta, tr, ti, sr, si);
  tau[j] = make_scalar<D>(tr, ti);
  e[j] = beta;
  *scale = make_scalar<D>(sr, si);
  a[j + 1] = make_scalar<D>(1);
}

// ---- step 2 (scaling) + 3 + 4: v, the panel's dot products, p = 0 ---------------------
// Block: kDotRows rows of [j + 1, m) (each lane kRowsPerLane of them) x 8 warps; warp y
// takes the columns q = y, y + 8, ... of [W | V] (2j of them), 8 at a time, so a thread
// has 8 x kRowsPerLane independent loads in flight. Every thread scales its rows' v
// itself (warp 0 stores it back), the warps' sums per q go to `partial`, and the last
// block adds the blocks into t (sum_block_partials). The 8 sums of a warp leave it
// through one transposing butterfly.
constexpr int kRowsPerLane = 4, kDotRows = kLanes * kRowsPerLane, kQ = 8;

template <typename D>
__global__ void __launch_bounds__(kThreads)
    dots_kernel(int64_t m, int64_t j, D* Pn, int64_t ldp, const D* W, int64_t ldw, D* t, D* p,
                int64_t p_len, unsigned char* work) {
  D* v = Pn + j * ldp;
  const D scale = *reinterpret_cast<const D*>(work + kScalars);
  const int64_t base = j + 1 + int64_t{blockIdx.x} * kDotRows + threadIdx.x;
  D vr[kRowsPerLane];
#pragma unroll
  for (int k = 0; k < kRowsPerLane; ++k) {
    const int64_t r = base + k * kLanes;
    vr[k] = r < m ? (r >= j + 2 ? mul(v[r], scale) : v[r]) : make_scalar<D>(0);
  }
  __syncthreads();  // every warp has read the unscaled v before warp 0 stores it
  if (threadIdx.y == 0)
#pragma unroll
    for (int k = 0; k < kRowsPerLane; ++k) {
      const int64_t r = base + k * kLanes;
      if (r >= j + 2 && r < m) v[r] = vr[k];
    }
  for (int64_t i = int64_t{blockIdx.x} * kThreads + flat_thread(); i < p_len;
       i += int64_t{gridDim.x} * kThreads)
    p[i] = make_scalar<D>(0);
  if (j == 0) return;

  D* partial = reinterpret_cast<D*>(work + kPartials);
  const int64_t nq = 2 * j;
  for (int64_t q0 = threadIdx.y; q0 < nq; q0 += kWarps * kQ) {
    D acc[kQ];
#pragma unroll
    for (int i = 0; i < kQ; ++i) acc[i] = make_scalar<D>(0);
#pragma unroll
    for (int k = 0; k < kRowsPerLane; ++k) {
      const int64_t r = base + k * kLanes;
      if (r >= m) continue;
#pragma unroll
      for (int i = 0; i < kQ; ++i) {
        const int64_t q = q0 + i * kWarps;
        if (q < nq) {
          const D* col = q < j ? W + q * ldw : Pn + (q - j) * ldp;
          acc[i] = mul_add(conj(col[r]), vr[k], acc[i]);
        }
      }
    }
    write_warp_sums(acc, q0, kWarps, nq,
                    [&](int64_t q, D v) { partial[int64_t{blockIdx.x} * nq + q] = v; });
  }
  if (!last_block(reinterpret_cast<unsigned*>(work) + 1)) return;
  sum_block_partials(partial, nq, nq, [&](int64_t q, D v) { t[q] = v; });
}

// ---- finish: w = tau (p - V t1 - W t2), w^H v ---------------------------------------
// Blocks as reflector_kernel, over rows [j + 1, m).
template <typename D>
__global__ void __launch_bounds__(kThreads)
    finish_kernel(int64_t m, int64_t j, const D* Pn, int64_t ldp, D* W, int64_t ldw,
                  const D* tau, const D* t, const D* p, unsigned char* work) {
  extern __shared__ unsigned char smem_raw[];
  D* ts = reinterpret_cast<D*>(smem_raw);
  for (int64_t q = flat_thread(); q < 2 * j; q += kThreads) ts[q] = t[q];
  __syncthreads();
  const D tj = tau[j];
  const D* v = Pn + j * ldp;
  D* w = W + j * ldw;
  const int64_t r = j + 1 + int64_t{blockIdx.x} * kLanes + threadIdx.x;
  const D corr = across_warps(r < m ? panel_row_sum(r, j, Pn, ldp, W, ldw, ts) : make_scalar<D>(0));
  D dot = make_scalar<D>(0);
  if (threadIdx.y == 0 && r < m) {
    const D s = mul(tj, sub(p[r - j - 1], corr));
    w[r] = s;
    dot = mul(conj(s), v[r]);
  }
  const Sum<D> block_total = block_sum(Sum<D>{dot});
  D* partial = reinterpret_cast<D*>(work + kPartials);
  if (flat_thread() == 0) partial[blockIdx.x] = block_total.v;
  if (!last_block(reinterpret_cast<unsigned*>(work) + 2)) return;
  Sum<D> s{make_scalar<D>(0)};
  for (int b = flat_thread(); b < gridDim.x; b += kThreads) s = s + Sum<D>{__ldcg(partial + b)};
  s = block_sum(s);
  if (flat_thread() == 0)
    *reinterpret_cast<D*>(work + kScalars + 32) = mul(make_scalar<D>(-0.5), mul(tj, s.v));
}

template <typename D>
__global__ void __launch_bounds__(kThreads)
    axpy_kernel(int64_t m, int64_t j, const D* Pn, int64_t ldp, D* W, int64_t ldw,
                const unsigned char* work) {
  const D alpha = *reinterpret_cast<const D*>(work + kScalars + 32);
  const D* v = Pn + j * ldp;
  D* w = W + j * ldw;
  for (int64_t r = j + 1 + int64_t{blockIdx.x} * blockDim.x + threadIdx.x; r < m;
       r += int64_t{gridDim.x} * blockDim.x)
    w[r] = mul_add(alpha, v[r], w[r]);
}

// ---- one cooperative launch per column: finish(j-1) + reflector(j) ------------------
// The four launches of latrd_finish + latrd_reflector cost ~40 us a column on an H200
// whatever n (launch and tail latency, profile of n = 4096..16384); here one grid of
// co-resident blocks runs them, with a grid-wide barrier only where a sum over all rows
// is needed: one per column (the new column's norm and the sums of t, formed
// together), two when v^H p for the finish does not come with the product.
// The finish's scalar needs no pass of its own over w: with w = tau (p - corr) and
// corr = V tW + W tV (tW, tV: the halves of column j-1's t),
//   w^H v = conj(tau) (conj(v^H p) - (tW^H tV + tV^H tW)),
// so v^H p comes with the product (the SYMV's quad; without it the blocks sum v^H p
// before a grid-wide barrier), and one pass over the block's rows then forms w (with
// its alpha v) and the update of column j together: both are sums
// over the same panel entries V(r, l), W(r, l), loaded once; the t sums that follow
// read those entries again from L1.
// Blocks of 32 rows x 8 warps as above, looping over 32-row tiles. Sums over blocks are
// done in block order (every block, or one block per column q of t), so the result is
// the same bits on every device. (An H200 profile at n = 4096 found the kernel bound by
// the chain of dependent loads and barriers in each block, one block of 8 warps per SM:
// the dot products of t are summed 8 columns per butterfly, and the passes over a
// block's rows are as few as the barriers allow.)
namespace cg = cooperative_groups;

struct StepArgs {
  int64_t m, j, ldp, ldw, acc_len;
  bool herm, finish, reflect;
};

// Row r's two sums over this warp's share of the panel's columns l < j (the warps split
// [0, j) into kWarps chunks; each V(r, l), W(r, l) is loaded once for both):
//   s[0] = sum_{l < j-1} V(r, l) tf[l] + W(r, l) tf[j-1+l]   (the finish of column j-1)
//   s[1] = sum_{l < j} V(r, l) rw[l] + sum_{l < nw} W(r, l) rv[l]   (column j's update)
// nw: the columns of W final before this launch (j - 1 with the finish, else j); with
// the finish, W(r, j-1) rv[j-1] is added by the caller once w is known. Row >= m: 0.
// (Two or four rows a thread, their loads in flight together, gained nothing on an H200
// at n = 16384 and lost 2 % at 8192 from the registers: bench/results/h200-hetrd-step.md.)
template <typename D>
__device__ void step_row_sums(int64_t r, int64_t m, int64_t j, int64_t nw, bool fin,
                              bool reflect, const D* V, int64_t ldv, const D* W, int64_t ldw,
                              const D* tf, const D* rw, const D* rv, D (&s)[2]) {
  const int64_t chunk = (j + kWarps - 1) / kWarps;
  const int64_t l0 = threadIdx.y * chunk, l1 = l0 + chunk < j ? l0 + chunk : j;
  const int64_t jf = j - 1;
  s[0] = s[1] = make_scalar<D>(0);
  if (r >= m) return;
#pragma unroll 2
  for (int64_t l = l0; l < l1; ++l) {
    const D v = V[r + l * ldv];
    const D w = l < nw ? W[r + l * ldw] : make_scalar<D>(0);
    if (fin && l < jf) s[0] = mul_add(v, tf[l], mul_add(w, tf[jf + l], s[0]));
    if (reflect) s[1] = mul_add(v, rw[l], mul_add(w, rv[l], s[1]));
  }
}

template <typename D>
__global__ void __launch_bounds__(kThreads)
    step_kernel(StepArgs a, D* Pn, D* W, device_real_t<D>* d, device_real_t<D>* e, D* tau, D* t,
                const D* p, const D* quad, D* acc, unsigned char* work) {
  using R = device_real_t<D>;
  cg::grid_group grid = cg::this_grid();
  const int64_t m = a.m, j = a.j, ldp = a.ldp, ldw = a.ldw;
  const bool fin = a.finish, reflect = a.reflect;
  const int64_t jf = j - 1;               // the column finished here (fin)
  const int64_t nw = fin ? jf : j;        // W's columns final before this launch
  const unsigned G = gridDim.x;
  // Shared: tf = t of column j-1 (2 (j-1)), rw = conj W(j, 0:j), rv = conj V(j, 0:j).
  extern __shared__ unsigned char smem_raw[];
  D* tf = reinterpret_cast<D*>(smem_raw);
  D* rw = tf + (fin ? 2 * jf : 0);
  D* rv = rw + j;
  __shared__ D bcast;
  D* partA = reinterpret_cast<D*>(work + kPartials);
  ColumnSums<R>* partB =
      reinterpret_cast<ColumnSums<R>*>(work + kPartials + std::size_t{G} * sizeof(D));
  D* partC = reinterpret_cast<D*>(work + kPartials + std::size_t{G} * (sizeof(D) + kSumSqBytes));
  const auto tiles = [&](int64_t first_row, auto&& body) {
    for (int64_t r0 = first_row + int64_t{blockIdx.x} * kLanes; r0 < m; r0 += int64_t{G} * kLanes)
      body(r0 + threadIdx.x);
  };
  // Sum over the blocks' partials, in every block (block order), into bcast.
  const auto all_blocks_sum = [&](const auto* part) {
    using S = std::remove_cv_t<std::remove_pointer_t<decltype(part)>>;
    Sum<D> s{make_scalar<D>(0)};
    for (unsigned b = flat_thread(); b < G; b += kThreads) {
      if constexpr (std::is_same_v<S, D>) s = s + Sum<D>{__ldcg(part + b)};
      else s = s + Sum<D>{make_scalar<D>(__ldcg(part + b))};
    }
    s = block_sum(s);
    if (flat_thread() == 0) bcast = s.v;
    __syncthreads();
    return bcast;
  };

  if (fin)
    for (int64_t q = flat_thread(); q < 2 * jf; q += kThreads) tf[q] = t[q];
  if (reflect)
    for (int64_t l = flat_thread(); l < j; l += kThreads) {
      rw[l] = l < nw ? conj(W[j + l * ldw]) : make_scalar<D>(0);
      rv[l] = conj(Pn[j + l * ldp]);
    }
  __syncthreads();

  // The finish's scalar s = v^H p - (tW^H tV + tV^H tW). v^H p comes with the product
  // (quad), or the blocks sum it over their rows (each block's tiles dealt to its warps)
  // with the t term in block 0, and one barrier.
  const D* vf = Pn + jf * ldp;
  D* wf = W + jf * ldw;
  D tau_f = make_scalar<D>(0), alpha_f = make_scalar<D>(0);
  if (fin) {
    tau_f = tau[jf];
    D dot = make_scalar<D>(0);
    if (!quad)
      for (int64_t r = j + (int64_t{blockIdx.x} + int64_t{G} * threadIdx.y) * kLanes + threadIdx.x;
           r < m; r += int64_t{G} * kLanes * kWarps)
        dot = mul_add(conj(vf[r]), p[r - j], dot);
    if (quad || blockIdx.x == 0)
      for (int64_t l = flat_thread(); l < jf; l += kThreads)
        dot = sub(dot, add(mul(conj(tf[l]), tf[jf + l]), mul(conj(tf[jf + l]), tf[l])));
    const Sum<D> bt = block_sum(Sum<D>{dot});
    if (quad) {
      if (flat_thread() == 0) bcast = add(*quad, bt.v);  // the same in every block
      __syncthreads();
    } else {
      if (flat_thread() == 0) partA[blockIdx.x] = bt.v;
      grid.sync();
      all_blocks_sum(partA);  // into bcast
    }
    const D s = bcast;
    // alpha = -tau/2 w^H v = -|tau|^2 / 2 conj(s).
    alpha_f = mul(make_scalar<D>(-0.5), mul(mul(tau_f, conj(tau_f)), conj(s)));
    // W(j, j-1), formed alike in every block (warp 0; row j's entries are in shared
    // memory) for the update of column j; its owner stores this same value.
    if (reflect && threadIdx.y == 0) {
      D f = make_scalar<D>(0);
      for (int64_t l = threadIdx.x; l < jf; l += kLanes)
        f = mul_add(conj(rv[l]), tf[l], mul_add(conj(rw[l]), tf[jf + l], f));
      f = lane_group_sum<kLanes>(f);
      if (threadIdx.x == 0) rw[jf] = conj(mul_add(alpha_f, vf[j], mul(tau_f, sub(p[0], f))));
    }
    __syncthreads();
  }

  // One pass over the block's rows: w = W(:, j-1) with its alpha v, and the update of
  // column j, then the sums for its norm.
  D* col = Pn + j * ldp;
  D* alpha_copy = reinterpret_cast<D*>(work + kScalars + 16);  // a(j+1) for every block
  SumSq<R> sumsq = SumSq<R>::zero();
  for (int64_t r = j + int64_t{blockIdx.x} * kLanes + threadIdx.x; r - threadIdx.x < m;
       r += int64_t{G} * kLanes) {
    D s[2];
    step_row_sums(r, m, j, nw, fin, reflect, Pn, ldp, W, ldw, tf, rw, rv, s);
    across_warps(s);
    if (threadIdx.y != 0 || r >= m) continue;
    D w = make_scalar<D>(0);
    if (fin) {
      w = reflect && r == j ? conj(rw[jf]) : mul_add(alpha_f, vf[r], mul(tau_f, sub(p[r - j], s[0])));
      wf[r] = w;
    }
    if (!reflect) continue;
    D v = sub(col[r], s[1]);
    if (fin) v = sub(v, mul(w, rv[jf]));
    if (a.herm && r == j) v = make_scalar<D>(real_part(v));
    col[r] = v;
    if (r == j + 1) *alpha_copy = v;
    if (r >= j + 2) add_squares(sumsq, v);
  }
  if (!reflect) return;
  const SumSq<R> bs = block_sum(sumsq);  // its barrier also shows warp 0's rows to the block

  // The block's sums of [W V]^H a over its rows r >= j + 2 (the tiles above): warp y
  // takes the columns q = y + 8 i, kQ of them at a time, its lanes over the rows; the kQ
  // sums leave the warp through one transposing butterfly. t = [W V]^H v is linear in
  // v: with v = 1 at row j+1 and scale * a below,
  //   t[q] = conj(c_q(j+1)) + scale * sum_{r >= j+2} conj(c_q(r)) a(r),
  // so the blocks sum over the unscaled column before scale is known. Every entry read
  // here is in the block's own rows, loaded or written above (plain loads: L1 hits).
  // Returns whether a sum this thread wrote is not finite.
  const int64_t nq = j + 1 < m ? 2 * j : 0;
  const auto block_dots = [&]() {
    bool bad = false;
    for (int64_t q0 = threadIdx.y; q0 < nq; q0 += kWarps * kQ) {
      const D* c[kQ];
#pragma unroll
      for (int i = 0; i < kQ; ++i) {
        const int64_t q = q0 + int64_t{i} * kWarps;
        c[i] = q >= nq ? nullptr : q < j ? W + q * ldw : Pn + (q - j) * ldp;
      }
      D s[kQ];
#pragma unroll
      for (int i = 0; i < kQ; ++i) s[i] = make_scalar<D>(0);
      tiles(j, [&](int64_t r) {
        if (r < j + 2 || r >= m) return;
        const D ar = col[r];
#pragma unroll
        for (int i = 0; i < kQ; ++i)
          if (c[i]) s[i] = mul_add(conj(c[i][r]), ar, s[i]);
      });
      write_warp_sums(s, q0, kWarps, nq, [&](int64_t q, D v) {
        partC[int64_t{blockIdx.x} * nq + q] = v;
        bad = bad || !isfinite(real_part(v)) || !isfinite(imag_part(v));
      });
    }
    return bad;
  };
  // The block's sums of squares and whether its dot products overflowed, for every block.
  const bool dots_bad = __syncthreads_or(block_dots());
  if (flat_thread() == 0) partB[blockIdx.x] = ColumnSums<R>{bs, dots_bad ? R(1) : R(0)};
  grid.sync();
  // The sums of squares over the blocks, in block order, in every block.
  __shared__ ColumnSums<R> col_shared;
  {
    ColumnSums<R> acc{SumSq<R>::zero(), R(0)};
    for (unsigned b = flat_thread(); b < G; b += kThreads) acc = acc + load_column_sums(partB + b);
    acc = block_sum(acc);
    if (flat_thread() == 0) col_shared = acc;
    __syncthreads();
  }
  const SumSq<R> ss = col_shared.sq;
  if (j + 1 >= m) {
    if (blockIdx.x == 0 && flat_thread() == 0) d[j] = real_part(__ldcg(col + j));
    return;
  }
  // beta, tau and the scale of v, the same in every block.
  const D alpha = __ldcg(alpha_copy);
  const R ar = real_part(alpha), ai = imag_part(alpha);
  // Without overflow or underflow (safe_reflector.hpp); H = I when x = 0, alpha real.
  R beta, tr, ti, sr, si;
  ::mgblas::kernels::detail::reflector_scalars<R>(ar, ai, ss.norm(), beta, tr, ti, sr, si);
  const D scale = make_scalar<D>(sr, si), tj = make_scalar<D>(tr, ti);
  if (blockIdx.x == 0 && flat_thread() == 0) {
    d[j] = real_part(__ldcg(col + j));
    e[j] = beta;
    tau[j] = tj;
    col[j + 1] = make_scalar<D>(1);  // the other blocks read alpha from the copy
  }
  // v scaled in place in the block's own rows.
  tiles(j, [&](int64_t r) {
    if (threadIdx.y == 0 && r >= j + 2 && r < m) col[r] = mul(col[r], scale);
  });
  // The sums over the unscaled column are exact up to rounding only where its products
  // neither overflow nor underflow: where the column has entries outside the unscaled
  // range of its norm's sums (below ~sqrt(tiny) or above ~sqrt(huge)) or a block's sum
  // overflowed, the blocks sum again over the scaled v (one more grid-wide barrier; the
  // decision is the same in every block). Ordinary matrices never take this path.
  const bool rescaled = nq > 0 && (ss.sml > R(0) || ss.big > R(0) || col_shared.bad > R(0));
  if (rescaled) {
    __syncthreads();  // warp 0's scaled rows visible to the block
    (void)block_dots();
    grid.sync();
  }
  for (int64_t i = int64_t{blockIdx.x} * kThreads + flat_thread(); i < a.acc_len;
       i += int64_t{G} * kThreads)
    acc[i] = make_scalar<D>(0);
  // t[q] = row j+1's term + scale * the blocks' sums in order (the sums over the scaled v
  // as they are, when rescaled); block b takes the columns q = b, b + G, ...
  // (W(j+1, j-1) came from the finish above, in another block).
  for (int64_t q = blockIdx.x; q < nq; q += G) {
    Sum<D> s{make_scalar<D>(0)};
    for (unsigned b = flat_thread(); b < G; b += kThreads)
      s = s + Sum<D>{__ldcg(partC + int64_t{b} * nq + q)};
    s = block_sum(s);
    if (flat_thread() == 0) {
      const D* cq = q < j ? W + q * ldw : Pn + (q - j) * ldp;
      const D head = conj(__ldcg(cq + j + 1));
      t[q] = rescaled ? add(s.v, head) : mul_add(scale, s.v, head);
    }
  }
}

// The co-resident grid for step_kernel on the current device (0: cooperative launch not
// possible), cached per device ordinal.
template <typename D>
int step_grid_limit() {
  static int limit[64] = {};
  static bool known[64] = {};
  int dev = 0;
  MGBLAS_CHECK_CUDA(cudaGetDevice(&dev));
  if (dev >= 64) return 0;
  if (!known[dev]) {
    int coop = 0, sms = 0, per_sm = 0;
    MGBLAS_CHECK_CUDA(cudaDeviceGetAttribute(&coop, cudaDevAttrCooperativeLaunch, dev));
    MGBLAS_CHECK_CUDA(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev));
    MGBLAS_CHECK_CUDA(cudaOccupancyMaxActiveBlocksPerMultiprocessor(
        &per_sm, step_kernel<D>, kThreads, 4 * kLatrdMaxPanel * sizeof(D)));
    // Two blocks per SM at most: more blocks add to every grid-wide sum.
    limit[dev] = coop ? sms * std::min(per_sm, 2) : 0;
    known[dev] = true;
  }
  return limit[dev];
}

// ---- store: the panel back into the owner's columns ---------------------------------
// blockIdx.y: column j; threads over rows r in [j, m).
template <typename D>
__global__ void __launch_bounds__(kThreads)
    store_kernel(int64_t m, const D* Pn, int64_t ldp, const device_real_t<D>* e, D* A, int64_t lda) {
  const int64_t j = blockIdx.y;
  for (int64_t r = j + int64_t{blockIdx.x} * blockDim.x + threadIdx.x; r < m;
       r += int64_t{gridDim.x} * blockDim.x)
    A[r + j * lda] = r == j + 1 ? make_scalar<D>(e[j]) : Pn[r + j * ldp];
}

// blockIdx.y: columns j (grid-stride); threads over rows.
template <typename D>
__global__ void __launch_bounds__(kThreads)
    reverse_kernel(int64_t m, int64_t n, const D* src, int64_t lds, D* dst, int64_t ldd) {
  for (int64_t j = blockIdx.y; j < n; j += gridDim.y)
    for (int64_t i = int64_t{blockIdx.x} * blockDim.x + threadIdx.x; i < m;
         i += int64_t{gridDim.x} * blockDim.x)
      dst[i + j * ldd] = src[(m - 1 - i) + (n - 1 - j) * lds];
}

unsigned blocks_for(int64_t rows) { return grid_dim(rows, kThreads, kMaxBlocks); }

// Blocks of kLanes rows over `rows` rows; past kMaxBlocks the partial sums would not fit
// in `work`: the drivers' panels stay far below (2^24 rows).
unsigned row_blocks(int64_t rows, int64_t per_block) {
  const int64_t b = ceil_div(rows < 1 ? 1 : rows, per_block);
  if (b > kMaxBlocks)
    MGBLAS_THROW(NotImplemented, "latrd: ", rows, " rows need more than ", kMaxBlocks,
                 " blocks of partial sums");
  return static_cast<unsigned>(b);
}

template <Scalar T>
void reflector(const Device& dev, cudaStream_t stream, bool herm, int64_t m, int64_t j, T* Pn,
               int64_t ldp, const T* W, int64_t ldw, real_type_t<T>* d, real_type_t<T>* e,
               T* tau, T* t, T* p, int64_t p_len, void* work) {
  using D = device_t<T>;
  dev.make_current();
  auto* wk = static_cast<unsigned char*>(work);
  const dim3 block(kLanes, kWarps);
  const std::size_t smem = 2 * static_cast<std::size_t>(j) * sizeof(D);
  reflector_kernel<D><<<row_blocks(m - j, kLanes), block, smem, stream>>>(
      herm, m, j, device_ptr(Pn), ldp, device_ptr(W), ldw, d, e, device_ptr(tau), wk);
  MGBLAS_CHECK_LAUNCH(stream);
  if (j + 1 >= m && p_len <= 0) return;
  const unsigned dot_blocks = row_blocks(m - j - 1, kDotRows);
  if (kPartials + std::size_t{dot_blocks} * 2 * j * sizeof(D) > kLatrdWorkBytes)
    MGBLAS_THROW(NotImplemented, "latrd: a panel of ", m, " rows and ", j,
                 " columns needs more than kLatrdWorkBytes of partial sums");
  dots_kernel<D><<<dot_blocks, block, 0, stream>>>(
      m, j, device_ptr(Pn), ldp, device_ptr(W), ldw, device_ptr(t), device_ptr(p), p_len, wk);
  MGBLAS_CHECK_LAUNCH(stream);
}

template <Scalar T>
void finish(const Device& dev, cudaStream_t stream, int64_t m, int64_t j, const T* Pn,
            int64_t ldp, T* W, int64_t ldw, const T* tau, const T* t, const T* p, void* work) {
  using D = device_t<T>;
  if (m - j - 1 <= 0) return;
  dev.make_current();
  auto* wk = static_cast<unsigned char*>(work);
  finish_kernel<D><<<row_blocks(m - j - 1, kLanes), dim3(kLanes, kWarps),
                     2 * static_cast<std::size_t>(j) * sizeof(D), stream>>>(
      m, j, device_ptr(Pn), ldp, device_ptr(W), ldw, device_ptr(tau), device_ptr(t),
      device_ptr(p), wk);
  MGBLAS_CHECK_LAUNCH(stream);
  axpy_kernel<D><<<blocks_for(m - j - 1), kThreads, 0, stream>>>(m, j, device_ptr(Pn), ldp,
                                                                 device_ptr(W), ldw, wk);
  MGBLAS_CHECK_LAUNCH(stream);
}

template <Scalar T>
void step(const Device& dev, cudaStream_t stream, bool herm, int64_t m, int64_t j, bool fin,
          bool reflect, T* Pn, int64_t ldp, T* W, int64_t ldw, real_type_t<T>* d,
          real_type_t<T>* e, T* tau, T* t, const T* p, const T* quad, T* acc, int64_t acc_len,
          void* work) {
  using D = device_t<T>;
  fin = fin && j > 0;
  dev.make_current();
  int limit = step_grid_limit<D>();
  // Test hook (common/debug_env.hpp): a smaller grid, so that small panels run the loops
  // over several tiles per block that only panels of more than 32 x (2 x SMs) rows reach
  // otherwise.
  if (const auto cap = common::latrd_step_blocks_override(); cap && limit > 0)
    limit = std::clamp(*cap, 1, limit);
  const int64_t rows = m - j;  // the longest row range of the phases
  const unsigned G = static_cast<unsigned>(std::min<int64_t>(limit, ceil_div(rows, kLanes)));
  const std::size_t need = kPartials + std::size_t{G} * (2 * sizeof(D) + kSumSqBytes) +
                           std::size_t{G} * 2 * j * sizeof(D);
  if (G == 0 || need > kLatrdWorkBytes || common::latrd_no_coop_override()) {
    // The separate launches (no co-residency guarantee, or forced for comparison).
    if (fin) finish<T>(dev, stream, m, j - 1, Pn, ldp, W, ldw, tau, t, p, work);
    if (reflect) reflector<T>(dev, stream, herm, m, j, Pn, ldp, W, ldw, d, e, tau, t, acc, acc_len, work);
    return;
  }
  StepArgs args{m, j, ldp, ldw, acc_len, herm, fin, reflect};
  D* Pd = device_ptr(Pn);
  D* Wd = device_ptr(W);
  D* taud = device_ptr(tau);
  D* td = device_ptr(t);
  const D* pd = device_ptr(p);
  D* accd = device_ptr(acc);
  const D* quadd = device_ptr(quad);
  unsigned char* wk = static_cast<unsigned char*>(work);
  void* params[] = {&args, &Pd, &Wd, &d, &e, &taud, &td, &pd, &quadd, &accd, &wk};
  // Shared: t of column j-1 and row j of [W V] (step_kernel).
  const std::size_t smem =
      static_cast<std::size_t>(std::max<int64_t>((fin ? 2 * (j - 1) : 0) + 2 * j, 1)) * sizeof(D);
  MGBLAS_CHECK_CUDA(cudaLaunchCooperativeKernel(reinterpret_cast<const void*>(&step_kernel<D>),
                                                dim3(G), dim3(kLanes, kWarps), params, smem,
                                                stream));
  MGBLAS_CHECK_LAUNCH(stream);
}

template <Scalar T>
void store(const Device& dev, cudaStream_t stream, int64_t m, int64_t b, const T* Pn,
           int64_t ldp, const real_type_t<T>* e, T* A, int64_t lda) {
  if (m <= 0 || b <= 0) return;
  dev.make_current();
  const dim3 grid(blocks_for(m), static_cast<unsigned>(b));
  store_kernel<device_t<T>><<<grid, kThreads, 0, stream>>>(m, device_ptr(Pn), ldp, e,
                                                            device_ptr(A), lda);
  MGBLAS_CHECK_LAUNCH(stream);
}

template <Scalar T>
void reverse(const Device& dev, cudaStream_t stream, int64_t m, int64_t n, const T* src,
             int64_t lds, T* dst, int64_t ldd) {
  if (m <= 0 || n <= 0) return;
  dev.make_current();
  const dim3 grid(blocks_for(m), static_cast<unsigned>(std::min<int64_t>(n, kMaxGridY)));
  reverse_kernel<device_t<T>><<<grid, kThreads, 0, stream>>>(m, n, device_ptr(src), lds,
                                                              device_ptr(dst), ldd);
  MGBLAS_CHECK_LAUNCH(stream);
}

}  // namespace

#define MGBLAS_CUDA_LATRD_(T)                                                          \
  MGBLAS_DECLARE_LATRD_REFLECTOR_KERNEL(T) {                                           \
    reflector<T>(dev, stream, herm, m, j, Pn, ldp, W, ldw, d, e, tau, t, p, p_len, work); \
  }                                                                                    \
  MGBLAS_DECLARE_LATRD_FINISH_KERNEL(T) {                                              \
    finish<T>(dev, stream, m, j, Pn, ldp, W, ldw, tau, t, p, work);                    \
  }                                                                                    \
  MGBLAS_DECLARE_LATRD_STEP_KERNEL(T) {                                                \
    step<T>(dev, stream, herm, m, j, finish, reflect, Pn, ldp, W, ldw, d, e, tau, t, p, quad, \
            acc, acc_len, work);                                                       \
  }                                                                                    \
  MGBLAS_DECLARE_LATRD_STORE_KERNEL(T) { store<T>(dev, stream, m, b, Pn, ldp, e, A, lda); } \
  MGBLAS_DECLARE_LATRD_REVERSE_KERNEL(T) {                                             \
    reverse<T>(dev, stream, m, n, src, lds, dst, ldd);                                 \
  }
MGBLAS_FOR_EACH_SCALAR(MGBLAS_CUDA_LATRD_)
#undef MGBLAS_CUDA_LATRD_

}  // namespace mgblas::kernels::cuda
