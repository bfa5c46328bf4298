// SPDX-License-Identifier: BSD-3-Clause
// Checked runs of heevd_mgpu and tridiag_eigenvectors_mgpu on a context, shared by the
// host (test_heevd_mgpu) and GPU (test_heevd_gpu) tests. Every rank draws the same
// matrix; the checks run on the gathered Z on every rank.
//
//   residual = || A Z - Z diag(w) ||_1 / (n ||A||_1 eps)
//   orth     = || I - Z^H Z ||_1 / (n eps)
//   values   = max_i |w_i - lambda_i(LAPACK)| / (n ||A||_1 eps), on the selected indices
// all three under LAPACK's tester threshold, 30 (T's vectors come from divide and
// conquer on both engines: the GPU's own, LAPACK ?stedc on host devices).
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <complex>
#include <cstdint>
#include <limits>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "core/context.hpp"
#include "dist/lapack/heevd_mgpu.hpp"
#include "tests/dist/dist_test_helpers.hpp"
#include "tests/dist/unmtr_cases.hpp"
#include "tests/kernels/stebz_test_helpers.hpp"
#include "tests/lapack/tridiag_check.hpp"

namespace mgblas::testing::dist {

inline constexpr double kEigTolerance = 30.0;

struct EigErrors {
  double residual = 0, orth = 0, values = 0;
  double orth_bound = kEigTolerance;
  bool ok() const {
    return residual <= kEigTolerance && orth <= orth_bound && values <= kEigTolerance;
  }
  std::string text() const {
    return ::mgblas::detail::concat("residual ", residual, ", orthogonality ", orth,
                                    " (bound ", orth_bound, "), eigenvalues ", values,
                                    " (bound ", kEigTolerance, ")");
  }
};

/// ||I - Z^H Z||_1 / (n eps) of an n x m column-major Z.
template <Scalar T>
double orthogonality(int64_t n, int64_t m, const std::vector<T>& Z) {
  if (n == 0 || m == 0) return 0;
  std::vector<T> G(static_cast<std::size_t>(m * m), T(0));
  for (int64_t j = 0; j < m; ++j)
    for (int64_t i = 0; i < m; ++i) {
      T s(0);
      for (int64_t k = 0; k < n; ++k) s += conj(Z[k + i * n]) * Z[k + j * n];
      G[i + j * m] = (i == j ? T(1) : T(0)) - s;
    }
  return lapack::norm1(m, m, G) / (static_cast<double>(n) * eps<T>());
}

/// The errors of m eigenpairs (Z: n x m, column-major) of the full Hermitian A against
/// the reference eigenvalues ref[first .. first + m).
template <Scalar T>
EigErrors eig_errors(int64_t n, const std::vector<T>& A, const std::vector<T>& Z,
                     const std::vector<real_type_t<T>>& w, int64_t m,
                     const std::vector<real_type_t<T>>& ref, int64_t first) {
  EigErrors err;
  if (n == 0 || m == 0) return err;
  const double ep = eps<T>(), dn = static_cast<double>(n);
  const double na = std::max(lapack::norm1(n, A), std::numeric_limits<double>::min());
  std::vector<T> R = multiply<T>(n, n, m, A, Z);
  for (int64_t j = 0; j < m; ++j)
    for (int64_t i = 0; i < n; ++i) R[i + j * n] -= Z[i + j * n] * T(w[j]);
  err.residual = lapack::norm1(n, m, R) / (dn * na * ep);
  err.orth = orthogonality<T>(n, m, Z);
  for (int64_t j = 0; j < m; ++j)
    err.values = std::max(err.values, std::abs(double(w[j]) - double(ref[first + j])) /
                                          (dn * na * ep));
  if (std::isnan(err.residual + err.orth + err.values)) err.residual = INFINITY;
  return err;
}

/// The index range [first, first + m) of the reference's eigenvalues a range selects.
template <typename R>
void selected(const EigenRange& r, const std::vector<R>& ref, int64_t& first, int64_t& m) {
  const auto n = static_cast<int64_t>(ref.size());
  if (r.kind == EigenRange::Kind::All) {
    first = 0;
    m = n;
  } else if (r.kind == EigenRange::Kind::Index) {
    first = r.il;
    m = r.iu - r.il + 1;
  } else {
    first = std::upper_bound(ref.begin(), ref.end(), R(r.vl)) - ref.begin();
    m = (std::upper_bound(ref.begin(), ref.end(), R(r.vu)) - ref.begin()) - first;
  }
}

/// A glued Wilkinson matrix: `copies` W_21^+ blocks joined by off-diagonal entries
/// `glue` (their large eigenvalues form clusters of `copies` values across the blocks).
template <typename R>
Tridiagonal<R> glued_wilkinson(int copies, R glue) {
  std::mt19937_64 unused;
  const Tridiagonal<R> w = make_tridiagonal<R>(Spectrum::Wilkinson, 21, unused);
  Tridiagonal<R> t;
  for (int c = 0; c < copies; ++c) {
    t.d.insert(t.d.end(), w.d.begin(), w.d.end());
    if (c > 0) t.e.push_back(glue);
    t.e.insert(t.e.end(), w.e.begin(), w.e.end());
  }
  return t;
}

template <Scalar T>
std::vector<T> dense_tridiagonal(const Tridiagonal<real_type_t<T>>& t) {
  const int64_t n = t.n();
  std::vector<T> A(static_cast<std::size_t>(n * n), T(0));
  for (int64_t i = 0; i < n; ++i) A[i + i * n] = T(t.d[i]);
  for (int64_t i = 0; i + 1 < n; ++i) A[i + 1 + i * n] = A[i + (i + 1) * n] = T(t.e[i]);
  return A;
}

/// tridiag_eigenvectors_mgpu on t with Z (n x K, block nb, first device `first`, K the
/// columns the range needs plus `extra`); checks the errors, the count and that the
/// columns past m are untouched. Returns true when every rank agrees all is well.
template <Scalar T>
bool tridiagonal_case(const std::shared_ptr<Context>& ctx, const Tridiagonal<real_type_t<T>>& t,
                      const EigenRange& range, int64_t nb, int first, int64_t extra,
                      const std::string& name) {
  using R = real_type_t<T>;
  const int64_t n = t.n();
  const std::vector<R> ref = sterf_eigenvalues(t);
  int64_t first_ref = 0, m_ref = 0;
  selected(range, ref, first_ref, m_ref);
  const int64_t K = (range.kind == EigenRange::Kind::Index ? m_ref : n) + extra;
  std::vector<T> Z0(static_cast<std::size_t>(n * K), T(-7));
  DistMatrix<T> Z = scatter<T>(ctx, n, K, nb, first % ctx->global_num_devices(), Z0);
  std::vector<R> w(static_cast<std::size_t>(std::max<int64_t>(n, 1)), R(0));
  const int64_t m = tridiag_eigenvectors_mgpu<T>(n, t.d.data(), t.e.data(), w.data(), Z, range);
  const std::vector<T> Zh = gather(Z);
  const std::vector<T> Zm(Zh.begin(), Zh.begin() + n * m);
  EigErrors err = eig_errors<T>(n, dense_tridiagonal<T>(t), Zm, w, m, ref, first_ref);
  const bool rest = std::all_of(Zh.begin() + n * m, Zh.end(), [](T v) { return v == T(-7); });
  const std::string what = ::mgblas::detail::concat(name, " n=", n, " range ",
                                                    static_cast<char>(range.kind), " m=", m,
                                                    " (want ", m_ref, ") nb=", nb, ": ",
                                                    err.text());
  return everywhere(*ctx, m == m_ref && err.ok() && rest && ascending(w.data(), m), what);
}

/// heevd_mgpu on a fresh random Hermitian matrix (or one with the spectrum D when given),
/// A's other triangle NaN; the same checks against LAPACK's ?syevd / ?heevd. `stages` and
/// `band` go to HeevdOptions (the reduction's form and the two-stage band).
template <Scalar T>
bool dense_case(const std::shared_ptr<Context>& ctx, Uplo uplo, int64_t n, int64_t nb,
                const EigenRange& range, int64_t znb, int64_t extra,
                const std::vector<real_type_t<T>>* spectrum = nullptr,
                Stages stages = Stages::Auto, int64_t band = 0) {
  using R = real_type_t<T>;
  std::mt19937_64 rng(test_seed() + static_cast<uint64_t>(n * 31 + nb * 7 + znb) +
                      (uplo == Uplo::Upper ? 5 : 0));
  std::vector<T> A = spectrum ? lapack::matrix_with_spectrum<T>(*spectrum, rng)
                              : lapack::random_hermitian<T>(n, rng, /*poison=*/false, uplo);
  ctx->comm().bcast(A.data(), A.size() * sizeof(T), 0);
  std::vector<T> poisoned = A;
  for (int64_t j = 0; j < n; ++j)
    for (int64_t i = 0; i < n; ++i)
      if (uplo == Uplo::Lower ? i < j : i > j) poisoned[i + j * n] = nan_value<T>();
  std::vector<R> ref;
  lapack::eigenvalues<T>(n, A, ref);
  int64_t first_ref = 0, m_ref = 0;
  selected(range, ref, first_ref, m_ref);
  DistMatrix<T> dA = scatter<T>(ctx, n, n, nb, 0, poisoned);
  const int64_t K = (range.kind == EigenRange::Kind::Index ? m_ref : n) + extra;
  std::vector<T> Z0(static_cast<std::size_t>(n * K), T(-7));
  DistMatrix<T> Z = scatter<T>(ctx, n, K, znb, 1 % ctx->global_num_devices(), Z0);
  std::vector<R> w(static_cast<std::size_t>(std::max<int64_t>(n, 1)), R(0));
  HeevdProfile prof;
  HeevdOptions opts;
  opts.profile = &prof;
  opts.stages = stages;
  opts.reduction.band = band;
  const int64_t m = heevd_mgpu<T>(uplo, dA, w.data(), &Z, range, opts);
  const std::vector<T> Zh = gather(Z);
  const std::vector<T> Zm(Zh.begin(), Zh.begin() + n * m);
  EigErrors err = eig_errors<T>(n, A, Zm, w, m, ref, first_ref);
  const bool rest = std::all_of(Zh.begin() + n * m, Zh.end(), [](T v) { return v == T(-7); });
  const std::string what = ::mgblas::detail::concat(
      "heevd uplo ", static_cast<char>(uplo), " n=", n, " nb=", nb,
      stages == Stages::Two ? ::mgblas::detail::concat(" two-stage band ", band) : "", " range ",
      static_cast<char>(range.kind), " m=", m, " (want ", m_ref, ") Z nb=", znb, " extra ",
      extra, ": ", err.text(), (rest ? "" : ", columns past m touched"));
  return everywhere(*ctx, m == m_ref && err.ok() && rest && ascending(w.data(), m) &&
                              prof.total >= prof.reduction,
                    what);
}

}  // namespace mgblas::testing::dist
