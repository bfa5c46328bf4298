// SPDX-License-Identifier: BSD-3-Clause
// Checks of a singular value decomposition A V = U diag(s) (tests and testers): the
// residual, both orthogonalities and the singular values against LAPACK's of A, in the
// precision of T on the host BLAS (the callers pass double-precision copies where they
// want the check itself exact to double).
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <vector>

#include "tests/lapack/bidiag_check.hpp"

namespace mgblas::testing::lapack {

struct SvdErrors {
  double residual = std::numeric_limits<double>::quiet_NaN();  // ||A V - U S||_1 / (max(m, n) ||A||_1 eps)
  double orth_u = std::numeric_limits<double>::quiet_NaN();    // ||I - U^H U||_1 / (m eps)
  double orth_v = std::numeric_limits<double>::quiet_NaN();    // ||I - V^H V||_1 / (n eps)
};

/// ||I - X^H X||_1 / (rows eps) of the rows x cols X.
template <Scalar T>
double orthogonality(int64_t rows, int64_t cols, const std::vector<T>& X, double eps) {
  namespace hb = mgblas::kernels::host::detail;
  if (rows == 0 || cols == 0) return 0;
  std::vector<T> G(static_cast<std::size_t>(cols * cols), T(0));
  for (int64_t j = 0; j < cols; ++j) G[j + j * cols] = T(1);
  hb::gemm(CblasConjTrans, CblasNoTrans, static_cast<hb::blas_int>(cols),
           static_cast<hb::blas_int>(cols), static_cast<hb::blas_int>(rows), T(-1), X.data(),
           static_cast<hb::blas_int>(rows), X.data(), static_cast<hb::blas_int>(rows), T(1),
           G.data(), static_cast<hb::blas_int>(cols));
  return norm1(cols, cols, G) / (static_cast<double>(rows) * eps);
}

///  +-------------------------------------------------------------------------+
///  |  residual = ||A V - U diag(s)||_1 / (max(m, n) ||A||_1 eps)             |
///  |  orth_u   = ||I - U^H U||_1 / (m eps),  orth_v = ||I - V^H V||_1 / (n eps) |
///  +-------------------------------------------------------------------------+
/// A: m x n; U: m x cu, V: n x cv (leading dimensions m and n; an empty vector: not
/// checked); s: at least the first min(cu, cv) values paired with them; eps of the
/// precision whose result is checked (not necessarily T's).
template <Scalar T>
SvdErrors check_svd(int64_t m, int64_t n, const std::vector<T>& A, const std::vector<T>& U,
                    int64_t cu, const std::vector<T>& V, int64_t cv,
                    const std::vector<real_type_t<T>>& s, double eps) {
  namespace hb = mgblas::kernels::host::detail;
  SvdErrors out;
  const double big = static_cast<double>(std::max<int64_t>(std::max(m, n), 1));
  if (!U.empty()) out.orth_u = orthogonality(m, cu, U, eps);
  if (!V.empty()) out.orth_v = orthogonality(n, cv, V, eps);
  const int64_t c = std::min(cu, cv);
  if (U.empty() || V.empty() || m == 0 || n == 0 || c == 0) return out;
  std::vector<T> R(U.begin(), U.begin() + m * c);  // U S, then A V - U S
  for (int64_t j = 0; j < c; ++j)
    for (int64_t i = 0; i < m; ++i) R[i + j * m] *= T(s[j]);
  hb::gemm(CblasNoTrans, CblasNoTrans, static_cast<hb::blas_int>(m),
           static_cast<hb::blas_int>(c), static_cast<hb::blas_int>(n), T(1), A.data(),
           static_cast<hb::blas_int>(m), V.data(), static_cast<hb::blas_int>(n), T(-1),
           R.data(), static_cast<hb::blas_int>(m));
  out.residual = norm1(m, c, R) / (big * std::max(norm1(m, n, A), 1e-300) * eps);
  return out;
}

/// max_i |s_i - ref_i| / (max(m, n) ||A||_2 eps), ||A||_2 = ref_0 (both descending).
template <typename R>
double singular_value_error(int64_t m, int64_t n, const std::vector<R>& s,
                            const std::vector<double>& ref, double eps) {
  double worst = 0;
  const std::size_t k = std::min(s.size(), ref.size());
  for (std::size_t i = 0; i < k; ++i) {
    const double d = std::abs(static_cast<double>(s[i]) - ref[i]);
    if (std::isnan(d)) return std::numeric_limits<double>::quiet_NaN();
    worst = std::max(worst, d);
  }
  const double top = ref.empty() ? 1.0 : std::max(ref[0], 1e-300);
  return worst / (static_cast<double>(std::max<int64_t>(std::max(m, n), 1)) * top * eps);
}

}  // namespace mgblas::testing::lapack
