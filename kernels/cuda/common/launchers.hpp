// SPDX-License-Identifier: BSD-3-Clause
// mgblas's own beta-scaling launchers (common/scale.cu) used by every engine (private). Plain C++
// signatures over the API scalars, so any engine file can call them; each queues on
// `stream`, checks its launch and never waits. The caller has made the device current.
#pragma once

#include <cstdint>

#include "core/device.hpp"
#include "core/types.hpp"

namespace mgblas::kernels::cuda::common {

/// C_b(i, j) = beta * C_b(i, j) for i < m, j < n, b < batch, where element (i, j) of
/// entry b is C[b * strideC + i * inc + j * ld]: a strided vector is (len, 1, inc, -),
/// a matrix (m, n, 1, ld). beta == 0 writes zeros without reading; beta == 1 returns.
template <Scalar T>
void scale(cudaStream_t stream, int64_t m, int64_t n, T beta, T* C, int64_t inc, int64_t ld,
           int64_t strideC = 0, int64_t batch = 1);

/// y(i) = beta * y(i) for i < len, y(i) at y[i * incy].
template <Scalar T>
void scale_vector(cudaStream_t stream, int64_t len, T beta, T* y, int64_t incy) {
  scale(stream, len, int64_t{1}, beta, y, incy, int64_t{0});
}

/// The same over a device array of `batch` matrix pointers (inc = 1).
template <Scalar T>
void scale_batched(cudaStream_t stream, int64_t m, int64_t n, T beta, T* const* Carray,
                   int64_t ld, int64_t batch);

}  // namespace mgblas::kernels::cuda::common
