// SPDX-License-Identifier: BSD-3-Clause
// CUDA engine of the bidiagonal reduction's small panel steps (kernels/labrd_kernels.hpp).
// Each is one short launch on the caller's stream; the reflector's scalars never leave
// the device. The sum of squares is one block's CUB reduction in a fixed order, so every
// device computes the same bits.
#include <cub/block/block_reduce.cuh>

#include <cstdint>
#include <type_traits>

#include "core/detail/cuda_check.hpp"
#include "kernels/cuda/common/device_scalar.cuh"
#include "kernels/labrd_kernels.hpp"

namespace mgblas::kernels::cuda {
namespace {

using namespace device;

constexpr int kThreads = 256;
constexpr int64_t kMaxBlocks = 65535;

template <typename D> struct Real { using type = D; };
template <> struct Real<cuFloatComplex> { using type = float; };
template <> struct Real<cuDoubleComplex> { using type = double; };
template <typename D> using real_t = typename Real<D>::type;

__device__ inline float re(float a) { return a; }
__device__ inline double re(double a) { return a; }
__device__ inline float re(cuFloatComplex a) { return a.x; }
__device__ inline double re(cuDoubleComplex a) { return a.x; }
__device__ inline float im(float) { return 0.0f; }
__device__ inline double im(double) { return 0.0; }
__device__ inline float im(cuFloatComplex a) { return a.y; }
__device__ inline double im(cuDoubleComplex a) { return a.y; }

template <typename D> __device__ inline D make(real_t<D> r, real_t<D> i = 0) {
  if constexpr (std::is_same_v<D, real_t<D>>) return r;
  else return D{r, i};
}

unsigned blocks_for(int64_t n) { return grid_dim(n, kThreads, kMaxBlocks); }

__device__ inline int64_t first_index() { return int64_t{blockIdx.x} * blockDim.x + threadIdx.x; }
__device__ inline int64_t grid_stride() { return int64_t{gridDim.x} * blockDim.x; }

template <typename D>
__global__ void copy_kernel(int64_t n, const D* x, int64_t incx, D* y, int64_t incy, bool cj) {
  for (int64_t i = first_index(); i < n; i += grid_stride()) {
    const D v = x[i * incx];
    y[i * incy] = cj ? conj(v) : v;
  }
}

template <typename D>
__global__ void lacgv_kernel(int64_t n, D* x, int64_t incx) {
  for (int64_t i = first_index(); i < n; i += grid_stride()) x[i * incx] = conj(x[i * incx]);
}

template <typename D>
__global__ void __launch_bounds__(kThreads)
    sumsq_kernel(int64_t n, const D* x, int64_t incx, D* out) {
  using R = real_t<D>;
  using Reduce = cub::BlockReduce<R, kThreads>;
  __shared__ typename Reduce::TempStorage tmp;
  R s = 0;
  for (int64_t i = threadIdx.x; i < n; i += kThreads) {
    const D v = x[i * incx];
    s += re(v) * re(v) + im(v) * im(v);
  }
  const R total = Reduce(tmp).Sum(s);
  if (threadIdx.x == 0) *out = make<D>(total);
}

template <typename D>
__global__ void reflector_kernel(const D* alpha, const D* sumsq, real_t<D>* beta_out, D* tau_out,
                                 D* scale_out, D* head1, D* head2) {
  using R = real_t<D>;
  const D a = *alpha;
  const R s = re(*sumsq), ar = re(a), ai = im(a);
  if (s == R(0) && ai == R(0)) {  // H = I
    *beta_out = ar;
    *tau_out = make<D>(0);
    *scale_out = make<D>(1);
  } else {
    const R beta = -copysign(sqrt(ar * ar + ai * ai + s), ar);
    *beta_out = beta;
    *tau_out = make<D>((beta - ar) / beta, -ai / beta);
    // 1 / (alpha - beta) = conj(z) / |z|^2 with z = alpha - beta.
    const R zr = ar - beta, zi = ai, z2 = zr * zr + zi * zi;
    *scale_out = make<D>(zr / z2, -zi / z2);
  }
  if (head1) *head1 = make<D>(1);
  if (head2) *head2 = make<D>(1);
}

template <typename D>
__global__ void scal_kernel(int64_t n, const D* s, D* x, int64_t incx) {
  const D f = *s;
  for (int64_t i = first_index(); i < n; i += grid_stride()) x[i * incx] = mul(f, x[i * incx]);
}

template <typename D>
__global__ void axpy_kernel(int64_t n, const D* s, const D* x, D* y) {
  const D f = *s;
  for (int64_t i = first_index(); i < n; i += grid_stride()) y[i] = mul_add(f, x[i], y[i]);
}

// Block (x, l): rows of column l below its diagonal.
template <typename D>
__global__ void store_kernel(int64_t m, const D* P, int64_t ldp, D* A, int64_t lda) {
  const int64_t l = blockIdx.y;
  for (int64_t r = l + 1 + first_index(); r < m; r += grid_stride()) A[r + l * lda] = P[r + l * ldp];
}

template <typename D>
__global__ void put_kernel(int64_t n, const real_t<D>* src, D* dst, int64_t inc) {
  for (int64_t i = first_index(); i < n; i += grid_stride()) dst[i * inc] = make<D>(src[i]);
}

}  // namespace

#define MGBLAS_CUDA_LABRD_(T)                                                                  \
  MGBLAS_DECLARE_LABRD_LACGV_KERNEL(T) {                                                       \
    dev.make_current();                                                                        \
    lacgv_kernel<<<blocks_for(n), kThreads, 0, stream>>>(n, device_ptr(x), incx);             \
    MGBLAS_CHECK_LAUNCH(stream);                                                               \
  }                                                                                            \
  MGBLAS_DECLARE_LABRD_COPY_KERNEL(T) {                                                        \
    dev.make_current();                                                                        \
    copy_kernel<<<blocks_for(n), kThreads, 0, stream>>>(n, device_ptr(x), incx, device_ptr(y), \
                                                        incy, conjugate);                      \
    MGBLAS_CHECK_LAUNCH(stream);                                                               \
  }                                                                                            \
  MGBLAS_DECLARE_LABRD_SUMSQ_KERNEL(T) {                                                       \
    dev.make_current();                                                                        \
    sumsq_kernel<<<1, kThreads, 0, stream>>>(n, device_ptr(x), incx, device_ptr(out));        \
    MGBLAS_CHECK_LAUNCH(stream);                                                               \
  }                                                                                            \
  MGBLAS_DECLARE_LABRD_REFLECTOR_KERNEL(T) {                                                   \
    dev.make_current();                                                                        \
    reflector_kernel<<<1, 1, 0, stream>>>(device_ptr(alpha), device_ptr(sumsq), beta_out,      \
                                          device_ptr(tau_out), device_ptr(scale_out),          \
                                          device_ptr(head1), device_ptr(head2));               \
    MGBLAS_CHECK_LAUNCH(stream);                                                               \
  }                                                                                            \
  MGBLAS_DECLARE_LABRD_SCAL_KERNEL(T) {                                                        \
    dev.make_current();                                                                        \
    scal_kernel<<<blocks_for(n), kThreads, 0, stream>>>(n, device_ptr(s), device_ptr(x), incx); \
    MGBLAS_CHECK_LAUNCH(stream);                                                               \
  }                                                                                            \
  MGBLAS_DECLARE_LABRD_AXPY_KERNEL(T) {                                                        \
    dev.make_current();                                                                        \
    axpy_kernel<<<blocks_for(n), kThreads, 0, stream>>>(n, device_ptr(s), device_ptr(x),      \
                                                        device_ptr(y));                        \
    MGBLAS_CHECK_LAUNCH(stream);                                                               \
  }                                                                                            \
  MGBLAS_DECLARE_LABRD_STORE_KERNEL(T) {                                                       \
    dev.make_current();                                                                        \
    const dim3 grid(blocks_for(m), static_cast<unsigned>(b));                                  \
    store_kernel<<<grid, kThreads, 0, stream>>>(m, device_ptr(P), ldp, device_ptr(A), lda);    \
    MGBLAS_CHECK_LAUNCH(stream);                                                               \
  }                                                                                            \
  MGBLAS_DECLARE_LABRD_PUT_KERNEL(T) {                                                         \
    dev.make_current();                                                                        \
    put_kernel<<<blocks_for(n), kThreads, 0, stream>>>(n, src, device_ptr(dst), inc);          \
    MGBLAS_CHECK_LAUNCH(stream);                                                               \
  }
MGBLAS_FOR_EACH_SCALAR(MGBLAS_CUDA_LABRD_)
#undef MGBLAS_CUDA_LABRD_

}  // namespace mgblas::kernels::cuda
