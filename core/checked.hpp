// SPDX-License-Identifier: BSD-3-Clause
// Checked size arithmetic: every size, offset, element count or byte count the library
// forms from user input goes through these, so that a wrapped product never becomes a
// small allocation or an in-bounds-looking address.
#pragma once

#include <cstddef>
#include <cstdint>

#include "core/error.hpp"

namespace mgblas {

/// a + b, or BadArgument naming `what` when the sum leaves int64_t.
inline int64_t checked_add(int64_t a, int64_t b, const char* what) {
  int64_t r;
  if (__builtin_add_overflow(a, b, &r))
    MGBLAS_THROW(BadArgument, what, " = ", a, " + ", b, " overflows 64-bit arithmetic");
  return r;
}

/// a * b, or BadArgument naming `what` when the product leaves int64_t.
inline int64_t checked_mul(int64_t a, int64_t b, const char* what) {
  int64_t r;
  if (__builtin_mul_overflow(a, b, &r))
    MGBLAS_THROW(BadArgument, what, " = ", a, " * ", b, " overflows 64-bit arithmetic");
  return r;
}

/// Bytes of `count` elements of `elem` bytes each, for an allocation or a copy.
inline std::size_t checked_bytes(int64_t count, std::size_t elem, const char* what) {
  if (count < 0) MGBLAS_THROW(BadArgument, what, ": negative element count ", count);
  std::size_t r;
  if (__builtin_mul_overflow(static_cast<std::size_t>(count), elem, &r))
    MGBLAS_THROW(BadArgument, what, ": ", count, " elements of ", elem,
                 " bytes overflow the address space");
  return r;
}

}  // namespace mgblas
