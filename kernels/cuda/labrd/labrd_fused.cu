// SPDX-License-Identifier: BSD-3-Clause
// CUDA engine of the bidiagonal reduction's fused row step (labrd_fused in
// kernels/labrd_kernels.hpp): A^H v, Y's finish, the row's update and A r from one read
// of the device's columns of A.
//
// Why it can be one read: the row entry r_q of column q needs only that column's entry
// of A^H v (and short products with the panel), so a column read for its dot can be
// applied to A r at once, while it is still on chip. A column of up to 32768 rows is too
// long for one block, so a cluster of kCluster blocks (sm_90) splits its rows. Each block
// streams tiles of kCols columns of its rows into shared memory through a kStages-deep
// pipeline of tensor-memory-access copies (TMA: one thread issues a tile as a few boxes
// and an mbarrier counts its bytes, so the threads spend no instructions on copying).
// Per tile, every block pushes its partial dot
// products into every other block's shared memory (st.async, counted by an mbarrier:
// no cluster-wide barrier, which would also wait for the copies in flight) and applies
// r to the tile it holds once the cluster's partials are in, having already pushed the
// next tile's. Clusters are persistent: cluster g takes the tiles g, g + G, ... and
// keeps its rows' share of A r in registers; a second, short kernel adds the G shares
// (and the clusters' sums against r) in cluster order, so the result does not depend
// on timing.
//
// The short products of a column (Y's finish and the row's update: up to 2 x 64 entries
// of Y and U^H per column) are split over the cluster's blocks and ride along with the
// dot product in the same cluster sum.
//
// Without clusters (built for or run on an older GPU), for columns longer than a cluster
// holds, or where TMA cannot address the columns (lda x element size not a multiple of
// 16 bytes; a DistMatrix's is always a multiple of 128), the step runs as the engine's
// gemv, labrd_row and gemv.
//
// Measured (bench/results/h100-gebrd-tma.md; the cp.async version before it in
// h200-h100-gebrd-one-pass.md): the first version copied each element with its own
// cp.async and moved about 1.4 TB/s (11 cycles per issued instruction, 47 instructions
// per element); with TMA the products of a 16384^2 gebrd on an H100 take 5.52 s instead
// of the two GEMVs' 8.37 s. Where the trailing matrix fits L2 the two GEMVs' second
// read comes from there, so gebrd_mgpu runs this step only above
// GebrdOptions::one_pass_min_bytes per device.
// On an H200 the step read at about half the bandwidth (2.4 TB/s), bound by its
// instructions per tile, not by memory or the cluster exchange; a deeper pipeline with
// smaller tiles was slower (bench/results/h200-reductions-profile.md). Summing a tile's
// partials four per butterfly instead of one warp sum each cut the products of a 16384^2
// gebrd on an H200 from 5.26 to 3.93 s (bench/results/h200-panel-sums.md).
#include <cooperative_groups.h>
#include <cuda.h>  // CUtensorMap and its encoder's types (the encoder comes from the runtime)
#include <cudaTypedefs.h>

#include <cuda/ptx>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <mutex>

#include "core/detail/cuda_check.hpp"
#include "kernels/cuda/common/block_sums.cuh"
#include "kernels/cuda/common/device_scalar.cuh"
#include "kernels/gemv_kernels.hpp"
#include "kernels/labrd_kernels.hpp"

