// SPDX-License-Identifier: BSD-3-Clause
// Checks of a bidiagonal reduction Q^H A P = B (tests only): Q and P formed by LAPACK's
// ?ungbr / ?orgbr from the reflectors the reduction left in A, so the storage convention
// is checked too; the residual, both orthogonalities, and B's singular values against
// LAPACK's of A.
#pragma once

#include <algorithm>
#include <cmath>
#include <complex>
#include <cstdint>
#include <limits>
#include <random>
#include <vector>

#include "tests/lapack/tridiag_check.hpp"

namespace mgblas::testing::lapack {

/// A random m x n matrix, entries uniform on [-1, 1] (real and imaginary parts).
template <Scalar T>
std::vector<T> random_general(int64_t m, int64_t n, std::mt19937_64& rng) {
  std::vector<T> A(static_cast<std::size_t>(m * n));
  for (T& v : A) v = random_value<T>(rng);
  return A;
}

/// A = U diag(S) V^H with U, V random with orthonormal columns: the known singular values.
template <Scalar T>
std::vector<T> matrix_with_singular_values(int64_t m, int64_t n,
                                           const std::vector<real_type_t<T>>& S,
                                           std::mt19937_64& rng) {
  const int64_t k = std::min(m, n);
  // Q factors of random matrices (?geqrf + ?ungqr through the Hermitian helper's
  // machinery would do too; Gram-Schmidt twice is enough at test sizes).
  const auto orthonormal = [&](int64_t rows) {
    std::vector<T> Q = random_general<T>(rows, k, rng);
    for (int pass = 0; pass < 2; ++pass)
      for (int64_t j = 0; j < k; ++j) {
        for (int64_t l = 0; l < j; ++l) {
          T dot = T(0);
          for (int64_t i = 0; i < rows; ++i) dot += conj(Q[i + l * rows]) * Q[i + j * rows];
          for (int64_t i = 0; i < rows; ++i) Q[i + j * rows] -= dot * Q[i + l * rows];
        }
        double nrm = 0;
        for (int64_t i = 0; i < rows; ++i) nrm += std::norm(Q[i + j * rows]);
        const T inv = T(real_type_t<T>(1 / std::sqrt(nrm)));
        for (int64_t i = 0; i < rows; ++i) Q[i + j * rows] *= inv;
      }
    return Q;
  };
  std::vector<T> U = orthonormal(m);
  const std::vector<T> V = orthonormal(n);
  for (int64_t l = 0; l < k; ++l)
    for (int64_t i = 0; i < m; ++i) U[i + l * m] *= T(S[l]);
  std::vector<T> A(static_cast<std::size_t>(m * n), T(0));
  namespace hb = mgblas::kernels::host::detail;
  if (k > 0)
    hb::gemm(CblasNoTrans, CblasConjTrans, static_cast<hb::blas_int>(m),
             static_cast<hb::blas_int>(n), static_cast<hb::blas_int>(k), T(1), U.data(),
             static_cast<hb::blas_int>(m), V.data(), static_cast<hb::blas_int>(n), T(0),
             A.data(), static_cast<hb::blas_int>(m));
  return A;
}

template <Scalar T>
int ungbr(char vect, int64_t m, int64_t n, int64_t k, T* a, int64_t lda, const T* tau) {
  const auto M = static_cast<lapack_int>(m), N = static_cast<lapack_int>(n),
             K = static_cast<lapack_int>(k), LD = static_cast<lapack_int>(lda);
  if constexpr (std::is_same_v<T, float>) return LAPACKE_sorgbr(LAPACK_COL_MAJOR, vect, M, N, K, a, LD, tau);
  else if constexpr (std::is_same_v<T, double>) return LAPACKE_dorgbr(LAPACK_COL_MAJOR, vect, M, N, K, a, LD, tau);
  else if constexpr (std::is_same_v<T, scomplex>) return LAPACKE_cungbr(LAPACK_COL_MAJOR, vect, M, N, K, a, LD, tau);
  else return LAPACKE_zungbr(LAPACK_COL_MAJOR, vect, M, N, K, a, LD, tau);
}

/// Singular values of A (m x n, destroyed), descending.
template <Scalar T>
int singular_values(int64_t m, int64_t n, std::vector<T> A, std::vector<real_type_t<T>>& s) {
  s.assign(static_cast<std::size_t>(std::min(m, n)), 0);
  if (m == 0 || n == 0) return 0;
  const auto M = static_cast<lapack_int>(m), N = static_cast<lapack_int>(n);
  T dummy = T(0);
  if constexpr (std::is_same_v<T, float>) return LAPACKE_sgesdd(LAPACK_COL_MAJOR, 'N', M, N, A.data(), M, s.data(), &dummy, 1, &dummy, 1);
  else if constexpr (std::is_same_v<T, double>) return LAPACKE_dgesdd(LAPACK_COL_MAJOR, 'N', M, N, A.data(), M, s.data(), &dummy, 1, &dummy, 1);
  else if constexpr (std::is_same_v<T, scomplex>) return LAPACKE_cgesdd(LAPACK_COL_MAJOR, 'N', M, N, A.data(), M, s.data(), &dummy, 1, &dummy, 1);
  else return LAPACKE_zgesdd(LAPACK_COL_MAJOR, 'N', M, N, A.data(), M, s.data(), &dummy, 1, &dummy, 1);
}

/// Singular values of the k x k bidiagonal (d, e), upper or lower, descending, into d.
template <typename R>
int bdsqr(bool upper, int64_t k, std::vector<R>& d, std::vector<R> e) {
  if (k == 0) return 0;
  e.resize(static_cast<std::size_t>(k));
  const char u = upper ? 'U' : 'L';
  const auto K = static_cast<lapack_int>(k);
  if constexpr (std::is_same_v<R, float>)
    return LAPACKE_sbdsqr(LAPACK_COL_MAJOR, u, K, 0, 0, 0, d.data(), e.data(), nullptr, 1, nullptr, 1, nullptr, 1);
  else
    return LAPACKE_dbdsqr(LAPACK_COL_MAJOR, u, K, 0, 0, 0, d.data(), e.data(), nullptr, 1, nullptr, 1, nullptr, 1);
}

struct BidiagErrors {
  double residual = 0;  // ||A - Q B P^H||_1 / (max(m, n) ||A||_1 eps)
  double orth_q = 0;    // ||I - Q^H Q||_1 / (m eps)
  double orth_p = 0;    // ||I - P^H P||_1 / (n eps)
  double singular = 0;  // max |sigma(B) - sigma(A)| / (max(m, n) ||A||_1 eps)
  bool lapack_ok = true;
};

///  +-------------------------------------------------------------------------+
///  |  Q (m x k) = ungbr('Q', the column reflectors in A_out, tauq)            |
///  |  P^H (k x n) = ungbr('P', the row reflectors in A_out, taup)             |
///  |  residual = ||A - Q B P^H||_1 / (max(m, n) ||A||_1 eps)                  |
///  |  orth_q = ||I - Q^H Q||_1 / (m eps), orth_p = ||I - P^H P||_1 / (n eps)  |
///  |  singular = max_i |bdsqr(d, e)_i - gesdd(A)_i| / (max(m, n) ||A|| eps)   |
///  +-------------------------------------------------------------------------+
template <Scalar T>
BidiagErrors check_bidiagonal(int64_t m, int64_t n, const std::vector<T>& A,
                              const std::vector<T>& A_out, const std::vector<real_type_t<T>>& d,
                              const std::vector<real_type_t<T>>& e, const std::vector<T>& tauq,
                              const std::vector<T>& taup) {
  using R = real_type_t<T>;
  BidiagErrors out;
  const int64_t k = std::min(m, n), big = std::max(m, n);
  if (k == 0) return out;
  const bool upper = m >= n;
  const double nrm = std::max(norm1(m, n, A), 1e-300), ep = eps<T>();
  // One spare column each: LAPACK's ?unglq applies a row of P^H (stride m) through
  // ?gemv N, and OpenBLAS 0.3.21's c/zgemv_n reads one element past its x
  // (tests/kernels/test_host_reference.cpp), here up to a column past the array.
  std::vector<T> Q(A_out), PH(A_out);
  Q.resize(A_out.size() + static_cast<std::size_t>(m));
  PH.resize(A_out.size() + static_cast<std::size_t>(m));
  out.lapack_ok = ungbr<T>('Q', m, k, n, Q.data(), m, tauq.data()) == 0 &&
                  ungbr<T>('P', k, n, m, PH.data(), m, taup.data()) == 0;
  // Q (m x k, ld m) B (k x k), then (Q B) P^H with P^H the leading k x n of PH (ld m).
  std::vector<T> QB(static_cast<std::size_t>(m * k), T(0));
  for (int64_t j = 0; j < k; ++j)
    for (int64_t i = 0; i < m; ++i) {
      T s = Q[i + j * m] * T(d[j]);
      if (upper && j > 0) s += Q[i + (j - 1) * m] * T(e[j - 1]);
      if (!upper && j + 1 < k) s += Q[i + (j + 1) * m] * T(e[j]);
      QB[i + j * m] = s;
    }
  // A - (Q B) P^H, I - Q^H Q and I - P^H P by the host BLAS's gemm.
  namespace hb = mgblas::kernels::host::detail;
  const auto bm = static_cast<hb::blas_int>(m), bn = static_cast<hb::blas_int>(n),
             bk = static_cast<hb::blas_int>(k);
  std::vector<T> Rm(A);
  hb::gemm(CblasNoTrans, CblasNoTrans, bm, bn, bk, T(-1), QB.data(), bm, PH.data(), bm, T(1),
           Rm.data(), bm);
  out.residual = norm1(m, n, Rm) / (double(big) * nrm * ep);
  const auto identity_minus = [&](CBLAS_TRANSPOSE a, CBLAS_TRANSPOSE b, hb::blas_int inner,
                                  const std::vector<T>& F) {
    std::vector<T> G(static_cast<std::size_t>(k * k), T(0));
    for (int64_t j = 0; j < k; ++j) G[j + j * k] = T(1);
    hb::gemm(a, b, bk, bk, inner, T(-1), F.data(), bm, F.data(), bm, T(1), G.data(), bk);
    return norm1(k, k, G);
  };
  out.orth_q = identity_minus(CblasConjTrans, CblasNoTrans, bm, Q) / (double(m) * ep);
  out.orth_p = identity_minus(CblasNoTrans, CblasConjTrans, bn, PH) / (double(n) * ep);
  std::vector<R> sb(d), sa;
  out.lapack_ok = out.lapack_ok && bdsqr<R>(upper, k, sb, e) == 0 &&
                  singular_values<T>(m, n, A, sa) == 0;
  if (sa.size() != static_cast<std::size_t>(k)) {  // a LAPACK call failed (NaN or Inf in B)
    out.singular = std::numeric_limits<double>::infinity();
    return out;
  }
  for (int64_t i = 0; i < k; ++i)
    out.singular = std::max(out.singular, std::abs(double(sb[i]) - double(sa[i])) /
                                              (double(big) * nrm * ep));
  return out;
}

}  // namespace mgblas::testing::lapack
