// SPDX-License-Identifier: BSD-3-Clause
// The C entries of the two-stage eigen-solver's pieces, generated from the manifest:
// mgblas_<p>band_to_tridiag (with V2/tau2 and with NULL for them) and
// mgblas_<p>band_to_tridiag_apply_q on a host device, against the C++ calls bit for bit
// and A = Q2 T Q2^H with Q2 formed by apply_q; mgblas_<p>tridiag_eigenvectors_mgpu on
// host devices and MPI ranks against the C++ call on a context of the same shape; bad
// arguments returning MGBLAS_ERROR_BAD_ARGUMENT with the argument's name.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <limits>
#include <memory>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include <mgblas/mgblas.h>

#include "core/context.hpp"
#include "core/device.hpp"
#include "dist/lapack/heevd_mgpu.hpp"
#include "tests/dist/c_host_context.hpp"
#include "tests/dist/dist_test_helpers.hpp"
#include "tests/dist/host_contexts.hpp"
#include "tests/dist/unmtr_cases.hpp"
#include "tests/kernels/sb2st_test_helpers.hpp"
#include "tests/kernels/stebz_test_helpers.hpp"

namespace {

using namespace mgblas;
namespace mt = mgblas::testing;
namespace td = mgblas::testing::dist;
using td::HostContexts;

template <typename T>
bool enabled() {
  return precision_enabled(data_type_of<T>());
}

// The C types of T's arrays (complex T: the C header's struct).
inline double* c_ptr(double* p) { return p; }
inline const double* c_ptr(const double* p) { return p; }
inline mgblas_complex_double* c_ptr(zcomplex* p) {
  return reinterpret_cast<mgblas_complex_double*>(p);
}
inline const mgblas_complex_double* c_ptr(const zcomplex* p) {
  return reinterpret_cast<const mgblas_complex_double*>(p);
}

template <typename T>
mgblas_status_t c_band_to_tridiag(mgblas_device_t dev, int64_t n, int64_t b, T* AB, int64_t ldab,
                                  real_type_t<T>* d, real_type_t<T>* e, T* V2, T* tau2) {
  if constexpr (std::is_same_v<T, double>)
    return mgblas_dband_to_tridiag(dev, n, b, AB, ldab, d, e, V2, tau2);
  else
    return mgblas_zband_to_tridiag_async(dev, nullptr, n, b, c_ptr(AB), ldab, d, e, c_ptr(V2),
                                         c_ptr(tau2));
}

template <typename T>
mgblas_status_t c_apply_q(mgblas_device_t dev, char op, int64_t n, int64_t b, const T* V2,
                          const T* tau2, int64_t m, T* C, int64_t ldc) {
  const auto o = static_cast<mgblas_op_t>(op);
  if constexpr (std::is_same_v<T, double>)
    return mgblas_dband_to_tridiag_apply_q(dev, o, n, b, V2, tau2, m, C, ldc);
  else
    return mgblas_zband_to_tridiag_apply_q_async(dev, nullptr, o, n, b, c_ptr(V2), c_ptr(tau2), m,
                                                 c_ptr(C), ldc);
}

template <typename T>
bool bitwise_equal(const std::vector<T>& a, const std::vector<T>& b) {
  // memcmp must not see the null data() of an empty vector.
  return a.size() == b.size() &&
         (a.empty() || std::memcmp(a.data(), b.data(), a.size() * sizeof(T)) == 0);
}

template <typename T>
class BandToTridiag_CApi : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!enabled<T>())
      GTEST_SKIP() << "precision not built; MGBLAS_PRECISIONS = " << enabled_precisions();
  }
};
using CScalars = ::testing::Types<double, zcomplex>;  // one real, one complex
TYPED_TEST_SUITE(BandToTridiag_CApi, CScalars, mt::PrecisionName);

