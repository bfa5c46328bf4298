// SPDX-License-Identifier: BSD-3-Clause
// The shapes of the CUDA engine's Q2 application (apply_q.cuh): compile-time parameter
// sets per precision. A shape serves every effective band be <= band; the launcher takes
// the first shape of the list with band >= be, so each band's default comes before any
// alternative of the same band (with MGBLAS_SB2ST_APPLY_Q set: the smallest band >= be of
// the shapes it names). Bands past the last shape run the one-warp-per-column kernel.
//
// What the four numbers trade (apply_q.cuh says why each matters):
//   band    the longest reflector served; a shorter one wastes (band - be) / band of the
//           arithmetic, so the list steps by powers of two;
//   sweeps  reflectors per column and window step: C streams through DRAM once per window,
//           so the arithmetic intensity is about sweeps / 4 flop/byte in double (sweeps / 2
//           in complex double): 64 keeps double compute-bound on an H200 (4.8 TB/s
//           against about 34 TFLOP/s of FP64 without tensor cores);
//   lanes   threads sharing one column: a column's window rows (band + sweeps - 1) are
//           held in registers, rows / lanes per thread, and a reflector costs log2(lanes)
//           shuffles; more lanes also means more threads for a given number of columns;
//   group   reflectors whose dot products are taken together (their Gram matrix packed
//           with them): the dependent chain of loads, sums, shuffles and the update is
//           paid once per group, not per reflector, which is what a thread with one column
//           needs when the GPU holds few columns per multiprocessor; each group's v is held
//           in registers (group x span_padded()).
// Registers of a thread: rows() + group * span_padded() elements, kept near 64 doubles.
// Measured (H200, 2026-11-28, bench/results/h200-band2tri-apply-q.md, n = m, b = 32): one
// reflector at a time (group 1, 64x2x1) 5.1 TFLOP/s at n = 8192, latency-bound with one
// warp per scheduler; the default 64x4x4 6.7 there and at 16384, where 64x2x1 was 4%
// faster; double is at 12-14% of cuBLAS's DGEMM rate, complex double (32x4x2) at 19-22%
// of ZGEMM's. The defaults stand on those two sizes only.
#pragma once

#include <complex>
#include <cstddef>
#include <iterator>
#include <utility>

namespace mgblas::kernels::cuda::sb2st {

struct ApplyQShape {
  int band;    ///< kB: the largest effective band be served
  int sweeps;  ///< kL: sweeps of a window (reflectors per column and step)
  int lanes;   ///< kTpc: threads per column, a power of two <= 32 that divides band
  int group;   ///< reflectors applied together (divides sweeps)

  /// Window rows a thread holds: local rows lane + lanes * q, q < rows().
  constexpr int rows() const { return (band + sweeps - 1 + lanes - 1) / lanes; }
  /// Register slots a reflector spans in a thread: rows j .. j + band - 1 meet
  /// band / lanes + 1 of its slots (band with one lane).
  constexpr int span() const { return lanes == 1 ? band : band / lanes + 1; }
  /// span() rounded up to even: the packed reflector is read two elements at a time.
  constexpr int span_padded() const { return (span() + 1) / 2 * 2; }
  /// Elements of one packed step: sweeps taus, sweeps x group Gram entries, then
  /// sweeps x lanes x span_padded() values.
  constexpr int step_elems() const {
    return sweeps + sweeps * group + sweeps * lanes * span_padded();
  }
};

constexpr bool valid_shape(ApplyQShape s, std::size_t elem_bytes) {
  const bool pow2 = s.lanes >= 1 && s.lanes <= 32 && (s.lanes & (s.lanes - 1)) == 0;
  // 16-byte copies of whole steps (cp.async) need step_elems() * elem_bytes % 16 == 0.
  return pow2 && s.band % s.lanes == 0 && s.sweeps % 4 == 0 && s.sweeps >= 4 &&
         s.group >= 1 && s.sweeps % s.group == 0 &&
         (s.step_elems() * elem_bytes) % 16 == 0;
}

/// The shapes of scalar T (the API type), defaults first by band, then alternatives for
/// comparisons.
template <typename T>
struct ApplyQShapes;

// Real: sweeps 64 (see above); lanes and group so that the registers stay near 64 doubles.
template <>
struct ApplyQShapes<double> {
  static constexpr ApplyQShape list[] = {{16, 64, 4, 4},  {32, 64, 4, 4}, {64, 64, 4, 2},
                                         {128, 32, 8, 2}, {32, 64, 4, 2}, {32, 64, 8, 4},
                                         {32, 64, 2, 1},  {64, 64, 8, 4}};
};
template <>
struct ApplyQShapes<float> {
  static constexpr ApplyQShape list[] = {
      {16, 64, 4, 4}, {32, 64, 4, 4}, {64, 64, 4, 2}, {128, 32, 8, 2}};
};
// Complex: twice the bytes and four times the arithmetic per element, so sweeps 32 has the
// intensity of real sweeps 64, and a group of 2 already gives a thread 4x the work per
// dependent chain of a real group of 2.
template <>
struct ApplyQShapes<std::complex<double>> {
  static constexpr ApplyQShape list[] = {{16, 32, 4, 2},  {32, 32, 4, 2}, {64, 32, 8, 2},
                                         {128, 16, 16, 2}, {32, 32, 8, 4}, {32, 32, 4, 1}};
};
template <>
struct ApplyQShapes<std::complex<float>> {
  static constexpr ApplyQShape list[] = {
      {16, 32, 4, 2}, {32, 32, 4, 2}, {64, 32, 8, 2}, {128, 16, 16, 2}};
};

/// Shapes compiled: the CI build (MGBLAS_INSTANCES=ci) keeps the defaults of bands 32 and
/// 128 only, which still serve every be <= 128 (a band >= be is all a shape needs).
#if defined(MGBLAS_INSTANCES_CI)
template <typename T>
inline constexpr std::size_t kBuiltApplyQShapes = 2;
template <typename T>
inline constexpr ApplyQShape built_apply_q_shape(std::size_t i) {
  return ApplyQShapes<T>::list[i == 0 ? 1 : 3];
}
#else
template <typename T>
inline constexpr std::size_t kBuiltApplyQShapes = std::size(ApplyQShapes<T>::list);
template <typename T>
inline constexpr ApplyQShape built_apply_q_shape(std::size_t i) {
  return ApplyQShapes<T>::list[i];
}
#endif

template <typename T, std::size_t... I>
constexpr bool all_shapes_valid(std::index_sequence<I...>) {
  return (valid_shape(built_apply_q_shape<T>(I), sizeof(T)) && ...);
}
static_assert(all_shapes_valid<double>(std::make_index_sequence<kBuiltApplyQShapes<double>>{}));
static_assert(all_shapes_valid<float>(std::make_index_sequence<kBuiltApplyQShapes<float>>{}));
static_assert(all_shapes_valid<std::complex<double>>(
    std::make_index_sequence<kBuiltApplyQShapes<std::complex<double>>>{}));
static_assert(all_shapes_valid<std::complex<float>>(
    std::make_index_sequence<kBuiltApplyQShapes<std::complex<float>>>{}));

}  // namespace mgblas::kernels::cuda::sb2st
