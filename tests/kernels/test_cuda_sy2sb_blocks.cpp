// SPDX-License-Identifier: BSD-3-Clause
// Stage one's per-device kernels (kernels/sy2sb_kernels.hpp), both engines on fresh random
// data against a reference in double (complex double) arithmetic:
// - hemm_diagonal_blocks on diagonal squares laid out as a device's blocks are (nb x nb,
//   P rows and nb columns apart), its other triangle and the imaginary part of its
//   diagonal NaN or random, which it must not read;
// - add_blocks with beta 0 (NaN in B, never read) and beta random; entries between the
//   blocks must come back untouched;
// - geqrf, the panel QR (the CUDA engine's one-kernel form, panel_qr.cuh, its blocked loop
//   of such panels past 64 columns or a slab too tall for shared memory, and cuSOLVER
//   where the kernel declines even a blocked loop's panel): Q R = A, each
//   reflector unitary, R and tau those of the host engine (LAPACK), on random, zero, tiny
//   and partly zero panels; the rows between m and lda untouched;
// - geqrf_wy, the panel QR with its compact-WY form: A and tau those of geqrf, V explicit,
//   (I - V Tm V^H) R = A, the pads of V and Tm untouched.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <complex>
#include <cstdint>
#include <tuple>
#include <vector>

#include "kernels/detail/safe_reflector.hpp"
#include "kernels/sy2sb_kernels.hpp"
#include "tests/kernels/cuda_test_helpers.hpp"

