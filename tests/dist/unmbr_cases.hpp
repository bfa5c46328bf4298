// SPDX-License-Identifier: BSD-3-Clause
// Checked runs of unmbr_mgpu on a context, shared by the host (test_unmbr_mgpu) and GPU
// (test_unmbr_gpu) tests: a random m x n matrix reduced by gebrd_mgpu, then Q, Q^H, P and
// P^H applied to C's of several block-cyclic layouts against LAPACK's ?unmbr / ?ormbr on
// the gathered reflectors, and B rebuilt as Q^H A P.
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "core/context.hpp"
#include "dist/lapack/gebrd_mgpu.hpp"
#include "dist/lapack/unmbr_mgpu.hpp"
#include "tests/dist/dist_test_helpers.hpp"
#include "tests/dist/scaled_matrices.hpp"
#include "tests/dist/unmtr_cases.hpp"
#include "tests/lapack/bidiag_check.hpp"

namespace mgblas::testing::dist {

/// LAPACK's ?unmbr / ?ormbr with side Left: C (l x K) := op(Q or P) C with the reflectors
/// of the m x n A (ld m) that ?gebrd left; op 'N' or 'C' (real: 'T').
template <Scalar T>
int lapack_unmbr(Vect vect, Op op, int64_t m, int64_t n, const std::vector<T>& A,
                 const std::vector<T>& tau, int64_t K, std::vector<T>& C) {
  const int64_t l = vect == Vect::Q ? m : n;
  if (l == 0 || K == 0 || std::min(m, n) == 0) return 0;
  const char v = static_cast<char>(vect), t = op == Op::N ? 'N' : is_complex_v<T> ? 'C' : 'T';
  const auto L = static_cast<lapack_int>(l), KK = static_cast<lapack_int>(K),
             k = static_cast<lapack_int>(vect == Vect::Q ? n : m),
             lda = static_cast<lapack_int>(std::max<int64_t>(1, m));
  std::vector<T> a(A);  // LAPACKE takes A as writable
  if constexpr (std::is_same_v<T, float>)
    return LAPACKE_sormbr(LAPACK_COL_MAJOR, v, 'L', t, L, KK, k, a.data(), lda, tau.data(),
                          C.data(), L);
  else if constexpr (std::is_same_v<T, double>)
    return LAPACKE_dormbr(LAPACK_COL_MAJOR, v, 'L', t, L, KK, k, a.data(), lda, tau.data(),
                          C.data(), L);
  else if constexpr (std::is_same_v<T, scomplex>)
    return LAPACKE_cunmbr(LAPACK_COL_MAJOR, v, 'L', t, L, KK, k, a.data(), lda, tau.data(),
                          C.data(), L);
  else
    return LAPACKE_zunmbr(LAPACK_COL_MAJOR, v, 'L', t, L, KK, k, a.data(), lda, tau.data(),
                          C.data(), L);
}

template <Scalar T>
T conj_if_complex(T x) {
  if constexpr (is_complex_v<T>)
    return std::conj(x);
  else
    return x;
}

/// A matrix reduced by gebrd_mgpu on ctx, with what the checks need on every rank.
template <Scalar T>
struct BidiagReduced {
  using R = real_type_t<T>;
  int64_t m = 0, n = 0;
  std::vector<T> input;        // A before the reduction
  std::vector<T> out;          // A after it: B and the reflectors
  std::vector<R> d, e;         // B
  std::vector<T> tauq, taup;   // host copies
  // gebrd's A with NaN wherever vect Q's (AQ) or vect P's (AP) reflectors do not lie:
  // unmbr must not read it.
  std::unique_ptr<DistMatrix<T>> AQ, AP;
  std::unique_ptr<DistVector<T>> tauq_dist, taup_dist;  // gebrd's device outputs (dist_tau)

