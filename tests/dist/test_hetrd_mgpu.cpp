// SPDX-License-Identifier: BSD-3-Clause
// hetrd_mgpu / sytrd_mgpu on host devices and MPI ranks (the CI side; the GPU side is
// tests/dist/test_hetrd_gpu.cpp): A = Q T Q^H and Q's orthogonality from the reflectors
// left in A, T's eigenvalues against LAPACK's of A, the unread triangle untouched, and
// bad arguments raising on every rank with A left as it was.
#include <gtest/gtest.h>

#include <algorithm>
#include <memory>
#include <string>
#include <vector>

#include "core/context.hpp"
#include <mgblas/mgblas.h>
#include "dist/lapack/hetrd_mgpu.hpp"
#include "tests/dist/c_host_context.hpp"
#include "tests/dist/dist_test_helpers.hpp"
#include "tests/dist/host_contexts.hpp"
#include "tests/dist/hetrd_cases.hpp"
#include "tests/lapack/tridiag_check.hpp"

namespace {

using namespace mgblas;
namespace mt = mgblas::testing;
namespace td = mgblas::testing::dist;
namespace tl = mgblas::testing::lapack;
using td::HostContexts;

template <typename T>
class Hetrd_Host : public ::testing::Test {};
TYPED_TEST_SUITE(Hetrd_Host, mt::TestScalars, mt::PrecisionName);

TYPED_TEST(Hetrd_Host, SizesAndBlockings) {
  using T = TypeParam;
  for (const auto& ctx : HostContexts::all())
    for (int64_t nb : {1, 16, 64})
      for (int64_t n : {int64_t{1}, int64_t{2}, nb - 1, nb, nb + 1, 3 * nb + 5, int64_t{200}}) {
        if (n < 0 || (nb == 1 && n == 200 && ctx->num_devices() > 1)) continue;
        for (Uplo uplo : {Uplo::Lower, Uplo::Upper})
          EXPECT_TRUE(td::reduce_and_check<T>(ctx, n, nb, 0, n % 2 == 0, ReducerKind::Auto,
                                              uplo));
      }
}

TYPED_TEST(Hetrd_Host, PanelNarrowerThanBlock) {
  using T = TypeParam;
  for (const auto& ctx : HostContexts::all()) {
    EXPECT_TRUE(td::reduce_and_check<T>(ctx, 70, 16, 8, false));
    EXPECT_TRUE(td::reduce_and_check<T>(ctx, 133, 64, 16, true));
    EXPECT_TRUE(td::reduce_and_check<T>(ctx, 50, 6, 3, false));
    EXPECT_TRUE(td::reduce_and_check<T>(ctx, 70, 16, 8, false, ReducerKind::Auto, Uplo::Upper));
    EXPECT_TRUE(td::reduce_and_check<T>(ctx, 133, 64, 16, true, ReducerKind::Auto, Uplo::Upper));
  }
}

// Matrices at the ends of the range (issue 32): scaled by 1e+-300 and 1e+-150 (float:
// 1e+-30 and 1e+-15) and mixed (one column and row huge, the rest tiny); the reflectors'
// norms must neither overflow nor underflow, and the eigenvalues and Q must match LAPACK
// as closely as on an unscaled matrix.
TYPED_TEST(Hetrd_Host, ExtremeScales) {
  using T = TypeParam;
  for (const auto& ctx : HostContexts::all())
    for (int64_t n : {17, 129})
      for (const td::MatrixScale& s : td::extreme_scales<T>(n / 3))
        for (Uplo uplo : {Uplo::Lower, Uplo::Upper})
          EXPECT_TRUE(td::reduce_and_check<T>(ctx, n, 16, 0, n % 2 == 0, ReducerKind::Auto,
                                              uplo, s));
}

// A NaN or infinity in the read triangle comes out as a NaN or infinity in d, e or tau
// (documented in dist/lapack/hetrd_mgpu.hpp), on every rank.
TYPED_TEST(Hetrd_Host, NonFiniteInputShows) {
  using T = TypeParam;
  const auto ctx = HostContexts::all()[1];  // several devices per rank
  for (Uplo uplo : {Uplo::Lower, Uplo::Upper})
    for (const auto value : td::nonfinite_values<T>())
      for (const auto& [i, j] : td::nonfinite_positions(37, 37))
        EXPECT_TRUE(td::nonfinite_shows<T>(ctx, uplo, 37, 8, value, i, j));
}

//  +-------------------------------------------------------------------------------+
//  |  A bad argument raises on every rank (the others: RemoteError or the same      |
//  |  error) and leaves A and the outputs as they were.                             |
//  +-------------------------------------------------------------------------------+
TYPED_TEST(Hetrd_Host, BadArgumentsRaiseEverywhere) {
  using T = TypeParam;
  using R = real_type_t<T>;
  auto ctx = HostContexts::all()[1];
  auto rng = mt::make_rng();
  const int64_t n = 40;
  std::vector<T> A = tl::random_hermitian<T>(n, rng, false);
  ctx->comm().bcast(A.data(), A.size() * sizeof(T), 0);
  DistMatrix<T> dA(ctx, BlockCyclic1D(n, n, 8, ctx->global_num_devices()));
  dA.distribute(A.data(), n, 0);
  std::vector<R> d(n, R(3)), e(n - 1, R(3));
  std::vector<T> tau(n - 1, T(3));
  const auto unchanged = [&] {
    std::vector<T> out(A.size());
    dA.collect(out.data(), n, -1);
    bool same = out == A;
    for (R v : d) same = same && v == R(3);
    for (R v : e) same = same && v == R(3);
    for (T v : tau) same = same && v == T(3);
    return same;
  };
  EXPECT_TRUE(td::everywhere(*ctx, td::raises<BadArgument>([&] {
    hetrd_mgpu<T>(static_cast<Uplo>('x'), dA, d.data(), e.data(), tau.data());
  }), "bad uplo"));
  HetrdOptions bad;
  bad.panel = 3;  // does not divide nb = 8
  EXPECT_TRUE(td::everywhere(*ctx, td::raises<BadArgument>([&] {
    hetrd_mgpu<T>(Uplo::Lower, dA, d.data(), e.data(), tau.data(), bad);
  }), "panel"));
  EXPECT_TRUE(td::everywhere(*ctx, td::raises<BadArgument>([&] {
    hetrd_mgpu<T>(Uplo::Lower, dA, d.data(), nullptr, tau.data());
  }), "null e"));
  // One rank alone passes a bad panel: it raises BadArgument, the others RemoteError or
  // DimensionMismatch (the call differs), and no rank starts the reduction.
  HetrdOptions mine;
  mine.panel = ctx->rank() == ctx->nranks() - 1 ? 5 : 4;
  bool raised = false;
  try {
    hetrd_mgpu<T>(Uplo::Lower, dA, d.data(), e.data(), tau.data(), mine);
  } catch (const Error&) {
    raised = true;
  }
  EXPECT_TRUE(td::everywhere(*ctx, raised, "one rank's bad panel"));
  DistVector<R> short_d(ctx, n - 1), ed(ctx, n - 1);
  DistVector<T> tdv(ctx, n - 1);
  EXPECT_TRUE(td::everywhere(*ctx, td::raises<DimensionMismatch>([&] {
    hetrd_mgpu<T>(Uplo::Lower, dA, short_d, ed, tdv);
  }), "short d"));
  DistMatrix<T> rect(ctx, BlockCyclic1D(n, n - 1, 8, ctx->global_num_devices()));
  EXPECT_TRUE(td::everywhere(*ctx, td::raises<DimensionMismatch>([&] {
    hetrd_mgpu<T>(Uplo::Lower, rect, d.data(), e.data(), tau.data());
  }), "not square"));
  EXPECT_TRUE(td::everywhere(*ctx, unchanged(), "A and outputs unchanged"));
}

TEST(Hetrd_Host, ProfileAccountsForTheCall) {
  auto ctx = HostContexts::all()[1];
  auto rng = mt::make_rng();
  const int64_t n = 150;
  std::vector<double> A = tl::random_hermitian<double>(n, rng, false);
  ctx->comm().bcast(A.data(), A.size() * sizeof(double), 0);
  DistMatrix<double> dA(ctx, BlockCyclic1D(n, n, 16, ctx->global_num_devices()));
  dA.distribute(A.data(), n, 0);
  std::vector<double> d(n), e(n - 1), tau(n - 1);
  HetrdProfile prof;
  HetrdOptions opts;
  opts.profile = &prof;
  hetrd_mgpu<double>(Uplo::Lower, dA, d.data(), e.data(), tau.data(), opts);
  const double phases = prof.symv + prof.panel + prof.comm + prof.update;
  EXPECT_TRUE(td::everywhere(*ctx,
                             prof.total > 0 && prof.symv > 0 && prof.panel > 0 &&
                                 prof.update > 0 && prof.comm >= 0 && phases <= prof.total,
                             "profile phases within the total"));
}

//  +-------------------------------------------------------------------------------+
//  |  A = Q D Q^H with a known clustered or graded spectrum D:                       |
//  |  max |sterf(d, e)_i - D_i| / (n ||A||_1 eps) <= 20, and the factorization      |
//  |  checks of the random cases.                                                   |
//  +-------------------------------------------------------------------------------+
TYPED_TEST(Hetrd_Host, ClusteredAndGradedSpectra) {
  using T = TypeParam;
  using R = real_type_t<T>;
  auto ctx = HostContexts::all()[1];
  for (tl::Spectrum kind : {tl::Spectrum::Clustered, tl::Spectrum::Graded})
    for (Uplo uplo : {Uplo::Lower, Uplo::Upper}) {
      std::mt19937_64 rng(mt::test_seed() + static_cast<uint64_t>(kind) * 17 +
                          (uplo == Uplo::Upper));
      const int64_t n = 90;
      const std::vector<R> D = tl::make_spectrum<R>(kind, n, rng);
      std::vector<T> A = tl::matrix_with_spectrum<T>(D, rng);
      ctx->comm().bcast(A.data(), A.size() * sizeof(T), 0);
      DistMatrix<T> dA(ctx, BlockCyclic1D(n, n, 16, ctx->global_num_devices()));
      dA.distribute(A.data(), n, 0);
      std::vector<R> d(n), e(n - 1);
      std::vector<T> tau(n - 1);
      hetrd_mgpu<T>(uplo, dA, d.data(), e.data(), tau.data());
      std::vector<T> out(A.size());
      dA.collect(out.data(), n, -1);
      const auto err = tl::check_tridiagonal<T>(uplo, n, A, out, d, e, tau);
      std::vector<R> w(d);
      tl::sterf<R>(n, w, e);
      double worst = 0;
      for (int64_t i = 0; i < n; ++i) worst = std::max(worst, std::abs(double(w[i]) - double(D[i])));
      const double rel = worst / (double(n) * tl::norm1(n, tl::full_from(uplo, n, A)) * mt::eps<T>());
      EXPECT_TRUE(td::everywhere(*ctx, rel <= 20 && err.residual <= 20 && err.orthogonal <= 20,
                                 "spectrum " + std::to_string(int(kind)) + " uplo " +
                                     to_string(uplo) + ": eigenvalue error " +
                                     std::to_string(rel) + ", residual " +
                                     std::to_string(err.residual)));
    }
}

TEST(Sytrd_Host, RealNameForwards) {
  auto ctx = HostContexts::all()[0];
  auto rng = mt::make_rng();
  const int64_t n = 33;
  std::vector<double> A = tl::random_hermitian<double>(n, rng, false);
  ctx->comm().bcast(A.data(), A.size() * sizeof(double), 0);
  DistMatrix<double> dA(ctx, BlockCyclic1D(n, n, 8, ctx->global_num_devices()));
  dA.distribute(A.data(), n, 0);
  std::vector<double> d(n), e(n - 1), tau(n - 1);
  sytrd_mgpu<double>(Uplo::Lower, dA, d.data(), e.data(), tau.data());
  std::vector<double> out(A.size());
  dA.collect(out.data(), n, -1);
  const auto err = tl::check_tridiagonal<double>(Uplo::Lower, n, A, out, d, e, tau);
  EXPECT_TRUE(td::everywhere(*ctx, err.residual < 20 && err.orthogonal < 20, "sytrd_mgpu"));
}

//  +-------------------------------------------------------------------------------+
//  |  The C names: mgblas_dsytrd_mgpu and mgblas_zhetrd_mgpu give the C++ result;    |
//  |  a bad uplo on one rank only is an error status on every rank.                  |
//  +-------------------------------------------------------------------------------+
TEST(Hetrd_CApi, SytrdHetrdAndOneRanksBadUplo) {
  if (!mgblas::precision_enabled(mgblas::DataType::kFloat64) ||
      !mgblas::precision_enabled(mgblas::DataType::kComplex128))
    GTEST_SKIP() << "needs d and z; MGBLAS_PRECISIONS = " << mgblas::enabled_precisions();
  td::CHostContext owner;  // the C context, destroyed at scope exit
  mgblas_context_t cctx = owner.ctx;
  ASSERT_NE(cctx, nullptr) << mgblas_last_error();
  auto ctx = HostContexts::all()[0];  // its communicator, for the verdicts
  auto rng = mt::make_rng();
  const int64_t n = 45;
  std::vector<double> A = tl::random_hermitian<double>(n, rng, false);
  std::vector<zcomplex> Z = tl::random_hermitian<zcomplex>(n, rng, false, Uplo::Upper);
  ctx->comm().bcast(A.data(), A.size() * sizeof(double), 0);
  ctx->comm().bcast(Z.data(), Z.size() * sizeof(zcomplex), 0);
  mgblas_matrix_t dA = nullptr, dZ = nullptr;
  ASSERT_EQ(mgblas_matrix_create(cctx, MGBLAS_PREC_D, n, n, 8, &dA), MGBLAS_SUCCESS);
  ASSERT_EQ(mgblas_matrix_create(cctx, MGBLAS_PREC_Z, n, n, 16, &dZ), MGBLAS_SUCCESS);
  ASSERT_EQ(mgblas_matrix_distribute(cctx, dA, A.data(), n, 0), MGBLAS_SUCCESS);
  ASSERT_EQ(mgblas_matrix_distribute(cctx, dZ, Z.data(), n, 0), MGBLAS_SUCCESS);

  std::vector<double> d(n), e(n - 1), tau(n - 1), dz(n), ez(n - 1);
  std::vector<zcomplex> tauz(n - 1);
  const mgblas_status_t bad = mgblas_dsytrd_mgpu(
      cctx, ctx->rank() == 0 ? static_cast<mgblas_uplo_t>('X') : MGBLAS_UPLO_LOWER, dA, d.data(),
      e.data(), tau.data());
  EXPECT_TRUE(td::everywhere(*ctx, bad != MGBLAS_SUCCESS, "one rank's bad uplo"));
  ASSERT_EQ(mgblas_dsytrd_mgpu(cctx, MGBLAS_UPLO_LOWER, dA, d.data(), e.data(), tau.data()),
            MGBLAS_SUCCESS) << mgblas_last_error();
  ASSERT_EQ(mgblas_zhetrd_mgpu(cctx, MGBLAS_UPLO_UPPER, dZ, dz.data(), ez.data(),
                               reinterpret_cast<mgblas_complex_double*>(tauz.data())),
            MGBLAS_SUCCESS) << mgblas_last_error();
  std::vector<double> outA(A.size());
  std::vector<zcomplex> outZ(Z.size());
  ASSERT_EQ(mgblas_matrix_collect(cctx, dA, outA.data(), n, -1), MGBLAS_SUCCESS);
  ASSERT_EQ(mgblas_matrix_collect(cctx, dZ, outZ.data(), n, -1), MGBLAS_SUCCESS);
  const auto ea = tl::check_tridiagonal<double>(Uplo::Lower, n, A, outA, d, e, tau);
  const auto ez_ = tl::check_tridiagonal<zcomplex>(Uplo::Upper, n, Z, outZ, dz, ez, tauz);
  EXPECT_TRUE(td::everywhere(*ctx, ea.residual < 20 && ea.orthogonal < 20 && ez_.residual < 20 &&
                                       ez_.orthogonal < 20,
                             "C API sytrd/hetrd residuals"));
  // T's eigenvalues through the C bisection entry, against LAPACK's of T.
  std::vector<double> w(n), ref(d);
  ASSERT_EQ(mgblas_dtridiag_eigenvalues_mgpu(cctx, n, d.data(), e.data(), w.data()), MGBLAS_SUCCESS)
      << mgblas_last_error();
  tl::sterf<double>(n, ref, e);
  double worst = 0;
  for (int64_t i = 0; i < n; ++i) worst = std::max(worst, std::abs(w[i] - ref[i]));
  EXPECT_TRUE(td::everywhere(*ctx, worst <= 100 * n * mt::eps<double>() * tl::norm1(n, A),
                             "C stebz eigenvalues against ?sterf"));
  mgblas_matrix_destroy(dA);
  mgblas_matrix_destroy(dZ);
}

//  +-------------------------------------------------------------------------------+
//  |  mgblas_dsytrd_mgpu_ex: the options reach the reduction (a panel, the host      |
//  |  transport, the profile added to); NULL options are the plain entry's; a bad     |
//  |  transport, a gebrd-only pass, heevd's stages or a bad panel on one rank only    |
//  |  fail every rank                                                               |
//  |  with the option's name and leave the outputs untouched.                       |
//  +-------------------------------------------------------------------------------+
TEST(Hetrd_CApi, OptionsOfTheExEntry) {
  if (!mgblas::precision_enabled(mgblas::DataType::kFloat64))
    GTEST_SKIP() << "needs d; MGBLAS_PRECISIONS = " << mgblas::enabled_precisions();
  td::CHostContext owner;  // the C context, destroyed at scope exit
  mgblas_context_t cctx = owner.ctx;
  ASSERT_NE(cctx, nullptr) << mgblas_last_error();
  auto ctx = HostContexts::all()[0];  // its communicator, for the verdicts
  auto rng = mt::make_rng();
  const int64_t n = 41;
  std::vector<double> A = tl::random_hermitian<double>(n, rng, false);
  ctx->comm().bcast(A.data(), A.size() * sizeof(double), 0);
  mgblas_matrix_t dA = nullptr;
  ASSERT_EQ(mgblas_matrix_create(cctx, MGBLAS_PREC_D, n, n, 16, &dA), MGBLAS_SUCCESS);
  const bool root = ctx->rank() == 0;

  std::vector<double> d(n, -7), e(n - 1, -7), tau(n - 1, -7);
  const auto untouched = [&] {
    return std::all_of(d.begin(), d.end(), [](double v) { return v == -7; }) &&
           std::all_of(tau.begin(), tau.end(), [](double v) { return v == -7; });
  };
  const auto fails_with = [&](const mgblas_reduction_options_t& one, const char* what) {
    const mgblas_reduction_options_t fine{};
    const mgblas_status_t st = mgblas_dsytrd_mgpu_ex(cctx, MGBLAS_UPLO_LOWER, dA, d.data(),
                                                     e.data(), tau.data(), root ? &one : &fine);
    return td::c_error_everywhere(*ctx, st, what, untouched());
  };
  mgblas_reduction_options_t bad{};
  bad.transport = static_cast<mgblas_transport_t>(9);
  EXPECT_TRUE(fails_with(bad, "opts.transport"));
  bad = {};
  bad.pass = MGBLAS_GEBRD_PASS_ONE;
  EXPECT_TRUE(fails_with(bad, "opts.pass"));
  bad = {};
  bad.stages = MGBLAS_STAGES_TWO;  // the eigen-solvers' option
  EXPECT_TRUE(fails_with(bad, "opts.stages"));
  bad = {};
  bad.panel = 7;  // not a divisor of nb = 16
  EXPECT_TRUE(fails_with(bad, "opts.panel"));
  bad.panel = -4;  // negative: an error, not "automatic"
  EXPECT_TRUE(fails_with(bad, "opts.panel"));

  // Options given: panel 4, host transport, a profile that is added to.
  ASSERT_EQ(mgblas_matrix_distribute(cctx, dA, A.data(), n, 0), MGBLAS_SUCCESS);
  mgblas_reduction_profile_t prof{0, 0, 0, 0, 1.0};
  mgblas_reduction_options_t opts{};
  opts.panel = 4;
  opts.transport = MGBLAS_TRANSPORT_HOST;
  opts.profile = &prof;
  ASSERT_EQ(mgblas_dsytrd_mgpu_ex(cctx, MGBLAS_UPLO_LOWER, dA, d.data(), e.data(), tau.data(), &opts),
            MGBLAS_SUCCESS) << mgblas_last_error();
  std::vector<double> outA(A.size());
  ASSERT_EQ(mgblas_matrix_collect(cctx, dA, outA.data(), n, -1), MGBLAS_SUCCESS);
  const auto err = tl::check_tridiagonal<double>(Uplo::Lower, n, A, outA, d, e, tau);
  EXPECT_TRUE(td::everywhere(*ctx, err.residual < 20 && err.orthogonal < 20, "_ex residuals"));
  EXPECT_TRUE(td::everywhere(*ctx,
                             prof.total > 1.0 && prof.products > 0 && prof.panel > 0 &&
                                 prof.update > 0 &&
                                 prof.products + prof.panel + prof.comm + prof.update <= prof.total,
                             "the profile added to"));

  // NULL options: the plain entry's result, bit for bit (host devices are deterministic).
  std::vector<double> d2(n), e2(n - 1), tau2(n - 1), d3(n), e3(n - 1), tau3(n - 1);
  ASSERT_EQ(mgblas_matrix_distribute(cctx, dA, A.data(), n, 0), MGBLAS_SUCCESS);
  ASSERT_EQ(mgblas_dsytrd_mgpu_ex(cctx, MGBLAS_UPLO_LOWER, dA, d2.data(), e2.data(), tau2.data(),
                                  nullptr),
            MGBLAS_SUCCESS) << mgblas_last_error();
  ASSERT_EQ(mgblas_matrix_distribute(cctx, dA, A.data(), n, 0), MGBLAS_SUCCESS);
  ASSERT_EQ(mgblas_dsytrd_mgpu(cctx, MGBLAS_UPLO_LOWER, dA, d3.data(), e3.data(), tau3.data()),
            MGBLAS_SUCCESS) << mgblas_last_error();
  EXPECT_TRUE(td::everywhere(*ctx, d2 == d3 && e2 == e3 && tau2 == tau3, "NULL options"));
  mgblas_matrix_destroy(dA);
}

}  // namespace
