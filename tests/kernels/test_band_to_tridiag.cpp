// SPDX-License-Identifier: BSD-3-Clause
// The band-to-tridiagonal bulge chase and the application of its Q2 on the host engine
// (kernels/lapack.hpp band_to_tridiag, band_to_tridiag_apply_q): the checks of
// sb2st_test_helpers.hpp that test_cuda_band_to_tridiag runs on a GPU.
#include <gtest/gtest.h>

#include <memory>

#include "core/device.hpp"
#include "tests/kernels/sb2st_test_helpers.hpp"

namespace mgblas::testing {
namespace {

const Device& host_device() {
  static const std::unique_ptr<Device> dev = Device::make_host(0);
  return *dev;
}

template <typename T>
class BandToTridiag_Host : public ::testing::Test {};
TYPED_TEST_SUITE(BandToTridiag_Host, TestScalars, PrecisionName);

TYPED_TEST(BandToTridiag_Host, EveryBand) { check_every_band<TypeParam>(host_device()); }
TYPED_TEST(BandToTridiag_Host, BadArguments) { check_bad_arguments<TypeParam>(host_device()); }
TYPED_TEST(BandToTridiag_Host, ApplyQ) { check_every_apply_q<TypeParam>(host_device()); }
TYPED_TEST(BandToTridiag_Host, ApplyQBadArguments) {
  check_apply_q_bad_arguments<TypeParam>(host_device());
}

}  // namespace
}  // namespace mgblas::testing