namespace mgblas::testing {
namespace {

template <typename T>
class Sy2sbBlocks_Cuda : public ::testing::Test {};
TYPED_TEST_SUITE(Sy2sbBlocks_Cuda, TestScalars, PrecisionName);

using Wide = std::complex<double>;

// The engine of `dev` on copies of the host vectors (uploaded for a GPU); the result.
template <Scalar T, typename F>
std::vector<T> on(const Device& dev, const std::vector<T>& in, std::vector<T> out, F&& f) {
  if (!dev.is_gpu()) {
    f(in.data(), out.data());
    return out;
  }
  DeviceBuffer<T> din = upload(in), dout = upload(out);
  f(static_cast<const T*>(din.data()), dout.data());
  return download(dout);
}

TYPED_TEST(Sy2sbBlocks_Cuda, HemmDiagonalBlocksMatchesReference) {
  using T = TypeParam;
  auto rng = make_rng();
  for (Uplo uplo : {Uplo::Lower, Uplo::Upper})
    for (auto [count, nb, k] : {std::tuple<int64_t, int64_t, int64_t>{1, 1, 1}, {3, 17, 5},
                                {4, 64, 32}, {2, 100, 33}, {5, 256, 32}, {2, 40, 64}}) {
      SCOPED_TRACE(detail::concat(to_string(uplo), " count=", count, " nb=", nb, " k=", k, " ",
                                  seed_text()));
      const int64_t P = 2 * nb + 3, rows = count * P + 5, ld = rows + 2;
      const int64_t strideA = nb * ld + P;
      // A: the stored triangle of each diagonal square random, everything else NaN.
      std::vector<T> A(static_cast<std::size_t>(ld * count * nb), nan_value<T>());
      std::vector<Wide> S(static_cast<std::size_t>(count * nb * nb));  // the full squares
      for (int64_t i = 0; i < count; ++i)
        for (int64_t c = 0; c < nb; ++c)
          for (int64_t r = 0; r < nb; ++r) {
            const bool stored = uplo == Uplo::Lower ? r >= c : r <= c;
            if (!stored) continue;
            T a = random_value<T>(rng);
            A[static_cast<std::size_t>(i * strideA + r + c * ld)] = a;
            const Wide w(std::real(a), std::imag(a));
            S[static_cast<std::size_t>(i * nb * nb + r + c * nb)] = r == c ? Wide(w.real()) : w;
            if (r != c) S[static_cast<std::size_t>(i * nb * nb + c + r * nb)] = std::conj(w);
          }
      const int64_t ldv = rows;
      std::vector<T> V = random_vector<T>(static_cast<std::size_t>(ldv * k), rng);
      std::vector<T> Y0 = random_vector<T>(static_cast<std::size_t>(ldv * k), rng);
      std::vector<Wide> want(Y0.size());
      for (std::size_t t = 0; t < Y0.size(); ++t) want[t] = Wide(std::real(Y0[t]), std::imag(Y0[t]));
      double normS = 0, normV = 0, normY = 0;  // normY: Y0's blocks, added in T's precision
      for (int64_t i = 0; i < count; ++i)
        for (int64_t c = 0; c < k; ++c)
          for (int64_t r = 0; r < nb; ++r) {
            Wide s = 0;
            for (int64_t j = 0; j < nb; ++j) {
              const T v = V[static_cast<std::size_t>(i * P + j + c * ldv)];
              s += S[static_cast<std::size_t>(i * nb * nb + r + j * nb)] *
                   Wide(std::real(v), std::imag(v));
            }
            want[static_cast<std::size_t>(i * P + r + c * ldv)] += s;
          }
      for (const Wide& s : S) normS += std::norm(s);
      for (int64_t i = 0; i < count; ++i)
        for (int64_t c = 0; c < k; ++c)
          for (int64_t r = 0; r < nb; ++r)
            normV += std::norm(V[static_cast<std::size_t>(i * P + r + c * ldv)]),
            normY += std::norm(Y0[static_cast<std::size_t>(i * P + r + c * ldv)]);
      // A and V travel as one input: V after A.
      std::vector<T> in = A;
      in.insert(in.end(), V.begin(), V.end());
      for (const Device* dev : {&host(), &gpu()}) {
        SCOPED_TRACE(dev->name());
        const std::vector<T> got = on<T>(*dev, in, Y0, [&](const T* a, T* y) {
          kernels::hemm_diagonal_blocks<T>(*dev, uplo, count, nb, k, a, ld, strideA,
                                           a + A.size(), ldv, P, y, ldv, P);
        });
        dev->synchronize();
        double diff = 0, off = 0;
        for (std::size_t t = 0; t < got.size(); ++t) {
          const Wide g(std::real(got[t]), std::imag(got[t]));
          const int64_t r = static_cast<int64_t>(t) % ldv;
          if (r % P < nb && r / P < count) diff += std::norm(g - want[t]);
          else off += std::norm(g - want[t]);  // between the blocks: Y0's bits
        }
        EXPECT_LE(scaled_error<T>(std::sqrt(diff), nb, T(1), std::sqrt(normS), std::sqrt(normV),
                                  T(1), std::sqrt(normY)),
                  error_tolerance<T>());
        EXPECT_EQ(off, 0.0);
      }
    }
}

TYPED_TEST(Sy2sbBlocks_Cuda, AddBlocksMatchesReference) {
  using T = TypeParam;
  auto rng = make_rng();
  for (bool zero_beta : {true, false})
    for (auto [count, rows, cols] : {std::tuple<int64_t, int64_t, int64_t>{1, 1, 1}, {3, 17, 5},
                                     {6, 256, 32}, {2, 300, 3}}) {
      SCOPED_TRACE(detail::concat("beta0=", zero_beta, " count=", count, " rows=", rows,
                                  " cols=", cols, " ", seed_text()));
      // A packed (stride rows, ld count rows); B spread (stride 3 rows, ld 3 count rows + 1).
      const int64_t lda = count * rows, ldb = 3 * count * rows + 1;
      const T beta = zero_beta ? T(0) : random_value<T>(rng);
      std::vector<T> A = random_vector<T>(static_cast<std::size_t>(lda * cols), rng);
      std::vector<T> B = random_vector<T>(static_cast<std::size_t>(ldb * cols), rng);
      std::vector<T> want = B;
      for (int64_t i = 0; i < count; ++i)
        for (int64_t c = 0; c < cols; ++c)
          for (int64_t r = 0; r < rows; ++r) {
            T& b = B[static_cast<std::size_t>(i * 3 * rows + r + c * ldb)];
            const T a = A[static_cast<std::size_t>(i * rows + r + c * lda)];
            want[static_cast<std::size_t>(i * 3 * rows + r + c * ldb)] = a + beta * b;
            if (zero_beta) b = nan_value<T>();  // must not be read
          }
      for (const Device* dev : {&host(), &gpu()}) {
        SCOPED_TRACE(dev->name());
        const std::vector<T> got = on<T>(*dev, A, B, [&](const T* a, T* b) {
          kernels::add_blocks<T>(*dev, count, rows, cols, a, lda, rows, beta, b, ldb, 3 * rows);
        });
        dev->synchronize();
        double worst = 0;
        for (std::size_t t = 0; t < got.size(); ++t)
          worst = std::max<double>(worst, std::abs(got[t] - want[t]) / (1 + std::abs(want[t])));
        EXPECT_LE(worst, 4 * eps<T>());  // one multiply-add: a fused one may round once less
      }
    }
}

// Q R for geqrf's output (R on and above the diagonal, the reflectors below it, tau), in
// double (complex double): H(0) ... H(k-1) applied to R, H(j) = I - tau_j v_j v_j^H.
template <Scalar T>
std::vector<Wide> q_times_r(int64_t m, int64_t n, const std::vector<T>& F, int64_t lda,
                            const T* tau) {
  const auto at = [&](int64_t r, int64_t c) {
    const T f = F[static_cast<std::size_t>(r + c * lda)];
    return Wide(std::real(f), std::imag(f));
  };
  const auto x = [m](int64_t r, int64_t c) { return static_cast<std::size_t>(r + c * m); };
  const int64_t k = std::min(m, n);
  std::vector<Wide> X(static_cast<std::size_t>(m * n));
  for (int64_t c = 0; c < n; ++c)
    for (int64_t r = 0; r <= std::min(c, m - 1); ++r) X[x(r, c)] = at(r, c);
  for (int64_t j = k - 1; j >= 0; --j) {
    const Wide t(std::real(tau[j]), std::imag(tau[j]));
    for (int64_t c = 0; c < n; ++c) {
      Wide s = X[x(j, c)];  // v^H X(:, c), v_j = 1
      for (int64_t r = j + 1; r < m; ++r) s += std::conj(at(r, j)) * X[x(r, c)];
      s *= t;
      X[x(j, c)] -= s;
      for (int64_t r = j + 1; r < m; ++r) X[x(r, c)] -= at(r, j) * s;
    }
  }
  return X;
}

enum class Panel { Random, Zero, Tiny, ZeroColumns };

// An m x n panel of `kind` (random entries times `scale`; ZeroColumns: every seventh column
// zero), leading dimension lda, its pad rows NaN.
template <Scalar T>
std::vector<T> make_panel(int64_t m, int64_t n, int64_t lda, Panel kind, std::mt19937_64& rng,
                          real_type_t<T> scale = 1) {
  std::vector<T> A(static_cast<std::size_t>(lda * n), nan_value<T>());
  for (int64_t c = 0; c < n; ++c)
    for (int64_t r = 0; r < m; ++r) {
      const bool zero = kind == Panel::Zero || (kind == Panel::ZeroColumns && c % 7 == 2);
      A[static_cast<std::size_t>(r + c * lda)] = zero ? T(0) : random_value<T>(rng) * scale;
    }
  return A;
}

TYPED_TEST(Sy2sbBlocks_Cuda, GeqrfFactorsAndMatchesLapack) {
  using T = TypeParam;
  using R = real_type_t<T>;
  auto rng = make_rng();
  struct Case {
    int64_t m, n;
    Panel kind;
  };
  // 1 x 1 to 70000 x 32 (z there: past shared memory at 32 columns, the blocked loop's
  // 16-column panels), m < n, 20, 33 and 64 columns (the 32- and 64-column kernels); past
  // 64 columns the blocked loop (kernels/cuda/sy2sb/sy2sb.cu): 65 (a last panel of one
  // column), 200 (panels that do not divide n), 250 on 100 rows (m < n: the columns past
  // m updated, not factored), 96 on 20000 rows and 64 on 70000 (too tall for the kernel
  // whole in double).
  const std::vector<Case> cases = {
      {1, 1, Panel::Random},          {5, 3, Panel::Random},      {3, 5, Panel::Random},
      {40, 32, Panel::Random},        {300, 20, Panel::Random},   {777, 33, Panel::Random},
      {1000, 64, Panel::Random},      {4100, 32, Panel::Random},  {20000, 32, Panel::Random},
      {70000, 32, Panel::Random},     {3000, 65, Panel::Random},  {5000, 200, Panel::Random},
      {100, 250, Panel::Random},      {20000, 96, Panel::Random}, {70000, 64, Panel::Random},
      {500, 32, Panel::Zero},         {2000, 32, Panel::Tiny},    {2000, 32, Panel::ZeroColumns},
      {1500, 130, Panel::ZeroColumns}};
  for (const auto& [m, n, kind] : cases) {
    SCOPED_TRACE(
        detail::concat("m=", m, " n=", n, " kind=", static_cast<int>(kind), " ", seed_text()));
    const int64_t lda = m + 3, k = std::min(m, n);
    // Tiny: entries whose squares underflow (below the three-sum norm's small threshold).
    const R scale = kind == Panel::Tiny ? kernels::detail::NormConstants<R>::tsml / R(1024) : R(1);
    const std::vector<T> A = make_panel<T>(m, n, lda, kind, rng, scale);
    std::vector<T> out = A;  // the factored A, then tau
    out.resize(A.size() + static_cast<std::size_t>(k), nan_value<T>());
    std::vector<T> want;  // the host engine's (LAPACK's) result, first in the loop
    for (const Device* dev : {&host(), &gpu()}) {
      SCOPED_TRACE(dev->name());
      const std::vector<T> got = on<T>(*dev, A, out, [&](const T*, T* f) {
        kernels::geqrf<T>(*dev, m, n, f, lda, f + A.size());
      });
      dev->synchronize();
      const T* tau = got.data() + A.size();
      // Q R = A relative to ||A|| (exactly for a zero panel); the pad rows untouched.
      const std::vector<Wide> X = q_times_r<T>(m, n, got, lda, tau);
      double diff = 0, normA = 0;
      bool pad_kept = true;
      for (int64_t c = 0; c < n; ++c) {
        for (int64_t r = 0; r < m; ++r) {
          const T a = A[static_cast<std::size_t>(r + c * lda)] / scale;
          diff += std::norm(X[static_cast<std::size_t>(r + c * m)] / double(scale) -
                            Wide(std::real(a), std::imag(a)));
          normA += std::norm(a);
        }
        for (int64_t r = m; r < lda; ++r)
          pad_kept = pad_kept && std::isnan(std::real(got[static_cast<std::size_t>(r + c * lda)]));
      }
      const double denom = std::sqrt(normA) * static_cast<double>(m) * eps<T>();
      EXPECT_LE(denom > 0 ? std::sqrt(diff) / denom : std::sqrt(diff), 30.0);
      EXPECT_TRUE(pad_kept);
      // Each H(j) unitary: tau + conj(tau) = |tau|^2 ||v||^2.
      double worst = 0;
      for (int64_t j = 0; j < k; ++j) {
        double vv = 1;
        for (int64_t r = j + 1; r < m; ++r)
          vv += std::norm(got[static_cast<std::size_t>(r + j * lda)]);
        const Wide t(std::real(tau[j]), std::imag(tau[j]));
        worst = std::max(worst, std::abs(2 * t.real() - std::norm(t) * vv));
      }
      EXPECT_LE(worst, 30.0 * static_cast<double>(m) * eps<T>());
      if (want.empty()) {
        want = got;
        continue;
      }
      // R and tau as LAPACK's: the same reflectors and signs, up to rounding.
      double dr = 0, dt = 0;
      for (int64_t c = 0; c < n; ++c)
        for (int64_t r = 0; r <= std::min(c, m - 1); ++r) {
          const std::size_t at = static_cast<std::size_t>(r + c * lda);
          dr += std::norm(got[at] / scale - want[at] / scale);
        }
      for (int64_t j = 0; j < k; ++j)
        dt = std::max<double>(dt, std::abs(tau[j] - want[A.size() + static_cast<std::size_t>(j)]));
      const double tol = 30.0 * static_cast<double>(m) * eps<T>();
      EXPECT_LE(normA > 0 ? std::sqrt(dr / normA) : std::sqrt(dr), tol);
      EXPECT_LE(dt, tol);
    }
  }
}

TYPED_TEST(Sy2sbBlocks_Cuda, GeqrfWyFormsItsCompactWyFactor) {
  using T = TypeParam;
  auto rng = make_rng();
  // The one-kernel form (up to 64 columns, m < n) and the fallback (65 columns, and z's
  // 70000 rows past shared memory), zero and partly zero panels.
  const std::vector<std::tuple<int64_t, int64_t, Panel>> cases = {
      {1, 1, Panel::Random},      {5, 3, Panel::Random},         {3, 5, Panel::Random},
      {40, 32, Panel::Random},    {777, 33, Panel::Random},      {1000, 64, Panel::Random},
      {20000, 32, Panel::Random}, {70000, 32, Panel::Random},    {3000, 65, Panel::Random},
      {500, 32, Panel::Zero},     {2000, 32, Panel::ZeroColumns}};
  for (const auto& [m, n, kind] : cases) {
    SCOPED_TRACE(
        detail::concat("m=", m, " n=", n, " kind=", static_cast<int>(kind), " ", seed_text()));
    const int64_t lda = m + 3, k = std::min(m, n), ldv = m + 1, ldt = k + 2;
    const std::vector<T> A = make_panel<T>(m, n, lda, kind, rng);
    // [A | tau | V | Tm], everything past A NaN: the pads of V and Tm must stay so.
    const std::size_t at_tau = A.size(), at_v = at_tau + static_cast<std::size_t>(k),
                      at_t = at_v + static_cast<std::size_t>(ldv * k);
    std::vector<T> out = A;
    out.resize(at_t + static_cast<std::size_t>(ldt * k), nan_value<T>());
    for (const Device* dev : {&host(), &gpu()}) {
      SCOPED_TRACE(dev->name());
      const std::vector<T> got = on<T>(*dev, A, out, [&](const T*, T* f) {
        kernels::geqrf_wy<T>(*dev, m, n, f, lda, f + at_tau, f + at_v, ldv, f + at_t, ldt);
      });
      const std::vector<T> plain = on<T>(
          *dev, A, out, [&](const T*, T* f) { kernels::geqrf<T>(*dev, m, n, f, lda, f + at_tau); });
      dev->synchronize();
      // A and tau those of geqrf on the same engine, bit for bit (the extra sums leave a
      // column's own alone).
      bool same = true;
      for (std::size_t i = 0; i < at_v; ++i)
        same = same && (got[i] == plain[i] ||
                        (std::isnan(std::real(got[i])) && std::isnan(std::real(plain[i]))));
      EXPECT_TRUE(same);
      // V explicit, exactly; its pad rows and Tm's untouched, Tm's lower triangle zero.
      const auto a = [&](int64_t r, int64_t c) {
        return got[static_cast<std::size_t>(r + c * lda)];
      };
      const auto v = [&](int64_t r, int64_t c) {
        return got[at_v + static_cast<std::size_t>(r + c * ldv)];
      };
      const auto tm = [&](int64_t r, int64_t c) {
        return got[at_t + static_cast<std::size_t>(r + c * ldt)];
      };
      bool v_ok = true, pads_ok = true, lower_zero = true;
      for (int64_t c = 0; c < k; ++c) {
        for (int64_t r = 0; r < m; ++r)
          v_ok = v_ok && v(r, c) == (r > c ? a(r, c) : r == c ? T(1) : T(0));
        pads_ok = pads_ok && std::isnan(std::real(v(m, c)));
        for (int64_t r = k; r < ldt; ++r) pads_ok = pads_ok && std::isnan(std::real(tm(r, c)));
        for (int64_t r = c + 1; r < k; ++r) lower_zero = lower_zero && tm(r, c) == T(0);
      }
      EXPECT_TRUE(v_ok);
      EXPECT_TRUE(pads_ok);
      EXPECT_TRUE(lower_zero);
      // (I - V Tm V^H) R = A relative to ||A|| m eps, in double (complex double).
      const auto wide = [](T x) { return Wide(std::real(x), std::imag(x)); };
      std::vector<Wide> X(static_cast<std::size_t>(m * n)), Y(static_cast<std::size_t>(k * n));
      for (int64_t c = 0; c < n; ++c)
        for (int64_t r = 0; r <= std::min(c, m - 1); ++r)
          X[static_cast<std::size_t>(r + c * m)] = wide(a(r, c));
      for (int64_t c = 0; c < n; ++c) {
        for (int64_t j = 0; j < k; ++j) {  // Y = V^H X
          Wide s = 0;
          for (int64_t r = j; r < m; ++r)
            s += std::conj(wide(v(r, j))) * X[static_cast<std::size_t>(r + c * m)];
          Y[static_cast<std::size_t>(j + c * k)] = s;
        }
        std::vector<Wide> z(static_cast<std::size_t>(k));  // Tm Y(:, c)
        for (int64_t i = 0; i < k; ++i)
          for (int64_t j = i; j < k; ++j)
            z[static_cast<std::size_t>(i)] +=
                wide(tm(i, j)) * Y[static_cast<std::size_t>(j + c * k)];
        for (int64_t j = 0; j < k; ++j)
          for (int64_t r = j; r < m; ++r)
            X[static_cast<std::size_t>(r + c * m)] -=
                wide(v(r, j)) * z[static_cast<std::size_t>(j)];
      }
      double diff = 0, normA = 0;
      for (int64_t c = 0; c < n; ++c)
        for (int64_t r = 0; r < m; ++r) {
          const Wide x = wide(A[static_cast<std::size_t>(r + c * lda)]);
          diff += std::norm(X[static_cast<std::size_t>(r + c * m)] - x);
          normA += std::norm(x);
        }
      const double denom = std::sqrt(normA) * static_cast<double>(m) * eps<T>();
      EXPECT_LE(denom > 0 ? std::sqrt(diff) / denom : std::sqrt(diff), 30.0);
    }
  }
}

}  // namespace
}  // namespace mgblas::testing
