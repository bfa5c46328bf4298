// SPDX-License-Identifier: BSD-3-Clause
// Local blocks: the contiguous pieces of a distributed matrix that this rank's devices
// hold, each with its place in the global matrix, so that a caller can fill (or read)
// its part in place, without a root holding the whole matrix (issue 36, item 2).
//
//   BlockCyclic1D: one block per block column of width nb (the last may be narrower):
//                  all m rows, global columns [jb nb, jb nb + width).
//   RowTiling:     one block per device: its rows [row_begin, row_end), all n columns.
//
// Blocks are listed by local device, then in local order; blocks with no entries (m = 0,
// n = 0, a device without columns or rows) are not listed. The index part (BlockExtent)
// is pure arithmetic on the layout; local_blocks(A) adds the containers' pointers.
#pragma once

#include <concepts>
#include <cstdint>
#include <type_traits>
#include <vector>

#include "core/error.hpp"
#include "layouts/block_cyclic.hpp"
#include "layouts/dist_matrix.hpp"
#include "layouts/row_tiled_matrix.hpp"
#include "layouts/row_tiling.hpp"

namespace mgblas {

/// Where one local block lies: global indices of its first entry, its size, and the
/// local (row, column) of its first entry in its device's column-major storage.
struct BlockExtent {
  int64_t row = 0, col = 0;
  int64_t rows = 0, cols = 0;
  int64_t local_row = 0, local_col = 0;
};

/// Number of local blocks of global device g.
inline int64_t local_block_count(const BlockCyclic1D& L, int g) {
  return L.m() > 0 ? L.local_blocks(g) : 0;
}
/// Local block k (0 <= k < local_block_count(L, g)) of global device g: block column
/// first_block(g) + k P.
inline BlockExtent local_block_extent(const BlockCyclic1D& L, int g, int64_t k) {
  const int64_t jb = L.first_block(g) + k * L.num_devices();
  return {0, jb * L.nb(), L.m(), L.block_width(jb), 0, k * L.nb()};
}
/// Number of local blocks of global device g of an m x n row-tiled matrix: 0 or 1.
inline int64_t local_block_count(const RowTiling& t, int64_t n, int g) {
  return t.local_m(g) > 0 && n > 0 ? 1 : 0;
}
/// The local block of global device g (k = 0): all of its rows.
inline BlockExtent local_block_extent(const RowTiling& t, int64_t n, int g, int64_t /*k*/) {
  return {t.row_begin(g), 0, t.local_m(g), n, 0, 0};
}

/// One local block of a distributed matrix: rows x cols entries at `data` (memory of
/// the context's local device `device`), column-major with leading dimension ld;
/// data[i + j ld] is global entry (row + i, col + j).
template <typename T>
struct LocalBlock {
  int device = 0;
  T* data = nullptr;
  int64_t ld = 1;
  int64_t row = 0, col = 0;
  int64_t rows = 0, cols = 0;
};

namespace detail {

template <typename M> struct is_local_storage_matrix : std::false_type {};
template <Scalar T> struct is_local_storage_matrix<DistMatrix<T>> : std::true_type {};
template <Scalar T> struct is_local_storage_matrix<RowTiledMatrix<T>> : std::true_type {};

// The layout functions above for global device g of A, and A's leading dimension there.
template <Scalar T>
int64_t block_count(const DistMatrix<T>& A, int g) { return local_block_count(A.layout(), g); }
template <Scalar T>
BlockExtent block_extent(const DistMatrix<T>& A, int g, int64_t k) {
  return local_block_extent(A.layout(), g, k);
}
template <Scalar T>
int64_t storage_ld(const DistMatrix<T>& A, int /*d*/) { return A.ld(); }
template <Scalar T>
int64_t block_count(const RowTiledMatrix<T>& A, int g) {
  return local_block_count(A.tiling(), A.n(), g);
}
template <Scalar T>
BlockExtent block_extent(const RowTiledMatrix<T>& A, int g, int64_t k) {
  return local_block_extent(A.tiling(), A.n(), g, k);
}
template <Scalar T>
int64_t storage_ld(const RowTiledMatrix<T>& A, int d) { return A.ld(d); }

template <typename M>
using block_of_t = LocalBlock<std::remove_pointer_t<decltype(std::declval<M&>().local(0))>>;

template <typename M>
block_of_t<M> make_block(M& A, int d, const BlockExtent& e) {
  const int64_t ld = storage_ld(A, d);
  return {d, A.local(d) + e.local_row + e.local_col * ld, ld, e.row, e.col, e.rows, e.cols};
}

}  // namespace detail

/// A DistMatrix or RowTiledMatrix, const or not.
template <typename M>
concept LocalStorageMatrix = detail::is_local_storage_matrix<std::remove_const_t<M>>::value;

/// Number of local blocks of A on this rank. Local: no other rank takes part.
template <LocalStorageMatrix M>
int64_t local_block_count(M& A) {
  const Context& ctx = A.context();
  int64_t count = 0;
  for (int d = 0; d < ctx.num_devices(); ++d) count += detail::block_count(A, ctx.device_offset() + d);
  return count;
}

/// Local block `index` of A on this rank, 0 <= index < local_block_count(A); throws
/// BadArgument naming `index` otherwise. Local.
template <LocalStorageMatrix M>
detail::block_of_t<M> local_block(M& A, int64_t index) {
  const Context& ctx = A.context();
  int64_t k = index;
  if (k >= 0) {
    for (int d = 0; d < ctx.num_devices(); ++d) {
      const int g = ctx.device_offset() + d;
      const int64_t here = detail::block_count(A, g);
      if (k < here) return detail::make_block(A, d, detail::block_extent(A, g, k));
      k -= here;
    }
  }
  MGBLAS_THROW(BadArgument, "argument 'index' = ", index, ": must be in [0, ",
               local_block_count(A), ") (the local blocks of this rank)");
}

/// Every local block of A on this rank, by local device, then in local order. Local.
template <LocalStorageMatrix M>
std::vector<detail::block_of_t<M>> local_blocks(M& A) {
  const Context& ctx = A.context();
  std::vector<detail::block_of_t<M>> out;
  for (int d = 0; d < ctx.num_devices(); ++d) {
    const int g = ctx.device_offset() + d;
    for (int64_t k = 0; k < detail::block_count(A, g); ++k)
      out.push_back(detail::make_block(A, d, detail::block_extent(A, g, k)));
  }
  return out;
}

}  // namespace mgblas
