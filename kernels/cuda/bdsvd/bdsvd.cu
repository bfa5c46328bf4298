// SPDX-License-Identifier: BSD-3-Clause
// CUDA engine of the bidiagonal SVD (kernels/bdsvd_kernels.hpp): the Golub-Kahan
// algorithm of kernels/detail/bdsvd_tgk.hpp on this engine's divide and conquer
// (stedc/), bisection (stebz/), cuSOLVER QR and cuBLAS products, plus its two copy steps.
#include <cuda_runtime.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <utility>

#include "core/detail/cuda_check.hpp"
#include "kernels/bdsvd_kernels.hpp"
#include "kernels/detail/bdsvd_tgk.hpp"
#include "kernels/gemm_kernels.hpp"
#include "kernels/larfb_kernels.hpp"
#include "kernels/stebz_kernels.hpp"
#include "kernels/stedc_kernels.hpp"
#include "kernels/sy2sb_kernels.hpp"

namespace mgblas::kernels::cuda {
namespace bdsvd {

constexpr int kThreads = 256;

unsigned blocks_for(int64_t count) {
  return static_cast<unsigned>(std::min<int64_t>((count + kThreads - 1) / kThreads, 1 << 20));
}

// One thread per entry (i, c) of X and Y, i fastest: reads rows 2i and 2i + 1 of column
// c of Z (adjacent), writes column k-1-c of X and Y (coalesced).
template <typename R>
__global__ void split_halves(int64_t n, int64_t k, const R* Z, int64_t ldz, R* X, int64_t ldx,
                             R* Y, int64_t ldy) {
  const R r2 = sqrt(R(2));
  const int64_t total = n * k;
  for (int64_t x = blockIdx.x * int64_t{blockDim.x} + threadIdx.x; x < total;
       x += int64_t{gridDim.x} * blockDim.x) {
    const int64_t i = x % n, c = x / n;
    X[i + (k - 1 - c) * ldx] = r2 * Z[2 * i + c * ldz];
    Y[i + (k - 1 - c) * ldy] = r2 * Z[2 * i + 1 + c * ldz];
  }
}

// One thread per entry: out(i, j) = Q(i, j), widened to T (zero imaginary part; the
// std::complex constructor is constexpr, run on the device by --expt-relaxed-constexpr).
template <typename R, typename T>
__global__ void store_widened(int64_t n, int64_t k, const R* Q, int64_t ldq, T* out, int64_t ldo) {
  const int64_t total = n * k;
  for (int64_t x = blockIdx.x * int64_t{blockDim.x} + threadIdx.x; x < total;
       x += int64_t{gridDim.x} * blockDim.x) {
    const int64_t i = x % n, j = x / n;
    out[i + j * ldo] = T(Q[i + j * ldq]);
  }
}

MGBLAS_BDSVD_TGK_OPS(CudaKernels, cuda)
struct CudaOps : CudaKernels {
  static void wait(const Device&, cudaStream_t stream) {
    MGBLAS_CHECK_CUDA(cudaStreamSynchronize(stream));
  }
};

}  // namespace bdsvd

#define MGBLAS_CUDA_BDSVD_(T)                                                                \
  MGBLAS_DECLARE_BDSVD_KERNEL(T) {                                                           \
    dev.make_current();                                                                      \
    kernels::detail::bidiag_svd_tgk<bdsvd::CudaOps, T>(dev, stream, uplo, n, d, e, il, iu, s, \
                                                       U, ldu, V, ldv);                     \
  }                                                                                          \
  MGBLAS_DECLARE_TGK_SPLIT_KERNEL(T) {                                                       \
    if (n * k == 0) return;                                                                  \
    dev.make_current();                                                                      \
    bdsvd::split_halves<real_type_t<T>><<<bdsvd::blocks_for(n * k), bdsvd::kThreads, 0,      \
                                          stream>>>(n, k, Z, ldz, X, ldx, Y, ldy);           \
    MGBLAS_CHECK_LAUNCH(stream);                                                             \
  }                                                                                          \
  MGBLAS_DECLARE_BDSVD_STORE_KERNEL(T) {                                                     \
    if (n * k == 0) return;                                                                  \
    dev.make_current();                                                                      \
    bdsvd::store_widened<real_type_t<T>, T>                                                  \
        <<<bdsvd::blocks_for(n * k), bdsvd::kThreads, 0, stream>>>(n, k, Q, ldq, out, ldo);  \
    MGBLAS_CHECK_LAUNCH(stream);                                                             \
  }
MGBLAS_FOR_EACH_SCALAR(MGBLAS_CUDA_BDSVD_)
#undef MGBLAS_CUDA_BDSVD_

}  // namespace mgblas::kernels::cuda
