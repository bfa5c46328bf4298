// SPDX-License-Identifier: BSD-3-Clause
// Deterministic operands of mgblas-tester dist: entry k of a matrix or vector is a function of
// (seed, k) only, so the distributed matrix (filled on each device, by its block columns)
// and the single-GPU reference copy (filled whole) hold the same values without a host
// copy of A.
#pragma once

#include <cstdint>

#include "core/device.hpp"
#include "layouts/block_cyclic.hpp"

namespace mgblas::testers {

/// Uniform on [-1, 1) from (seed, k): splitmix64 of the pair, top 53 bits.
MGBLAS_HD inline double dist_value(uint64_t seed, uint64_t k) {
  uint64_t z = seed * 0x9E3779B97F4A7C15ull + k + 0x632BE59BD9B4E019ull;
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  z ^= z >> 31;
  return static_cast<double>(z >> 11) * (2.0 / 9007199254740992.0) - 1.0;
}

/// Real parts per element: 1 (real) or 2 (complex, real part at 2k, imaginary at 2k + 1).
/// Fills local columns [0, local_n) of global device g of layout L, ld >= m, entry
/// (i, jl) from global index i + L.global_col(g, jl) * m; memory of dev (queued on its
/// stream on a GPU, at once on a host device).
void fill_block_cyclic(const Device& dev, void* A, int64_t ld, const BlockCyclic1D& L, int g,
                       int reals, bool is_double, uint64_t seed);
/// Fills an m x n column-major matrix (ld >= m), entry (i, j) from index i + j * m.
void fill_matrix(const Device& dev, void* A, int64_t ld, int64_t m, int64_t n, int reals,
                 bool is_double, uint64_t seed);

}  // namespace mgblas::testers
