// SPDX-License-Identifier: BSD-3-Clause
// Output scaling by beta: where an operation has nothing to add (zero inner
// dimension, alpha == 0) cuBLAS returns without touching the output, but mgblas
// promises output = beta * output.
#include "core/detail/cuda_check.hpp"
#include "kernels/cuda/common/device_scalar.cuh"
#include "kernels/cuda/common/launchers.hpp"

namespace mgblas::kernels::cuda::common {
namespace {

constexpr int kScaleThreads = 256;

// Mapping: blockIdx.y grid-strides over batch entries; the threads of blockIdx.x
// grid-stride over the m * n elements of that entry, i fastest (coalesced for a
// matrix with inc = 1). Entry b is Carray[b] when Carray is given, else
// C + b * strideC. beta == 0 stores zeros without loading (the output may hold NaN).
template <typename D>
__global__ void __launch_bounds__(kScaleThreads)
    scale_kernel(int64_t m, int64_t n, D beta, D* C, int64_t inc, int64_t ld, int64_t strideC,
                 D* const* Carray, int64_t batch) {
  const int64_t count = m * n;
  const int64_t step = static_cast<int64_t>(gridDim.x) * blockDim.x;
  const bool overwrite = common::is_zero(beta);
  for (int64_t b = blockIdx.y; b < batch; b += gridDim.y) {
    D* Cb = Carray != nullptr ? Carray[b] : C + b * strideC;
    for (int64_t idx = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; idx < count;
         idx += step) {
      D& c = Cb[(idx % m) * inc + (idx / m) * ld];
      c = overwrite ? D{} : common::mul(beta, c);
    }
  }
}

template <Scalar T>
void launch_scale(cudaStream_t stream, int64_t m, int64_t n, T beta, T* C, int64_t inc,
                  int64_t ld, int64_t strideC, T* const* Carray, int64_t batch) {
  if (m <= 0 || n <= 0 || batch <= 0 || beta == T(1)) return;
  // 2^16 blocks in x keep every SM busy; past that threads loop.
  const dim3 grid(common::grid_dim(m * n, kScaleThreads, 65536),
                  common::grid_dim(batch, 1, common::kMaxGridY));
  scale_kernel<<<grid, kScaleThreads, 0, stream>>>(m, n, common::to_device(beta),
                                                   common::device_ptr(C), inc, ld, strideC,
                                                   common::device_ptr_array(Carray), batch);
  MGBLAS_CHECK_LAUNCH(stream);
}

}  // namespace

template <Scalar T>
void scale(cudaStream_t stream, int64_t m, int64_t n, T beta, T* C, int64_t inc, int64_t ld,
           int64_t strideC, int64_t batch) {
  launch_scale<T>(stream, m, n, beta, C, inc, ld, strideC, nullptr, batch);
}

template <Scalar T>
void scale_batched(cudaStream_t stream, int64_t m, int64_t n, T beta, T* const* Carray,
                   int64_t ld, int64_t batch) {
  launch_scale<T>(stream, m, n, beta, nullptr, 1, ld, 0, Carray, batch);
}

#define MGBLAS_INSTANTIATE_SCALE_(T)                                                         \
  template void scale<T>(cudaStream_t, int64_t, int64_t, T, T*, int64_t, int64_t, int64_t,   \
                         int64_t);                                                           \
  template void scale_batched<T>(cudaStream_t, int64_t, int64_t, T, T* const*, int64_t,      \
                                 int64_t);
MGBLAS_FOR_EACH_SCALAR(MGBLAS_INSTANTIATE_SCALE_)
#undef MGBLAS_INSTANTIATE_SCALE_

}  // namespace mgblas::kernels::cuda::common