//  +-------------------------------------------------------------------------------+
//  |  d, e, V2, tau2 of the C entry == those of the C++ call (bit for bit)          |
//  |  Q2 = apply_q(N, I) by the C entry:                                            |
//  |    ||A - Q2 T Q2^H||_1 / (n ||A||_1 eps) < 30,  ||I - Q2^H Q2||_1 / (n eps) < 30 |
//  |  apply_q(C, apply_q(N, I)) == I to 30 n eps                                    |
//  +-------------------------------------------------------------------------------+
TYPED_TEST(BandToTridiag_CApi, SameAsCppAndReconstructs) {
  using T = TypeParam;
  using R = real_type_t<T>;
  td::CHostContext c(1);
  const Device& ref_dev = td::reference_device();
  auto rng = mt::make_rng();
  for (const auto& [n, b] : {std::pair<int64_t, int64_t>{37, 3}, {50, 8}, {9, 16}, {1, 2}}) {
    const mt::Band<T> a = mt::make_band<T>(mt::BandSpectrum::Random, n, b, rng);
    const mt::ChaseResult<T> ref = mt::run_chase<T>(ref_dev, a, true);
    for (bool keep : {true, false}) {
      std::vector<T> AB = a.ab;
      std::vector<R> d(n, std::numeric_limits<R>::quiet_NaN()),
          e(std::max<int64_t>(n - 1, 0), std::numeric_limits<R>::quiet_NaN());
      std::vector<T> V2(std::max<int64_t>(band2tri_v2_size(n), 1), T(-3)),
          tau2(std::max<int64_t>(band2tri_tau2_size(n, b), 1), T(-3));
      ASSERT_EQ(c_band_to_tridiag<T>(c.dev, n, b, AB.data(), a.ld, d.data(), e.data(),
                                     keep ? V2.data() : nullptr, keep ? tau2.data() : nullptr),
                MGBLAS_SUCCESS)
          << mgblas_last_error();
      EXPECT_TRUE(bitwise_equal(d, ref.d)) << "n " << n << " b " << b << ": d";
      EXPECT_TRUE(bitwise_equal(e, ref.e)) << "n " << n << " b " << b << ": e";
      if (!keep) continue;
      // Only the reflectors' entries (the buffers hold at least one, poisoned differently).
      const auto nv = static_cast<std::size_t>(band2tri_v2_size(n));
      const auto nt = static_cast<std::size_t>(band2tri_tau2_size(n, b));
      EXPECT_TRUE(bitwise_equal(std::vector<T>(V2.begin(), V2.begin() + nv),
                                std::vector<T>(ref.V2.begin(), ref.V2.begin() + nv)))
          << "n " << n << " b " << b << ": V2";
      EXPECT_TRUE(bitwise_equal(std::vector<T>(tau2.begin(), tau2.begin() + nt),
                                std::vector<T>(ref.tau2.begin(), ref.tau2.begin() + nt)))
          << "n " << n << " b " << b << ": tau2";

      // Q2 = Q2 I through the C entry, and Q2^H Q2 through it again.
      std::vector<T> Q(static_cast<std::size_t>(n * n), T(0));
      for (int64_t i = 0; i < n; ++i) Q[i + i * n] = T(1);
      ASSERT_EQ(c_apply_q<T>(c.dev, 'N', n, b, V2.data(), tau2.data(), n, Q.data(), n),
                MGBLAS_SUCCESS)
          << mgblas_last_error();
      std::vector<T> Qref(Q.size(), T(0));
      for (int64_t i = 0; i < n; ++i) Qref[i + i * n] = T(1);
      mt::run_apply_q<T>(ref_dev, Op::N, n, b, ref, n, Qref, n);
      EXPECT_TRUE(bitwise_equal(Q, Qref)) << "n " << n << " b " << b << ": apply_q";
      std::vector<mt::zdouble> Qz(Q.begin(), Q.end());
      const auto [res, orth] = mt::reconstruction_errors<T>(a, ref, Qz);
      EXPECT_LT(res, mt::kChaseThreshold) << "n " << n << " b " << b;
      EXPECT_LT(orth, mt::kChaseThreshold) << "n " << n << " b " << b;
      ASSERT_EQ(c_apply_q<T>(c.dev, 'C', n, b, V2.data(), tau2.data(), n, Q.data(), n),
                MGBLAS_SUCCESS)
          << mgblas_last_error();
      double worst = 0;
      for (int64_t j = 0; j < n; ++j)
        for (int64_t i = 0; i < n; ++i)
          worst = std::max(worst, std::abs(Q[i + j * n] - T(i == j ? 1 : 0)));
      EXPECT_LT(worst, 30.0 * n * mt::eps<T>()) << "n " << n << " b " << b << ": Q2^H Q2";
    }
  }
}

