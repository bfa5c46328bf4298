// SPDX-License-Identifier: BSD-3-Clause
// The CUDA engine's Q2 application for float (compiled on its own so the precisions build in
// parallel; apply_q.cuh holds the kernels).
#include "kernels/cuda/sb2st/apply_q.cuh"

namespace mgblas::kernels::cuda {
MGBLAS_DECLARE_SB2ST_APPLY_Q_KERNEL(float) {
  sb2st::apply_q<float>(dev, stream, op, n, b, V2, tau2, m, C, ldc);
}
}  // namespace mgblas::kernels::cuda
