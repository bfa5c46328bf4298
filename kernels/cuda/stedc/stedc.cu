// SPDX-License-Identifier: BSD-3-Clause
// CUDA engine of the tridiagonal eigenpairs (kernels/stedc_kernels.hpp): Cuppen's divide
// and conquer down to blocks of order 1, merged level by level, every merge of a level at
// once:
//   1. the GPU gathers each merge's z (the rows of its halves' eigenvectors that meet
//      the coupling) and the host deflates (kernels/detail/rank_one_merge.hpp; O(m) data
//      but sequential, as in ?laed2);
//   2. the GPU solves the secular equations (one thread per root) and the host merges the
//      new eigenvalues with the deflated ones into ascending order;
//   3. the GPU forms each merge's m x m W = S [U 0; 0 I] P (S the deflation's rotations,
//      U Gu and Eisenstat's eigenvectors, P the ascending order) and multiplies the
//      halves' eigenvectors by it: [Q1 0; 0 Q2] W = [Q1 W_top; Q2 W_bottom], two GEMMs
//      (batched over the level's merges of one shape) that skip the zero blocks.
// Two n x n buffers alternate by level and a third holds the level's W, 3 n^2 reals of
// device memory in all (2 n^2 when Z is real and wanted whole: it is one of the two). A
// window of columns il..iu-1 costs less: the root's W and its product, the largest of
// all, have only iu - il columns. An empty window (eigenvalues only) keeps only each
// block's first and last rows, all a merge reads (its z), and step 3 makes the merged
// block's two rows from them (one pass over W's entries, never stored): O(n) memory and
// O(n^2) work, like the secular equations.
#include <cuda_runtime.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cmath>
#include <cstdint>
#include <functional>
#include <map>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

#include "core/detail/cuda_check.hpp"
#include "core/memory.hpp"
#include "kernels/cuda/common/block_sums.cuh"
#include "kernels/cuda/common/cublas.hpp"
#include "kernels/cuda/common/debug_env.hpp"
#include "kernels/detail/rank_one_merge.hpp"
#include "kernels/stedc_kernels.hpp"

namespace mgblas::kernels::cuda {
namespace stedc {

using detail::MergeRotation;

constexpr int kThreads = 256;

// One merge of a level: the block [s, s + m) of T, split at s + n1, and where its part of
// the level's flat arrays begins.
template <typename R>
struct Merge {
  int64_t s, m, n1;
  int64_t koff, k;     // its undeflated pairs
  int64_t woff;        // its W (m x cols, leading dimension m)
  int64_t c0, cols;    // W's columns: output pairs c0 .. c0 + cols - 1 (0 .. m - 1 but
                       // at the root of a window)
  int64_t roff, nrot;  // its rotations
  R rho, sign;         // the normalised coupling; the sign of e at the split
};

unsigned blocks_for(int64_t count) {
  return static_cast<unsigned>(std::min<int64_t>((count + kThreads - 1) / kThreads, 1 << 20));
}

// x[0..n) = 1.
template <typename R>
__global__ void set_ones(int64_t n, R* x) {
  for (int64_t j = blockIdx.x * int64_t{blockDim.x} + threadIdx.x; j < n;
       j += int64_t{gridDim.x} * blockDim.x)
    x[j] = R(1);
}

// Q(row0 + j, j) = 1 for j < count.
template <typename R>
__global__ void set_diagonal(int64_t count, R* Q, int64_t ld, int64_t row0) {
  for (int64_t j = blockIdx.x * int64_t{blockDim.x} + threadIdx.x; j < count;
       j += int64_t{gridDim.x} * blockDim.x)
    Q[(row0 + j) + j * ld] = R(1);
}

// z[p] for every position p of a merge: the last row of the first half's eigenvectors,
// then sign times the first row of the second half's.
template <typename R>
__global__ void gather_z(int64_t n, const Merge<R>* merges, const int* node_of, const R* Q,
                         int64_t ld, R* z) {
  for (int64_t p = blockIdx.x * int64_t{blockDim.x} + threadIdx.x; p < n;
       p += int64_t{gridDim.x} * blockDim.x) {
    const int node = node_of[p];
    if (node < 0) continue;
    const Merge<R> g = merges[node];
    const int64_t j = p - g.s;
    z[p] = j < g.n1 ? Q[(g.s + g.n1 - 1) + p * ld] : g.sign * Q[(g.s + g.n1) + p * ld];
  }
}

// Eigenvalues only: the first and last row of each block's eigenvectors stand for the
// whole matrix (the merges need no other rows). z[p] as gather_z takes it from them.
template <typename R>
__global__ void gather_z_rows(int64_t n, const Merge<R>* merges, const int* node_of, const R* first,
                              const R* last, R* z) {
  for (int64_t p = blockIdx.x * int64_t{blockDim.x} + threadIdx.x; p < n;
       p += int64_t{gridDim.x} * blockDim.x) {
    const int node = node_of[p];
    if (node < 0) continue;
    const Merge<R> g = merges[node];
    z[p] = p - g.s < g.n1 ? last[p] : g.sign * first[p];
  }
}

// fs, ls = the merged block's first and last row of [Q1 0; 0 Q2] (Q1's first row and
// zeros; zeros and Q2's last row) times S, the deflation's rotations: one thread per
// merge applies them in order (row vector times R_0 R_1 ...), as rotate_w applies them
// to W's columns.
template <typename R>
__global__ void rotate_rows(int nmerges, const Merge<R>* merges, const MergeRotation<R>* rots,
                            const R* first, const R* last, R* fs, R* ls) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < nmerges; i += gridDim.x * blockDim.x) {
    const Merge<R> g = merges[i];
    for (int64_t j = 0; j < g.m; ++j) {
      fs[g.s + j] = j < g.n1 ? first[g.s + j] : R(0);
      ls[g.s + j] = j < g.n1 ? R(0) : last[g.s + j];
    }
    for (int64_t t = 0; t < g.nrot; ++t) {
      const MergeRotation<R> r = rots[g.roff + t];
      R* v[2] = {fs + g.s, ls + g.s};
      for (R* x : v) {
        const R a = x[r.p], b = x[r.q];
        x[r.p] = r.c * a + r.s * b;
        x[r.q] = r.c * b - r.s * a;
      }
    }
  }
}

