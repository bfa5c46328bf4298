// SPDX-License-Identifier: BSD-3-Clause
// Runs a kernel of the engine that owns a queue's device: the one place that maps a
// device's back-end to kernels::host or kernels::cuda (private, not installed).
#pragma once

#include "core/device.hpp"
#include "core/error.hpp"

/// kernels::<engine>::kernel(*q.device, q.stream, args...) for the engine of q's device.
#define MGBLAS_DISPATCH(q, kernel, ...)                                                       \
  do {                                                                                        \
    switch ((q).device->backend()) {                                                          \
      case ::mgblas::Backend::Host:                                                           \
        ::mgblas::kernels::host::kernel(*(q).device, (q).stream, __VA_ARGS__);                \
        break;                                                                                \
      case ::mgblas::Backend::Cuda:                                                           \
        ::mgblas::kernels::cuda::kernel(*(q).device, (q).stream, __VA_ARGS__);                \
        break;                                                                                \
      default:                                                                                \
        MGBLAS_THROW(::mgblas::BadArgument, "device ", (q).device->name(),                    \
                     " has an unknown back-end");                                             \
    }                                                                                         \
  } while (0)
