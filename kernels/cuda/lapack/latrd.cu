// SPDX-License-Identifier: BSD-3-Clause
// CUDA engine of the tridiagonal reduction's panel steps (kernels/latrd_kernels.hpp).
//
// Every step is one or two launches over the rows of the panel and never waits for the
// host: the reflector's norm, the panel's dot products and w^H v are block sums combined
// by the last block to finish (a counter in `work`), in block order, so every device of
// a reduction computes bit-identical reflectors from identical inputs.
//
// work layout: [0, 64) counters (reset by the block that used them); [64, 128) scalars
// passed between launches (the reflector's scale, the finish's alpha); [kPartials, ...)
// the blocks' partial sums.
#include <cub/block/block_reduce.cuh>

#include <cstdint>

#include "core/detail/cuda_check.hpp"
#include "kernels/cuda/common/device_scalar.cuh"
#include "kernels/gemm_kernels.hpp"
#include "kernels/latrd_kernels.hpp"

namespace mgblas::kernels::cuda {
namespace {

using namespace device;

constexpr int kThreads = 256;
constexpr int kMaxBlocks = 512;  // partial sums: 512 * 2 * kLatrdMaxPanel * 16 B = 2 MiB
constexpr std::size_t kScalars = 64, kPartials = 4096;
static_assert(kPartials + std::size_t{kMaxBlocks} * 2 * kLatrdMaxPanel * 16 <= kLatrdWorkBytes);

__device__ inline float real_of(float a) { return a; }
__device__ inline double real_of(double a) { return a; }
__device__ inline float real_of(cuFloatComplex a) { return a.x; }
__device__ inline double real_of(cuDoubleComplex a) { return a.x; }
__device__ inline float imag_of(float) { return 0.0f; }
__device__ inline double imag_of(double) { return 0.0; }
__device__ inline float imag_of(cuFloatComplex a) { return a.y; }
__device__ inline double imag_of(cuDoubleComplex a) { return a.y; }

template <typename D> struct Real { using type = D; };
template <> struct Real<cuFloatComplex> { using type = float; };
template <> struct Real<cuDoubleComplex> { using type = double; };
template <typename D> using real_t = typename Real<D>::type;

template <typename D> __device__ inline D make(real_t<D> re, real_t<D> im = 0) {
  if constexpr (std::is_same_v<D, real_t<D>>) return re;
  else return D{re, im};
}
template <typename D> __device__ inline D neg(D a) { return make<D>(-real_of(a), -imag_of(a)); }
template <typename D> __device__ inline D sub(D a, D b) { return add(a, neg(b)); }
template <typename D> __device__ inline real_t<D> abs2(D a) {
  return real_of(a) * real_of(a) + imag_of(a) * imag_of(a);
}

// Sums of T with CUB (complex as two reals in one pass: a struct with operator+).
template <typename D> struct Sum {
  D v;
  __device__ Sum operator+(const Sum& o) const { return {add(v, o.v)}; }
};

// Whether this block is the last of the grid to reach this point; the other blocks'
// writes before it are then visible to it. Resets the counter for the next launch.
__device__ inline bool last_block(unsigned* counter) {
  __shared__ bool last;
  __syncthreads();
  if (threadIdx.x == 0) {
    __threadfence();
    last = atomicAdd(counter, 1u) == gridDim.x - 1;
    if (last) *counter = 0;
  }
  __syncthreads();
  if (last) __threadfence();
  return last;
}

// ---- step 1 + 2: the column update and the reflector's norm --------------------------
// Threads over rows r in [j, m) of column j (grid-stride); row j's values of V and W
// (conjugated) in shared memory. Blocks add |a_r|^2 for r >= j + 2; the last block
// forms beta, tau, d, e and the scale 1/(alpha - beta) of v (applied by the next launch).
template <typename D>
__global__ void __launch_bounds__(kThreads)
    reflector_kernel(bool herm, int64_t m, int64_t j, D* Pn, int64_t ldp, const D* W,
                     int64_t ldw, real_t<D>* d, real_t<D>* e, D* tau, unsigned char* work) {
  using R = real_t<D>;
  extern __shared__ unsigned char smem_raw[];
  D* row = reinterpret_cast<D*>(smem_raw);  // [0, j): conj W(j, l); [j, 2j): conj V(j, l)
  for (int64_t l = threadIdx.x; l < j; l += blockDim.x) {
    row[l] = conj(W[j + l * ldw]);
    row[j + l] = conj(Pn[j + l * ldp]);
  }
  __syncthreads();
  D* a = Pn + j * ldp;
  R sumsq = 0;
  for (int64_t r = j + int64_t{blockIdx.x} * blockDim.x + threadIdx.x; r < m;
       r += int64_t{gridDim.x} * blockDim.x) {
    // Two independent sums and an unrolled loop keep several loads in flight: the
    // loop is latency-bound otherwise (one dependent load pair per l).
    D sv = make<D>(0), sw = make<D>(0);
#pragma unroll 8
    for (int64_t l = 0; l < j; ++l) {
      sv = mul_add(Pn[r + l * ldp], row[l], sv);
      sw = mul_add(W[r + l * ldw], row[j + l], sw);
    }
    D v = sub(sub(a[r], sv), sw);
    if (herm && r == j) v = make<D>(real_of(v));
    a[r] = v;
    if (r >= j + 2) sumsq += abs2(v);
  }
  using Reduce = cub::BlockReduce<R, kThreads>;
  __shared__ typename Reduce::TempStorage tmp;
  const R block_sum = Reduce(tmp).Sum(sumsq);
  R* partial = reinterpret_cast<R*>(work + kPartials);
  if (threadIdx.x == 0) partial[blockIdx.x] = block_sum;
  if (!last_block(reinterpret_cast<unsigned*>(work))) return;

  R s = 0;
  for (int b = threadIdx.x; b < gridDim.x; b += blockDim.x) s += __ldcg(partial + b);
  __syncthreads();
  s = Reduce(tmp).Sum(s);
  if (threadIdx.x != 0) return;
  // Values other blocks wrote: read past the (incoherent) L1.
  d[j] = real_of(__ldcg(a + j));
  if (j + 1 >= m) return;
  const D alpha = __ldcg(a + j + 1);
  const R ar = real_of(alpha), ai = imag_of(alpha);
  D* scale = reinterpret_cast<D*>(work + kScalars);
  if (s == R(0) && ai == R(0)) {  // H = I
    tau[j] = make<D>(0);
    e[j] = ar;
    *scale = make<D>(1);
  } else {
    const R beta = -copysign(sqrt(ar * ar + ai * ai + s), ar);
    tau[j] = make<D>((beta - ar) / beta, -ai / beta);
    e[j] = beta;
    // 1 / (alpha - beta) = conj(z) / |z|^2 with z = alpha - beta.
    const R zr = ar - beta, zi = ai, z2 = zr * zr + zi * zi;
    *scale = make<D>(zr / z2, -zi / z2);
  }
  a[j + 1] = make<D>(1);
}

// ---- step 2 (scaling) + 3 + 4: v, the panel's dot products, p = 0 ---------------------
// Threads over rows r in [j + 2, m) scale v (each thread reads back only what it wrote),
// then for each l < j the block sums conj(W(r, l)) v_r and conj(V(r, l)) v_r over its
// rows: a warp sum per l into shared memory, the warps' sums per block into `partial`,
// and the last block adds the blocks in order into t.
template <typename D>
__global__ void __launch_bounds__(kThreads)
    dots_kernel(int64_t m, int64_t j, D* Pn, int64_t ldp, const D* W, int64_t ldw, D* t, D* p,
                int64_t p_len, unsigned char* work) {
  constexpr int kWarps = kThreads / 32;
  extern __shared__ unsigned char smem_raw[];
  D* warp_sums = reinterpret_cast<D*>(smem_raw);  // [kWarps][2j]
  D* v = Pn + j * ldp;
  const D scale = *reinterpret_cast<const D*>(work + kScalars);
  const int64_t stride = int64_t{gridDim.x} * blockDim.x;
  const int64_t first = j + 1 + int64_t{blockIdx.x} * blockDim.x + threadIdx.x;
  for (int64_t r = first; r < m; r += stride)
    if (r >= j + 2) v[r] = mul(v[r], scale);
  for (int64_t i = int64_t{blockIdx.x} * blockDim.x + threadIdx.x; i < p_len; i += stride)
    p[i] = make<D>(0);
  if (j == 0) return;

  const int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  using WarpReduce = cub::WarpReduce<Sum<D>>;
  __shared__ typename WarpReduce::TempStorage wtmp[kWarps];
  // kQ columns at a time: their loads are independent and overlap (one column at a time
  // would wait a full memory latency per column).
  constexpr int kQ = 8;
  for (int64_t q0 = 0; q0 < 2 * j; q0 += kQ) {
    D acc[kQ];
#pragma unroll
    for (int i = 0; i < kQ; ++i) acc[i] = make<D>(0);
    for (int64_t r = first; r < m; r += stride) {
      const D vr = v[r];
#pragma unroll
      for (int i = 0; i < kQ; ++i) {
        const int64_t q = q0 + i;
        if (q < 2 * j) {
          const D* col = q < j ? W + q * ldw : Pn + (q - j) * ldp;
          acc[i] = mul_add(conj(col[r]), vr, acc[i]);
        }
      }
    }
#pragma unroll
    for (int i = 0; i < kQ; ++i) {
      const Sum<D> s = WarpReduce(wtmp[warp]).Sum(Sum<D>{acc[i]});
      __syncwarp();  // the temp storage is reused by the next sum
      if (lane == 0 && q0 + i < 2 * j) warp_sums[warp * 2 * j + q0 + i] = s.v;
    }
  }
  __syncthreads();
  D* partial = reinterpret_cast<D*>(work + kPartials);
  for (int64_t q = threadIdx.x; q < 2 * j; q += blockDim.x) {
    D s = make<D>(0);
    for (int w = 0; w < kWarps; ++w) s = add(s, warp_sums[w * 2 * j + q]);
    partial[int64_t{blockIdx.x} * 2 * j + q] = s;
  }
  if (!last_block(reinterpret_cast<unsigned*>(work) + 1)) return;
  for (int64_t q = threadIdx.x; q < 2 * j; q += blockDim.x) {
    D s = make<D>(0);
    for (unsigned b = 0; b < gridDim.x; ++b) s = add(s, __ldcg(partial + int64_t{b} * 2 * j + q));
    t[q] = s;
  }
}

// ---- finish: w = tau (p - V t1 - W t2), w^H v ---------------------------------------
template <typename D>
__global__ void __launch_bounds__(kThreads)
    finish_kernel(int64_t m, int64_t j, const D* Pn, int64_t ldp, D* W, int64_t ldw,
                  const D* tau, const D* t, const D* p, unsigned char* work) {
  extern __shared__ unsigned char smem_raw[];
  D* ts = reinterpret_cast<D*>(smem_raw);
  for (int64_t q = threadIdx.x; q < 2 * j; q += blockDim.x) ts[q] = t[q];
  __syncthreads();
  const D tj = tau[j];
  const D* v = Pn + j * ldp;
  D* w = W + j * ldw;
  D dot = make<D>(0);
  for (int64_t r = j + 1 + int64_t{blockIdx.x} * blockDim.x + threadIdx.x; r < m;
       r += int64_t{gridDim.x} * blockDim.x) {
    D sv = make<D>(0), sw = make<D>(0);  // independent sums, as in reflector_kernel
#pragma unroll 8
    for (int64_t l = 0; l < j; ++l) {
      sv = mul_add(Pn[r + l * ldp], ts[l], sv);
      sw = mul_add(W[r + l * ldw], ts[j + l], sw);
    }
    const D s = mul(tj, sub(sub(p[r - j - 1], sv), sw));
    w[r] = s;
    dot = mul_add(conj(s), v[r], dot);
  }
  using Reduce = cub::BlockReduce<Sum<D>, kThreads>;
  __shared__ typename Reduce::TempStorage tmp;
  const Sum<D> block_sum = Reduce(tmp).Sum(Sum<D>{dot});
  D* partial = reinterpret_cast<D*>(work + kPartials);
  if (threadIdx.x == 0) partial[blockIdx.x] = block_sum.v;
  if (!last_block(reinterpret_cast<unsigned*>(work) + 2)) return;
  Sum<D> s{make<D>(0)};
  for (int b = threadIdx.x; b < gridDim.x; b += blockDim.x) s = s + Sum<D>{__ldcg(partial + b)};
  __syncthreads();
  s = Reduce(tmp).Sum(s);
  if (threadIdx.x == 0)
    *reinterpret_cast<D*>(work + kScalars + 32) = mul(make<D>(-0.5), mul(tj, s.v));
}

template <typename D>
__global__ void __launch_bounds__(kThreads)
    axpy_kernel(int64_t m, int64_t j, const D* Pn, int64_t ldp, D* W, int64_t ldw,
                const unsigned char* work) {
  const D alpha = *reinterpret_cast<const D*>(work + kScalars + 32);
  const D* v = Pn + j * ldp;
  D* w = W + j * ldw;
  for (int64_t r = j + 1 + int64_t{blockIdx.x} * blockDim.x + threadIdx.x; r < m;
       r += int64_t{gridDim.x} * blockDim.x)
    w[r] = mul_add(alpha, v[r], w[r]);
}

// ---- store: the panel back into the owner's columns ---------------------------------
// blockIdx.y: column j; threads over rows r in [j, m).
template <typename D>
__global__ void __launch_bounds__(kThreads)
    store_kernel(int64_t m, const D* Pn, int64_t ldp, const real_t<D>* e, D* A, int64_t lda) {
  const int64_t j = blockIdx.y;
  for (int64_t r = j + int64_t{blockIdx.x} * blockDim.x + threadIdx.x; r < m;
       r += int64_t{gridDim.x} * blockDim.x)
    A[r + j * lda] = r == j + 1 ? make<D>(e[j]) : Pn[r + j * ldp];
}

// blockIdx.y: columns j (grid-stride); threads over rows.
template <typename D>
__global__ void __launch_bounds__(kThreads)
    reverse_kernel(int64_t m, int64_t n, const D* src, int64_t lds, D* dst, int64_t ldd) {
  for (int64_t j = blockIdx.y; j < n; j += gridDim.y)
    for (int64_t i = int64_t{blockIdx.x} * blockDim.x + threadIdx.x; i < m;
         i += int64_t{gridDim.x} * blockDim.x)
      dst[i + j * ldd] = src[(m - 1 - i) + (n - 1 - j) * lds];
}

unsigned blocks_for(int64_t rows) { return grid_dim(rows, kThreads, kMaxBlocks); }

template <Scalar T>
void reflector(const Device& dev, cudaStream_t stream, bool herm, int64_t m, int64_t j, T* Pn,
               int64_t ldp, const T* W, int64_t ldw, real_type_t<T>* d, real_type_t<T>* e,
               T* tau, T* t, T* p, int64_t p_len, void* work) {
  using D = device_t<T>;
  dev.make_current();
  auto* wk = static_cast<unsigned char*>(work);
  const std::size_t smem = 2 * static_cast<std::size_t>(j) * sizeof(D);
  reflector_kernel<D><<<blocks_for(m - j), kThreads, smem, stream>>>(
      herm, m, j, device_ptr(Pn), ldp, device_ptr(W), ldw, d, e, device_ptr(tau), wk);
  MGBLAS_CHECK_LAUNCH(stream);
  if (j + 1 >= m && p_len <= 0) return;
  const std::size_t dsmem = (kThreads / 32) * 2 * static_cast<std::size_t>(j) * sizeof(D);
  dots_kernel<D><<<blocks_for(std::max(m - j - 1, p_len)), kThreads, dsmem, stream>>>(
      m, j, device_ptr(Pn), ldp, device_ptr(W), ldw, device_ptr(t), device_ptr(p), p_len, wk);
  MGBLAS_CHECK_LAUNCH(stream);
}

template <Scalar T>
void finish(const Device& dev, cudaStream_t stream, int64_t m, int64_t j, const T* Pn,
            int64_t ldp, T* W, int64_t ldw, const T* tau, const T* t, const T* p, void* work) {
  using D = device_t<T>;
  if (m - j - 1 <= 0) return;
  dev.make_current();
  auto* wk = static_cast<unsigned char*>(work);
  const unsigned blocks = blocks_for(m - j - 1);
  finish_kernel<D><<<blocks, kThreads, 2 * static_cast<std::size_t>(j) * sizeof(D), stream>>>(
      m, j, device_ptr(Pn), ldp, device_ptr(W), ldw, device_ptr(tau), device_ptr(t),
      device_ptr(p), wk);
  MGBLAS_CHECK_LAUNCH(stream);
  axpy_kernel<D><<<blocks, kThreads, 0, stream>>>(m, j, device_ptr(Pn), ldp, device_ptr(W), ldw,
                                                  wk);
  MGBLAS_CHECK_LAUNCH(stream);
}

template <Scalar T>
void store(const Device& dev, cudaStream_t stream, int64_t m, int64_t b, const T* Pn,
           int64_t ldp, const real_type_t<T>* e, T* A, int64_t lda) {
  if (m <= 0 || b <= 0) return;
  dev.make_current();
  const dim3 grid(blocks_for(m), static_cast<unsigned>(b));
  store_kernel<device_t<T>><<<grid, kThreads, 0, stream>>>(m, device_ptr(Pn), ldp, e,
                                                            device_ptr(A), lda);
  MGBLAS_CHECK_LAUNCH(stream);
}

template <Scalar T>
void reverse(const Device& dev, cudaStream_t stream, int64_t m, int64_t n, const T* src,
             int64_t lds, T* dst, int64_t ldd) {
  if (m <= 0 || n <= 0) return;
  dev.make_current();
  const dim3 grid(blocks_for(m), static_cast<unsigned>(std::min<int64_t>(n, kMaxGridY)));
  reverse_kernel<device_t<T>><<<grid, kThreads, 0, stream>>>(m, n, device_ptr(src), lds,
                                                              device_ptr(dst), ldd);
  MGBLAS_CHECK_LAUNCH(stream);
}

}  // namespace

#define MGBLAS_CUDA_LATRD_(T)                                                          \
  MGBLAS_DECLARE_LATRD_REFLECTOR_KERNEL(T) {                                           \
    reflector<T>(dev, stream, herm, m, j, Pn, ldp, W, ldw, d, e, tau, t, p, p_len, work); \
  }                                                                                    \
  MGBLAS_DECLARE_LATRD_FINISH_KERNEL(T) {                                              \
    finish<T>(dev, stream, m, j, Pn, ldp, W, ldw, tau, t, p, work);                    \
  }                                                                                    \
  MGBLAS_DECLARE_LATRD_STORE_KERNEL(T) { store<T>(dev, stream, m, b, Pn, ldp, e, A, lda); } \
  MGBLAS_DECLARE_LATRD_REVERSE_KERNEL(T) {                                             \
    reverse<T>(dev, stream, m, n, src, lds, dst, ldd);                                 \
  }
MGBLAS_FOR_EACH_SCALAR(MGBLAS_CUDA_LATRD_)
#undef MGBLAS_CUDA_LATRD_

}  // namespace mgblas::kernels::cuda