// The reductions of kernels/detail/rank_one_merge.hpp over a warp: lane l takes the
// indices l, l + 32, ..., CUB combines the lanes, and every lane receives the result, so
// the whole warp follows the same steps. One root (or row) per warp keeps the
// GPU busy where one per thread did not: the top merge has only about n roots, each a
// chain of 64 sums of k terms (at n = 16384 the secular equations took 185 of the
// tridiagonal step's 340 ms with one thread per root).
struct Times {
  template <typename R>
  __device__ R operator()(const R& a, const R& b) const {
    return a * b;
  }
};
struct WarpReduce {
  template <typename F>
  __device__ auto sum(int64_t k, F f) const -> decltype(f(int64_t{0})) {
    using R = decltype(f(int64_t{0}));
    R s(0);
    for (int64_t j = threadIdx.x & 31; j < k; j += 32) s += f(j);
    return __shfl_sync(0xffffffffu, common::lane_group_sum<32>(s), 0);
  }
  template <typename F>
  __device__ auto sum4(int64_t k, F f) const -> decltype(f(int64_t{0})) {
    decltype(f(int64_t{0})) s{};
    for (int64_t j = threadIdx.x & 31; j < k; j += 32) s += f(j);
    s.a = __shfl_sync(0xffffffffu, common::lane_group_sum<32>(s.a), 0);
    s.b = __shfl_sync(0xffffffffu, common::lane_group_sum<32>(s.b), 0);
    s.c = __shfl_sync(0xffffffffu, common::lane_group_sum<32>(s.c), 0);
    s.d = __shfl_sync(0xffffffffu, common::lane_group_sum<32>(s.d), 0);
    return s;
  }
  template <typename F>
  __device__ auto product(int64_t k, F f) const -> decltype(f(int64_t{0})) {
    using R = decltype(f(int64_t{0}));
    R p(1);
    for (int64_t j = threadIdx.x & 31; j < k; j += 32) p *= f(j);
    typename cub::WarpReduce<R>::TempStorage unused;  // the full-warp shuffle path
    return __shfl_sync(0xffffffffu, cub::WarpReduce<R>(unused).Reduce(p, Times{}), 0);
  }
};

// Warp w of the grid takes items w, w + warps, ...: uniform per warp, as the shuffles need.
__device__ inline int64_t first_warp() { return (blockIdx.x * int64_t{blockDim.x} + threadIdx.x) / 32; }
__device__ inline int64_t warp_stride() { return int64_t{gridDim.x} * blockDim.x / 32; }

