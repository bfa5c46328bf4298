// SPDX-License-Identifier: BSD-3-Clause
// Integer settings from the environment (the library's MGBLAS_* overrides), checked the
// same way everywhere: a bad value is a BadArgument naming the variable and the value.
#pragma once

#include <cstdint>
#include <cstdlib>

#include "core/error.hpp"

namespace mgblas::detail {

/// The integer in environment variable `name` where it is set and not empty, else
/// `fallback`; BadArgument unless the value is an integer in [lo, hi].
inline int64_t env_integer(const char* name, int64_t lo, int64_t hi, int64_t fallback) {
  const char* v = std::getenv(name);
  if (v == nullptr || *v == '\0') return fallback;
  char* end = nullptr;
  const long long x = std::strtoll(v, &end, 10);
  if (end == v || *end != '\0' || x < lo || x > hi)
    MGBLAS_THROW(BadArgument, "environment ", name, " = '", v, "': must be an integer in [", lo,
                 ", ", hi, "]");
  return x;
}

}  // namespace mgblas::detail
