// SPDX-License-Identifier: BSD-3-Clause
// The cuBLAS wrapper instances for the four scalars, compiled once (see cublas.hpp).
#include "kernels/cuda/common/cublas.hpp"

namespace mgblas::kernels::cuda::common::cublas {

#define MGBLAS_CUBLAS_INSTANTIATE_(T) MGBLAS_CUBLAS_INSTANCES_(, T)
MGBLAS_FOR_EACH_SCALAR(MGBLAS_CUBLAS_INSTANTIATE_)
#undef MGBLAS_CUBLAS_INSTANTIATE_

}  // namespace mgblas::kernels::cuda::common::cublas
