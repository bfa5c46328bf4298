// SPDX-License-Identifier: BSD-3-Clause
// The small vector operations of the distributed drivers on one device of a Context
// (private): plain loops on a host device, dist's CUDA kernels (dist_kernels.hpp) queued
// on the device's stream on a GPU. Arguments as in dist_kernels.hpp; pointers are memory
// of `dev`.
#pragma once

#include <cstdint>

#include "core/device.hpp"
#include "core/types.hpp"
#include "dist/detail/column_range.hpp"
#include "dist/detail/dist_kernels.hpp"
#include "layouts/block_cyclic.hpp"

namespace mgblas::detail {

/// y = s + beta * y on host memory (s == nullptr: zeros).
template <Scalar T>
void host_finish_sum(int64_t n, const T* s, T beta, T* y) {
  // beta == 0 overwrites y without reading it, so NaN or garbage in y cannot leak.
  for (int64_t i = 0; i < n; ++i) {
    const T si = s ? s[i] : T(0);
    y[i] = beta == T(0) ? si : si + beta * y[i];
  }
}

template <Scalar T>
void finish_sum(const Device& dev, int64_t n, const T* s, T beta, T* y) {
  if (n <= 0) return;
  if (dev.is_gpu()) {
    dev.make_current();
    cuda::finish_sum(dev.stream(), n, s, beta, y);
    return;
  }
  host_finish_sum(n, s, beta, y);
}

template <Scalar T>
void gather_columns(const Device& dev, const BlockCyclic1D& L, int g, int64_t jl0, int64_t count,
                    const T* x, int64_t c0, T* out) {
  if (count <= 0) return;
  if (dev.is_gpu()) {
    dev.make_current();
    cuda::gather_columns(dev.stream(), L, g, jl0, count, x, c0, out);
    return;
  }
  for (int64_t t = 0; t < count; ++t) out[t] = x[L.global_col(g, jl0 + t) - c0];
}

template <Scalar T>
void scatter_columns(const Device& dev, const BlockCyclic1D& L, int g, int64_t jl0, int64_t count,
                     const T* in, int64_t c0, T* y) {
  if (count <= 0) return;
  if (dev.is_gpu()) {
    dev.make_current();
    cuda::scatter_columns(dev.stream(), L, g, jl0, count, in, c0, y);
    return;
  }
  for (int64_t t = 0; t < count; ++t) y[L.global_col(g, jl0 + t) - c0] = in[t];
}

template <Scalar T>
void unpack_columns(const Device& dev, const BlockCyclic1D& L, int64_t c0, const T* gathered,
                    int64_t stride, T beta, T* y) {
  const int64_t n = L.n() - c0;
  if (n <= 0) return;
  if (dev.is_gpu()) {
    dev.make_current();
    cuda::unpack_columns(dev.stream(), L, c0, gathered, stride, beta, y);
    return;
  }
  for (int64_t i = 0; i < n; ++i) {
    const int64_t gc = c0 + i;
    const int o = L.owner(gc);
    const T v = gathered[o * stride + L.local_col(gc) - local_begin(L, o, c0)];
    y[i] = beta == T(0) ? v : v + beta * y[i];
  }
}

}  // namespace mgblas::detail
