// SPDX-License-Identifier: BSD-3-Clause
// The two-stage reduction on host devices and MPI ranks (the CI side; the GPU side is
// tests/dist/test_hetrd_2stage_gpu.cpp). Stage one (hetrd_band_mgpu): A = Q1 B Q1^H and
// Q1's orthogonality from the reflectors left in A, B's eigenvalues against LAPACK's of
// A, the band returned as LAPACK's band storage, the other triangle untouched, both
// triangles (the upper one on panels that end at block boundaries). Both stages
// (hetrd_2stage_mgpu, heevd_mgpu's two-stage eigenvalues) against LAPACK. Bad arguments
// raise on every rank with A and the outputs left as they were. The C names
// (mgblas_?sytrd_band_mgpu / ?hetrd_band_mgpu, mgblas_?sytrd_2stage_mgpu /
// ?hetrd_2stage_mgpu and their _ex forms) give the C++ calls' results bit for bit, and
// their bad arguments fail on every rank with the argument's name.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <memory>
#include <string>
#include <type_traits>
#include <vector>

#include <mgblas/mgblas.h>

#include "core/context.hpp"
#include "dist/lapack/hetrd_2stage_mgpu.hpp"
#include "tests/dist/c_host_context.hpp"
#include "tests/dist/two_stage_cases.hpp"
#include "tests/dist/dist_test_helpers.hpp"
#include "tests/dist/host_contexts.hpp"

