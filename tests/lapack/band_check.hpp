// SPDX-License-Identifier: BSD-3-Clause
// Checks of a band reduction A = Q1 B Q1^H (stage one of the two-stage tridiagonal
// reduction) against its definition, shared by the host and GPU tests of
// hetrd_band_mgpu: Q1 = I_b (+) Q, Q formed by LAPACKE ?orgqr/?ungqr from the reflectors
// of A_out(b:n, 0:n-b); B from A_out's band; B's eigenvalues against A's.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <vector>

#include "tests/lapack/tridiag_check.hpp"

namespace mgblas::testing::lapack {

struct BandErrors {
  double residual = 0;     // ||A - Q1 B Q1^H||_1 / (n ||A||_1 eps)
  double orthogonal = 0;   // ||I - Q1^H Q1||_1 / (n eps)
  double eigenvalues = 0;  // max |lambda(B) - lambda(A)| / (n ||A||_1 eps)
  bool band_copy = true;   // AB (when given) equals B's lower band
  bool lapack_ok = true;
};

template <Scalar T>
int form_qr_q(int64_t m, std::vector<T>& Q, const std::vector<T>& tau) {
  if (m == 0) return 0;
  const auto lm = static_cast<lapack_int>(m);
  if constexpr (std::is_same_v<T, float>)
    return LAPACKE_sorgqr(LAPACK_COL_MAJOR, lm, lm, lm, Q.data(), lm, tau.data());
  else if constexpr (std::is_same_v<T, double>)
    return LAPACKE_dorgqr(LAPACK_COL_MAJOR, lm, lm, lm, Q.data(), lm, tau.data());
  else if constexpr (std::is_same_v<T, scomplex>)
    return LAPACKE_cungqr(LAPACK_COL_MAJOR, lm, lm, lm, Q.data(), lm, tau.data());
  else
    return LAPACKE_zungqr(LAPACK_COL_MAJOR, lm, lm, lm, Q.data(), lm, tau.data());
}

/// A: the input (lower triangle meaningful); A_out: the reduced matrix (lower triangle
/// read); tau: n - b scalars; AB (ldab), when not empty: the band as the call returned it.
template <Scalar T>
BandErrors check_band(int64_t n, int64_t b, const std::vector<T>& A, const std::vector<T>& A_out,
                      const std::vector<T>& tau, const std::vector<T>& AB, int64_t ldab) {
  using R = real_type_t<T>;
  BandErrors out;
  if (n == 0) return out;
  namespace hb = mgblas::kernels::host::detail;
  const std::vector<T> F = full_from(Uplo::Lower, n, A);
  const double nrm = std::max(norm1(n, F), 1e-300), ep = eps<T>();
  // B: A_out's band, mirrored; the diagonal real.
  std::vector<T> B(static_cast<std::size_t>(n * n), T(0));
  for (int64_t j = 0; j < n; ++j)
    for (int64_t i = j; i <= std::min(n - 1, j + b); ++i) {
      const T v = i == j ? T(std::real(A_out[i + j * n])) : A_out[i + j * n];
      B[i + j * n] = v;
      B[j + i * n] = conj(v);
      if (!AB.empty()) out.band_copy = out.band_copy && AB[(i - j) + j * ldab] == v;
    }
  // Q1 = I_b (+) Q, Q from the reflectors below the band.
  std::vector<T> Q1(static_cast<std::size_t>(n * n), T(0));
  for (int64_t j = 0; j < n; ++j) Q1[j + j * n] = T(1);
  const int64_t m = n - b;
  if (m > 0) {
    std::vector<T> Q(static_cast<std::size_t>(m * m), T(0));
    for (int64_t j = 0; j < m; ++j)
      for (int64_t i = j + 1; i < m; ++i) Q[i + j * m] = A_out[(b + i) + j * n];
    std::vector<T> t(tau.begin(), tau.begin() + m);
    out.lapack_ok = form_qr_q<T>(m, Q, t) == 0;
    for (int64_t j = 0; j < m; ++j)
      for (int64_t i = 0; i < m; ++i) Q1[(b + i) + (b + j) * n] = Q[i + j * m];
  }
  const auto bn = static_cast<hb::blas_int>(n);
  std::vector<T> QB(static_cast<std::size_t>(n * n), T(0)), Rm(F);
  hb::gemm(CblasNoTrans, CblasNoTrans, bn, bn, bn, T(1), Q1.data(), bn, B.data(), bn, T(0),
           QB.data(), bn);
  hb::gemm(CblasNoTrans, CblasConjTrans, bn, bn, bn, T(-1), QB.data(), bn, Q1.data(), bn, T(1),
           Rm.data(), bn);
  out.residual = norm1(n, Rm) / (static_cast<double>(n) * nrm * ep);
  std::vector<T> G(static_cast<std::size_t>(n * n), T(0));
  for (int64_t j = 0; j < n; ++j) G[j + j * n] = T(1);
  hb::gemm(CblasConjTrans, CblasNoTrans, bn, bn, bn, T(-1), Q1.data(), bn, Q1.data(), bn, T(1),
           G.data(), bn);
  out.orthogonal = norm1(n, G) / (static_cast<double>(n) * ep);
  std::vector<R> lb, la;
  out.lapack_ok = out.lapack_ok && eigenvalues<T>(n, B, lb) == 0 && eigenvalues<T>(n, F, la) == 0;
  double worst = 0;
  for (int64_t i = 0; i < n; ++i) worst = std::max(worst, std::abs(double(lb[i]) - double(la[i])));
  out.eigenvalues = worst / (static_cast<double>(n) * nrm * ep);
  return out;
}

}  // namespace mgblas::testing::lapack
