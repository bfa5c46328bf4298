// SPDX-License-Identifier: BSD-3-Clause
// Tall-and-skinny GEMM instances for double (compiled on their own so the precisions
// build in parallel).
#include "kernels/cuda/tsgemm/tsgemm_launch.cuh"

namespace mgblas::kernels::cuda::tsm2 {
MGBLAS_TSGEMM_INSTANTIATE(double)
}  // namespace mgblas::kernels::cuda::tsm2
