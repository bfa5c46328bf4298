// SPDX-License-Identifier: BSD-3-Clause
// The level-2 dispatch table: per (architecture, precision, operation, size class),
// mgblas's kernel (and which tuning set) or cuBLAS. First matching rule wins.
//
// sm_90 rules: measured with tests/testers/tester_blas on one H100 80GB HBM3 (the lent
// sm_90 machine; no H200 was free) on 2026-11-22 (bench/run_device.sh sweep and full,
// CUDA 13.0, cuBLAS 13.1; medians of 20, A rotated beyond L2; data in
// bench/results/h100-gemv-symv*.csv). Each label says what the measurement was
// (speedup = cuBLAS time / mgblas kernel time). The SYMV rules per triangle and the
// z HEMV classes were refined from the final run's data after it ran. Classes not measured
// (skinny shapes, min(m, n) < 64) go to cuBLAS. Other architectures: the model default
// (mgblas's kernels: they read the stored elements once, 16 bytes per load), not
// measured.
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
    // ---- sm_90 (H100 measurements) ----
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
    // GEMV T/C: mgblas ahead only for s above 4096 (1.01-1.19x); d 0.80-0.90x, c, z 0.96-1.01x.
    {90, 's', Kind::GemvT, '*', kAny, 4096, Engine::Cublas, 0, "cublas [sm90 s gemvT n<=4096: mgblas 0.8-1.0x]"},
    {90, 's', Kind::GemvT, '*', kAny, kAny, Engine::Mgblas, 1, "mgblas v1 [sm90 s gemvT large: 1.01-1.19x]"},
    {90, '*', Kind::GemvT, '*', kAny, kAny, Engine::Cublas, 0, "cublas [sm90 d/c/z gemvT: mgblas 0.80-1.01x]"},
    // SYMV/HEMV against cuBLAS's default mode (its atomics mode is faster for d and z
    // above 8192, see bench/results); cuBLAS's upper triangle is much slower than its
    // lower one, hence rules per triangle.
    {90, 's', Kind::Symv, '*', kAny, kAny, Engine::Mgblas, 0, "mgblas v0 [sm90 s symv: 0.94-3.5x]"},
    {90, 'd', Kind::Symv, 'L', kAny, 512, Engine::Cublas, 0, "cublas [sm90 d symvL n<=512: mgblas 0.89x]"},
    {90, 'd', Kind::Symv, '*', kAny, 2048, Engine::Mgblas, 0, "mgblas v0 [sm90 d symv n<=2048: 1.0-2.2x]"},
    {90, 'd', Kind::Symv, '*', kAny, 8192, Engine::Cublas, 0, "cublas [sm90 d symv n<=8192: mgblas 0.76-0.81x]"},
    {90, 'd', Kind::Symv, '*', kAny, kAny, Engine::Mgblas, 1, "mgblas v1 [sm90 d symv n>8192: 1.4-2.2x]"},
    {90, 'c', Kind::Symv, '*', kAny, kAny, Engine::Mgblas, 1, "mgblas v1 [sm90 c hemv: 1.0-3.0x]"},
    {90, 'z', Kind::Symv, 'L', kAny, 1024, Engine::Mgblas, 0, "mgblas v0 [sm90 z hemvL n<=1024: 1.12x]"},
    {90, 'z', Kind::Symv, 'U', kAny, 2048, Engine::Mgblas, 0, "mgblas v0 [sm90 z hemvU n<=2048: 1.0-2.3x]"},
    {90, 'z', Kind::Symv, '*', kAny, 8192, Engine::Cublas, 0, "cublas [sm90 z hemv n<=8192: mgblas 0.86-0.95x]"},
    {90, 'z', Kind::Symv, '*', kAny, kAny, Engine::Mgblas, 0, "mgblas v0 [sm90 z hemv n>8192: 1.4-1.75x]"},
    // ---- model defaults (any architecture) ----
    {0, '*', Kind::GemvN, '*', kAny, kAny, Engine::Mgblas, 0, "mgblas v0 [default gemvN]"},
    {0, '*', Kind::GemvT, '*', kAny, kAny, Engine::Mgblas, 0, "mgblas v0 [default gemvT]"},
    {0, '*', Kind::Symv, '*', kAny, kAny, Engine::Mgblas, 0, "mgblas v0 [default symv]"},
};

}  // namespace mgblas::kernels::cuda::level2
