// SPDX-License-Identifier: BSD-3-Clause
// What the testers share: see tester_common.hpp.
#include "testers/tester_common.hpp"

#include "core/config.hpp"
#include "core/detail/cuda_runtime.hpp"
#include "core/memory.hpp"

namespace mgblas::testers {

std::vector<int64_t> parse_range(const std::string& range) {
  long long a = 0, b = 0, c = 1;
  if (std::sscanf(range.c_str(), "%lld:%lld:%lld", &a, &b, &c) < 2 || c <= 0)
    throw std::invalid_argument("--range wants start:stop[:step]");
  std::vector<int64_t> out;
  for (long long v = a; v <= b; v += c) out.push_back(v);
  return out;
}

std::string command_line(int argc, char** argv) {
  std::string cmd;
  for (int i = 0; i < argc; ++i) cmd += std::string(i ? " " : "") + argv[i];
  return cmd;
}

std::string format(const char* f, double v) {
  char b[64];
  std::snprintf(b, sizeof b, f, v);
  return b;
}

std::string version_line(const char* tester) {
  char b[512];
  std::snprintf(b, sizeof b, "# mgblas %s %s; %s; cuBLAS %d", MGBLAS_VERSION_STRING, tester,
                detail::cuda_version_string().c_str(), CUBLAS_VERSION);
  return b;
}

std::string device_line(const cudaDeviceProp& prop) {
  char b[512];
  std::snprintf(b, sizeof b, "# device 0: %s, sm_%d%d, %d SMs, L2 %.0f MiB, %.1f GiB", prop.name,
                prop.major, prop.minor, prop.multiProcessorCount, prop.l2CacheSize / 1048576.0,
                prop.totalGlobalMem / 1073741824.0);
  return b;
}

std::unique_ptr<Device> open_gpu0(cudaDeviceProp& prop) {
  if (cuda_device_count() == 0) {
    std::printf("# no CUDA GPU visible: nothing to test\n");
    return nullptr;
  }
  auto dev = Device::make_cuda(0, 0);
  dev->make_current();
  MGBLAS_CHECK_CUDA(cudaGetDeviceProperties(&prop, 0));
  return dev;
}

double copy_bandwidth(const Device& dev) {
  const std::size_t bytes = std::size_t{1} << 31;  // 2 GiB each way: far beyond the L2
  DeviceBuffer<char> a(dev, bytes), b(dev, bytes);
  fill_uniform(dev.stream(), a.data(), static_cast<int64_t>(bytes / 4), false, 7);
  const double ms = median_ms(dev.stream(), 3, 20, [&](int) {
    MGBLAS_CHECK_CUDA(cudaMemcpyAsync(b.data(), a.data(), bytes, cudaMemcpyDeviceToDevice,
                                      dev.stream()));
  });
  return 2.0 * static_cast<double>(bytes) / (ms * 1e6);
}

// ---- cuBLAS ----------------------------------------------------------------------------

double nrm2(cublasHandle_t h, int64_t n, const float* x) {
  float r = 0;
  MGBLAS_CHECK_CUBLAS(cublasSnrm2_64(h, n, x, 1, &r));
  return r;
}
double nrm2(cublasHandle_t h, int64_t n, const double* x) {
  double r = 0;
  MGBLAS_CHECK_CUBLAS(cublasDnrm2_64(h, n, x, 1, &r));
  return r;
}
double nrm2(cublasHandle_t h, int64_t n, const scomplex* x) {
  float r = 0;
  MGBLAS_CHECK_CUBLAS(cublasScnrm2_64(h, n, reinterpret_cast<const cuComplex*>(x), 1, &r));
  return r;
}
double nrm2(cublasHandle_t h, int64_t n, const zcomplex* x) {
  double r = 0;
  MGBLAS_CHECK_CUBLAS(cublasDznrm2_64(h, n, reinterpret_cast<const cuDoubleComplex*>(x), 1, &r));
  return r;
}

void subtract(cublasHandle_t h, int64_t n, const float* x, float* y) {
  const float a = -1;
  MGBLAS_CHECK_CUBLAS(cublasSaxpy_64(h, n, &a, x, 1, y, 1));
}
void subtract(cublasHandle_t h, int64_t n, const double* x, double* y) {
  const double a = -1;
  MGBLAS_CHECK_CUBLAS(cublasDaxpy_64(h, n, &a, x, 1, y, 1));
}
void subtract(cublasHandle_t h, int64_t n, const scomplex* x, scomplex* y) {
  const cuComplex a{-1, 0};
  MGBLAS_CHECK_CUBLAS(cublasCaxpy_64(h, n, &a, reinterpret_cast<const cuComplex*>(x), 1,
                                     reinterpret_cast<cuComplex*>(y), 1));
}
void subtract(cublasHandle_t h, int64_t n, const zcomplex* x, zcomplex* y) {
  const cuDoubleComplex a{-1, 0};
  MGBLAS_CHECK_CUBLAS(cublasZaxpy_64(h, n, &a, reinterpret_cast<const cuDoubleComplex*>(x), 1,
                                     reinterpret_cast<cuDoubleComplex*>(y), 1));
}

}  // namespace mgblas::testers
