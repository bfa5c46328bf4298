// SPDX-License-Identifier: BSD-3-Clause
// SYMV/HEMV instances for std::complex<double> (compiled on their own so the precisions build in
// parallel).
#include "kernels/cuda/level2/symv_launch.cuh"

namespace mgblas::kernels::cuda::level2 {
MGBLAS_SYMV_LEVEL2_INSTANTIATE(std::complex<double>)
}  // namespace mgblas::kernels::cuda::level2