template <typename R>
__global__ void secular_roots(int64_t count, const Merge<R>* merges, const int* kept_node,
                              const R* dk, const R* zk, int64_t* origin, R* tau, R* lambda) {
  for (int64_t q = first_warp(); q < count; q += warp_stride()) {
    const Merge<R> g = merges[kept_node[q]];
    int64_t o;
    R t;
    detail::secular_root(g.k, dk + g.koff, zk + g.koff, g.rho, q - g.koff, &o, &t, WarpReduce{});
    if ((threadIdx.x & 31) == 0) {
      origin[q] = o;
      tau[q] = t;
      lambda[q] = dk[g.koff + o] + t;
    }
  }
}

template <typename R>
__global__ void weights(int64_t count, const Merge<R>* merges, const int* kept_node,
                        const R* dk, const R* zk, const int64_t* origin, const R* tau, R* zhat) {
  for (int64_t q = first_warp(); q < count; q += warp_stride()) {
    const Merge<R> g = merges[kept_node[q]];
    const R v = detail::gu_eisenstat_weight(g.k, dk + g.koff, zk + g.koff, g.rho, origin + g.koff,
                                            tau + g.koff, q - g.koff, WarpReduce{});
    if ((threadIdx.x & 31) == 0) zhat[q] = v;
  }
}

template <typename R>
__global__ void inverse_norms(int64_t count, const Merge<R>* merges, const int* kept_node,
                              const R* dk, const R* zhat, const int64_t* origin, const R* tau,
                              R* inv) {
  for (int64_t q = first_warp(); q < count; q += warp_stride()) {
    const Merge<R> g = merges[kept_node[q]];
    const R v = detail::vector_inverse_norm(g.k, dk + g.koff, zhat + g.koff, origin[q], tau[q],
                                            WarpReduce{});
    if ((threadIdx.x & 31) == 0) inv[q] = v;
  }
}

// Every entry of every merge's W before the rotations: column c holds output pair c
// (ascending): eigenvector j of the undeflated problem spread over the rows of the kept
// basis vectors (colsrc = j >= 0), or the deflated basis vector o (colsrc = -1 - o).
template <typename R>
__global__ void fill_w(int64_t total, int nmerges, const Merge<R>* merges, const int64_t* rowpos,
                       const int64_t* colsrc, const R* dk, const R* zhat, const int64_t* origin,
                       const R* tau, const R* inv, R* W) {
  for (int64_t x = blockIdx.x * int64_t{blockDim.x} + threadIdx.x; x < total;
       x += int64_t{gridDim.x} * blockDim.x) {
    int lo = 0, hi = nmerges - 1;  // the last merge whose W starts at or before x
    while (lo < hi) {
      const int mid = (lo + hi + 1) / 2;
      if (merges[mid].woff <= x) lo = mid; else hi = mid - 1;
    }
    const Merge<R> g = merges[lo];
    const int64_t local = x - g.woff, i = local % g.m, c = g.c0 + local / g.m;
    const int64_t src = colsrc[g.s + c];
    R v = R(0);
    if (src >= 0) {
      const int64_t r = rowpos[g.s + i];
      if (r >= 0) {
        const int64_t q = g.koff + src;
        v = zhat[g.koff + r] / detail::pole_gap(dk + g.koff, r, origin[q], tau[q]) * inv[q];
      }
    } else if (i == -1 - src) {
      v = R(1);
    }
    W[x] = v;
  }
}

// W := S W, S the product of a merge's rotations (the last acts first), one thread per
// column.
template <typename R>
__global__ void rotate_w(int64_t n, const Merge<R>* merges, const int* node_of,
                         const MergeRotation<R>* rots, R* W) {
  for (int64_t p = blockIdx.x * int64_t{blockDim.x} + threadIdx.x; p < n;
       p += int64_t{gridDim.x} * blockDim.x) {
    const int node = node_of[p];
    if (node < 0) continue;
    const Merge<R> g = merges[node];
    const int64_t c = p - g.s;
    if (g.nrot == 0 || c < g.c0 || c >= g.c0 + g.cols) continue;
    R* col = W + g.woff + (c - g.c0) * g.m;
    for (int64_t t = g.nrot - 1; t >= 0; --t) {
      const MergeRotation<R> r = rots[g.roff + t];
      const R a = col[r.p], b = col[r.q];
      col[r.p] = r.c * a - r.s * b;
      col[r.q] = r.s * a + r.c * b;
    }
  }
}

