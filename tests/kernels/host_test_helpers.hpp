// SPDX-License-Identifier: BSD-3-Clause
// The host-side pieces of the kernel tests: typed-test names, the per-matrix difference
// norm, the "untouched outside the output" check and the seed text. Kept apart from
// cuda_test_helpers.hpp (which registers a GPU environment) so that tests without a GPU
// (test_batched_host, tests/dist) use the same checks as the CUDA-versus-host tests.
#pragma once

#include <gtest/gtest.h>

#include <cmath>
#include <complex>
#include <cstdint>
#include <cstring>
#include <sstream>
#include <string>
#include <vector>

#include "core/types.hpp"
#include "tests/testing/testing.hpp"

namespace mgblas::testing {

using TestScalars = ::testing::Types<float, double, std::complex<float>, std::complex<double>>;

/// Typed-test names carry the precision letter: Gemv_Cuda/d.sizes.
struct PrecisionName {
  template <typename T>
  static std::string GetName(int) {
    return std::string(1, precision_letter<T>());
  }
};

/// The pointer arrays of a batched call (host memory; entries in host or device memory).
template <typename T>
struct PointerArrays {
  std::vector<const T*> a, b;
  std::vector<T*> c;
};

/// Frobenius norm of the difference of two m x n column-major matrices.
template <Scalar T>
double matrix_diff_norm(int64_t m, int64_t n, const T* C, int64_t ldc, const T* Cref,
                        int64_t ldref) {
  double s = 0;
  for (int64_t j = 0; j < n; ++j) {
    const double d = norm_diff(m, C + j * ldc, 1, Cref + j * ldref, 1);
    s += d * d;
  }
  return std::sqrt(s);
}

inline bool same_bits(const void* a, const void* b, std::size_t bytes) {
  return std::memcmp(a, b, bytes) == 0;
}

/// Every element of `after` for which in_output(index) is false must be bit-for-bit
/// what it was `before` (NaN poison, padding, gaps, the rest of a parent matrix).
template <Scalar T, typename InOutput>
void expect_untouched_outside(const std::vector<T>& before, const std::vector<T>& after,
                              InOutput in_output, const char* what) {
  ASSERT_EQ(before.size(), after.size());
  int64_t changed = 0, first = -1;
  for (std::size_t p = 0; p < before.size(); ++p) {
    if (in_output(static_cast<int64_t>(p))) continue;
    if (!same_bits(&before[p], &after[p], sizeof(T))) {
      if (first < 0) first = static_cast<int64_t>(p);
      ++changed;
    }
  }
  EXPECT_EQ(changed, 0) << changed << " element(s) of " << what
                        << " outside the output region changed; first at index " << first;
}

/// The seed of the running test, for traces (make_rng records it as a property too).
inline std::string seed_text() {
  std::ostringstream os;
  os << "seed " << test_seed() << " (base from MGBLAS_TEST_SEED)";
  return os.str();
}

}  // namespace mgblas::testing