namespace {

using namespace mgblas;
namespace mt = mgblas::testing;
namespace td = mgblas::testing::dist;
namespace tl = mgblas::testing::lapack;
using td::HostContexts;

template <typename T>
class HetrdBand_Host : public ::testing::Test {};
TYPED_TEST_SUITE(HetrdBand_Host, mt::TestScalars, mt::PrecisionName);

// Sizes around the band and the block (n <= band: nothing to reduce; the last panel
// shorter than the band), bands from 1 (the tridiagonal case) to the block.
TYPED_TEST(HetrdBand_Host, SizesBandsAndBlocks) {
  using T = TypeParam;
  for (const auto& ctx : HostContexts::all())
    for (int64_t nb : {8, 32})
      for (int64_t band : {int64_t{1}, int64_t{4}, nb})
        for (int64_t n : {int64_t{0}, int64_t{1}, int64_t{2}, band, band + 1, band + 3, nb + 1,
                          3 * nb + 5, int64_t{130}})
          for (Uplo uplo : {Uplo::Lower, Uplo::Upper})
            EXPECT_TRUE(td::band_reduce_and_check<T>(ctx, n, nb, band, uplo));
}

// Matrices at the ends of the range: the panels' QR must neither overflow nor underflow.
TYPED_TEST(HetrdBand_Host, ExtremeScales) {
  using T = TypeParam;
  for (const auto& ctx : HostContexts::all())
    for (const td::MatrixScale& s : td::extreme_scales<T>(7))
      for (Uplo uplo : {Uplo::Lower, Uplo::Upper})
        EXPECT_TRUE(td::band_reduce_and_check<T>(ctx, 45, 8, 4, uplo, s));
}

// Both stages (the chase on every rank's first device) and heevd_mgpu's two-stage
// eigenvalues: against LAPACK on random, clustered and graded spectra, both triangles.
TYPED_TEST(HetrdBand_Host, TwoStageEigenvalues) {
  using T = TypeParam;
  for (const auto& ctx : HostContexts::all())
    for (Uplo uplo : {Uplo::Lower, Uplo::Upper}) {
      for (int64_t n : {1, 2, 7, 33, 100})
        EXPECT_TRUE(td::two_stage_case<T>(ctx, uplo, n, 16, n % 3 == 0 ? 16 : 4));
      for (tl::Spectrum kind : {tl::Spectrum::Clustered, tl::Spectrum::Graded})
        EXPECT_TRUE(td::two_stage_case<T>(ctx, uplo, 90, 8, 8, &kind));
    }
}

TYPED_TEST(HetrdBand_Host, BadArgumentsRaiseEverywhere) {
  using T = TypeParam;
  auto ctx = HostContexts::all()[1];
  auto rng = mt::make_rng();
  const int64_t n = 40, band = 4, ldab = band + 1;
  std::vector<T> A = tl::random_hermitian<T>(n, rng, false);
  ctx->comm().bcast(A.data(), A.size() * sizeof(T), 0);
  DistMatrix<T> dA(ctx, BlockCyclic1D(n, n, 8, ctx->global_num_devices()));
  dA.distribute(A.data(), n, 0);
  std::vector<T> tau(n - band, T(3)), AB(ldab * n, T(3));
  const auto unchanged = [&] {
    std::vector<T> out(A.size());
    dA.collect(out.data(), n, -1);
    bool same = out == A;
    for (T v : tau) same = same && v == T(3);
    for (T v : AB) same = same && v == T(3);
    return same;
  };
  const auto call = [&](Uplo uplo, int64_t b, T* t, int64_t ld) {
    hetrd_band_mgpu<T>(uplo, dA, b, t, AB.data(), ld);
  };
  EXPECT_TRUE(td::everywhere(*ctx, td::raises<BadArgument>([&] {
    call(static_cast<Uplo>('x'), band, tau.data(), ldab);
  }), "bad uplo"));
  EXPECT_TRUE(td::everywhere(*ctx, td::raises<BadArgument>([&] {
    call(Uplo::Lower, 3, tau.data(), ldab);  // does not divide nb = 8
  }), "band 3"));
  EXPECT_TRUE(td::everywhere(*ctx, td::raises<BadArgument>([&] {
    call(Uplo::Lower, 0, tau.data(), ldab);
  }), "band 0"));
  EXPECT_TRUE(td::everywhere(*ctx, td::raises<BadArgument>([&] {
    call(Uplo::Lower, band, nullptr, ldab);
  }), "null tau"));
  EXPECT_TRUE(td::everywhere(*ctx, td::raises<BadArgument>([&] {
    call(Uplo::Lower, band, tau.data(), band);
  }), "ldab"));
  // One rank alone passes a bad band: it raises BadArgument, the others RemoteError, and
  // no rank starts the reduction.
  bool raised = false;
  try {
    call(Uplo::Lower, ctx->rank() == ctx->nranks() - 1 ? 3 : 4, tau.data(), ldab);
  } catch (const Error&) {
    raised = true;
  }
  EXPECT_TRUE(td::everywhere(*ctx, raised, "one rank's band"));
  DistMatrix<T> rect(ctx, BlockCyclic1D(n, n - 1, 8, ctx->global_num_devices()));
  EXPECT_TRUE(td::everywhere(*ctx, td::raises<DimensionMismatch>([&] {
    hetrd_band_mgpu<T>(Uplo::Lower, rect, band, tau.data(), AB.data(), ldab);
  }), "not square"));
  std::vector<real_type_t<T>> d(n, 3), e(n, 3);
  HetrdOptions bad;
  bad.band = 5;
  EXPECT_TRUE(td::everywhere(*ctx, td::raises<BadArgument>([&] {
    hetrd_2stage_mgpu<T>(Uplo::Lower, dA, d.data(), e.data(), bad);
  }), "two-stage band 5"));
  EXPECT_TRUE(td::everywhere(*ctx, td::raises<BadArgument>([&] {
    hetrd_2stage_mgpu<T>(Uplo::Lower, dA, d.data(), nullptr);
  }), "two-stage null e"));
  // A pending-column width the library cannot use, on the last rank only: every rank
  // raises before anything is written.
  if (ctx->rank() == ctx->nranks() - 1) setenv("MGBLAS_SY2SB_UPDATE", "12x", 1);
  bool env_raised = false;
  try {
    call(Uplo::Lower, band, tau.data(), ldab);
  } catch (const BadArgument& e) {
    env_raised = std::string(e.what()).find("MGBLAS_SY2SB_UPDATE") != std::string::npos;
  } catch (const Error&) {
    env_raised = ctx->rank() != ctx->nranks() - 1;  // the others: RemoteError
  }
  unsetenv("MGBLAS_SY2SB_UPDATE");
  EXPECT_TRUE(td::everywhere(*ctx, env_raised, "bad MGBLAS_SY2SB_UPDATE"));
  EXPECT_TRUE(td::everywhere(*ctx, unchanged(), "A and outputs unchanged"));
}

// ---- the C names -------------------------------------------------------------------

// The C entries of precision T (d: sytrd, z: hetrd); the _ex form where opts is given.
template <typename T>
mgblas_status_t c_2stage(mgblas_context_t ctx, mgblas_uplo_t uplo, mgblas_matrix_t A,
                         real_type_t<T>* d, real_type_t<T>* e,
                         const mgblas_reduction_options_t* opts = nullptr) {
  if constexpr (std::is_same_v<T, double>)
    return opts ? mgblas_dsytrd_2stage_mgpu_ex(ctx, uplo, A, d, e, opts)
                : mgblas_dsytrd_2stage_mgpu(ctx, uplo, A, d, e);
  else
    return opts ? mgblas_zhetrd_2stage_mgpu_ex(ctx, uplo, A, d, e, opts)
                : mgblas_zhetrd_2stage_mgpu(ctx, uplo, A, d, e);
}
template <typename T>
mgblas_status_t c_band(mgblas_context_t ctx, mgblas_uplo_t uplo, mgblas_matrix_t A, int64_t band,
                       T* tau, T* AB, int64_t ldab,
                       const mgblas_reduction_options_t* opts = nullptr) {
  if constexpr (std::is_same_v<T, double>) {
    return opts ? mgblas_dsytrd_band_mgpu_ex(ctx, uplo, A, band, tau, AB, ldab, opts)
                : mgblas_dsytrd_band_mgpu(ctx, uplo, A, band, tau, AB, ldab);
  } else {
    auto* t = reinterpret_cast<mgblas_complex_double*>(tau);
    auto* ab = reinterpret_cast<mgblas_complex_double*>(AB);
    return opts ? mgblas_zhetrd_band_mgpu_ex(ctx, uplo, A, band, t, ab, ldab, opts)
                : mgblas_zhetrd_band_mgpu(ctx, uplo, A, band, t, ab, ldab);
  }
}

// The same matrix on a C context and on the C++ context of as many host devices per rank
// (so both lay A out alike and, host devices being deterministic, compute alike).
template <typename T>
struct CProblem {
  td::CHostContext owner;  // 2 host devices per rank, destroyed at scope exit
  std::shared_ptr<Context> ctx = HostContexts::all()[1];  // 2 host devices per rank too
  int64_t n, nb;
  std::vector<T> A;
  mgblas_matrix_t h = nullptr;

