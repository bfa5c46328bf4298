// SPDX-License-Identifier: BSD-3-Clause
// GEMV instances for std::complex<double> (compiled on their own so the precisions build in parallel).
#include "kernels/cuda/level2/gemv_launch.cuh"

namespace mgblas::kernels::cuda::level2 {
MGBLAS_GEMV_LEVEL2_INSTANTIATE(std::complex<double>)
}  // namespace mgblas::kernels::cuda::level2
