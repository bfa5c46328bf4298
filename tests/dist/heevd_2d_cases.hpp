// SPDX-License-Identifier: BSD-3-Clause
// Checked runs of heevd_2d on a context, shared by the host (test_heevd_2d) and GPU
// (test_heevd_2d_gpu) tests: every rank cuts its local arrays of one random Hermitian
// matrix (the same seed on every rank) by BlockCyclic2D's own index functions, calls
// heevd_2d, and the checks run on Z gathered from its local arrays (import_2d + collect,
// tested on their own).
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <memory>
#include <optional>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "core/context.hpp"
#include "dist/lapack/heevd_2d.hpp"
#include "layouts/block_cyclic_2d.hpp"
#include "tests/dist/heevd_cases.hpp"
#include "tests/dist/redistribute_2d_cases.hpp"

namespace mgblas::testing::dist {

// This rank's local leading dimension of D: its local rows plus `pad` (at least 1).
inline int64_t local_ld(const BlockCyclic2D& D, int rank, int64_t pad) {
  const int pr = D.prow_of(rank);
  return std::max<int64_t>(1, pr >= 0 ? D.local_rows(pr) : 0) + pad;
}

// Z (descz) gathered on every rank from the ranks' local arrays.
template <typename T>
std::vector<T> gather_2d(const std::shared_ptr<Context>& ctx, const BlockCyclic2D& D,
                         const std::vector<T>& z, int64_t ldz) {
  const int P = ctx->global_num_devices();
  DistMatrix<T> M(ctx, BlockCyclic1D(D.m(), D.n(), 5, P));
  M.import_2d(D, D.prow_of(ctx->rank()) >= 0 ? z.data() : nullptr, ldz);
  std::vector<T> out(static_cast<std::size_t>(std::max<int64_t>(1, D.m() * D.n())));
  M.collect(out.data(), std::max<int64_t>(1, D.m()), -1);
  out.resize(static_cast<std::size_t>(D.m() * D.n()));
  return out;
}

struct Case {
  int64_t n;
  BlockCyclic2D desca;         // n x n
  const BlockCyclic2D* descz;  // Z's blocks and grid (its m, n replaced by n, K); nullptr:
                               // values only
  EigenRange range;
  int64_t extra;  // Z's columns past those the range needs
  Uplo uplo;
};

//  +-------------------------------------------------------------------------------+
//  |  residual = ||A Z - Z diag(w)||_1 / (n ||A||_1 eps) <= 30                      |
//  |  orth     = ||I - Z^H Z||_1 / (n eps) <= 30                                    |
//  |  values   = max |w_i - lambda_i(LAPACK)| / (n ||A||_1 eps) <= 30                |
//  |  a unchanged; z's columns m..K-1 and rows past LOCr still the poison           |
//  +-------------------------------------------------------------------------------+
template <typename T>
bool run_case(const std::shared_ptr<Context>& ctx, const Case& c, const std::string& name) {
  using R = real_type_t<T>;
  const int me = ctx->rank();
  const int64_t n = c.n;
  std::mt19937_64 rng(test_seed() + static_cast<uint64_t>(n * 131 + c.desca.mb() * 17 +
                                                          c.desca.nprow() * 5 + c.extra));
  std::vector<T> A = lapack::random_hermitian<T>(n, rng, /*poison=*/false, c.uplo);
  ctx->comm().bcast(A.data(), A.size() * sizeof(T), 0);
  std::vector<R> ref;
  lapack::eigenvalues<T>(n, A, ref);
  int64_t first = 0, m_ref = 0;
  selected(c.range, ref, first, m_ref);

  // A's other triangle NaN in the local arrays: only `uplo` may be read.
  std::vector<T> Ah = A;
  for (int64_t j = 0; j < n; ++j)
    for (int64_t i = 0; i < n; ++i)
      if (c.uplo == Uplo::Lower ? i < j : i > j) Ah[i + j * n] = nan_value<T>();
  const BlockCyclic2D& Da = c.desca;
  const int64_t lda = local_ld(Da, me, 2);
  const std::vector<T> a0 = cut_2d(Da, me, Ah, lda, T(-5));
  std::vector<T> a = a0;

  const int64_t K = (c.range.kind == EigenRange::Kind::Index ? m_ref : n) + c.extra;
  std::optional<BlockCyclic2D> Dz;
  if (c.descz)
    Dz.emplace(n, K, c.descz->mb(), c.descz->nb(), c.descz->nprow(), c.descz->npcol(),
               c.descz->rsrc(), c.descz->csrc(), c.descz->order());
  const int64_t ldz = Dz ? local_ld(*Dz, me, 1) : 1;
  const std::vector<T> z0 =
      Dz ? cut_2d(*Dz, me, std::vector<T>(static_cast<std::size_t>(n * K), T(-7)), ldz, T(-9))
         : std::vector<T>{};
  std::vector<T> z = z0;
  std::vector<R> w(static_cast<std::size_t>(std::max<int64_t>(n, 1)), R(-3));

  Heevd2DProfile prof;
  Heevd2DOptions opts;
  opts.profile = &prof;
  const bool in_a = Da.prow_of(me) >= 0;
  const int64_t m = heevd_2d<T>(ctx, c.uplo, Da, in_a ? a.data() : nullptr, lda, w.data(),
                                Dz ? &*Dz : nullptr, z.empty() ? nullptr : z.data(), ldz,
                                c.range, opts);

  bool ok = m == m_ref && ascending(w.data(), m) && prof.total >= prof.solve;
  std::string why;
  const auto same = [](T x, T y) { return x == y || (is_nan(x) && is_nan(y)); };
  if (!std::equal(a.begin(), a.end(), a0.begin(), a0.end(), same)) {
    ok = false;
    why += " a changed;";
  }
  EigErrors err;
  if (Dz) {
    const std::vector<T> Zh = gather_2d(ctx, *Dz, z, ldz);
    const std::vector<T> Zm(Zh.begin(), Zh.begin() + n * m);
    err = eig_errors<T>(n, A, Zm, w, m, ref, first);
    if (!std::all_of(Zh.begin() + n * m, Zh.end(), [](T v) { return v == T(-7); })) {
      ok = false;
      why += " Z's columns past m touched;";
    }
    const int pr = Dz->prow_of(me);
    if (pr >= 0) {
      const int64_t locr = Dz->local_rows(pr);
      for (std::size_t k = 0; k < z.size(); ++k)
        if (static_cast<int64_t>(k) % ldz >= locr && !(z[k] == T(-9))) {
          ok = false;
          why += " z's padding rows touched;";
          break;
        }
    }
  } else {
    for (int64_t j = 0; j < m; ++j)
      err.values = std::max(err.values, std::abs(double(w[j]) - double(ref[first + j])) /
                                            (double(n) * std::max(lapack::norm1(n, A), 1e-300) *
                                             eps<T>()));
  }
  ok = ok && err.ok();
  return everywhere(*ctx, ok,
                    ::mgblas::detail::concat(name, " n=", n, " m=", m, " (want ", m_ref, "): ",
                                             err.text(), why));
}

// The grids that fit in `ranks` ranks: every nprow x npcol, row-major, and column-major
// where the orders differ.
inline std::vector<std::pair<std::pair<int, int>, GridOrder>> grids(int ranks) {
  std::vector<std::pair<std::pair<int, int>, GridOrder>> out;
  for (int r = 1; r <= ranks; ++r)
    for (int c = 1; r * c <= ranks; ++c) {
      out.push_back({{r, c}, GridOrder::RowMajor});
      if (r > 1 && c > 1) out.push_back({{r, c}, GridOrder::ColumnMajor});
    }
  return out;
}

}  // namespace mgblas::testing::dist
