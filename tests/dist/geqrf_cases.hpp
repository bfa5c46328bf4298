// SPDX-License-Identifier: BSD-3-Clause
// Checked runs of geqrf_mgpu on a context, shared by the host (test_geqrf_mgpu) and GPU
// (test_geqrf_gpu) tests: a random m x n A factored, then on the gathered result
//   - ||A - Q R||_F / (max(m, n) ||A||_F eps) < 30 and ||I - Q^H Q||_F / (m eps) < 30,
//     Q's first k columns formed by LAPACK's ?ungqr from the reflectors and tau;
//   - R against LAPACK's ?geqrf on A (the same algorithm up to rounding, so the same
//     signs): ||R - R_lapack||_F / (max(m, n) ||A||_F eps) < 1000 (a forward error,
//     hence the cond(A)-sized margin);
//   - tau the same on every rank;
//   - m >= n: unmbr_mgpu(Vect::Q, Op::N) on [I_n; 0] gives Q's first n columns.
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <memory>
#include <string>
#include <type_traits>
#include <vector>

#include "core/context.hpp"
#include "dist/lapack/geqrf_mgpu.hpp"
#include "dist/lapack/unmbr_mgpu.hpp"
#include "kernels/host/detail/cblas.hpp"  // lapacke.h with std::complex
#include "tests/dist/dist_test_helpers.hpp"
#include "tests/dist/unmtr_cases.hpp"
#include "tests/testing/testing.hpp"

