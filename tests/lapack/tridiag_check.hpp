// SPDX-License-Identifier: BSD-3-Clause
// Checks of a tridiagonal reduction A = Q T Q^H against its definition, shared by the host
// and GPU tests of hetrd_mgpu: Q formed by LAPACKE ?orgtr/?ungtr from the reflectors, T from
// d and e, and T's eigenvalues (LAPACKE ?sterf) against A's (LAPACKE ?syevd/?heevd).
#pragma once

#include <algorithm>
#include <cmath>
#include <complex>
#include <cstdint>
#include <random>
#include <vector>

#include "core/types.hpp"
#include "kernels/host/detail/cblas.hpp"  // CBLAS gemm per precision, and lapacke.h
#include "tests/testing/testing.hpp"

namespace mgblas::testing::lapack {

/// A random n x n Hermitian (real: symmetric) matrix, entries uniform on [-1, 1], the
/// diagonal real; with `poison`, the strict triangle opposite `uplo` is NaN (a routine
/// on the `uplo` triangle must neither read nor write it).
template <Scalar T>
std::vector<T> random_hermitian(int64_t n, std::mt19937_64& rng, bool poison,
                                Uplo uplo = Uplo::Lower) {
  std::vector<T> A(static_cast<std::size_t>(n * n));
  const bool lower = uplo == Uplo::Lower;
  for (int64_t j = 0; j < n; ++j)
    for (int64_t i = j; i < n; ++i) {
      T v = random_value<T>(rng);
      if (i == j) v = std::real(v);
      // (i, j) is in the lower triangle, (j, i) its mirror.
      A[i + j * n] = i != j && poison && !lower ? nan_value<T>() : v;
      A[j + i * n] = i == j ? v : (poison && lower ? nan_value<T>() : conj(v));
    }
  return A;
}

/// Eigenvalue sets of the spectrum tests: clustered (half the values within 1e-10 of 1,
/// the rest uniform on [-1, 1]) and graded (10^(-12 i / (n - 1)) with random signs).
enum class Spectrum { Clustered, Graded };

template <typename R>
std::vector<R> make_spectrum(Spectrum kind, int64_t n, std::mt19937_64& rng) {
  std::vector<R> D(static_cast<std::size_t>(n));
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  for (int64_t i = 0; i < n; ++i) {
    if (kind == Spectrum::Clustered)
      D[i] = static_cast<R>(i < n / 2 ? 1.0 + 1e-10 * u(rng) : u(rng));
    else
      D[i] = static_cast<R>((u(rng) < 0 ? -1.0 : 1.0) *
                            std::pow(10.0, n > 1 ? -12.0 * double(i) / double(n - 1) : 0.0));
  }
  std::sort(D.begin(), D.end());
  return D;
}

/// A = Q diag(D) Q^H with Q a random unitary matrix (QR of a random matrix, LAPACKE
/// ?geqrf + ?orgqr/?ungqr), full storage; the diagonal made exactly real.
template <Scalar T>
std::vector<T> matrix_with_spectrum(const std::vector<real_type_t<T>>& D, std::mt19937_64& rng) {
  const int64_t n = static_cast<int64_t>(D.size());
  std::vector<T> Q = random_vector<T>(static_cast<std::size_t>(n * n), rng), tau(n + 1);
  const lapack_int ln = static_cast<lapack_int>(std::max<int64_t>(1, n));
  if (n > 0) {
    if constexpr (std::is_same_v<T, float>) {
      LAPACKE_sgeqrf(LAPACK_COL_MAJOR, ln, ln, Q.data(), ln, tau.data());
      LAPACKE_sorgqr(LAPACK_COL_MAJOR, ln, ln, ln, Q.data(), ln, tau.data());
    } else if constexpr (std::is_same_v<T, double>) {
      LAPACKE_dgeqrf(LAPACK_COL_MAJOR, ln, ln, Q.data(), ln, tau.data());
      LAPACKE_dorgqr(LAPACK_COL_MAJOR, ln, ln, ln, Q.data(), ln, tau.data());
    } else if constexpr (std::is_same_v<T, scomplex>) {
      LAPACKE_cgeqrf(LAPACK_COL_MAJOR, ln, ln, Q.data(), ln, tau.data());
      LAPACKE_cungqr(LAPACK_COL_MAJOR, ln, ln, ln, Q.data(), ln, tau.data());
    } else {
      LAPACKE_zgeqrf(LAPACK_COL_MAJOR, ln, ln, Q.data(), ln, tau.data());
      LAPACKE_zungqr(LAPACK_COL_MAJOR, ln, ln, ln, Q.data(), ln, tau.data());
    }
  }
  std::vector<T> A(static_cast<std::size_t>(n * n), T(0));
  for (int64_t l = 0; l < n; ++l)
    for (int64_t j = 0; j < n; ++j) {
      const T s = T(D[l]) * conj(Q[j + l * n]);
      for (int64_t i = 0; i < n; ++i) A[i + j * n] += Q[i + l * n] * s;
    }
  for (int64_t i = 0; i < n; ++i) A[i + i * n] = std::real(A[i + i * n]);
  return A;
}

/// Whether (i, j) lies strictly in the triangle opposite `uplo`.
inline bool opposite(Uplo uplo, int64_t i, int64_t j) {
  return uplo == Uplo::Lower ? i < j : i > j;
}

/// The full Hermitian matrix of one stored in its `uplo` triangle.
template <Scalar T>
std::vector<T> full_from(Uplo uplo, int64_t n, const std::vector<T>& A) {
  std::vector<T> F(A);
  for (int64_t j = 0; j < n; ++j)
    for (int64_t i = 0; i < n; ++i)
      if (opposite(uplo, i, j)) F[i + j * n] = conj(A[j + i * n]);
  return F;
}

/// ||A||_1 of the m x n column-major A (leading dimension m).
template <Scalar T>
double norm1(int64_t m, int64_t n, const std::vector<T>& A) {
  double most = 0;
  for (int64_t j = 0; j < n; ++j) {
    double s = 0;
    for (int64_t i = 0; i < m; ++i) s += std::abs(A[i + j * m]);
    most = std::max(most, s);
  }
  return most;
}
template <Scalar T>
double norm1(int64_t n, const std::vector<T>& A) {
  return norm1(n, n, A);
}

template <Scalar T>
int form_q(Uplo uplo, int64_t n, std::vector<T>& Q, const std::vector<T>& tau) {
  if (n == 0) return 0;
  std::vector<T> t(tau);
  t.resize(static_cast<std::size_t>(std::max<int64_t>(1, n - 1)));
  const lapack_int ln = static_cast<lapack_int>(n);
  const char u = static_cast<char>(uplo);
  if constexpr (std::is_same_v<T, float>)
    return LAPACKE_sorgtr(LAPACK_COL_MAJOR, u, ln, Q.data(), ln, t.data());
  else if constexpr (std::is_same_v<T, double>)
    return LAPACKE_dorgtr(LAPACK_COL_MAJOR, u, ln, Q.data(), ln, t.data());
  else if constexpr (std::is_same_v<T, scomplex>)
    return LAPACKE_cungtr(LAPACK_COL_MAJOR, u, ln, Q.data(), ln, t.data());
  else
    return LAPACKE_zungtr(LAPACK_COL_MAJOR, u, ln, Q.data(), ln, t.data());
}

template <typename R>
int sterf(int64_t n, std::vector<R>& d, std::vector<R> e) {
  if (n == 0) return 0;
  e.resize(static_cast<std::size_t>(n));
  if constexpr (std::is_same_v<R, float>) return LAPACKE_ssterf(static_cast<lapack_int>(n), d.data(), e.data());
  else return LAPACKE_dsterf(static_cast<lapack_int>(n), d.data(), e.data());
}

template <Scalar T>
int eigenvalues(int64_t n, std::vector<T> A, std::vector<real_type_t<T>>& w) {
  w.assign(static_cast<std::size_t>(n), 0);
  if (n == 0) return 0;
  const lapack_int ln = static_cast<lapack_int>(n);
  if constexpr (std::is_same_v<T, float>)
    return LAPACKE_ssyevd(LAPACK_COL_MAJOR, 'N', 'L', ln, A.data(), ln, w.data());
  else if constexpr (std::is_same_v<T, double>)
    return LAPACKE_dsyevd(LAPACK_COL_MAJOR, 'N', 'L', ln, A.data(), ln, w.data());
  else if constexpr (std::is_same_v<T, scomplex>)
    return LAPACKE_cheevd(LAPACK_COL_MAJOR, 'N', 'L', ln, A.data(), ln, w.data());
  else
    return LAPACKE_zheevd(LAPACK_COL_MAJOR, 'N', 'L', ln, A.data(), ln, w.data());
}

struct TridiagErrors {
  double residual = 0;     // ||A - Q T Q^H||_1 / (n ||A||_1 eps)
  double orthogonal = 0;   // ||I - Q^H Q||_1 / (n eps)
  double eigenvalues = 0;  // max |lambda(T) - lambda(A)| / (n ||A||_1 eps)
  bool lapack_ok = true;
};

///  +-------------------------------------------------------------------------+
///  |  residual   = || A - Q T Q^H ||_1 / (n ||A||_1 eps)                       |
///  |  orthogonal = || I - Q^H Q ||_1 / (n eps)                                 |
///  |  eigenvalues = max_i |sterf(d, e)_i - syevd(A)_i| / (n ||A||_1 eps)       |
///  |  Q = ungtr(uplo, the reflectors left in A_out, tau)                       |
///  +-------------------------------------------------------------------------+
/// A: the input, its `uplo` triangle meaningful; A_out: the reduced matrix.
template <Scalar T>
TridiagErrors check_tridiagonal(Uplo uplo, int64_t n, const std::vector<T>& A, std::vector<T> A_out,
                                const std::vector<real_type_t<T>>& d,
                                const std::vector<real_type_t<T>>& e, const std::vector<T>& tau) {
  using R = real_type_t<T>;
  TridiagErrors out;
  if (n == 0) return out;
  const std::vector<T> F = full_from(uplo, n, A);
  const double nrm = std::max(norm1(n, F), 1e-300), ep = eps<T>();
  for (int64_t j = 0; j < n; ++j)  // the other triangle may hold the caller's poison
    for (int64_t i = 0; i < n; ++i)
      if (opposite(uplo, i, j)) A_out[i + j * n] = T(0);
  out.lapack_ok = form_q<T>(uplo, n, A_out, tau) == 0;
  const std::vector<T>& Q = A_out;
  // Q T (T tridiagonal: three terms per entry), then A - (Q T) Q^H and I - Q^H Q by the
  // host BLAS's gemm (the checks at n in the thousands take seconds, not minutes).
  namespace hb = mgblas::kernels::host::detail;
  const auto bn = static_cast<hb::blas_int>(n);
  std::vector<T> QT(static_cast<std::size_t>(n * n));
  for (int64_t j = 0; j < n; ++j)
    for (int64_t i = 0; i < n; ++i) {
      T s = Q[i + j * n] * T(d[j]);
      if (j > 0) s += Q[i + (j - 1) * n] * T(e[j - 1]);
      if (j + 1 < n) s += Q[i + (j + 1) * n] * T(e[j]);
      QT[i + j * n] = s;
    }
  std::vector<T> Rm(F);
  hb::gemm(CblasNoTrans, CblasConjTrans, bn, bn, bn, T(-1), QT.data(), bn, Q.data(), bn, T(1),
           Rm.data(), bn);
  out.residual = norm1(n, Rm) / (static_cast<double>(n) * nrm * ep);
  std::vector<T> G(static_cast<std::size_t>(n * n), T(0));
  for (int64_t j = 0; j < n; ++j) G[j + j * n] = T(1);
  hb::gemm(CblasConjTrans, CblasNoTrans, bn, bn, bn, T(-1), Q.data(), bn, Q.data(), bn, T(1),
           G.data(), bn);
  out.orthogonal = norm1(n, G) / (static_cast<double>(n) * ep);
  std::vector<R> lt(d), la;
  out.lapack_ok = out.lapack_ok && sterf<R>(n, lt, e) == 0 && eigenvalues<T>(n, F, la) == 0;
  double worst = 0;
  for (int64_t i = 0; i < n; ++i) worst = std::max(worst, std::abs(double(lt[i]) - double(la[i])));
  out.eigenvalues = worst / (static_cast<double>(n) * nrm * ep);
  return out;
}

}  // namespace mgblas::testing::lapack