// Bad arguments: the status, the name in the last error, the outputs untouched.
TYPED_TEST(BandToTridiag_CApi, BadArguments) {
  using T = TypeParam;
  using R = real_type_t<T>;
  td::CHostContext c(1);
  const int64_t n = 12, b = 3;
  std::vector<T> AB(static_cast<std::size_t>((b + 1) * n), T(1)), V2(band2tri_v2_size(n), T(-3)),
      tau2(band2tri_tau2_size(n, b), T(-3));
  std::vector<R> d(n, R(-3)), e(n - 1, R(-3));
  const auto named = [](mgblas_status_t s, const char* what) {
    return s == MGBLAS_ERROR_BAD_ARGUMENT &&
           std::string(mgblas_last_error()).find(what) != std::string::npos;
  };
  const auto untouched = [&] {
    return std::all_of(d.begin(), d.end(), [](R v) { return v == R(-3); }) &&
           std::all_of(V2.begin(), V2.end(), [](T v) { return v == T(-3); });
  };
  EXPECT_TRUE(named(c_band_to_tridiag<T>(c.dev, n, b, AB.data(), b, d.data(), e.data(), V2.data(),
                                         tau2.data()),
                    "'ldab'"))
      << mgblas_last_error();
  EXPECT_TRUE(named(c_band_to_tridiag<T>(c.dev, -1, b, AB.data(), b + 1, d.data(), e.data(),
                                         V2.data(), tau2.data()),
                    "'n'"))
      << mgblas_last_error();
  EXPECT_TRUE(untouched());
  std::vector<T> C(static_cast<std::size_t>(n * 2), T(5));
  EXPECT_TRUE(named(c_apply_q<T>(c.dev, 'N', n, b, V2.data(), tau2.data(), 2, C.data(), n - 1),
                    "'ldc'"))
      << mgblas_last_error();
  EXPECT_TRUE(named(c_apply_q<T>(c.dev, 'X', n, b, V2.data(), tau2.data(), 2, C.data(), n),
                    "'op'"))
      << mgblas_last_error();
  EXPECT_TRUE(std::all_of(C.begin(), C.end(), [](T v) { return v == T(5); }));
}

template <typename T>
mgblas_status_t c_tridiag_eigenvectors(mgblas_context_t ctx, int64_t n, const real_type_t<T>* d,
                                       const real_type_t<T>* e, int range, double vl, double vu,
                                       int64_t il, int64_t iu, int64_t* m, real_type_t<T>* w,
                                       mgblas_matrix_t Z) {
  const auto r = static_cast<mgblas_range_t>(range);
  if constexpr (std::is_same_v<T, double>)
    return mgblas_dtridiag_eigenvectors_mgpu(ctx, n, d, e, r, vl, vu, il, iu, m, w, Z);
  else
    return mgblas_ztridiag_eigenvectors_mgpu(ctx, n, d, e, r, vl, vu, il, iu, m, w, Z);
}

template <typename T>
mgblas_precision_t c_precision() {
  return std::is_same_v<T, double> ? MGBLAS_PREC_D : MGBLAS_PREC_Z;
}

template <typename T>
class TridiagEigenvectors_CApi : public BandToTridiag_CApi<T> {};
TYPED_TEST_SUITE(TridiagEigenvectors_CApi, CScalars, mt::PrecisionName);

