// SPDX-License-Identifier: BSD-3-Clause
// The bidiagonal SVD on host devices (kernels/lapack.hpp bidiag_svd): the host engine
// (LAPACK ?bdsdc) and the CUDA engine's Golub-Kahan algorithm run on the host
// (MGBLAS_BDSVD=tgk), with the checks of bdsvd_test_helpers.hpp that
// test_cuda_bidiag_svd runs on a GPU. Each test prints the worst figures per kind.
#include <gtest/gtest.h>

#include <memory>

#include "core/device.hpp"
#include "tests/kernels/bdsvd_test_helpers.hpp"

namespace mgblas::testing {
namespace {

const Device& host_device() {
  static const std::unique_ptr<Device> dev = Device::make_host(0);
  return *dev;
}

template <typename T>
class BidiagSvd_Host : public ::testing::Test {};
TYPED_TEST_SUITE(BidiagSvd_Host, TestScalars, PrecisionName);

TYPED_TEST(BidiagSvd_Host, BdsdcEveryKindAndWindow) {
  check_every_bidiagonal<TypeParam>(host_device(), {1, 2, 3, 17, 64, 200});
  print_svd_worst("bdsdc");
}

TYPED_TEST(BidiagSvd_Host, TgkEveryKindAndWindow) {
  const ScopedEnv tgk("MGBLAS_BDSVD", "tgk");  // the host engine reads it at every call
  check_every_bidiagonal<TypeParam>(host_device(), {1, 2, 3, 17, 64, 200, 500});
  print_svd_worst("tgk");
}

TYPED_TEST(BidiagSvd_Host, BadArguments) {
  check_bidiag_svd_bad_arguments<TypeParam>(host_device());
  const ScopedEnv bad("MGBLAS_BDSVD", "qr");
  std::vector<real_type_t<TypeParam>> d(2, 1), e(1, 1), s(2);
  EXPECT_THROW(bidiag_svd<TypeParam>(host_device(), Uplo::Upper, 2, d.data(), e.data(), 0, 0,
                                     s.data(), nullptr, 2, nullptr, 2),
               BadArgument);
}

}  // namespace
}  // namespace mgblas::testing
