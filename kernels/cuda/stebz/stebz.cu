// SPDX-License-Identifier: BSD-3-Clause
// CUDA engine of the tridiagonal eigenvalues (kernels/stebz_kernels.hpp): each eigenvalue
// by a group of lanes of one warp, multisection with the Sturm counts of
// kernels/detail/sturm_bisection.hpp (the host engine's arithmetic; the host bisects).
// Queued on the stream: the spectrum slicing (below) and one multisection launch; the
// slicing's counts come from the stream-ordered pool. Most of a large spectrum goes to
// the divide and conquer without vectors instead (kDcMin), which waits for the stream.
#include <cstdint>
#include <cstdlib>
#include <limits>
#include <optional>
#include <vector>

#include "core/detail/cuda_check.hpp"
#include "core/error.hpp"
#include "kernels/cuda/common/debug_env.hpp"
#include "kernels/cuda/common/stream_scratch.hpp"
#include "kernels/detail/sturm_bisection.hpp"
#include "kernels/stebz_kernels.hpp"
#include "kernels/stedc_kernels.hpp"

namespace mgblas::kernels::cuda {
namespace {

constexpr int kThreads = 128;

// Points a round per eigenvalue. One thread per eigenvalue (plain bisection) leaves an
// H200 with 4 warps an SM at n = 16384, each a chain of ~55 Sturm counts of dependent
// divisions; kPoints lanes per eigenvalue cut the interval into kPoints + 1 parts a round
// (log2(kPoints + 1) bits instead of 1), so the chain is ~3x shorter at 8 points and the
// SMs hold 8x the warps, for 2.6x the counts in all. MGBLAS_STEBZ_POINTS (1, 2, 4, 8, 16
// or 32) overrides it, for measurements and tests.
constexpr int kPoints = 8;

// Spectrum slicing first, where count >= kSliceMin: kP x count Sturm counts at points
// spread evenly over the Gershgorin interval, one a thread (as many counts as one
// multisection round), after which each eigenvalue starts from the two neighbouring
// points whose counts bracket its index. On a spread spectrum that is log_{kP+1}(kP count)
// rounds fewer (about 5 of 18 at n = 16384 in double, kP = 8); a clustered one gains less,
// never a wider interval. MGBLAS_STEBZ_SLICE (0 or 1) overrides the rule.
constexpr int64_t kSliceMin = 2048;

// Half of the n eigenvalues or more, 4096 (kDcMin) or more: the divide and conquer
// without vectors (kernels/cuda/stedc: every eigenvalue, by the secular equations of its
// merges) instead of bisection. Its work is O(n^2) like bisection's, but a few passes
// over each merge's poles where bisection takes ~18 rounds of Sturm counts over all of T;
// its host steps and waits (two per level of the merge tree) make it the slower below.
// It computes the whole spectrum whatever the window, and still takes less time than
// bisection of half of it (the SVD's values: the upper half of the Golub-Kahan matrix's;
// a device's share on two GPUs, which tridiag_eigenvalues_mgpu drives from a thread
// each). Smaller windows keep bisection. MGBLAS_STEBZ_DC (0 or 1) overrides the rule for
// windows of half or more.
constexpr int64_t kDcMin = 4096;

// d and e through the read-only (texture) cache: every thread of a warp reads the same
// element at about the same time, so each load is one broadcast.
struct LdgLoad {
  template <typename R>
  __device__ R operator()(const R* p, int64_t i) const {
    return __ldg(p + i);
  }
};

// lambda_i by multisection of b's interval with the kP lanes of `group` (a mask of kP
// consecutive lanes from first_lane; part = this lane's index in it). Invariant, as in sturm_bisect:
// count(lo) <= i < count(hi); every lane of the group holds the same lo and hi. A round
// counts at lo + (k + 1) (hi - lo) / (kP + 1), k = 0 .. kP - 1, one point a lane; the
// counts grow with the point, so the lanes whose count exceeds i are a suffix of the
// group, and the first of them bounds the new interval. Stops as sturm_bisect does, or
// when a round leaves the interval unchanged (no floating-point number between the
// points); returns the midpoint. Neighbouring indices go through the same points until
// they part, so they come out ordered.
template <int kP, typename R>
__device__ R sturm_multisect(int64_t n, const R* d, const R* e, int64_t i,
                             const detail::SturmBounds<R>& b, unsigned group, int first_lane,
                             int part) {
  constexpr R kEps = std::numeric_limits<R>::epsilon();
  R lo = b.lo, hi = b.hi;
  for (int round = 0; round < detail::kSturmMaxSteps<R>; ++round) {
    const R tol = R(2) * kEps * detail::sturm_max(detail::sturm_abs(lo), detail::sturm_abs(hi)) +
                  b.pivmin;
    if (!(hi - lo > tol)) break;
    // Halves before the difference: no overflow for intervals near the largest numbers.
    const R half = R(0.5) * hi - R(0.5) * lo;
    const R x = detail::sturm_min(hi, lo + half * (R(2 * (part + 1)) / R(kP + 1)));
    const bool above = detail::sturm_count(n, d, e, x, b.pivmin, LdgLoad{}) > i;
    // The group's lanes are bits first_lane .. first_lane + kP - 1 of the ballot.
    const unsigned mask = __ballot_sync(group, above) & group;
    const int first = mask ? __ffs(mask) - 1 - first_lane : kP;  // in [0, kP]
    const R x_below = __shfl_sync(group, x, first_lane + (first > 0 ? first - 1 : 0));
    const R x_above = __shfl_sync(group, x, first_lane + (first < kP ? first : kP - 1));
    const R new_lo = first > 0 ? x_below : lo;
    const R new_hi = first < kP ? x_above : hi;
    if (new_lo == lo && new_hi == hi) break;
    lo = new_lo;
    hi = new_hi;
  }
  return R(0.5) * lo + R(0.5) * hi;
}

// Point p (0 <= p < points) of the slicing of b's interval: lo + (p + 1) (hi - lo) /
// (points + 1), monotone in p.
template <typename R>
__device__ R slice_point(const detail::SturmBounds<R>& b, int64_t p, int64_t points) {
  const R half = R(0.5) * b.hi - R(0.5) * b.lo;
  return detail::sturm_min(b.hi, b.lo + half * (R(2) * R(p + 1) / R(points + 1)));
}

// counts[p] = the Sturm count at slice_point p, one thread each.
template <typename R>
__global__ void __launch_bounds__(kThreads)
    slice_counts_kernel(int64_t n, const R* __restrict__ d, const R* __restrict__ e, int64_t points,
                        int64_t* __restrict__ counts) {
  const int64_t p = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (p >= points) return;
  const detail::SturmBounds<R> b = detail::sturm_bounds(n, d, e, LdgLoad{});
  counts[p] = detail::sturm_count(n, d, e, slice_point(b, p, points), b.pivmin, LdgLoad{});
}

// Group g of kP lanes (g = global thread / kP) computes w[g] = lambda_{il + g}, g < count.
// Each thread first forms the Gershgorin interval itself (one pass over d and e, as cheap
// as one Sturm count): identical in every thread, so neighbouring indices start from the
// same interval; with `counts` (the slicing's, `points` of them), narrowed to the points
// that bracket the index. Preconditions: n >= 1, count >= 1, d and e (n - 1 elements)
// device memory.
template <int kP, typename R>
__global__ void __launch_bounds__(kThreads)
    sturm_multisection_kernel(int64_t n, const R* __restrict__ d, const R* __restrict__ e,
                              int64_t il, int64_t count, R* __restrict__ w,
                              const int64_t* __restrict__ counts, int64_t points) {
  static_assert(kP >= 1 && kP <= 32 && 32 % kP == 0, "a group is a power-of-two part of a warp");
  const int64_t t = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  const int64_t k = t / kP;
  if (k >= count) return;  // whole groups: count is in groups
  const int lane = static_cast<int>(threadIdx.x % 32);
  const int part = lane % kP;
  const unsigned group = (kP == 32 ? 0xffffffffu : ((1u << kP) - 1u)) << (lane - part);
  const detail::SturmBounds<R> whole = detail::sturm_bounds(n, d, e, LdgLoad{});
  detail::SturmBounds<R> bounds = whole;
  if (counts != nullptr) {
    // counts[lo] <= il + k < counts[hi], with counts[-1] = 0 and counts[points] = n (the
    // interval's ends): bisection over the indices, which needs no monotone counts.
    int64_t lo = -1, hi = points;
    while (hi - lo > 1) {
      const int64_t mid = lo + (hi - lo) / 2;
      (counts[mid] > il + k ? hi : lo) = mid;
    }
    if (lo >= 0) bounds.lo = slice_point(whole, lo, points);
    if (hi < points) bounds.hi = slice_point(whole, hi, points);
  }
  const R v = sturm_multisect<kP>(n, d, e, il + k, bounds, group, lane - part, part);
  if (part == 0) w[k] = v;
}

template <int kP, typename R>
void launch_multisection(cudaStream_t stream, int64_t n, const R* d, const R* e, int64_t il,
                         int64_t count, R* w) {
  constexpr int64_t per_block = kThreads / kP;
  // count <= n < 2^31 * per_block: the grids fit.
  const int64_t blocks = (count + per_block - 1) / per_block;
  const int64_t points = kP * count;
  std::optional<common::StreamScratch> scratch;
  int64_t* counts = nullptr;
  if (common::stebz_slice_override().value_or(count >= kSliceMin)) {
    scratch.emplace(static_cast<std::size_t>(points) * sizeof(int64_t), stream);
    counts = scratch->as<int64_t>();
    slice_counts_kernel<R>
        <<<static_cast<unsigned>(blocks), kThreads, 0, stream>>>(n, d, e, points, counts);
    MGBLAS_CHECK_LAUNCH(stream);
  }
  sturm_multisection_kernel<kP, R><<<static_cast<unsigned>(blocks), kThreads, 0, stream>>>(
      n, d, e, il, count, w, counts, points);
  MGBLAS_CHECK_LAUNCH(stream);
}

int points_per_eigenvalue() { return common::stebz_points_override().value_or(kPoints); }

template <typename R>
void eigenvalues_bisection(const Device& dev, cudaStream_t stream, int64_t n, const R* d,
                           const R* e, int64_t il, int64_t iu, R* w) {
  const int64_t count = iu - il;
  if (count <= 0) return;
  dev.make_current();
  switch (points_per_eigenvalue()) {
    case 1: return launch_multisection<1>(stream, n, d, e, il, count, w);
    case 2: return launch_multisection<2>(stream, n, d, e, il, count, w);
    case 4: return launch_multisection<4>(stream, n, d, e, il, count, w);
    case 8: return launch_multisection<8>(stream, n, d, e, il, count, w);
    case 16: return launch_multisection<16>(stream, n, d, e, il, count, w);
    default: return launch_multisection<32>(stream, n, d, e, il, count, w);
  }
}

// All n eigenvalues by the divide and conquer (host copies of d and e; it waits for the
// stream), the window's copied to w.
template <typename R>
void eigenvalues_divide_and_conquer(const Device& dev, cudaStream_t stream, int64_t n, const R* d,
                                    const R* e, int64_t il, int64_t iu, R* w) {
  dev.make_current();
  std::vector<R> dh(static_cast<std::size_t>(n)), eh(static_cast<std::size_t>(n)),
      wh(static_cast<std::size_t>(n));
  MGBLAS_CHECK_CUDA(
      cudaMemcpyAsync(dh.data(), d, dh.size() * sizeof(R), cudaMemcpyDeviceToHost, stream));
  MGBLAS_CHECK_CUDA(
      cudaMemcpyAsync(eh.data(), e, (dh.size() - 1) * sizeof(R), cudaMemcpyDeviceToHost, stream));
  MGBLAS_CHECK_CUDA(cudaStreamSynchronize(stream));
  tridiag_eigenvectors<R>(dev, stream, n, dh.data(), eh.data(), 0, 0, wh.data(), nullptr, n);
  MGBLAS_CHECK_CUDA(cudaMemcpyAsync(w, wh.data() + il,
                                    static_cast<std::size_t>(iu - il) * sizeof(R),
                                    cudaMemcpyHostToDevice, stream));
  MGBLAS_CHECK_CUDA(cudaStreamSynchronize(stream));  // before wh is freed
}

template <typename R>
void eigenvalues(const Device& dev, cudaStream_t stream, int64_t n, const R* d, const R* e,
                 int64_t il, int64_t iu, R* w) {
  const int64_t count = iu - il;
  if (count <= 0) return;
  const bool wide = 2 * count >= n;
  if (wide && common::stebz_dc_override().value_or(count >= kDcMin))
    return eigenvalues_divide_and_conquer(dev, stream, n, d, e, il, iu, w);
  eigenvalues_bisection(dev, stream, n, d, e, il, iu, w);
}

}  // namespace

#define MGBLAS_CUDA_STEBZ_(T) \
  MGBLAS_DECLARE_STEBZ_KERNEL(T) { eigenvalues<real_type_t<T>>(dev, stream, n, d, e, il, iu, w); }
MGBLAS_FOR_EACH_SCALAR(MGBLAS_CUDA_STEBZ_)
#undef MGBLAS_CUDA_STEBZ_

}  // namespace mgblas::kernels::cuda
