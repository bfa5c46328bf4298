// SPDX-License-Identifier: BSD-3-Clause
#include <algorithm>

#include "core/detail/cuda_check.hpp"
#include "testers/tester_dist_fill.hpp"

namespace mgblas::testers {
namespace {

constexpr int kThreads = 256;

// One thread per real part, grid-stride; column j of the storage is global column
// col(j), so the same kernel fills a device's block columns and a whole matrix.
template <typename R, bool kCyclic>
__global__ void __launch_bounds__(kThreads)
    fill_kernel(R* A, int64_t ld, int64_t m, int64_t cols, BlockCyclic1D L, int g, int reals,
                uint64_t seed) {
  const int64_t total = m * cols * reals;
  for (int64_t t = blockIdx.x * int64_t{blockDim.x} + threadIdx.x; t < total;
       t += int64_t{gridDim.x} * blockDim.x) {
    const int64_t part = t % reals, e = t / reals;
    const int64_t i = e % m, j = e / m;
    const int64_t gj = kCyclic ? L.global_col(g, j) : j;
    A[(i + j * ld) * reals + part] =
        static_cast<R>(dist_value(seed, static_cast<uint64_t>((i + gj * m) * reals + part)));
  }
}

template <typename R>
void fill_host(R* A, int64_t ld, int64_t m, int64_t cols, const BlockCyclic1D* L, int g,
               int reals, uint64_t seed) {
  for (int64_t j = 0; j < cols; ++j) {
    const int64_t gj = L ? L->global_col(g, j) : j;
    for (int64_t i = 0; i < m; ++i)
      for (int part = 0; part < reals; ++part)
        A[(i + j * ld) * reals + part] =
            static_cast<R>(dist_value(seed, static_cast<uint64_t>((i + gj * m) * reals + part)));
  }
}

template <bool kCyclic>
void launch(const Device& dev, void* A, int64_t ld, int64_t m, int64_t cols,
            const BlockCyclic1D& L, int g, int reals, bool is_double, uint64_t seed) {
  const int64_t total = m * cols * reals;
  if (total <= 0) return;
  if (!dev.is_gpu()) {
    const BlockCyclic1D* layout = kCyclic ? &L : nullptr;
    if (is_double) fill_host(static_cast<double*>(A), ld, m, cols, layout, g, reals, seed);
    else fill_host(static_cast<float*>(A), ld, m, cols, layout, g, reals, seed);
    return;
  }
  dev.make_current();
  cudaStream_t stream = dev.stream();
  const unsigned blocks = static_cast<unsigned>(std::min<int64_t>((total + kThreads - 1) / kThreads, 65536));
  if (is_double)
    fill_kernel<double, kCyclic><<<blocks, kThreads, 0, stream>>>(static_cast<double*>(A), ld, m,
                                                                 cols, L, g, reals, seed);
  else
    fill_kernel<float, kCyclic><<<blocks, kThreads, 0, stream>>>(static_cast<float*>(A), ld, m,
                                                                cols, L, g, reals, seed);
  MGBLAS_CHECK_LAUNCH(stream);
}

}  // namespace

void fill_block_cyclic(const Device& dev, void* A, int64_t ld, const BlockCyclic1D& L, int g,
                       int reals, bool is_double, uint64_t seed) {
  launch<true>(dev, A, ld, L.m(), L.local_n(g), L, g, reals, is_double, seed);
}

void fill_matrix(const Device& dev, void* A, int64_t ld, int64_t m, int64_t n, int reals,
                 bool is_double, uint64_t seed) {
  launch<false>(dev, A, ld, m, n, BlockCyclic1D(), 0, reals, is_double, seed);
}

}  // namespace mgblas::testers
