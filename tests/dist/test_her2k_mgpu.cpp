// SPDX-License-Identifier: BSD-3-Clause
// her2k_mgpu / syr2k_mgpu on host devices and MPI ranks, against the definition computed
// on the gathered matrix; the other triangle keeps its NaN poison, beta = 0 overwrites a
// NaN-poisoned triangle, bad arguments raise on every rank.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <vector>

#include "dist/lapack/her2k_mgpu.hpp"
#include "tests/dist/dist_test_helpers.hpp"
#include "tests/dist/host_contexts.hpp"

namespace {

using namespace mgblas;
namespace mt = mgblas::testing;
namespace td = mgblas::testing::dist;
using td::HostContexts;

template <typename T>
class Rank2k_Host : public ::testing::Test {};
TYPED_TEST_SUITE(Rank2k_Host, mt::TestScalars, mt::PrecisionName);

bool in_triangle(Uplo uplo, int64_t i, int64_t j) { return uplo == Uplo::Lower ? i >= j : i <= j; }

//  +-------------------------------------------------------------------------------+
//  |  herm: C_ref = alpha A B^H + conj(alpha) B A^H + beta C0 on the uplo triangle  |
//  |  sym:  C_ref = alpha A B^T + alpha B A^T + beta C0                             |
//  |  err = max |C - C_ref| / ((2 k |alpha| max|A| max|B| + |beta| max|C0|) eps)     |
//  |  passes when err <= 10 (k + 2); outside the triangle C is bitwise the input    |
//  +-------------------------------------------------------------------------------+
template <Scalar T>
bool check_case(const std::shared_ptr<Context>& ctx, bool herm, Uplo uplo, int64_t n, int64_t k,
                int64_t nb, bool beta_zero, bool real_alpha = false, int64_t pad = 0) {
  std::mt19937_64 rng(mt::test_seed() + static_cast<uint64_t>(n * 7919 + k * 31 + nb));
  std::vector<T> A = mt::random_vector<T>(static_cast<std::size_t>(n * k), rng);
  std::vector<T> B = mt::random_vector<T>(static_cast<std::size_t>(n * k), rng);
  std::vector<T> C0 = mt::random_vector<T>(static_cast<std::size_t>(n * n), rng);
  T alpha = mt::random_scalar<T>(rng);
  if (real_alpha) alpha = std::real(alpha);  // one GEMM of inner dimension 2k per part
  T beta = beta_zero ? T(0) : mt::random_scalar<T>(rng);
  if (herm) beta = std::real(beta);
  for (int64_t j = 0; j < n; ++j)
    for (int64_t i = 0; i < n; ++i)
      if (!in_triangle(uplo, i, j) || beta_zero) C0[i + j * n] = mt::nan_value<T>();
  ctx->comm().bcast(A.data(), A.size() * sizeof(T), 0);
  ctx->comm().bcast(B.data(), B.size() * sizeof(T), 0);
  ctx->comm().bcast(C0.data(), C0.size() * sizeof(T), 0);
  DistMatrix<T> C(ctx, BlockCyclic1D(n, n, nb, ctx->global_num_devices()));
  C.distribute(C0.data(), std::max<int64_t>(1, n), 0);
  const int64_t ld = std::max<int64_t>(1, n);
  // pad > 0: A and B are passed with lda = n + pad and ldb = n + 2 pad, NaN in the rows
  // between (read by mistake, they would reach C).
  const int64_t lda = ld + pad, ldb = ld + 2 * pad;
  std::vector<T> Ap(static_cast<std::size_t>(lda * k), mt::nan_value<T>());
  std::vector<T> Bp(static_cast<std::size_t>(ldb * k), mt::nan_value<T>());
  for (int64_t l = 0; l < k; ++l)
    for (int64_t i = 0; i < n; ++i) {
      Ap[i + l * lda] = A[i + l * n];
      Bp[i + l * ldb] = B[i + l * n];
    }
  if (herm)
    her2k_mgpu<T>(uplo, k, alpha, Ap.data(), lda, Bp.data(), ldb, std::real(beta), C);
  else
    syr2k_mgpu<T>(uplo, k, alpha, Ap.data(), lda, Bp.data(), ldb, beta, C);
  std::vector<T> out(C0.size());
  C.collect(out.data(), ld, -1);

  const auto op = [&](T v) { return herm ? conj(v) : v; };
  const T alpha2 = herm ? conj(alpha) : alpha;
  double worst = 0, amax = 0, bmax = 0, cmax = 0;
  for (T v : A) amax = std::max(amax, double(std::abs(v)));
  for (T v : B) bmax = std::max(bmax, double(std::abs(v)));
  bool untouched = true;
  for (int64_t j = 0; j < n; ++j)
    for (int64_t i = 0; i < n; ++i) {
      const T c = out[i + j * n];
      if (!in_triangle(uplo, i, j)) {
        untouched = untouched && mt::is_nan(c);
        continue;
      }
      T ref = beta_zero ? T(0) : beta * C0[i + j * n];
      if (!beta_zero) cmax = std::max(cmax, double(std::abs(C0[i + j * n])));
      for (int64_t l = 0; l < k; ++l)
        ref += alpha * A[i + l * n] * op(B[j + l * n]) + alpha2 * B[i + l * n] * op(A[j + l * n]);
      if (herm && i == j) ref = std::real(ref);
      worst = std::max(worst, mt::is_nan(c) ? 1e300 : double(std::abs(c - ref)));
    }
  const double scale = (2.0 * k * std::abs(alpha) * amax * bmax + std::abs(beta) * cmax) *
                       mt::eps<T>();
  const double err = scale > 0 ? worst / scale : worst;
  return td::everywhere(*ctx, untouched && err <= 10.0 * (k + 2),
                        "n " + std::to_string(n) + " k " + std::to_string(k) + " nb " +
                            std::to_string(nb) + " err " + std::to_string(err) +
                            (untouched ? "" : " other triangle written"));
}

TYPED_TEST(Rank2k_Host, BothTrianglesBothKinds) {
  using T = TypeParam;
  for (const auto& ctx : HostContexts::all())
    for (bool herm : {true, false})
      for (Uplo uplo : {Uplo::Lower, Uplo::Upper})
        for (auto [n, k, nb] : {std::tuple<int64_t, int64_t, int64_t>{0, 3, 4}, {1, 1, 1},
                                {17, 5, 4}, {64, 16, 16}, {70, 3, 32}, {45, 0, 8}})
          for (bool beta_zero : {false, true})
            EXPECT_TRUE(check_case<T>(ctx, herm, uplo, n, k, nb, beta_zero));
}

// Runs of columns wider than the host engine's diagonal block (128,
// detail::rank2k_diagonal_block) are halved into diagonal blocks and GEMMs: nb >= n gives
// one run of 1100 columns (several halvings, uneven splits), nb = 600 runs of 600 and 500.
// Real alpha takes the stacked single GEMM, complex alpha (c, z) the two GEMMs.
TYPED_TEST(Rank2k_Host, WideRunsSplitIntoGemms) {
  using T = TypeParam;
  const auto ctx = HostContexts::all().front();
  for (bool herm : {true, false})
    for (Uplo uplo : {Uplo::Lower, Uplo::Upper})
      for (int64_t nb : {2048, 600})
        for (bool real_alpha : {true, false})
          EXPECT_TRUE(check_case<T>(ctx, herm, uplo, 1100, 6, nb, false, real_alpha));
}

// A and B with leading dimensions beyond n (NaN between): the factors are stacked from
// their n rows only.
TYPED_TEST(Rank2k_Host, PaddedFactors) {
  using T = TypeParam;
  for (const auto& ctx : HostContexts::all())
    for (bool herm : {true, false})
      for (Uplo uplo : {Uplo::Lower, Uplo::Upper})
        for (auto [n, nb] : {std::pair<int64_t, int64_t>{70, 16}, {300, 512}})
          EXPECT_TRUE(check_case<T>(ctx, herm, uplo, n, 5, nb, false, true, 3));
}

TEST(Rank2k_Host, BadArgumentsRaiseEverywhere) {
  auto ctx = HostContexts::all()[1];
  const int64_t n = 20;
  DistMatrix<double> C(ctx, BlockCyclic1D(n, n, 4, ctx->global_num_devices()));
  std::vector<double> A(n * 2, 1.0);
  EXPECT_TRUE(td::everywhere(*ctx, td::raises<BadArgument>([&] {
    her2k_mgpu<double>(Uplo::Lower, 2, 1.0, A.data(), n - 1, A.data(), n, 1.0, C);
  }), "lda"));
  EXPECT_TRUE(td::everywhere(*ctx, td::raises<BadArgument>([&] {
    her2k_mgpu<double>(Uplo::Lower, -1, 1.0, A.data(), n, A.data(), n, 1.0, C);
  }), "k"));
  EXPECT_TRUE(td::everywhere(*ctx, td::raises<BadArgument>([&] {
    her2k_mgpu<double>(Uplo::Lower, 2, 1.0, nullptr, n, A.data(), n, 1.0, C);
  }), "null A"));
  // One rank alone passes another alpha: the ranks would write different results.
  bool raised = false;
  try {
    her2k_mgpu<double>(Uplo::Lower, 2, ctx->rank() == 0 ? 1.0 : 2.0, A.data(), n, A.data(), n,
                       1.0, C);
  } catch (const Error&) {
    raised = true;
  }
  EXPECT_TRUE(td::everywhere(*ctx, raised || ctx->nranks() == 1, "alpha differs by rank"));
}

}  // namespace
