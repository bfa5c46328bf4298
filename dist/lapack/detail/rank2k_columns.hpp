// SPDX-License-Identifier: BSD-3-Clause
// One device's part of a rank-2k update of a distributed matrix (private to dist): the
// trailing update of the reductions and the public her2k_mgpu / syr2k_mgpu.
#pragma once

#include <cstdint>

#include "core/device.hpp"
#include "core/types.hpp"
#include "kernels/blas.hpp"
#include "kernels/gemm_kernels.hpp"
#include "layouts/block_cyclic.hpp"

namespace mgblas::detail {

/// On the square submatrix S = C(lo:hi, lo:hi), `uplo` triangle only, over the columns of
/// global device g (local storage C_local, leading dimension ld):
///   herm:  S = alpha V W^H + conj(alpha) W V^H + beta S   (her2k; real T: syr2k)
///   else:  S = alpha V W^T + alpha W V^T + beta S          (complex-symmetric syr2k)
/// V and W hold rows lo..hi-1 of the n x k factors, V(r) at V + (r - row0), leading
/// dimension ldv. Per block column: the engine's rank2k on its diagonal block and two
/// gemm on the rectangle beside it (below for Lower, above for Upper). beta == 0 does
/// not read S.
template <Scalar T>
void rank2k_columns(const Device& dev, const BlockCyclic1D& L, int g, T* C_local, int64_t ld,
                    bool herm, Uplo uplo, int64_t lo, int64_t hi, int64_t k, T alpha,
                    const T* V, const T* W, int64_t row0, int64_t ldv, T beta) {
  if (lo >= hi) return;
  const auto v = [&](int64_t r) { return V + (r - row0); };
  const auto w = [&](int64_t r) { return W + (r - row0); };
  const bool lower = uplo == Uplo::Lower;
  const Op op = herm ? Op::C : Op::T;
  const T alpha2 = herm ? conj(alpha) : alpha;
  // Local columns [jl, jl + c1 - c0) holding the global columns [c0, c1).
  const auto block = [&](int64_t c0, int64_t c1, int64_t jl) {
    const int64_t width = c1 - c0;
    T* Cc = C_local + jl * ld;
    kernels::rank2k<T>(dev, herm, uplo, width, k, alpha, v(c0), ldv, w(c0), ldv, beta, Cc + c0,
                       ld);
    const int64_t r0 = lower ? c1 : lo, h = lower ? hi - c1 : c0 - lo;
    if (h <= 0) return;
    gemm<T>(dev, Op::N, op, h, width, k, alpha, v(r0), ldv, w(c0), ldv, beta, Cc + r0, ld);
    gemm<T>(dev, Op::N, op, h, width, k, alpha2, w(r0), ldv, v(c0), ldv, T(1), Cc + r0, ld);
  };
  if (L.num_devices() == 1) return block(lo, hi, lo);  // one contiguous range
  // g's blocks of [lo, hi), one at a time (layouts/' runs of contiguous columns).
  for_each_column_run(local_columns(L, g, lo, hi),
                      [&](int64_t jl, int64_t c0, int64_t w) { block(c0, c0 + w, jl); });
}

}  // namespace mgblas::detail