namespace mgblas::kernels::cuda {
namespace {

using namespace common;

// Blocks per cluster (the portable maximum), threads per block.
constexpr int kCluster = 8, kThreads = 256, kThreadWarps = kThreads / 32;
// Where the clusters' shares go in `work` (after labrd.cu's counters and scalars, which
// this step does not touch).
constexpr std::size_t kShares = 4096;
// Rows per thread: a power of two up to kMaxRows<D>; a cluster holds kCluster x kThreads x
// that many rows of a column.
template <typename D> constexpr int kMaxRows = sizeof(D) >= 16 ? 8 : 16;
// Tiles in flight per block, and columns per tile: as many as keep a stage (a tile's
// rows of this block) within 32 KiB, 1..4: two blocks fit an SM.
constexpr int kStages = 3, kRecv = 4;
constexpr int kStageBytes = 32 << 10;
template <typename D, int Rows>
constexpr int kCols = std::clamp(kStageBytes / (Rows * kThreads * static_cast<int>(sizeof(D))), 1, 4);
template <typename D, int Rows>
constexpr std::size_t kSmemBytes = std::size_t{kStages} * kCols<D, Rows> * Rows * kThreads * sizeof(D) + 128;

// TMA moves A in 8-byte units (4-byte for float), in boxes of kBoxUnits units of one
// column by the tile's columns: kBoxRows<D> rows of each.
constexpr int kBoxUnits = 256;
template <typename D> constexpr int kUnit = sizeof(D) == 4 ? 4 : 8;
template <typename D> constexpr int kBoxRows = kBoxUnits * kUnit<D> / static_cast<int>(sizeof(D));

template <typename D>
struct FusedArgs {
  CUtensorMap tmap;  // A's columns as units x columns, from the 16-byte boundary at or before A
  int32_t x0;        // A's first row in that map (0 where A is on a 16-byte boundary)
  int64_t md, nq, q0, lda, ldy, ldv, ldxr, fix, ju, ldz;
  const D* v;       // the column reflector, md entries
  D* A;             // A(c, first column): the row, then the rows below it
  D* Y;             // Y's rows of these columns (column fix is written)
  const D* Ut;      // Ut's rows of these columns
  const D* s;       // Y's corrections: [0, fix) against Y, [fix, fix + ju) against Ut
  const D* tau_y;   // the column reflector's tau
  const D* vrow;    // the panel's row c of V (stride ldv) and of X (stride ldxr)
  const D* xrow;
  D* zshare;        // [cluster][md - 1]: each cluster's share of A r (ld ldz)
  D* qshare;        // [cluster][jy + ju + 3]: its share of Y^H r, Ut^H r and |r|^2 (three
                    // sums: kernels/detail/safe_reflector.hpp)
};

// Waits for the phase of `parity` of an mbarrier in this block's shared memory; a copy or
// partial that never arrives traps (an error the caller sees) rather than hangs.
__device__ __forceinline__ void wait_parity(uint64_t* bar, uint32_t parity) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  for (long spin = 0; !::cuda::ptx::mbarrier_try_wait_parity(bar, parity);)
    if (++spin > (1L << 26)) __trap();
#endif
}

// v into the shared memory of a block of the cluster (remote: from map_shared_rank),
// completing bytes on that block's mbarrier rbar (st.async: no fence, no wait).
template <typename D>
__device__ __forceinline__ void push_async(D* remote, D v, uint64_t* rbar) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  if constexpr (sizeof(D) == 16) {
    double* w = reinterpret_cast<double*>(remote);
    ::cuda::ptx::st_async(w, v.x, rbar);
    ::cuda::ptx::st_async(w + 1, v.y, rbar);
  } else if constexpr (sizeof(D) == 8) {
    ::cuda::ptx::st_async(reinterpret_cast<uint64_t*>(remote), *reinterpret_cast<const uint64_t*>(&v), rbar);
  } else {
    ::cuda::ptx::st_async(reinterpret_cast<uint32_t*>(remote), *reinterpret_cast<const uint32_t*>(&v), rbar);
  }
#endif
}

