// SPDX-License-Identifier: BSD-3-Clause
// The library's one non-cryptographic hash (64-bit FNV-1a): digests of arguments and
// replicated inputs that ranks compare, never stored or trusted beyond one call.
#pragma once

#include <cstddef>
#include <cstdint>

namespace mgblas {

inline constexpr uint64_t kHashSeed = 1469598103934665603ull;

inline uint64_t hash_bytes(const void* data, std::size_t bytes, uint64_t h = kHashSeed) {
  const auto* p = static_cast<const unsigned char*>(data);
  for (std::size_t i = 0; i < bytes; ++i) h = (h ^ p[i]) * 1099511628211ull;
  return h;
}

inline uint64_t hash_value(int64_t v, uint64_t h = kHashSeed) { return hash_bytes(&v, sizeof v, h); }

/// Digest of the rows x cols column-major block at A (leading dimension ld >= rows).
template <typename T>
uint64_t hash_matrix(int64_t rows, int64_t cols, const T* A, int64_t ld) {
  uint64_t h = kHashSeed;
  for (int64_t j = 0; j < cols && rows > 0; ++j)
    h = hash_bytes(A + j * ld, static_cast<std::size_t>(rows) * sizeof(T), h);
  return h;
}

}  // namespace mgblas