  CProblem(int64_t n_, int64_t nb_) : n(n_), nb(nb_) {
    auto rng = mt::make_rng();
    A = tl::random_hermitian<T>(n, rng, false);
    ctx->comm().bcast(A.data(), A.size() * sizeof(T), 0);
    const auto prec = std::is_same_v<T, double> ? MGBLAS_PREC_D : MGBLAS_PREC_Z;
    EXPECT_EQ(mgblas_matrix_create(owner.ctx, prec, n, n, nb, &h), MGBLAS_SUCCESS)
        << mgblas_last_error();
  }
  ~CProblem() { mgblas_matrix_destroy(h); }
  mgblas_context_t c() const { return owner.ctx; }
  // A back on the C matrix, and a fresh C++ copy of it.
  void reset() const { EXPECT_EQ(mgblas_matrix_distribute(c(), h, A.data(), n, 0), MGBLAS_SUCCESS); }
  DistMatrix<T> cpp() const {
    DistMatrix<T> M(ctx, BlockCyclic1D(n, n, nb, ctx->global_num_devices()));
    M.distribute(A.data(), n, 0);
    return M;
  }
  std::vector<T> collect_c() const {
    std::vector<T> out(A.size());
    EXPECT_EQ(mgblas_matrix_collect(c(), h, out.data(), n, -1), MGBLAS_SUCCESS);
    return out;
  }
  static std::vector<T> collect(DistMatrix<T>& M, int64_t n) {
    std::vector<T> out(static_cast<std::size_t>(n * n));
    M.collect(out.data(), n, -1);
    return out;
  }
};

template <typename T>
class HetrdTwoStage_CApi : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!precision_enabled(data_type_of<T>()))
      GTEST_SKIP() << "precision not built; MGBLAS_PRECISIONS = " << enabled_precisions();
  }
};
using CScalars = ::testing::Types<double, zcomplex>;  // one real, one complex
TYPED_TEST_SUITE(HetrdTwoStage_CApi, CScalars, mt::PrecisionName);