template <typename D, int Rows>
__global__ void __launch_bounds__(kThreads, 2) fused_kernel(const __grid_constant__ FusedArgs<D> a) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  namespace ptx = ::cuda::ptx;
  constexpr int BC = kCols<D, Rows>;
  constexpr int NV = 3 * BC;  // per column: A^H v, Y's correction f, the row's h
  constexpr int kStage = BC * Rows * kThreads;  // elements of a stage
  constexpr int RB = kBoxRows<D>, kBoxes = Rows * kThreads / RB;  // a stage's boxes
  using R = device_real_t<D>;
  auto cluster = cooperative_groups::this_cluster();
  const int rank = static_cast<int>(cluster.block_rank());
  const int64_t g = blockIdx.x / kCluster, G = gridDim.x / kCluster;
  const int tid = threadIdx.x, lane = tid & 31, warp = tid >> 5;
  // Every block's partials of a tile land in recv[b][its rank] of every block (st.async),
  // each buffer b with its mbarrier; see the loop for why kRecv = 4.
  __shared__ D recv[kRecv][kCluster][NV];
  __shared__ uint64_t bar[kRecv];
  __shared__ uint64_t full[kStages];  // a stage's tile has landed (TMA's byte count)
  __shared__ D wred[kThreadWarps][NV];  // warp sums
  __shared__ D rcol[BC], ycol[BC];      // per column of the tile: r (0 outside q0..nq), Y(q, fix)
  extern __shared__ __align__(128) unsigned char smem_raw[];
  // Stage s holds kBoxes boxes of RB rows x BC columns, each column's rows contiguous:
  // this thread's row slot k of column c is st[s * kStage + k * kThreads * BC + c * RB + toff].
  // TMA writes to 128-byte boundaries (kSmemBytes has room for the rounding); the offset
  // is added to smem_raw itself so that the compiler keeps shared-memory loads (through
  // an integer address they became generic loads).
  const auto pad = (128 - static_cast<unsigned>(__cvta_generic_to_shared(smem_raw)) % 128) % 128;
  D* st = reinterpret_cast<D*>(smem_raw + pad);
  const int toff = (tid / RB) * RB * BC + tid % RB;
  const auto at = [&](const D* stage, int c, int k) -> const D& {
    return stage[k * kThreads * BC + c * RB + toff];
  };

  const int64_t jy = a.fix + 1, L = jy + a.ju;
  // This thread's entry of the short products: column pc of the tile, entry pl of
  // [Y(q, 0:jy) | Ut(q, 0:ju)] (the blocks split the entries, BC threads per entry).
  const int64_t Lk = (L + kCluster - 1) / kCluster;
  const int pc = tid % BC;
  const int64_t pl = rank * Lk + tid / BC;
  const bool pair = tid < BC * Lk && pl < L;
  const D* psrc = nullptr;
  D cf = make_scalar<D>(0), ch = make_scalar<D>(0);  // its coefficients in f and in h
  if (pair) {
    if (pl < a.fix) {
      psrc = a.Y + pl * a.ldy;
      cf = a.s[pl];
      ch = conj(a.vrow[pl * a.ldv]);
    } else if (pl >= jy) {
      const int64_t u = pl - jy;
      psrc = a.Ut + u * a.ldy;
      cf = a.s[a.fix + u];
      ch = conj(a.xrow[u * a.ldxr]);
    }  // pl == fix: the column being finished, known after the sum
  }
  const D tau = *a.tau_y, cfix = conj(a.vrow[a.fix * a.ldv]);

  // This thread's rows: rank's slab of kThreads x Rows rows, lanes on consecutive rows.
  // TMA boxes must start on 16-byte boundaries, so the slabs are laid on the map's rows,
  // which start x0 rows above A: the first x0 threads of rank 0 hold rows above A (r < 0,
  // read from memory but never used) and the cluster holds x0 fewer rows of A.
  const int64_t r0 = int64_t{rank} * kThreads * Rows + tid - a.x0;
  D vv[Rows], z[Rows];