// The merged block's first and last rows: entry c = fs (or ls) times W's column c (one
// warp per column), W's column as fill_w makes it before the rotations (fs and ls carry
// them). keptpos[koff + r] is the position of the kept basis vector r.
template <typename R>
__global__ void merge_rows(int64_t n, const Merge<R>* merges, const int* node_of,
                           const int64_t* colsrc, const int64_t* keptpos, const R* dk,
                           const R* zhat, const int64_t* origin, const R* tau, const R* inv,
                           const R* fs, const R* ls, R* first, R* last) {
  for (int64_t p = first_warp(); p < n; p += warp_stride()) {
    const int node = node_of[p];
    if (node < 0) continue;
    const Merge<R> g = merges[node];
    const int64_t src = colsrc[p];
    R f, l;
    if (src >= 0) {
      const int64_t q = g.koff + src;
      R sf(0), sl(0);
      for (int64_t r = threadIdx.x & 31; r < g.k; r += 32) {
        const R u = zhat[g.koff + r] / detail::pole_gap(dk + g.koff, r, origin[q], tau[q]);
        const int64_t at = keptpos[g.koff + r];
        sf += fs[at] * u;
        sl += ls[at] * u;
      }
      f = common::lane_group_sum<32>(sf) * inv[q];
      l = common::lane_group_sum<32>(sl) * inv[q];
    } else {
      f = fs[g.s + (-1 - src)];
      l = ls[g.s + (-1 - src)];
    }
    if ((threadIdx.x & 31) == 0) {
      first[p] = f;
      last[p] = l;
    }
  }
}

template <typename R, typename T>
__global__ void widen(int64_t n, int64_t cols, const R* Q, int64_t ldq, T* Z, int64_t ldz) {
  const int64_t total = n * cols;
  for (int64_t x = blockIdx.x * int64_t{blockDim.x} + threadIdx.x; x < total;
       x += int64_t{gridDim.x} * blockDim.x) {
    const int64_t i = x % n, j = x / n;
    Z[i + j * ldz] = T(Q[i + j * ldq]);
  }
}

template <typename V>
void upload(cudaStream_t stream, const std::vector<V>& host, V* dev_ptr) {
  if (host.empty()) return;
  MGBLAS_CHECK_CUDA(cudaMemcpyAsync(dev_ptr, host.data(), host.size() * sizeof(V),
                                    cudaMemcpyHostToDevice, stream));
}
template <typename V>
void download(cudaStream_t stream, const V* dev_ptr, int64_t count, std::vector<V>& host) {
  host.resize(static_cast<std::size_t>(count));
  if (count == 0) return;
  MGBLAS_CHECK_CUDA(cudaMemcpyAsync(host.data(), dev_ptr, host.size() * sizeof(V),
                                    cudaMemcpyDeviceToHost, stream));
  MGBLAS_CHECK_CUDA(cudaStreamSynchronize(stream));
}

struct Node {
  int64_t s, m, n1;
};

// MGBLAS_STEDC_TRACE's clock: milliseconds since the last call, after waiting for the
// stream when `wait`.
struct StepClock {
  bool on = common::stedc_trace();
  std::chrono::steady_clock::time_point t = std::chrono::steady_clock::now();
  double lap(cudaStream_t stream, bool wait) {
    if (!on) return 0;
    if (wait) MGBLAS_CHECK_CUDA(cudaStreamSynchronize(stream));
    const auto now = std::chrono::steady_clock::now();
    const double ms = std::chrono::duration<double, std::milli>(now - t).count();
    t = now;
    return ms;
  }
};

// The merge tree: balanced halving down to order 1; by_depth[t] lists the merges at
// depth t (every merge's halves sit one level deeper or are blocks of order 1).
std::vector<std::vector<Node>> merge_tree(int64_t n) {
  std::vector<std::vector<Node>> by_depth;
  std::function<void(int64_t, int64_t, std::size_t)> split = [&](int64_t s, int64_t m,
                                                                  std::size_t depth) {
    if (m <= 1) return;
    if (by_depth.size() <= depth) by_depth.resize(depth + 1);
    const int64_t n1 = m / 2;
    by_depth[depth].push_back({s, m, n1});
    split(s, n1, depth + 1);
    split(s + n1, m - n1, depth + 1);
  };
  split(0, n, 0);
  return by_depth;
}