//  +-------------------------------------------------------------------------------+
//  |  C entry == C++ call, bit for bit, on the same matrix and devices:             |
//  |    ?sytrd_2stage / ?hetrd_2stage: d, e and A, with NULL options (band 0,       |
//  |      automatic) and with opts.band = 4 (HetrdOptions::band = 4);                 |
//  |    ?sytrd_band / ?hetrd_band: tau, AB (ldab = band + 2; the padding row kept)    |
//  |      and A; AB NULL returns the same tau and A.                                 |
//  +-------------------------------------------------------------------------------+
TYPED_TEST(HetrdTwoStage_CApi, SameAsTheCppCall) {
  using T = TypeParam;
  using R = real_type_t<T>;
  CProblem<T> p(45, 8);
  const int64_t n = p.n;
  for (Uplo uplo : {Uplo::Lower, Uplo::Upper}) {
    const auto cu = static_cast<mgblas_uplo_t>(static_cast<char>(uplo));
    const std::string tag = std::string("uplo ") + static_cast<char>(uplo);
    for (int64_t band : {int64_t{0}, int64_t{4}}) {
      HetrdOptions o;
      o.band = band;
      DistMatrix<T> M = p.cpp();
      std::vector<R> d(n, -7), e(n - 1, -7), dc(n, -9), ec(n - 1, -9);
      hetrd_2stage_mgpu<T>(uplo, M, d.data(), e.data(), o);
      p.reset();
      mgblas_reduction_options_t opts{};
      opts.band = band;
      ASSERT_EQ(c_2stage<T>(p.c(), cu, p.h, dc.data(), ec.data(), band ? &opts : nullptr),
                MGBLAS_SUCCESS) << mgblas_last_error();
      const bool same = d == dc && e == ec && CProblem<T>::collect(M, n) == p.collect_c();
      EXPECT_TRUE(td::everywhere(*p.ctx, same && d[0] != R(-7),
                                 tag + ", band " + std::to_string(band) + ": 2stage d, e, A"));
    }
    const int64_t band = 4, ldab = band + 2;
    DistMatrix<T> M = p.cpp();
    std::vector<T> tau(n - band, T(-7)), AB(ldab * n, T(-7));
    std::vector<T> tauc(n - band, T(-9)), ABc(ldab * n, T(-7)), tau0(n - band, T(-5));
    hetrd_band_mgpu<T>(uplo, M, band, tau.data(), AB.data(), ldab);
    p.reset();
    ASSERT_EQ(c_band<T>(p.c(), cu, p.h, band, tauc.data(), ABc.data(), ldab), MGBLAS_SUCCESS)
        << mgblas_last_error();
    const std::vector<T> Acpp = CProblem<T>::collect(M, n), Ac = p.collect_c();
    EXPECT_TRUE(td::everywhere(*p.ctx, tau == tauc && AB == ABc && Acpp == Ac && AB[0] != T(-7),
                               tag + ": band tau, AB, A"));
    p.reset();
    mgblas_reduction_options_t opts{};
    opts.transport = MGBLAS_TRANSPORT_HOST;
    ASSERT_EQ(c_band<T>(p.c(), cu, p.h, band, tau0.data(), nullptr, 0, &opts), MGBLAS_SUCCESS)
        << mgblas_last_error();
    EXPECT_TRUE(td::everywhere(*p.ctx, tau0 == tau && p.collect_c() == Acpp,
                               tag + ": band with AB NULL"));
  }
}