#pragma unroll
  for (int k = 0; k < Rows; ++k) {
    const int64_t r = r0 + int64_t{k} * kThreads;
    vv[k] = r >= 0 && r < a.md ? a.v[r] : make_scalar<D>(0);
    z[k] = make_scalar<D>(0);
  }
  D qacc = make_scalar<D>(0);  // this pair's share of Y^H r or Ut^H r
  SumSq<R> ssacc = SumSq<R>::zero();  // |r|^2 (rank 0, threads < BC)
  const int64_t ntiles = a.nq <= g * BC ? 0 : ceil_div(ceil_div(a.nq, BC) - g, G);

  // Tile i of this cluster (columns (g + i G) BC ...), this block's rows, into stage
  // i % kStages: thread 0 issues the boxes and tells full[] how many bytes to expect.
  // Columns past nq and rows past md arrive as zeros, except boxes that start past md:
  // TMA faults on a box wholly outside the tensor, so those are never loaded, and their
  // shared memory is zeroed once below.
  const int live = static_cast<int>(std::clamp<int64_t>(
      ceil_div(a.md + a.x0 - int64_t{rank} * kThreads * Rows, int64_t{RB}), 0, kBoxes));
  const auto issue = [&](int64_t i) {
    if (tid != 0 || i >= ntiles) return;
    D* dst = st + (i % kStages) * kStage;
    uint64_t* fb = &full[i % kStages];
    ptx::mbarrier_arrive_expect_tx(ptx::sem_release, ptx::scope_cta, ptx::space_shared, fb,
                                   static_cast<uint32_t>(live * RB * BC * sizeof(D)));
    const int32_t col = static_cast<int32_t>((g + i * G) * BC);
    constexpr int32_t kUnitsPerRow = sizeof(D) / kUnit<D>;
    for (int b = 0; b < live; ++b) {
      const int32_t x = (rank * kThreads * Rows + b * RB) * kUnitsPerRow;
      const int32_t xy[2] = {x, col};
      ptx::cp_async_bulk_tensor(ptx::space_cluster, ptx::space_global, dst + b * RB * BC, &a.tmap,
                                xy, fb);
    }
  };
  // Every thread waits for tile i's bytes before reading its stage.
  const auto landed = [&](int64_t i) {
    const uint32_t parity = static_cast<uint32_t>((i / kStages) & 1);
    wait_parity(&full[i % kStages], parity);
  };
  const auto pair_entry = [&](int64_t i) {
    const int64_t q = (g + i * G) * BC + pc;
    return pair && psrc && i < ntiles && q < a.nq ? psrc[q] : make_scalar<D>(0);
  };
  // Tile i's partials of this block (its rows' dots; f and h where it holds pairs or row
  // c), summed over the block and pushed into recv[i % kRecv][rank] of every block.
  const auto push_partials = [&](int64_t i, D pv) {
    const D* buf = st + (i % kStages) * kStage;
    const int b = static_cast<int>(i % kRecv);
    D part[NV];
#pragma unroll
    for (int c = 0; c < BC; ++c) {
      D dot = make_scalar<D>(0);
#pragma unroll
      for (int k = 0; k < Rows; ++k) dot = mul_add(conj(at(buf, c, k)), vv[k], dot);
      part[c] = dot;
      part[BC + c] = pair && pc == c ? mul(cf, pv) : make_scalar<D>(0);
      D h = pair && pc == c ? neg(mul(pv, ch)) : make_scalar<D>(0);
      if (r0 == 0) h = add(h, conj(at(buf, c, 0)));  // row c itself (rank 0, thread x0)
      part[2 * BC + c] = h;
    }
    // The NV sums leave the warp four at a time through a transposing butterfly
    // (block_sums.cuh): 5 shuffles per four sums, where one warp sum per value took 20.
    // (Eight or sixteen at once put the array in local memory.) Warps that hold no short
    // product and not row c sum zeros for f and h.
    const bool short_warp = warp * 32 < BC * Lk || (rank == 0 && warp == 0);
#pragma unroll
    for (int v0 = 0; v0 < NV; v0 += 4) {
      D sums[4];
#pragma unroll
      for (int i = 0; i < 4; ++i) {
        const int v = v0 + i;
        sums[i] = v < BC || (v < NV && short_warp) ? part[v < NV ? v : 0] : make_scalar<D>(0);
      }
      write_warp_sums(sums, v0, 1, NV, [&](int64_t v, D w) { wred[warp][v] = w; });
    }
    __syncthreads();
    if (tid == 0)  // this block's arrival for the tile; the bytes come from the cluster
      ptx::mbarrier_arrive_expect_tx(ptx::sem_relaxed, ptx::scope_cta, ptx::space_shared, &bar[b],
                                     static_cast<uint32_t>(kCluster * NV * sizeof(D)));
    if (tid < NV) {
      D sum = make_scalar<D>(0);
      for (int w = 0; w < kThreadWarps; ++w) sum = add(sum, wred[w][tid]);
      for (int k = 0; k < kCluster; ++k)
        push_async(cluster.map_shared_rank(&recv[b][rank][tid], k), sum,
                   cluster.map_shared_rank(&bar[b], k));
    }
  };
  // Tile i once the cluster's partials are in: r and Y(q, fix), then A r from the stage.
  const auto apply = [&](int64_t i, D pv) {
    const D* buf = st + (i % kStages) * kStage;
    const int b = static_cast<int>(i % kRecv);
    const int64_t qt = (g + i * G) * BC;
    if (tid < BC) {
      const uint32_t parity = static_cast<uint32_t>((i / kRecv) & 1);
      wait_parity(&bar[b], parity);
      D y = make_scalar<D>(0), f = make_scalar<D>(0), h = make_scalar<D>(0);
#pragma unroll
      for (int k = 0; k < kCluster; ++k) {  // rank order: the same bits in every block
        y = add(y, recv[b][k][tid]);
        f = add(f, recv[b][k][BC + tid]);
        h = add(h, recv[b][k][2 * BC + tid]);
      }
      const int64_t q = qt + tid;
      const D yq = mul(tau, sub(y, f));
      const D r = sub(h, mul(yq, cfix));
      const bool in = q < a.nq;
      rcol[tid] = in && q >= a.q0 ? r : make_scalar<D>(0);
      ycol[tid] = yq;
      if (rank == 0 && in) {
        a.Y[q + a.fix * a.ldy] = yq;
        a.A[q * a.lda] = r;  // its old value was copied into the stage
        if (q >= a.q0) add_squares(ssacc, r);
      }
    }
    __syncthreads();
#pragma unroll
    for (int k = 0; k < Rows; ++k)
#pragma unroll
      for (int c = 0; c < BC; ++c) z[k] = mul_add(at(buf, c, k), rcol[c], z[k]);
    if (pair) qacc = mul_add(conj(pl == a.fix ? ycol[pc] : pv), rcol[pc], qacc);
    __syncthreads();  // rcol and ycol are rewritten by the next tile; the stage is free
  };

  for (int s = 0; s < kStages; ++s)  // the boxes past md, never loaded, read as zeros
    for (int e = live * RB * BC + tid; e < kStage; e += kThreads) st[s * kStage + e] = make_scalar<D>(0);
  if (tid == 0) {
    for (int b = 0; b < kRecv; ++b) ptx::mbarrier_init(&bar[b], 1);
    for (int s = 0; s < kStages; ++s) ptx::mbarrier_init(&full[s], 1);
    ptx::fence_mbarrier_init(ptx::sem_release, ptx::scope_cluster);  // for the cluster's st.async
    ptx::fence_proxy_async(ptx::space_shared);  // for the TMA unit (the async proxy)
  }
  cluster.sync();  // every block has started and initialised its barriers
  // Software pipeline: tile i + 1's partials are pushed before tile i is applied, so a
  // block waits for the cluster's sums of a tile only after it has worked a tile ahead;
  // kStages tiles of A in shared memory (applied, pushed, loading). A block may push
  // tile i + 3 only after every block has pushed i + 2, which each does after applying
  // tile i: four receive buffers are never overwritten before they are read.
  for (int64_t i = 0; i < kStages; ++i) issue(i);
  D pv = pair_entry(0), pv_next = pair_entry(1);
  if (ntiles > 0) {
    landed(0);
    push_partials(0, pv);
  }
  for (int64_t i = 0; i < ntiles; ++i) {  // the same trip count in every block of the cluster
    const D pv_after = pair_entry(i + 2);
    if (i + 1 < ntiles) {
      landed(i + 1);
      push_partials(i + 1, pv_next);
    }
    apply(i, pv);        // ends with a block barrier: no thread reads tile i's stage again
    issue(i + kStages);  // into the stage tile i held
    pv = pv_next;
    pv_next = pv_after;
  }
  // Every tile issued was waited for, so no copy outlives the block; the barrier keeps
  // every block alive while another may still push into its shared memory.
  cluster.sync();

  D* zs = a.zshare + g * a.ldz;
