// SPDX-License-Identifier: BSD-3-Clause
// Variable-size batched GEMM: a simple shared-memory tiled kernel, correct for every
// size, op pair and leading dimension (cuBLAS has no variable-size batched GEMM).
// Tuning (several small matrices per block, register tiles, alpha/beta cases at
// compile time) is left to the kernels of kernels/cuda/batched/.
#include "core/detail/cuda_check.hpp"
#include "kernels/cuda/common/device_scalar.cuh"
#include "kernels/cuda/batched/batched.hpp"

namespace mgblas::kernels::cuda::batched {
namespace {

/// C tile edge and k step; blocks are kTile x kTile threads (one C element each).
constexpr int kTile = 16;

/// op(X)(r, c) of a column-major X with leading dimension ld, op one of N, T, C
/// (conj is the identity on real types, so C = T there).
template <typename D>
__device__ inline D load_op(const D* X, int64_t ld, Op op, int64_t r, int64_t c) {
  if (op == Op::N) return X[r + c * ld];
  const D v = X[c + r * ld];
  return op == Op::C ? common::conj(v) : v;
}

// Mapping: blockIdx.y grid-strides over batch entries, blockIdx.x grid-strides over
// the kTile x kTile tiles of the entry's C (tile index row-block fastest); thread
// (threadIdx.x, threadIdx.y) owns C(row0 + threadIdx.x, col0 + threadIdx.y), so
// stores are coalesced down columns. Per k step the block stages op(A)(rows, k-slice)
// and op(B)(k-slice, cols) in shared memory, zero-filled outside the entry.
// Entry sizes, lds and pointers are read from device arrays; an entry with m or n
// zero is skipped (uniform per block, so no thread skips a barrier). Without
// `products` (alpha == 0 or every k zero) neither the A/B arrays nor k are read: the
// caller may pass null for them then. beta == 0 stores without loading C.
template <typename D>
__global__ void __launch_bounds__(kTile* kTile)
    gemm_vbatched_tiled_kernel(Op opA, Op opB, const int64_t* m, const int64_t* n,
                               const int64_t* k, D alpha, const D* const* Aarray,
                               const int64_t* lda, const D* const* Barray, const int64_t* ldb,
                               D beta, D* const* Carray, const int64_t* ldc, int64_t batch,
                               bool products) {
  __shared__ D sA[kTile][kTile + 1];  // +1: column reads sA[tx][l] hit distinct banks
  __shared__ D sB[kTile][kTile + 1];
  const int tx = threadIdx.x, ty = threadIdx.y;
  const bool beta_zero = common::is_zero(beta);

  for (int64_t e = blockIdx.y; e < batch; e += gridDim.y) {
    const int64_t me = m[e], ne = n[e];
    if (me <= 0 || ne <= 0) continue;
    const int64_t ke = products ? k[e] : 0;
    const D* A = ke > 0 ? Aarray[e] : nullptr;
    const D* B = ke > 0 ? Barray[e] : nullptr;
    const int64_t lda_e = ke > 0 ? lda[e] : 0, ldb_e = ke > 0 ? ldb[e] : 0;
    D* C = Carray[e];
    const int64_t ldc_e = ldc[e];
    const int64_t tiles_m = common::ceil_div(me, kTile);
    const int64_t tiles = tiles_m * common::ceil_div(ne, kTile);

    for (int64_t t = blockIdx.x; t < tiles; t += gridDim.x) {
      const int64_t row0 = (t % tiles_m) * kTile, col0 = (t / tiles_m) * kTile;
      const int64_t row = row0 + tx, col = col0 + ty;
      D acc{};
      for (int64_t l0 = 0; l0 < ke; l0 += kTile) {
        sA[tx][ty] = (row < me && l0 + ty < ke) ? load_op(A, lda_e, opA, row, l0 + ty) : D{};
        sB[tx][ty] =
            (l0 + tx < ke && col < ne) ? load_op(B, ldb_e, opB, l0 + tx, col) : D{};
        __syncthreads();
#pragma unroll
        for (int l = 0; l < kTile; ++l) acc = common::mul_add(sA[tx][l], sB[l][ty], acc);
        __syncthreads();  // before the next step overwrites the tiles
      }
      if (row < me && col < ne) {
        D& c = C[row + col * ldc_e];
        c = beta_zero ? common::mul(alpha, acc)
                      : common::mul_add(alpha, acc, common::mul(beta, c));
      }
    }
  }
}

}  // namespace

template <Scalar T>
void gemm_vbatched_tiled(cudaStream_t stream, Op opA, Op opB, const int64_t* m,
                         const int64_t* n, const int64_t* k, T alpha, const T* const* Aarray,
                         const int64_t* lda, const T* const* Barray, const int64_t* ldb, T beta,
                         T* const* Carray, const int64_t* ldc, int64_t batch, int64_t max_m,
                         int64_t max_n, int64_t max_k) {
  if (batch <= 0 || max_m <= 0 || max_n <= 0) return;
  const bool products = max_k > 0 && alpha != T(0);
  const int64_t tiles = common::ceil_div(max_m, kTile) * common::ceil_div(max_n, kTile);
  const dim3 grid(common::grid_dim(tiles, 1, 65536), common::grid_dim(batch, 1, common::kMaxGridY));
  const dim3 block(kTile, kTile);
  gemm_vbatched_tiled_kernel<<<grid, block, 0, stream>>>(
      opA, opB, m, n, k, common::to_device(alpha), common::device_ptr_array(Aarray), lda,
      common::device_ptr_array(Barray), ldb, common::to_device(beta),
      common::device_ptr_array(Carray), ldc, batch, products);
  MGBLAS_CHECK_LAUNCH(stream);
}

#define MGBLAS_INSTANTIATE_VBATCHED_(T)                                                       \
  template void gemm_vbatched_tiled<T>(cudaStream_t, Op, Op, const int64_t*, const int64_t*,  \
                                       const int64_t*, T, const T* const*, const int64_t*,    \
                                       const T* const*, const int64_t*, T, T* const*,         \
                                       const int64_t*, int64_t, int64_t, int64_t, int64_t);
MGBLAS_FOR_EACH_SCALAR(MGBLAS_INSTANTIATE_VBATCHED_)
#undef MGBLAS_INSTANTIATE_VBATCHED_

}  // namespace mgblas::kernels::cuda::batched
