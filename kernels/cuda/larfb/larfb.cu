// SPDX-License-Identifier: BSD-3-Clause
// CUDA engine of the block-reflector steps (kernels/larfb_kernels.hpp).
//
// larft is G = V^H V on cuBLAS (the O(m b^2) part, a gemm) followed by the O(b^3)
// recurrence in one thread block (forward: Tm(0:j, j) = -tau[j] Tm(0:j, 0:j) G(0:j, j);
// backward the mirror image, from the last column): b <= 128 makes it microseconds, and
// nothing waits for the host.
#include <cstdint>
#include <type_traits>

#include "core/detail/cuda_check.hpp"
#include "kernels/cuda/common/device_scalar.cuh"
#include "kernels/cuda/common/cublas.hpp"
#include "kernels/larfb_kernels.hpp"

namespace mgblas::kernels::cuda {
namespace {

using namespace common;

constexpr int kThreads = 256;
constexpr int64_t kMaxBlocks = 65535;
// One thread per row of Tm: must be at least kLarftMaxBlock.
constexpr int kLarftThreads = 128;
static_assert(kLarftThreads >= kLarftMaxBlock, "larft_kernel: one thread per row of Tm");

// ---- form_v: the explicit V (units and zeros written, A read on its stored side) -------
// Threads over rows (grid-stride in x), blockIdx.y over columns (grid-stride in y).
template <typename D>
__global__ void __launch_bounds__(kThreads)
    form_v_kernel(bool backward, int64_t m, int64_t b, const D* A, int64_t lda, D* V,
                  int64_t ldv) {
  for (int64_t j = blockIdx.y; j < b; j += gridDim.y) {
    const int64_t u = backward ? m - b + j : j;  // the row of column j's unit
    for (int64_t i = int64_t{blockIdx.x} * blockDim.x + threadIdx.x; i < m;
         i += int64_t{gridDim.x} * blockDim.x) {
      const bool stored = backward ? i < u : i > u;
      V[i + j * ldv] =
          stored ? A[i + j * lda] : (i == u ? make_scalar<D>(1) : make_scalar<D>(0));
    }
  }
}

// ---- larft: the triangular recurrence --------------------------------------------------
// One block of kLarftThreads threads; thread i owns row i of Tm. On entry Tm holds
// G = V^H V; the recurrence reads its strict upper triangle (forward) or strict lower
// (backward), the side Tm fills. Column j needs the columns before it in the recurrence's
// order finished (forward 0..j-1, backward j+1..b-1), so the columns go in that order,
// two barriers each; G's part of column j is staged in shared memory (g) because the
// column is overwritten in place. kShared: Tm is worked on in shared memory (b x b,
// leading dimension b), which takes the global-memory latency out of the O(b) dependent
// steps; without it (b^2 elements past the device's shared memory) the recurrence reads
// Tm where it lies.
template <typename D, bool kShared, bool kBackward>
__global__ void __launch_bounds__(kLarftThreads)
    larft_kernel(int b, const D* tau, D* Tm, int64_t ldt) {
  extern __shared__ __align__(16) unsigned char smem_raw[];
  D* g = reinterpret_cast<D*>(smem_raw);
  D* Ts = kShared ? g + kLarftThreads : Tm;
  const int64_t ld = kShared ? b : ldt;
  const int i = threadIdx.x;
  // Row i's entries of column j that the recurrence fills: below j (backward) or above.
  auto filled = [i](int j) { return kBackward ? i > j : i < j; };
  if (kShared && i < b)
    for (int j = 0; j < b; ++j)
      if (filled(j)) Ts[i + j * ld] = Tm[i + j * ldt];
  __syncthreads();
  for (int step = 0; step < b; ++step) {
    const int j = kBackward ? b - 1 - step : step;
    if (i < b && filled(j)) g[i] = Ts[i + j * ld];
    __syncthreads();
    if (i < b) {
      D v = make_scalar<D>(0);
      if (filled(j)) {
        // Row i of the finished triangle times g: forward Tm(i, i:j) g(i:j), backward
        // Tm(i, j+1:i+1) g(j+1:i+1) (both triangular, so the sums stop at the diagonal).
        D s = make_scalar<D>(0);
        const int l0 = kBackward ? j + 1 : i, l1 = kBackward ? i + 1 : j;
#pragma unroll 4
        for (int l = l0; l < l1; ++l) s = mul_add(Ts[i + l * ld], g[l], s);
        v = neg(mul(tau[j], s));
      } else if (i == j) {
        v = tau[j];
      }
      Ts[i + j * ld] = v;
    }
    __syncthreads();
  }
  if (kShared && i < b)
    for (int j = 0; j < b; ++j) Tm[i + j * ldt] = Ts[i + j * ld];
}

template <Scalar T>
void form_v(const Device& dev, cudaStream_t stream, Direction dir, int64_t m, int64_t b,
            const T* A, int64_t lda, T* V, int64_t ldv) {
  if (m <= 0 || b <= 0) return;
  dev.make_current();
  const dim3 grid(grid_dim(m, kThreads, kMaxBlocks),
                  static_cast<unsigned>(b < kMaxGridY ? b : kMaxGridY));
  form_v_kernel<device_t<T>><<<grid, kThreads, 0, stream>>>(
      dir == Direction::Backward, m, b, device_ptr(A), lda, device_ptr(V), ldv);
  MGBLAS_CHECK_LAUNCH(stream);
}

template <typename D, bool kBackward>
void launch_larft(const Device& dev, cudaStream_t stream, int b, const D* tau, D* Tm,
                  int64_t ldt) {
  const std::size_t stage = kLarftThreads * sizeof(D);
  const std::size_t whole = stage + static_cast<std::size_t>(b) * b * sizeof(D);
  int optin = 0;
  MGBLAS_CHECK_CUDA(
      cudaDeviceGetAttribute(&optin, cudaDevAttrMaxSharedMemoryPerBlockOptin, dev.gpu_ordinal()));
  if (whole <= static_cast<std::size_t>(optin)) {
    // Past 48 KiB (b = 64 complex double) a kernel must opt in to its shared memory.
    MGBLAS_CHECK_CUDA(cudaFuncSetAttribute(larft_kernel<D, true, kBackward>,
                                           cudaFuncAttributeMaxDynamicSharedMemorySize,
                                           static_cast<int>(whole)));
    larft_kernel<D, true, kBackward><<<1, kLarftThreads, whole, stream>>>(b, tau, Tm, ldt);
  } else {
    larft_kernel<D, false, kBackward><<<1, kLarftThreads, stage, stream>>>(b, tau, Tm, ldt);
  }
  MGBLAS_CHECK_LAUNCH(stream);
}

template <Scalar T>
void larft(const Device& dev, cudaStream_t stream, Direction dir, int64_t m, int64_t b,
           const T* V, int64_t ldv, const T* tau, T* Tm, int64_t ldt) {
  using D = device_t<T>;
  if (b <= 0) return;
  if (b > kLarftMaxBlock)
    MGBLAS_THROW(BadArgument, "larft: b = ", b, " exceeds kLarftMaxBlock = ", kLarftMaxBlock);
  dev.make_current();
  // G = V^H V into Tm (the kernel reads the strict triangle it fills).
  common::cublas::gemm<T>(dev.cublas(), stream, Op::C, Op::N, b, b, m, T(1), V, ldv, V, ldv,
                          T(0), Tm, ldt);
  const int bi = static_cast<int>(b);
  if (dir == Direction::Backward)
    launch_larft<D, true>(dev, stream, bi, device_ptr(tau), device_ptr(Tm), ldt);
  else
    launch_larft<D, false>(dev, stream, bi, device_ptr(tau), device_ptr(Tm), ldt);
}

}  // namespace

#define MGBLAS_CUDA_LARFB_(T)                                                             \
  MGBLAS_DECLARE_LARFB_FORM_V_KERNEL(T) {                                                \
    form_v<T>(dev, stream, dir, m, b, A, lda, V, ldv);                                    \
  }                                                                                       \
  MGBLAS_DECLARE_LARFT_KERNEL(T) { larft<T>(dev, stream, dir, m, b, V, ldv, tau, Tm, ldt); }
MGBLAS_FOR_EACH_SCALAR(MGBLAS_CUDA_LARFB_)
#undef MGBLAS_CUDA_LARFB_

}  // namespace mgblas::kernels::cuda