//  +-------------------------------------------------------------------------------+
//  |  m, w and Z (all K columns, the untouched ones included) of the C entry ==      |
//  |  those of the C++ call on a context of the same shape (2 host devices a rank)  |
//  +-------------------------------------------------------------------------------+
TYPED_TEST(TridiagEigenvectors_CApi, SameAsCpp) {
  using T = TypeParam;
  using R = real_type_t<T>;
  td::CHostContext c(2);
  const std::shared_ptr<Context> ctx = HostContexts::all()[1];  // 2 host devices per rank
  ASSERT_EQ(ctx->num_devices(), 2);
  const int64_t n = 41, nb = 8;
  auto rng = mt::make_rng();
  mt::Tridiagonal<R> t = mt::make_tridiagonal<R>(mt::Spectrum::Random, n, rng);
  ctx->comm().bcast(t.d.data(), t.d.size() * sizeof(R), 0);
  ctx->comm().bcast(t.e.data(), t.e.size() * sizeof(R), 0);
  struct Case {
    int range;
    double vl, vu;
    int64_t il, iu;
  };
  for (const Case& k : {Case{MGBLAS_RANGE_ALL, 0, 0, 0, 0}, Case{MGBLAS_RANGE_INDEX, 0, 0, 3, 17},
                        Case{MGBLAS_RANGE_VALUE, -0.5, 0.75, 0, 0}}) {
    const int64_t K = n + 2;
    const std::vector<T> Z0(static_cast<std::size_t>(n * K), T(-7));
    mgblas_matrix_t h = nullptr;
    ASSERT_EQ(mgblas_matrix_create(c.ctx, c_precision<T>(), n, K, nb, &h), MGBLAS_SUCCESS)
        << mgblas_last_error();
    std::unique_ptr<mgblas_matrix_s, decltype(&mgblas_matrix_destroy)> owner(h,
                                                                            mgblas_matrix_destroy);
    ASSERT_EQ(mgblas_matrix_distribute(c.ctx, h, Z0.data(), n, 0), MGBLAS_SUCCESS);
    std::vector<R> w(n, R(-9));
    int64_t m = -1;
    ASSERT_EQ(c_tridiag_eigenvectors<T>(c.ctx, n, t.d.data(), t.e.data(), k.range, k.vl, k.vu,
                                        k.il, k.iu, &m, w.data(), h),
              MGBLAS_SUCCESS)
        << mgblas_last_error();
    std::vector<T> Zc(Z0.size());
    ASSERT_EQ(mgblas_matrix_collect(c.ctx, h, Zc.data(), n, -1), MGBLAS_SUCCESS);

    const EigenRange range = k.range == MGBLAS_RANGE_ALL     ? EigenRange::all()
                             : k.range == MGBLAS_RANGE_INDEX ? EigenRange::index(k.il, k.iu)
                                                             : EigenRange::value(k.vl, k.vu);
    DistMatrix<T> Z = td::scatter<T>(ctx, n, K, nb, 0, Z0);
    std::vector<R> wref(n, R(-9));
    const int64_t mref = tridiag_eigenvectors_mgpu<T>(n, t.d.data(), t.e.data(), wref.data(), Z,
                                                      range);
    const std::vector<T> Zref = td::gather(Z);
    EXPECT_TRUE(td::everywhere(*ctx, m == mref && m > 0 && bitwise_equal(w, wref) &&
                                         bitwise_equal(Zc, Zref),
                               "range " + std::to_string(k.range) + ": m " + std::to_string(m) +
                                   " (C++ " + std::to_string(mref) + ")"));
  }
  // A bad argument fails on every rank with its name, the outputs untouched.
  mgblas_matrix_t h = nullptr;
  ASSERT_EQ(mgblas_matrix_create(c.ctx, c_precision<T>(), n, n, nb, &h), MGBLAS_SUCCESS);
  std::unique_ptr<mgblas_matrix_s, decltype(&mgblas_matrix_destroy)> owner(h,
                                                                          mgblas_matrix_destroy);
  std::vector<R> w(n, R(-9));
  int64_t m = -1;
  const auto s = c_tridiag_eigenvectors<T>(c.ctx, -1, t.d.data(), t.e.data(),
                                           MGBLAS_RANGE_ALL, 0, 0, 0, 0, &m, w.data(), h);
  EXPECT_TRUE(td::c_error_everywhere(*ctx, s, "'n'", m == -1 && w[0] == R(-9)));
}

}  // namespace
