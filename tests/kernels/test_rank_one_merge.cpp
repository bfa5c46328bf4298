// SPDX-License-Identifier: BSD-3-Clause
// The merge arithmetic of the GPU divide and conquer (kernels/detail/rank_one_merge.hpp)
// run on the host: deflation, the secular roots, Gu and Eisenstat's vectors and the
// deflation's rotations give the eigenpairs of D + rho z z^T. Checked against the
// definition (residual and orthogonality in units of m eps) and LAPACK ?syev's
// eigenvalues, on fresh random problems, clustered poles (rotations), tiny weights
// (deflation), graded poles and a negligible coupling.
#include <gtest/gtest.h>

#include <lapacke.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <iostream>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "core/error.hpp"
#include "kernels/detail/rank_one_merge.hpp"
#include "tests/kernels/host_test_helpers.hpp"

namespace mgblas::testing {
namespace {

namespace kd = kernels::detail;

enum class Poles { Random, Clustered, TinyWeights, Graded, Negligible };

const char* name(Poles p) {
  switch (p) {
    case Poles::Random: return "random";
    case Poles::Clustered: return "clustered";
    case Poles::TinyWeights: return "tiny weights";
    case Poles::Graded: return "graded";
    case Poles::Negligible: return "negligible coupling";
  }
  return "?";
}

// The eigenvectors of D + rho z z^T (m x m, column-major, ascending eigenvalues in w),
// assembled as the CUDA engine does: W = S [U 0; 0 I] P.
template <typename R>
void merge_on_host(int64_t m, int64_t n1, const std::vector<R>& d, const std::vector<R>& z,
                   R rho, std::vector<R>& w, std::vector<R>& W) {
  const kd::MergePlan<R> p = kd::deflate_merge<R>(m, n1, d.data(), z.data(), rho);
  const auto k = static_cast<int64_t>(p.kept.size());
  ASSERT_EQ(k + static_cast<int64_t>(p.dropped.size()), m);
  for (int64_t j = 1; j < k; ++j) ASSERT_LT(p.dk[j - 1], p.dk[j]) << "poles not ascending";
  std::vector<int64_t> origin(static_cast<std::size_t>(k));
  std::vector<R> tau(static_cast<std::size_t>(k)), zhat(static_cast<std::size_t>(k));
  for (int64_t j = 0; j < k; ++j)
    kd::secular_root(k, p.dk.data(), p.zk.data(), p.rho, j, &origin[j], &tau[j]);
  for (int64_t r = 0; r < k; ++r)
    zhat[r] = kd::gu_eisenstat_weight(k, p.dk.data(), p.zk.data(), p.rho, origin.data(),
                                      tau.data(), r);
  // Columns in ascending order of their eigenvalues.
  struct Col { R value; int64_t src; };
  std::vector<Col> cols;
  for (int64_t j = 0; j < k; ++j) cols.push_back({p.dk[origin[j]] + tau[j], j});
  for (std::size_t t = 0; t < p.dropped.size(); ++t)
    cols.push_back({p.dropped_value[t], -1 - p.dropped[t]});
  std::stable_sort(cols.begin(), cols.end(), [](const Col& a, const Col& b) { return a.value < b.value; });
  W.assign(static_cast<std::size_t>(m * m), R(0));
  w.resize(static_cast<std::size_t>(m));
  for (int64_t c = 0; c < m; ++c) {
    w[c] = cols[c].value;
    R* col = W.data() + c * m;
    if (cols[c].src >= 0) {
      const int64_t j = cols[c].src;
      const R inv = kd::vector_inverse_norm(k, p.dk.data(), zhat.data(), origin[j], tau[j]);
      for (int64_t r = 0; r < k; ++r)
        col[p.kept[r]] = zhat[r] / kd::pole_gap(p.dk.data(), r, origin[j], tau[j]) * inv;
    } else {
      col[-1 - cols[c].src] = R(1);
    }
    for (auto t = static_cast<int64_t>(p.rotations.size()) - 1; t >= 0; --t) {
      const auto& g = p.rotations[t];
      const R a = col[g.p], b = col[g.q];
      col[g.p] = g.c * a - g.s * b;
      col[g.q] = g.s * a + g.c * b;
    }
  }
}

template <typename R>
void check_merge(Poles kind, int64_t m, std::mt19937_64& rng) {
  SCOPED_TRACE(detail::concat(name(kind), " m=", m, ", ", seed_text()));
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  const int64_t n1 = m / 2;
  std::vector<R> d(static_cast<std::size_t>(m)), z(static_cast<std::size_t>(m));
  R rho = static_cast<R>(0.5 + 0.5 * std::abs(u(rng)));
  for (int64_t i = 0; i < m; ++i) {
    z[i] = static_cast<R>(u(rng));
    switch (kind) {
      case Poles::Random: case Poles::TinyWeights: case Poles::Negligible:
        d[i] = static_cast<R>(u(rng)); break;
      case Poles::Clustered:  // a handful of values, repeated in both halves
        d[i] = static_cast<R>(std::floor(4 * u(rng)) / 4); break;
      case Poles::Graded:
        d[i] = static_cast<R>(u(rng) * std::pow(10.0, -8.0 * i / m)); break;
    }
    if (kind == Poles::TinyWeights && i % 3 == 0) z[i] *= std::numeric_limits<R>::epsilon() / 64;
  }
  if (kind == Poles::Negligible) rho = std::numeric_limits<R>::epsilon() / 1024;
  std::sort(d.begin(), d.begin() + n1);
  std::sort(d.begin() + n1, d.end());
  std::vector<R> w, W;
  merge_on_host<R>(m, n1, d, z, rho, w, W);
  if (::testing::Test::HasFatalFailure()) return;

  // M = D + rho z z^T in double; residual ||M W - W diag(w)||_max and ||I - W^T W||_max.
  std::vector<double> M(static_cast<std::size_t>(m * m));
  double normM = 0;
  for (int64_t j = 0; j < m; ++j)
    for (int64_t i = 0; i < m; ++i) {
      M[i + j * m] = double(rho) * z[i] * z[j] + (i == j ? double(d[i]) : 0.0);
      normM = std::max(normM, std::abs(M[i + j * m]));
    }
  double res = 0, orth = 0;
  for (int64_t j = 0; j < m; ++j)
    for (int64_t i = 0; i < m; ++i) {
      double mw = 0, ww = 0;
      for (int64_t l = 0; l < m; ++l) {
        mw += M[i + l * m] * W[l + j * m];
        ww += double(W[l + i * m]) * W[l + j * m];
      }
      res = std::max(res, std::abs(mw - double(w[j]) * W[i + j * m]));
      orth = std::max(orth, std::abs(ww - (i == j ? 1.0 : 0.0)));
    }
  const double eps = std::numeric_limits<R>::epsilon();
  EXPECT_LE(res / (m * eps * normM), 10.0) << "residual";
  EXPECT_LE(orth / (m * eps), 10.0) << "orthogonality";
  // Eigenvalues against LAPACK's dense solver on M.
  std::vector<double> A = M, ref(static_cast<std::size_t>(m));
  ASSERT_EQ(LAPACKE_dsyev(LAPACK_COL_MAJOR, 'N', 'L', static_cast<lapack_int>(m), A.data(),
                          static_cast<lapack_int>(m), ref.data()), 0);
  double err = 0;
  for (int64_t i = 0; i < m; ++i) err = std::max(err, std::abs(w[i] - ref[i]));
  EXPECT_LE(err / (m * eps * normM), 10.0) << "eigenvalues vs ?syev";
  for (int64_t i = 1; i < m; ++i) EXPECT_LE(w[i - 1], w[i]);
}

template <typename R>
class RankOneMerge : public ::testing::Test {};
using Reals = ::testing::Types<float, double>;
TYPED_TEST_SUITE(RankOneMerge, Reals);

TYPED_TEST(RankOneMerge, EveryKindAndOrder) {
  auto rng = make_rng();
  for (Poles kind : {Poles::Random, Poles::Clustered, Poles::TinyWeights, Poles::Graded,
                     Poles::Negligible})
    for (int64_t m : {2, 3, 5, 16, 33, 100, 257}) check_merge<TypeParam>(kind, m, rng);
}

TYPED_TEST(RankOneMerge, SecularRootLiesBetweenItsPoles) {
  using R = TypeParam;
  auto rng = make_rng();
  std::uniform_real_distribution<double> u(0.0, 1.0);
  const int64_t k = 64;
  std::vector<R> d(k), z(k);
  R norm = 0;
  for (int64_t i = 0; i < k; ++i) {
    d[i] = static_cast<R>(i) + static_cast<R>(u(rng) * 0.5);
    z[i] = static_cast<R>(0.1 + u(rng));
    norm += z[i] * z[i];
  }
  for (R& v : z) v /= std::sqrt(norm);
  for (int64_t j = 0; j < k; ++j) {
    int64_t o;
    R tau;
    kd::secular_root<R>(k, d.data(), z.data(), R(3), j, &o, &tau);
    const R lambda = d[o] + tau;
    EXPECT_GT(lambda, d[j]);
    if (j + 1 < k) EXPECT_LT(lambda, d[j + 1]);
    EXPECT_TRUE(o == j || o == j + 1);
  }
}

// One plan and scratch reused over merges of changing sizes (as the CUDA engine's levels
// do) give exactly what a fresh deflation gives.
TYPED_TEST(RankOneMerge, ReusedPlanAndScratchMatchAFreshDeflation) {
  using R = TypeParam;
  auto rng = make_rng();
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  kd::MergePlan<R> reused;
  kd::DeflateScratch<R> scratch;
  for (int64_t m : {257, 2, 33, 100, 3, 64}) {
    const int64_t n1 = m / 2;
    std::vector<R> d(static_cast<std::size_t>(m)), z(d.size());
    for (int64_t i = 0; i < m; ++i) {
      d[i] = static_cast<R>(std::floor(6 * u(rng)) / 6);  // repeated poles: rotations
      z[i] = static_cast<R>(i % 5 == 0 ? 0.0 : u(rng));   // zero weights: deflation
    }
    std::sort(d.begin(), d.begin() + n1);
    std::sort(d.begin() + n1, d.end());
    const kd::MergePlan<R> fresh = kd::deflate_merge<R>(m, n1, d.data(), z.data(), R(0.5));
    kd::deflate_merge<R>(m, n1, d.data(), z.data(), R(0.5), reused, scratch);
    SCOPED_TRACE(detail::concat("m=", m, ", ", seed_text()));
    EXPECT_EQ(reused.rho, fresh.rho);
    EXPECT_EQ(reused.kept, fresh.kept);
    EXPECT_EQ(reused.dk, fresh.dk);
    EXPECT_EQ(reused.zk, fresh.zk);
    EXPECT_EQ(reused.dropped, fresh.dropped);
    EXPECT_EQ(reused.dropped_value, fresh.dropped_value);
    ASSERT_EQ(reused.rotations.size(), fresh.rotations.size());
    for (std::size_t t = 0; t < fresh.rotations.size(); ++t) {
      EXPECT_EQ(reused.rotations[t].p, fresh.rotations[t].p);
      EXPECT_EQ(reused.rotations[t].q, fresh.rotations[t].q);
      EXPECT_EQ(reused.rotations[t].c, fresh.rotations[t].c);
      EXPECT_EQ(reused.rotations[t].s, fresh.rotations[t].s);
    }
    EXPECT_FALSE(fresh.rotations.empty() && m > 30) << "no rotation exercised";
  }
}

// Every root is a zero of f to rounding: f changes sign between it and a neighbouring
// float, or |f| is within the error of f's evaluation, max(k, 8) eps (1 + rho sum |z_i^2 /
// (d_i - lambda)|) (the solver sums in another order); and it takes a handful of passes
// on average (the model's steps).
TYPED_TEST(RankOneMerge, SecularRootIsBracketedInFewPasses) {
  using R = TypeParam;
  auto rng = make_rng();
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  for (Poles kind : {Poles::Random, Poles::Clustered, Poles::TinyWeights, Poles::Graded}) {
    SCOPED_TRACE(detail::concat(name(kind), ", ", seed_text()));
    const int64_t m = 301, n1 = m / 2;
    std::vector<R> d(static_cast<std::size_t>(m)), z(d.size());
    for (int64_t i = 0; i < m; ++i) {
      z[i] = static_cast<R>(u(rng));
      d[i] = kind == Poles::Clustered ? static_cast<R>(std::floor(8 * u(rng)) / 8 + 1e-6 * u(rng))
             : kind == Poles::Graded  ? static_cast<R>(u(rng) * std::pow(10.0, -8.0 * i / m))
                                      : static_cast<R>(u(rng));
      if (kind == Poles::TinyWeights && i % 3 == 0) z[i] *= std::numeric_limits<R>::epsilon();
    }
    std::sort(d.begin(), d.begin() + n1);
    std::sort(d.begin() + n1, d.end());
    const kd::MergePlan<R> p = kd::deflate_merge<R>(m, n1, d.data(), z.data(), R(0.75));
    const auto k = static_cast<int64_t>(p.kept.size());
    ASSERT_GT(k, 1);
    const auto f = [&](int64_t o, R tau) {
      return kd::secular_value(k, p.dk.data(), p.zk.data(), p.rho, o, tau);
    };
    int64_t passes = 0;
    double worst = 0;  // |f| over its evaluation error, where the sign does not change
    for (int64_t j = 0; j < k; ++j) {
      int64_t o;
      R tau;
      int evals = 0;
      kd::secular_root<R>(k, p.dk.data(), p.zk.data(), p.rho, j, &o, &tau, kd::SerialReduce{},
                          &evals);
      const R up = std::nextafter(tau, std::numeric_limits<R>::infinity());
      const R down = std::nextafter(tau, -std::numeric_limits<R>::infinity());
      const bool bracketed =
          (f(o, tau) < R(0) && f(o, up) >= R(0)) || (f(o, down) < R(0) && f(o, tau) >= R(0));
      R terms = R(0);
      for (int64_t i = 0; i < k; ++i)
        terms += p.zk[i] * p.zk[i] / std::abs(kd::pole_gap(p.dk.data(), i, o, tau));
      const double noise =
          std::abs(double(f(o, tau))) / (double(std::max<int64_t>(k, 8)) *
                                         std::numeric_limits<R>::epsilon() * (1 + p.rho * terms));
      worst = std::max(worst, bracketed ? 0.0 : noise);
      EXPECT_TRUE(bracketed || noise <= 1.0) << "root " << j << " of " << k << ": f " << f(o, down)
                                             << " " << f(o, tau) << " " << f(o, up);
      EXPECT_LE(evals, 8 * static_cast<int>(sizeof(R)) + kd::kSecularModelSteps + 2);
      passes += evals;
    }
    const double mean = static_cast<double>(passes) / static_cast<double>(k);
    std::cout << "# " << name(kind) << " k=" << k << ": " << mean << " passes per root, worst |f| "
              << worst << " of its error bound\n";
    EXPECT_LE(mean, 8.0) << "passes per root (bisecting the bits took 32 or 64)";
  }
}

}  // namespace
}  // namespace mgblas::testing