  const DistMatrix<T>& A(Vect v) const { return v == Vect::Q ? *AQ : *AP; }
  const std::vector<T>& tau(Vect v) const { return v == Vect::Q ? tauq : taup; }
};

/// Whether A(i, j) of gebrd's m x n output holds an entry of vect's reflectors.
inline bool holds_reflector(Vect vect, int64_t m, int64_t n, int64_t i, int64_t j) {
  const bool upper = m >= n;
  if (vect == Vect::Q) return upper ? i > j : i > j + 1;
  return upper ? j > i + 1 : j > i;
}

/// Reduces a fresh random m x n matrix with gebrd_mgpu on ctx (block columns of nb);
/// dist_tau: tauq and taup as gebrd's replicated DistVectors, else host arrays.
template <Scalar T>
BidiagReduced<T> reduce_bidiagonal(const std::shared_ptr<Context>& ctx, int64_t m, int64_t n,
                                   int64_t nb, bool dist_tau) {
  using R = real_type_t<T>;
  BidiagReduced<T> r;
  r.m = m;
  r.n = n;
  std::mt19937_64 rng(::mgblas::testing::test_seed() +
                      static_cast<uint64_t>(m * 1000003 + n * 7919 + nb * 31));
  r.input = lapack::random_general<T>(m, n, rng);
  ctx->comm().bcast(r.input.data(), r.input.size() * sizeof(T), 0);
  const int64_t k = std::min(m, n), k1 = std::max<int64_t>(0, k - 1), ld = std::max<int64_t>(1, m);
  const BlockCyclic1D layout(m, n, nb, ctx->global_num_devices());
  DistMatrix<T> A(ctx, layout);
  A.distribute(r.input.data(), ld, 0);
  r.d.assign(k, R(0));
  r.e.assign(k1, R(0));
  r.tauq.assign(k, T(0));
  r.taup.assign(k, T(0));
  if (dist_tau) {
    DistVector<R> dd(ctx, k), ed(ctx, k1);
    r.tauq_dist = std::make_unique<DistVector<T>>(ctx, k);
    r.taup_dist = std::make_unique<DistVector<T>>(ctx, k);
    gebrd_mgpu<T>(A, dd, ed, *r.tauq_dist, *r.taup_dist);
    dd.collect(r.d.data(), -1);
    ed.collect(r.e.data(), -1);
    r.tauq_dist->collect(r.tauq.data(), -1);
    r.taup_dist->collect(r.taup.data(), -1);
  } else {
    gebrd_mgpu<T>(A, r.d.data(), r.e.data(), r.tauq.data(), r.taup.data());
  }
  r.out.resize(r.input.size());
  A.collect(r.out.data(), ld, -1);
  const T nan(std::numeric_limits<R>::quiet_NaN());
  for (Vect v : {Vect::Q, Vect::P}) {
    std::vector<T> poisoned(r.out);
    for (int64_t j = 0; j < n; ++j)
      for (int64_t i = 0; i < m; ++i)
        if (!holds_reflector(v, m, n, i, j)) poisoned[i + j * m] = nan;
    auto& dst = v == Vect::Q ? r.AQ : r.AP;
    dst = std::make_unique<DistMatrix<T>>(ctx, layout);
    dst->distribute(poisoned.data(), ld, 0);
  }
  return r;
}

/// unmbr_mgpu with the reduction's tau in the form it was made in.
template <Scalar T>
void apply_bidiag(Vect vect, Op op, const BidiagReduced<T>& r, DistMatrix<T>& C,
                  const UnmtrOptions& opts) {
  const DistVector<T>* dist = vect == Vect::Q ? r.tauq_dist.get() : r.taup_dist.get();
  if (dist)
    unmbr_mgpu<T>(vect, op, r.A(vect), *dist, C, opts);
  else
    unmbr_mgpu<T>(vect, op, r.A(vect), r.tau(vect).data(), C, opts);
}

/// The errors of one vect and C layout; every one should be a small constant.
struct UnmbrErrors {
  double n = 0;          // op N against LAPACK
  double c = 0;          // op C against LAPACK
  double roundtrip = 0;  // op C after op N
  bool nonzero = true;   // operands and references have non-zero norms, LAPACK succeeded
};

///  +-------------------------------------------------------------------------------+
///  |  l = m (vect Q) or n (vect P); C0: l x K uniform [-1, 1]; op' = C (real: T)     |
///  |  n         = || unmbr(N, C0)  - ?unmbr(N, C0)  ||_F / (l ||C0||_F eps)          |
///  |  c         = || unmbr(op', C0) - ?unmbr(op', C0) ||_F / (l ||C0||_F eps)        |
///  |  roundtrip = || unmbr(op', unmbr(N, C0)) - C0 ||_F / (l ||C0||_F eps)           |
///  |  ?unmbr: LAPACK on the gathered reflectors and tau; C laid out over its K      |
///  |  columns with nb = cnb, first device `first`.                                 |
///  +-------------------------------------------------------------------------------+
template <Scalar T>
UnmbrErrors check_unmbr_layout(const std::shared_ptr<Context>& ctx, const BidiagReduced<T>& r,
                               Vect vect, int64_t cnb, int64_t K, int first,
                               const UnmtrOptions& opts) {
  const int64_t l = vect == Vect::Q ? r.m : r.n;
  const double ep = eps<T>(), dl = static_cast<double>(std::max<int64_t>(1, l));
  const Op opc = is_complex_v<T> ? Op::C : Op::T;
  UnmbrErrors err;
  std::mt19937_64 rng(::mgblas::testing::test_seed() +
                      static_cast<uint64_t>(l * 7919 + K * 31 + cnb + (vect == Vect::P ? 5 : 0)));
  std::vector<T> C0 = random_vector<T>(static_cast<std::size_t>(l * K), rng);
  ctx->comm().bcast(C0.data(), C0.size() * sizeof(T), 0);
  const double c0 = norm_fro(l, K, C0.data(), std::max<int64_t>(1, l));
  DistMatrix<T> C = scatter<T>(ctx, l, K, cnb, first, C0);
  apply_bidiag<T>(vect, Op::N, r, C, opts);
  std::vector<T> ref(C0);
  const int info_n = lapack_unmbr<T>(vect, Op::N, r.m, r.n, r.out, r.tau(vect), K, ref);
  err.n = diff_fro(gather(C), ref) / (dl * c0 * ep);
  apply_bidiag<T>(vect, opc, r, C, opts);
  err.roundtrip = diff_fro(gather(C), C0) / (dl * c0 * ep);
  DistMatrix<T> Cc = scatter<T>(ctx, l, K, cnb, first, C0);
  apply_bidiag<T>(vect, opc, r, Cc, opts);
  std::vector<T> refc(C0);
  const int info_c = lapack_unmbr<T>(vect, opc, r.m, r.n, r.out, r.tau(vect), K, refc);
  err.c = diff_fro(gather(Cc), refc) / (dl * c0 * ep);
  err.nonzero = info_n == 0 && info_c == 0 && c0 > 0 &&
                norm_fro(l, K, ref.data(), std::max<int64_t>(1, l)) > 0;
  return err;
}

///  +-------------------------------------------------------------------------------+
///  |  B rebuilt from the two factors: X = unmbr(Q, C, A0) = Q^H A0 (m x n), then   |
///  |  Y = unmbr(P, C, X^H) = P^H X^H = (Q^H A0 P)^H (n x m);                        |
///  |  bidiag = || Y^H - B ||_F / (max(m, n) ||A0||_F eps), B from gebrd's d and e  |
///  |  (upper for m >= n, lower otherwise).                                          |
///  +-------------------------------------------------------------------------------+
template <Scalar T>
double check_rebuilt_bidiagonal(const std::shared_ptr<Context>& ctx, const BidiagReduced<T>& r,
                                int64_t cnb, const UnmtrOptions& opts) {
  const int64_t m = r.m, n = r.n, k = std::min(m, n);
  const Op opc = is_complex_v<T> ? Op::C : Op::T;
  DistMatrix<T> X = scatter<T>(ctx, m, n, cnb, 1 % ctx->global_num_devices(), r.input);
  apply_bidiag<T>(Vect::Q, opc, r, X, opts);
  const std::vector<T> x = gather(X);
  std::vector<T> xh(static_cast<std::size_t>(m * n));
  for (int64_t j = 0; j < n; ++j)
    for (int64_t i = 0; i < m; ++i) xh[j + i * n] = conj_if_complex(x[i + j * m]);
  DistMatrix<T> Y = scatter<T>(ctx, n, m, cnb, 0, xh);
  apply_bidiag<T>(Vect::P, opc, r, Y, opts);
  const std::vector<T> y = gather(Y);
  std::vector<T> diff(static_cast<std::size_t>(m * n));
  for (int64_t j = 0; j < n; ++j)
    for (int64_t i = 0; i < m; ++i) {
      T b(0);
      if (i == j && i < k) b = T(r.d[i]);
      if (m >= n ? j == i + 1 : i == j + 1) b = T(r.e[std::min(i, j)]);
      diff[i + j * m] = conj_if_complex(y[j + i * n]) - b;
    }
  const double na = norm_fro(m, n, r.input.data(), std::max<int64_t>(1, m));
  return norm_fro(m, n, diff.data(), std::max<int64_t>(1, m)) /
         (static_cast<double>(std::max<int64_t>({1, m, n})) * na * eps<T>());
}

/// Reduces one m x n matrix and checks unmbr_mgpu on it, both factors, for each (C's nb,
/// K) of `layouts`, and B rebuilt from both; the verdict is reduced over the ranks.
/// MGBLAS_TEST_SMALL: cases with m or n > 64 pass without running (scaled_matrices.hpp).
template <Scalar T>
bool unmbr_and_check(const std::shared_ptr<Context>& ctx, int64_t m, int64_t n, int64_t nb,
                     const std::vector<std::pair<int64_t, int64_t>>& layouts, bool dist_tau,
                     int64_t panel = 0, ReducerKind transport = ReducerKind::Auto) {
  if (skipped_in_small_mode(m, n)) return true;
  if (std::getenv("MGBLAS_TEST_VERBOSE"))  // which case a crash happened in
    std::fprintf(stderr, "[rank %d] unmbr case m %lld n %lld nb %lld panel %lld\n",
                 ctx->rank(), static_cast<long long>(m), static_cast<long long>(n),
                 static_cast<long long>(nb), static_cast<long long>(panel));
  const BidiagReduced<T> r = reduce_bidiagonal<T>(ctx, m, n, nb, dist_tau);
  UnmtrOptions opts;
  opts.panel = panel;
  opts.transport = transport;
  const double tol = 20;
  bool ok = true;
  std::string why;
  for (Vect vect : {Vect::Q, Vect::P})
    for (std::size_t c = 0; c < layouts.size(); ++c) {
      const auto [cnb, K] = layouts[c];
      const int first = static_cast<int>((c + static_cast<std::size_t>(m + n)) %
                                         static_cast<std::size_t>(ctx->global_num_devices()));
      const UnmbrErrors err = check_unmbr_layout<T>(ctx, r, vect, cnb, K, first, opts);
      const bool good = err.nonzero && err.n <= tol && err.c <= tol && err.roundtrip <= tol;
      if (!good)
        why += std::string(1, static_cast<char>(vect)) + " " +
               ::testing::PrintToString(std::vector<double>{
                   double(cnb), double(K), double(first), err.n, err.c, err.roundtrip,
                   double(err.nonzero)}) +
               " ";
      ok = ok && good;
    }
  const double bidiag = check_rebuilt_bidiagonal<T>(ctx, r, layouts.front().first, opts);
  const bool bidiag_ok = bidiag <= tol;  // NaN fails
  if (!bidiag_ok) why += "bidiag " + std::to_string(bidiag) + " ";
  return everywhere(*ctx, ok && bidiag_ok,
                    why + "(vect: C's nb, K, first, n, c, roundtrip, nonzero) for " +
                        std::to_string(m) + " x " + std::to_string(n) + ", nb " +
                        std::to_string(nb) + ", panel " + std::to_string(panel) + " on " +
                        std::to_string(ctx->num_devices()) + " devices per rank, tau " +
                        (dist_tau ? "DistVector" : "host"));
}

}  // namespace mgblas::testing::dist
