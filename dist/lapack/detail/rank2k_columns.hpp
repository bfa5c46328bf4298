// SPDX-License-Identifier: BSD-3-Clause
// One device's part of a rank-2k update of a distributed matrix (private to dist): the
// trailing update of the reductions and the public her2k_mgpu / syr2k_mgpu.
#pragma once

#include <cstdint>

#include "core/device.hpp"
#include "core/memory.hpp"
#include "core/types.hpp"
#include "kernels/blas.hpp"
#include "kernels/gemm_kernels.hpp"
#include "layouts/block_cyclic.hpp"

namespace mgblas::detail {

/// Diagonal blocks up to this order go to the engine's rank2k whole; wider column ranges
/// are halved until they are, the halves' off-diagonal square going to one GEMM. On an
/// H200, cuBLAS's dsyr2k runs at about 18 TFLOP/s whatever n; halving down to 512 made
/// hetrd's update at n = 32768 20 % faster but at 8192-16384 up to 2x slower (about 60
/// launches per panel), hence large blocks on GPUs (bench/results/h200-hetrd.md). A host
/// BLAS pays nothing per call, and its small block takes the tests through the halving.
inline int64_t rank2k_diagonal_block(const Device& dev) { return dev.is_gpu() ? 4096 : 128; }

/// Writes [V W V] (m x 3k, leading dimension m) into S, the stacked form of
/// rank2k_columns: [V W] and [W V] are then both m x 2k matrices of leading dimension m.
template <Scalar T>
void stack_rank2k_factors(const Device& dev, int64_t m, int64_t k, const T* V, int64_t ldv,
                          const T* W, int64_t ldw, T* S) {
  dev.make_current();
  copy_matrix(dev, m, k, V, ldv, S, m, /*async=*/true);
  copy_matrix(dev, m, k, W, ldw, S + m * k, m, /*async=*/true);
  copy_matrix(dev, m, k, V, ldv, S + 2 * m * k, m, /*async=*/true);
}

/// On the square submatrix S = C(lo:hi, lo:hi), `uplo` triangle only, over the columns of
/// global device g (local storage C_local, leading dimension ld):
///   herm:  S = alpha V W^H + conj(alpha) W V^H + beta S   (her2k; real T: syr2k)
///   else:  S = alpha V W^T + alpha W V^T + beta S          (complex-symmetric syr2k)
/// V and W hold rows lo..hi-1 of the n x k factors, V(r) at V + (r - row0), leading
/// dimension ldv. Per run of contiguous columns: the engine's rank2k on diagonal blocks
/// of at most rank2k_diagonal_block(dev) and GEMMs on the rest of the run's triangle part.
/// `stacked`: V, W and V again are adjacent (W = V + k ldv, as stack_rank2k_factors
/// writes them); where both terms carry the same scalar (real alpha, or the symmetric
/// kind) every off-diagonal part is then one GEMM [V W] [W V]^H of inner dimension 2k,
/// reading and writing C once instead of twice. beta == 0 does not read S.
template <Scalar T>
void rank2k_columns(const Device& dev, const BlockCyclic1D& L, int g, T* C_local, int64_t ld,
                    bool herm, Uplo uplo, int64_t lo, int64_t hi, int64_t k, T alpha,
                    const T* V, const T* W, int64_t row0, int64_t ldv, T beta,
                    bool stacked = false) {
  if (lo >= hi) return;
  const auto v = [&](int64_t r) { return V + (r - row0); };
  const auto w = [&](int64_t r) { return W + (r - row0); };
  const bool lower = uplo == Uplo::Lower;
  const Op op = herm ? Op::C : Op::T;
  const T alpha2 = herm ? conj(alpha) : alpha;
  const bool one_gemm = stacked && alpha2 == alpha;
  // Global columns [cs, ...) of a run live at local columns [js, ...).
  int64_t cs = 0, js = 0;
  const auto col = [&](int64_t c) { return C_local + (js + c - cs) * ld; };
  // C(r0:r0+h, c0:c0+wd) += both products (beta on the first).
  const auto rect = [&](int64_t r0, int64_t h, int64_t c0, int64_t wd) {
    if (h <= 0 || wd <= 0) return;
    T* Cr = col(c0) + r0;
    if (one_gemm) {
      gemm<T>(dev, Op::N, op, h, wd, 2 * k, alpha, v(r0), ldv, w(c0), ldv, beta, Cr, ld);
      return;
    }
    gemm<T>(dev, Op::N, op, h, wd, k, alpha, v(r0), ldv, w(c0), ldv, beta, Cr, ld);
    gemm<T>(dev, Op::N, op, h, wd, k, alpha2, w(r0), ldv, v(c0), ldv, T(1), Cr, ld);
  };
  // The triangle of C(a:b, a:b): halves until the engine's rank2k takes it.
  const int64_t diagonal_block = rank2k_diagonal_block(dev);
  const auto triangle = [&](auto&& self, int64_t a, int64_t b) -> void {
    if (b - a <= diagonal_block) {
      kernels::rank2k<T>(dev, herm, uplo, b - a, k, alpha, v(a), ldv, w(a), ldv, beta,
                         col(a) + a, ld);
      return;
    }
    const int64_t mid = a + ((b - a) / 2 + 63) / 64 * 64;  // 64-aligned halves
    self(self, a, mid);
    self(self, mid, b);
    if (lower) {
      rect(mid, b - mid, a, mid - a);
    } else {
      rect(a, mid - a, mid, b - mid);
    }
  };
  // The run of global columns [c0, c1) at local column jl: its triangle part, then the
  // rectangle beside it (below for Lower, above for Upper).
  const auto run = [&](int64_t c0, int64_t c1, int64_t jl) {
    cs = c0;
    js = jl;
    triangle(triangle, c0, c1);
    if (lower) {
      rect(c1, hi - c1, c0, c1 - c0);
    } else {
      rect(lo, c0 - lo, c0, c1 - c0);
    }
  };
  if (L.num_devices() == 1) return run(lo, hi, lo);  // one contiguous range
  // g's blocks of [lo, hi), one at a time (layouts/' runs of contiguous columns).
  for_each_column_run(local_columns(L, g, lo, hi),
                      [&](int64_t jl, int64_t c0, int64_t wd) { run(c0, c0 + wd, jl); });
}

}  // namespace mgblas::detail
