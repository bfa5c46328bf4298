// SPDX-License-Identifier: BSD-3-Clause
// CUDA engine of the dense-to-band steps (kernels/sy2sb_kernels.hpp): a panel's QR, with
// or without its WY form, in one cooperative kernel where it fits (panel_qr.cuh), else on
// cuSOLVER (its 64-bit Xgeqrf) and the larfb engine's form_v and larft; the band's copy,
// the diagonal blocks' products and the blocks' copies as one kernel each.
#include <cusolverDn.h>

#include <algorithm>
#include <cstddef>
#include <map>
#include <mutex>
#include <vector>

#include "core/detail/cuda_check.hpp"
#include "kernels/cuda/common/cublas.hpp"
#include "kernels/cuda/common/debug_env.hpp"
#include "kernels/cuda/common/device_scalar.cuh"
#include "kernels/cuda/common/launchers.hpp"
#include "kernels/cuda/common/stream_scratch.hpp"
#include "kernels/cuda/sy2sb/panel_qr.cuh"
#include "kernels/larfb_kernels.hpp"
#include "kernels/sy2sb_kernels.hpp"

#define MGBLAS_CHECK_CUSOLVER(expr)                                                         \
  do {                                                                                      \
    const cusolverStatus_t mgblas_st_ = (expr);                                             \
    if (mgblas_st_ != CUSOLVER_STATUS_SUCCESS)                                              \
      throw ::mgblas::Error(__FILE__, __LINE__, __func__,                                   \
                            ::mgblas::detail::concat(#expr, " failed on cuda:",             \
                                ::mgblas::detail::current_cuda_device(), ": status ",      \
                                static_cast<int>(mgblas_st_)),                              \
                            static_cast<int>(mgblas_st_));                                  \
  } while (0)

