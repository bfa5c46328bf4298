// SPDX-License-Identifier: BSD-3-Clause
// Check macros for CUDA runtime and cuBLAS calls. Only for files compiled against
// the CUDA toolkit; `expr` is evaluated once and the message names the call, the
// current device and the library's own error text.
#pragma once

#include <cublas_v2.h>
#include <cuda_runtime.h>

#include "core/config.hpp"
#include "core/error.hpp"

namespace mgblas::detail {
inline int current_cuda_device() noexcept {
  int dev = -1;
  if (cudaGetDevice(&dev) != cudaSuccess) dev = -1;
  return dev;
}
}  // namespace mgblas::detail

#define MGBLAS_CHECK_CUDA(expr)                                                          \
  do {                                                                                   \
    const cudaError_t mgblas_err_ = (expr);                                              \
    if (mgblas_err_ != cudaSuccess)                                                      \
      throw ::mgblas::CudaError(__FILE__, __LINE__, __func__,                            \
                                ::mgblas::detail::concat(#expr, " failed on cuda:",      \
                                    ::mgblas::detail::current_cuda_device(), ": ",       \
                                    cudaGetErrorName(mgblas_err_), " (",                 \
                                    cudaGetErrorString(mgblas_err_), ")"),               \
                                static_cast<int>(mgblas_err_));                          \
  } while (0)

#define MGBLAS_CHECK_CUBLAS(expr)                                                        \
  do {                                                                                   \
    const cublasStatus_t mgblas_st_ = (expr);                                            \
    if (mgblas_st_ != CUBLAS_STATUS_SUCCESS)                                             \
      throw ::mgblas::CublasError(__FILE__, __LINE__, __func__,                          \
                                  ::mgblas::detail::concat(#expr, " failed on cuda:",    \
                                      ::mgblas::detail::current_cuda_device(), ": ",     \
                                      cublasGetStatusName(mgblas_st_), " (",             \
                                      cublasGetStatusString(mgblas_st_), ")"),           \
                                  static_cast<int>(mgblas_st_));                         \
  } while (0)

/// After a kernel launch: report a bad launch configuration at once, and with
/// MGBLAS_DEBUG_SYNC also wait so that a fault is attributed to this kernel.
#define MGBLAS_CHECK_LAUNCH(stream)                                   \
  do {                                                                \
    MGBLAS_CHECK_CUDA(cudaGetLastError());                            \
    if (MGBLAS_HAVE_DEBUG_SYNC) MGBLAS_CHECK_CUDA(cudaStreamSynchronize(stream)); \
  } while (0)
