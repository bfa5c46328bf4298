// SPDX-License-Identifier: BSD-3-Clause
// The checks of the bidiagonal SVD shared by test_bidiag_svd (host engine: ?bdsdc, and
// the Golub-Kahan algorithm on the host) and test_cuda_bidiag_svd (CUDA engine):
// kernels/lapack.hpp bidiag_svd on one device, singular values against ?bdsqr, residual
// ||B V - U S||_1 / (n eps ||B||_1) and orthogonality ||I - U^T U||_1, ||I - V^T V||_1
// / (n eps) under LAPACK's tester threshold (30), on random, graded, clustered and
// rank-deficient bidiagonals, both uplo, windows at the edges.
#pragma once

#include <gtest/gtest.h>

#include <cblas.h>
#include <lapacke.h>

#include <algorithm>
#include <cmath>
#include <complex>
#include <cstdint>
#include <cstdlib>
#include <iomanip>
#include <iostream>
#include <limits>
#include <map>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "core/error.hpp"
#include "core/memory.hpp"
#include "kernels/lapack.hpp"
#include "tests/kernels/host_test_helpers.hpp"
#include "tests/testing/testing.hpp"

namespace mgblas::testing {

inline constexpr double kSvdThreshold = 30.0;

/// d and e of one bidiagonal test matrix.
template <typename R>
struct Bidiagonal {
  std::vector<R> d, e;
  int64_t n() const { return static_cast<int64_t>(d.size()); }
};

/// The kinds of bidiagonals the tests draw.
enum class BdKind {
  Random,         // d, e uniform on [-1, 1]
  Graded,         // s_i = 10^(-15 i / (n - 1)), from 1 down to 1e-15
  Clustered,      // s in {1, 0.5} (a quarter each) and uniform on [0.5, 1]: no small s
  ClusteredSmall, // half of s equal to 1e-9, the rest uniform on [0, 1]
  ZeroSingular,   // s uniform on [0, 1] but n / 8 + 1 of them zero
  ZerosInD,       // Random with every 7th d (and d[0], d[n-1]) exactly 0
  Zero,           // B = 0
};

inline const char* to_string(BdKind k) {
  switch (k) {
    case BdKind::Random: return "random";
    case BdKind::Graded: return "graded";
    case BdKind::Clustered: return "clustered";
    case BdKind::ClusteredSmall: return "clustered-small";
    case BdKind::ZeroSingular: return "zero-singular";
    case BdKind::ZerosInD: return "zeros-in-d";
    case BdKind::Zero: return "zero";
  }
  return "?";
}

inline constexpr BdKind kEveryBdKind[] = {BdKind::Random,       BdKind::Graded,
                                          BdKind::Clustered,    BdKind::ClusteredSmall,
                                          BdKind::ZeroSingular, BdKind::ZerosInD,
                                          BdKind::Zero};

/// A Haar-like random orthogonal n x n matrix (Q of a Gaussian matrix).
inline std::vector<double> random_orthogonal(int64_t n, std::mt19937_64& rng) {
  std::normal_distribution<double> g;
  const auto un = static_cast<std::size_t>(n);
  std::vector<double> Q(un * un), tau(un);
  for (double& v : Q) v = g(rng);
  const auto ln = static_cast<lapack_int>(n);
  EXPECT_EQ(LAPACKE_dgeqrf(LAPACK_COL_MAJOR, ln, ln, Q.data(), ln, tau.data()), 0);
  EXPECT_EQ(LAPACKE_dorgqr(LAPACK_COL_MAJOR, ln, ln, ln, Q.data(), ln, tau.data()), 0);
  return Q;
}

/// The upper bidiagonal of ?gebrd of Q1 diag(s) Q2^T: singular values s (to rounding).
template <typename R>
Bidiagonal<R> bidiagonal_with_values(const std::vector<double>& s, std::mt19937_64& rng) {
  const auto n = static_cast<int64_t>(s.size());
  const auto un = static_cast<std::size_t>(n);
  Bidiagonal<R> b;
  b.d.resize(un);
  b.e.resize(un > 0 ? un - 1 : 0);
  if (n == 0) return b;
  auto Q1 = random_orthogonal(n, rng);
  const auto Q2 = random_orthogonal(n, rng);
  for (int64_t j = 0; j < n; ++j)
    for (int64_t i = 0; i < n; ++i) Q1[static_cast<std::size_t>(i + j * n)] *= s[static_cast<std::size_t>(j)];
  std::vector<double> A(un * un), d(un), e(un), tq(un), tp(un);
  const auto ln = static_cast<int>(n);
  cblas_dgemm(CblasColMajor, CblasNoTrans, CblasTrans, ln, ln, ln, 1.0, Q1.data(), ln, Q2.data(),
              ln, 0.0, A.data(), ln);
  EXPECT_EQ(LAPACKE_dgebrd(LAPACK_COL_MAJOR, ln, ln, A.data(), ln, d.data(), e.data(), tq.data(),
                           tp.data()),
            0);
  for (int64_t i = 0; i < n; ++i) b.d[i] = static_cast<R>(d[i]);
  for (int64_t i = 0; i + 1 < n; ++i) b.e[i] = static_cast<R>(e[i]);
  return b;
}

template <typename R>
Bidiagonal<R> make_bidiagonal(BdKind kind, int64_t n, std::mt19937_64& rng) {
  std::uniform_real_distribution<double> u(-1.0, 1.0), u01(0.0, 1.0);
  const auto un = static_cast<std::size_t>(n);
  std::vector<double> s(un);
  Bidiagonal<R> b;
  switch (kind) {
    case BdKind::Random:
    case BdKind::ZerosInD:
    case BdKind::Zero:
      b.d.resize(un);
      b.e.resize(un > 0 ? un - 1 : 0);
      for (R& v : b.d) v = kind == BdKind::Zero ? R(0) : static_cast<R>(u(rng));
      for (R& v : b.e) v = kind == BdKind::Zero ? R(0) : static_cast<R>(u(rng));
      if (kind == BdKind::ZerosInD && n > 0) {
        for (int64_t i = 0; i < n; i += 7) b.d[i] = R(0);
        b.d[un - 1] = R(0);
      }
      return b;
    case BdKind::Graded:
      for (int64_t i = 0; i < n; ++i) s[i] = std::pow(10.0, -15.0 * i / std::max<int64_t>(n - 1, 1));
      break;
    case BdKind::Clustered:
      for (int64_t i = 0; i < n; ++i) s[i] = i % 4 == 0 ? 1.0 : i % 4 == 1 ? 0.5 : 0.5 + 0.5 * u01(rng);
      break;
    case BdKind::ClusteredSmall:
      for (int64_t i = 0; i < n; ++i) s[i] = i % 2 == 0 ? 1e-9 : u01(rng);
      break;
    case BdKind::ZeroSingular:
      for (int64_t i = 0; i < n; ++i) s[i] = i % 8 == 0 ? 0.0 : u01(rng);
      break;
  }
  std::shuffle(s.begin(), s.end(), rng);
  return bidiagonal_with_values<R>(s, rng);
}

/// All singular values, descending, by LAPACKE ?bdsqr (implicit QR): the oracle.
template <typename R>
std::vector<R> bdsqr_values(const Bidiagonal<R>& b, Uplo uplo) {
  std::vector<R> d = b.d, e = b.e;
  const int64_t n = b.n();
  if (n == 0) return d;
  e.resize(static_cast<std::size_t>(n));
  R dummy = 0;
  const char lu = uplo == Uplo::Upper ? 'U' : 'L';
  const auto ln = static_cast<lapack_int>(n);
  int info;
  if constexpr (std::is_same_v<R, float>)
    info = LAPACKE_sbdsqr(LAPACK_COL_MAJOR, lu, ln, 0, 0, 0, d.data(), e.data(), &dummy, 1, &dummy,
                          1, &dummy, 1);
  else
    info = LAPACKE_dbdsqr(LAPACK_COL_MAJOR, lu, ln, 0, 0, 0, d.data(), e.data(), &dummy, 1, &dummy,
                          1, &dummy, 1);
  EXPECT_EQ(info, 0) << "?bdsqr did not converge";
  return d;
}

/// ||B||_1 (max column sum), of the upper or the lower B, whichever is larger.
template <typename R>
double bidiagonal_norm1(const Bidiagonal<R>& b) {
  double most = 0;
  for (int64_t j = 0; j < b.n(); ++j) {
    double col = std::abs(double(b.d[j]));
    if (j > 0) col += std::abs(double(b.e[j - 1]));  // upper: B(j-1, j); lower: B(j, j-1)
    most = std::max(most, col);
    if (j + 1 < b.n()) most = std::max(most, std::abs(double(b.d[j])) + std::abs(double(b.e[j])));
  }
  return most;
}

/// The worst results per kind (for the summary the tests print).
struct SvdWorst {
  double values = 0, residual = 0, orth_u = 0, orth_v = 0;
};
inline std::map<std::string, SvdWorst>& svd_worst() {
  static std::map<std::string, SvdWorst> w;
  return w;
}
inline void print_svd_worst(const char* title) {
  std::cout << "# " << title << ": worst per kind (values / residual / orth U / orth V, in units "
            << "of n eps)\n";
  for (const auto& [kind, w] : svd_worst())
    std::cout << "#   " << std::setw(16) << kind << std::fixed << std::setprecision(3) << "  "
              << w.values << "  " << w.residual << "  " << w.orth_u << "  " << w.orth_v << "\n";
  std::cout.unsetf(std::ios::floatfield);
  svd_worst().clear();
}

/// ||I - Q^T Q||_1 for the n x k real matrix Q (leading dimension n).
inline double orthogonality_loss(int64_t n, int64_t k, const std::vector<double>& Q) {
  std::vector<double> G(static_cast<std::size_t>(k * k));
  cblas_dgemm(CblasColMajor, CblasTrans, CblasNoTrans, static_cast<int>(k), static_cast<int>(k),
              static_cast<int>(n), 1.0, Q.data(), static_cast<int>(n), Q.data(),
              static_cast<int>(n), 0.0, G.data(), static_cast<int>(k));
  double most = 0;
  for (int64_t j = 0; j < k; ++j) {
    double col = 0;
    for (int64_t i = 0; i < k; ++i) col += std::abs(G[i + j * k] - (i == j ? 1.0 : 0.0));
    most = std::max(most, col);
  }
  return most;
}

/// Runs bidiag_svd on dev for the window [il, iu) (all when iu < 0) and checks it. U and
/// V have two padding rows and one column past the window, all poisoned.
template <Scalar T>
void check_bidiag_svd(const Device& dev, const Bidiagonal<real_type_t<T>>& b, Uplo uplo,
                      const char* kind, int64_t il = 0, int64_t iu = -1) {
  using R = real_type_t<T>;
  const int64_t n = b.n();
  if (iu < 0) iu = n;
  const int64_t cnt = iu - il, ld = n + 2, cols = cnt + 1;
  SCOPED_TRACE(::mgblas::detail::concat(kind, " n=", n, " uplo=", static_cast<char>(uplo),
                                        " window [", il, ", ", iu, "), ", seed_text()));
  const std::vector<T> p0(static_cast<std::size_t>(ld * cols), T(static_cast<R>(-7.25)));
  DeviceBuffer<T> dU(dev, p0.size()), dV(dev, p0.size());
  copy_vector(dev, static_cast<int64_t>(p0.size()), p0.data(), dU.data());
  copy_vector(dev, static_cast<int64_t>(p0.size()), p0.data(), dV.data());
  std::vector<R> s(static_cast<std::size_t>(n), std::numeric_limits<R>::quiet_NaN());
  bidiag_svd<T>(dev, uplo, n, b.d.data(), b.e.data(), il, iu, s.data(), cnt > 0 ? dU.data() : nullptr,
                ld, cnt > 0 ? dV.data() : nullptr, ld);
  std::vector<T> hU(p0.size()), hV(p0.size());
  copy_vector(dev, static_cast<int64_t>(hU.size()), dU.data(), hU.data());
  copy_vector(dev, static_cast<int64_t>(hV.size()), dV.data(), hV.data());
  const auto inside = [&](int64_t p) { return p % ld < n && p / ld < cnt; };
  expect_untouched_outside(p0, hU, inside, "U");
  expect_untouched_outside(p0, hV, inside, "V");
  if (n == 0) return;

  //  +------------------------------------------------------------------------+
  //  |  values:   max_i |s_i - s_ref_i| / (n eps ||B||_2), s_ref from ?bdsqr  |
  //  |  residual: ||B V - U S||_1 / (n eps ||B||_1)                          |
  //  |  orth:     ||I - U^T U||_1 / (n eps), ||I - V^T V||_1 / (n eps)        |
  //  |  each passes when <= 30 (LAPACK's tester threshold); s descending and  |
  //  |  >= 0, a complex T's vectors real                                      |
  //  +------------------------------------------------------------------------+
  const double eps = std::numeric_limits<R>::epsilon();
  const auto ref = bdsqr_values(b, uplo);
  const double norm2 = std::max(double(ref[0]), std::numeric_limits<double>::min());
  double vdiff = 0;
  bool order = true;
  for (int64_t i = 0; i < n; ++i) {
    const double diff = std::abs(double(s[i]) - double(ref[i]));
    vdiff = std::isnan(diff) ? std::numeric_limits<double>::infinity() : std::max(vdiff, diff);
    order = order && s[i] >= R(0) && (i == 0 || s[i] <= s[i - 1]);
  }
  const double values = vdiff / (n * eps * norm2);
  EXPECT_LE(values, kSvdThreshold) << "singular values vs ?bdsqr";
  EXPECT_TRUE(order) << "s descending and >= 0";
  SvdWorst& worst = svd_worst()[kind];
  worst.values = std::max(worst.values, values);
  if (cnt == 0) return;

  std::vector<double> Uw(static_cast<std::size_t>(n * cnt)), Vw(Uw.size());
  double imag = 0;
  for (int64_t j = 0; j < cnt; ++j)
    for (int64_t i = 0; i < n; ++i) {
      const T u = hU[i + j * ld], v = hV[i + j * ld];
      Uw[i + j * n] = static_cast<double>(std::real(u));
      Vw[i + j * n] = static_cast<double>(std::real(v));
      imag = std::max({imag, static_cast<double>(std::abs(std::imag(u))),
                       static_cast<double>(std::abs(std::imag(v)))});
    }
  EXPECT_EQ(imag, 0.0) << "a complex T's vectors are real";
  const double norm1 = std::max(bidiagonal_norm1(b), std::numeric_limits<double>::min());
  double res = 0;
  for (int64_t j = 0; j < cnt; ++j) {
    double col = 0;
    for (int64_t i = 0; i < n; ++i) {
      double bv = double(b.d[i]) * Vw[i + j * n];
      if (uplo == Uplo::Upper && i + 1 < n) bv += double(b.e[i]) * Vw[i + 1 + j * n];
      if (uplo == Uplo::Lower && i > 0) bv += double(b.e[i - 1]) * Vw[i - 1 + j * n];
      col += std::abs(bv - double(s[il + j]) * Uw[i + j * n]);
    }
    res = std::max(res, col);
  }
  const double residual = res / (n * eps * norm1);
  const double orth_u = orthogonality_loss(n, cnt, Uw) / (n * eps);
  const double orth_v = orthogonality_loss(n, cnt, Vw) / (n * eps);
  EXPECT_LE(residual, kSvdThreshold) << "residual";
  EXPECT_LE(orth_u, kSvdThreshold) << "orthogonality of U";
  EXPECT_LE(orth_v, kSvdThreshold) << "orthogonality of V";
  worst.residual = std::max(worst.residual, residual);
  worst.orth_u = std::max(worst.orth_u, orth_u);
  worst.orth_v = std::max(worst.orth_v, orth_v);
}

/// Every kind at the sizes given, both uplo, all vectors; windows of a random and a
/// graded matrix at the edges (one vector, the last, the middle, values only).
template <Scalar T>
void check_every_bidiagonal(const Device& dev, const std::vector<int64_t>& sizes) {
  using R = real_type_t<T>;
  auto rng = make_rng();
  for (BdKind kind : kEveryBdKind)
    for (int64_t n : sizes) {
      const auto b = make_bidiagonal<R>(kind, n, rng);
      for (Uplo uplo : {Uplo::Upper, Uplo::Lower}) check_bidiag_svd<T>(dev, b, uplo, to_string(kind));
    }
  const int64_t n = std::min<int64_t>(257, sizes.back());
  for (BdKind kind : {BdKind::Random, BdKind::Graded, BdKind::ZeroSingular}) {
    const auto b = make_bidiagonal<R>(kind, n, rng);
    for (auto [il, iu] : {std::pair<int64_t, int64_t>{0, 1}, {0, n / 5}, {n / 3, n / 2},
                          {n - 1, n}, {n - 7, n}, {n / 2, n / 2}})
      for (Uplo uplo : {Uplo::Upper, Uplo::Lower})
        check_bidiag_svd<T>(dev, b, uplo, to_string(kind), il, iu);
  }
}

/// Bad arguments: BadArgument naming each, before anything is written.
template <Scalar T>
void check_bidiag_svd_bad_arguments(const Device& dev) {
  using R = real_type_t<T>;
  std::vector<R> d(4, R(1)), e(3, R(0.5)), s(4);
  DeviceBuffer<T> dU(dev, 16), dV(dev, 16);
  const auto call = [&](Uplo uplo, int64_t n, const R* dd, int64_t il, int64_t iu, int64_t ldu,
                        int64_t ldv, T* U) {
    bidiag_svd<T>(dev, uplo, n, dd, e.data(), il, iu, s.data(), U, ldu, dV.data(), ldv);
  };
  const auto names = [&](const char* name, auto&& f) {
    try {
      f();
      ADD_FAILURE() << "no BadArgument for " << name;
    } catch (const BadArgument& ex) {
      EXPECT_NE(std::string(ex.what()).find(std::string("'") + name + "'"), std::string::npos)
          << ex.what();
    }
  };
  T* U = dU.data();
  names("n", [&] { call(Uplo::Upper, -1, d.data(), 0, 0, 4, 4, U); });
  names("uplo", [&] { call(static_cast<Uplo>('X'), 4, d.data(), 0, 4, 4, 4, U); });
  names("ldu", [&] { call(Uplo::Upper, 4, d.data(), 0, 4, 3, 4, U); });
  names("ldv", [&] { call(Uplo::Lower, 4, d.data(), 0, 4, 4, 3, U); });
  names("d", [&] { call(Uplo::Upper, 4, nullptr, 0, 4, 4, 4, U); });
  names("U", [&] { call(Uplo::Upper, 4, d.data(), 0, 4, 4, 4, nullptr); });
  names("iu", [&] { call(Uplo::Upper, 4, d.data(), 3, 2, 4, 4, U); });
  names("iu", [&] { call(Uplo::Upper, 4, d.data(), 0, 5, 4, 4, U); });
  names("il", [&] { call(Uplo::Upper, 4, d.data(), -1, 2, 4, 4, U); });
  EXPECT_NO_THROW(call(Uplo::Upper, 4, d.data(), 2, 2, 4, 4, nullptr));  // values only
  d[2] = std::numeric_limits<R>::infinity();
  names("d", [&] { call(Uplo::Upper, 4, d.data(), 0, 4, 4, 4, U); });
  d[2] = R(1);
  e[1] = std::numeric_limits<R>::quiet_NaN();
  names("e", [&] { call(Uplo::Upper, 4, d.data(), 0, 4, 4, 4, U); });
}

}  // namespace mgblas::testing