namespace mgblas::kernels::cuda {
namespace sy2sb {
namespace {

using common::device_t;

// One cuSOLVER handle and parameter set per GPU, made on first use and kept for the
// process's life (a handle costs milliseconds to create; a panel's QR, less).
struct Solver {
  cusolverDnHandle_t handle = nullptr;
  cusolverDnParams_t params = nullptr;
};

Solver& solver_of(int ordinal) {
  static std::mutex mutex;
  static std::map<int, Solver> solvers;
  const std::lock_guard lock(mutex);
  Solver& s = solvers[ordinal];
  if (!s.handle) {
    MGBLAS_CHECK_CUSOLVER(cusolverDnCreate(&s.handle));
    MGBLAS_CHECK_CUSOLVER(cusolverDnCreateParams(&s.params));
  }
  return s;
}

template <Scalar T>
constexpr cudaDataType data_type() {
  if constexpr (std::is_same_v<T, float>) return CUDA_R_32F;
  else if constexpr (std::is_same_v<T, double>) return CUDA_R_64F;
  else if constexpr (std::is_same_v<T, scomplex>) return CUDA_C_32F;
  else return CUDA_C_64F;
}

// The panel's QR (and, with V and Tm, its WY form) by the one-kernel panel QR unless
// MGBLAS_PANEL_QR_CUSOLVER is set; false where that kernel does not serve the panel.
template <Scalar T>
bool try_panel_qr(cudaStream_t stream, int64_t m, int64_t n, T* A, int64_t lda, T* tau,
                  T* V = nullptr, int64_t ldv = 0, T* Tm = nullptr, int64_t ldt = 0) {
  return !common::panel_qr_cusolver_override() &&
         panel_qr(stream, m, n, common::device_ptr(A), lda, common::device_ptr(tau),
                  common::panel_qr_slab_override().value_or(kQrSlab), common::device_ptr(V), ldv,
                  common::device_ptr(Tm), ldt);
}

// The panels of blocked_qr: 32 columns (16 in complex double), so that a panel of
// 65536 rows still fits the grid's shared memory (a slab of about 500 rows per SM); a
// column of the one-kernel QR costs one grid barrier whatever the width.
template <Scalar T>
constexpr int64_t kBlockedQrPanel = sizeof(T) > 8 ? 16 : 32;

// LAPACK ?geqrf's blocked loop for a matrix the one-kernel QR does not take whole (wider
// than kQrMaxCols, or too tall for the grid's shared memory at its width), as
// geqrf_mgpu's 128-column panels of a tall matrix are: panels of kBlockedQrPanel columns
// by the one-kernel QR with their compact-WY form, each applied to the columns right of
// it as A := (I - V Tm V^H)^H A = A - V (Tm^H (V^H A)) by three gemms. Why: cuSOLVER's
// geqrf is a chain of launches per column (bench/results/h200-tall-svd.md). Returns the
// columns factored: all min(m, n), or those before the first panel the kernel declined
// (0 when n fits one panel).
template <Scalar T>
int64_t blocked_qr(const Device& dev, cudaStream_t stream, int64_t m, int64_t n, T* A, int64_t lda,
                   T* tau) {
  const int64_t k = std::min(m, n), w = kBlockedQrPanel<T>;
  if (n <= w) return 0;
  // Workspace, stream-ordered: V (m x w), Tm (w x w), the products W and Tm^H W (w x n).
  const common::StreamScratch work(static_cast<std::size_t>(m * w + w * w + 2 * w * n) * sizeof(T),
                                   stream);
  T* V = work.as<T>();
  T* Tm = V + m * w;
  T* W = Tm + w * w;
  T* TW = W + w * n;
  int64_t j = 0;
  for (; j < k; j += w) {
    const int64_t jb = std::min(w, k - j), mj = m - j, rest = n - j - jb;
    T* P = A + j + j * lda;
    if (!try_panel_qr(stream, mj, jb, P, lda, tau + j, V, m, Tm, w)) break;
    if (rest == 0) continue;
    T* C = P + jb * lda;
    const cublasHandle_t h = dev.cublas();
    common::cublas::gemm(h, stream, Op::C, Op::N, jb, rest, mj, T(1), V, m, C, lda, T(0), W, w);
    common::cublas::gemm(h, stream, Op::C, Op::N, jb, rest, jb, T(1), Tm, w, W, w, T(0), TW, w);
    common::cublas::gemm(h, stream, Op::N, Op::N, mj, rest, jb, T(-1), V, m, TW, w, T(1), C, lda);
  }
  return j;
}

template <Scalar T>
void geqrf(const Device& dev, cudaStream_t stream, int64_t m, int64_t n, T* A, int64_t lda,
           T* tau) {
  if (m == 0 || n == 0) return;
  dev.make_current();
  if (try_panel_qr(stream, m, n, A, lda, tau)) return;
  if (const int64_t done = blocked_qr(dev, stream, m, n, A, lda, tau); done > 0) {
    // cuSOLVER factors what the panels did not reach (none, unless a panel was declined).
    if (done < std::min(m, n))
      geqrf<T>(dev, stream, m - done, n - done, A + done + done * lda, lda, tau + done);
    return;
  }
  // Serialised per GPU: the handle is bound to this call's stream until it returns.
  Solver& s = solver_of(dev.gpu_ordinal());
  MGBLAS_CHECK_CUSOLVER(cusolverDnSetStream(s.handle, stream));
  constexpr cudaDataType type = data_type<T>();
  size_t device_bytes = 0, host_bytes = 0;
  MGBLAS_CHECK_CUSOLVER(cusolverDnXgeqrf_bufferSize(s.handle, s.params, m, n, type, A, lda, type,
                                                    tau, type, &device_bytes, &host_bytes));
  // The workspace and info come from the stream-ordered pool: freed as soon as the
  // factorisation has run, with no wait here.
  const common::StreamScratch work(device_bytes + 2 * sizeof(int), stream);
  std::vector<std::byte> host_work(host_bytes);
  // info after the workspace, rounded up to an int's alignment.
  const size_t info_at = (device_bytes + sizeof(int) - 1) / sizeof(int) * sizeof(int);
  int* info = reinterpret_cast<int*>(work.bytes() + info_at);
  MGBLAS_CHECK_CUSOLVER(cusolverDnXgeqrf(s.handle, s.params, m, n, type, A, lda, type, tau, type,
                                         work.as(), device_bytes, host_work.data(), host_bytes,
                                         info));
}

template <Scalar T>
void geqrf_wy(const Device& dev, cudaStream_t stream, int64_t m, int64_t n, T* A, int64_t lda,
              T* tau, T* V, int64_t ldv, T* Tm, int64_t ldt) {
  if (m == 0 || n == 0) return;
  dev.make_current();
  if (try_panel_qr(stream, m, n, A, lda, tau, V, ldv, Tm, ldt)) return;
  geqrf<T>(dev, stream, m, n, A, lda, tau);
  const int64_t kq = std::min(m, n);
  cuda::larfb_form_v(dev, stream, Direction::Forward, m, kq, A, lda, V, ldv);
  cuda::larft(dev, stream, Direction::Forward, m, kq, V, ldv, tau, Tm, ldt);
}

constexpr int kBandThreads = 128;

// One thread per (band row, column): blockIdx.x walks the device's columns.
template <typename D>
__global__ void __launch_bounds__(kBandThreads)
    pack_band_kernel(bool lower, int64_t n, int64_t b, LocalColumns cols, const D* A,
                     int64_t ld, D* AB, int64_t ldab) {
  for (int64_t t = blockIdx.x; t < cols.count(); t += gridDim.x) {
    const int64_t jl = cols.local_begin + t, c = cols.global_col(jl);
    const D* col = A + jl * ld;
    for (int64_t k = threadIdx.x; k <= b; k += blockDim.x) {
      if (k == 0) {
        AB[c * ldab] = common::make_scalar<D>(common::real_part(col[c]));
      } else if (lower) {
        if (c + k < n) AB[k + c * ldab] = col[c + k];
      } else if (c - k >= 0) {
        AB[k + (c - k) * ldab] = common::conj(col[c - k]);
      }
    }
  }
}

// hemm_diagonal_blocks: a block of 32 x 8 threads computes a 32 x 32 tile of one Y_i
// (blockIdx.z walks the blocks), S_i's 32 x 32 tiles read into shared memory with the
// other triangle mirrored. The work is small next to the gemms around it (nb^2 k per
// block), so plain FMAs serve.
constexpr int kDiagTile = 32, kDiagRows = 8;

template <typename D>
__global__ void __launch_bounds__(kDiagTile* kDiagRows)
    hemm_diagonal_blocks_kernel(bool lower, int64_t count, int64_t nb, int64_t k, const D* A,
                                int64_t ld, int64_t strideA, const D* V, int64_t ldv,
                                int64_t strideV, D* Y, int64_t ldy, int64_t strideY) {
  __shared__ D S[kDiagTile][kDiagTile + 1], X[kDiagTile][kDiagTile + 1];
  const int tx = threadIdx.x, ty = threadIdx.y;
  const int64_t r = blockIdx.x * int64_t{kDiagTile} + tx, c0 = blockIdx.y * int64_t{kDiagTile};
  for (int64_t i = blockIdx.z; i < count; i += gridDim.z) {
    const D* Ai = A + i * strideA;
    const D* Vi = V + i * strideV;
    D acc[kDiagTile / kDiagRows];
    for (auto& a : acc) a = common::make_scalar<D>(0);
    for (int64_t j0 = 0; j0 < nb; j0 += kDiagTile) {
      for (int q = ty; q < kDiagTile; q += kDiagRows) {
        const int64_t j = j0 + q, c = c0 + q;
        D s = common::make_scalar<D>(0);
        if (r < nb && j < nb) {
          if (r == j) s = common::real_diag(Ai[r + r * ld]);
          else if ((r > j) == lower) s = Ai[r + j * ld];
          else s = common::conj(Ai[j + r * ld]);
        }
        S[tx][q] = s;
        X[tx][q] = (j0 + tx < nb && c < k) ? Vi[(j0 + tx) + c * ldv] : common::make_scalar<D>(0);
      }
      __syncthreads();
      for (int q = 0; q < kDiagTile; ++q) {
        const D s = S[tx][q];
        for (int u = 0; u < kDiagTile / kDiagRows; ++u)
          acc[u] = common::mul_add(s, X[q][ty + u * kDiagRows], acc[u]);
      }
      __syncthreads();
    }
    if (r < nb) {
      D* Yi = Y + i * strideY;
      for (int u = 0; u < kDiagTile / kDiagRows; ++u) {
        const int64_t c = c0 + ty + u * kDiagRows;
        if (c < k) Yi[r + c * ldy] = common::add(Yi[r + c * ldy], acc[u]);
      }
    }
  }
}

constexpr int kAddThreads = 256;

// add_blocks: blockIdx.y walks the columns, blockIdx.z the blocks.
template <typename D>
__global__ void __launch_bounds__(kAddThreads)
    add_blocks_kernel(int64_t count, int64_t rows, int64_t cols, const D* A, int64_t lda,
                      int64_t strideA, D beta, D* B, int64_t ldb, int64_t strideB) {
  const bool keep = !common::is_zero(beta);
  for (int64_t i = blockIdx.z; i < count; i += gridDim.z)
    for (int64_t c = blockIdx.y; c < cols; c += gridDim.y)
      for (int64_t r = blockIdx.x * int64_t{kAddThreads} + threadIdx.x; r < rows;
           r += int64_t{gridDim.x} * kAddThreads) {
        const D a = A[i * strideA + r + c * lda];
        D& b = B[i * strideB + r + c * ldb];
        b = keep ? common::mul_add(beta, b, a) : a;
      }
}

}  // namespace
}  // namespace sy2sb

#define MGBLAS_CUDA_SY2SB_(T)                                                                 \
  MGBLAS_DECLARE_GEQRF_KERNEL(T) { sy2sb::geqrf<T>(dev, stream, m, n, A, lda, tau); }         \
  MGBLAS_DECLARE_GEQRF_WY_KERNEL(T) {                                                         \
    sy2sb::geqrf_wy<T>(dev, stream, m, n, A, lda, tau, V, ldv, Tm, ldt);                      \
  }                                                                                           \
  MGBLAS_DECLARE_PACK_BAND_KERNEL(T) {                                                        \
    if (cols.count() == 0) return;                                                            \
    dev.make_current();                                                                       \
    const auto blocks = static_cast<unsigned>(std::min<int64_t>(cols.count(), 65535));        \
    sy2sb::pack_band_kernel<<<blocks, sy2sb::kBandThreads, 0, stream>>>(                       \
        uplo == Uplo::Lower, n, b, cols, common::device_ptr(A), ld, common::device_ptr(AB),    \
        ldab);                                                                                \
    MGBLAS_CHECK_LAUNCH(stream);                                                              \
  }                                                                                           \
  MGBLAS_DECLARE_HEMM_DIAGONAL_BLOCKS_KERNEL(T) {                                             \
    if (count == 0 || nb == 0 || k == 0) return;                                              \
    dev.make_current();                                                                       \
    const dim3 grid(static_cast<unsigned>((nb + sy2sb::kDiagTile - 1) / sy2sb::kDiagTile),    \
                    static_cast<unsigned>((k + sy2sb::kDiagTile - 1) / sy2sb::kDiagTile),     \
                    static_cast<unsigned>(std::min<int64_t>(count, 65535)));                  \
    sy2sb::hemm_diagonal_blocks_kernel<<<grid, dim3(sy2sb::kDiagTile, sy2sb::kDiagRows), 0,   \
                                         stream>>>(                                           \
        uplo == Uplo::Lower, count, nb, k, common::device_ptr(A), ld, strideA,                \
        common::device_ptr(V), ldv, strideV, common::device_ptr(Y), ldy, strideY);            \
    MGBLAS_CHECK_LAUNCH(stream);                                                              \
  }                                                                                           \
  MGBLAS_DECLARE_ADD_BLOCKS_KERNEL(T) {                                                       \
    if (count == 0 || rows == 0 || cols == 0) return;                                         \
    dev.make_current();                                                                       \
    const dim3 grid(static_cast<unsigned>(std::min<int64_t>(                                  \
                        (rows + sy2sb::kAddThreads - 1) / sy2sb::kAddThreads, 65535)),        \
                    static_cast<unsigned>(std::min<int64_t>(cols, 65535)),                    \
                    static_cast<unsigned>(std::min<int64_t>(count, 65535)));                  \
    sy2sb::add_blocks_kernel<<<grid, sy2sb::kAddThreads, 0, stream>>>(                        \
        count, rows, cols, common::device_ptr(A), lda, strideA, common::to_device(beta),      \
        common::device_ptr(B), ldb, strideB);                                                 \
    MGBLAS_CHECK_LAUNCH(stream);                                                              \
  }
MGBLAS_FOR_EACH_SCALAR(MGBLAS_CUDA_SY2SB_)
#undef MGBLAS_CUDA_SY2SB_

}  // namespace mgblas::kernels::cuda
