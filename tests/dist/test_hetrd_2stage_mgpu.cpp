// SPDX-License-Identifier: BSD-3-Clause
// The two-stage reduction on host devices and MPI ranks (the CI side; the GPU side is
// tests/dist/test_hetrd_2stage_gpu.cpp). Stage one (hetrd_band_mgpu): A = Q1 B Q1^H and
// Q1's orthogonality from the reflectors left in A, B's eigenvalues against LAPACK's of
// A, the band returned as LAPACK's band storage, the other triangle untouched, both
// triangles (the upper one on panels that end at block boundaries). Both stages
// (hetrd_2stage_mgpu, heevd_mgpu's two-stage eigenvalues) against LAPACK. Bad arguments
// raise on every rank with A and the outputs left as they were.
#include <gtest/gtest.h>

#include <memory>
#include <vector>

#include "core/context.hpp"
#include "dist/lapack/hetrd_2stage_mgpu.hpp"
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
  EXPECT_TRUE(td::everywhere(*ctx, unchanged(), "A and outputs unchanged"));
}

}  // namespace