template <typename R>
void divide_and_conquer(const Device& dev, cudaStream_t stream, int64_t n, const R* d,
                        const R* e, int64_t il, int64_t iu, R* w, R* Z, int64_t ldz) {
  if (n == 0) return;
  dev.make_current();
  const int64_t cnt = iu - il;
  R scale = R(0);
  for (int64_t i = 0; i < n; ++i) scale = std::max(scale, std::abs(d[i]));
  for (int64_t i = 0; i + 1 < n; ++i) scale = std::max(scale, std::abs(e[i]));
  if (n == 1 || scale == R(0)) {  // T is diagonal of order 1, or zero: Z = I's window
    std::copy_n(d, n, w);
    if (cnt > 0) {
      MGBLAS_CHECK_CUDA(cudaMemset2DAsync(Z, static_cast<std::size_t>(ldz) * sizeof(R), 0,
                                          static_cast<std::size_t>(n) * sizeof(R),
                                          static_cast<std::size_t>(cnt), stream));
      set_diagonal<R><<<blocks_for(cnt), kThreads, 0, stream>>>(cnt, Z, ldz, il);
      MGBLAS_CHECK_LAUNCH(stream);
    }
    MGBLAS_CHECK_CUDA(cudaStreamSynchronize(stream));
    return;
  }

  // T / scale, with each split's |e| taken off the two diagonal entries it couples.
  std::vector<R> dcur(d, d + n), es(e, e + n - 1);
  for (R& v : dcur) v /= scale;
  for (R& v : es) v /= scale;
  const auto tree = merge_tree(n);
  for (const auto& level : tree)
    for (const Node& g : level) {
      const R b = std::abs(es[static_cast<std::size_t>(g.s + g.n1 - 1)]);
      dcur[static_cast<std::size_t>(g.s + g.n1 - 1)] -= b;
      dcur[static_cast<std::size_t>(g.s + g.n1)] -= b;
    }
  int64_t max_w = 0, max_merges = 0;
  for (const auto& level : tree) {
    int64_t sum = 0;
    for (const Node& g : level) sum += g.m * g.m;
    max_w = std::max(max_w, sum);
    max_merges = std::max<int64_t>(max_merges, static_cast<int64_t>(level.size()));
  }

  const auto un = static_cast<std::size_t>(n);
  // Z itself is the even levels' buffer when it is wanted whole. Without vectors, the
  // blocks' first and last rows replace the buffers (O(n) memory, O(n^2) work).
  const bool whole = il == 0 && iu == n, values_only = cnt == 0;
  const std::size_t square = values_only ? 0 : un * un, edge = values_only ? un : 0;
  DeviceBuffer<R> even(dev, whole ? 0 : square), other(dev, square),
      W(dev, values_only ? 0 : static_cast<std::size_t>(max_w));
  DeviceBuffer<R> first(dev, edge), last(dev, edge), fs(dev, edge), ls(dev, edge);
  DeviceBuffer<int64_t> keptpos(dev, edge);
  DeviceBuffer<R> zbuf(dev, un), dk(dev, un), zk(dev, un), tau(dev, un), lam(dev, un),
      zhat(dev, un), inv(dev, un);
  DeviceBuffer<int64_t> origin(dev, un), rowpos(dev, un), colsrc(dev, un);
  DeviceBuffer<int> node_of(dev, un), kept_node(dev, un);
  DeviceBuffer<Merge<R>> merges_dev(dev, static_cast<std::size_t>(max_merges));
  DeviceBuffer<MergeRotation<R>> rots_dev(dev, un);
  DeviceBuffer<R*> ptrs(dev, static_cast<std::size_t>(6 * max_merges));
  R* buf[2] = {whole ? Z : even.data(), other.data()};
  const int64_t ld[2] = {whole ? ldz : n, n};
  // The blocks of order 1 (the leaves) are 1 in both buffers (or rows); every other
  // entry a level reads was written by the level below.
  for (int b = 0; b < 2; ++b) {
    if (values_only)
      set_ones<R><<<blocks_for(n), kThreads, 0, stream>>>(n, b == 0 ? first.data() : last.data());
    else
      set_diagonal<R><<<blocks_for(n), kThreads, 0, stream>>>(n, buf[b], ld[b], 0);
    MGBLAS_CHECK_LAUNCH(stream);
  }

  cublasHandle_t h = dev.cublas();
  MGBLAS_CHECK_CUBLAS(cublasSetStream(h, stream));
  std::vector<R> zh, lam_h;
  std::vector<Merge<R>> merges;
  std::vector<int> node_of_h(un), kept_node_h;
  std::vector<int64_t> rowpos_h(un), colsrc_h(un), keptpos_h;
  std::vector<R> dk_h, zk_h;
  std::vector<MergeRotation<R>> rots_h;
  std::vector<detail::MergePlan<R>> plans;  // reused across levels, as is the scratch
  detail::DeflateScratch<R> scratch;
  std::vector<std::pair<R, int64_t>> dropped;

  StepClock clock;
  if (clock.on)
    std::fprintf(stderr, "stedc n=%lld: depth merges k rotations | ms: gather deflate secular "
                 "order vectors+gemm\n", static_cast<long long>(n));
  for (std::size_t depth = tree.size(); depth-- > 0;) {
    const std::vector<Node>& level = tree[depth];
    double ms[5] = {clock.lap(stream, true)};
    const int from = static_cast<int>((depth + 1) % 2), to = static_cast<int>(depth % 2);
    const R* src = buf[from];
    R* dst = buf[to];
    const int64_t lds = ld[from], ldd = ld[to];
    const auto nm = static_cast<int>(level.size());

    // 1. z on the host, deflation.
    merges.assign(level.size(), Merge<R>{});
    std::fill(node_of_h.begin(), node_of_h.end(), -1);
    int64_t woff = 0;
    for (int i = 0; i < nm; ++i) {
      const Node& g = level[static_cast<std::size_t>(i)];
      const R b = es[static_cast<std::size_t>(g.s + g.n1 - 1)];
      // The root of a window makes only the window's columns.
      const int64_t cols = depth == 0 ? cnt : g.m;
      Merge<R>& mg = merges[i];
      mg.s = g.s;
      mg.m = g.m;
      mg.n1 = g.n1;
      mg.woff = woff;
      mg.c0 = depth == 0 ? il : 0;
      mg.cols = cols;
      mg.rho = std::abs(b);
      mg.sign = b < R(0) ? R(-1) : R(1);
      woff += g.m * cols;
      std::fill(node_of_h.begin() + g.s, node_of_h.begin() + g.s + g.m, i);
    }
    upload(stream, merges, merges_dev.data());
    upload(stream, node_of_h, node_of.data());
    if (values_only)
      gather_z_rows<R><<<blocks_for(n), kThreads, 0, stream>>>(
          n, merges_dev.data(), node_of.data(), first.data(), last.data(), zbuf.data());
    else
      gather_z<R><<<blocks_for(n), kThreads, 0, stream>>>(n, merges_dev.data(), node_of.data(), src,
                                                          lds, zbuf.data());
    MGBLAS_CHECK_LAUNCH(stream);
    download(stream, zbuf.data(), n, zh);
    ms[0] = clock.lap(stream, false);

    if (plans.size() < level.size()) plans.resize(level.size());
    dk_h.clear();
    zk_h.clear();
    kept_node_h.clear();
    keptpos_h.clear();
    rots_h.clear();
    std::fill(rowpos_h.begin(), rowpos_h.end(), int64_t{-1});
    for (int i = 0; i < nm; ++i) {
      Merge<R>& g = merges[i];
      detail::MergePlan<R>& p = plans[static_cast<std::size_t>(i)];
      detail::deflate_merge<R>(g.m, g.n1, dcur.data() + g.s, zh.data() + g.s, g.rho, p, scratch);
      g.rho = p.rho;
      g.koff = static_cast<int64_t>(dk_h.size());
      g.k = static_cast<int64_t>(p.kept.size());
      g.roff = static_cast<int64_t>(rots_h.size());
      g.nrot = static_cast<int64_t>(p.rotations.size());
      dk_h.insert(dk_h.end(), p.dk.begin(), p.dk.end());
      zk_h.insert(zk_h.end(), p.zk.begin(), p.zk.end());
      kept_node_h.insert(kept_node_h.end(), p.kept.size(), i);
      rots_h.insert(rots_h.end(), p.rotations.begin(), p.rotations.end());
      for (int64_t j = 0; j < g.k; ++j) rowpos_h[static_cast<std::size_t>(g.s + p.kept[j])] = j;
      if (values_only)
        for (int64_t j = 0; j < g.k; ++j) keptpos_h.push_back(g.s + p.kept[j]);
    }
    const auto count = static_cast<int64_t>(dk_h.size());
    ms[1] = clock.lap(stream, false);

    // 2. The roots, and the level's eigenvalues in ascending order per merge.
    upload(stream, merges, merges_dev.data());
    upload(stream, dk_h, dk.data());
    upload(stream, zk_h, zk.data());
    upload(stream, kept_node_h, kept_node.data());
    upload(stream, rots_h, rots_dev.data());
    upload(stream, rowpos_h, rowpos.data());
    upload(stream, keptpos_h, keptpos.data());
    if (count > 0) {
      secular_roots<R><<<blocks_for(32 * count), kThreads, 0, stream>>>(
          count, merges_dev.data(), kept_node.data(), dk.data(), zk.data(), origin.data(),
          tau.data(), lam.data());
      MGBLAS_CHECK_LAUNCH(stream);
    }
    download(stream, lam.data(), count, lam_h);
    ms[2] = clock.lap(stream, true);
    for (int i = 0; i < nm; ++i) {
      const Merge<R>& g = merges[i];
      const detail::MergePlan<R>& p = plans[static_cast<std::size_t>(i)];
      // Roots ascend with j (they interlace the ascending poles); the deflated values are
      // sorted here, then the two lists merged.
      dropped.clear();
      for (std::size_t t = 0; t < p.dropped.size(); ++t)
        dropped.emplace_back(p.dropped_value[t], -1 - p.dropped[t]);
      std::sort(dropped.begin(), dropped.end());
      int64_t a = 0, c = 0;
      std::size_t b = 0;
      while (a < g.k || b < dropped.size()) {
        const bool root = b == dropped.size() ||
                          (a < g.k && lam_h[static_cast<std::size_t>(g.koff + a)] <= dropped[b].first);
        const auto pos = static_cast<std::size_t>(g.s + c);
        if (root) {
          dcur[pos] = lam_h[static_cast<std::size_t>(g.koff + a)];
          colsrc_h[pos] = a++;
        } else {
          dcur[pos] = dropped[b].first;
          colsrc_h[pos] = dropped[b++].second;
        }
        ++c;
      }
    }
    upload(stream, colsrc_h, colsrc.data());
    ms[3] = clock.lap(stream, false);

    // 3. W, then the two GEMMs per merge (without vectors: the merged blocks' first and
    // last rows, which the root's merge does not need).
    if (values_only && depth == 0) continue;
    if (count > 0) {
      weights<R><<<blocks_for(32 * count), kThreads, 0, stream>>>(
          count, merges_dev.data(), kept_node.data(), dk.data(), zk.data(), origin.data(),
          tau.data(), zhat.data());
      MGBLAS_CHECK_LAUNCH(stream);
      inverse_norms<R><<<blocks_for(32 * count), kThreads, 0, stream>>>(
          count, merges_dev.data(), kept_node.data(), dk.data(), zhat.data(), origin.data(),
          tau.data(), inv.data());
      MGBLAS_CHECK_LAUNCH(stream);
    }
    if (values_only) {
      rotate_rows<R><<<static_cast<unsigned>((nm + 127) / 128), 128, 0, stream>>>(
          nm, merges_dev.data(), rots_dev.data(), first.data(), last.data(), fs.data(), ls.data());
      MGBLAS_CHECK_LAUNCH(stream);
      merge_rows<R><<<blocks_for(32 * n), kThreads, 0, stream>>>(
          n, merges_dev.data(), node_of.data(), colsrc.data(), keptpos.data(), dk.data(),
          zhat.data(), origin.data(), tau.data(), inv.data(), fs.data(), ls.data(), first.data(),
          last.data());
      MGBLAS_CHECK_LAUNCH(stream);
      continue;
    }
    if (woff == 0) continue;  // an empty window: the eigenvalues are all there is to do
    fill_w<R><<<blocks_for(woff), kThreads, 0, stream>>>(
        woff, nm, merges_dev.data(), rowpos.data(), colsrc.data(), dk.data(), zhat.data(),
        origin.data(), tau.data(), inv.data(), W.data());
    MGBLAS_CHECK_LAUNCH(stream);
    if (!rots_h.empty()) {
      rotate_w<R><<<blocks_for(n), kThreads, 0, stream>>>(n, merges_dev.data(), node_of.data(),
                                                          rots_dev.data(), W.data());
      MGBLAS_CHECK_LAUNCH(stream);
    }
    // Merges of one shape (m, n1, cols) share a batched call for each half; the root
    // writes Z (its window's columns), the others their own diagonal block of dst.
    std::map<std::tuple<int64_t, int64_t, int64_t>, std::vector<int>> shapes;
    for (int i = 0; i < nm; ++i)
      shapes[{merges[i].m, merges[i].n1, merges[i].cols}].push_back(i);
    R* const out = depth == 0 ? Z : dst;
    const int64_t ldo = depth == 0 ? ldz : ldd;
    std::vector<R*> ptr_h;
    std::vector<std::pair<std::size_t, std::size_t>> calls;  // (first pointer, batch)
    for (const auto& [shape, ids] : shapes) {
      for (int half = 0; half < 2; ++half) {
        const std::size_t first = ptr_h.size();
        for (int role = 0; role < 3; ++role)
          for (int i : ids) {
            const Merge<R>& g = merges[i];
            const int64_t r0 = g.s + (half ? g.n1 : 0);
            R* p = role == 0 ? const_cast<R*>(src) + r0 + r0 * lds
                 : role == 1 ? W.data() + g.woff + (half ? g.n1 : 0)
                             : out + r0 + (depth == 0 ? 0 : g.s) * ldo;
            ptr_h.push_back(p);
          }
        calls.emplace_back(first, ids.size());
      }
    }
    upload(stream, ptr_h, ptrs.data());
    const R one = R(1), zero = R(0);
    std::size_t call = 0;
    for (const auto& [shape, ids] : shapes) {
      const auto [m, n1, cols] = shape;
      for (int half = 0; half < 2; ++half, ++call) {
        const auto [first, batch] = calls[call];
        const int rows = static_cast<int>(half ? m - n1 : n1);
        R* const* P = ptrs.data() + first;
        common::cublas::raw::gemm_batched(
            h, CUBLAS_OP_N, CUBLAS_OP_N, rows, static_cast<int>(cols), rows, &one,
            const_cast<const R* const*>(P), static_cast<int>(lds),
            const_cast<const R* const*>(P + batch), static_cast<int>(m), &zero,
            P + 2 * batch, static_cast<int>(ldo), static_cast<int>(batch));
      }
    }
    if (clock.on) {
      ms[4] = clock.lap(stream, true);
      std::fprintf(stderr, "stedc %3zu %6d %6lld %6zu | %8.3f %8.3f %8.3f %8.3f %8.3f\n", depth,
                   nm, static_cast<long long>(count), rots_h.size(), ms[0], ms[1], ms[2], ms[3],
                   ms[4]);
    }
  }
  MGBLAS_CHECK_CUDA(cudaStreamSynchronize(stream));
  for (int64_t i = 0; i < n; ++i) w[i] = dcur[static_cast<std::size_t>(i)] * scale;
}

