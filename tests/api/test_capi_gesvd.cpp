// SPDX-License-Identifier: BSD-3-Clause
// The C entries of the SVD (mgblas_dgesvd_mgpu, mgblas_zgesvd_mgpu, their _ex forms) and of
// its back-transformation (mgblas_dormbr_mgpu, mgblas_zunmbr_mgpu; the manifest's role
// vect) on host devices and MPI ranks: s, U and V (all columns, the untouched ones too)
// bit for bit those of the C++ calls on a context of the same shape, values only (U and V
// NULL), and bad arguments failing on every rank with their name, the outputs untouched.
#include <gtest/gtest.h>

#include <cstring>
#include <memory>
#include <string>
#include <type_traits>
#include <vector>

#include <mgblas/mgblas.h>

#include "core/context.hpp"
#include "dist/lapack/gesvd_mgpu.hpp"
#include "dist/lapack/unmbr_mgpu.hpp"
#include "tests/dist/c_host_context.hpp"
#include "tests/dist/dist_test_helpers.hpp"
#include "tests/dist/host_contexts.hpp"
#include "tests/dist/unmtr_cases.hpp"
#include "tests/lapack/bidiag_check.hpp"

namespace {

using namespace mgblas;
namespace mt = mgblas::testing;
namespace td = mgblas::testing::dist;
using td::HostContexts;

template <typename T>
bool enabled() {
  return precision_enabled(data_type_of<T>());
}
template <typename T>
mgblas_precision_t c_precision() {
  return std::is_same_v<T, double> ? MGBLAS_PREC_D : MGBLAS_PREC_Z;
}
template <typename T>
bool bitwise_equal(const std::vector<T>& a, const std::vector<T>& b) {
  return a.size() == b.size() &&
         (a.empty() || std::memcmp(a.data(), b.data(), a.size() * sizeof(T)) == 0);
}

template <typename T>
mgblas_status_t c_gesvd(mgblas_context_t ctx, mgblas_matrix_t A, real_type_t<T>* s,
                        mgblas_matrix_t U, mgblas_matrix_t V, int64_t nvec,
                        const mgblas_reduction_options_t* opts) {
  if constexpr (std::is_same_v<T, double>)
    return opts ? mgblas_dgesvd_mgpu_ex(ctx, A, s, U, V, nvec, opts)
                : mgblas_dgesvd_mgpu(ctx, A, s, U, V, nvec);
  else
    return opts ? mgblas_zgesvd_mgpu_ex(ctx, A, s, U, V, nvec, opts)
                : mgblas_zgesvd_mgpu(ctx, A, s, U, V, nvec);
}
template <typename T>
mgblas_status_t c_unmbr(mgblas_context_t ctx, char vect, char op, mgblas_matrix_t A, const T* tau,
                        mgblas_matrix_t C) {
  const auto v = static_cast<mgblas_vect_t>(vect);
  const auto o = static_cast<mgblas_op_t>(op);
  if constexpr (std::is_same_v<T, double>)
    return mgblas_dormbr_mgpu(ctx, v, o, A, tau, C);
  else
    return mgblas_zunmbr_mgpu(ctx, v, o, A, reinterpret_cast<const mgblas_complex_double*>(tau), C);
}

// A C matrix handle destroyed at scope exit.
using CMatrix = std::unique_ptr<mgblas_matrix_s, decltype(&mgblas_matrix_destroy)>;
template <typename T>
CMatrix c_matrix(mgblas_context_t c, int64_t m, int64_t n, int64_t nb, const std::vector<T>& X) {
  mgblas_matrix_t h = nullptr;
  EXPECT_EQ(mgblas_matrix_create(c, c_precision<T>(), m, n, nb, &h), MGBLAS_SUCCESS)
      << mgblas_last_error();
  EXPECT_EQ(mgblas_matrix_distribute(c, h, X.data(), m, 0), MGBLAS_SUCCESS);
  return CMatrix(h, mgblas_matrix_destroy);
}
template <typename T>
std::vector<T> c_collect(mgblas_context_t c, mgblas_matrix_t h, int64_t m, int64_t n) {
  std::vector<T> out(static_cast<std::size_t>(m * n));
  EXPECT_EQ(mgblas_matrix_collect(c, h, out.data(), m, -1), MGBLAS_SUCCESS);
  return out;
}

template <typename T>
class Gesvd_CApi : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!enabled<T>())
      GTEST_SKIP() << "precision not built; MGBLAS_PRECISIONS = " << enabled_precisions();
  }
};
using CScalars = ::testing::Types<double, zcomplex>;  // one real, one complex
TYPED_TEST_SUITE(Gesvd_CApi, CScalars, mt::PrecisionName);

