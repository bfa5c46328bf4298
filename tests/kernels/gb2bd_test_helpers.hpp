// SPDX-License-Identifier: BSD-3-Clause
// The checks of the band-to-bidiagonal chase shared by test_band_to_bidiag (host engine)
// and test_cuda_band_to_bidiag (CUDA engine): kernels/lapack.hpp band_to_bidiag on one
// device, the singular values of bidiag(d, e) (?bdsqr) against LAPACK's of the dense band
// matrix (?gesvd), and, with the reflectors kept, B = Q2 bidiag(d, e) P2^H, Q2^H Q2 = I and
// P2^H P2 = I with Q2 and P2 formed by band_to_tridiag_apply_q on identities (the layout
// of the tridiagonal chase, sb2st_test_helpers.hpp), under LAPACK's tester threshold (30).
#pragma once

#include <gtest/gtest.h>

#include <cblas.h>
#include <lapacke.h>

#include <algorithm>
#include <array>
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
#include "kernels/gb2bd_kernels.hpp"
#include "kernels/lapack.hpp"
#include "tests/kernels/host_test_helpers.hpp"
#include "tests/kernels/sb2st_test_helpers.hpp"

namespace mgblas::testing {

/// The upper band test matrices.
enum class UpperBandKind { Random, Graded, ZeroRow, Zero };

inline const char* to_string(UpperBandKind k) {
  switch (k) {
    case UpperBandKind::Random:
      return "random";
    case UpperBandKind::Graded:
      return "graded";
    case UpperBandKind::ZeroRow:
      return "zero row";
    case UpperBandKind::Zero:
      return "zero";
  }
  return "?";
}

/// An n x n upper band matrix with b superdiagonals in LAPACK's upper band storage,
/// B(i, j) = ab[(b + i - j) + j ld] for max(0, j - b) <= i <= j, ld = b + 1 + pad.
template <typename T>
struct UpperBand {
  int64_t n = 0, b = 1, ld = 2;
  std::vector<T> ab;
  T& at(int64_t i, int64_t j) { return ab[static_cast<std::size_t>((b + i - j) + j * ld)]; }
  T at(int64_t i, int64_t j) const { return ab[static_cast<std::size_t>((b + i - j) + j * ld)]; }
};

/// A test matrix of order n with b superdiagonals (B(0, 0) real, the chase's precondition):
/// - Random: entries uniform on [-1, 1] (both parts);
/// - Graded: Random with B(i, j) scaled by g_i g_j, g_i = 10^(-7.5 i / n): entries from 1
///   down to 1e-15 along the diagonal;
/// - ZeroRow (n >= 3): Random with rows n / 2 and n - 2 zero (reflectors with nothing to
///   remove: tau = 0 in a real sweep);
/// - Zero: B = 0 (every reflector the identity, d = e = 0).
/// The storage outside the matrix (the triangle above row 0 and the `pad` rows below the
/// band) holds NaN: the chase must not read it, and AB, read only, must come back as it was.
template <Scalar T>
UpperBand<T> make_upper_band(UpperBandKind kind, int64_t n, int64_t b, std::mt19937_64& rng,
                             int64_t pad = 0) {
  using R = real_type_t<T>;
  UpperBand<T> a;
  a.n = n;
  a.b = b;
  a.ld = b + 1 + pad;
  a.ab.assign(static_cast<std::size_t>(a.ld * std::max<int64_t>(n, 1)), nan_value<T>());
  for (int64_t j = 0; j < n; ++j) {
    for (int64_t i = std::max<int64_t>(0, j - b); i <= j; ++i) {
      T v = random_value<T>(rng);
      if (kind == UpperBandKind::Graded)
        v *= static_cast<R>(std::pow(10.0, -7.5 * (i + j) / std::max<int64_t>(n, 1)));
      if (kind == UpperBandKind::Zero ||
          (kind == UpperBandKind::ZeroRow && (i == n / 2 || i == n - 2)))
        v = T(0);
      if (i == 0 && j == 0) v = T(std::real(v));
      a.at(i, j) = v;
    }
  }
  return a;
}

/// B as a dense n x n matrix (column-major), in complex double.
template <Scalar T>
std::vector<zdouble> dense_upper_band(const UpperBand<T>& a) {
  std::vector<zdouble> B(static_cast<std::size_t>(a.n * a.n), zdouble(0));
  for (int64_t j = 0; j < a.n; ++j)
    for (int64_t i = std::max<int64_t>(0, j - a.b); i <= j; ++i) B[i + j * a.n] = zdouble(a.at(i, j));
  return B;
}

/// The singular values of B, descending, by LAPACKE ?gesvd (values only) in T's precision.
template <Scalar T>
std::vector<real_type_t<T>> band_singular_values(const UpperBand<T>& a) {
  using R = real_type_t<T>;
  const int64_t n = a.n;
  std::vector<R> s(static_cast<std::size_t>(n)), superb(static_cast<std::size_t>(n + 1));
  if (n == 0) return s;
  const std::vector<zdouble> Bz = dense_upper_band(a);
  std::vector<T> B(Bz.size());
  for (std::size_t p = 0; p < B.size(); ++p) {
    if constexpr (is_complex_v<T>) B[p] = T(static_cast<R>(Bz[p].real()), static_cast<R>(Bz[p].imag()));
    else B[p] = static_cast<T>(Bz[p].real());
  }
  const auto ln = static_cast<lapack_int>(n);
  T u[1], vt[1];
  lapack_int info;
  if constexpr (std::is_same_v<T, float>)
    info = LAPACKE_sgesvd(LAPACK_COL_MAJOR, 'N', 'N', ln, ln, B.data(), ln, s.data(), u, 1, vt, 1,
                          superb.data());
  else if constexpr (std::is_same_v<T, double>)
    info = LAPACKE_dgesvd(LAPACK_COL_MAJOR, 'N', 'N', ln, ln, B.data(), ln, s.data(), u, 1, vt, 1,
                          superb.data());
  else if constexpr (std::is_same_v<T, std::complex<float>>)
    info = LAPACKE_cgesvd(LAPACK_COL_MAJOR, 'N', 'N', ln, ln,
                          reinterpret_cast<lapack_complex_float*>(B.data()), ln, s.data(),
                          reinterpret_cast<lapack_complex_float*>(u), 1,
                          reinterpret_cast<lapack_complex_float*>(vt), 1, superb.data());
  else
    info = LAPACKE_zgesvd(LAPACK_COL_MAJOR, 'N', 'N', ln, ln,
                          reinterpret_cast<lapack_complex_double*>(B.data()), ln, s.data(),
                          reinterpret_cast<lapack_complex_double*>(u), 1,
                          reinterpret_cast<lapack_complex_double*>(vt), 1, superb.data());
  EXPECT_EQ(info, 0) << "?gesvd failed";
  return s;
}

/// The singular values of the real upper bidiagonal (d, e), descending, by LAPACKE ?bdsqr
/// (no vectors).
template <typename R>
std::vector<R> bidiag_singular_values(std::vector<R> d, std::vector<R> e) {
  const auto n = static_cast<lapack_int>(d.size());
  if (n == 0) return d;
  e.resize(static_cast<std::size_t>(n));  // ?bdsqr's e has n entries (the last unused)
  R dummy[1] = {R(0)};
  lapack_int info;
  if constexpr (std::is_same_v<R, float>)
    info = LAPACKE_sbdsqr(LAPACK_COL_MAJOR, 'U', n, 0, 0, 0, d.data(), e.data(), dummy, 1, dummy,
                          1, dummy, 1);
  else
    info = LAPACKE_dbdsqr(LAPACK_COL_MAJOR, 'U', n, 0, 0, 0, d.data(), e.data(), dummy, 1, dummy,
                          1, dummy, 1);
  EXPECT_EQ(info, 0) << "?bdsqr failed";
  return d;
}

/// ||B||_1 (max column sum of absolute values) and ||B||_F.
template <Scalar T>
std::pair<double, double> upper_band_norms(const UpperBand<T>& a) {
  double most = 0, fro = 0;
  for (int64_t j = 0; j < a.n; ++j) {
    double c = 0;
    for (int64_t i = std::max<int64_t>(0, j - a.b); i <= j; ++i) {
      const double v = std::abs(a.at(i, j));
      c += v;
      fro += v * v;
    }
    most = std::max(most, c);
  }
  return {most, std::sqrt(fro)};
}

/// What one call returned, on the host.
template <Scalar T>
struct BidiagResult {
  std::vector<real_type_t<T>> d, e;
  std::vector<T> VQ, tauQ, VP, tauP;
  /// One side's reflectors as the tridiagonal chase's (V2, tau2), for its helpers.
  ChaseResult<T> q() const { return {d, e, VQ, tauQ}; }
  ChaseResult<T> p() const { return {d, e, VP, tauP}; }
};

/// band_to_bidiag on dev (device memory there), d, e and the reflectors poisoned with NaN
/// before the call; AB (its NaN padding included) must come back bit for bit.
template <Scalar T>
BidiagResult<T> run_bidiag(const Device& dev, const UpperBand<T>& a, bool keep) {
  using R = real_type_t<T>;
  const int64_t n = a.n;
  const auto sz = [](int64_t v) { return static_cast<std::size_t>(std::max<int64_t>(v, 1)); };
  const auto upload = [&](const auto& h) {
    using V = typename std::decay_t<decltype(h)>::value_type;
    DeviceBuffer<V> buf(dev, h.size());
    copy_vector(dev, static_cast<int64_t>(h.size()), h.data(), buf.data());
    return buf;
  };
  const auto download = [&](const auto& buf, auto& h) {
    copy_vector(dev, static_cast<int64_t>(h.size()), buf.data(), h.data());
  };
  BidiagResult<T> r;
  r.d.assign(sz(n), std::numeric_limits<R>::quiet_NaN());
  r.e.assign(sz(n - 1), std::numeric_limits<R>::quiet_NaN());
  const int64_t nv = band2tri_v2_size(n), nt = band2tri_tau2_size(n, a.b);
  r.VQ.assign(sz(nv), nan_value<T>());
  r.VP = r.VQ;
  r.tauQ.assign(sz(nt), nan_value<T>());
  r.tauP = r.tauQ;
  auto dab = upload(a.ab);
  auto dd = upload(r.d), de = upload(r.e);
  auto dvq = upload(r.VQ), dtq = upload(r.tauQ), dvp = upload(r.VP), dtp = upload(r.tauP);
  band_to_bidiag<T>(dev, n, a.b, dab.data(), a.ld, dd.data(), de.data(),
                    keep ? dvq.data() : nullptr, keep ? dtq.data() : nullptr,
                    keep ? dvp.data() : nullptr, keep ? dtp.data() : nullptr);
  download(dd, r.d);
  download(de, r.e);
  if (keep) {
    download(dvq, r.VQ);
    download(dtq, r.tauQ);
    download(dvp, r.VP);
    download(dtp, r.tauP);
  }
  std::vector<T> ab_after(a.ab.size());
  download(dab, ab_after);
  expect_untouched_outside(a.ab, ab_after, [](int64_t) { return false; }, "AB (read only)");
  r.d.resize(static_cast<std::size_t>(n));
  r.e.resize(static_cast<std::size_t>(std::max<int64_t>(n - 1, 0)));
  return r;
}

/// An n x n unitary formed by band_to_tridiag_apply_q(Op::N) on dev from one side's
/// reflectors, applied to I (complex double).
template <Scalar T>
std::vector<zdouble> form_by_apply_q(const Device& dev, int64_t n, int64_t b,
                                     const ChaseResult<T>& side) {
  std::vector<T> M = padded_matrix<T>(n, n, std::max<int64_t>(n, 1), [](int64_t i, int64_t j) {
    return i == j ? T(1) : T(0);
  });
  run_apply_q<T>(dev, Op::N, n, b, side, n, M, std::max<int64_t>(n, 1));
  std::vector<zdouble> Z(static_cast<std::size_t>(n * n));
  for (std::size_t p = 0; p < Z.size(); ++p) Z[p] = zdouble(M[p]);
  return Z;
}

/// ||B - Q bidiag(d, e) P^H||_1 / (n ||B||_1 eps), ||I - Q^H Q||_1 / (n eps) and
/// ||I - P^H P||_1 / (n eps) (Q, P dense n x n, complex double).
template <Scalar T>
std::array<double, 3> bidiag_reconstruction_errors(const UpperBand<T>& a, const BidiagResult<T>& r,
                                                    const std::vector<zdouble>& Q,
                                                    const std::vector<zdouble>& P) {
  const int64_t n = a.n;
  const double eps = testing::eps<T>(), normB = upper_band_norms(a).first;
  std::vector<zdouble> Bd(static_cast<std::size_t>(n * n), zdouble(0)), QB(Bd.size());
  for (int64_t i = 0; i < n; ++i) {
    Bd[i + i * n] = double(r.d[i]);
    if (i + 1 < n) Bd[i + (i + 1) * n] = double(r.e[i]);
  }
  std::vector<zdouble> Rm = dense_upper_band(a);
  const zdouble one(1), zero(0), minus(-1);
  const int ni = static_cast<int>(n);
  cblas_zgemm(CblasColMajor, CblasNoTrans, CblasNoTrans, ni, ni, ni, &one, Q.data(), ni, Bd.data(),
              ni, &zero, QB.data(), ni);
  cblas_zgemm(CblasColMajor, CblasNoTrans, CblasConjTrans, ni, ni, ni, &minus, QB.data(), ni,
              P.data(), ni, &one, Rm.data(), ni);
  const double res = dense_norm1(n, Rm) / (n * std::max(normB, 1e-300) * eps);
  const auto orth = [&](const std::vector<zdouble>& M) {
    std::vector<zdouble> G(static_cast<std::size_t>(n * n), zdouble(0));
    for (int64_t i = 0; i < n; ++i) G[i + i * n] = one;
    cblas_zgemm(CblasColMajor, CblasConjTrans, CblasNoTrans, ni, ni, ni, &minus, M.data(), ni,
                M.data(), ni, &one, G.data(), ni);
    return dense_norm1(n, G) / (n * eps);
  };
  return {res, orth(Q), orth(P)};
}

/// max_i |s_i - s_ref_i| / (n eps ||B||_F), both descending.
template <typename R>
double singular_value_error(int64_t n, const std::vector<R>& s, const std::vector<R>& s_ref,
                            double normB) {
  double worst = 0;
  for (int64_t i = 0; i < n; ++i) worst = std::max(worst, std::abs(double(s[i]) - double(s_ref[i])));
  return worst / (n * std::numeric_limits<R>::epsilon() * std::max(normB, 1e-300));
}

/// Runs the chase on dev and checks it (see the top of the file); returns what it got.
template <Scalar T>
BidiagResult<T> check_bidiag(const Device& dev, const UpperBand<T>& a, UpperBandKind kind,
                             bool keep) {
  using R = real_type_t<T>;
  const int64_t n = a.n, b = a.b, pad = a.ld - b - 1;
  SCOPED_TRACE(detail::concat(to_string(kind), " n=", n, " b=", b, keep ? " with VQ" : " no VQ",
                              " pad=", pad, ", ", seed_text()));
  BidiagResult<T> r = run_bidiag<T>(dev, a, keep);
  if (n == 0) return r;
  const auto [norm1, normF] = upper_band_norms(a);
  if (kind == UpperBandKind::Zero) {
    EXPECT_EQ(norm1, 0.0);
  } else {
    EXPECT_GT(norm1, 0.0) << "zero matrix: the checks would pass vacuously";
  }
  int64_t unwritten = 0;
  for (R v : r.d) unwritten += std::isnan(v);
  for (R v : r.e) unwritten += std::isnan(v);
  EXPECT_EQ(unwritten, 0) << "entries of d, e left NaN";
  if (unwritten > 0) return r;

  //  +--------------------------------------------------------------------------+
  //  |  err = max_i |sigma_i(bidiag(d, e)) - sigma_i(B)| / (n eps ||B||_F)        |
  //  |  sigma(bidiag) by ?bdsqr, sigma(B) by ?gesvd on the dense B; passes       |
  //  |  when err <= 30 (both backward stable; ||B||_F >= ||B||_2).              |
  //  +--------------------------------------------------------------------------+
  if (kind == UpperBandKind::Zero) {
    const bool zero = std::all_of(r.d.begin(), r.d.end(), [](R v) { return v == R(0); }) &&
                      std::all_of(r.e.begin(), r.e.end(), [](R v) { return v == R(0); });
    EXPECT_TRUE(zero) << "B = 0 must give d = e = 0";
  } else {
    const std::vector<R> sb = bidiag_singular_values(r.d, r.e), sa = band_singular_values(a);
    EXPECT_LE(singular_value_error(n, sb, sa, normF), kChaseThreshold)
        << "singular values of bidiag(d, e) vs LAPACK's of B";
  }
  if (!keep) return r;

  // Every slot of the layout: v(0) = 1, no NaN where a task wrote; tau = 0 in the slots no
  // task has (b = 1: k = 1, v = e_1 there too); B = 0: every tau = 0.
  const int64_t be = std::max<int64_t>(1, std::min(b, n - 1)), stride = band2tri_tau2_stride(n, be);
  int64_t bad = 0, nonzero_tau = 0;
  for (int64_t s = 0; s + 1 < n; ++s)
    for (int64_t k = 0; k < stride; ++k) {
      const std::size_t slot = static_cast<std::size_t>(s * stride + k);
      const T tq = r.tauQ[slot], tp = r.tauP[slot];
      nonzero_tau += (tq != T(0)) + (tp != T(0));
      if (k >= band2tri_tasks(n, be, s)) {
        bad += tq != T(0) || tp != T(0);
        continue;
      }
      const int64_t off = band2tri_v2_offset(n, be, s, k), m = std::min(be, n - 1 - s - k * be);
      bad += is_nan(tq) || is_nan(tp) || r.VQ[off] != T(1) || r.VP[off] != T(1);
      if (k >= band2bd_tasks(n, be, s)) bad += tq != T(0) || tp != T(0);
      for (int64_t i = 1; i < m; ++i) bad += is_nan(r.VQ[off + i]) || is_nan(r.VP[off + i]);
    }
  EXPECT_EQ(bad, 0) << "tauQ/VQ/tauP/VP entries missing or not of the documented form";
  if (kind == UpperBandKind::Zero) EXPECT_EQ(nonzero_tau, 0) << "B = 0 needs no reflector";

  //  +--------------------------------------------------------------------------+
  //  |  Q2 = apply_q(N, I) with (VQ, tauQ), P2 = apply_q(N, I) with (VP, tauP),  |
  //  |  on the same device, with b as given (b >= n included):                   |
  //  |  res   = ||B - Q2 bidiag(d, e) P2^H||_1 / (n ||B||_1 eps)                  |
  //  |  orthQ = ||I - Q2^H Q2||_1 / (n eps), orthP = ||I - P2^H P2||_1 / (n eps)   |
  //  |  all pass when <= 30 (LAPACK's tester threshold); B = 0: res = 0.        |
  //  +--------------------------------------------------------------------------+
  const std::vector<zdouble> Q = form_by_apply_q<T>(dev, n, b, r.q());
  const std::vector<zdouble> P = form_by_apply_q<T>(dev, n, b, r.p());
  const auto [res, orth_q, orth_p] = bidiag_reconstruction_errors(a, r, Q, P);
  if (kind == UpperBandKind::Zero) {
    EXPECT_EQ(res, 0.0) << "B = 0: Q2 bidiag P2^H must be 0";
  } else {
    EXPECT_LE(res, kChaseThreshold) << "residual ||B - Q2 bidiag(d, e) P2^H||";
  }
  EXPECT_LE(orth_q, kChaseThreshold) << "orthogonality of Q2";
  EXPECT_LE(orth_p, kChaseThreshold) << "orthogonality of P2";
  return r;
}

/// The cases both engines run: n in {1, 2, 3, 5, 17, 64, 100, 257}, b in {1, 2, 3, 8, 16,
/// 32} and b >= n (b = n, n + 3); random bands with the reflectors kept, without them and
/// with padded storage; graded and zero-row bands; B = 0. Cases whose chase takes more than
/// `widest` superdiagonals (min(b, n - 1)) are left out (the CUDA engine's shared memory).
template <Scalar T>
void check_every_bidiag(const Device& dev, int64_t widest = std::numeric_limits<int64_t>::max()) {
  auto rng = make_rng();
  for (int64_t n : {1, 2, 3, 5, 17, 64, 100, 257})
    for (int64_t b : {int64_t{1}, int64_t{2}, int64_t{3}, int64_t{8}, int64_t{16}, int64_t{32}, n,
                      n + 3}) {
      if (std::min(b, n - 1) > widest) continue;
      using K = UpperBandKind;
      check_bidiag<T>(dev, make_upper_band<T>(K::Random, n, b, rng), K::Random, true);
      check_bidiag<T>(dev, make_upper_band<T>(K::Random, n, b, rng, 2), K::Random, false);
      if (n <= 100)
        check_bidiag<T>(dev, make_upper_band<T>(K::Graded, n, b, rng), K::Graded, true);
      if (n >= 3 && n <= 100)
        check_bidiag<T>(dev, make_upper_band<T>(K::ZeroRow, n, b, rng, 1), K::ZeroRow, true);
    }
  for (int64_t n : {1, 5, 40})
    for (int64_t b : {1, 3, 50})
      if (std::min(b, n - 1) <= widest)
      check_bidiag<T>(dev, make_upper_band<T>(UpperBandKind::Zero, n, b, rng),
                      UpperBandKind::Zero, true);
}

/// Bad arguments: BadArgument naming each, before anything is written.
template <Scalar T>
void check_bidiag_bad_arguments(const Device& dev) {
  using R = real_type_t<T>;
  DeviceBuffer<T> ab(dev, 64), v(dev, 64), tau(dev, 64);
  DeviceBuffer<R> d(dev, 8), e(dev, 8);
  const std::vector<T> zeros(64, T(0));
  copy_vector(dev, 64, zeros.data(), ab.data());
  const std::vector<R> poison(8, R(-3));
  copy_vector(dev, 8, poison.data(), d.data());
  const auto call = [&](int64_t n, int64_t b, const T* A, int64_t ldab, R* dd, R* ee, T* VQ, T* tq,
                        T* VP, T* tp) { band_to_bidiag<T>(dev, n, b, A, ldab, dd, ee, VQ, tq, VP, tp); };
  const auto names = [&](const char* arg, auto&& f) {
    try {
      f();
      ADD_FAILURE() << "no exception for a bad '" << arg << "'";
    } catch (const BadArgument& ex) {
      EXPECT_NE(std::string(ex.what()).find(std::string("'") + arg + "'"), std::string::npos)
          << ex.what();
    }
  };
  T* A = ab.data();
  names("n", [&] { call(-1, 2, A, 3, d.data(), e.data(), nullptr, nullptr, nullptr, nullptr); });
  names("b", [&] { call(4, 0, A, 3, d.data(), e.data(), nullptr, nullptr, nullptr, nullptr); });
  names("ldab", [&] { call(4, 2, A, 2, d.data(), e.data(), nullptr, nullptr, nullptr, nullptr); });
  names("AB", [&] { call(4, 2, nullptr, 3, d.data(), e.data(), nullptr, nullptr, nullptr, nullptr); });
  names("d", [&] { call(4, 2, A, 3, nullptr, e.data(), nullptr, nullptr, nullptr, nullptr); });
  names("e", [&] { call(4, 2, A, 3, d.data(), nullptr, nullptr, nullptr, nullptr, nullptr); });
  names("tauQ", [&] { call(4, 2, A, 3, d.data(), e.data(), v.data(), nullptr, v.data(), tau.data()); });
  names("VP", [&] { call(4, 2, A, 3, d.data(), e.data(), v.data(), tau.data(), nullptr, tau.data()); });
  names("tauP", [&] { call(4, 2, A, 3, d.data(), e.data(), v.data(), tau.data(), v.data(), nullptr); });
  std::vector<R> after(8);
  copy_vector(dev, 8, d.data(), after.data());
  EXPECT_EQ(after, poison) << "d written by a call with a bad argument";
  // n = 0 reads nothing; n = 1 has no e and no reflectors; VQ null: tauQ, VP, tauP unread.
  EXPECT_NO_THROW(call(0, 2, nullptr, 3, nullptr, nullptr, nullptr, nullptr, nullptr, nullptr));
  EXPECT_NO_THROW(call(1, 2, A, 3, d.data(), nullptr, v.data(), nullptr, nullptr, nullptr));
  EXPECT_NO_THROW(call(3, 2, A, 3, d.data(), e.data(), nullptr, nullptr, nullptr, nullptr));
}

}  // namespace mgblas::testing