namespace mgblas::testing::dist {

/// LAPACK's ?geqrf on the m x n a (ld max(1, m)).
template <Scalar T>
int lapack_geqrf(int64_t m, int64_t n, std::vector<T>& a, std::vector<T>& tau) {
  if (std::min(m, n) == 0) return 0;
  const auto M = static_cast<lapack_int>(m), N = static_cast<lapack_int>(n);
  if constexpr (std::is_same_v<T, float>)
    return LAPACKE_sgeqrf(LAPACK_COL_MAJOR, M, N, a.data(), M, tau.data());
  else if constexpr (std::is_same_v<T, double>)
    return LAPACKE_dgeqrf(LAPACK_COL_MAJOR, M, N, a.data(), M, tau.data());
  else if constexpr (std::is_same_v<T, scomplex>)
    return LAPACKE_cgeqrf(LAPACK_COL_MAJOR, M, N, a.data(), M, tau.data());
  else
    return LAPACKE_zgeqrf(LAPACK_COL_MAJOR, M, N, a.data(), M, tau.data());
}

/// Q's first k columns (m x k, ld m) by LAPACK's ?ungqr / ?orgqr from the k reflectors
/// in the m x n a's first columns.
template <Scalar T>
std::vector<T> lapack_q(int64_t m, int64_t n, int64_t k, const std::vector<T>& a,
                        const std::vector<T>& tau, int& info) {
  std::vector<T> q(a.begin(), a.begin() + m * k);
  (void)n;
  const auto M = static_cast<lapack_int>(m), K = static_cast<lapack_int>(k);
  if constexpr (std::is_same_v<T, float>)
    info = LAPACKE_sorgqr(LAPACK_COL_MAJOR, M, K, K, q.data(), M, tau.data());
  else if constexpr (std::is_same_v<T, double>)
    info = LAPACKE_dorgqr(LAPACK_COL_MAJOR, M, K, K, q.data(), M, tau.data());
  else if constexpr (std::is_same_v<T, scomplex>)
    info = LAPACKE_cungqr(LAPACK_COL_MAJOR, M, K, K, q.data(), M, tau.data());
  else
    info = LAPACKE_zungqr(LAPACK_COL_MAJOR, M, K, K, q.data(), M, tau.data());
  return q;
}

/// The upper trapezoid (k x n, ld k) of the m x n a.
template <Scalar T>
std::vector<T> upper_r(int64_t m, int64_t n, int64_t k, const std::vector<T>& a) {
  std::vector<T> r(static_cast<std::size_t>(k * n), T(0));
  for (int64_t j = 0; j < n; ++j)
    for (int64_t i = 0; i <= std::min(j, k - 1); ++i) r[i + j * k] = a[i + j * m];
  return r;
}

/// geqrf_mgpu on a random m x n A of nb-column blocks (first device `first`) on ctx,
/// checked as the file's header says; prints the errors when MGBLAS_TEST_VERBOSE is set.
template <Scalar T>
bool geqrf_and_check(const std::shared_ptr<Context>& ctx, int64_t m, int64_t n, int64_t nb,
                     int64_t panel = 0, ReducerKind transport = ReducerKind::Auto,
                     int first = 0) {
  const int64_t k = std::min(m, n);
  const double ep = eps<T>(), big = static_cast<double>(std::max<int64_t>(1, std::max(m, n)));
  auto rng = make_rng();
  std::vector<T> A0 = random_vector<T>(static_cast<std::size_t>(m * n), rng);
  if (!A0.empty()) ctx->comm().bcast(A0.data(), A0.size() * sizeof(T), 0);
  first = first % ctx->global_num_devices();
  DistMatrix<T> A = scatter<T>(ctx, m, n, nb, first, A0);
  std::vector<T> tau(static_cast<std::size_t>(k), T(7));
  GeqrfOptions opts;
  opts.panel = panel;
  opts.transport = transport;
  geqrf_mgpu<T>(A, k > 0 ? tau.data() : nullptr, opts);
  const std::vector<T> A1 = gather(A);
  const std::string what = std::to_string(m) + " x " + std::to_string(n) + ", nb " +
                           std::to_string(nb) + ", panel " + std::to_string(panel) + ": ";
  bool ok = true;
  // tau alike on every rank.
  std::vector<T> tau0(tau);
  if (k > 0) ctx->comm().bcast(tau0.data(), tau0.size() * sizeof(T), 0);
  ok &= everywhere(*ctx, tau0 == tau, what + "tau differs from rank 0's");
  if (k == 0) return ok && everywhere(*ctx, A1 == A0, what + "empty A written");

  const double anorm = std::max(norm_fro(m, n, A0.data(), m), 1e-300);
  int info = 0;
  const std::vector<T> Q = lapack_q<T>(m, n, k, A1, tau, info);
  const std::vector<T> R = upper_r<T>(m, n, k, A1);
  const double resid = diff_fro(multiply<T>(m, k, n, Q, R), A0) / (big * anorm * ep);
  std::vector<T> QhQ(static_cast<std::size_t>(k * k), T(0));
  for (int64_t j = 0; j < k; ++j)
    for (int64_t i = 0; i < k; ++i) {
      T s(0);
      for (int64_t l = 0; l < m; ++l) {
        if constexpr (is_complex_v<T>)
          s += std::conj(Q[l + i * m]) * Q[l + j * m];
        else
          s += Q[l + i * m] * Q[l + j * m];
      }
      QhQ[i + j * k] = (i == j ? T(1) : T(0)) - s;
    }
  const double orth = norm_fro(k, k, QhQ.data(), k) / (static_cast<double>(m) * ep);

  std::vector<T> ref(A0), tref(static_cast<std::size_t>(k));
  const int rinfo = lapack_geqrf<T>(m, n, ref, tref);
  const double rdiff = diff_fro(upper_r<T>(m, n, k, ref), R) / (big * anorm * ep);

  double qdiff = 0;
  if (m >= n) {
    std::vector<T> E(static_cast<std::size_t>(m * n), T(0));
    for (int64_t j = 0; j < n; ++j) E[j + j * m] = T(1);
    DistMatrix<T> C = scatter<T>(ctx, m, n, std::max<int64_t>(1, nb / 2 + 1), 0, E);
    unmbr_mgpu<T>(Vect::Q, Op::N, A, tau.data(), C);
    qdiff = diff_fro(gather(C), Q) / (static_cast<double>(m) * ep);
  }
  if (std::getenv("MGBLAS_TEST_VERBOSE") && ctx->rank() == 0)
    std::printf("geqrf %s resid %.2f orth %.2f R %.2f unmbr %.2f\n", what.c_str(), resid, orth,
                rdiff, qdiff);
  ok &= everywhere(*ctx, info == 0 && rinfo == 0, what + "LAPACK info");
  ok &= everywhere(*ctx, resid < 30, what + "||A - QR|| " + std::to_string(resid));
  ok &= everywhere(*ctx, orth < 30, what + "||I - Q^H Q|| " + std::to_string(orth));
  ok &= everywhere(*ctx, rdiff < 1000, what + "R against LAPACK " + std::to_string(rdiff));
  ok &= everywhere(*ctx, qdiff < 30, what + "unmbr's Q " + std::to_string(qdiff));
  return ok;
}

}  // namespace mgblas::testing::dist