TYPED_TEST(Gesvd_CApi, SameAsCpp) {
  using T = TypeParam;
  using R = real_type_t<T>;
  td::CHostContext c(2);
  const std::shared_ptr<Context> ctx = HostContexts::all()[1];  // 2 host devices per rank
  ASSERT_EQ(ctx->num_devices(), 2);
  auto rng = mt::make_rng();
  for (auto [m, n] : {std::pair<int64_t, int64_t>{37, 23}, {23, 37}}) {
    const int64_t nb = 8, k = std::min(m, n), nvec = 6, K = nvec + 2;
    std::vector<T> A = mt::lapack::random_general<T>(m, n, rng);
    ctx->comm().bcast(A.data(), A.size() * sizeof(T), 0);
    const std::vector<T> U0(static_cast<std::size_t>(m * K), T(-7)), V0(static_cast<std::size_t>(n * K), T(-7));
    // C, through the _ex form with a profile.
    CMatrix cA = c_matrix<T>(c.ctx, m, n, nb, A), cU = c_matrix<T>(c.ctx, m, K, 5, U0),
            cV = c_matrix<T>(c.ctx, n, K, 5, V0);
    std::vector<R> s(k, R(-9));
    mgblas_reduction_profile_t prof{};
    mgblas_reduction_options_t opts{};
    opts.profile = &prof;
    ASSERT_EQ(c_gesvd<T>(c.ctx, cA.get(), s.data(), cU.get(), cV.get(), nvec, &opts),
              MGBLAS_SUCCESS) << mgblas_last_error();
    const std::vector<T> Uc = c_collect<T>(c.ctx, cU.get(), m, K), Vc = c_collect<T>(c.ctx, cV.get(), n, K);
    // C++
    DistMatrix<T> dA = td::scatter<T>(ctx, m, n, nb, 0, A);
    DistMatrix<T> dU = td::scatter<T>(ctx, m, K, 5, 0, U0), dV = td::scatter<T>(ctx, n, K, 5, 0, V0);
    std::vector<R> sref(k, R(-9));
    gesvd_mgpu<T>(dA, sref.data(), &dU, &dV, nvec);
    EXPECT_TRUE(td::everywhere(*ctx, bitwise_equal(s, sref) && bitwise_equal(Uc, td::gather(dU)) &&
                                         bitwise_equal(Vc, td::gather(dV)) && prof.total > 0,
                               "gesvd " + std::to_string(m) + " x " + std::to_string(n)));
    // Values only: U and V NULL, the same s.
    CMatrix cB = c_matrix<T>(c.ctx, m, n, nb, A);
    std::vector<R> s2(k, R(-9));
    ASSERT_EQ(c_gesvd<T>(c.ctx, cB.get(), s2.data(), nullptr, nullptr, -1, nullptr),
              MGBLAS_SUCCESS) << mgblas_last_error();
    DistMatrix<T> dB = td::scatter<T>(ctx, m, n, nb, 0, A);
    std::vector<R> s2ref(k, R(-9));
    gesvd_mgpu<T>(dB, s2ref.data(), nullptr, nullptr);
    EXPECT_TRUE(td::everywhere(*ctx, bitwise_equal(s2, s2ref), "values only"));
    // The two-stage path (m >= n), its band and stages through the options.
    if (m >= n) {
      CMatrix cT = c_matrix<T>(c.ctx, m, n, nb, A), cU2 = c_matrix<T>(c.ctx, m, K, 5, U0),
              cV2 = c_matrix<T>(c.ctx, n, K, 5, V0);
      std::vector<R> s3(k, R(-9)), s3ref(k, R(-9));
      mgblas_reduction_options_t two{};
      two.stages = MGBLAS_STAGES_TWO;
      two.band = 4;
      ASSERT_EQ(c_gesvd<T>(c.ctx, cT.get(), s3.data(), cU2.get(), cV2.get(), nvec, &two),
                MGBLAS_SUCCESS) << mgblas_last_error();
      DistMatrix<T> dT = td::scatter<T>(ctx, m, n, nb, 0, A);
      DistMatrix<T> dU2 = td::scatter<T>(ctx, m, K, 5, 0, U0), dV2 = td::scatter<T>(ctx, n, K, 5, 0, V0);
      GesvdOptions o2;
      o2.stages = Stages::Two;
      o2.band = 4;
      gesvd_mgpu<T>(dT, s3ref.data(), &dU2, &dV2, nvec, o2);
      EXPECT_TRUE(td::everywhere(
          *ctx, bitwise_equal(s3, s3ref) &&
                    bitwise_equal(c_collect<T>(c.ctx, cU2.get(), m, K), td::gather(dU2)) &&
                    bitwise_equal(c_collect<T>(c.ctx, cV2.get(), n, K), td::gather(dV2)),
          "two-stage gesvd"));
    }

    // unmbr with both factors of a gebrd (C's B reduced by gesvd is A's reduction).
    std::vector<R> d(k), e(k);
    std::vector<T> tauq(k), taup(k);
    DistMatrix<T> dR = td::scatter<T>(ctx, m, n, nb, 0, A);
    gebrd_mgpu<T>(dR, d.data(), e.data(), tauq.data(), taup.data());
    CMatrix cR = c_matrix<T>(c.ctx, m, n, nb, td::gather(dR));
    for (char vect : {'Q', 'P'}) {
      const int64_t rows = vect == 'Q' ? m : n;
      std::vector<T> C0 = mt::lapack::random_general<T>(rows, 9, rng);
      ctx->comm().bcast(C0.data(), C0.size() * sizeof(T), 0);
      CMatrix cC = c_matrix<T>(c.ctx, rows, 9, 4, C0);
      ASSERT_EQ(c_unmbr<T>(c.ctx, vect, 'C', cR.get(), vect == 'Q' ? tauq.data() : taup.data(),
                           cC.get()),
                MGBLAS_SUCCESS) << mgblas_last_error();
      DistMatrix<T> dC = td::scatter<T>(ctx, rows, 9, 4, 0, C0);
      unmbr_mgpu<T>(vect == 'Q' ? Vect::Q : Vect::P, Op::C, dR, vect == 'Q' ? tauq.data() : taup.data(), dC);
      EXPECT_TRUE(td::everywhere(*ctx, bitwise_equal(c_collect<T>(c.ctx, cC.get(), rows, 9), td::gather(dC)),
                                 std::string("unmbr vect ") + vect));
    }
  }
}

