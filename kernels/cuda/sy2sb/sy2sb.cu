// SPDX-License-Identifier: BSD-3-Clause
// CUDA engine of the dense-to-band steps (kernels/sy2sb_kernels.hpp): a panel's QR on
// cuSOLVER (its 64-bit Xgeqrf), the band's copy as one kernel.
#include <cusolverDn.h>

#include <algorithm>
#include <cstddef>
#include <map>
#include <mutex>
#include <vector>

#include "core/detail/cuda_check.hpp"
#include "kernels/cuda/common/device_scalar.cuh"
#include "kernels/cuda/common/launchers.hpp"
#include "kernels/sy2sb_kernels.hpp"

#define MGBLAS_CHECK_CUSOLVER(expr)                                                         \
  do {                                                                                      \
    const cusolverStatus_t mgblas_st_ = (expr);                                             \
    if (mgblas_st_ != CUSOLVER_STATUS_SUCCESS)                                              \
      throw ::mgblas::Error(__FILE__, __LINE__, __func__,                                   \
                            ::mgblas::detail::concat(#expr, " failed on cuda:",             \
                                ::mgblas::detail::current_cuda_device(), ": status ",      \
                                static_cast<int>(mgblas_st_)),                              \
                            static_cast<int>(mgblas_st_));                                  \
  } while (0)

namespace mgblas::kernels::cuda {
namespace sy2sb {
namespace {

using common::device_t;

// One cuSOLVER handle and parameter set per GPU, made on first use and kept for the
// process's life (a handle costs milliseconds to create; a panel's QR, less).
struct Solver {
  cusolverDnHandle_t handle = nullptr;
  cusolverDnParams_t params = nullptr;
};

Solver& solver_of(int ordinal) {
  static std::mutex mutex;
  static std::map<int, Solver> solvers;
  const std::lock_guard lock(mutex);
  Solver& s = solvers[ordinal];
  if (!s.handle) {
    MGBLAS_CHECK_CUSOLVER(cusolverDnCreate(&s.handle));
    MGBLAS_CHECK_CUSOLVER(cusolverDnCreateParams(&s.params));
  }
  return s;
}

template <Scalar T>
constexpr cudaDataType data_type() {
  if constexpr (std::is_same_v<T, float>) return CUDA_R_32F;
  else if constexpr (std::is_same_v<T, double>) return CUDA_R_64F;
  else if constexpr (std::is_same_v<T, scomplex>) return CUDA_C_32F;
  else return CUDA_C_64F;
}

template <Scalar T>
void geqrf(const Device& dev, cudaStream_t stream, int64_t m, int64_t n, T* A, int64_t lda,
           T* tau) {
  if (m == 0 || n == 0) return;
  dev.make_current();
  // Serialised per GPU: the handle is bound to this call's stream until it returns.
  Solver& s = solver_of(dev.gpu_ordinal());
  MGBLAS_CHECK_CUSOLVER(cusolverDnSetStream(s.handle, stream));
  constexpr cudaDataType type = data_type<T>();
  size_t device_bytes = 0, host_bytes = 0;
  MGBLAS_CHECK_CUSOLVER(cusolverDnXgeqrf_bufferSize(s.handle, s.params, m, n, type, A, lda, type,
                                                    tau, type, &device_bytes, &host_bytes));
  // The workspace and info come from the stream-ordered pool: freed as soon as the
  // factorisation has run, with no wait here.
  void* work = nullptr;
  MGBLAS_CHECK_CUDA(cudaMallocAsync(&work, device_bytes + 2 * sizeof(int), stream));
  std::vector<std::byte> host_work(host_bytes);
  // info after the workspace, rounded up to an int's alignment.
  const size_t info_at = (device_bytes + sizeof(int) - 1) / sizeof(int) * sizeof(int);
  int* info = reinterpret_cast<int*>(static_cast<std::byte*>(work) + info_at);
  MGBLAS_CHECK_CUSOLVER(cusolverDnXgeqrf(s.handle, s.params, m, n, type, A, lda, type, tau, type,
                                         work, device_bytes, host_work.data(), host_bytes,
                                         info));
  MGBLAS_CHECK_CUDA(cudaFreeAsync(work, stream));
}

constexpr int kBandThreads = 128;

// One thread per (band row, column): blockIdx.x walks the device's columns.
template <typename D>
__global__ void __launch_bounds__(kBandThreads)
    pack_band_kernel(bool lower, int64_t n, int64_t b, LocalColumns cols, const D* A,
                     int64_t ld, D* AB, int64_t ldab) {
  for (int64_t t = blockIdx.x; t < cols.count(); t += gridDim.x) {
    const int64_t jl = cols.local_begin + t, c = cols.global_col(jl);
    const D* col = A + jl * ld;
    for (int64_t k = threadIdx.x; k <= b; k += blockDim.x) {
      if (k == 0) {
        AB[c * ldab] = common::make_scalar<D>(common::real_part(col[c]));
      } else if (lower) {
        if (c + k < n) AB[k + c * ldab] = col[c + k];
      } else if (c - k >= 0) {
        AB[k + (c - k) * ldab] = common::conj(col[c - k]);
      }
    }
  }
}

}  // namespace
}  // namespace sy2sb

#define MGBLAS_CUDA_SY2SB_(T)                                                                 \
  MGBLAS_DECLARE_GEQRF_KERNEL(T) { sy2sb::geqrf<T>(dev, stream, m, n, A, lda, tau); }         \
  MGBLAS_DECLARE_PACK_BAND_KERNEL(T) {                                                        \
    if (cols.count() == 0) return;                                                            \
    dev.make_current();                                                                       \
    const auto blocks = static_cast<unsigned>(std::min<int64_t>(cols.count(), 65535));        \
    sy2sb::pack_band_kernel<<<blocks, sy2sb::kBandThreads, 0, stream>>>(                       \
        uplo == Uplo::Lower, n, b, cols, common::device_ptr(A), ld, common::device_ptr(AB),    \
        ldab);                                                                                \
    MGBLAS_CHECK_LAUNCH(stream);                                                              \
  }
MGBLAS_FOR_EACH_SCALAR(MGBLAS_CUDA_SY2SB_)
#undef MGBLAS_CUDA_SY2SB_

}  // namespace mgblas::kernels::cuda
