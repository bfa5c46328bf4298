// SPDX-License-Identifier: BSD-3-Clause
// Tall-and-skinny GEMM tuning sets per precision: the compiled (t1, t2, t3) shapes the
// performance model (tsgemm_model.hpp) chooses among at run time; where cuBLAS runs
// instead is in the tables (tsgemm/tables/, tsgemm_dispatch.hpp).
//
// Entry 0 of every array is the one the CI build (MGBLAS_INSTANCES=ci) compiles alone,
// so it must cover every shape its kernel accepts: for TSM2L that is the widest n.
// min_blocks (the __launch_bounds__ residency) is the largest value at which ptxas
// reports no spill for that kernel; the test dispatcher_and_model checks at run time
// that no built kernel spills. How the sets were chosen and measured (ptxas, the H200
// sweeps, 2026-11-22): bench/results/h200-tuning.md.
#pragma once

#include <array>
#include <complex>
#include <cstddef>

namespace mgblas::kernels::cuda::tsm2 {

/// TSM2L stages all of B (k x n) in shared memory: k <= kMaxK.
inline constexpr int kMaxK = 32;
/// TSM2L and the A^H B kernel cover n (and m for A^H B) up to this many columns.
inline constexpr int kMaxSkinny = 32;

/// TSM2R: t1 threads per block = rows of a B tile = rows of A and C per block; t2
/// columns of C per pass (n > t2 takes several passes, each re-reading A); t3 elements
/// of A per thread per fetch (the prefetch depth).
struct Tsm2rShape {
  int t1, t2, t3;
  int min_blocks;
  /// Rows of A and C per thread (kR): each B value read from shared memory feeds rows
  /// multiply-adds (the paper: 1).
  int rows = 1;
};

/// TSM2L: `threads` per block, every thread walks several rows (grid-stride); n_max
/// columns of C per thread (n <= n_max); t3 elements of an A row per fetch;
/// interleave: prefetch runs on across rows (the paper's Opt2) or stops at each row
/// end (Opt1, rows done one after the other); stages: see below.
struct Tsm2lShape {
  int threads, n_max, t3;
  bool interleave;
  int min_blocks;
  /// 0: A fetched into registers (Opt1 / Opt2 by `interleave`); >= 2: A fetched by
  /// cp.async into shared memory, stages - 1 fetches of t3 elements in flight per thread.
  int stages = 0;
  /// Rows walked at once per thread (as Tsm2rShape::rows).
  int rows = 1;
  /// 0: one thread per row owns all n_max columns of C (tsm2l_kernel). > 0: n_max / cols
  /// threads share each row, cols columns each, A staged through shared memory by
  /// cp.async (tsm2l_cols_kernel; stages >= 2, interleave unused).
  int cols = 0;
};

/// Rows of A and C a block covers per step.
constexpr int tsm2l_block_rows(const Tsm2lShape& s) {
  return (s.cols > 0 ? s.threads / (s.n_max / s.cols) : s.threads) * s.rows;
}

/// A^H B (k-split): `threads` per block walk the k rows; each holds a tm x tn tile of
/// the m x n result.
struct TsmttsmShape {
  int threads, tm, tn;
  int min_blocks;
};

template <typename T> struct TsgemmTuning;

template <> struct TsgemmTuning<float> {
  static constexpr std::array<Tsm2rShape, 8> kR{{{128, 16, 4, 3, 4},
                                                 {128, 4, 16, 6},
                                                 {128, 8, 8, 5, 2},
                                                 {128, 32, 4, 2, 4},
                                                 {128, 16, 16, 3},
                                                 {128, 8, 16, 3},
                                                 {128, 32, 8, 4},
                                                 {128, 16, 8, 4, 2}}};
  static constexpr std::array<Tsm2lShape, 8> kL{{{128, 32, 8, true, 3, 0, 2},
                                                 {128, 32, 4, true, 5, 4, 4, 8},
                                                 {128, 32, 4, true, 3, 4, 4, 16},
                                                 {128, 16, 8, true, 5, 0, 2},
                                                 {128, 4, 4, true, 6, 0, 4},
                                                 {128, 8, 8, true, 6},
                                                 {256, 4, 8, true, 3},
                                                 {128, 32, 4, true, 3, 4, 8, 8}}};
  static constexpr std::array<TsmttsmShape, 2> kT{{{256, 8, 8, 2}, {256, 4, 4, 4}}};
};

template <> struct TsgemmTuning<double> {
  static constexpr std::array<Tsm2rShape, 6> kR{{{128, 8, 8, 3, 2},
                                                 {128, 4, 16, 3},
                                                 {128, 16, 4, 3, 2},
                                                 {128, 8, 16, 3},
                                                 {128, 16, 8, 3},
                                                 {64, 32, 4, 4}}};
  static constexpr std::array<Tsm2lShape, 8> kL{{{128, 32, 4, true, 2, 0, 2},
                                                 {128, 32, 2, true, 4, 4, 4, 8},
                                                 {256, 32, 4, true, 2, 3, 8, 4},
                                                 {128, 16, 8, true, 3},
                                                 {128, 16, 4, true, 3, 0, 2},
                                                 {128, 8, 8, true, 5},
                                                 {256, 4, 8, true, 4},
                                                 {128, 4, 8, true, 8, 3}}};
  static constexpr std::array<TsmttsmShape, 3> kT{{{256, 8, 8, 1}, {256, 4, 8, 2}, {256, 4, 4, 4}}};
};

template <> struct TsgemmTuning<std::complex<float>> {
  static constexpr std::array<Tsm2rShape, 7> kR{{{128, 16, 4, 3, 2},
                                                 {128, 4, 16, 3},
                                                 {128, 8, 8, 3, 2},
                                                 {128, 16, 8, 4},
                                                 {128, 8, 16, 3},
                                                 {64, 32, 4, 6},
                                                 {64, 32, 4, 4, 2}}};
  static constexpr std::array<Tsm2lShape, 8> kL{{{128, 32, 4, true, 2, 0, 2},
                                                 {128, 32, 4, true, 4, 3, 4, 8},
                                                 {256, 32, 4, true, 3, 3, 4, 4},
                                                 {128, 16, 8, true, 4},
                                                 {128, 16, 4, true, 4, 0, 2},
                                                 {128, 8, 8, true, 4},
                                                 {256, 4, 8, true, 3},
                                                 {128, 4, 8, true, 8, 3}}};
  static constexpr std::array<TsmttsmShape, 3> kT{{{256, 8, 8, 1}, {256, 4, 8, 2}, {256, 4, 4, 4}}};
};

template <> struct TsgemmTuning<std::complex<double>> {
  static constexpr std::array<Tsm2rShape, 5> kR{{{128, 8, 4, 4},
                                                 {128, 4, 8, 3},
                                                 {64, 16, 4, 4},
                                                 {128, 8, 4, 2, 2},
                                                 {128, 4, 4, 2, 2}}};
  static constexpr std::array<Tsm2lShape, 8> kL{{{128, 32, 2, true, 2},
                                                 {256, 32, 2, true, 2, 3, 4, 4},
                                                 {128, 32, 2, true, 3, 3, 2, 8},
                                                 {128, 16, 4, true, 4},
                                                 {128, 16, 2, true, 4, 3, 4, 4},
                                                 {128, 8, 4, true, 4},
                                                 {128, 8, 4, true, 6, 3},
                                                 {128, 4, 4, true, 6}}};
  static constexpr std::array<TsmttsmShape, 2> kT{{{256, 4, 4, 2}, {256, 4, 2, 3}}};
};

/// Invariants the kernels rely on (they static_assert them as well): whole warps, t3 a
/// multiple of the 16-byte vector and t1 a multiple of t3, B tiles within 48 KB of
/// static shared memory, n_max within kMaxSkinny.
template <typename T>
constexpr bool valid_tsgemm_shapes() {
  constexpr int vec = 16 / static_cast<int>(sizeof(T));
  constexpr std::size_t kStaticSmem = 48 * 1024;
  for (const auto& s : TsgemmTuning<T>::kR)
    if (s.t1 % 32 != 0 || s.t1 > 1024 || s.t3 % vec != 0 || s.t1 % s.t3 != 0 || s.t2 < 1 ||
        s.rows < 1 ||
        2u * s.t1 * s.t2 * sizeof(T) > kStaticSmem || s.min_blocks < 1)
      return false;
  for (const auto& s : TsgemmTuning<T>::kL) {
    if (s.threads % 32 != 0 || s.threads > 1024 || s.t3 % vec != 0 || kMaxK % s.t3 != 0 ||
        s.n_max < 1 || s.n_max > kMaxSkinny || s.stages == 1 || s.rows < 1 || s.cols < 0)
      return false;
    // Column groups of whole warps; the cp.async copies of a chunk spread evenly.
    if (s.cols > 0 && (s.n_max % s.cols != 0 || s.stages < 2 ||
                       s.threads % (s.n_max / s.cols) != 0 ||
                       (s.threads / (s.n_max / s.cols)) % 32 != 0 ||
                       (s.t3 * tsm2l_block_rows(s)) % s.threads != 0))
      return false;
    const std::size_t a_slots = s.cols > 0
        ? static_cast<std::size_t>(s.stages) * s.t3 * tsm2l_block_rows(s)
        : static_cast<std::size_t>(s.stages) * s.rows * s.t3 * s.threads;
    if ((static_cast<std::size_t>(kMaxK) * s.n_max + a_slots) * sizeof(T) > kStaticSmem)
      return false;
  }
  for (const auto& s : TsgemmTuning<T>::kT)
    if (s.threads % 32 != 0 || s.threads > 1024 || s.tm < 1 || s.tn < 1 ||
        (s.threads / 32) * s.tm * s.tn * sizeof(T) > kStaticSmem)
      return false;
  // The full build compiles at most 8 sets per kernel (common/variant.hpp).
  if (TsgemmTuning<T>::kR.size() > 8 || TsgemmTuning<T>::kL.size() > 8 ||
      TsgemmTuning<T>::kT.size() > 8)
    return false;
  // CI compiles entry 0 alone: TSM2L's must take every n up to kMaxSkinny.
  return TsgemmTuning<T>::kL[0].n_max == kMaxSkinny;
}
static_assert(valid_tsgemm_shapes<float>() && valid_tsgemm_shapes<double>() &&
              valid_tsgemm_shapes<std::complex<float>>() &&
              valid_tsgemm_shapes<std::complex<double>>());

}  // namespace mgblas::kernels::cuda::tsm2
