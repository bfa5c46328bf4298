// SPDX-License-Identifier: BSD-3-Clause
// Calibration of the model's bandwidth: the read-only streaming rate of the device
// (the ceiling of every tall-and-skinny product, which reads far more than it writes).
#include <cuda_runtime.h>

#include <algorithm>
#include <vector>

#include "core/detail/cuda_check.hpp"
#include "kernels/cuda/tsgemm/tsgemm_model.hpp"

namespace mgblas::kernels::cuda::tsm2 {
namespace {

// Mapping: grid-stride over `count` float4 values, four independent loads in flight
// per thread per step; each thread adds what it read and writes one float per block
// so the loads cannot be optimised away. No shared memory. Precondition: count > 0.
__global__ void __launch_bounds__(256) read_probe_kernel(const float4* __restrict__ p,
                                                         int64_t count, float* out) {
  const int64_t step = static_cast<int64_t>(gridDim.x) * blockDim.x;
  float s = 0.0f;
  int64_t i = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  for (; i + 3 * step < count; i += 4 * step) {
    const float4 a = __ldg(p + i), b = __ldg(p + i + step), c = __ldg(p + i + 2 * step),
                 d = __ldg(p + i + 3 * step);
    s += a.x + a.y + a.z + a.w + b.x + b.y + b.z + b.w + c.x + c.y + c.z + c.w + d.x + d.y +
         d.z + d.w;
  }
  for (; i < count; i += step) {
    const float4 a = __ldg(p + i);
    s += a.x + a.y + a.z + a.w;
  }
  if (s == 1.2345f) out[blockIdx.x] = s;  // practically never true: keeps the reads
}

}  // namespace

double measure_read_bandwidth(cudaStream_t stream, std::size_t bytes, int reps) {
  const int64_t count = static_cast<int64_t>(bytes / sizeof(float4));
  if (count <= 0 || reps < 1) return 0.0;
  int dev = 0, sms = 0;
  MGBLAS_CHECK_CUDA(cudaGetDevice(&dev));
  MGBLAS_CHECK_CUDA(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev));
  void* buf = nullptr;
  float* out = nullptr;
  const unsigned grid = static_cast<unsigned>(sms) * 8;
  MGBLAS_CHECK_CUDA(cudaMalloc(&buf, static_cast<std::size_t>(count) * sizeof(float4)));
  cudaEvent_t start = nullptr, stop = nullptr;
  std::vector<float> ms(static_cast<std::size_t>(reps));
  auto cleanup = [&] {
    if (start) cudaEventDestroy(start);
    if (stop) cudaEventDestroy(stop);
    cudaFree(out);
    cudaFree(buf);
  };
  try {
    MGBLAS_CHECK_CUDA(cudaMalloc(&out, grid * sizeof(float)));
    MGBLAS_CHECK_CUDA(
        cudaMemsetAsync(buf, 0, static_cast<std::size_t>(count) * sizeof(float4), stream));
    MGBLAS_CHECK_CUDA(cudaEventCreate(&start));
    MGBLAS_CHECK_CUDA(cudaEventCreate(&stop));
    read_probe_kernel<<<grid, 256, 0, stream>>>(static_cast<const float4*>(buf), count, out);
    MGBLAS_CHECK_LAUNCH(stream);
    for (int r = 0; r < reps; ++r) {
      MGBLAS_CHECK_CUDA(cudaEventRecord(start, stream));
      read_probe_kernel<<<grid, 256, 0, stream>>>(static_cast<const float4*>(buf), count, out);
      MGBLAS_CHECK_LAUNCH(stream);
      MGBLAS_CHECK_CUDA(cudaEventRecord(stop, stream));
      MGBLAS_CHECK_CUDA(cudaEventSynchronize(stop));
      MGBLAS_CHECK_CUDA(cudaEventElapsedTime(&ms[static_cast<std::size_t>(r)], start, stop));
    }
  } catch (...) {
    cleanup();
    throw;
  }
  cleanup();
  std::sort(ms.begin(), ms.end());
  const double med = ms[ms.size() / 2];
  return med > 0 ? static_cast<double>(count) * sizeof(float4) / (med * 1e6) : 0.0;
}

}  // namespace mgblas::kernels::cuda::tsm2
