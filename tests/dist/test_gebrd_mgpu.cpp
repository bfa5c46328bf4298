// SPDX-License-Identifier: BSD-3-Clause
// gebrd_mgpu on host devices and MPI ranks (the CI side; the GPU side is
// tests/dist/test_gebrd_gpu.cpp): A = Q B P^H with Q and P formed by LAPACK from the
// reflectors left in A, their orthogonality, B's singular values against LAPACK's of A,
// and bad arguments raising on every rank with A left as it was.
#include <gtest/gtest.h>

#include <algorithm>
#include <memory>
#include <string>
#include <vector>

#include "core/context.hpp"
#include <mgblas/mgblas.h>
#include "dist/lapack/gebrd_mgpu.hpp"
#include "tests/dist/c_host_context.hpp"
#include "tests/dist/dist_test_helpers.hpp"
#include "tests/dist/gebrd_cases.hpp"
#include "tests/dist/host_contexts.hpp"

namespace {

using namespace mgblas;
namespace mt = mgblas::testing;
namespace td = mgblas::testing::dist;
namespace tl = mgblas::testing::lapack;
using td::HostContexts;

template <typename T>
class Gebrd_Host : public ::testing::Test {};
TYPED_TEST_SUITE(Gebrd_Host, mt::TestScalars, mt::PrecisionName);

// Tall, square and wide (upper and lower bidiagonal) at the sizes around the blocking.
TYPED_TEST(Gebrd_Host, SizesAndBlockings) {
  using T = TypeParam;
  for (const auto& ctx : HostContexts::all())
    for (int64_t nb : {1, 16, 64})
      for (int64_t n : {int64_t{1}, int64_t{2}, nb - 1, nb, nb + 1, 3 * nb + 5, int64_t{120}}) {
        if (n < 1 || (nb == 1 && n == 120 && ctx->num_devices() > 1)) continue;
        EXPECT_TRUE(td::gebrd_random_case<T>(ctx, n, n, nb, 0, n % 2 == 0));
        EXPECT_TRUE(td::gebrd_random_case<T>(ctx, n + 7, n, nb, 0, n % 2 == 1));
        EXPECT_TRUE(td::gebrd_random_case<T>(ctx, n, n + 9, nb, 0, n % 2 == 0));
      }
}

TYPED_TEST(Gebrd_Host, PanelNarrowerThanBlock) {
  using T = TypeParam;
  for (const auto& ctx : HostContexts::all()) {
    EXPECT_TRUE(td::gebrd_random_case<T>(ctx, 90, 70, 16, 8, false));
    EXPECT_TRUE(td::gebrd_random_case<T>(ctx, 70, 90, 16, 8, true));
    EXPECT_TRUE(td::gebrd_random_case<T>(ctx, 150, 133, 64, 16, true));
    EXPECT_TRUE(td::gebrd_random_case<T>(ctx, 50, 50, 6, 3, false));
    EXPECT_TRUE(td::gebrd_random_case<T>(ctx, 41, 60, 6, 2, false));
  }
}

// The fused one-pass row step (GebrdOptions::one_pass: A^H v, the row and A u from one
// read of each column; the host engine's loop) on tall, square and wide shapes (graded
// singular values: below).
TYPED_TEST(Gebrd_Host, OnePassFusedStep) {
  using T = TypeParam;
  for (const auto& ctx : HostContexts::all()) {
    EXPECT_TRUE(td::gebrd_random_case<T>(ctx, 97, 70, 16, 0, false, /*one_pass=*/true));
    EXPECT_TRUE(td::gebrd_random_case<T>(ctx, 70, 97, 16, 8, true, /*one_pass=*/true));
    EXPECT_TRUE(td::gebrd_random_case<T>(ctx, 65, 65, 64, 0, false, /*one_pass=*/true));
    EXPECT_TRUE(td::gebrd_random_case<T>(ctx, 1, 9, 4, 0, true, /*one_pass=*/true));
    EXPECT_TRUE(td::gebrd_random_case<T>(ctx, 12, 2, 4, 0, false, /*one_pass=*/true));
  }
}

// Known singular values spread over 1e-12 .. 1: B's must match them to working accuracy
// relative to ||A||, with the two GEMVs per column and with the fused one-pass step.
TYPED_TEST(Gebrd_Host, GradedSingularValues) {
  using T = TypeParam;
  using R = real_type_t<T>;
  auto ctx = HostContexts::all()[1];
  for (auto [m, n] : {std::pair<int64_t, int64_t>{80, 60}, {60, 80}}) {
    std::mt19937_64 rng(mt::test_seed() + static_cast<uint64_t>(m));
    const int64_t k = std::min(m, n);
    std::vector<R> S(k);
    for (int64_t i = 0; i < k; ++i) S[i] = R(std::pow(10.0, -12.0 * double(i) / double(k - 1)));
    std::vector<T> A = tl::matrix_with_singular_values<T>(m, n, S, rng);
    ctx->comm().bcast(A.data(), A.size() * sizeof(T), 0);
    for (bool one_pass : {false, true})
      EXPECT_TRUE(td::gebrd_and_check<T>(ctx, A, m, n, 16, 0, false, 30, one_pass));
  }
}

// Matrices at the ends of the range (issue 32): scaled by 1e+-300 and 1e+-150 (float:
// 1e+-30 and 1e+-15) and mixed (one column huge, the rest tiny), both bidiagonal forms
// and the one-pass row step; the singular values and Q, P must match LAPACK as closely
// as on an unscaled matrix.
//
// The row step forms A r, Y^H r and U r with the row r before its scale 1 / (alpha -
// beta) is known, so gebrd_mgpu scales A by a power of two first when its largest entry
// is out of LAPACK's drivers' range (as ?gesvd does); 1e+-300 test that.
template <Scalar T>
void gebrd_extreme_cases() {
  for (const auto& ctx : HostContexts::all())
    for (const td::MatrixScale& s : td::extreme_scales<T>(5)) {
      EXPECT_TRUE(td::gebrd_random_case<T>(ctx, 17, 17, 16, 0, false, false, s));
      EXPECT_TRUE(td::gebrd_random_case<T>(ctx, 129, 129, 16, 0, true, false, s));
      EXPECT_TRUE(td::gebrd_random_case<T>(ctx, 70, 45, 16, 0, false, true, s));
      EXPECT_TRUE(td::gebrd_random_case<T>(ctx, 45, 70, 16, 0, true, false, s));
    }
}
TYPED_TEST(Gebrd_Host, ExtremeScales) { gebrd_extreme_cases<TypeParam>(); }

// A NaN or infinity in A comes out as a NaN or infinity in d, e, tauq or taup
// (documented in dist/lapack/gebrd_mgpu.hpp), on every rank, tall and wide.
TYPED_TEST(Gebrd_Host, NonFiniteInputShows) {
  using T = TypeParam;
  const auto ctx = HostContexts::all()[1];  // several devices per rank
  for (const auto& [m, n] : {std::pair<int64_t, int64_t>{37, 23}, {23, 37}})
    for (const auto value : td::nonfinite_values<T>())
      for (const auto& [i, j] : td::nonfinite_positions(m, n))
        EXPECT_TRUE(td::gebrd_nonfinite_shows<T>(ctx, m, n, 8, value, i, j));
}

//  +-------------------------------------------------------------------------------+
//  |  A bad argument raises on every rank (the others: RemoteError or the same      |
//  |  error) and leaves A and the outputs as they were.                             |
//  +-------------------------------------------------------------------------------+
TYPED_TEST(Gebrd_Host, BadArgumentsRaiseEverywhere) {
  using T = TypeParam;
  using R = real_type_t<T>;
  auto ctx = HostContexts::all()[1];
  auto rng = mt::make_rng();
  const int64_t m = 40, n = 30;
  std::vector<T> A = tl::random_general<T>(m, n, rng);
  ctx->comm().bcast(A.data(), A.size() * sizeof(T), 0);
  DistMatrix<T> dA(ctx, BlockCyclic1D(m, n, 8, ctx->global_num_devices()));
  dA.distribute(A.data(), m, 0);
  std::vector<R> d(n, R(3)), e(n - 1, R(3));
  std::vector<T> tq(n, T(3)), tp(n, T(3));
  const auto unchanged = [&] {
    std::vector<T> out(A.size());
    dA.collect(out.data(), m, -1);
    bool same = out == A;
    for (R v : d) same = same && v == R(3);
    for (R v : e) same = same && v == R(3);
    for (T v : tq) same = same && v == T(3);
    for (T v : tp) same = same && v == T(3);
    return same;
  };
  GebrdOptions bad;
  bad.panel = 3;  // does not divide nb = 8
  EXPECT_TRUE(td::everywhere(*ctx, td::raises<BadArgument>([&] {
    gebrd_mgpu<T>(dA, d.data(), e.data(), tq.data(), tp.data(), bad);
  }), "panel"));
  DistMatrix<T> wide_nb(ctx, BlockCyclic1D(m, n, 256, ctx->global_num_devices()));
  GebrdOptions too_wide;
  too_wide.panel = 128;  // divides nb = 256 but is beyond the widest panel, 64
  EXPECT_TRUE(td::everywhere(*ctx, td::raises<BadArgument>([&] {
    gebrd_mgpu<T>(wide_nb, d.data(), e.data(), tq.data(), tp.data(), too_wide);
  }), "panel beyond 64"));
  EXPECT_TRUE(td::everywhere(*ctx, td::raises<BadArgument>([&] {
    gebrd_mgpu<T>(dA, d.data(), e.data(), nullptr, tp.data());
  }), "null tauq"));
  GebrdOptions negative;
  negative.one_pass_min_bytes = -1;
  std::string what;
  try {
    gebrd_mgpu<T>(dA, d.data(), e.data(), tq.data(), tp.data(), negative);
  } catch (const BadArgument& err) {
    what = err.what();
  }
  EXPECT_TRUE(td::everywhere(*ctx, what.find("opts.one_pass_min_bytes") != std::string::npos &&
                                       what.find("-1") != std::string::npos,
                             "negative one_pass_min_bytes named: " + what));
  // Ranks that disagree on the pass (it decides which kernels run per column) stop before
  // the reduction instead of diverging.
  if (ctx->nranks() > 1) {
    GebrdOptions split;
    split.one_pass = ctx->rank() != 0;
    EXPECT_TRUE(td::everywhere(*ctx, td::raises<Error>([&] {
      gebrd_mgpu<T>(dA, d.data(), e.data(), tq.data(), tp.data(), split);
    }), "ranks split on one_pass"));
  }
  // One rank alone passes a bad panel: no rank starts the reduction.
  GebrdOptions mine;
  mine.panel = ctx->rank() == ctx->nranks() - 1 ? 5 : 4;
  EXPECT_TRUE(td::everywhere(*ctx, td::raises<Error>([&] {
    gebrd_mgpu<T>(dA, d.data(), e.data(), tq.data(), tp.data(), mine);
  }), "one rank's bad panel"));
  DistVector<R> short_d(ctx, n - 1), ed(ctx, n - 1);
  DistVector<T> qd(ctx, n), pd(ctx, n);
  EXPECT_TRUE(td::everywhere(*ctx, td::raises<DimensionMismatch>([&] {
    gebrd_mgpu<T>(dA, short_d, ed, qd, pd);
  }), "short d"));
  EXPECT_TRUE(td::everywhere(*ctx, unchanged(), "A and outputs unchanged"));
}

TEST(Gebrd_Host, ProfileAccountsForTheCall) {
  auto ctx = HostContexts::all()[1];
  auto rng = mt::make_rng();
  const int64_t m = 150, n = 120;
  std::vector<double> A = tl::random_general<double>(m, n, rng);
  ctx->comm().bcast(A.data(), A.size() * sizeof(double), 0);
  DistMatrix<double> dA(ctx, BlockCyclic1D(m, n, 16, ctx->global_num_devices()));
  dA.distribute(A.data(), m, 0);
  std::vector<double> d(n), e(n - 1), tq(n), tp(n);
  GebrdProfile prof;
  GebrdOptions opts;
  opts.profile = &prof;
  gebrd_mgpu<double>(dA, d.data(), e.data(), tq.data(), tp.data(), opts);
  const double phases = prof.products + prof.panel + prof.comm + prof.update;
  EXPECT_TRUE(td::everywhere(*ctx,
                             prof.total > 0 && prof.products > 0 && prof.panel > 0 &&
                                 prof.update > 0 && prof.comm >= 0 && phases <= prof.total,
                             "profile phases within the total"));
}

//  +-------------------------------------------------------------------------------+
//  |  The C names: mgblas_dgebrd_mgpu (tall) and mgblas_cgebrd_mgpu (wide) give a     |
//  |  correct reduction; a NULL output on one rank only is an error on every rank.   |
//  +-------------------------------------------------------------------------------+
TEST(Gebrd_CApi, DgebrdCgebrdAndOneRanksNullOutput) {
  if (!mgblas::precision_enabled(mgblas::DataType::kFloat64) ||
      !mgblas::precision_enabled(mgblas::DataType::kComplex64))
    GTEST_SKIP() << "needs d and c; MGBLAS_PRECISIONS = " << mgblas::enabled_precisions();
  td::CHostContext owner;  // the C context, destroyed at scope exit
  mgblas_context_t cctx = owner.ctx;
  ASSERT_NE(cctx, nullptr) << mgblas_last_error();
  auto ctx = HostContexts::all()[0];  // its communicator, for the verdicts
  auto rng = mt::make_rng();
  const int64_t m = 47, n = 33;  // A is m x n, C is n x m
  std::vector<double> A = tl::random_general<double>(m, n, rng);
  std::vector<scomplex> C = tl::random_general<scomplex>(n, m, rng);
  ctx->comm().bcast(A.data(), A.size() * sizeof(double), 0);
  ctx->comm().bcast(C.data(), C.size() * sizeof(scomplex), 0);
  mgblas_matrix_t dA = nullptr, dC = nullptr;
  ASSERT_EQ(mgblas_matrix_create(cctx, MGBLAS_PREC_D, m, n, 8, &dA), MGBLAS_SUCCESS);
  ASSERT_EQ(mgblas_matrix_create(cctx, MGBLAS_PREC_C, n, m, 16, &dC), MGBLAS_SUCCESS);
  ASSERT_EQ(mgblas_matrix_distribute(cctx, dA, A.data(), m, 0), MGBLAS_SUCCESS);
  ASSERT_EQ(mgblas_matrix_distribute(cctx, dC, C.data(), n, 0), MGBLAS_SUCCESS);
  std::vector<double> d(n), e(n - 1), tq(n), tp(n);
  std::vector<float> dc(n), ec(n - 1);
  std::vector<scomplex> tqc(n), tpc(n);
  const mgblas_status_t bad =
      mgblas_dgebrd_mgpu(cctx, dA, d.data(), e.data(), ctx->rank() == 0 ? nullptr : tq.data(), tp.data());
  EXPECT_TRUE(td::everywhere(*ctx, bad != MGBLAS_SUCCESS, "one rank's NULL tauq"));
  ASSERT_EQ(mgblas_dgebrd_mgpu(cctx, dA, d.data(), e.data(), tq.data(), tp.data()), MGBLAS_SUCCESS)
      << mgblas_last_error();
  ASSERT_EQ(mgblas_cgebrd_mgpu(cctx, dC, dc.data(), ec.data(),
                               reinterpret_cast<mgblas_complex_float*>(tqc.data()),
                               reinterpret_cast<mgblas_complex_float*>(tpc.data())),
            MGBLAS_SUCCESS) << mgblas_last_error();
  std::vector<double> outA(A.size());
  std::vector<scomplex> outC(C.size());
  ASSERT_EQ(mgblas_matrix_collect(cctx, dA, outA.data(), m, -1), MGBLAS_SUCCESS);
  ASSERT_EQ(mgblas_matrix_collect(cctx, dC, outC.data(), n, -1), MGBLAS_SUCCESS);
  const auto ea = tl::check_bidiagonal<double>(m, n, A, outA, d, e, tq, tp);
  const auto ec_ = tl::check_bidiagonal<scomplex>(n, m, C, outC, dc, ec, tqc, tpc);
  EXPECT_TRUE(td::everywhere(*ctx, ea.lapack_ok && ec_.lapack_ok && ea.residual < 30 &&
                                       ea.singular < 30 && ec_.residual < 30 &&
                                       ec_.orth_q < 30 && ec_.orth_p < 30,
                             "C API gebrd residuals"));
  mgblas_matrix_destroy(dA);
  mgblas_matrix_destroy(dC);
}

//  +-------------------------------------------------------------------------------+
//  |  mgblas_dgebrd_mgpu_ex: both passes and the host transport give a correct       |
//  |  reduction, the profile is added to; a bad pass, a negative panel or another    |
//  |  routine's option (band, stages) on one rank only fail every rank with the       |
//  |  option's name and leave the outputs untouched.                                |
//  +-------------------------------------------------------------------------------+
TEST(Gebrd_CApi, OptionsOfTheExEntry) {
  if (!mgblas::precision_enabled(mgblas::DataType::kFloat64))
    GTEST_SKIP() << "needs d; MGBLAS_PRECISIONS = " << mgblas::enabled_precisions();
  td::CHostContext owner;  // the C context, destroyed at scope exit
  mgblas_context_t cctx = owner.ctx;
  ASSERT_NE(cctx, nullptr) << mgblas_last_error();
  auto ctx = HostContexts::all()[0];  // its communicator, for the verdicts
  auto rng = mt::make_rng();
  const int64_t m = 39, n = 29;
  std::vector<double> A = tl::random_general<double>(m, n, rng);
  ctx->comm().bcast(A.data(), A.size() * sizeof(double), 0);
  mgblas_matrix_t dA = nullptr;
  ASSERT_EQ(mgblas_matrix_create(cctx, MGBLAS_PREC_D, m, n, 8, &dA), MGBLAS_SUCCESS);
  const bool root = ctx->rank() == 0;
  std::vector<double> d(n, -7), e(n - 1, -7), tq(n, -7), tp(n, -7);
  const auto fails_with = [&](const mgblas_reduction_options_t& one, const char* what) {
    const mgblas_reduction_options_t fine{};
    const mgblas_status_t st = mgblas_dgebrd_mgpu_ex(cctx, dA, d.data(), e.data(), tq.data(),
                                                     tp.data(), root ? &one : &fine);
    return td::c_error_everywhere(
        *ctx, st, what,
        std::all_of(d.begin(), d.end(), [](double v) { return v == -7; }) &&
            std::all_of(tq.begin(), tq.end(), [](double v) { return v == -7; }));
  };
  mgblas_reduction_options_t bad{};
  bad.pass = static_cast<mgblas_gebrd_pass_t>(5);
  EXPECT_TRUE(fails_with(bad, "opts.pass"));
  bad = {};
  bad.panel = -2;
  EXPECT_TRUE(fails_with(bad, "opts.panel"));
  bad = {};
  bad.band = 4;  // the two-stage reduction's option
  EXPECT_TRUE(fails_with(bad, "opts.band"));
  bad = {};
  bad.stages = MGBLAS_STAGES_ONE;  // the eigen-solvers' option
  EXPECT_TRUE(fails_with(bad, "opts.stages"));

  for (mgblas_gebrd_pass_t pass : {MGBLAS_GEBRD_PASS_ONE, MGBLAS_GEBRD_PASS_TWO}) {
    ASSERT_EQ(mgblas_matrix_distribute(cctx, dA, A.data(), m, 0), MGBLAS_SUCCESS);
    mgblas_reduction_profile_t prof{};
    mgblas_reduction_options_t opts{};
    opts.panel = 4;
    opts.transport = MGBLAS_TRANSPORT_HOST;
    opts.pass = pass;
    opts.profile = &prof;
    ASSERT_EQ(mgblas_dgebrd_mgpu_ex(cctx, dA, d.data(), e.data(), tq.data(), tp.data(), &opts),
              MGBLAS_SUCCESS) << mgblas_last_error();
    std::vector<double> outA(A.size());
    ASSERT_EQ(mgblas_matrix_collect(cctx, dA, outA.data(), m, -1), MGBLAS_SUCCESS);
    const auto err = tl::check_bidiagonal<double>(m, n, A, outA, d, e, tq, tp);
    EXPECT_TRUE(td::everywhere(*ctx, err.lapack_ok && err.residual < 30 && err.singular < 30,
                               "_ex residuals, pass " + std::to_string(int(pass))));
    EXPECT_TRUE(td::everywhere(*ctx, prof.total > 0 && prof.products > 0 && prof.panel > 0 &&
                                         prof.products + prof.panel + prof.comm + prof.update <= prof.total,
                               "the profile added to"));
  }
  mgblas_matrix_destroy(dA);
}

}  // namespace