TYPED_TEST(Gesvd_CApi, BadArguments) {
  using T = TypeParam;
  using R = real_type_t<T>;
  td::CHostContext c(2);
  const std::shared_ptr<Context> ctx = HostContexts::all()[1];
  const int64_t m = 20, n = 12, k = 12;
  auto rng = mt::make_rng();
  std::vector<T> A = mt::lapack::random_general<T>(m, n, rng);
  ctx->comm().bcast(A.data(), A.size() * sizeof(T), 0);
  const std::vector<T> U0(static_cast<std::size_t>(m * k), T(-7));
  CMatrix cA = c_matrix<T>(c.ctx, m, n, 4, A), cU = c_matrix<T>(c.ctx, m, k, 4, U0);
  std::vector<R> s(k, R(-9));
  // The error's message is read before the collect that checks the outputs (a successful
  // C call clears it).
  const auto failed = [&](mgblas_status_t st, const char* what) {
    const std::string msg = mgblas_last_error();
    const bool untouched = s[0] == R(-9) && bitwise_equal(c_collect<T>(c.ctx, cU.get(), m, k), U0);
    return td::everywhere(*ctx, st != MGBLAS_SUCCESS && msg.find(what) != std::string::npos &&
                                    untouched,
                          std::string("bad ") + what + ": status " + std::to_string(st) + ", '" +
                              msg + "'" + (untouched ? "" : ", outputs written"));
  };
  auto st = c_gesvd<T>(c.ctx, cA.get(), s.data(), cU.get(), nullptr, k + 1, nullptr);
  EXPECT_TRUE(failed(st, "'nvec'"));
  st = c_gesvd<T>(c.ctx, cA.get(), nullptr, cU.get(), nullptr, -1, nullptr);
  EXPECT_TRUE(failed(st, "'s'"));
  // U with n rows where m are needed.
  CMatrix cW = c_matrix<T>(c.ctx, n, k, 4, std::vector<T>(n * k, T(-7)));
  st = c_gesvd<T>(c.ctx, cA.get(), s.data(), cW.get(), nullptr, -1, nullptr);
  EXPECT_TRUE(failed(st, "'U'"));
  mgblas_reduction_options_t two{};
  two.stages = MGBLAS_STAGES_TWO;
  two.band = 3;  // not a divisor of nb = 4
  st = c_gesvd<T>(c.ctx, cA.get(), s.data(), cU.get(), nullptr, -1, &two);
  EXPECT_TRUE(failed(st, "'opts.band'"));
  std::vector<T> tau(k, T(0.5));
  st = c_unmbr<T>(c.ctx, 'X', 'N', cA.get(), tau.data(), cU.get());
  EXPECT_TRUE(failed(st, "'vect'"));
}

}  // namespace
