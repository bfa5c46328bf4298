// SPDX-License-Identifier: BSD-3-Clause
// SYMV/HEMV launchers (private): beta pre-scaling, tiles per block, variant selection.
// Included by the per-precision instance files symv_{s,d,c,z}.cu only.
#pragma once

#include <string>

#include "core/detail/cuda_check.hpp"
#include "kernels/cuda/common/launchers.hpp"
#include "kernels/cuda/level2/symv.cuh"
#include "kernels/cuda/level2/symv.hpp"
#include "kernels/cuda/level2/symv_tuning.hpp"
#include "kernels/cuda/level2/level2_dispatch.hpp"
#include "kernels/cuda/common/variant.hpp"

namespace mgblas::kernels::cuda::level2 {

using common::built_variants;
using common::with_variant;

// Runs the kernel over local tile columns [jl0, jl1) of region R. per_block: tiles per
// block, from `split` when > 0, else the triangle's `stored` tiles spread over the
// tuning's blocks per SM, at least its min_tiles; `longest`: the most tiles any of these
// columns holds.
template <typename T, int kTx, int kTy, bool kPrefetch, int kMinBlocksPerSm, bool kLower,
          bool kConj>
void launch_symv_region(cudaStream_t stream, SymvRegion R, int64_t jl0, int64_t jl1,
                        int64_t stored, int64_t longest, T alpha, const T* A, int64_t lda,
                        const T* x, int64_t incx, T* y, int64_t incy, int64_t split,
                        T* quad) {
  using D = common::device_t<T>;
  if (jl1 <= jl0 || longest <= 0) return;
  int64_t per_block = split;
  if (per_block <= 0) {
    const int64_t target =
        static_cast<int64_t>(SymvTuning<T>::kSplit.blocks_per_sm) * multiprocessor_count();
    per_block = imax(ceil_div(stored, target), SymvTuning<T>::kSplit.min_tiles);
  }
  per_block = imax(per_block, ceil_div(longest, common::kMaxGridY));
  per_block = imax(1, imin(per_block, longest));
  R.cols.first = jl0;
  const dim3 grid(static_cast<unsigned>(jl1 - jl0), static_cast<unsigned>(ceil_div(longest, per_block)));
  const dim3 block(kTx, kTy);
  symv_kernel<D, kTx, kTy, kPrefetch, kMinBlocksPerSm, kLower, kConj><<<grid, block, 0, stream>>>(
      R, common::to_device(alpha), common::device_ptr(A), lda, common::device_ptr(x), incx,
      common::device_ptr(y), incy, per_block, common::device_ptr(quad));
  MGBLAS_CHECK_LAUNCH(stream);
}

// A whole (sub)matrix on one device: the virtual matrix starts `shift` rows and columns
// above and left of A so that tiles align with the parent's 128-byte segments.
template <typename T, int kTx, int kTy, bool kPrefetch, int kMinBlocksPerSm, bool kLower,
          bool kConj>
void launch_symv(cudaStream_t stream, int64_t n, T alpha, const T* A, int64_t lda, const T* x,
                 int64_t incx, T* y, int64_t incy, int64_t split) {
  constexpr int kNb = kTx * kVecOf<common::device_t<T>>;
  const Alignment al = alignment_of(A, lda, sizeof(T));
  const int64_t nt = ceil_div(n + al.shift, kNb);
  const SymvRegion R{al.shift, al.shift + n, al.shift, al.shift + n, -al.shift * (lda + 1),
                     TileColumns{}, al.vector_ok};
  launch_symv_region<T, kTx, kTy, kPrefetch, kMinBlocksPerSm, kLower, kConj>(
      stream, R, 0, nt, nt * (nt + 1) / 2, nt, alpha, A, lda, x, incx, y, incy, split,
      static_cast<T*>(nullptr));
}

// One device's columns of a matrix dealt out in blocks (symv.hpp, LocalColumns): the
// virtual matrix is the global one (rows from 0, so tiles align with the blocks when
// nb is a multiple of the tile), the submatrix [off, n).
template <typename T, int kTx, int kTy, bool kPrefetch, int kMinBlocksPerSm, bool kLower,
          bool kConj>
void launch_symv_cyclic(cudaStream_t stream, int64_t n, int64_t off, const LocalColumns& sh,
                        T alpha, const T* A, int64_t lda, const T* x, T* y, T* quad) {
  constexpr int kNb = kTx * kVecOf<common::device_t<T>>;
  const int64_t q = sh.nb / kNb;
  const TileColumns cols{0, q, sh.stride / kNb, sh.first_col / kNb};
  const bool vector_ok = reinterpret_cast<uintptr_t>(A) % 16 == 0 &&
                         (lda * static_cast<int64_t>(sizeof(T))) % 16 == 0;
  const SymvRegion R{off, n, sh.global_col(sh.local_begin), sh.global_col(sh.local_end - 1) + 1,
                     0, cols, vector_ok};
  const int64_t jl0 = sh.local_begin / kNb, jl1 = ceil_div(sh.local_end, kNb);
  const int64_t nt = ceil_div(n, kNb), tile_lo = off / kNb;
  int64_t stored = 0, longest = 0;
  for (int64_t jl = jl0; jl < jl1; ++jl) {
    const int64_t j = cols.virtual_of(jl);
    const int64_t len = kLower ? nt - j : j - tile_lo + 1;
    stored += len;
    longest = imax(longest, len);
  }
  launch_symv_region<T, kTx, kTy, kPrefetch, kMinBlocksPerSm, kLower, kConj>(
      stream, R, jl0, jl1, stored, longest, alpha, A, lda, x, 1, y, 1, 0, quad);
}

// Calls run(lower, conj) with the two as std::bool_constant: the kernel instance for the
// stored triangle and kind. Real types: symmetric and Hermitian are one kernel.
template <Scalar T, typename Run>
void with_symv_kind(Uplo uplo, bool hermitian, Run&& run) {
  using True = std::true_type;
  using False = std::false_type;
  const bool conj = is_complex_v<T> && hermitian;
  if (uplo == Uplo::Lower) {
    if (conj) run(True{}, std::bool_constant<is_complex_v<T>>{});
    else run(True{}, False{});
  } else {
    if (conj) run(False{}, std::bool_constant<is_complex_v<T>>{});
    else run(False{}, False{});
  }
}

template <Scalar T>
void symv(cudaStream_t stream, Uplo uplo, bool hermitian, int64_t n, T alpha, const T* A,
          int64_t lda, int64_t off, const T* x, int64_t incx, T beta, T* y, int64_t incy,
          Params params) {
  if (n <= 0) return;
  // Many blocks add into every element of y, so beta is applied first (beta == 1: no
  // launch; beta == 0: zeros written, y not read).
  common::scale_vector<T>(stream, n, beta, y, incy);
  if (alpha == T(0)) return;
  const T* Asub = A + off + off * lda;
  using Tuning = SymvTuning<T>;
  with_variant<built_variants<Tuning::kShapes.size()>>(params.variant, [&](auto v) {
    constexpr SymvShape s = Tuning::kShapes[decltype(v)::value];
    auto run = [&](auto lower, auto conj) {
      launch_symv<T, s.tx, s.ty, s.prefetch, s.min_blocks, decltype(lower)::value,
                  decltype(conj)::value>(
          stream, n, alpha, Asub, lda, x, incx, y, incy, params.split);
    };
    with_symv_kind<T>(uplo, hermitian, run);
  });
}

template <Scalar T>
void symv_cyclic(cudaStream_t stream, Uplo uplo, bool hermitian, int64_t n, int64_t off,
                 const LocalColumns& share, T alpha, const T* A, int64_t lda, const T* x, T* y,
                 T* quad) {
  if (quad && is_complex_v<T> && !hermitian)
    MGBLAS_THROW(NotImplemented, "symv_cyclic: x^H S x (quad) is formed for real symmetric or "
                                 "Hermitian S only, not complex symmetric");
  if (share.local_end <= share.local_begin || alpha == T(0))
    return;
  using Tuning = SymvTuning<T>;
  // The tuning set the dispatcher names for this size (its cuBLAS choices are for small
  // matrices on one device, which this kernel does not serve: set 0 there).
  const Choice c = choose_symv<T>(uplo, hermitian, n - off, A, lda, x, 1, y, 1);
  const int variant = c.engine == Engine::Mgblas ? c.variant : 0;
  with_variant<built_variants<Tuning::kShapes.size()>>(variant, [&](auto v) {
    constexpr SymvShape s = Tuning::kShapes[decltype(v)::value];
    static_assert(s.tx * kVecOf<common::device_t<T>> == symv_tile<T>(),
                  "every tuning set of a precision has the same tile");
    auto run = [&](auto lower, auto conj) {
      launch_symv_cyclic<T, s.tx, s.ty, s.prefetch, s.min_blocks, decltype(lower)::value,
                         decltype(conj)::value>(stream, n, off, share, alpha, A, lda, x, y,
                                                quad);
    };
    with_symv_kind<T>(uplo, hermitian, run);
  });
}

template <Scalar T>
int symv_variant_count() {
  return static_cast<int>(built_variants<SymvTuning<T>::kShapes.size()>);
}

template <Scalar T>
std::string symv_variant_name(Uplo uplo, bool hermitian, int variant) {
  if (variant < 0 || variant >= symv_variant_count<T>()) return "none";
  const SymvShape s = SymvTuning<T>::kShapes[variant];
  const int nb = s.tx * 16 / static_cast<int>(sizeof(T));
  return std::string(is_complex_v<T> && hermitian ? "hemv" : "symv") + to_string(uplo) + " " +
         std::to_string(s.tx) + "x" + std::to_string(s.ty) + " nb" + std::to_string(nb) +
         (s.prefetch ? " pf" : "");
}

}  // namespace mgblas::kernels::cuda::level2

#define MGBLAS_SYMV_LEVEL2_INSTANTIATE(T) MGBLAS_SYMV_LEVEL2_DECLARE_(, T)
