// SPDX-License-Identifier: BSD-3-Clause
// Checked runs of gesvd_2d on a context, shared by the host (test_gesvd_2d) and GPU
// (test_gesvd_2d_gpu) tests: every rank cuts its local arrays of one matrix (the same seed
// on every rank) by BlockCyclic2D's own index functions, calls gesvd_2d, and the checks
// run on U and V gathered from their local arrays (heevd_2d_cases.hpp's gather_2d):
//
//   residual = || A V - U diag(s) ||_1 / (max(m, n) ||A||_1 eps)
//   orth_u   = || I - U^H U ||_1 / (m eps),  orth_v = || I - V^H V ||_1 / (n eps)
//   values   = max_i |s_i - s_i(LAPACK ?gesdd)| / (max(m, n) ||A||_2 eps)
// all under 30 (svd_cases.hpp), s descending, a unchanged, U's and V's columns past the
// written ones and their local arrays' padding rows untouched.
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <memory>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "core/context.hpp"
#include "dist/lapack/gesvd_2d.hpp"
#include "layouts/block_cyclic_2d.hpp"
#include "tests/dist/heevd_2d_cases.hpp"
#include "tests/dist/svd_cases.hpp"

namespace mgblas::testing::dist {

struct Svd2DCase {
  int64_t m, n;
  BlockCyclic2D desca;         // m x n
  const BlockCyclic2D* descu;  // U's blocks and grid (its m, n replaced by m, KU); nullptr: no U
  const BlockCyclic2D* descv;  // V's likewise (n x KV); nullptr: no V
  int64_t nvec = -1;
  int64_t extra = 0;  // U's and V's columns past the wanted ones (not with full)
  bool full = false;  // KU = m, KV = n
  SvdMatrix kind = SvdMatrix::Random;
};

namespace detail2d {
// The local array of an n x K factor of D's blocks and grid, filled with -7 (padding -9).
template <typename T>
std::optional<BlockCyclic2D> factor(const BlockCyclic2D* D, int64_t rows, int64_t cols) {
  if (D == nullptr) return std::nullopt;
  return BlockCyclic2D(rows, cols, D->mb(), D->nb(), D->nprow(), D->npcol(), D->rsrc(),
                       D->csrc(), D->order());
}
// Whether the padding rows (past LOCr) of this rank's local array are still `pad`.
template <typename T>
bool padding_kept(const BlockCyclic2D& D, int me, const std::vector<T>& x, int64_t ld, T pad) {
  const int pr = D.prow_of(me);
  if (pr < 0) return true;
  const int64_t locr = D.local_rows(pr);
  for (std::size_t i = 0; i < x.size(); ++i)
    if (static_cast<int64_t>(i) % ld >= locr && !(x[i] == pad)) return false;
  return true;
}
}  // namespace detail2d

template <typename T>
bool run_svd_case(const std::shared_ptr<Context>& ctx, const Svd2DCase& c,
                  const std::string& name) {
  using R = real_type_t<T>;
  const int me = ctx->rank();
  const int64_t m = c.m, n = c.n, k = std::min(m, n);
  if (skipped_in_small_mode(m, n)) return true;
  const int64_t want = c.nvec < 0 ? k : c.nvec;
  std::mt19937_64 rng(test_seed() + static_cast<uint64_t>(m * 131 + n * 17 + c.desca.mb() * 5 +
                                                          c.desca.nprow() * 3 + c.extra) +
                      static_cast<uint64_t>(c.kind));
  std::vector<T> A = svd_matrix<T>(c.kind, m, n, rng);
  ctx->comm().bcast(A.data(), A.size() * sizeof(T), 0);
  std::vector<R> ref;
  lapack::singular_values<T>(m, n, A, ref);

  const BlockCyclic2D& Da = c.desca;
  const int64_t lda = local_ld(Da, me, 2);
  const std::vector<T> a0 = cut_2d(Da, me, A, lda, T(-5));
  std::vector<T> a = a0;
  const int64_t ku = c.full ? m : want + c.extra, kv = c.full ? n : want + c.extra;
  const auto Du = detail2d::factor<T>(c.descu, m, ku);
  const auto Dv = detail2d::factor<T>(c.descv, n, kv);
  const int64_t ldu = Du ? local_ld(*Du, me, 1) : 1, ldv = Dv ? local_ld(*Dv, me, 3) : 1;
  const auto poisoned = [&](const std::optional<BlockCyclic2D>& D, int64_t rows, int64_t cols,
                            int64_t ld) {
    return D ? cut_2d(*D, me, std::vector<T>(static_cast<std::size_t>(rows * cols), T(-7)), ld,
                      T(-9))
             : std::vector<T>{};
  };
  std::vector<T> u = poisoned(Du, m, ku, ldu), v = poisoned(Dv, n, kv, ldv);
  std::vector<R> s(static_cast<std::size_t>(std::max<int64_t>(k, 1)), R(-1));

  Gesvd2DProfile prof;
  Gesvd2DOptions opts;
  opts.profile = &prof;
  const bool in_a = Da.prow_of(me) >= 0;
  gesvd_2d<T>(ctx, Da, in_a ? a.data() : nullptr, lda, s.data(), Du ? &*Du : nullptr,
              u.empty() ? nullptr : u.data(), ldu, Dv ? &*Dv : nullptr,
              v.empty() ? nullptr : v.data(), ldv, c.nvec, opts);
  s.resize(static_cast<std::size_t>(k));

  bool ok = std::is_sorted(s.begin(), s.end(), [](R x, R y) { return x > y; }) &&
            prof.total >= prof.solve;
  std::string why;
  if (a != a0) {
    ok = false;
    why += " a changed;";
  }
  const bool full_u = Du && want == k && ku == m && m > k;
  const bool full_v = Dv && want == k && kv == n && n > k;
  const int64_t cu = full_u ? m : want, cv = full_v ? n : want;
  const std::vector<T> Uh = Du ? gather_2d(ctx, *Du, u, ldu) : std::vector<T>{};
  const std::vector<T> Vh = Dv ? gather_2d(ctx, *Dv, v, ldv) : std::vector<T>{};
  const std::vector<T> Uc = Du ? std::vector<T>(Uh.begin(), Uh.begin() + m * cu) : std::vector<T>{};
  const std::vector<T> Vc = Dv ? std::vector<T>(Vh.begin(), Vh.begin() + n * cv) : std::vector<T>{};
  lapack::SvdErrors err =
      lapack::check_svd<T>(m, n, A, Uc, std::min(cu, want), Vc, std::min(cv, want), s, eps<T>());
  if (Du) err.orth_u = lapack::orthogonality<T>(m, cu, Uc, eps<T>());
  if (Dv) err.orth_v = lapack::orthogonality<T>(n, cv, Vc, eps<T>());
  std::vector<double> refd(ref.begin(), ref.end());
  const double values = lapack::singular_value_error<R>(m, n, s, refd, eps<T>());
  ok = ok && values <= kSvdTolerance;
  const bool vectors = want > 0;
  if (vectors && Du) ok = ok && err.orth_u <= kSvdTolerance;
  if (vectors && Dv) ok = ok && err.orth_v <= kSvdTolerance;
  if (vectors && Du && Dv) ok = ok && err.residual <= kSvdTolerance;
  const auto untouched = [](const std::vector<T>& X, int64_t from) {
    return std::all_of(X.begin() + from, X.end(), [](T x) { return x == T(-7); });
  };
  if (!untouched(Uh, Du && vectors ? m * cu : 0) || !untouched(Vh, Dv && vectors ? n * cv : 0)) {
    ok = false;
    why += " columns past the vectors touched;";
  }
  if ((Du && !detail2d::padding_kept(*Du, me, u, ldu, T(-9))) ||
      (Dv && !detail2d::padding_kept(*Dv, me, v, ldv, T(-9)))) {
    ok = false;
    why += " padding rows touched;";
  }
  return everywhere(*ctx, ok,
                    ::mgblas::detail::concat(name, " ", to_string(c.kind), " m=", m, " n=", n,
                                             " nvec=", c.nvec, full_u ? " full U" : "",
                                             full_v ? " full V" : "", ": residual ",
                                             err.residual, ", orth U ", err.orth_u, ", orth V ",
                                             err.orth_v, ", values ", values, why));
}

}  // namespace mgblas::testing::dist
