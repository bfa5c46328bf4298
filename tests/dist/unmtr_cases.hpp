// SPDX-License-Identifier: BSD-3-Clause
// Checked runs of unmtr_mgpu on a context, shared by the host (test_unmtr_mgpu) and GPU
// (test_unmtr_gpu) tests: a random Hermitian matrix reduced by hetrd_mgpu (either
// triangle), then Q, Q^H and the eigenvectors of A through Q applied to C's of several
// block-cyclic layouts.
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "core/context.hpp"
#include "dist/lapack/hetrd_mgpu.hpp"
#include "dist/lapack/unmtr_mgpu.hpp"
#include "tests/dist/dist_test_helpers.hpp"
#include "tests/dist/scaled_matrices.hpp"
#include "tests/lapack/tridiag_check.hpp"

namespace mgblas::testing::dist {

/// A matrix reduced on ctx, with what the checks need on every rank.
template <Scalar T>
struct Reduced {
  using R = real_type_t<T>;
  int64_t n = 0;
  Uplo uplo = Uplo::Lower;
  std::vector<T> full;         // the input, both triangles
  std::vector<T> q;            // Q from LAPACKE ?orgtr/?ungtr of the reflectors left in A
  std::vector<R> d, e;         // T
  std::vector<T> tau;          // host copy
  std::unique_ptr<DistMatrix<T>> A;
  std::unique_ptr<DistVector<T>> tau_dist;  // hetrd's device output (dist_tau only)
  bool lapack_ok = true;
};

/// Reduces a fresh random Hermitian matrix (its other triangle NaN: unmtr must not read
/// it) with hetrd_mgpu(uplo); dist_tau: tau as hetrd's replicated DistVector, else host.
template <Scalar T>
Reduced<T> reduce(const std::shared_ptr<Context>& ctx, Uplo uplo, int64_t n, int64_t nb,
                  bool dist_tau) {
  using R = real_type_t<T>;
  Reduced<T> r;
  r.n = n;
  r.uplo = uplo;
  std::mt19937_64 rng(::mgblas::testing::test_seed() +
                      static_cast<uint64_t>(n * 1000003 + nb + (uplo == Uplo::Upper ? 77 : 0)));
  std::vector<T> A = lapack::random_hermitian<T>(n, rng, /*poison=*/true, uplo);
  ctx->comm().bcast(A.data(), A.size() * sizeof(T), 0);
  r.full = lapack::full_from(uplo, n, A);
  r.A = std::make_unique<DistMatrix<T>>(ctx, BlockCyclic1D(n, n, nb, ctx->global_num_devices()));
  r.A->distribute(A.data(), std::max<int64_t>(1, n), 0);
  const int64_t n1 = std::max<int64_t>(0, n - 1);
  r.d.assign(n, R(0));
  r.e.assign(n1, R(0));
  r.tau.assign(n1, T(0));
  if (dist_tau) {
    DistVector<R> dd(ctx, n), ed(ctx, n1);
    r.tau_dist = std::make_unique<DistVector<T>>(ctx, n1);
    hetrd_mgpu<T>(uplo, *r.A, dd, ed, *r.tau_dist);
    dd.collect(r.d.data(), -1);
    ed.collect(r.e.data(), -1);
    r.tau_dist->collect(r.tau.data(), -1);
  } else {
    hetrd_mgpu<T>(uplo, *r.A, r.d.data(), r.e.data(), r.tau.data());
  }
  r.q.resize(A.size());
  r.A->collect(r.q.data(), std::max<int64_t>(1, n), -1);
  for (int64_t j = 0; j < n; ++j)  // the poison, for LAPACK
    for (int64_t i = 0; i < n; ++i)
      if (uplo == Uplo::Lower ? i < j : i > j) r.q[i + j * n] = T(0);
  r.lapack_ok = lapack::form_q<T>(uplo, n, r.q, r.tau) == 0;
  return r;
}

/// unmtr_mgpu with the reduction's tau in the form it was made in.
template <Scalar T>
void apply_q(Op op, const Reduced<T>& r, DistMatrix<T>& C, const UnmtrOptions& opts) {
  if (r.tau_dist)
    unmtr_mgpu<T>(r.uplo, op, *r.A, *r.tau_dist, C, opts);
  else
    unmtr_mgpu<T>(r.uplo, op, *r.A, r.tau.data(), C, opts);
}

/// Y = X with X a host n x k matrix, on ctx in a block-cyclic layout of nb columns.
template <Scalar T>
DistMatrix<T> scatter(const std::shared_ptr<Context>& ctx, int64_t n, int64_t k, int64_t nb,
                      int first, const std::vector<T>& X) {
  DistMatrix<T> Y(ctx, BlockCyclic1D(n, k, nb, ctx->global_num_devices(), first));
  Y.distribute(X.data(), std::max<int64_t>(1, n), 0);
  return Y;
}

template <Scalar T>
std::vector<T> gather(const DistMatrix<T>& Y) {
  std::vector<T> X(static_cast<std::size_t>(Y.m() * Y.n()));
  Y.collect(X.data(), std::max<int64_t>(1, Y.m()), -1);
  return X;
}

// ||X - Y||_F for two n x k arrays.
template <Scalar T>
double diff_fro(const std::vector<T>& X, const std::vector<T>& Y) {
  double s = 0;
  for (std::size_t i = 0; i < X.size(); ++i) s += std::norm(std::complex<double>(X[i] - Y[i]));
  return std::sqrt(s);
}

// C = A B for column-major A (m x l) and B (l x k).
template <Scalar T>
std::vector<T> multiply(int64_t m, int64_t l, int64_t k, const std::vector<T>& A,
                        const std::vector<T>& B) {
  std::vector<T> C(static_cast<std::size_t>(m * k), T(0));
  for (int64_t j = 0; j < k; ++j)
    for (int64_t p = 0; p < l; ++p) {
      const T b = B[p + j * l];
      for (int64_t i = 0; i < m; ++i) C[i + j * m] += A[i + p * m] * b;
    }
  return C;
}

template <typename R>
int stedc(int64_t n, std::vector<R>& d, std::vector<R> e, std::vector<R>& Z) {
  Z.assign(static_cast<std::size_t>(n * n), R(0));
  if (n == 0) return 0;
  e.resize(static_cast<std::size_t>(n));
  const lapack_int ln = static_cast<lapack_int>(n);
  if constexpr (std::is_same_v<R, float>)
    return LAPACKE_sstedc(LAPACK_COL_MAJOR, 'I', ln, d.data(), e.data(), Z.data(), ln);
  else
    return LAPACKE_dstedc(LAPACK_COL_MAJOR, 'I', ln, d.data(), e.data(), Z.data(), ln);
}

/// The errors of one C layout; every one should be a small constant.
struct UnmtrErrors {
  double q = 0;          // (a)
  double product = 0;    // (b) op N
  double roundtrip = 0;  // (b) op C after op N
  double eigen = 0;      // (c)
  bool nonzero = true;   // operands and references have non-zero norms
};

///  +-------------------------------------------------------------------------------+
///  |  (a) q         = || unmtr(N, I) - Q_lapack ||_1 / (n eps)                       |
///  |  (b) product   = || unmtr(N, C0) - Q_lapack C0 ||_F / (n ||C0||_F eps)          |
///  |      roundtrip = || unmtr(C, unmtr(N, C0)) - C0 ||_F / (n ||C0||_F eps)         |
///  |  (c) eigen     = || A X - X Lambda ||_1 / (n ||A||_1 eps),                      |
///  |                  X = unmtr(N, Z), T Z = Z Lambda (LAPACKE ?stedc)               |
///  |  Q_lapack = ?orgtr/?ungtr(uplo) of the reflectors; C0: n x K uniform [-1, 1];   |
///  |  C laid out over its K columns with nb = cnb, first device `first`.            |
///  +-------------------------------------------------------------------------------+
template <Scalar T>
UnmtrErrors check_layout(const std::shared_ptr<Context>& ctx, const Reduced<T>& r, int64_t cnb,
                         int64_t K, int first, const UnmtrOptions& opts) {
  using R = real_type_t<T>;
  namespace tl = lapack;
  const int64_t n = r.n;
  const double ep = eps<T>(), dn = static_cast<double>(std::max<int64_t>(1, n));
  UnmtrErrors err;
  if (n == 0) return err;
  // (a)
  std::vector<T> Id(static_cast<std::size_t>(n * n), T(0));
  for (int64_t i = 0; i < n; ++i) Id[i + i * n] = T(1);
  DistMatrix<T> CI = scatter<T>(ctx, n, n, cnb, first, Id);
  apply_q<T>(Op::N, r, CI, opts);
  std::vector<T> Q = gather(CI), D(Q);
  for (std::size_t i = 0; i < D.size(); ++i) D[i] -= r.q[i];
  err.q = tl::norm1(n, D) / (dn * ep);
  // (b)
  std::mt19937_64 rng(::mgblas::testing::test_seed() + static_cast<uint64_t>(n * 7919 + K * 31 + cnb));
  std::vector<T> C0 = random_vector<T>(static_cast<std::size_t>(n * K), rng);
  ctx->comm().bcast(C0.data(), C0.size() * sizeof(T), 0);
  DistMatrix<T> C = scatter<T>(ctx, n, K, cnb, first, C0);
  apply_q<T>(Op::N, r, C, opts);
  const std::vector<T> C1 = gather(C), ref = multiply<T>(n, n, K, r.q, C0);
  const double c0 = norm_fro(n, K, C0.data(), n);
  err.product = diff_fro(C1, ref) / (dn * c0 * ep);
  apply_q<T>(is_complex_v<T> ? Op::C : Op::T, r, C, opts);  // real: Op::T is Op::C
  err.roundtrip = diff_fro(gather(C), C0) / (dn * c0 * ep);
  // (c)
  std::vector<R> w(r.d), Zr;
  const bool steqr_ok = stedc<R>(n, w, r.e, Zr) == 0;
  std::vector<T> Z(Zr.begin(), Zr.end());
  DistMatrix<T> CZ = scatter<T>(ctx, n, n, cnb, first, Z);
  apply_q<T>(Op::N, r, CZ, opts);
  std::vector<T> X = gather(CZ), AX = multiply<T>(n, n, n, r.full, X);
  for (int64_t j = 0; j < n; ++j)
    for (int64_t i = 0; i < n; ++i) AX[i + j * n] -= X[i + j * n] * T(w[j]);
  const double na = tl::norm1(n, r.full);
  err.eigen = tl::norm1(n, AX) / (dn * na * ep);
  err.nonzero = steqr_ok && r.lapack_ok && c0 > 0 && na > 0 && tl::norm1(n, r.q) > 0;
  return err;
}

/// Reduces one matrix (triangle uplo) and checks unmtr_mgpu on it for each (C's nb, K)
/// of `layouts`; the verdict is reduced over the ranks. MGBLAS_TEST_SMALL: cases with
/// n > 64 pass without running (scaled_matrices.hpp).
template <Scalar T>
bool unmtr_and_check(const std::shared_ptr<Context>& ctx, Uplo uplo, int64_t n, int64_t nb,
                     const std::vector<std::pair<int64_t, int64_t>>& layouts, bool dist_tau,
                     int64_t panel = 0, ReducerKind transport = ReducerKind::Auto) {
  if (skipped_in_small_mode(n, n)) return true;
  if (std::getenv("MGBLAS_TEST_VERBOSE"))  // which case a crash happened in
    std::fprintf(stderr, "[rank %d] unmtr case uplo %s n %lld nb %lld panel %lld\n",
                 ctx->rank(), to_string(uplo), static_cast<long long>(n),
                 static_cast<long long>(nb), static_cast<long long>(panel));
  const Reduced<T> r = reduce<T>(ctx, uplo, n, nb, dist_tau);
  UnmtrOptions opts;
  opts.panel = panel;
  opts.transport = transport;
  const double tol = 20;
  bool ok = true;
  std::string why;
  for (std::size_t c = 0; c < layouts.size(); ++c) {
    const auto [cnb, K] = layouts[c];
    const int first = static_cast<int>((c + static_cast<std::size_t>(n)) %
                                       static_cast<std::size_t>(ctx->global_num_devices()));
    const UnmtrErrors err = check_layout<T>(ctx, r, cnb, K, first, opts);
    const bool good = err.nonzero && err.q <= tol && err.product <= tol &&
                      err.roundtrip <= tol && err.eigen <= tol;
    if (!good)
      why += ::testing::PrintToString(std::vector<double>{
                 double(n), double(nb), double(panel), double(cnb), double(K), double(first),
                 err.q, err.product, err.roundtrip, err.eigen, double(err.nonzero)}) +
             " ";
    ok = ok && good;
  }
  return everywhere(*ctx, ok,
                    why + "(n, nb, panel, C's nb, K, first, q, product, roundtrip, eigen, "
                          "nonzero) for uplo " + to_string(uplo) + " on " +
                        std::to_string(ctx->num_devices()) + " devices per rank, tau " +
                        (dist_tau ? "DistVector" : "host"));
}

}  // namespace mgblas::testing::dist
