// SPDX-License-Identifier: BSD-3-Clause
// heevd_mgpu and tridiag_eigenvectors_mgpu on host devices and MPI ranks (the CI side;
// the GPU side is test_heevd_gpu): eigenpairs of random, graded, clustered, Wilkinson,
// glued-Wilkinson and split tridiagonals and of dense Hermitian matrices, every range
// (all, k = 1 at both ends, k = n, a middle slice, a value interval, an empty one), both
// triangles, Z layouts with spare columns that must stay untouched; bad arguments raise
// on every rank with w and Z untouched.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <memory>
#include <vector>

#include "core/error.hpp"
#include "dist/lapack/heevd_mgpu.hpp"
#include "tests/dist/heevd_cases.hpp"
#include "tests/dist/host_contexts.hpp"

namespace {

using namespace mgblas;
namespace mt = mgblas::testing;
namespace td = mgblas::testing::dist;
using td::HostContexts;

template <typename T>
class Heevd_Host : public ::testing::Test {};
TYPED_TEST_SUITE(Heevd_Host, mt::TestScalars, mt::PrecisionName);

TYPED_TEST(Heevd_Host, TridiagonalSpectra) {
  using T = TypeParam;
  using R = real_type_t<T>;
  auto rng = mt::make_rng();
  const R glue = std::sqrt(std::numeric_limits<R>::epsilon());
  for (const auto& ctx : HostContexts::all()) {
    for (int64_t n : {1, 2, 3, 50, 200}) {
      const auto t = mt::make_tridiagonal<R>(mt::Spectrum::Random, n, rng);
      EXPECT_TRUE(td::tridiagonal_case<T>(ctx, t, EigenRange::all(), 7, 0, 0, "random"));
      EXPECT_TRUE(td::tridiagonal_case<T>(ctx, t, EigenRange::index(n / 3, n - 1 - n / 4), 3, 1,
                                          2, "random"));
    }
    for (auto kind : {mt::Spectrum::Wilkinson, mt::Spectrum::Clustered, mt::Spectrum::Graded}) {
      const auto t = mt::make_tridiagonal<R>(kind, kind == mt::Spectrum::Wilkinson ? 21 : 120, rng);
      EXPECT_TRUE(td::tridiagonal_case<T>(ctx, t, EigenRange::all(), 5, 0, 0, mt::to_string(kind)));
      EXPECT_TRUE(td::tridiagonal_case<T>(ctx, t, EigenRange::index(2, 11), 4, 2, 0,
                                          mt::to_string(kind)));
    }
    // Clusters of 6 values across the glued blocks: one root, vectors on every device.
    const auto g = td::glued_wilkinson<R>(6, glue);
    EXPECT_TRUE(td::tridiagonal_case<T>(ctx, g, EigenRange::all(), 8, 0, 0, "glued wilkinson"));
    EXPECT_TRUE(td::tridiagonal_case<T>(ctx, g, EigenRange::value(5.5, 11.0), 2, 1, 3,
                                        "glued wilkinson"));
    // Exact zeros split T into blocks: the root's order is by block, Z's ascending.
    auto s = mt::make_tridiagonal<R>(mt::Spectrum::Random, 90, rng);
    for (int64_t i : {10, 11, 40, 77}) s.e[i] = R(0);
    EXPECT_TRUE(td::tridiagonal_case<T>(ctx, s, EigenRange::all(), 6, 0, 1, "split"));
    EXPECT_TRUE(td::tridiagonal_case<T>(ctx, s, EigenRange::index(20, 60), 6, 2, 0, "split"));
    EXPECT_TRUE(td::tridiagonal_case<T>(ctx, s, EigenRange::value(-0.3, 0.4), 6, 0, 0, "split"));
  }
}

TYPED_TEST(Heevd_Host, DenseRangesAndTriangles) {
  using T = TypeParam;
  for (const auto& ctx : HostContexts::all())
    for (Uplo uplo : {Uplo::Lower, Uplo::Upper})
      for (int64_t n : {1, 2, 37, 130}) {
        const int64_t nb = n > 100 ? 32 : 8;
        EXPECT_TRUE(td::dense_case<T>(ctx, uplo, n, nb, EigenRange::all(), 16, 0));
        EXPECT_TRUE(td::dense_case<T>(ctx, uplo, n, nb, EigenRange::smallest(1), 5, 1));
        EXPECT_TRUE(td::dense_case<T>(ctx, uplo, n, nb, EigenRange::largest(1, n), 5, 0));
        if (n < 3) continue;
        EXPECT_TRUE(td::dense_case<T>(ctx, uplo, n, nb, EigenRange::index(n / 4, n / 2), 3, 2));
        EXPECT_TRUE(td::dense_case<T>(ctx, uplo, n, nb, EigenRange::value(-0.5, 1.0), 7, 0));
        // Far outside the spectrum: no eigenvalue, nothing written.
        EXPECT_TRUE(td::dense_case<T>(ctx, uplo, n, nb, EigenRange::value(1e6, 2e6), 7, 0));
      }
}

TYPED_TEST(Heevd_Host, ClusteredAndGradedSpectra) {
  using T = TypeParam;
  using R = real_type_t<T>;
  namespace tl = mgblas::testing::lapack;
  std::mt19937_64 rng(mt::test_seed() + 11);
  for (tl::Spectrum kind : {tl::Spectrum::Clustered, tl::Spectrum::Graded}) {
    const std::vector<R> D = tl::make_spectrum<R>(kind, 120, rng);
    for (const auto& ctx : HostContexts::all()) {
      EXPECT_TRUE(td::dense_case<T>(ctx, Uplo::Lower, 120, 16, EigenRange::all(), 16, 0, &D));
      EXPECT_TRUE(td::dense_case<T>(ctx, Uplo::Upper, 120, 16, EigenRange::smallest(12), 4, 0,
                                    &D));
    }
  }
}

// With vectors through the two-stage reduction: Z = Q1 Q2 Z_T, Q2 from the chase's
// reflectors (band_to_tridiag_apply_q), Q1 from stage one's; both triangles, bands that
// do and do not divide n, subsets.
TYPED_TEST(Heevd_Host, TwoStageVectors) {
  using T = TypeParam;
  using R = real_type_t<T>;
  namespace tl = mgblas::testing::lapack;
  const Stages two = Stages::Two;
  for (const auto& ctx : HostContexts::all())
    for (Uplo uplo : {Uplo::Lower, Uplo::Upper}) {
      for (int64_t n : {1, 2, 3, 37, 130}) {
        const int64_t nb = n > 100 ? 32 : 8;
        EXPECT_TRUE(td::dense_case<T>(ctx, uplo, n, nb, EigenRange::all(), 16, 0, nullptr, two));
        if (n < 3) continue;
        EXPECT_TRUE(td::dense_case<T>(ctx, uplo, n, nb, EigenRange::smallest(3), 5, 1, nullptr,
                                      two, 4));
        EXPECT_TRUE(td::dense_case<T>(ctx, uplo, n, nb, EigenRange::index(n / 4, n / 2), 3, 2,
                                      nullptr, two, 1));
        EXPECT_TRUE(td::dense_case<T>(ctx, uplo, n, nb, EigenRange::value(-0.5, 1.0), 7, 0,
                                      nullptr, two, 2));
      }
      // n a multiple of the band and of nb; the band as wide as nb.
      EXPECT_TRUE(td::dense_case<T>(ctx, uplo, 96, 16, EigenRange::all(), 16, 0, nullptr, two, 16));
    }
  std::mt19937_64 rng(mt::test_seed() + 17);
  for (tl::Spectrum kind : {tl::Spectrum::Clustered, tl::Spectrum::Graded}) {
    const std::vector<R> D = tl::make_spectrum<R>(kind, 120, rng);
    for (const auto& ctx : HostContexts::all()) {
      EXPECT_TRUE(td::dense_case<T>(ctx, Uplo::Lower, 120, 24, EigenRange::all(), 16, 0, &D,
                                    two, 8));
      EXPECT_TRUE(td::dense_case<T>(ctx, Uplo::Upper, 120, 24, EigenRange::smallest(12), 4, 0,
                                    &D, two, 6));
    }
  }
}

TYPED_TEST(Heevd_Host, ConvenienceForm) {
  using T = TypeParam;
  using R = real_type_t<T>;
  auto ctx = HostContexts::all()[1];
  const int64_t n = 60;
  std::mt19937_64 rng(mt::test_seed() + 3);
  std::vector<T> A = mt::lapack::random_hermitian<T>(n, rng, false);
  ctx->comm().bcast(A.data(), A.size() * sizeof(T), 0);
  std::vector<R> ref;
  mt::lapack::eigenvalues<T>(n, A, ref);
  for (const EigenRange& range : {EigenRange::all(), EigenRange::largest(5, n),
                                  EigenRange::value(-0.2, 0.3)}) {
    DistMatrix<T> dA = td::scatter<T>(ctx, n, n, 16, 0, A);
    Eigensystem<T> es = heevd_mgpu<T>(Uplo::Lower, dA, true, range);
    int64_t first = 0, m = 0;
    td::selected(range, ref, first, m);
    const bool shape = static_cast<int64_t>(es.w.size()) == m && es.Z && es.Z->n() == m &&
                       es.Z->layout().nb() == 16;
    td::EigErrors err =
        shape ? td::eig_errors<T>(n, A, td::gather(*es.Z), es.w, m, ref, first) : td::EigErrors{};
    EXPECT_TRUE(td::everywhere(*ctx, shape && err.ok(), "convenience form: " + err.text()));
    DistMatrix<T> dB = td::scatter<T>(ctx, n, n, 16, 0, A);
    Eigensystem<T> values = heevd_mgpu<T>(Uplo::Lower, dB, false, range);
    EXPECT_TRUE(td::everywhere(*ctx, !values.Z && values.w.size() == es.w.size(),
                               "values only: count"));
  }
}

//  +-------------------------------------------------------------------------------+
//  |  A bad argument raises on every rank and leaves w and Z untouched.              |
//  +-------------------------------------------------------------------------------+
TYPED_TEST(Heevd_Host, BadArgumentsRaiseEverywhere) {
  using T = TypeParam;
  using R = real_type_t<T>;
  auto ctx = HostContexts::all()[1];
  const int64_t n = 24;
  std::mt19937_64 rng(mt::test_seed() + 9);
  std::vector<T> A = mt::lapack::random_hermitian<T>(n, rng, false);
  ctx->comm().bcast(A.data(), A.size() * sizeof(T), 0);
  std::vector<T> Z0(static_cast<std::size_t>(n * n), T(-7));
  DistMatrix<T> Z = td::scatter<T>(ctx, n, n, 4, 0, Z0);
  std::vector<R> w(n, R(-3));
  const auto untouched = [&] {
    return td::gather(Z) == Z0 && std::all_of(w.begin(), w.end(), [](R v) { return v == R(-3); });
  };
  const auto expect = [&]<typename E>(E*, auto&& call, const char* why) {
    DistMatrix<T> dA = td::scatter<T>(ctx, n, n, 8, 0, A);
    EXPECT_TRUE(td::everywhere(*ctx, td::raises<E>([&] { call(dA); }), why));
    EXPECT_TRUE(td::everywhere(*ctx, untouched(), std::string(why) + ": outputs touched"));
  };
  expect(static_cast<BadArgument*>(nullptr),
         [&](DistMatrix<T>& a) { heevd_mgpu<T>(static_cast<Uplo>('x'), a, w.data(), &Z); },
         "bad uplo");
  EigenRange bad_kind;
  bad_kind.kind = static_cast<EigenRange::Kind>('X');
  expect(static_cast<BadArgument*>(nullptr),
         [&](DistMatrix<T>& a) { heevd_mgpu<T>(Uplo::Lower, a, w.data(), &Z, bad_kind); },
         "bad range kind");
  expect(static_cast<BadArgument*>(nullptr),
         [&](DistMatrix<T>& a) { heevd_mgpu<T>(Uplo::Lower, a, w.data(), &Z, EigenRange::index(5, 4)); },
         "il > iu");
  expect(static_cast<BadArgument*>(nullptr),
         [&](DistMatrix<T>& a) { heevd_mgpu<T>(Uplo::Lower, a, w.data(), &Z, EigenRange::index(0, n)); },
         "iu >= n (k > n)");
  expect(static_cast<BadArgument*>(nullptr),
         [&](DistMatrix<T>& a) { heevd_mgpu<T>(Uplo::Lower, a, w.data(), &Z, EigenRange::value(1, 1)); },
         "vl >= vu");
  expect(static_cast<BadArgument*>(nullptr),
         [&](DistMatrix<T>& a) {
           heevd_mgpu<T>(Uplo::Lower, a, w.data(), &Z, EigenRange::value(std::nan(""), 1));
         },
         "NaN vl");
  expect(static_cast<BadArgument*>(nullptr),
         [&](DistMatrix<T>& a) { heevd_mgpu<T>(Uplo::Lower, a, nullptr, &Z); }, "null w");
  // One rank's differing range: BadArgument or RemoteError everywhere (the agreement).
  if (ctx->comm().size() > 1) expect(static_cast<Error*>(nullptr),
         [&](DistMatrix<T>& a) {
           heevd_mgpu<T>(Uplo::Lower, a, w.data(), &Z,
                         EigenRange::index(0, ctx->rank() == 0 ? 3 : 4));
         },
         "ranks disagree on the range");
  {
    DistMatrix<T> Zshort = td::scatter<T>(ctx, n, n - 1, 4, 0, std::vector<T>(n * (n - 1)));
    expect(static_cast<DimensionMismatch*>(nullptr),
           [&](DistMatrix<T>& a) { heevd_mgpu<T>(Uplo::Lower, a, w.data(), &Zshort); },
           "Z with n - 1 columns for all eigenpairs");
    DistMatrix<T> Zrows = td::scatter<T>(ctx, n + 1, n, 4, 0, std::vector<T>((n + 1) * n));
    expect(static_cast<DimensionMismatch*>(nullptr),
           [&](DistMatrix<T>& a) { heevd_mgpu<T>(Uplo::Lower, a, w.data(), &Zrows); },
           "Z with n + 1 rows");
  }
  // A NaN in the read triangle: found in T, named as A, on every rank.
  std::vector<T> An = A;
  An[3 + 1 * n] = mt::nan_value<T>();
  DistMatrix<T> dAn = td::scatter<T>(ctx, n, n, 8, 0, An);
  bool named = false;
  try {
    heevd_mgpu<T>(Uplo::Lower, dAn, w.data(), &Z);
  } catch (const BadArgument& e) {
    named = std::string(e.what()).find("'A'") != std::string::npos;
  }
  EXPECT_TRUE(td::everywhere(*ctx, named && untouched(), "NaN in A names A, outputs untouched"));
  // The same through the two-stage reduction (eigenvalues only): the NaN spreads through
  // the band and the chase into T.
  for (Uplo uplo : {Uplo::Lower, Uplo::Upper}) {
    std::vector<T> Au = A;
    if (uplo == Uplo::Upper) Au[1 + 3 * n] = mt::nan_value<T>();
    else Au[3 + 1 * n] = mt::nan_value<T>();
    DistMatrix<T> dAu = td::scatter<T>(ctx, n, n, 8, 0, Au);
    HeevdOptions two;
    two.stages = Stages::Two;
    bool named2 = false;
    try {
      heevd_mgpu<T>(uplo, dAu, w.data(), nullptr, EigenRange::all(), two);
    } catch (const BadArgument& e) {
      named2 = std::string(e.what()).find("'A'") != std::string::npos;
    }
    EXPECT_TRUE(td::everywhere(*ctx, named2 && untouched(),
                               "two-stage: NaN in A names A, outputs untouched"));
  }
  // tridiag_eigenvectors_mgpu: a NaN in e names e.
  std::vector<R> d(n, R(1)), e(n - 1, R(0.5));
  e[4] = std::numeric_limits<R>::infinity();
  EXPECT_TRUE(td::everywhere(*ctx, td::raises<BadArgument>([&] {
    tridiag_eigenvectors_mgpu<T>(n, d.data(), e.data(), w.data(), Z);
  }), "inf in e"));
  EXPECT_TRUE(td::everywhere(*ctx, untouched(), "tridiag: outputs touched"));
}

}  // namespace
