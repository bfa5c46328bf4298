// SPDX-License-Identifier: BSD-3-Clause
// Device-side random fill for the tester: gigabytes of operands would take seconds to
// draw on the host and copy.
#include <cuda_runtime.h>

#include <cstdint>

#include "core/detail/cuda_check.hpp"
#include "testers/tester_fill.hpp"

namespace mgblas::testers {
namespace {

__device__ __forceinline__ uint64_t mix(uint64_t z) {  // splitmix64 finaliser
  z += 0x9E3779B97F4A7C15ull;
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

// Mapping: grid-stride loop, one real value per index. Value = uniform on [-1, 1)
// from a hash of (seed, index), so any element can be regenerated independently.
template <typename R>
__global__ void fill_uniform_kernel(R* p, int64_t count, uint64_t seed) {
  const int64_t step = static_cast<int64_t>(gridDim.x) * blockDim.x;
  for (int64_t i = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < count;
       i += step) {
    const uint64_t h = mix(seed ^ mix(static_cast<uint64_t>(i)));
    p[i] = static_cast<R>(static_cast<double>(h >> 11) * 0x1.0p-52 - 1.0);
  }
}

}  // namespace

void fill_uniform(cudaStream_t stream, void* p, int64_t reals, bool is_double, uint64_t seed) {
  if (reals <= 0) return;
  const int threads = 256;
  const int64_t blocks = (reals + threads - 1) / threads;
  const unsigned grid = static_cast<unsigned>(blocks < 65536 ? blocks : 65536);
  if (is_double)
    fill_uniform_kernel<<<grid, threads, 0, stream>>>(static_cast<double*>(p), reals, seed);
  else
    fill_uniform_kernel<<<grid, threads, 0, stream>>>(static_cast<float*>(p), reals, seed);
  MGBLAS_CHECK_LAUNCH(stream);
}

}  // namespace mgblas::testers
