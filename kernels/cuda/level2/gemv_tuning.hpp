// SPDX-License-Identifier: BSD-3-Clause
// GEMV tuning sets per precision (compile-time shapes) and the run-time split policy.
//
// Entry 0 of each array is the default; the dispatcher table
// (kernels/cuda/level2/tables/<arch>.json) may name another entry per size class.
// The CI build compiles entry 0 only (common/variant.hpp). All entries are kept for the
// sweeps (tester_blas --sweep). How they were measured (H100, H200, 2026-11-22) and
// which the table names: bench/results/h200-tuning.md.
#pragma once

#include <array>
#include <complex>

namespace mgblas::kernels::cuda::level2 {

/// N kernel: kTx lanes along rows (kTx * kVec rows per block), kTy thread rows along
/// columns, kUnroll columns per thread per step, double-buffered prefetch or not.
struct GemvNShape {
  int tx, ty, unroll;
  bool prefetch;
  int min_blocks;  ///< blocks per SM the register budget is cut for (launch bounds)
};
/// T/C kernel: kTx lanes along rows, kTy thread rows, kCols columns per thread
/// (kTy * kCols columns per block), steps runs of kTx chunks per column per step.
struct GemvTShape {
  int tx, ty, cols;
  int steps;  ///< adjacent 512-byte runs per column per step (DRAM page locality)
  bool prefetch;
  int min_blocks;
};

/// Run-time split along the long dimension (KBLAS's Y): aim at kBlocksPerSm blocks per
/// multiprocessor so the last wave is a small part of the run, but keep at least
/// kMinSteps steps per block so the prefetch has something to overlap.
struct SplitPolicy {
  int blocks_per_sm;
  int min_steps;
};

template <typename T> struct GemvTuning;

// Shapes in 16-byte chunks are the same for every precision: a warp reads 512 bytes
// of a column per load. What changes is the rows per block (kTx * 16 / sizeof(T)).
template <typename T> struct GemvTuningCommon {
  // Entry 0: 4 chunks per thread prefetched, 256 threads, 3 blocks per SM (at most 85
  // registers, 48 KB in flight per SM; a 64-register cap made it spill). Entry 1: 4
  // chunks without prefetch, 512 threads, 2 blocks per SM (64 registers), the latency
  // hidden by resident warps alone.
  static constexpr std::array<GemvNShape, 2> kN{{{32, 8, 4, true, 3}, {32, 16, 4, false, 2}}};
  // T entries 2 and 3 read two adjacent 512-byte runs per column per step (1 KB):
  // run 1 on the H100 showed d at 80-94 % of copy bandwidth with one run, s, c, z at
  // 97-102 % (d's deficit was the load code, not the access pattern: see load_vec16).
  static constexpr std::array<GemvTShape, 4> kT{{{32, 8, 4, 1, true, 3},
                                                 {32, 16, 4, 1, false, 2},
                                                 {32, 16, 2, 2, false, 2},
                                                 {32, 8, 2, 2, true, 3}}};
  static constexpr SplitPolicy kSplitN{16, 2};
  static constexpr SplitPolicy kSplitT{16, 2};
};

template <> struct GemvTuning<float> : GemvTuningCommon<float> {};
template <> struct GemvTuning<double> : GemvTuningCommon<double> {};
template <> struct GemvTuning<std::complex<float>> : GemvTuningCommon<std::complex<float>> {};
template <> struct GemvTuning<std::complex<double>> : GemvTuningCommon<std::complex<double>> {};

/// Invariants every shape must keep (the kernels static_assert them too):
/// kTx a power of two dividing 32; kTy >= 16 / sizeof(T) for N (one thread per row in
/// the final sum); at most 1024 threads.
template <typename T>
constexpr bool valid_shapes() {
  constexpr int vec = 16 / static_cast<int>(sizeof(T));
  for (const auto& s : GemvTuning<T>::kN)
    if (32 % s.tx != 0 || s.tx * s.ty > 1024 || s.ty < vec || s.unroll < 1 ||
        s.min_blocks * s.tx * s.ty > 2048)
      return false;
  for (const auto& s : GemvTuning<T>::kT)
    if (32 % s.tx != 0 || s.tx * s.ty > 1024 || s.cols < 1 || s.steps < 1 ||
        s.min_blocks * s.tx * s.ty > 2048)
      return false;
  return true;
}
static_assert(valid_shapes<float>() && valid_shapes<double>() &&
              valid_shapes<std::complex<float>>() && valid_shapes<std::complex<double>>());

}  // namespace mgblas::kernels::cuda::level2
