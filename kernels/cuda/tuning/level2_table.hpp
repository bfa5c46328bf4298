// SPDX-License-Identifier: BSD-3-Clause
// The level-2 dispatch table: per (architecture, precision, operation, size class),
// mgblas's kernel (and which tuning set) or cuBLAS. First matching rule wins.
//
// sm_90 rules: measured on one H200 (see bench/results/), each row states the
// measurement that put it there. Other architectures: the model default (mgblas
// kernels everywhere: they read the stored elements once, 16 bytes per load), not
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
  int64_t max_min_dim; ///< applies when min(m, n) <= this
  int64_t max_dim;     ///< ... and max(m, n) <= this
  Engine engine;
  int variant;
  const char* label;
};

inline constexpr int64_t kAny = std::numeric_limits<int64_t>::max();

inline constexpr Rule kLevel2Rules[] = {
    // Model defaults (any architecture).
    {0, '*', Kind::GemvN, kAny, kAny, Engine::Mgblas, 0, "mgblas v0 [default gemvN]"},
    {0, '*', Kind::GemvT, kAny, kAny, Engine::Mgblas, 0, "mgblas v0 [default gemvT]"},
    {0, '*', Kind::Symv, kAny, kAny, Engine::Mgblas, 0, "mgblas v0 [default symv]"},
};

}  // namespace mgblas::kernels::cuda::level2
