// SPDX-License-Identifier: BSD-3-Clause
// Transitional: the cuBLAS wrappers moved to kernels/cuda/common/cublas.hpp (namespace
// kernels::cuda::common::cublas). Kept only for tests/testers/, which includes this
// path; remove once the testers include the new one.
#pragma once

#include "kernels/cuda/common/cublas.hpp"

namespace mgblas::kernels::cuda {
namespace cublas = common::cublas;
}  // namespace mgblas::kernels::cuda
