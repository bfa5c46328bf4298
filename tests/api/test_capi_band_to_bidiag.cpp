// SPDX-License-Identifier: BSD-3-Clause
// The C entries of the band-to-bidiagonal chase, generated from the manifest:
// mgblas_<p>band_to_bidiag (with the reflectors and with NULL for them, plain and _async)
// on a host device, against the C++ call bit for bit, AB left as it was, and
// B = Q2 bidiag(d, e) P2^H with Q2 and P2 formed by mgblas_<p>band_to_tridiag_apply_q;
// bad arguments returning MGBLAS_ERROR_BAD_ARGUMENT with the argument's name.
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

#include "core/device.hpp"
#include "tests/dist/c_host_context.hpp"
#include "tests/kernels/gb2bd_test_helpers.hpp"

namespace {

using namespace mgblas;
namespace mt = mgblas::testing;

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

// double through the plain entry, complex double through the _async one (stream NULL).
template <typename T>
mgblas_status_t c_band_to_bidiag(mgblas_device_t dev, int64_t n, int64_t b, const T* AB,
                                 int64_t ldab, real_type_t<T>* d, real_type_t<T>* e, T* VQ,
                                 T* tauQ, T* VP, T* tauP) {
  if constexpr (std::is_same_v<T, double>)
    return mgblas_dband_to_bidiag(dev, n, b, AB, ldab, d, e, VQ, tauQ, VP, tauP);
  else
    return mgblas_zband_to_bidiag_async(dev, nullptr, n, b, c_ptr(AB), ldab, d, e, c_ptr(VQ),
                                        c_ptr(tauQ), c_ptr(VP), c_ptr(tauP));
}

template <typename T>
mgblas_status_t c_apply_q(mgblas_device_t dev, int64_t n, int64_t b, const T* V, const T* tau,
                          T* C) {
  if constexpr (std::is_same_v<T, double>)
    return mgblas_dband_to_tridiag_apply_q(dev, MGBLAS_OP_N, n, b, V, tau, n, C, n);
  else
    return mgblas_zband_to_tridiag_apply_q(dev, MGBLAS_OP_N, n, b, c_ptr(V), c_ptr(tau), n,
                                           c_ptr(C), n);
}

template <typename T>
bool bitwise_equal(const T* a, const T* b, std::size_t count) {
  return count == 0 || std::memcmp(a, b, count * sizeof(T)) == 0;
}

// The reflectors' entries of the layout (band2tri_v2_offset: each task's m_k entries; for
// b = 1 the rows past a sweep's two slots are no reflector's and not written).
template <typename T>
bool reflectors_equal(int64_t n, int64_t b, const T* V, const T* Vref) {
  const int64_t be = std::max<int64_t>(1, std::min(b, n - 1));
  for (int64_t s = 0; s + 1 < n; ++s)
    for (int64_t k = 0; k < band2tri_tasks(n, be, s); ++k) {
      const int64_t off = band2tri_v2_offset(n, be, s, k);
      if (!bitwise_equal(V + off, Vref + off, std::min(be, n - 1 - s - k * be))) return false;
    }
  return true;
}

template <typename T>
class BandToBidiag_CApi : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!enabled<T>())
      GTEST_SKIP() << "precision not built; MGBLAS_PRECISIONS = " << enabled_precisions();
  }
};
using CScalars = ::testing::Types<double, zcomplex>;  // one real, one complex
TYPED_TEST_SUITE(BandToBidiag_CApi, CScalars, mt::PrecisionName);

