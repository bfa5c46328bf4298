// SPDX-License-Identifier: BSD-3-Clause
// Stamps every kernel declaration into each back-end namespace, so the host and CUDA
// engines cannot drift apart: an <op>_kernels.hpp defines MGBLAS_DECLARE_<OP>_KERNEL(T)
// once and calls MGBLAS_DECLARE_FOR_BACKENDS with it.
//
// Kernel contract (both engines): arguments are already validated by the public entry
// (kernels/blas.cpp); pointers are memory of `dev`; a CUDA kernel is queued on
// `stream` and returns without waiting; a host kernel runs to completion on the
// calling thread and ignores `stream`.
#pragma once

#include <cstdint>

#include "core/device.hpp"
#include "core/types.hpp"

// Only the precisions of MGBLAS_PRECISIONS are declared, so a use of another one is
// a compile error rather than a link error.
#define MGBLAS_DECLARE_ONE_(T, DECLARE) DECLARE(T);

#define MGBLAS_DECLARE_FOR_BACKENDS(DECLARE)                         \
  namespace mgblas::kernels::host {                                  \
  MGBLAS_FOR_EACH_SCALAR(MGBLAS_DECLARE_ONE_, DECLARE)               \
  }                                                                  \
  namespace mgblas::kernels::cuda {                                  \
  MGBLAS_FOR_EACH_SCALAR(MGBLAS_DECLARE_ONE_, DECLARE)               \
  }
