// SPDX-License-Identifier: BSD-3-Clause
// The level-2 dispatch table: per (architecture, precision, operation, size class),
// mgblas's kernel (and which tuning set) or cuBLAS. First matching rule wins.
//
// sm_90 rules: measured with tests/testers/tester_blas on one H100 80GB HBM3 on
// 2026-11-22 (bench/run_device.sh sweep and full, CUDA 13.0, cuBLAS 13.1; medians of 20,
// A rotated beyond L2; data in bench/results/h100-gemv-symv*.csv), except the rules
// whose label says "H200": measured on one H200 on 2026-11-22 after the typed 16-byte
// loads (gemv/level2_device.cuh, load_vec16) fixed d GEMV T, d SYMV and z HEMV, with
// bench/run_device.sh focus and final (data in bench/results/h200-gemv-symv*). They
// apply to every sm_90 part; the H100 was not measured again after the fix. Each label
// says what the measurement was (speedup = cuBLAS time / mgblas kernel time). The d
// SYMV, z HEMV and d GEMV T rules up to 6144 and the z HEMV tuning sets above it were
// chosen from the final run's sweeps after it ran (its symv.csv / small.csv rows name
// the rules before that). Classes not measured (skinny shapes, min(m, n) < 64) go to
// cuBLAS. Other architectures: the model default (mgblas's kernels: they read the
// stored elements once, 16 bytes per load), not measured.
#pragma once

#include <cstdint>
#include <limits>

#include "kernels/cuda/tuning/level2_dispatch.hpp"

namespace mgblas::kernels::cuda::level2 {

enum class Kind : unsigned char { GemvN, GemvT, Symv };  // T covers C; Symv covers hemv

struct Rule {
  int cc;              ///< compute capability (90 = sm_90); 0 matches any
  char prec;           ///< 's', 'd', 'c', 'z'; '*' matches any
  Kind kind;
  char uplo;           ///< Symv: 'L' or 'U'; '*' matches any (and every GEMV)
  int64_t max_min_dim; ///< applies when min(m, n) <= this
  int64_t max_dim;     ///< ... and max(m, n) <= this
  Engine engine;
  int variant;
  const char* label;
};

inline constexpr int64_t kAny = std::numeric_limits<int64_t>::max();

inline constexpr Rule kLevel2Rules[] = {
    // ---- sm_90 (H100 measurements; H200 where the label says so) ----
    // GEMV: unmeasured skinny shapes.
    {90, '*', Kind::GemvN, '*', 63, kAny, Engine::Cublas, 0, "cublas [sm90 gemvN skinny: not measured]"},
    {90, '*', Kind::GemvT, '*', 63, kAny, Engine::Cublas, 0, "cublas [sm90 gemvT skinny: not measured]"},
    // GEMV N, n <= 4096: both launch-bound; mgblas 0.85-0.99x except z <= 1024 (1.05-1.45x).
    {90, 'z', Kind::GemvN, '*', kAny, 1024, Engine::Mgblas, 1, "mgblas v1 [sm90 z gemvN n<=1024: 1.05-1.45x]"},
    {90, '*', Kind::GemvN, '*', kAny, 4096, Engine::Cublas, 0, "cublas [sm90 gemvN n<=4096: mgblas 0.85-0.99x]"},
    // GEMV N, n >= 8192: both at the copy bandwidth; mgblas 1.00-1.03x, 1.05-1.15x on
    // unaligned submatrices.
    {90, 'z', Kind::GemvN, '*', kAny, kAny, Engine::Mgblas, 0, "mgblas v0 [sm90 z gemvN large: 0.99-1.05x]"},
    {90, '*', Kind::GemvN, '*', kAny, kAny, Engine::Mgblas, 1, "mgblas v1 [sm90 gemvN large: 1.00-1.15x]"},
    // GEMV T/C: mgblas ahead only for s above 4096 (1.01-1.19x). d, c, z: cuBLAS is at
    // the read ceiling and mgblas's best set (v1) 0.93-1.00x behind it on the H200 (d
    // 97.6-108.1 % of copy bandwidth since the load fix); v1 is named so that the tester
    // times that set.
    {90, 's', Kind::GemvT, '*', kAny, 4096, Engine::Cublas, 0, "cublas [sm90 s gemvT n<=4096: mgblas 0.8-1.0x]"},
    {90, 's', Kind::GemvT, '*', kAny, kAny, Engine::Mgblas, 1, "mgblas v1 [sm90 s gemvT large: 1.01-1.19x]"},
    // d at n = 1024: cuBLAS drops to 623 GB/s, every mgblas set 1.32-1.43x; 512: a tie.
    {90, 'd', Kind::GemvT, '*', kAny, 512, Engine::Cublas, 1, "cublas [H200 d gemvT n<=512: mgblas 0.86-1.02x]"},
    {90, 'd', Kind::GemvT, '*', kAny, 1024, Engine::Mgblas, 3, "mgblas v3 [H200 d gemvT n<=1024: 1.43x]"},
    {90, '*', Kind::GemvT, '*', kAny, kAny, Engine::Cublas, 1, "cublas [H200 d/c/z gemvT: mgblas v1 0.93-1.00x]"},
    // SYMV/HEMV against cuBLAS's default mode (against its atomics mode the H200 figures
    // for d and z at n >= 8192 are 1.04-1.22x, see bench/results); cuBLAS's upper
    // triangle is much slower than its lower one, hence rules per triangle.
    {90, 's', Kind::Symv, '*', kAny, kAny, Engine::Mgblas, 0, "mgblas v0 [sm90 s symv: 0.94-3.5x]"},
    // d, z (H200, sizes 512..32768): set 1 of d and sets 2 / 3 of z are the fastest or
    // within noise of it at every size; d lower at 512 is launch-bound and ties cuBLAS.
    {90, 'd', Kind::Symv, 'L', kAny, 512, Engine::Cublas, 0, "cublas [H200 d symvL n<=512: mgblas 0.87-1.01x]"},
    {90, 'd', Kind::Symv, '*', kAny, kAny, Engine::Mgblas, 1, "mgblas v1 [H200 d symv: 1.13-3.97x]"},
    {90, 'c', Kind::Symv, '*', kAny, kAny, Engine::Mgblas, 1, "mgblas v1 [sm90 c hemv: 1.0-3.0x]"},
    {90, 'z', Kind::Symv, '*', kAny, 4096, Engine::Mgblas, 2, "mgblas v2 [H200 z hemv n<=4096: 1.15-2.50x]"},
    {90, 'z', Kind::Symv, '*', kAny, kAny, Engine::Mgblas, 3, "mgblas v3 [H200 z hemv n>4096: 1.21-2.59x]"},
    // ---- model defaults (any architecture) ----
    {0, '*', Kind::GemvN, '*', kAny, kAny, Engine::Mgblas, 0, "mgblas v0 [default gemvN]"},
    {0, '*', Kind::GemvT, '*', kAny, kAny, Engine::Mgblas, 0, "mgblas v0 [default gemvT]"},
    {0, '*', Kind::Symv, '*', kAny, kAny, Engine::Mgblas, 0, "mgblas v0 [default symv]"},
};

}  // namespace mgblas::kernels::cuda::level2