//  +-------------------------------------------------------------------------------+
//  |  d, e, VQ, tauQ, VP, tauP of the C entry == those of the C++ call (bit for bit) |
//  |  Q2, P2 = apply_q(N, I) by the C entry with (VQ, tauQ), (VP, tauP):             |
//  |    ||B - Q2 bidiag(d, e) P2^H||_1 / (n ||B||_1 eps) < 30,                       |
//  |    ||I - Q2^H Q2||_1 / (n eps) < 30, ||I - P2^H P2||_1 / (n eps) < 30            |
//  +-------------------------------------------------------------------------------+
TYPED_TEST(BandToBidiag_CApi, SameAsCppAndReconstructs) {
  using T = TypeParam;
  using R = real_type_t<T>;
  mgblas::testing::dist::CHostContext c(1);
  const std::unique_ptr<Device> ref_dev = Device::make_host(0);
  auto rng = mt::make_rng();
  for (const auto& [n, b] : {std::pair<int64_t, int64_t>{37, 3}, {50, 8}, {9, 16}, {40, 1}, {1, 2}}) {
    SCOPED_TRACE(detail::concat("n=", n, " b=", b));
    const mt::UpperBand<T> a = mt::make_upper_band<T>(mt::UpperBandKind::Random, n, b, rng);
    const mt::BidiagResult<T> ref = mt::run_bidiag<T>(*ref_dev, a, true);
    const auto nv = static_cast<std::size_t>(band2tri_v2_size(n));
    const auto nt = static_cast<std::size_t>(band2tri_tau2_size(n, b));
    for (bool keep : {true, false}) {
      const std::vector<T> AB = a.ab;
      std::vector<R> d(n, std::numeric_limits<R>::quiet_NaN()),
          e(std::max<int64_t>(n - 1, 0), std::numeric_limits<R>::quiet_NaN());
      std::vector<T> VQ(std::max<std::size_t>(nv, 1), T(-3)), VP = VQ,
          tauQ(std::max<std::size_t>(nt, 1), T(-3)), tauP = tauQ;
      ASSERT_EQ(c_band_to_bidiag<T>(c.dev, n, b, AB.data(), a.ld, d.data(), e.data(),
                                    keep ? VQ.data() : nullptr, keep ? tauQ.data() : nullptr,
                                    keep ? VP.data() : nullptr, keep ? tauP.data() : nullptr),
                MGBLAS_SUCCESS)
          << mgblas_last_error();
      EXPECT_TRUE(bitwise_equal(AB.data(), a.ab.data(), AB.size())) << "AB changed";
      EXPECT_TRUE(bitwise_equal(d.data(), ref.d.data(), d.size())) << "d";
      EXPECT_TRUE(bitwise_equal(e.data(), ref.e.data(), e.size())) << "e";
      if (!keep) {
        EXPECT_TRUE(std::all_of(VQ.begin(), VQ.end(), [](T v) { return v == T(-3); }));
        continue;
      }
      EXPECT_TRUE(reflectors_equal(n, b, VQ.data(), ref.VQ.data())) << "VQ";
      EXPECT_TRUE(reflectors_equal(n, b, VP.data(), ref.VP.data())) << "VP";
      EXPECT_TRUE(bitwise_equal(tauQ.data(), ref.tauQ.data(), nt)) << "tauQ";
      EXPECT_TRUE(bitwise_equal(tauP.data(), ref.tauP.data(), nt)) << "tauP";

      std::vector<T> Q(static_cast<std::size_t>(n * n), T(0)), P;
      for (int64_t i = 0; i < n; ++i) Q[i + i * n] = T(1);
      P = Q;
      ASSERT_EQ(c_apply_q<T>(c.dev, n, b, VQ.data(), tauQ.data(), Q.data()), MGBLAS_SUCCESS)
          << mgblas_last_error();
      ASSERT_EQ(c_apply_q<T>(c.dev, n, b, VP.data(), tauP.data(), P.data()), MGBLAS_SUCCESS)
          << mgblas_last_error();
      const std::vector<mt::zdouble> Qz(Q.begin(), Q.end()), Pz(P.begin(), P.end());
      const auto [res, orth_q, orth_p] = mt::bidiag_reconstruction_errors<T>(a, ref, Qz, Pz);
      EXPECT_LT(res, mt::kChaseThreshold);
      EXPECT_LT(orth_q, mt::kChaseThreshold);
      EXPECT_LT(orth_p, mt::kChaseThreshold);
    }
  }
}

// Bad arguments: the status, the name in the last error, the outputs untouched.
TYPED_TEST(BandToBidiag_CApi, BadArguments) {
  using T = TypeParam;
  using R = real_type_t<T>;
  mgblas::testing::dist::CHostContext c(1);
  const int64_t n = 12, b = 3;
  const std::vector<T> AB(static_cast<std::size_t>((b + 1) * n), T(1));
  std::vector<T> VQ(band2tri_v2_size(n), T(-3)), VP = VQ, tauQ(band2tri_tau2_size(n, b), T(-3)),
      tauP = tauQ;
  std::vector<R> d(n, R(-3)), e(n - 1, R(-3));
  const auto named = [](mgblas_status_t s, const char* what) {
    return s == MGBLAS_ERROR_BAD_ARGUMENT &&
           std::string(mgblas_last_error()).find(what) != std::string::npos;
  };
  EXPECT_TRUE(named(c_band_to_bidiag<T>(c.dev, n, b, AB.data(), b, d.data(), e.data(), VQ.data(),
                                        tauQ.data(), VP.data(), tauP.data()),
                    "'ldab'"))
      << mgblas_last_error();
  EXPECT_TRUE(named(c_band_to_bidiag<T>(c.dev, -1, b, AB.data(), b + 1, d.data(), e.data(),
                                        VQ.data(), tauQ.data(), VP.data(), tauP.data()),
                    "'n'"))
      << mgblas_last_error();
  EXPECT_TRUE(named(c_band_to_bidiag<T>(c.dev, n, 0, AB.data(), b + 1, d.data(), e.data(),
                                        VQ.data(), tauQ.data(), VP.data(), tauP.data()),
                    "'b'"))
      << mgblas_last_error();
  EXPECT_TRUE(named(c_band_to_bidiag<T>(c.dev, n, b, AB.data(), b + 1, d.data(), e.data(),
                                        VQ.data(), tauQ.data(), nullptr, tauP.data()),
                    "'VP'"))
      << mgblas_last_error();
  EXPECT_TRUE(named(c_band_to_bidiag<T>(c.dev, n, b, AB.data(), b + 1, nullptr, e.data(),
                                        nullptr, nullptr, nullptr, nullptr),
                    "'d'"))
      << mgblas_last_error();
  EXPECT_TRUE(std::all_of(d.begin(), d.end(), [](R v) { return v == R(-3); }) &&
              std::all_of(e.begin(), e.end(), [](R v) { return v == R(-3); }) &&
              std::all_of(VQ.begin(), VQ.end(), [](T v) { return v == T(-3); }) &&
              std::all_of(tauP.begin(), tauP.end(), [](T v) { return v == T(-3); }));
}

}  // namespace
