// SPDX-License-Identifier: BSD-3-Clause
// CUDA engine of the tridiagonal eigenvalues (kernels/stebz_kernels.hpp): one eigenvalue
// per thread, bisected with the Sturm counts of kernels/detail/sturm_bisection.hpp (the
// host engine's arithmetic). One launch, queued on the stream; no workspace.
#include <cstdint>

#include "core/detail/cuda_check.hpp"
#include "kernels/detail/sturm_bisection.hpp"
#include "kernels/stebz_kernels.hpp"

namespace mgblas::kernels::cuda {
namespace {

// 128 threads: n = 10^5 eigenvalues make ~800 blocks, several per SM on an H100/H200; the
// kernel keeps a handful of registers, so occupancy is not the limit.
constexpr int kThreads = 128;

// d and e through the read-only (texture) cache: every thread of a warp reads the same
// element at about the same time, so each load is one broadcast.
struct LdgLoad {
  template <typename R>
  __device__ R operator()(const R* p, int64_t i) const {
    return __ldg(p + i);
  }
};

// Thread k of the grid computes w[k] = lambda_{il + k}, k < count. Each thread first forms
// the Gershgorin interval itself (one pass over d and e, as cheap as one Sturm count of the
// ~p + 2 that the bisection takes, p the precision's mantissa bits): identical in every
// thread, so neighbouring indices bisect the same interval and come out ordered.
// Preconditions: n >= 1, count >= 1, d and e (n - 1 elements) device memory.
template <typename R>
__global__ void __launch_bounds__(kThreads)
    sturm_bisection_kernel(int64_t n, const R* __restrict__ d, const R* __restrict__ e,
                           int64_t il, int64_t count, R* __restrict__ w) {
  const int64_t k = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (k >= count) return;
  const detail::SturmBounds<R> bounds = detail::sturm_bounds(n, d, e, LdgLoad{});
  w[k] = detail::sturm_bisect(n, d, e, il + k, bounds, LdgLoad{});
}

template <typename R>
void eigenvalues_bisection(const Device& dev, cudaStream_t stream, int64_t n, const R* d,
                           const R* e, int64_t il, int64_t iu, R* w) {
  const int64_t count = iu - il;
  if (count <= 0) return;
  dev.make_current();
  const int64_t blocks = (count + kThreads - 1) / kThreads;  // count <= n: far below 2^31 - 1
  sturm_bisection_kernel<R><<<static_cast<unsigned>(blocks), kThreads, 0, stream>>>(
      n, d, e, il, count, w);
  MGBLAS_CHECK_LAUNCH(stream);
}

}  // namespace

#define MGBLAS_CUDA_STEBZ_(T)                                                \
  MGBLAS_DECLARE_STEBZ_KERNEL(T) {                                           \
    eigenvalues_bisection<real_type_t<T>>(dev, stream, n, d, e, il, iu, w);  \
  }
MGBLAS_FOR_EACH_SCALAR(MGBLAS_CUDA_STEBZ_)
#undef MGBLAS_CUDA_STEBZ_

}  // namespace mgblas::kernels::cuda
