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
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "core/device.hpp"
#include "core/types.hpp"
#include "tests/testing/testing.hpp"

namespace mgblas::testing {

// The precisions of this build (MGBLAS_PRECISIONS).
using TestScalars = EnabledScalars::apply<::testing::Types>;

/// A typed test of the host engine's kernels: dev_ is a host device.
template <typename T>
class HostEngineTest : public ::testing::Test {
 protected:
  std::unique_ptr<Device> dev_ = Device::make_host(0);
};

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

/// One GEMM result checked against its reference, as every GEMM test does: the operands
/// are not all zero, the reference is not zero unless nothing is added (beta = 0 and
/// alpha = 0 or k = 0), C is within the error bound of C_ref and nothing of C outside its
/// m x n part changed. op(A) is m x k stored rowsA x colsA (likewise B); C0 is C before
/// the call, `poisoned` when it held NaN (beta = 0: its norm does not count).
template <Scalar T>
void check_gemm(int64_t m, int64_t n, int64_t k, T alpha, T beta, int64_t rowsA, int64_t colsA,
                const std::vector<T>& A, int64_t lda, int64_t rowsB, int64_t colsB,
                const std::vector<T>& B, int64_t ldb, const std::vector<T>& C0,
                const std::vector<T>& C, const std::vector<T>& C_ref, int64_t ldc,
                bool poisoned) {
  const double normA = norm_fro(rowsA, colsA, A.data(), lda);
  const double normB = norm_fro(rowsB, colsB, B.data(), ldb);
  const double normC0 = poisoned ? 0.0 : norm_fro(m, n, C0.data(), ldc);
  if (rowsA > 0 && colsA > 0) {
    ASSERT_GT(normA, 0.0);
  }
  if (rowsB > 0 && colsB > 0) {
    ASSERT_GT(normB, 0.0);
  }
  const bool zero_expected = beta == T(0) && (alpha == T(0) || k == 0);
  if (m > 0 && n > 0 && !zero_expected) {
    ASSERT_GT(norm_fro(m, n, C_ref.data(), ldc), 0.0)
        << "zero reference: the comparison would pass vacuously";
  }
  //  +------------------------------------------------------------------------+
  //  |  err = ||C - C_ref||_F / ((k * |alpha| * ||A||_F * ||B||_F             |
  //  |                          + |beta| * ||C0||_F) * eps)                   |
  //  |  passes when err <= 10 (x sqrt(2) for complex); a k-split sums in      |
  //  |  another order than the host, which the k factor covers               |
  //  +------------------------------------------------------------------------+
  const double err = scaled_error(matrix_diff_norm(m, n, C.data(), ldc, C_ref.data(), ldc), k,
                                  alpha, normA, normB, beta, normC0);
  EXPECT_LE(err, error_tolerance<T>());
  expect_untouched_outside(C0, C, [&](int64_t p) { return p % ldc < m && p / ldc < n; }, "C");
}

/// The seed of the running test, for traces (make_rng records it as a property too).
inline std::string seed_text() {
  std::ostringstream os;
  os << "seed " << test_seed() << " (base from MGBLAS_TEST_SEED)";
  return os.str();
}

}  // namespace mgblas::testing