#pragma unroll
  for (int k = 0; k < Rows; ++k) {
    const int64_t r = r0 + int64_t{k} * kThreads;
    if (r >= 1 && r < a.md) zs[r - 1] = z[k];  // row c itself is not part of A r
  }
  D* qs = a.qshare + g * (L + LabrdSums::kSumSquares);
  if (warp * 32 < BC * Lk) {  // warps holding pairs: sum each entry over its BC columns
    D w = qacc;
    if constexpr (BC > 1) w = lane_group_sum<BC>(qacc);
    if (pair && pc == 0) qs[pl] = w;
  }
  if (rank == 0 && warp == 0) {
    const R w0 = lane_group_sum<32>(ssacc.sml), w1 = lane_group_sum<32>(ssacc.med);
    const R w2 = lane_group_sum<32>(ssacc.big);
    if (lane == 0) {
      qs[L] = make_scalar<D>(w0);
      qs[L + 1] = make_scalar<D>(w1);
      qs[L + 2] = make_scalar<D>(w2);
    }
  }
#else
  __trap();  // launched only on sm_90 and later (resident_clusters is 0 elsewhere)
#endif
}

// The clusters' shares added in cluster order, and the head's entries: sums[z], the
// short sums and, from the head's owner (zeros elsewhere), alpha, a1, y1, u1.
template <typename D>
__global__ void __launch_bounds__(kThreads)
    fused_sums_kernel(LabrdSums S, int64_t G, const D* zshare, int64_t ldz, const D* qshare,
                      bool owns_head, const D* A, int64_t lda, const D* Y, const D* Ut,
                      int64_t ldy, D* sums) {
  const int64_t L = S.jy + S.ju;
  const int64_t stride = int64_t{gridDim.x} * kThreads;
  for (int64_t i = int64_t{blockIdx.x} * kThreads + threadIdx.x; i < S.m1; i += stride) {
    D acc = make_scalar<D>(0);
    for (int64_t g = 0; g < G; ++g) acc = add(acc, zshare[g * ldz + i]);
    sums[S.z() + i] = acc;
    sums[S.a1() + i] = owns_head ? A[1 + i] : make_scalar<D>(0);
  }
  if (blockIdx.x != 0) return;
  const int64_t np = L + LabrdSums::kSumSquares;
  for (int64_t l = threadIdx.x; l < np; l += kThreads) {
    D acc = make_scalar<D>(0);
    for (int64_t g = 0; g < G; ++g) acc = add(acc, qshare[g * np + l]);
    if (l < S.jy) sums[S.q1() + l] = acc;
    else if (l < L) sums[S.q2() + l - S.jy] = acc;
    else sums[S.ss() + l - L] = make_scalar<D>(real_part(acc));
    if (l < S.jy) sums[S.y1() + l] = owns_head ? conj(Y[l * ldy]) : make_scalar<D>(0);
    else if (l < L) sums[S.u1() + l - S.jy] = owns_head ? conj(Ut[(l - S.jy) * ldy]) : make_scalar<D>(0);
  }
  if (threadIdx.x == 0) sums[S.alpha()] = owns_head ? A[0] : make_scalar<D>(0);
}

