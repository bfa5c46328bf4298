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

#define MGBLAS_DECLARE_FOR_EACH_SCALAR_(DECLARE) \
  DECLARE(float);                               \
  DECLARE(double);                              \
  DECLARE(std::complex<float>);                 \
  DECLARE(std::complex<double>)

#define MGBLAS_DECLARE_FOR_BACKENDS(DECLARE)                         \
  namespace mgblas::kernels::host {                                  \
  MGBLAS_DECLARE_FOR_EACH_SCALAR_(DECLARE);                          \
  }                                                                  \
  namespace mgblas::kernels::cuda {                                  \
  MGBLAS_DECLARE_FOR_EACH_SCALAR_(DECLARE);                          \
  }
