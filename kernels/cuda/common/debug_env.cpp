// SPDX-License-Identifier: BSD-3-Clause
// The CUDA kernels' debug overrides: every getenv of kernels/cuda/ but the tuning
// tables' (tuning_table.cpp). See debug_env.hpp and docs/environment.md.
#include "kernels/cuda/common/debug_env.hpp"

#include <cstdlib>

#include "core/error.hpp"

namespace mgblas::kernels::cuda::common {

std::optional<int> latrd_step_blocks_override() {
  const char* v = std::getenv("MGBLAS_LATRD_STEP_BLOCKS");
  if (v == nullptr) return std::nullopt;
  return std::atoi(v);
}

bool latrd_no_coop_override() { return std::getenv("MGBLAS_LATRD_NO_COOP") != nullptr; }

std::optional<int> stebz_points_override() {
  const char* v = std::getenv("MGBLAS_STEBZ_POINTS");
  if (v == nullptr || *v == '\0') return std::nullopt;
  const int p = std::atoi(v);
  MGBLAS_CHECK_ARG(p == 1 || p == 2 || p == 4 || p == 8 || p == 16 || p == 32,
                   "MGBLAS_STEBZ_POINTS", p, "1, 2, 4, 8, 16 or 32");
  return p;
}

bool stedc_trace() { return std::getenv("MGBLAS_STEDC_TRACE") != nullptr; }

}  // namespace mgblas::kernels::cuda::common
