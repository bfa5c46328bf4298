// SPDX-License-Identifier: BSD-3-Clause
// The bidiagonal SVD by the CUDA engine (kernels/lapack.hpp bidiag_svd: the Golub-Kahan
// form through the GPU divide and conquer) against LAPACK, the checks of
// bdsvd_test_helpers.hpp: s/d/c/z, every kind of bidiagonal up to n = 2000, both uplo,
// windows, n = 4096, bad arguments. Each test prints the worst figures per kind.
#include <gtest/gtest.h>

#include "tests/kernels/bdsvd_test_helpers.hpp"
#include "tests/kernels/cuda_test_helpers.hpp"

namespace mgblas::testing {
namespace {

template <typename T>
class BidiagSvd_Cuda : public ::testing::Test {};
TYPED_TEST_SUITE(BidiagSvd_Cuda, TestScalars, PrecisionName);

TYPED_TEST(BidiagSvd_Cuda, EveryKindAndWindow) {
  check_every_bidiagonal<TypeParam>(gpu(), {1, 2, 3, 17, 64, 333, 1000, 2000});
  print_svd_worst("cuda");
}

TYPED_TEST(BidiagSvd_Cuda, Large) {
  using R = real_type_t<TypeParam>;
  auto rng = make_rng();
  const auto b = make_bidiagonal<R>(BdKind::Random, 4096, rng);
  check_bidiag_svd<TypeParam>(gpu(), b, Uplo::Upper, "random 4096");
  check_bidiag_svd<TypeParam>(gpu(), b, Uplo::Lower, "random 4096", 4000, 4096);
  check_bidiag_svd<TypeParam>(gpu(), b, Uplo::Upper, "random 4096", 0, 0);  // values: D&C
  print_svd_worst("cuda 4096");
}

TYPED_TEST(BidiagSvd_Cuda, BadArguments) { check_bidiag_svd_bad_arguments<TypeParam>(gpu()); }

}  // namespace
}  // namespace mgblas::testing
