// SPDX-License-Identifier: BSD-3-Clause
// The CUDA kernels' debug overrides: every getenv of kernels/cuda/ but the tuning
// tables' (tuning_table.cpp). See debug_env.hpp and docs/environment.md.
#include "kernels/cuda/common/debug_env.hpp"

#include <algorithm>
#include <cstdlib>
#include <string>

#include "core/detail/env.hpp"
#include "core/error.hpp"

namespace mgblas::kernels::cuda::common {

std::optional<int> latrd_step_blocks_override() {
  const char* v = std::getenv("MGBLAS_LATRD_STEP_BLOCKS");
  if (v == nullptr) return std::nullopt;
  return std::atoi(v);
}

bool latrd_no_coop_override() { return std::getenv("MGBLAS_LATRD_NO_COOP") != nullptr; }

bool panel_qr_cusolver_override() { return std::getenv("MGBLAS_PANEL_QR_CUSOLVER") != nullptr; }

std::optional<int64_t> panel_qr_slab_override() {
  // 0: unset or empty (a set value must be in [1, 65536]).
  const int64_t rows = ::mgblas::detail::env_integer("MGBLAS_PANEL_QR_SLAB", 1, 65536, 0);
  if (rows == 0) return std::nullopt;
  return rows;
}

std::optional<int> stebz_points_override() {
  const char* v = std::getenv("MGBLAS_STEBZ_POINTS");
  if (v == nullptr || *v == '\0') return std::nullopt;
  const int p = std::atoi(v);
  MGBLAS_CHECK_ARG(p == 1 || p == 2 || p == 4 || p == 8 || p == 16 || p == 32,
                   "MGBLAS_STEBZ_POINTS", p, "1, 2, 4, 8, 16 or 32");
  return p;
}

namespace {

// A 0/1 switch: nullopt when unset or empty, BadArgument naming it for anything else.
std::optional<bool> env_switch(const char* name) {
  const char* v = std::getenv(name);
  if (v == nullptr || *v == '\0') return std::nullopt;
  const std::string s(v);
  MGBLAS_CHECK_ARG(s == "0" || s == "1", name, s, "0 or 1");
  return s == "1";
}

}  // namespace

std::optional<bool> stebz_slice_override() { return env_switch("MGBLAS_STEBZ_SLICE"); }

std::optional<bool> stebz_dc_override() { return env_switch("MGBLAS_STEBZ_DC"); }

std::optional<bool> symm_skinny_override() { return env_switch("MGBLAS_SYMM_SKINNY"); }

bool stedc_trace() { return std::getenv("MGBLAS_STEDC_TRACE") != nullptr; }

std::optional<ApplyQChoice> sb2st_apply_q_override() {
  const char* v = std::getenv("MGBLAS_SB2ST_APPLY_Q");
  if (v == nullptr || *v == '\0') return std::nullopt;
  const std::string s(v);
  ApplyQChoice c;
  if (s == "generic" || s == "mma" || s == "mma-ring") {
    (s == "generic" ? c.generic : c.mma) = true;
    c.ring = s == "mma-ring";
    return c;
  }
  int* const parts[] = {&c.sweeps, &c.lanes, &c.group};
  std::size_t at = 0, count = 0;
  bool ok = true;
  for (; count < 3 && at <= s.size(); ++count) {
    const std::size_t x = std::min(s.find('x', at), s.size());
    const std::string part = s.substr(at, x - at);
    ok = ok && !part.empty() && part.find_first_not_of("0123456789") == std::string::npos;
    if (ok) *parts[count] = std::atoi(part.c_str());
    at = x + 1;
  }
  ok = ok && count >= 2 && at > s.size() && c.sweeps > 0 && c.lanes > 0;
  MGBLAS_CHECK_ARG(ok, "MGBLAS_SB2ST_APPLY_Q", s,
                   "\"generic\", \"mma\", \"mma-ring\" or <sweeps>x<lanes>[x<group>], e.g. 64x4");
  return c;
}

std::optional<int64_t> sb2st_apply_q_pack_bytes_override() {
  const char* v = std::getenv("MGBLAS_SB2ST_APPLY_Q_PACK_BYTES");
  if (v == nullptr || *v == '\0') return std::nullopt;
  const int64_t bytes = std::atoll(v);
  MGBLAS_CHECK_ARG(bytes > 0, "MGBLAS_SB2ST_APPLY_Q_PACK_BYTES", bytes, "> 0");
  return bytes;
}

}  // namespace mgblas::kernels::cuda::common