// Bad arguments fail on every rank, with the argument's name in the message there, and
// leave A and the outputs as they were: every rank's (NULL d or tau, a band that does not
// divide nb, ldab < band + 1, opts.stages set, opts.band set) and rank 0's alone (uplo).
TYPED_TEST(HetrdTwoStage_CApi, BadArgumentsFailEverywhere) {
  using T = TypeParam;
  using R = real_type_t<T>;
  CProblem<T> p(40, 8);
  p.reset();
  const int64_t n = p.n, band = 4, ldab = band + 1;
  const auto L = MGBLAS_UPLO_LOWER;
  std::vector<R> d(n, 3), e(n - 1, 3);
  std::vector<T> tau(n - band, T(3)), AB(ldab * n, T(3));
  const auto untouched = [&] {
    return std::all_of(d.begin(), d.end(), [](R v) { return v == R(3); }) &&
           std::all_of(e.begin(), e.end(), [](R v) { return v == R(3); }) &&
           std::all_of(tau.begin(), tau.end(), [](T v) { return v == T(3); }) &&
           std::all_of(AB.begin(), AB.end(), [](T v) { return v == T(3); }) &&
           p.collect_c() == p.A;
  };
  const auto fails = [&](mgblas_status_t st, const char* name, const std::string& what) {
    const std::string msg = mgblas_last_error();
    return td::everywhere(*p.ctx, st == MGBLAS_ERROR_BAD_ARGUMENT &&
                                      msg.find(name) != std::string::npos && untouched(),
                          what + ": status " + std::to_string(st) + ", '" + msg + "'");
  };
  mgblas_reduction_options_t opts{};
  EXPECT_TRUE(fails(c_2stage<T>(p.c(), L, p.h, nullptr, e.data()), "'d'", "2stage NULL d"));
  opts.band = 3;  // does not divide nb = 8
  EXPECT_TRUE(fails(c_2stage<T>(p.c(), L, p.h, d.data(), e.data(), &opts), "opts.band",
                    "2stage opts.band 3"));
  opts = {};
  opts.stages = MGBLAS_STAGES_TWO;  // an eigen-solver's option
  EXPECT_TRUE(fails(c_2stage<T>(p.c(), L, p.h, d.data(), e.data(), &opts), "opts.stages",
                    "2stage opts.stages"));
  EXPECT_TRUE(fails(c_band<T>(p.c(), L, p.h, band, nullptr, AB.data(), ldab), "'tau'",
                    "band NULL tau"));
  EXPECT_TRUE(fails(c_band<T>(p.c(), L, p.h, 3, tau.data(), AB.data(), ldab), "'band'",
                    "band 3"));
  EXPECT_TRUE(fails(c_band<T>(p.c(), L, p.h, band, tau.data(), AB.data(), band), "'ldab'",
                    "ldab = band"));
  opts = {};
  opts.stages = static_cast<mgblas_stages_t>(7);
  EXPECT_TRUE(fails(c_band<T>(p.c(), L, p.h, band, tau.data(), AB.data(), ldab, &opts),
                    "opts.stages", "band opts.stages 7"));
  // Rank 0's bad uplo: an error status on every rank, rank 0's message naming it
  // (untouched() makes C calls, which reset the last error: it is read first).
  const bool root = p.ctx->rank() == 0;
  const auto u = root ? static_cast<mgblas_uplo_t>('X') : L;
  const auto fails_on_every_rank = [&](mgblas_status_t st, const std::string& what) {
    const std::string msg = mgblas_last_error();
    const bool named = !root || msg.find("'uplo'") != std::string::npos;
    return td::everywhere(*p.ctx, st != MGBLAS_SUCCESS && named && untouched(),
                          what + ": status " + std::to_string(st) + ", '" + msg + "'");
  };
  EXPECT_TRUE(fails_on_every_rank(c_2stage<T>(p.c(), u, p.h, d.data(), e.data()),
                                  "2stage, rank 0's uplo"));
  EXPECT_TRUE(fails_on_every_rank(c_band<T>(p.c(), u, p.h, band, tau.data(), AB.data(), ldab),
                                  "band, rank 0's uplo"));
}

}  // namespace
