// SPDX-License-Identifier: BSD-3-Clause
// Tall-and-skinny GEMM tuning sets per precision: the compiled (t1, t2, t3) shapes the
// performance model (tsgemm_model.hpp) chooses among at run time.
//
// Entry 0 of every array is the one the CI build (MGBLAS_INSTANCES=ci) compiles alone,
// so it must cover every shape its kernel accepts: for TSM2L that is the widest n.
//
// How the sets were chosen: shapes from the register and shared-memory budget of
// sm_90 (65536 registers, 228 KB shared memory, 2048 threads per SM); min_blocks (the
// __launch_bounds__ residency, i.e. the register cap 65536 / (threads * min_blocks))
// as the largest value at which ptxas (CUDA 13.0, sm_90) reports no spill for that
// kernel, from `-Xptxas -v` over min_blocks = 1..8 (2026-11-22). ptxas schedules the
// shared-memory reads of B and the kT3 global loads of A well ahead of their use, so
// the kernels take 1.5 to 3 times the registers their arrays need (e.g. TSM2R float
// 128x16x16: 168 registers); the test dispatcher_and_model checks at run time that no
// built kernel spills (cudaFuncAttributes::localSizeBytes == 0).
// TSM2L keeps both of the paper's variants (Opt1, Opt2: register prefetch) and adds a
// staged one (cp.async into shared memory: bytes in flight without registers), for the
// model and the sweep to choose among; the full build compiles at most 8 sets per kernel.
// The sets with a `cols` field (tsm2l_cols_kernel: n_max / cols threads per row, for
// k = n = 32, and 16 in complex double, where one thread per row needed 150-254
// registers) and float's 128xn4x4 r4 (k = n = 4 with 64 bytes in flight per thread)
// replaced sets the model never chose (2026-11-22 run); their min_blocks are the
// largest with no spill by ptxas (CUDA 13, sm_90). Measured on the H200 (sweep_l,
// 2026-11-22): the column-group sets reach 26-63 % of the read bandwidth, below the
// one-thread-per-row sets on every shape (d 2^24 x 32 x 32: 54-63 % against 71 % for
// 128xn32x4 r2), so the dispatcher no longer chooses them (tsgemm_choice); they stay for
// the sweep and forced runs. float 128xn4x4 r4 lifted k = n = 4 from 40-43 % to 71-78 %.
// Not yet chosen from measurements: `tester_tsgemm --sweep` on the GPU
// (bench/tsgemm_device.sh) times every set for that.
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

/// What cuBLAS 13.1 reaches on each kernel's shapes, as a fraction of the measured read
/// bandwidth (A, B and C counted once): one H200, tester_tsgemm over the paper's grid
/// (bench/results/h200-tsgemm.md, 2026-11-22), averaged per shape class. Rows: s, d,
/// c, z; columns: the small dimension (n for TSM2R, max(k, n) for TSM2L, max(m, n)
/// for A^H B) up to 4, 8, 16, 32. The dispatcher runs cuBLAS where the model predicts
/// mgblas's best tuning set slower than this.
struct CublasTable {
  double tsm2r[4][4], tsm2l[4][4], tsmttsm[4][4];
};
inline constexpr CublasTable kCublasFraction{
    {{0.70, 0.68, 0.52, 0.43}, {0.93, 0.93, 0.93, 0.93}, {0.39, 0.39, 0.39, 0.33},
     {0.93, 0.93, 0.90, 0.69}},
    {{0.18, 0.27, 0.42, 0.55}, {0.20, 0.33, 0.58, 0.78}, {0.14, 0.26, 0.37, 0.47},
     {0.26, 0.42, 0.71, 0.58}},
    {{0.07, 0.12, 0.22, 0.25}, {0.24, 0.47, 0.80, 0.91}, {0.08, 0.16, 0.30, 0.45},
     {0.35, 0.65, 0.90, 0.94}}};

/// TSM2R shape classes (rows s, d, c, z; columns as kCublasFraction) where the H200
/// measured cuBLAS faster than the set the model picks, because the model over-predicts
/// the shared-memory-bound sets there (bench/results/h200-tsgemm.md, 2026-11-22): s with
/// n > 16 (model ~43 % of the read bandwidth, measured 22-28 % against cuBLAS's 43-48 %),
/// c with n > 8 (n = 16: chosen set 24-29 %, the sweep's best 38 %, cuBLAS 37-40 %;
/// n = 32: 22-26 % against 31-33 %). The dispatcher takes cuBLAS there outright.
inline constexpr bool kTsm2rMeasuredCublas[4][4] = {
    {false, false, false, true}, {false, false, false, false},
    {false, false, true, true},  {false, false, false, false}};

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
  // The full build compiles at most 8 sets per kernel (tuning/variant.hpp).
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
