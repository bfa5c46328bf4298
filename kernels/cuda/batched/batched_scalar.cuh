// SPDX-License-Identifier: BSD-3-Clause
// The argument block of the batched GEMM kernels and its helpers (private).
//
// Everything here compiles twice: by nvcc into the kernels, and by the host compiler
// into the emulation test (tests/kernels/test_batched_host.cpp), which runs the very
// same block programs (batched_programs.cuh) on CPU threads: MGBLAS_BATCHED_FN is
// `__device__ __forceinline__` under nvcc and plain `inline` elsewhere, and the scalar
// arithmetic is common/device_scalar.cuh's, which compiles for both.
//
// Device scalars are float, double, cuFloatComplex and cuDoubleComplex (layout of
// std::complex); the launchers reinterpret the API's pointers once.
#pragma once

#include <cstdint>

#include "kernels/cuda/common/device_scalar.cuh"

#if defined(__CUDACC__)
#define MGBLAS_BATCHED_FN __device__ __forceinline__
#define MGBLAS_BATCHED_UNROLL _Pragma("unroll")
#else
#define MGBLAS_BATCHED_FN inline
#define MGBLAS_BATCHED_UNROLL
#endif

namespace mgblas::kernels::cuda::batched::dev {

using common::conj;
using common::is_zero;
using common::maybe_conj;
using common::mul;
using common::mul_add;

MGBLAS_BATCHED_FN int imin(int a, int b) { return a < b ? a : b; }
MGBLAS_BATCHED_FN int64_t clamp_size(int64_t v, int64_t hi) { return v < 0 ? 0 : (v > hi ? hi : v); }

/// One operand of a batch: entry e is `array[e]` when `array` is set (pointer
/// arrays, variable size), else `ptr + e * stride`; its leading dimension is
/// `ld_array[e]` when set (variable size), else `ld`.
template <typename P>
struct Operand {
  P* ptr = nullptr;
  P* const* array = nullptr;
  int64_t stride = 0;
  int64_t ld = 1;
  const int64_t* ld_array = nullptr;

  MGBLAS_BATCHED_FN P* entry(int64_t e) const { return array ? array[e] : ptr + e * stride; }
  MGBLAS_BATCHED_FN int64_t ld_of(int64_t e) const { return ld_array ? ld_array[e] : ld; }
  /// The same operand with entry 0 moved to entry `e0` (split launches).
  Operand advanced(int64_t e0) const {
    Operand o = *this;
    if (array) o.array += e0;
    else o.ptr += e0 * stride;
    if (ld_array) o.ld_array += e0;
    return o;
  }
};

/// Everything a batched kernel reads besides shared memory, passed by value.
template <typename D>
struct BatchArgs {
  Operand<const D> a, b;
  Operand<D> c;
  /// Variable size: per-entry sizes (all three set), clamped to [0, m/n/k] below;
  /// fixed size: null, and m, n, k are the sizes.
  const int64_t* m_array = nullptr;
  const int64_t* n_array = nullptr;
  const int64_t* k_array = nullptr;
  int64_t m = 0, n = 0, k = 0;
  int64_t batch = 0;  ///< entries of this launch
  D alpha{}, beta{};
  bool trans_a = false, conj_a = false, trans_b = false, conj_b = false;
  bool beta_zero = false;  ///< C is written without being read
  int entries_per_block = 1;  ///< small family: E
  int tiles_m = 1, tiles_n = 1;  ///< tiled family: C tiles per entry (from the maxima)

  MGBLAS_BATCHED_FN int64_t m_of(int64_t e) const { return m_array ? clamp_size(m_array[e], m) : m; }
  MGBLAS_BATCHED_FN int64_t n_of(int64_t e) const { return n_array ? clamp_size(n_array[e], n) : n; }
  MGBLAS_BATCHED_FN int64_t k_of(int64_t e) const { return k_array ? clamp_size(k_array[e], k) : k; }

  /// The arguments of entries [e0, e0 + count) as a launch of their own.
  BatchArgs advanced(int64_t e0, int64_t count) const {
    BatchArgs r = *this;
    r.a = a.advanced(e0);
    r.b = b.advanced(e0);
    r.c = c.advanced(e0);
    if (m_array) {
      r.m_array += e0;
      r.n_array += e0;
      r.k_array += e0;
    }
    r.batch = count;
    return r;
  }
};

/// Alpha/beta policies fixed at compile time (Jhurani & Mullowney's axpby functor):
/// general alpha and beta (beta == 0 still never reads C), or alpha = 1, beta = 0,
/// where C is stored straight from the accumulators.
enum Policy : int { kGeneral = 0, kAlphaOneBetaZero = 1 };

}  // namespace mgblas::kernels::cuda::batched::dev
