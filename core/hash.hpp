// SPDX-License-Identifier: BSD-3-Clause
// The library's one non-cryptographic hash: digests of arguments and replicated inputs
// that ranks compare, never stored or trusted beyond one call.
//
// Word-wise with four independent lanes: each 32-byte stripe feeds one 8-byte word to each
// lane (multiply, rotate, multiply), so the four multiply chains overlap; the lanes are
// folded and the last bytes taken one at a time, then the result is mixed so that every
// input bit reaches every output bit. The byte-wise FNV-1a it replaces ran at about
// 0.3 GB/s, which made MGBLAS_VERIFY_INPUTS cost 44-81% of a distributed gemv/symv with a
// host x at n = 32768 (bench/results/h200-unmtr.md). Ranks compare digests made by the
// same code on the same byte order, so the words are read in the machine's order.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>

namespace mgblas {

inline constexpr uint64_t kHashSeed = 1469598103934665603ull;

namespace detail {
inline constexpr uint64_t kHashP1 = 0x9E3779B185EBCA87ull;  // odd constants with well-spread
inline constexpr uint64_t kHashP2 = 0xC2B2AE3D27D4EB4Full;  // bits (the golden ratio's and
inline constexpr uint64_t kHashP3 = 0x165667B19E3779F9ull;  // others of the same kind)

constexpr uint64_t rotl(uint64_t x, int r) { return (x << r) | (x >> (64 - r)); }
constexpr uint64_t lane_step(uint64_t acc, uint64_t word) {
  return rotl(acc + word * kHashP2, 31) * kHashP1;
}
constexpr uint64_t avalanche(uint64_t h) {
  h ^= h >> 33;
  h *= kHashP2;
  h ^= h >> 29;
  h *= kHashP3;
  return h ^ (h >> 32);
}
inline uint64_t load_word(const unsigned char* p) {
  uint64_t w;
  std::memcpy(&w, p, sizeof w);
  return w;
}
}  // namespace detail

/// Digest of `bytes` bytes at `data`; `h` chains a digest over several pieces (the
/// digest of a then b is hash_bytes(b, nb, hash_bytes(a, na))).
inline uint64_t hash_bytes(const void* data, std::size_t bytes, uint64_t h = kHashSeed) {
  using namespace detail;
  const auto* p = static_cast<const unsigned char*>(data);
  std::size_t i = 0;
  uint64_t acc = h + bytes * kHashP3;
  if (bytes >= 32) {
    uint64_t lane[4] = {h + kHashP1, h + kHashP2, h, h - kHashP1};
    for (; i + 32 <= bytes; i += 32)
      for (int l = 0; l < 4; ++l) lane[l] = lane_step(lane[l], load_word(p + i + 8 * l));
    acc += rotl(lane[0], 1) + rotl(lane[1], 7) + rotl(lane[2], 12) + rotl(lane[3], 18);
    for (uint64_t v : lane) acc = (acc ^ lane_step(0, v)) * kHashP1 + kHashP3;
  }
  for (; i + 8 <= bytes; i += 8) acc = rotl(acc ^ lane_step(0, load_word(p + i)), 27) * kHashP1 + kHashP3;
  for (; i < bytes; ++i) acc = rotl(acc ^ (p[i] * kHashP3), 11) * kHashP1;
  return avalanche(acc);
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
