// SPDX-License-Identifier: BSD-3-Clause
// The checks of the band-to-tridiagonal chase shared by test_band_to_tridiag (host engine)
// and test_cuda_band_to_tridiag (CUDA engine): kernels/lapack.hpp band_to_tridiag on one
// device, the eigenvalues of T (?sterf) against LAPACK's of the band matrix (?sbev/?hbev),
// and, with the reflectors kept, A = Q2 T Q2^H and Q2^H Q2 = I rebuilt from V2/tau2 under
// LAPACK's tester threshold (30); band_to_tridiag_apply_q (Q2 applied as an operator) on
// the same reflectors: the Q2 it forms passes the same two checks and matches the rebuilt
// one, op C undoes op N, and bad arguments leave C alone.
#pragma once

#include <gtest/gtest.h>

#include <cblas.h>
#include <lapacke.h>

#include <algorithm>
#include <cmath>
#include <complex>
#include <cstdint>
#include <limits>
#include <random>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "core/error.hpp"
#include "core/memory.hpp"
#include "kernels/lapack.hpp"
#include "kernels/sb2st_kernels.hpp"
#include "tests/kernels/host_test_helpers.hpp"
#include "tests/kernels/stebz_test_helpers.hpp"

namespace mgblas::testing {

inline constexpr double kChaseThreshold = 30.0;

/// The spectra of the band test matrices.
enum class BandSpectrum { Random, Graded, Clustered };

inline const char* to_string(BandSpectrum s) {
  switch (s) {
    case BandSpectrum::Random:
      return "random";
    case BandSpectrum::Graded:
      return "graded";
    case BandSpectrum::Clustered:
      return "clustered";
  }
  return "?";
}

/// A Hermitian band matrix in lower band storage (ld = b + 1 + pad).
template <typename T>
struct Band {
  int64_t n = 0, b = 1, ld = 2;
  std::vector<T> ab;
  T& at(int64_t i, int64_t j) { return ab[static_cast<std::size_t>((i - j) + j * ld)]; }
  T at(int64_t i, int64_t j) const { return ab[static_cast<std::size_t>((i - j) + j * ld)]; }
};

/// A band test matrix of order n, half-bandwidth b (entries past n - 1 rows are zero):
/// - Random: entries uniform on [-1, 1] (both parts), real diagonal;
/// - Graded: Random with A(i, j) scaled by g_i g_j, g_i = 10^(-15 i / (2 n))... so the
///   entries fall from 1 to 1e-15 along the diagonal (a congruence keeps it Hermitian);
/// - Clustered: I + 1e-3 sqrt(eps) times Random: every eigenvalue near 1.
/// `pad` extra rows of storage hold `poison`, which the chase may overwrite (workspace).
template <Scalar T>
Band<T> make_band(BandSpectrum kind, int64_t n, int64_t b, std::mt19937_64& rng, int64_t pad = 0) {
  using R = real_type_t<T>;
  Band<T> a;
  a.n = n;
  a.b = b;
  a.ld = b + 1 + pad;
  a.ab.assign(static_cast<std::size_t>(a.ld * std::max<int64_t>(n, 1)), T(0));
  const double eps = std::numeric_limits<R>::epsilon();
  for (int64_t j = 0; j < n; ++j)
    for (int64_t i = j; i <= std::min(n - 1, j + b); ++i) {
      T v = random_value<T>(rng);
      if (i == j) v = T(std::real(v));
      switch (kind) {
        case BandSpectrum::Random:
          break;
        case BandSpectrum::Graded: {
          const double gi = std::pow(10.0, -7.5 * i / std::max<int64_t>(n, 1));
          const double gj = std::pow(10.0, -7.5 * j / std::max<int64_t>(n, 1));
          v *= static_cast<R>(gi * gj);
          break;
        }
        case BandSpectrum::Clustered:
          v *= static_cast<R>(1e-3 * std::sqrt(eps));
          if (i == j) v += T(1);
          break;
      }
      a.at(i, j) = v;
    }
  return a;
}

/// All eigenvalues of the band matrix, ascending, by LAPACKE ?sbev / ?hbev (jobz N).
template <Scalar T>
std::vector<real_type_t<T>> band_eigenvalues(const Band<T>& a) {
  using R = real_type_t<T>;
  const int64_t n = a.n;
  std::vector<R> w(static_cast<std::size_t>(n));
  if (n == 0) return w;
  const int64_t kd = std::min(a.b, n - 1);
  std::vector<T> ab(static_cast<std::size_t>((kd + 1) * n));
  for (int64_t j = 0; j < n; ++j)
    for (int64_t o = 0; o <= kd && j + o < n; ++o) ab[o + j * (kd + 1)] = a.at(j + o, j);
  const auto ln = static_cast<lapack_int>(n), lk = static_cast<lapack_int>(kd);
  lapack_int info;
  T z[1];
  if constexpr (std::is_same_v<T, float>)
    info = LAPACKE_ssbev(LAPACK_COL_MAJOR, 'N', 'L', ln, lk, ab.data(), lk + 1, w.data(), z, 1);
  else if constexpr (std::is_same_v<T, double>)
    info = LAPACKE_dsbev(LAPACK_COL_MAJOR, 'N', 'L', ln, lk, ab.data(), lk + 1, w.data(), z, 1);
  else if constexpr (std::is_same_v<T, std::complex<float>>)
    info = LAPACKE_chbev(LAPACK_COL_MAJOR, 'N', 'L', ln, lk,
                         reinterpret_cast<lapack_complex_float*>(ab.data()), lk + 1, w.data(),
                         reinterpret_cast<lapack_complex_float*>(z), 1);
  else
    info = LAPACKE_zhbev(LAPACK_COL_MAJOR, 'N', 'L', ln, lk,
                         reinterpret_cast<lapack_complex_double*>(ab.data()), lk + 1, w.data(),
                         reinterpret_cast<lapack_complex_double*>(z), 1);
  EXPECT_EQ(info, 0) << "?sbev/?hbev failed";
  return w;
}

/// ||A||_1 of the Hermitian band matrix (max column sum of absolute values).
template <Scalar T>
double band_norm1(const Band<T>& a) {
  std::vector<double> col(static_cast<std::size_t>(a.n), 0.0);
  for (int64_t j = 0; j < a.n; ++j)
    for (int64_t i = j; i <= std::min(a.n - 1, j + a.b); ++i) {
      const double v = std::abs(a.at(i, j));
      col[j] += v;
      if (i != j) col[i] += v;
    }
  double most = 0;
  for (double c : col) most = std::max(most, c);
  return most;
}

/// What one call returned, on the host.
template <Scalar T>
struct ChaseResult {
  std::vector<real_type_t<T>> d, e;
  std::vector<T> V2, tau2;
};

/// band_to_tridiag on dev (device memory there), AB padded by `pad` rows (pad >= b - 1
/// makes the chase run in place), d, e, V2, tau2 poisoned with NaN before the call.
template <Scalar T>
ChaseResult<T> run_chase(const Device& dev, const Band<T>& a, bool keep, int64_t pad = 0) {
  using R = real_type_t<T>;
  const int64_t n = a.n;
  Band<T> in = a;
  if (pad > 0) {  // repack with a larger leading dimension, the padding poisoned
    in.ld = a.ld + pad;
    in.ab.assign(static_cast<std::size_t>(in.ld * std::max<int64_t>(n, 1)), nan_value<T>());
    for (int64_t j = 0; j < n; ++j)
      for (int64_t o = 0; o < a.ld; ++o) in.ab[o + j * in.ld] = a.ab[o + j * a.ld];
  }
  const auto sz = [](int64_t v) { return static_cast<std::size_t>(std::max<int64_t>(v, 1)); };
  DeviceBuffer<T> dab(dev, in.ab.size());
  copy_vector(dev, static_cast<int64_t>(in.ab.size()), in.ab.data(), dab.data());
  ChaseResult<T> r;
  r.d.assign(sz(n), std::numeric_limits<R>::quiet_NaN());
  r.e.assign(sz(n - 1), std::numeric_limits<R>::quiet_NaN());
  DeviceBuffer<R> dd(dev, r.d.size()), de(dev, r.e.size());
  copy_vector(dev, static_cast<int64_t>(r.d.size()), r.d.data(), dd.data());
  copy_vector(dev, static_cast<int64_t>(r.e.size()), r.e.data(), de.data());
  const int64_t nv = band2tri_v2_size(n), nt = band2tri_tau2_size(n, a.b);
  r.V2.assign(sz(nv), nan_value<T>());
  r.tau2.assign(sz(nt), nan_value<T>());
  DeviceBuffer<T> dv(dev, r.V2.size()), dt(dev, r.tau2.size());
  copy_vector(dev, static_cast<int64_t>(r.V2.size()), r.V2.data(), dv.data());
  copy_vector(dev, static_cast<int64_t>(r.tau2.size()), r.tau2.data(), dt.data());
  band_to_tridiag<T>(dev, n, a.b, dab.data(), in.ld, dd.data(), de.data(),
                     keep ? dv.data() : nullptr, keep ? dt.data() : nullptr);
  copy_vector(dev, static_cast<int64_t>(r.d.size()), dd.data(), r.d.data());
  copy_vector(dev, static_cast<int64_t>(r.e.size()), de.data(), r.e.data());
  if (keep) {
    copy_vector(dev, static_cast<int64_t>(r.V2.size()), dv.data(), r.V2.data());
    copy_vector(dev, static_cast<int64_t>(r.tau2.size()), dt.data(), r.tau2.data());
  }
  r.d.resize(static_cast<std::size_t>(n));
  r.e.resize(static_cast<std::size_t>(std::max<int64_t>(n - 1, 0)));
  return r;
}

using zdouble = std::complex<double>;

/// The reflectors rebuilt into dense Q2 (n x n, column-major, complex double for every
/// T): Q2 = prod_{s, k} H(s, k), applied from the last to the first onto I.
template <Scalar T>
std::vector<zdouble> form_q2(int64_t n, int64_t b, const ChaseResult<T>& r) {
  std::vector<zdouble> Q(static_cast<std::size_t>(n * n), zdouble(0));
  for (int64_t i = 0; i < n; ++i) Q[i + i * n] = zdouble(1);
  const int64_t be = std::max<int64_t>(1, std::min(b, n - 1));
  const int64_t stride = band2tri_tau2_stride(n, b);
  std::vector<zdouble> v(static_cast<std::size_t>(be));
  for (int64_t s = n - 2; s >= 0; --s)
    for (int64_t k = band2tri_tasks(n, b, s) - 1; k >= 0; --k) {
      const zdouble tau = zdouble(r.tau2[s * stride + k]);
      if (tau == zdouble(0)) continue;
      const int64_t row = s + 1 + k * be, m = std::min(be, n - row);
      const T* vs = r.V2.data() + band2tri_v2_offset(n, b, s, k);
      for (int64_t i = 0; i < m; ++i) v[i] = zdouble(vs[i]);
      // Q := H Q = Q - tau v (v^H Q); Q's columns j < row are still those of I there
      // only for the last sweeps, so all columns are updated.
      for (int64_t j = 0; j < n; ++j) {
        zdouble t = 0;
        for (int64_t i = 0; i < m; ++i) t += std::conj(v[i]) * Q[row + i + j * n];
        t *= tau;
        for (int64_t i = 0; i < m; ++i) Q[row + i + j * n] -= v[i] * t;
      }
    }
  return Q;
}

/// ||M||_1 of an n x n complex matrix.
inline double dense_norm1(int64_t n, const std::vector<zdouble>& M) {
  double most = 0;
  for (int64_t j = 0; j < n; ++j) {
    double c = 0;
    for (int64_t i = 0; i < n; ++i) c += std::abs(M[i + j * n]);
    most = std::max(most, c);
  }
  return most;
}

/// The two backward errors of a reduction A = Q2 T Q2^H with T from r (d, e) and Q2 dense
/// (n x n, complex double): ||A - Q2 T Q2^H||_1 / (n ||A||_1 eps) and
/// ||I - Q2^H Q2||_1 / (n eps).
template <Scalar T>
std::pair<double, double> reconstruction_errors(const Band<T>& a, const ChaseResult<T>& r,
                                                const std::vector<zdouble>& Q) {
  using R = real_type_t<T>;
  const int64_t n = a.n, b = a.b;
  const double eps = std::numeric_limits<R>::epsilon(), normA = band_norm1(a);
  std::vector<zdouble> Tm(static_cast<std::size_t>(n * n), zdouble(0)), QT(Tm.size()),
      Rm(Tm.size());
  for (int64_t i = 0; i < n; ++i) {
    Tm[i + i * n] = double(r.d[i]);
    if (i + 1 < n) Tm[i + 1 + i * n] = Tm[i + (i + 1) * n] = double(r.e[i]);
  }
  for (int64_t j = 0; j < n; ++j)
    for (int64_t i = 0; i < n; ++i) {
      const int64_t lo = std::min(i, j), hi = std::max(i, j);
      if (hi - lo > b) continue;
      const zdouble v = zdouble(a.at(hi, lo));
      Rm[i + j * n] = i >= j ? v : std::conj(v);
    }
  const zdouble one(1), zero(0), minus(-1);
  const int ni = static_cast<int>(n);
  cblas_zgemm(CblasColMajor, CblasNoTrans, CblasNoTrans, ni, ni, ni, &one, Q.data(), ni, Tm.data(),
              ni, &zero, QT.data(), ni);
  cblas_zgemm(CblasColMajor, CblasNoTrans, CblasConjTrans, ni, ni, ni, &minus, QT.data(), ni,
              Q.data(), ni, &one, Rm.data(), ni);
  const double res = dense_norm1(n, Rm) / (n * normA * eps);
  std::vector<zdouble> G(Tm.size());
  for (int64_t i = 0; i < n; ++i) G[i + i * n] = one;
  cblas_zgemm(CblasColMajor, CblasConjTrans, CblasNoTrans, ni, ni, ni, &minus, Q.data(), ni,
              Q.data(), ni, &one, G.data(), ni);
  return {res, dense_norm1(n, G) / (n * eps)};
}

/// Runs the chase on dev and checks it (see the top of the file); returns what it got.
template <Scalar T>
ChaseResult<T> check_chase(const Device& dev, const Band<T>& a, const char* kind, bool keep,
                           int64_t pad = 0) {
  using R = real_type_t<T>;
  const int64_t n = a.n, b = a.b;
  SCOPED_TRACE(detail::concat(kind, " n=", n, " b=", b, keep ? " with V2" : " no V2", " pad=", pad,
                              ", ", seed_text()));
  ChaseResult<T> r = run_chase<T>(dev, a, keep, pad);
  if (n == 0) return r;
  const double eps = std::numeric_limits<R>::epsilon();
  const double normA = band_norm1(a);
  EXPECT_GT(normA, 0.0) << "zero matrix: the checks would pass vacuously";
  int64_t unwritten = 0;
  for (R v : r.d) unwritten += std::isnan(v);
  for (R v : r.e) unwritten += std::isnan(v);
  EXPECT_EQ(unwritten, 0) << "entries of d, e left NaN";
  if (unwritten > 0) return r;

  //  +--------------------------------------------------------------------------+
  //  |  err = max_i |lambda_i(T) - lambda_i(A)| / (n eps ||A||_1)                |
  //  |  lambda(T) by ?sterf on (d, e), lambda(A) by ?sbev/?hbev on the band;     |
  //  |  passes when err <= 10 (eigenvalue_error, both backward stable).          |
  //  +--------------------------------------------------------------------------+
  Tridiagonal<R> t{r.d, r.e};
  const std::vector<R> wt = sterf_eigenvalues(t), wa = band_eigenvalues(a);
  EXPECT_LE(eigenvalue_error(n, wa, 0, n, wt.data(), normA), kEigenvalueTolerance)
      << "eigenvalues of T vs LAPACK's of the band";
  if (!keep) return r;

  // Every task's reflector was stored: v(0) = 1, no NaN left where a task wrote.
  const int64_t stride = band2tri_tau2_stride(n, b), be = std::max<int64_t>(1, std::min(b, n - 1));
  int64_t bad = 0;
  for (int64_t s = 0; s + 1 < n; ++s)
    for (int64_t k = 0; k < stride; ++k) {
      const T tau = r.tau2[s * stride + k];
      if (k >= band2tri_tasks(n, b, s)) {
        bad += tau != T(0);
        continue;
      }
      const T* v = r.V2.data() + band2tri_v2_offset(n, b, s, k);
      const int64_t m = std::min(be, n - 1 - s - k * be);
      bad += is_nan(tau) || v[0] != T(1);
      for (int64_t i = 1; i < m; ++i) bad += is_nan(v[i]);
    }
  EXPECT_EQ(bad, 0) << "tau2/V2 entries missing or not of the documented form";

  //  +--------------------------------------------------------------------------+
  //  |  res  = ||A - Q2 T Q2^H||_1 / (n ||A||_1 eps)                              |
  //  |  orth = ||I - Q2^H Q2||_1 / (n eps)                                        |
  //  |  Q2 rebuilt from V2, tau2 in double; both pass when <= 30 (LAPACK's        |
  //  |  tester threshold, as SLATE's he2hb test).                                 |
  //  +--------------------------------------------------------------------------+
  const auto [res, orth] = reconstruction_errors(a, r, form_q2<T>(n, b, r));
  EXPECT_LE(res, kChaseThreshold) << "residual ||A - Q2 T Q2^H||";
  EXPECT_LE(orth, kChaseThreshold) << "orthogonality of Q2";
  return r;
}

/// The cases both engines run: n from 0 to a few hundred, b in {1, 2, 3, 8, 20, 32, 64,
/// 80} (every tile shape of the CUDA engine, and leading dimensions padded or not) with
/// b >= n among them, every spectrum, with and without V2, in place (ldab >= 2b)
/// and not.
template <Scalar T>
void check_every_band(const Device& dev) {
  auto rng = make_rng();
  for (int64_t b : {1, 2, 3, 8, 20, 32, 64, 80})
    for (int64_t n : {int64_t{0}, int64_t{1}, int64_t{2}, b + 1, int64_t{37}, int64_t{150}}) {
      for (BandSpectrum kind :
           {BandSpectrum::Random, BandSpectrum::Graded, BandSpectrum::Clustered})
        check_chase<T>(dev, make_band<T>(kind, n, b, rng), to_string(kind), true);
      check_chase<T>(dev, make_band<T>(BandSpectrum::Random, n, b, rng), "random", false);
      check_chase<T>(dev, make_band<T>(BandSpectrum::Random, n, b, rng), "in place", true, b);
    }
  check_chase<T>(dev, make_band<T>(BandSpectrum::Random, 333, 8, rng), "random", true);
  check_chase<T>(dev, make_band<T>(BandSpectrum::Random, 301, 32, rng), "random", true);
}

/// Bad arguments: BadArgument naming each, before anything is written.
template <Scalar T>
void check_bad_arguments(const Device& dev) {
  using R = real_type_t<T>;
  DeviceBuffer<T> ab(dev, 64), v(dev, 64), tau(dev, 64);
  DeviceBuffer<R> d(dev, 8), e(dev, 8);
  const auto call = [&](int64_t n, int64_t b, T* A, int64_t ldab, R* dd, R* ee, T* V2, T* t2) {
    band_to_tridiag<T>(dev, n, b, A, ldab, dd, ee, V2, t2);
  };
  const auto names = [&](const char* arg, auto&& f) {
    try {
      f();
      ADD_FAILURE() << "no exception for a bad '" << arg << "'";
    } catch (const BadArgument& ex) {
      EXPECT_NE(std::string(ex.what()).find(std::string("'") + arg + "'"), std::string::npos)
          << ex.what();
    }
  };
  names("n", [&] { call(-1, 2, ab.data(), 3, d.data(), e.data(), nullptr, nullptr); });
  names("b", [&] { call(4, 0, ab.data(), 3, d.data(), e.data(), nullptr, nullptr); });
  names("ldab", [&] { call(4, 2, ab.data(), 2, d.data(), e.data(), nullptr, nullptr); });
  names("AB", [&] { call(4, 2, nullptr, 3, d.data(), e.data(), nullptr, nullptr); });
  names("d", [&] { call(4, 2, ab.data(), 3, nullptr, e.data(), nullptr, nullptr); });
  names("e", [&] { call(4, 2, ab.data(), 3, d.data(), nullptr, nullptr, nullptr); });
  names("tau2", [&] { call(4, 2, ab.data(), 3, d.data(), e.data(), v.data(), nullptr); });
  // n = 0 reads nothing; n = 1 has no e.
  EXPECT_NO_THROW(call(0, 2, nullptr, 3, nullptr, nullptr, nullptr, nullptr));
  EXPECT_NO_THROW(call(1, 2, ab.data(), 3, d.data(), nullptr, nullptr, nullptr));
}

// ---- band_to_tridiag_apply_q --------------------------------------------------------

/// C := op(Q2) C by band_to_tridiag_apply_q on dev, Q2 given by r's reflectors (copied to
/// dev with C); C is n x m with leading dimension ldc, in and out on the host.
template <Scalar T>
void run_apply_q(const Device& dev, Op op, int64_t n, int64_t b, const ChaseResult<T>& r,
                 int64_t m, std::vector<T>& C, int64_t ldc) {
  DeviceBuffer<T> dv(dev, r.V2.size()), dt(dev, r.tau2.size()),
      dc(dev, std::max<std::size_t>(C.size(), 1));
  copy_vector(dev, static_cast<int64_t>(r.V2.size()), r.V2.data(), dv.data());
  copy_vector(dev, static_cast<int64_t>(r.tau2.size()), r.tau2.data(), dt.data());
  copy_vector(dev, static_cast<int64_t>(C.size()), C.data(), dc.data());
  band_to_tridiag_apply_q<T>(dev, op, n, b, dv.data(), dt.data(), m, dc.data(), ldc);
  copy_vector(dev, static_cast<int64_t>(C.size()), dc.data(), C.data());
}

/// An n x m matrix of leading dimension ld: `fill(i, j)` in rows < n, NaN in the padding.
template <Scalar T, typename Fill>
std::vector<T> padded_matrix(int64_t n, int64_t m, int64_t ld, Fill fill) {
  std::vector<T> C(static_cast<std::size_t>(ld * std::max<int64_t>(m, 1)), nan_value<T>());
  for (int64_t j = 0; j < m; ++j)
    for (int64_t i = 0; i < n; ++i) C[i + j * ld] = fill(i, j);
  return C;
}

/// max_j sum_i |M(i, j) - N(i, j)| over an n x m block (leading dimensions ldm, ldn).
template <typename A, typename B>
double diff_norm1(int64_t n, int64_t m, const A* M, int64_t ldm, const B* N, int64_t ldn) {
  double most = 0;
  for (int64_t j = 0; j < m; ++j) {
    double c = 0;
    for (int64_t i = 0; i < n; ++i)
      c += std::abs(zdouble(M[i + j * ldm]) - zdouble(N[i + j * ldn]));
    most = std::max(most, c);
  }
  return most;
}

/// Q2 formed by band_to_tridiag_apply_q on dev (Q2 I and Q2^H I) after the chase on dev:
/// checked as check_chase checks the rebuilt Q2, against the rebuilt Q2, and op C after
/// op N on a random C giving C back.
template <Scalar T>
void check_apply_q(const Device& dev, const Band<T>& a, int64_t m, std::mt19937_64& rng) {
  using R = real_type_t<T>;
  const int64_t n = a.n, b = a.b;
  SCOPED_TRACE(detail::concat("apply_q n=", n, " b=", b, " m=", m, ", ", seed_text()));
  const ChaseResult<T> r = run_chase<T>(dev, a, true);
  const double eps = std::numeric_limits<R>::epsilon();
  // Q2 I and Q2^H I with three rows of NaN padding: read, they would spread; written, the
  // padding check catches it.
  const int64_t ldq = n + 3;
  const std::vector<T> I0 = padded_matrix<T>(n, n, ldq, [](int64_t i, int64_t j) {
    return i == j ? T(1) : T(0);
  });
  std::vector<T> Qn = I0, Qc = I0;
  run_apply_q(dev, Op::N, n, b, r, n, Qn, ldq);
  run_apply_q(dev, Op::C, n, b, r, n, Qc, ldq);
  const auto in_q = [&](int64_t p) { return p % ldq < n; };
  expect_untouched_outside(I0, Qn, in_q, "Q2 I (padding)");
  expect_untouched_outside(I0, Qc, in_q, "Q2^H I (padding)");
  if (n == 0) return;

  //  +--------------------------------------------------------------------------+
  //  |  Q2 = apply_q(N, I):                                                       |
  //  |  res  = ||A - Q2 T Q2^H||_1 / (n ||A||_1 eps),  orth = ||I - Q2^H Q2||_1 /   |
  //  |  (n eps) (check_chase's checks), same = ||Q2 - Q2_rebuilt||_1 / (n eps)    |
  //  |  and adj = ||apply_q(C, I) - Q2_rebuilt^H||_1 / (n eps), Q2_rebuilt by     |
  //  |  form_q2 (one reflector at a time, in double); all pass when <= 30.       |
  //  +--------------------------------------------------------------------------+
  std::vector<zdouble> Q(static_cast<std::size_t>(n * n));
  for (int64_t j = 0; j < n; ++j)
    for (int64_t i = 0; i < n; ++i) Q[i + j * n] = zdouble(Qn[i + j * ldq]);
  const auto [res, orth] = reconstruction_errors(a, r, Q);
  EXPECT_LE(res, kChaseThreshold) << "residual ||A - Q2 T Q2^H|| with Q2 = apply_q(N, I)";
  EXPECT_LE(orth, kChaseThreshold) << "orthogonality of apply_q(N, I)";
  const std::vector<zdouble> Qf = form_q2<T>(n, b, r);
  std::vector<zdouble> QfH(Qf.size());
  for (int64_t j = 0; j < n; ++j)
    for (int64_t i = 0; i < n; ++i) QfH[i + j * n] = std::conj(Qf[j + i * n]);
  EXPECT_LE(diff_norm1(n, n, Qn.data(), ldq, Qf.data(), n) / (n * eps), kChaseThreshold)
      << "apply_q(N, I) against the rebuilt Q2";
  EXPECT_LE(diff_norm1(n, n, Qc.data(), ldq, QfH.data(), n) / (n * eps), kChaseThreshold)
      << "apply_q(C, I) against the rebuilt Q2^H";

  //  +--------------------------------------------------------------------------+
  //  |  round trip: C1 = apply_q(C, apply_q(N, C0)), C0 random n x m (ldc n+2)   |
  //  |  err = ||C1 - C0||_1 / (n ||C0||_1 eps), passes when <= 30.               |
  //  +--------------------------------------------------------------------------+
  const int64_t ldc = n + 2;
  const std::vector<T> C0 =
      padded_matrix<T>(n, m, ldc, [&](int64_t, int64_t) { return random_value<T>(rng); });
  const double normC0 = diff_norm1(n, m, C0.data(), ldc, std::vector<T>(C0.size()).data(), ldc);
  ASSERT_GT(normC0, 0.0);
  std::vector<T> C = C0;
  run_apply_q(dev, Op::N, n, b, r, m, C, ldc);
  const auto taus = r.tau2.begin() + band2tri_tau2_size(n, b);
  const bool identity = std::all_of(r.tau2.begin(), taus, [](T v) { return v == T(0); });
  if (!identity)  // n = 1, real n = 2 or b = 1: every reflector is the identity
    EXPECT_GT(diff_norm1(n, m, C.data(), ldc, C0.data(), ldc), 0.0) << "Q2 C left C as it was";
  run_apply_q(dev, Op::C, n, b, r, m, C, ldc);
  EXPECT_LE(diff_norm1(n, m, C.data(), ldc, C0.data(), ldc) / (n * normC0 * eps), kChaseThreshold)
      << "Q2^H (Q2 C) against C";
  expect_untouched_outside(C0, C, [&](int64_t p) { return p % ldc < n; }, "C (padding)");
}

/// The apply_q cases both engines run: n = 0, 1, 2, b + 1, 37 (b >= n for b = 64), 150;
/// b in {1, 2, 3, 8, 32, 64}; m = 7 columns for the round trip.
template <Scalar T>
void check_every_apply_q(const Device& dev) {
  auto rng = make_rng();
  for (int64_t b : {1, 2, 3, 8, 32, 64})
    for (int64_t n : {int64_t{0}, int64_t{1}, int64_t{2}, b + 1, int64_t{37}, int64_t{150}})
      check_apply_q<T>(dev, make_band<T>(BandSpectrum::Random, n, b, rng), 7, rng);
  check_apply_q<T>(dev, make_band<T>(BandSpectrum::Graded, 301, 32, rng), 40, rng);
}

/// Bad arguments of band_to_tridiag_apply_q: BadArgument naming each, C as it was.
template <Scalar T>
void check_apply_q_bad_arguments(const Device& dev) {
  auto rng = make_rng();
  const int64_t n = 6, b = 2, m = 3, ldc = 7;
  const std::vector<T> h = random_vector<T>(static_cast<std::size_t>(ldc * m), rng);
  DeviceBuffer<T> v(dev, static_cast<std::size_t>(band2tri_v2_size(n))),
      t(dev, static_cast<std::size_t>(band2tri_tau2_size(n, b))), c(dev, h.size());
  copy_vector(dev, static_cast<int64_t>(h.size()), h.data(), c.data());
  const auto call = [&](Op op, int64_t nn, int64_t bb, const T* V2, const T* t2, int64_t mm, T* C,
                        int64_t ld) {
    band_to_tridiag_apply_q<T>(dev, op, nn, bb, V2, t2, mm, C, ld);
  };
  const auto names = [&](const char* arg, auto&& f) {
    try {
      f();
      ADD_FAILURE() << "no exception for a bad '" << arg << "'";
    } catch (const BadArgument& ex) {
      EXPECT_NE(std::string(ex.what()).find(std::string("'") + arg + "'"), std::string::npos)
          << ex.what();
    }
  };
  names("n", [&] { call(Op::N, -1, b, v.data(), t.data(), m, c.data(), ldc); });
  names("b", [&] { call(Op::N, n, 0, v.data(), t.data(), m, c.data(), ldc); });
  names("m", [&] { call(Op::N, n, b, v.data(), t.data(), -1, c.data(), ldc); });
  names("ldc", [&] { call(Op::N, n, b, v.data(), t.data(), m, c.data(), n - 1); });
  names("V2", [&] { call(Op::N, n, b, nullptr, t.data(), m, c.data(), ldc); });
  names("tau2", [&] { call(Op::C, n, b, v.data(), nullptr, m, c.data(), ldc); });
  names("C", [&] { call(Op::N, n, b, v.data(), t.data(), m, nullptr, ldc); });
  names("op", [&] { call(static_cast<Op>('X'), n, b, v.data(), t.data(), m, c.data(), ldc); });
  if constexpr (is_complex_v<T>)
    names("op", [&] { call(Op::T, n, b, v.data(), t.data(), m, c.data(), ldc); });
  std::vector<T> after(h.size());
  copy_vector(dev, static_cast<int64_t>(h.size()), c.data(), after.data());
  expect_untouched_outside(h, after, [](int64_t) { return false; }, "C after bad arguments");
  // Quick returns read nothing: n <= 1 or m = 0 with null pointers, ldc = 1 for n = 0.
  EXPECT_NO_THROW(call(Op::N, 0, b, nullptr, nullptr, m, nullptr, 1));
  EXPECT_NO_THROW(call(Op::C, 1, b, nullptr, nullptr, m, nullptr, 1));
  EXPECT_NO_THROW(call(Op::N, n, b, nullptr, nullptr, 0, nullptr, ldc));
  if constexpr (!is_complex_v<T>)  // real: Op::T is Op::C
    EXPECT_NO_THROW(call(Op::T, 1, b, nullptr, nullptr, m, nullptr, 1));
}

}  // namespace mgblas::testing