// The launch configuration of fused_kernel<D, Rows> on `clusters` clusters (its
// attribute lives beside it, so it is neither copied nor moved).
template <typename D, int Rows>
struct ClusterLaunch {
  cudaLaunchConfig_t cfg = {};
  cudaLaunchAttribute attr = {};
  ClusterLaunch(int64_t clusters, cudaStream_t stream) {
    attr.id = cudaLaunchAttributeClusterDimension;
    attr.val.clusterDim.x = kCluster;
    attr.val.clusterDim.y = 1;
    attr.val.clusterDim.z = 1;
    cfg.gridDim = dim3(static_cast<unsigned>(clusters * kCluster));
    cfg.blockDim = dim3(kThreads);
    cfg.dynamicSmemBytes = kSmemBytes<D, Rows>;
    cfg.stream = stream;
    cfg.attrs = &attr;
    cfg.numAttrs = 1;
  }
  ClusterLaunch(const ClusterLaunch&) = delete;
  ClusterLaunch& operator=(const ClusterLaunch&) = delete;
};

// Clusters of fused_kernel<D, Rows> that fit on the current device at once
// (0: none), cached per device ordinal.
template <typename D, int Rows>
int64_t resident_clusters() {
  static std::mutex mu;
  static int known[64] = {};
  static int64_t count[64] = {};
  int dev = 0;
  MGBLAS_CHECK_CUDA(cudaGetDevice(&dev));
  if (dev >= 64) return 0;
  std::lock_guard<std::mutex> lock(mu);
  if (!known[dev]) {
    int major = 0;
    MGBLAS_CHECK_CUDA(cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, dev));
    int clusters = 0;
    if (major >= 9) {
      const ClusterLaunch<D, Rows> launch(1, nullptr);
      const auto kernel = fused_kernel<D, Rows>;
      if (cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
                               static_cast<int>(kSmemBytes<D, Rows>)) != cudaSuccess ||
          cudaOccupancyMaxActiveClusters(&clusters, kernel, &launch.cfg) != cudaSuccess) {
        (void)cudaGetLastError();  // no cluster launch here: the fallback runs
        clusters = 0;
      }
    }
    count[dev] = clusters;
    known[dev] = 1;
  }
  return count[dev];
}

