// SPDX-License-Identifier: BSD-3-Clause
// The library's one non-cryptographic hash: digests of arguments and replicated inputs
// that ranks compare, never stored or trusted beyond one call.
//
// A sum of mixed words: the bytes are read as 8-byte words in the machine's order (the
// last one zero-padded), each word is mixed with its index by a bijective mixer, and
// the mixes are added modulo 2^64; the sum, the length and the chained digest are then
// mixed once more so that every input bit reaches every output bit. A sum can be formed
// in any order, so a GPU computes the same digest of a vector in its memory with one
// kernel (kernels/column_kernels.hpp digest_sum) instead of copying it to the host; on
// the host it runs at several GB/s (the byte-wise FNV-1a it replaces ran at about
// 0.3 GB/s, which made MGBLAS_VERIFY_INPUTS cost 44-81% of a distributed gemv/symv with
// a host x at n = 32768: bench/results/h200-unmtr.md). Changing one word changes its
// mix (a bijection) and so the sum; the index in the mix tells swapped words apart.
// Ranks compare digests made by the same code on the same byte order.
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
/// The mix of word `index`: xor with a function of the index, an odd multiply and an
/// xor-shift, each a bijection of the word (two multiplies a word: the sum runs at
/// memory speed on a GPU and at several GB/s on a host core; constexpr: device code
/// calls it too).
constexpr uint64_t mix_word(uint64_t word, uint64_t index) {
  const uint64_t z = (word ^ (index * kHashP1)) * kHashP2;
  return z ^ (z >> 29);
}
constexpr uint64_t avalanche(uint64_t h) {
  h ^= h >> 33;
  h *= kHashP2;
  h ^= h >> 29;
  h *= kHashP3;
  return h ^ (h >> 32);
}
}  // namespace detail

/// The order-free part of a digest: the sum of mix_word over the 8-byte words of the
/// `bytes` bytes at `data` (the last word zero-padded).
inline uint64_t hash_word_sum(const void* data, std::size_t bytes) {
  const auto* p = static_cast<const unsigned char*>(data);
  const std::size_t words = bytes / 8;
  uint64_t sum[4] = {0, 0, 0, 0};  // four sums, so the multiplies of four words overlap
  std::size_t i = 0;
  for (; i + 4 <= words; i += 4)
    for (std::size_t l = 0; l < 4; ++l) {
      uint64_t w;
      std::memcpy(&w, p + 8 * (i + l), sizeof w);
      sum[l] += detail::mix_word(w, i + l);
    }
  for (; i < words; ++i) {
    uint64_t w;
    std::memcpy(&w, p + 8 * i, sizeof w);
    sum[0] += detail::mix_word(w, i);
  }
  if (bytes % 8 != 0) {
    uint64_t w = 0;
    std::memcpy(&w, p + 8 * words, bytes % 8);
    sum[0] += detail::mix_word(w, words);
  }
  return sum[0] + sum[1] + sum[2] + sum[3];
}

/// The digest from hash_word_sum's result for `bytes` bytes, chained after `h`.
constexpr uint64_t hash_finish(uint64_t word_sum, std::size_t bytes, uint64_t h) {
  using namespace detail;
  return avalanche(word_sum ^ rotl(avalanche(h + bytes * kHashP3), 23));
}

/// Digest of `bytes` bytes at `data`; `h` chains a digest over several pieces (the
/// digest of a then b is hash_bytes(b, nb, hash_bytes(a, na))).
inline uint64_t hash_bytes(const void* data, std::size_t bytes, uint64_t h = kHashSeed) {
  return hash_finish(hash_word_sum(data, bytes), bytes, h);
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
