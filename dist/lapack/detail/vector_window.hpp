// SPDX-License-Identifier: BSD-3-Clause
// The vector steps' windows (private to dist/lapack): heevd_mgpu and gesvd_mgpu compute
// the vectors of T or B on every rank's first device, in one column-major buffer, then
// each device of the rank copies its own columns of the caller's DistMatrix out of it.
// When fewer columns are wanted than the caller's matrix has, the work happens in a
// narrower matrix with the same nb and first device, whose columns sit where the
// caller's first ones do, and its prefix is copied over at the end, so the caller's other
// columns are neither touched nor transformed.
#pragma once

#include <algorithm>
#include <cstdint>
#include <optional>

#include "core/agreement.hpp"
#include "core/context.hpp"
#include "core/memory.hpp"
#include "layouts/block_cyclic.hpp"
#include "layouts/dist_matrix.hpp"
#include "layouts/local_columns.hpp"

namespace mgblas::detail {

/// An Z.m() x m matrix with Z's nb and first device, or nothing when m == Z.n().
template <Scalar T>
std::optional<DistMatrix<T>> narrower(const DistMatrix<T>& Z, int64_t m) {
  std::optional<DistMatrix<T>> part;
  if (m == Z.n()) return part;
  const BlockCyclic1D& L = Z.layout();
  part.emplace(Z.context_ptr(), BlockCyclic1D(Z.m(), m, L.nb(), L.num_devices(), L.first()));
  return part;
}

/// The first `rows` rows (all of from's when -1) of to's first from.n() columns := from's
/// (both with the same nb and first device, so that each device copies its own columns).
template <Scalar T>
void copy_prefix(const char* what, const DistMatrix<T>& from, DistMatrix<T>& to,
                 int64_t rows = -1) {
  Context& ctx = from.context();
  const int64_t r = rows < 0 ? from.m() : rows;
  all_or_nothing(ctx.comm(), what, [&] {
    for (int l = 0; l < ctx.num_devices(); ++l) {
      const Device& dev = ctx.device(l);
      dev.make_current();
      copy_matrix(dev, r, std::min(from.local_n(l), to.local_n(l)), from.local(l), from.ld(),
                  to.local(l), to.ld());
    }
  });
}

/// R := the upper triangle of A's first R.m() rows (R square, A's nb and first device),
/// its strictly lower part zero: the R of a QR factorization left in A.
template <Scalar T>
void upper_triangle(const char* what, const DistMatrix<T>& A, DistMatrix<T>& R) {
  copy_prefix(what, A, R, R.m());
  Context& ctx = R.context();
  const int64_t n = R.m();
  all_or_nothing(ctx.comm(), what, [&] {
    for (int l = 0; l < ctx.num_devices(); ++l) {
      const Device& dev = ctx.device(l);
      dev.make_current();
      for_each_column_run(local_columns(R.layout(), ctx.device_offset() + l, 0, R.n()),
                          [&](int64_t jl, int64_t j0, int64_t len) {
                            for (int64_t c = 0; c < len; ++c) {
                              const int64_t j = j0 + c;
                              if (j + 1 >= n) continue;
                              memset_bytes(dev, R.local(l) + (jl + c) * R.ld() + j + 1, 0,
                                           static_cast<std::size_t>(n - j - 1) * sizeof(T),
                                           /*async=*/true);
                            }
                          });
    }
  });
}

/// dest := window (dest.m() x dest.n(), leading dimension ld, memory of the rank's first
/// device): each local device copies its own columns.
template <Scalar T>
void scatter_window(const char* what, const T* window, int64_t ld, DistMatrix<T>& dest) {
  Context& ctx = dest.context();
  all_or_nothing(ctx.comm(), what, [&] {
    for (int l = 0; l < ctx.num_devices(); ++l) {
      const Device& dev = ctx.device(l);
      dev.make_current();
      const int g = ctx.device_offset() + l;
      for_each_column_run(local_columns(dest.layout(), g, 0, dest.n()),
                          [&](int64_t jl, int64_t j0, int64_t len) {
                            copy_matrix(dev, dest.m(), len, window + j0 * ld, ld,
                                        dest.local(l) + jl * dest.ld(), dest.ld());
                          });
    }
  });
}

}  // namespace mgblas::detail
