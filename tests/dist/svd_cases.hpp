// SPDX-License-Identifier: BSD-3-Clause
// Checked runs of gesvd_mgpu on a context, shared by the host (test_gesvd_mgpu) and GPU
// (test_gesvd_gpu) tests. Every rank draws the same matrix; the checks run on the
// gathered U and V on every rank:
//
//   residual = || A V - U diag(s) ||_1 / (max(m, n) ||A||_1 eps)
//   orth_u   = || I - U^H U ||_1 / (m eps),  orth_v = || I - V^H V ||_1 / (n eps)
//   values   = max_i |s_i - s_i(LAPACK ?gesdd)| / (max(m, n) ||A||_2 eps)
// all under LAPACK's tester threshold, 30.
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "core/context.hpp"
#include "dist/lapack/gesvd_mgpu.hpp"
#include "tests/dist/dist_test_helpers.hpp"
#include "tests/dist/scaled_matrices.hpp"
#include "tests/dist/unmtr_cases.hpp"
#include "tests/lapack/svd_check.hpp"

namespace mgblas::testing::dist {

inline constexpr double kSvdTolerance = 30.0;

/// The matrices of the SVD tests.
enum class SvdMatrix { Random, Graded, Clustered, RankDeficient };

inline const char* to_string(SvdMatrix k) {
  switch (k) {
    case SvdMatrix::Random: return "random";
    case SvdMatrix::Graded: return "graded";
    case SvdMatrix::Clustered: return "clustered";
    case SvdMatrix::RankDeficient: return "rank-deficient";
  }
  return "?";
}

/// A fresh m x n matrix of the kind: random entries, or U diag(S) V^H with S graded
/// (10^(-15 i / (k - 1)); float: 10^(-6 ...)), clustered (half the values 1, the rest
/// uniform in (0, 1]) or rank-deficient (a third of them exactly zero).
template <Scalar T>
std::vector<T> svd_matrix(SvdMatrix kind, int64_t m, int64_t n, std::mt19937_64& rng) {
  using R = real_type_t<T>;
  if (kind == SvdMatrix::Random) return lapack::random_general<T>(m, n, rng);
  const int64_t k = std::min(m, n);
  std::uniform_real_distribution<double> u(0.0, 1.0);
  std::vector<R> S(static_cast<std::size_t>(k));
  const double decades = sizeof(R) == 8 ? 15.0 : 6.0;
  for (int64_t i = 0; i < k; ++i) {
    switch (kind) {
      case SvdMatrix::Graded:
        S[i] = static_cast<R>(std::pow(10.0, -decades * static_cast<double>(i) /
                                                 static_cast<double>(std::max<int64_t>(k - 1, 1))));
        break;
      case SvdMatrix::Clustered: S[i] = i % 2 == 0 ? R(1) : static_cast<R>(u(rng) + 1e-3); break;
      default: S[i] = i % 3 == 1 ? R(0) : static_cast<R>(u(rng) + 1e-3); break;
    }
  }
  return lapack::matrix_with_singular_values<T>(m, n, S, rng);
}

/// What one gesvd_mgpu case asks for.
struct SvdCase {
  int64_t m = 0, n = 0, nb = 8;
  int64_t nvec = -1;        ///< gesvd_mgpu's nvec (-1 all)
  bool with_u = true, with_v = true;
  bool full = false;        ///< U m x m / V n x n (the complement of the larger side)
  int64_t extra = 0;        ///< spare columns that must stay untouched (not with full)
  int64_t vnb = 5;          ///< U's and V's block size
  SvdMatrix kind = SvdMatrix::Random;
  double qr_ratio = 1.6;    ///< GesvdOptions::qr_ratio (0: QR first whenever m >= n)
  Stages stages = Stages::Auto;  ///< GesvdOptions::stages
  int64_t band = 0;         ///< GesvdOptions::band (two-stage path)
};

/// gesvd_mgpu on a fresh matrix; the errors above, the count, descending s, and spare
/// columns untouched. Returns true when every rank agrees all is well. MGBLAS_TEST_SMALL:
/// cases with m or n > 64 pass without running (scaled_matrices.hpp).
template <Scalar T>
bool svd_case(const std::shared_ptr<Context>& ctx, const SvdCase& c) {
  using R = real_type_t<T>;
  const int64_t m = c.m, n = c.n, k = std::min(m, n);
  if (skipped_in_small_mode(m, n)) return true;
  const int64_t want = c.nvec < 0 ? k : c.nvec;
  std::mt19937_64 rng(test_seed() + static_cast<uint64_t>(m * 131 + n * 17 + c.nb) +
                      static_cast<uint64_t>(c.kind));
  std::vector<T> A = svd_matrix<T>(c.kind, m, n, rng);
  ctx->comm().bcast(A.data(), A.size() * sizeof(T), 0);
  std::vector<R> ref;
  lapack::singular_values<T>(m, n, A, ref);
  const int P = ctx->global_num_devices();
  DistMatrix<T> dA = scatter<T>(ctx, m, n, c.nb, 0, A);
  const int64_t ku = c.full ? m : want + c.extra, kv = c.full ? n : want + c.extra;
  std::vector<T> U0(static_cast<std::size_t>(m * ku), T(-7)), V0(static_cast<std::size_t>(n * kv), T(-7));
  DistMatrix<T> dU = scatter<T>(ctx, m, ku, c.vnb, 1 % P, U0);
  DistMatrix<T> dV = scatter<T>(ctx, n, kv, c.vnb, 2 % P, V0);
  std::vector<R> s(static_cast<std::size_t>(std::max<int64_t>(k, 1)), R(-1));
  GesvdProfile prof;
  GesvdOptions opts;
  opts.profile = &prof;
  opts.qr_ratio = c.qr_ratio;
  opts.stages = c.stages;
  opts.band = c.band;
  gesvd_mgpu<T>(dA, s.data(), c.with_u ? &dU : nullptr, c.with_v ? &dV : nullptr, c.nvec, opts);
  s.resize(static_cast<std::size_t>(k));
  const std::vector<T> Uh = gather(dU), Vh = gather(dV);
  // The columns checked: the vectors, and for a full factor the complement too
  // (orthogonality). A factor is full when asked for, or when its columns happen to number
  // m (U) or n (V) with all k vectors wanted, as gesvd_mgpu's contract says.
  const bool full_u = c.with_u && want == k && ku == m && m > k;
  const bool full_v = c.with_v && want == k && kv == n && n > k;
  const int64_t cu = full_u ? m : want, cv = full_v ? n : want;
  const std::vector<T> Uc = c.with_u ? std::vector<T>(Uh.begin(), Uh.begin() + m * cu) : std::vector<T>{};
  const std::vector<T> Vc = c.with_v ? std::vector<T>(Vh.begin(), Vh.begin() + n * cv) : std::vector<T>{};
  lapack::SvdErrors err =
      lapack::check_svd<T>(m, n, A, Uc, std::min(cu, want), Vc, std::min(cv, want), s, eps<T>());
  if (c.with_u) err.orth_u = lapack::orthogonality<T>(m, cu, Uc, eps<T>());
  if (c.with_v) err.orth_v = lapack::orthogonality<T>(n, cv, Vc, eps<T>());
  std::vector<double> refd(ref.begin(), ref.end());
  const double values = lapack::singular_value_error<R>(m, n, s, refd, eps<T>());
  const auto untouched = [](const std::vector<T>& X, int64_t from) {
    return std::all_of(X.begin() + from, X.end(), [](T v) { return v == T(-7); });
  };
  // Without vectors on a side, or past the vectors, nothing may be written.
  const bool rest = untouched(Uh, c.with_u && want > 0 ? m * cu : 0) &&
                    untouched(Vh, c.with_v && want > 0 ? n * cv : 0);
  bool ok = rest && values <= kSvdTolerance &&
            std::is_sorted(s.begin(), s.end(), [](R a, R b) { return a > b; });
  const bool vectors = (c.with_u || c.with_v) && want > 0;
  if (vectors && c.with_u) ok = ok && err.orth_u <= kSvdTolerance;
  if (vectors && c.with_v) ok = ok && err.orth_v <= kSvdTolerance;
  if (vectors && c.with_u && c.with_v) ok = ok && err.residual <= kSvdTolerance;
  // The QR path ran exactly when it should (its phase is timed only then).
  const bool qr = n > 0 && m >= n && double(m) >= c.qr_ratio * double(n);
  ok = ok && prof.total >= prof.reduction && (prof.qr > 0) == qr;
  // The two-stage path ran when forced (its chase is timed only then).
  if (c.stages != Stages::Auto && k > 0) ok = ok && (prof.chase > 0) == (c.stages == Stages::Two);
  const std::string what = ::mgblas::detail::concat(
      "gesvd ", to_string(c.kind), " m=", m, " n=", n, " nb=", c.nb, " nvec=", c.nvec,
      c.with_u ? " U" : "", c.with_v ? " V" : "", " qr_ratio ", c.qr_ratio, " stages ",
      static_cast<char>(c.stages), " band ", c.band, full_u ? " full U" : "", full_v ? " full V" : "", " extra ", c.extra,
      ": residual ", err.residual, ", orth U ", err.orth_u, ", orth V ", err.orth_v,
      ", values ", values, rest ? "" : ", columns past the vectors touched");
  return everywhere(*ctx, ok, what);
}

}  // namespace mgblas::testing::dist
