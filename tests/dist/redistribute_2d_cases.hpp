// SPDX-License-Identifier: BSD-3-Clause
// The checks of DistMatrix::import_2d / export_2d shared by the host and GPU tests: a
// random global matrix (the same on every rank: the seed is the test's), each rank's
// ScaLAPACK local array cut from it by the 2-D layout's own index functions, then
//   import: the DistMatrix gathered on every rank equals the global matrix;
//   export: a DistMatrix distributed from the global matrix lands in local arrays that
//           equal the cut ones, and the padding rows of each local array (lld > LOCr)
//           keep their poison.
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <memory>
#include <vector>

#include "core/context.hpp"
#include "layouts/block_cyclic.hpp"
#include "layouts/block_cyclic_2d.hpp"
#include "layouts/dist_matrix.hpp"
#include "tests/testing/testing.hpp"

namespace mgblas::testing::dist {

/// This rank's local array of `D` cut from the global m x n matrix A (lda = m), with
/// leading dimension lld (padding rows hold `pad`); empty outside the grid.
template <typename T>
std::vector<T> cut_2d(const BlockCyclic2D& D, int rank, const std::vector<T>& A, int64_t lld,
                      T pad) {
  const int pr = D.prow_of(rank), pc = D.pcol_of(rank);
  if (pr < 0) return {};
  const int64_t locr = D.local_rows(pr), locc = D.local_cols(pc);
  std::vector<T> a(static_cast<std::size_t>(std::max<int64_t>(1, lld * locc)), pad);
  for (int64_t jl = 0; jl < locc; ++jl)
    for (int64_t il = 0; il < locr; ++il)
      a[il + jl * lld] = A[D.global_row(pr, il) + D.global_col(pc, jl) * D.m()];
  return a;
}

/// Imports and exports one case on `ctx`; true when both directions are exact.
template <typename T>
bool check_2d_case(const std::shared_ptr<Context>& ctx, const BlockCyclic2D& D, int64_t nb1d,
                   int64_t extra_ld) {
  const int me = ctx->rank();
  const int64_t m = D.m(), n = D.n();
  auto rng = make_rng();
  const std::vector<T> A = random_vector<T>(static_cast<std::size_t>(m * n), rng);
  const int pr = D.prow_of(me);
  const int64_t lld = std::max<int64_t>(1, pr >= 0 ? D.local_rows(pr) : 0) + extra_ld;
  const T pad = nan_value<T>();
  const std::vector<T> mine = cut_2d(D, me, A, lld, pad);
  const BlockCyclic1D L(m, n, nb1d, ctx->global_num_devices());
  bool ok = true;

  // 2-D -> DistMatrix.
  DistMatrix<T> B(ctx, L);
  B.import_2d(D, pr >= 0 ? mine.data() : nullptr, lld);
  std::vector<T> back(static_cast<std::size_t>(std::max<int64_t>(1, m * n)));
  B.collect(back.data(), std::max<int64_t>(1, m), -1);
  for (int64_t k = 0; k < m * n; ++k)
    if (!(back[k] == A[k])) {
      ADD_FAILURE() << "import: entry (" << k % m << ", " << k / m << ") differs";
      ok = false;
      break;
    }

  // DistMatrix -> 2-D, into poisoned local arrays.
  DistMatrix<T> C(ctx, L);
  C.distribute_replicated(A.data(), std::max<int64_t>(1, m));
  std::vector<T> out(mine.size(), pad);
  C.export_2d(D, pr >= 0 ? out.data() : nullptr, lld);
  for (std::size_t k = 0; k < mine.size(); ++k) {
    const bool same = is_nan(mine[k]) ? is_nan(out[k]) : out[k] == mine[k];
    if (!same) {
      ADD_FAILURE() << "export: local entry " << k % lld << ", " << k / lld << " on rank " << me
                    << " differs";
      ok = false;
      break;
    }
  }
  return ok;
}

}  // namespace mgblas::testing::dist
