// SPDX-License-Identifier: BSD-3-Clause
// The compiled instance lists of the batched GEMM kernels (constexpr, one list for all
// precisions) and their invariants. The tuner searches over these instances times the
// run-time entries-per-block E; the tables (tables/*.json) name instances by their
// string names, so renaming or removing one makes a table entry fall back to the model.
//
// Full list (default build):
//   small, exact sizes: squares 1..32 and the small-k factorisation shapes
//     m = n in {8, 16, 32}, k in {8, 16, 32} (MAGMA batched LU/QR panels); thread tiles
//     t x t with t in {1, 2, 4} (t >= the size: one thread per entry), pruned where the
//     tile is pointless (t = 1 beyond 12: > 144 threads and one shared load per FMA);
//   small, bounds (variable size, and fixed sizes without an exact instance): cubes
//     4, 8, 16, 32, two thread tiles each;
//   tiled: 16x16x16, 32x32x16, 32x32x32, 64x32x16, 64x64x16 tiles.
// 4x4 thread tiles are not built for 16-byte scalars (complex double: see
// small_built_for in batched_kernels.cuh).
// The exact squares up to 16 and the small-k shapes are built with both alpha/beta
// policies, every other instance with the general one only (beta = 0 never reads C
// there either; the alpha = 1, beta = 0 instance saves a multiply and the beta test).
// CI list (MGBLAS_INSTANCES=ci): squares 2, 4, 8, 16, 32 (one tile each), bounds 8
// and 32, tiled 32x32x16; general policy only.
//
// Why these tiles: below 5 a thread that owns a whole entry keeps 2 * size^2 loads in
// flight (enough to cover the memory latency); from 5 to 32 the register tiles 2x2
// and 4x4 halve and quarter the shared-memory reads per FMA, which otherwise bound the
// kernel from size 16 up (one 8-byte shared load per FMA on H100/H200 runs at 1/4 of
// the FP64 FMA rate). Chosen from the model, then by `mgblas-tune batched` on the
// device (tables/); the sizes are those of issue 5.
#pragma once

#include <array>
#include <cstddef>

namespace mgblas::kernels::cuda::batched {

struct SmallSpec {
  int m, n, k;  ///< sizes (exact) or bounds
  int tm, tn;   ///< C elements per thread
  bool exact;
  /// The alpha = 1, beta = 0 policy is built too (where the C traffic it saves matters
  /// most: the exact shapes up to 16 and the small-k shapes).
  bool alpha_one_beta_zero = false;
};
struct TiledSpec {
  int bm, bn, bk;  ///< C tile and k step
  int dx, dy;      ///< threads
};

#if defined(MGBLAS_INSTANCES_CI)
inline constexpr bool kBuildAlphaOneBetaZero = false;
inline constexpr std::array<SmallSpec, 7> kSmallSpecs{{
    {2, 2, 2, 2, 2, true},
    {4, 4, 4, 2, 2, true},
    {8, 8, 8, 2, 2, true},
    {16, 16, 16, 4, 4, true},
    {32, 32, 32, 4, 4, true},
    {8, 8, 8, 1, 1, false},
    {32, 32, 32, 2, 2, false},
}};
inline constexpr std::array<TiledSpec, 1> kTiledSpecs{{{32, 32, 16, 16, 16}}};
#else
inline constexpr bool kBuildAlphaOneBetaZero = true;

namespace detail {
/// Thread tiles of an exact square of size s (see the file comment).
constexpr int square_tiles(int s, int* out) {
  int count = 0;
  if (s <= 12) out[count++] = 1;
  if (s == 2 || s == 3) out[count++] = s;  // one thread per entry
  if (s >= 4) {
    out[count++] = 2;
    out[count++] = 4;
  }
  return count;
}
constexpr int count_small() {
  int total = 0;
  int t[3] = {};
  for (int s = 1; s <= 32; ++s) total += square_tiles(s, t);
  return total + 6 * 2 + 4 * 2;
}
constexpr std::array<SmallSpec, count_small()> make_small() {
  std::array<SmallSpec, count_small()> a{};
  int i = 0;
  int t[3] = {};
  for (int s = 1; s <= 32; ++s) {
    const int c = square_tiles(s, t);
    for (int j = 0; j < c; ++j) a[i++] = {s, s, s, t[j], t[j], true, s <= 16};
  }
  constexpr int kSmallK[] = {8, 16, 32};
  for (int mn : kSmallK)
    for (int k : kSmallK)
      if (k != mn)
        for (int tile : {2, 4}) a[i++] = {mn, mn, k, tile, tile, true, true};
  a[i++] = {4, 4, 4, 1, 1, false};
  a[i++] = {4, 4, 4, 4, 4, false};
  a[i++] = {8, 8, 8, 1, 1, false};
  a[i++] = {8, 8, 8, 2, 2, false};
  a[i++] = {16, 16, 16, 2, 2, false};
  a[i++] = {16, 16, 16, 4, 4, false};
  a[i++] = {32, 32, 32, 2, 2, false};
  a[i++] = {32, 32, 32, 4, 4, false};
  return a;
}
}  // namespace detail

inline constexpr auto kSmallSpecs = detail::make_small();
inline constexpr std::array<TiledSpec, 5> kTiledSpecs{{
    {16, 16, 16, 16, 16},
    {32, 32, 16, 16, 16},
    {32, 32, 32, 8, 8},
    {64, 32, 16, 16, 16},
    {64, 64, 16, 16, 16},
}};
#endif

/// Hard limits every instance keeps (static shared memory of tiled kernels and the
/// dynamic shared memory of E = 1 small kernels must fit the 48 KiB every CUDA GPU
/// grants without opting in, for 16-byte scalars).
constexpr bool valid_specs() {
  for (const SmallSpec& s : kSmallSpecs) {
    if (s.m < 1 || s.n < 1 || s.k < 1 || s.m > 32 || s.n > 32 || s.k > 32) return false;
    if (s.tm < 1 || s.tn < 1) return false;
    const int threads = ((s.m + s.tm - 1) / s.tm) * ((s.n + s.tn - 1) / s.tn);
    // SmallGemm::kMaxThreads for 16-byte scalars (the smallest of the four).
    const int acc = s.tm * s.tn * 4;
    const int limit = acc <= 8 ? 1024 : (acc <= 16 ? 512 : 256);
    if (threads > limit) return false;
  }
  for (const TiledSpec& t : kTiledSpecs) {
    const int threads = t.dx * t.dy;
    if (t.bm % t.dx || t.bn % t.dy || threads < 32 || threads > 1024) return false;
    if ((t.bm * t.bk) % threads || (t.bk * t.bn) % threads) return false;
    if (((t.bm | 1) * t.bk + (t.bk | 1) * t.bn) * 16 > 48 * 1024) return false;
  }
  return true;
}
static_assert(valid_specs(), "an instance breaks a hard limit (see valid_specs)");

}  // namespace mgblas::kernels::cuda::batched