template <Scalar T>
void eigenpairs(const Device& dev, cudaStream_t stream, int64_t n, const real_type_t<T>* d,
                const real_type_t<T>* e, int64_t il, int64_t iu, real_type_t<T>* w, T* Z,
                int64_t ldz) {
  using R = real_type_t<T>;
  if constexpr (std::is_same_v<T, R>) {
    divide_and_conquer<R>(dev, stream, n, d, e, il, iu, w, Z, ldz);
  } else {
    if (n == 0) return;
    dev.make_current();
    const int64_t cnt = iu - il;
    DeviceBuffer<R> real(dev, static_cast<std::size_t>(n) * static_cast<std::size_t>(cnt));
    divide_and_conquer<R>(dev, stream, n, d, e, il, iu, w, real.data(), n);
    if (cnt > 0) {
      widen<R, T><<<blocks_for(n * cnt), kThreads, 0, stream>>>(n, cnt, real.data(), n, Z, ldz);
      MGBLAS_CHECK_LAUNCH(stream);
    }
    MGBLAS_CHECK_CUDA(cudaStreamSynchronize(stream));
  }
}

}  // namespace stedc

#define MGBLAS_CUDA_STEDC_(T) \
  MGBLAS_DECLARE_STEDC_KERNEL(T) { stedc::eigenpairs<T>(dev, stream, n, d, e, il, iu, w, Z, ldz); }
MGBLAS_FOR_EACH_SCALAR(MGBLAS_CUDA_STEDC_)
#undef MGBLAS_CUDA_STEDC_

}  // namespace mgblas::kernels::cuda
