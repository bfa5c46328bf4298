// SPDX-License-Identifier: BSD-3-Clause
// SYMV/HEMV tuning sets per precision (compile-time tile shapes) and the run-time
// number of tiles per block. The dispatcher table (kernels/cuda/level2/tables/<arch>.json)
// names the entry per precision and size class; how the sets were measured (H100,
// H200, 2026-11-22): bench/results/h200-tuning.md.
#pragma once

#include <array>
#include <complex>

namespace mgblas::kernels::cuda::level2 {

/// Tile kNb = tx * (16 / sizeof(T)) rows and columns; tx lanes along the rows, ty
/// thread rows each holding kNb / ty columns; prefetch: double-buffered registers;
/// min_blocks: blocks per SM the register budget is cut for (launch bounds), i.e.
/// 65536 / (min_blocks * tx * ty) registers per thread at most.
struct SymvShape {
  int tx, ty;
  bool prefetch;
  int min_blocks;
};

/// Blocks per multiprocessor the tiles-per-block count aims at (the triangle's tiles
/// spread evenly over that many blocks), and the fewest tiles a block takes: below
/// n ~ 8192 the spread gives one tile a block, and a block then spends as long loading x
/// and adding its column sums as on its tile (H200, tester_blas --split, cold L2: 4
/// tiles a block cut SYMV at n = 2048-4096 by 6-20 % for s, d, z and left n = 1024 and
/// n >= 6144 within noise; bench/results/h200-panel-sums.md).
struct SymvSplit {
  int blocks_per_sm;
  int min_tiles;
};

template <typename T> struct SymvTuning;
// Entry 0: 4 columns per thread, prefetch, 1024 resident threads (64 registers; d
// spills 12-16 bytes there, nvcc 13.0). Entry 1: 8 columns per thread, no prefetch (z:
// prefetch), 768 resident threads (85 registers). Entry 2 (d, c): 8 columns per thread
// with prefetch, 512 resident threads (128 registers): twice the work per barrier.
// Entries 2 and 3 (z): 8 columns per thread (a block of 4 warps per 32 x 32 tile, half
// the warps per barrier of entry 1), no prefetch with 640 resident threads (96
// registers) or prefetch with 512 (128 registers). float uses 16 lanes (64 x 64 tiles;
// a half-warp reads 256 bytes of a column), so s, d, c tiles hold 64 x 64 elements; z
// tiles are 32 x 32. (Tried on the H200 and dropped: d with 16 columns per thread, 384
// resident threads: 1-3 points below entry 1.)
template <> struct SymvTuning<float> {
  static constexpr std::array<SymvShape, 2> kShapes{{{16, 16, true, 2}, {16, 8, false, 6}}};
  static constexpr SymvSplit kSplit{16, 4};
};
template <> struct SymvTuning<double> {
  static constexpr std::array<SymvShape, 3> kShapes{
      {{32, 16, true, 2}, {32, 8, false, 3}, {32, 8, true, 2}}};
  static constexpr SymvSplit kSplit{16, 4};
};
template <> struct SymvTuning<std::complex<float>> {
  static constexpr std::array<SymvShape, 3> kShapes{
      {{32, 16, true, 2}, {32, 8, false, 3}, {32, 8, true, 2}}};
  static constexpr SymvSplit kSplit{16, 4};
};
template <> struct SymvTuning<std::complex<double>> {
  static constexpr std::array<SymvShape, 4> kShapes{
      {{32, 16, true, 2}, {32, 8, true, 3}, {32, 4, false, 5}, {32, 4, true, 4}}};
  static constexpr SymvSplit kSplit{16, 4};
};

/// Invariants (the kernel static_asserts them too): tx a power of two dividing 32;
/// the tile's columns split evenly over ty; at least one thread per tile row.
template <typename T>
constexpr bool valid_symv_shapes() {
  constexpr int vec = 16 / static_cast<int>(sizeof(T));
  for (const auto& s : SymvTuning<T>::kShapes) {
    const int nb = s.tx * vec;
    if (32 % s.tx != 0 || nb % s.ty != 0 || s.tx * s.ty < nb || s.tx * s.ty > 1024 ||
        nb / s.ty > 32 || s.min_blocks * s.tx * s.ty > 2048)
      return false;
  }
  return true;
}
static_assert(valid_symv_shapes<float>() && valid_symv_shapes<double>() &&
              valid_symv_shapes<std::complex<float>>() &&
              valid_symv_shapes<std::complex<double>>());

}  // namespace mgblas::kernels::cuda::level2
