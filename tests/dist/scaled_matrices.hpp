// SPDX-License-Identifier: BSD-3-Clause
// Test matrices at the ends of the floating-point range for the reductions (issue 32):
// the random matrix scaled as a whole by a huge or tiny factor, or mixed (one column, and
// for a Hermitian matrix its mirror row, huge, the rest tiny), and the small-size mode
// of the reduction tests (MGBLAS_TEST_SMALL=1: only cases of at most 64 rows and
// columns, so that the binaries finish under compute-sanitizer, .ci/sanitize_gpu.sh, and
// under ASan, .ci/sanitize.sh).
#pragma once

#include <cmath>
#include <complex>
#include <cstdint>
#include <cstdlib>
#include <limits>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "core/types.hpp"

namespace mgblas::testing::dist {

/// Every entry times `factor`; with column >= 0, the entries of that column (and row, for
/// a Hermitian matrix) times `factor` and the others times `rest`.
struct MatrixScale {
  double factor = 1;
  double rest = 1;
  int64_t column = -1;
  std::string name = "unscaled";
  bool identity() const { return factor == 1 && column < 0; }
};

/// The scales of the tests: 1e+-300 and 1e+-150 in double, 1e+-30 and 1e+-15 in float (the
/// same distance from the ends of the range), and mixed: one column at the huge scale, the
/// rest at the tiny one.
template <Scalar T>
std::vector<MatrixScale> extreme_scales(int64_t huge_column) {
  const bool single = std::is_same_v<real_type_t<T>, float>;
  const double big = single ? 1e30 : 1e300, mid = single ? 1e15 : 1e150;
  return {{big, 1, -1, "huge"},
          {1 / big, 1, -1, "tiny"},
          {mid, 1, -1, "large"},
          {1 / mid, 1, -1, "small"},
          {big, 1 / big, huge_column, "mixed"}};
}

/// A(i, j) (m x n, column-major) scaled as `s` says; `hermitian`: row `column` too.
template <Scalar T>
void apply_scale(std::vector<T>& A, int64_t m, int64_t n, const MatrixScale& s, bool hermitian) {
  if (s.identity()) return;
  using R = real_type_t<T>;
  for (int64_t j = 0; j < n; ++j)
    for (int64_t i = 0; i < m; ++i) {
      const bool hit = s.column < 0 || j == s.column || (hermitian && i == s.column);
      A[i + j * m] *= T(static_cast<R>(hit ? s.factor : s.rest));
    }
}

/// The non-finite values a reduction's input is tested with (issue 32): NaN, +inf, -inf.
template <Scalar T>
std::vector<real_type_t<T>> nonfinite_values() {
  using R = real_type_t<T>;
  return {std::numeric_limits<R>::quiet_NaN(), std::numeric_limits<R>::infinity(),
          -std::numeric_limits<R>::infinity()};
}

/// Where a non-finite value is planted in an m x n matrix: the four corners and one
/// inside (a Hermitian matrix takes the value at the mirror position too).
inline std::vector<std::pair<int64_t, int64_t>> nonfinite_positions(int64_t m, int64_t n) {
  return {{0, 0}, {m - 1, 0}, {0, n - 1}, {m - 1, n - 1}, {m / 2, n / 3}};
}

/// True when one of the arrays holds a NaN or an infinity.
template <typename... V>
bool any_nonfinite(const V&... arrays) {
  bool found = false;
  auto scan = [&found](const auto& a) {
    for (const auto& x : a)
      if (!std::isfinite(std::abs(x))) found = true;
  };
  (scan(arrays), ...);
  return found;
}

/// MGBLAS_TEST_SMALL=1: the reduction tests run only their cases of at most 64 rows and
/// columns (compute-sanitizer on the GPU tests, the ASan/UBSan run on the host tests).
inline bool small_mode() {
  const char* v = std::getenv("MGBLAS_TEST_SMALL");
  return v && v[0] != '\0' && v[0] != '0';
}
inline bool skipped_in_small_mode(int64_t m, int64_t n) {
  return small_mode() && (m > 64 || n > 64);
}

}  // namespace mgblas::testing::dist