template <typename D, int Rows>
void launch_fused(cudaStream_t stream, const FusedArgs<D>& a, int64_t clusters) {
  const ClusterLaunch<D, Rows> launch(clusters, stream);
  MGBLAS_CHECK_CUDA(cudaLaunchKernelEx(&launch.cfg, fused_kernel<D, Rows>, a));
}

// The driver's tensor-map encoder, through the runtime (no link against libcuda);
// null where the driver has none.
PFN_cuTensorMapEncodeTiled_v12000 tensor_map_encoder() {
  static const PFN_cuTensorMapEncodeTiled_v12000 fn = [] {
    void* f = nullptr;
    cudaDriverEntryPointQueryResult found{};
    if (cudaGetDriverEntryPointByVersion("cuTensorMapEncodeTiled", &f, 12000, cudaEnableDefault,
                                         &found) != cudaSuccess ||
        found != cudaDriverEntryPointSuccess) {
      (void)cudaGetLastError();
      f = nullptr;
    }
    return reinterpret_cast<PFN_cuTensorMapEncodeTiled_v12000>(f);
  }();
  return fn;
}

// a.tmap: the md + x0 rows x nq columns from x0 rows above a.A (ld a.lda), in boxes of
// BC columns; false where TMA cannot address them (then nothing is launched).
template <typename D, int BC>
bool encode_columns(FusedArgs<D>& a) {
  const auto encode = tensor_map_encoder();
  constexpr uint64_t unit = kUnit<D>;
  const auto addr = reinterpret_cast<uintptr_t>(a.A);
  const uint64_t stride = static_cast<uint64_t>(a.lda) * sizeof(D);
  if (!encode || stride % 16 != 0 || stride >= (uint64_t{1} << 40) || a.nq > (int64_t{1} << 31))
    return false;
  const cuuint64_t dim[2] = {static_cast<cuuint64_t>(a.md + a.x0) * (sizeof(D) / unit),
                             static_cast<cuuint64_t>(a.nq)};
  const cuuint64_t strides[1] = {stride};
  const cuuint32_t box[2] = {kBoxUnits, BC}, step[2] = {1, 1};
  return encode(&a.tmap, unit == 4 ? CU_TENSOR_MAP_DATA_TYPE_FLOAT32 : CU_TENSOR_MAP_DATA_TYPE_FLOAT64,
                2, reinterpret_cast<void*>(addr - addr % 16), dim, strides, box, step,
                CU_TENSOR_MAP_INTERLEAVE_NONE, CU_TENSOR_MAP_SWIZZLE_NONE,
                CU_TENSOR_MAP_L2_PROMOTION_L2_256B, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE) == CUDA_SUCCESS;
}

// Runs the fused kernel with Rows rows per thread when it fits this device and the
// workspace; false when it does not (nothing launched).
template <typename D, int Rows>
bool try_fused(cudaStream_t stream, FusedArgs<D> a, LabrdSums S, void* work, int64_t& G) {
  constexpr int BC = kCols<D, Rows>;
  const int64_t resident = resident_clusters<D, Rows>();
  if (resident <= 0 || !encode_columns<D, BC>(a)) return false;
  const int64_t per_cluster =
      (a.md - 1 + (S.jy + S.ju + LabrdSums::kSumSquares)) * static_cast<int64_t>(sizeof(D));
  const int64_t room = static_cast<int64_t>(kLabrdWorkBytes - kShares) / per_cluster;
  G = std::min({resident, ceil_div(a.nq, BC), room});
  if (G <= 0) return false;
  a.ldz = std::max<int64_t>(1, a.md - 1);
  unsigned char* base = static_cast<unsigned char*>(work) + kShares;
  a.zshare = reinterpret_cast<D*>(base);
  a.qshare = reinterpret_cast<D*>(base + G * a.ldz * static_cast<int64_t>(sizeof(D)));
  launch_fused<D, Rows>(stream, a, G);
  return true;
}

template <typename D, int Rows = 1>
bool dispatch_rows(cudaStream_t stream, const FusedArgs<D>& a, LabrdSums S, void* work,
                   int64_t& G) {
  if constexpr (Rows > kMaxRows<D>) {
    return false;
  } else {
    if (a.md + a.x0 <= int64_t{kCluster} * kThreads * Rows)
      return try_fused<D, Rows>(stream, a, S, work, G);
    return dispatch_rows<D, Rows * 2>(stream, a, S, work, G);
  }
}

