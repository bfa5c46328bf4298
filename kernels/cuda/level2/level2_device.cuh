// SPDX-License-Identifier: BSD-3-Clause
// Device building blocks shared by the GEMV and SYMV/HEMV kernels (private).
//
// Row chunks. Every kernel reads A along columns in chunks of kVec = 16 / sizeof(D)
// consecutive rows per thread, so that one 16-byte load fetches a chunk and a warp
// covers a 512-byte run of a column. Kernels address a "virtual" matrix whose row 0
// sits `shift` rows above the first row of the (sub)matrix, chosen so that virtual
// row 0 is aligned to the parent's 128-byte segments (KBLAS paper, section 6.6);
// valid rows are [shift, shift + m). A chunk lying wholly inside the valid rows is
// read with one vector load when the launcher found vector loads legal (A and lda
// 16-byte aligned); any other chunk is read element by element, only its valid
// elements, the rest set to zero. So nothing outside the submatrix is ever read,
// and a NaN there cannot leak in.
#pragma once

#include <cstdint>
#include <cstring>
#include <type_traits>

#include "kernels/cuda/common/block_sums.cuh"
#include "kernels/cuda/common/device_scalar.cuh"

namespace mgblas::kernels::cuda::level2 {

using common::atomic_add;
using common::ceil_div;
using common::real_diag;

__host__ __device__ constexpr int64_t imin(int64_t a, int64_t b) { return a < b ? a : b; }
__host__ __device__ constexpr int64_t imax(int64_t a, int64_t b) { return a > b ? a : b; }

/// Elements of D per 16-byte vector load.
template <typename D>
inline constexpr int kVecOf = 16 / static_cast<int>(sizeof(D));

/// kVec consecutive rows of one column, in registers.
template <typename D>
struct Chunk {
  static constexpr int kVec = kVecOf<D>;
  D v[kVec];
};

template <typename D>
__device__ __forceinline__ void set_zero(Chunk<D>& c) {
#pragma unroll
  for (int e = 0; e < Chunk<D>::kVec; ++e) c.v[e] = D{};
}

/// One 16-byte read-only load of a whole chunk. 64-bit parts (double, cuDoubleComplex)
/// are loaded as double2: a uint4 load bit-cast into 64-bit elements makes the PTX pack
/// register pairs (mov.b64 {lo, hi}), and where the chunk also has a masked
/// element-wise path, ptxas (nvcc 13.0) then copied the loaded quad into the merged
/// registers right after the load, i.e. waited for each load before issuing the next:
/// one load in flight per warp, d GEMV T, d SYMV and z HEMV at 50-73 % of the copy
/// bandwidth (H200). 32-bit parts keep the uint4 load: it needs no packing, and a
/// float4 load changed the register allocation of s SYMV upper set 0 for the worse
/// (5-7 points slower on the H200), so s and c compile as before.
template <typename D>
__device__ __forceinline__ void load_vec16(Chunk<D>& c, const D* p) {
  static_assert(sizeof(Chunk<D>) == 16);
  if constexpr (std::is_same_v<D, double>) {
    const double2 v = __ldg(reinterpret_cast<const double2*>(p));
    c.v[0] = v.x;
    c.v[1] = v.y;
  } else if constexpr (std::is_same_v<D, cuDoubleComplex>) {
    c.v[0] = __ldg(reinterpret_cast<const double2*>(p));
  } else {
    static_assert(std::is_same_v<D, float> || std::is_same_v<D, cuFloatComplex>);
    const uint4 raw = __ldg(reinterpret_cast<const uint4*>(p));
    memcpy(&c, &raw, sizeof(raw));
  }
}

/// Read the chunk at `p` (element of virtual row `row` of one column).
/// full: all kVec rows valid and vector loads legal -> one 16-byte load;
/// otherwise only rows in [lo, hi) are read, the others are zero.
template <typename D>
__device__ __forceinline__ void load_chunk(Chunk<D>& c, const D* p, bool full, int64_t row,
                                           int64_t lo, int64_t hi) {
  if (full) {
    load_vec16(c, p);
  } else {
#pragma unroll
    for (int e = 0; e < Chunk<D>::kVec; ++e)
      c.v[e] = (row + e >= lo && row + e < hi) ? p[e] : D{};
  }
}

/// a * b + acc, with a conjugated when kConj (real types ignore kConj).
template <bool kConj, typename D>
__device__ __forceinline__ D fma_op(D a, D b, D acc) {
  if constexpr (kConj) return common::mul_add(common::conj(a), b, acc);
  else return common::mul_add(a, b, acc);
}

// ---- output ----------------------------------------------------------------------------

/// Write one output element: with `fused` the block owns it alone and applies
/// y = alpha * s + beta * y (y not read when beta == 0); otherwise y was scaled by
/// beta beforehand and alpha * s is added atomically.
template <typename D>
__device__ __forceinline__ void store_output(D* y, D s, D alpha, D beta, bool fused) {
  const D as = common::mul(alpha, s);
  if (!fused) atomic_add(y, as);
  else if (common::is_zero(beta)) *y = as;
  else *y = common::mul_add(beta, *y, as);
}

// ---- host-side geometry shared by the launchers ----------------------------------------

/// Where a kernel starts reading a (sub)matrix whose first element is `first`.
struct Alignment {
  int64_t shift;    ///< virtual rows above the first row (0 <= shift < 128 / sizeof)
  bool vector_ok;   ///< 16-byte chunk loads are legal
};

/// shift moves the start down to the previous 128-byte boundary when every column
/// starts at the same offset within 128 bytes (lda * size a multiple of 128); else to
/// the previous 16-byte boundary when lda * size is a multiple of 16; else vector
/// loads are off and shift = 0. Element alignment of `first` is a precondition.
inline Alignment alignment_of(const void* first, int64_t lda, int64_t elem_size) {
  const auto addr = reinterpret_cast<uintptr_t>(first);
  const int64_t ld_bytes = lda * elem_size;
  if (ld_bytes % 16 != 0 || addr % static_cast<uintptr_t>(elem_size) != 0) return {0, false};
  const int64_t seg = ld_bytes % 128 == 0 ? 128 : 16;
  return {static_cast<int64_t>(addr % static_cast<uintptr_t>(seg)) / elem_size, true};
}

}  // namespace mgblas::kernels::cuda::level2
