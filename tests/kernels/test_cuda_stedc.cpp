// SPDX-License-Identifier: BSD-3-Clause
// Tridiagonal eigenpairs by the CUDA engine's divide and conquer (kernels/lapack.hpp
// tridiag_eigenvectors) against LAPACK, the checks of stedc_test_helpers.hpp: s/d/c/z,
// every spectrum and window of check_every_spectrum, n = 3000, bad arguments.
#include <gtest/gtest.h>

#include "tests/kernels/cuda_test_helpers.hpp"
#include "tests/kernels/stedc_test_helpers.hpp"

namespace mgblas::testing {
namespace {

template <typename T>
class Stedc_Cuda : public ::testing::Test {};
TYPED_TEST_SUITE(Stedc_Cuda, TestScalars, PrecisionName);

TYPED_TEST(Stedc_Cuda, EverySpectrumAndWindow) { check_every_spectrum<TypeParam>(gpu()); }

TYPED_TEST(Stedc_Cuda, Large) {
  using R = real_type_t<TypeParam>;
  auto rng = make_rng();
  const auto t = make_tridiagonal<R>(Spectrum::Random, 3000, rng);
  check_eigenpairs<TypeParam>(gpu(), t, "random");
  check_eigenpairs<TypeParam>(gpu(), t, "random", 0, 300);
}

TYPED_TEST(Stedc_Cuda, BadArguments) { check_bad_arguments<TypeParam>(gpu()); }

}  // namespace
}  // namespace mgblas::testing