template <Scalar T>
void fused(const Device& dev, cudaStream_t stream, int64_t nq, const T* v, T* Y, const T* Ut,
           int64_t ldy, const T* s, const T* tau_y, LabrdSums S, const T* vrow, int64_t ldv,
           const T* xrow, int64_t ldxr, T* row, int64_t lda, bool owns_head, T* sums, void* work) {
  using D = device_t<T>;
  dev.make_current();
  const int64_t md = S.m1 + 1, fix = S.jy - 1;
  const int64_t q0 = owns_head ? 1 : 0;
  int64_t G = 0;
  bool done = nq == 0;  // no columns: only the (zero) sums below
  if (!done) {
    FusedArgs<D> a{};
    a.md = md;
    a.nq = nq;
    a.q0 = q0;
    a.lda = lda;
    a.ldy = ldy;
    a.ldv = ldv;
    a.ldxr = ldxr;
    a.fix = fix;
    a.ju = S.ju;
    a.v = device_ptr(v);
    a.A = device_ptr(row);
    a.Y = device_ptr(Y);
    a.Ut = device_ptr(Ut);
    a.s = device_ptr(s);
    a.tau_y = device_ptr(tau_y);
    a.vrow = device_ptr(vrow);
    a.xrow = device_ptr(xrow);
    // The map starts at the 16-byte boundary at or before A: x0 whole rows above it (the
    // rows above A in its column: a DistMatrix's columns start on 128-byte boundaries).
    const auto misalign = reinterpret_cast<uintptr_t>(a.A) % 16;
    a.x0 = static_cast<int32_t>(misalign / sizeof(D));
    if (misalign % sizeof(D) == 0) done = dispatch_rows<D>(stream, a, S, work, G);
  }
  if (!done) {
    // The unfused steps: Y's raw column, labrd_row, then A u after the head.
    ::mgblas::kernels::cuda::gemv(dev, stream, Op::C, md, nq, T(1), row, lda, v, 1, T(0),
                                  Y + fix * ldy, 1);
    ::mgblas::kernels::cuda::labrd_row(dev, stream, nq, Y, const_cast<T*>(Ut), ldy, fix, S.ju, s,
                                       tau_y, true, S, vrow, ldv, xrow, ldxr, row, lda,
                                       owns_head, owns_head ? row + 1 : nullptr, sums, work);
    const int64_t nx = nq - q0;
    if (S.m1 > 0 && nx > 0) {
      ::mgblas::kernels::cuda::gemv(dev, stream, Op::N, S.m1, nx, T(1), row + 1 + q0 * lda, lda,
                                    row + q0 * lda, lda, T(0), sums + S.z(), 1);
    } else if (S.m1 > 0) {
      MGBLAS_CHECK_CUDA(cudaMemsetAsync(sums + S.z(), 0, static_cast<std::size_t>(S.m1) * sizeof(T),
                                        stream));
    }
    return;
  }
  const unsigned blocks = grid_dim(S.m1, kThreads, 1024);
  const unsigned char* base = static_cast<const unsigned char*>(work) + kShares;
  const int64_t ldz = std::max<int64_t>(1, md - 1);
  fused_sums_kernel<D><<<blocks, kThreads, 0, stream>>>(
      S, G, reinterpret_cast<const D*>(base),  ldz,
      reinterpret_cast<const D*>(base + G * ldz * static_cast<int64_t>(sizeof(D))), owns_head,
      device_ptr(static_cast<const T*>(row)), lda, device_ptr(static_cast<const T*>(Y)),
      device_ptr(Ut), ldy, device_ptr(sums));
  MGBLAS_CHECK_LAUNCH(stream);
}

}  // namespace

#define MGBLAS_CUDA_LABRD_FUSED_(T)                                                       \
  MGBLAS_DECLARE_LABRD_FUSED_KERNEL(T) {                                                  \
    fused<T>(dev, stream, nq, v, Y, Ut, ldy, s, tau_y, S, vrow, ldv, xrow, ldxr, row, lda, \
             owns_head, sums, work);                                                      \
  }
MGBLAS_FOR_EACH_SCALAR(MGBLAS_CUDA_LABRD_FUSED_)
#undef MGBLAS_CUDA_LABRD_FUSED_

}  // namespace mgblas::kernels::cuda
