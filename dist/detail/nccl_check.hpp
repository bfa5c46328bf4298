// SPDX-License-Identifier: BSD-3-Clause
// MGBLAS_CHECK_NCCL(expr): turns a failed NCCL call into an NcclError naming the call,
// the MPI rank, the current CUDA device, NCCL's error string and NCCL's last-error text
// (which says which peer or transport failed). `expr` is evaluated once. Only for files
// compiled with NCCL (MGBLAS_HAVE_NCCL).
#pragma once

#include <nccl.h>

#include "core/config.hpp"
#include "core/detail/cuda_check.hpp"
#include "core/error.hpp"
#if MGBLAS_HAVE_MPI
#include "core/detail/mpi_check.hpp"
#endif

namespace mgblas::detail {

inline int nccl_rank_for_message() noexcept {
#if MGBLAS_HAVE_MPI
  return world_rank_or_minus_one();
#else
  return 0;
#endif
}

/// Raises NcclError for `call` having returned `result`.
[[noreturn]] inline void throw_nccl(const char* file, int line, const char* func, const char* call,
                                    ncclResult_t result) {
  const char* last = ncclGetLastError(nullptr);  // the calling thread's last NCCL error
  throw NcclError(file, line, func,
                  concat(call, " failed on rank ", nccl_rank_for_message(), ", cuda:",
                         current_cuda_device(), ": ", ncclGetErrorString(result),
                         last && *last ? " (" : "", last ? last : "", last && *last ? ")" : ""),
                  static_cast<int>(result));
}

}  // namespace mgblas::detail

#define MGBLAS_CHECK_NCCL(expr)                                                       \
  do {                                                                                \
    const ncclResult_t mgblas_nccl_ = (expr);                                         \
    if (mgblas_nccl_ != ncclSuccess)                                                  \
      ::mgblas::detail::throw_nccl(__FILE__, __LINE__, __func__, #expr, mgblas_nccl_); \
  } while (0)
