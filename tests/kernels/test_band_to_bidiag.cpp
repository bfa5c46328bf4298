// SPDX-License-Identifier: BSD-3-Clause
// The band-to-bidiagonal bulge chase on the host engine (kernels/lapack.hpp
// band_to_bidiag): the checks of gb2bd_test_helpers.hpp that test_cuda_band_to_bidiag runs
// on a GPU, with Q2 and P2 applied by band_to_tridiag_apply_q.
#include <gtest/gtest.h>

#include <memory>

#include "core/device.hpp"
#include "tests/kernels/gb2bd_test_helpers.hpp"

namespace mgblas::testing {
namespace {

const Device& host_device() {
  static const std::unique_ptr<Device> dev = Device::make_host(0);
  return *dev;
}

template <typename T>
class BandToBidiag_Host : public ::testing::Test {};
TYPED_TEST_SUITE(BandToBidiag_Host, TestScalars, PrecisionName);

TYPED_TEST(BandToBidiag_Host, EveryBand) { check_every_bidiag<TypeParam>(host_device()); }
// A random upper band is ill-conditioned: its smallest singular values, and the
// bidiagonal's trailing entries, decay geometrically with n, below the smallest normal
// number (float from n of a few hundred); the reflectors must stay finite there.
TYPED_TEST(BandToBidiag_Host, EntriesBelowTheSmallestNormal) {
  using T = TypeParam;
  auto rng = make_rng();
  const bool single = sizeof(real_type_t<T>) == 4;
  check_bidiag<T>(host_device(), make_upper_band<T>(UpperBandKind::Random, single ? 800 : 3000, single ? 8 : 64, rng),
                  UpperBandKind::Random, false);
}
TYPED_TEST(BandToBidiag_Host, BadArguments) {
  check_bidiag_bad_arguments<TypeParam>(host_device());
}

}  // namespace
}  // namespace mgblas::testing
