// SPDX-License-Identifier: BSD-3-Clause
// Tridiagonal eigenpairs on the host engine (kernels/lapack.hpp tridiag_eigenvectors,
// LAPACK ?stedc): the checks of stedc_test_helpers.hpp that test_cuda_stedc runs on a GPU.
#include <gtest/gtest.h>

#include <memory>

#include "core/device.hpp"
#include "tests/kernels/stedc_test_helpers.hpp"

namespace mgblas::testing {
namespace {

const Device& host_device() {
  static const std::unique_ptr<Device> dev = Device::make_host(0);
  return *dev;
}

template <typename T>
class Stedc_Host : public ::testing::Test {};
TYPED_TEST_SUITE(Stedc_Host, TestScalars, PrecisionName);

TYPED_TEST(Stedc_Host, EverySpectrumAndWindow) { check_every_spectrum<TypeParam>(host_device()); }
TYPED_TEST(Stedc_Host, BadArguments) { check_bad_arguments<TypeParam>(host_device()); }

}  // namespace
}  // namespace mgblas::testing
