// SPDX-License-Identifier: BSD-3-Clause
// dist's own CUDA kernels (private): the small vector operations around a distributed
// product (final sum with beta, block-cyclic gathers and scatters of vector entries)
// and the SYMV/HEMV product over a device's block-cyclic columns in one launch.
//
// Plain C++ signatures over the API scalars, so host files call them without CUDA
// headers: dist/cuda/dist_kernels.cu implements them, dist/cuda_stubs.cpp throws
// NotCompiled in a build without CUDA. Each queues on `stream` of the current device
// (the caller makes it current), checks its launch and never waits.
#pragma once

#include <cstdint>

#include "core/device.hpp"
#include "core/types.hpp"
#include "layouts/block_cyclic.hpp"

namespace mgblas::detail::cuda {

/// y[i] = s[i] + beta * y[i] for i < n; s == nullptr stands for zeros. beta == 0 does
/// not read y (NaN in y does not propagate).
template <Scalar T>
void finish_sum(cudaStream_t stream, int64_t n, const T* s, T beta, T* y);

/// out[t] = x[L.global_col(g, jl0 + t) - c0] for t < count: the entries of a vector
/// indexed from global column c0 at local columns jl0, jl0 + 1, ... of device g.
template <Scalar T>
void gather_columns(cudaStream_t stream, const BlockCyclic1D& L, int g, int64_t jl0,
                    int64_t count, const T* x, int64_t c0, T* out);

/// The reverse: y[L.global_col(g, jl0 + t) - c0] = in[t] for t < count (other entries
/// of y untouched).
template <Scalar T>
void scatter_columns(cudaStream_t stream, const BlockCyclic1D& L, int g, int64_t jl0,
                     int64_t count, const T* in, int64_t c0, T* y);

/// After an all-gather of every device's entries at its columns [c0, n) of L, each device
/// padded to `stride` entries (device order = global device order):
/// y[i] = gathered[o * stride + t] + beta * y[i] for i < n - c0, where global column
/// c0 + i is the t-th of device o's columns at or after c0. beta == 0 does not read y.
template <Scalar T>
void unpack_columns(cudaStream_t stream, const BlockCyclic1D& L, int64_t c0, const T* gathered,
                    int64_t stride, T beta, T* y);

/// y += alpha * (the part of S = A(off:n, off:n) held in local columns [jl0, jl1) of
/// device g), x and y indexed from global row/column `off`, S symmetric (herm = false)
/// or Hermitian (herm = true; imaginary parts of the diagonal taken as zero) with only
/// the `uplo` triangle stored and read. Columns jl0.. must lie at or after `off`
/// (jl0 >= local_begin(L, g, off)). Every stored entry is read once; it adds to y at
/// its row (as itself) and at its column (mirrored). Accumulates with atomics: y must
/// hold the sum so far (zeros at first); the order of the additions varies.
/// Two kernels: with `tiles` and nb a multiple of the engine's SYMV tile, the engine's
/// tile kernel over the device's blocks (kernels/cuda/symv, symv_cyclic); otherwise a
/// kernel that walks tiles of 16 (double complex: 8) local columns, for any nb.
template <Scalar T>
void symv_block_cyclic(cudaStream_t stream, Uplo uplo, bool herm, const BlockCyclic1D& L, int g,
                       const T* A, int64_t ld, int64_t off, int64_t jl0, int64_t jl1, T alpha,
                       const T* x, T* y, bool tiles);

// The instances, one list for dist_kernels.cu and the stubs of a build without CUDA.
#define MGBLAS_DIST_KERNELS_INSTANTIATE(T)                                                     \
  template void finish_sum<T>(cudaStream_t, int64_t, const T*, T, T*);                         \
  template void gather_columns<T>(cudaStream_t, const BlockCyclic1D&, int, int64_t, int64_t,   \
                                  const T*, int64_t, T*);                                      \
  template void scatter_columns<T>(cudaStream_t, const BlockCyclic1D&, int, int64_t, int64_t,  \
                                   const T*, int64_t, T*);                                     \
  template void unpack_columns<T>(cudaStream_t, const BlockCyclic1D&, int64_t, const T*,       \
                                  int64_t, T, T*);                                             \
  template void symv_block_cyclic<T>(cudaStream_t, Uplo, bool, const BlockCyclic1D&, int,      \
                                     const T*, int64_t, int64_t, int64_t, int64_t, T, const T*, \
                                     T*, bool);

}  // namespace mgblas::detail::cuda
