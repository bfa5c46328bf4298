// SPDX-License-Identifier: BSD-3-Clause
// Device helpers of tester_batched and mgblas-tune: the read-bandwidth probe.
#include <cuda_runtime.h>

#include <algorithm>
#include <vector>

#include "core/detail/cuda_check.hpp"
#include "tests/testers/tester_batched_device.hpp"

namespace mgblas::testers {
namespace {

// read_probe_kernel: every thread sums float4 loads strided by the whole grid over
// `count` float4 values (16-byte loads, coalesced across the warp, several in flight
// per thread through the unrolled loop); one float per thread is written so the loads
// are not optimised away. No shared memory. Preconditions: count * 16 bytes allocated.
__global__ void __launch_bounds__(256) read_probe_kernel(const float4* __restrict__ p,
                                                         int64_t count, float* sink) {
  const int64_t stride = static_cast<int64_t>(gridDim.x) * blockDim.x;
  float s = 0.f;
  int64_t i = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  for (; i + 3 * stride < count; i += 4 * stride) {
    const float4 a = p[i], b = p[i + stride], c = p[i + 2 * stride], d = p[i + 3 * stride];
    s += a.x + a.y + a.z + a.w + b.x + b.y + b.z + b.w + c.x + c.y + c.z + c.w + d.x + d.y +
         d.z + d.w;
  }
  for (; i < count; i += stride) {
    const float4 a = p[i];
    s += a.x + a.y + a.z + a.w;
  }
  if (s == 1234.5f) sink[threadIdx.x] = s;  // practically never: keeps the sum alive
}

}  // namespace

double read_bandwidth(cudaStream_t stream, int repeats) {
  const std::size_t bytes = std::size_t{2} << 30;  // 2 GiB: far beyond any L2
  void* buf = nullptr;
  float* sink = nullptr;
  MGBLAS_CHECK_CUDA(cudaMalloc(&buf, bytes));
  MGBLAS_CHECK_CUDA(cudaMalloc(&sink, 256 * sizeof(float)));
  MGBLAS_CHECK_CUDA(cudaMemsetAsync(buf, 0, bytes, stream));
  int dev = 0, sms = 0;
  MGBLAS_CHECK_CUDA(cudaGetDevice(&dev));
  MGBLAS_CHECK_CUDA(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev));
  const int64_t count = static_cast<int64_t>(bytes / 16);
  cudaEvent_t a, b;
  MGBLAS_CHECK_CUDA(cudaEventCreate(&a));
  MGBLAS_CHECK_CUDA(cudaEventCreate(&b));
  std::vector<float> ms;
  for (int r = 0; r < repeats + 2; ++r) {
    MGBLAS_CHECK_CUDA(cudaEventRecord(a, stream));
    read_probe_kernel<<<sms * 8, 256, 0, stream>>>(static_cast<const float4*>(buf), count, sink);
    MGBLAS_CHECK_LAUNCH(stream);
    MGBLAS_CHECK_CUDA(cudaEventRecord(b, stream));
    MGBLAS_CHECK_CUDA(cudaEventSynchronize(b));
    float t = 0;
    MGBLAS_CHECK_CUDA(cudaEventElapsedTime(&t, a, b));
    if (r >= 2) ms.push_back(t);  // two warm-up runs
  }
  MGBLAS_CHECK_CUDA(cudaEventDestroy(a));
  MGBLAS_CHECK_CUDA(cudaEventDestroy(b));
  MGBLAS_CHECK_CUDA(cudaFree(buf));
  MGBLAS_CHECK_CUDA(cudaFree(sink));
  std::sort(ms.begin(), ms.end());
  const double med = ms[ms.size() / 2];
  return static_cast<double>(bytes) / (med * 1e6);
}

}  // namespace mgblas::testers
