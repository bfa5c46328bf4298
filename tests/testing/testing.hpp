// SPDX-License-Identifier: BSD-3-Clause
// Helpers shared by the tests: seeded random data, NaN poison, norms and the
// norm-wise error measure of ../../shared/STYLE.md section 8.
#pragma once

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "core/types.hpp"

namespace mgblas::testing {

/// Base seed (env MGBLAS_TEST_SEED, default 1) mixed with the running test's full
/// name, so every test case draws its own fresh data and a failure can be replayed.
inline uint64_t test_seed() {
  uint64_t base = 1;
  if (const char* s = std::getenv("MGBLAS_TEST_SEED")) base = std::strtoull(s, nullptr, 10);
  std::string name = "no-test";
  if (auto* info = ::testing::UnitTest::GetInstance()->current_test_info())
    name = std::string(info->test_suite_name()) + "." + info->name();
  uint64_t h = 1469598103934665603ull;  // FNV-1a
  for (char c : name) h = (h ^ static_cast<unsigned char>(c)) * 1099511628211ull;
  return h ^ (base * 0x9E3779B97F4A7C15ull);
}

/// A generator seeded by test_seed(); the seed is recorded in the test's output.
inline std::mt19937_64 make_rng() {
  const uint64_t seed = test_seed();
  ::testing::Test::RecordProperty("seed", std::to_string(seed));
  return std::mt19937_64(seed);
}

/// Sets an environment variable for the life of the object (unset where value is null).
class ScopedEnv {
 public:
  ScopedEnv(const char* name, const char* value) : name_(name) {
    if (const char* old = std::getenv(name)) old_ = old, had_ = true;
    if (value != nullptr)
      setenv(name, value, 1);
    else
      unsetenv(name);
  }
  ~ScopedEnv() {
    if (had_)
      setenv(name_, old_.c_str(), 1);
    else
      unsetenv(name_);
  }
  ScopedEnv(const ScopedEnv&) = delete;
  ScopedEnv& operator=(const ScopedEnv&) = delete;

 private:
  const char* name_;
  std::string old_;
  bool had_ = false;
};

/// Uniform on [-1, 1] (each part for complex).
template <Scalar T>
T random_value(std::mt19937_64& rng) {
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  if constexpr (is_complex_v<T>) {
    using R = real_type_t<T>;
    const R re = static_cast<R>(u(rng));
    const R im = static_cast<R>(u(rng));
    return T(re, im);
  } else {
    return static_cast<T>(u(rng));
  }
}

/// A scalar such as alpha or beta: magnitude in [0.5, 1.5], random sign, and a
/// non-zero imaginary part for complex types.
template <Scalar T>
T random_scalar(std::mt19937_64& rng) {
  std::uniform_real_distribution<double> u(0.5, 1.5);
  std::bernoulli_distribution sign(0.5);
  const double re = sign(rng) ? u(rng) : -u(rng);
  if constexpr (is_complex_v<T>) {
    const double im = sign(rng) ? u(rng) : -u(rng);
    return T(static_cast<real_type_t<T>>(re), static_cast<real_type_t<T>>(im));
  } else {
    return static_cast<T>(re);
  }
}

template <Scalar T>
std::vector<T> random_vector(std::size_t n, std::mt19937_64& rng) {
  std::vector<T> v(n);
  for (auto& e : v) e = random_value<T>(rng);
  return v;
}

template <Scalar T>
T nan_value() {
  using R = real_type_t<T>;
  const R q = std::numeric_limits<R>::quiet_NaN();
  if constexpr (is_complex_v<T>) return T(q, q);
  else return q;
}

template <Scalar T>
bool is_nan(T v) {
  if constexpr (is_complex_v<T>) return std::isnan(v.real()) || std::isnan(v.imag());
  else return std::isnan(v);
}

/// Machine epsilon of T's real type.
template <Scalar T>
double eps() {
  return static_cast<double>(std::numeric_limits<real_type_t<T>>::epsilon());
}

/// Frobenius norm of an m x n column-major array (a vector: n = 1, or stride via ld).
template <Scalar T>
double norm_fro(int64_t m, int64_t n, const T* A, int64_t lda) {
  double s = 0;
  for (int64_t j = 0; j < n; ++j)
    for (int64_t i = 0; i < m; ++i) {
      const double a = std::abs(A[i + j * lda]);
      s += a * a;
    }
  return std::sqrt(s);
}

/// Norm of a strided vector.
template <Scalar T>
double norm_vec(int64_t n, const T* x, int64_t incx = 1) {
  double s = 0;
  for (int64_t i = 0; i < n; ++i) {
    const double a = std::abs(x[i * incx]);
    s += a * a;
  }
  return std::sqrt(s);
}

/// Frobenius norm of the difference of two strided vectors.
template <Scalar T>
double norm_diff(int64_t n, const T* y, int64_t incy, const T* yref, int64_t incref) {
  double s = 0;
  for (int64_t i = 0; i < n; ++i) {
    const double a = std::abs(y[i * incy] - yref[i * incref]);
    s += a * a;
  }
  return std::sqrt(s);
}

/// Tolerance on the scaled error: 10, times sqrt(2) for complex types.
template <Scalar T>
double error_tolerance() {
  return is_complex_v<T> ? 10.0 * std::sqrt(2.0) : 10.0;
}

//  +------------------------------------------------------------------------+
//  |  err = ||y - y_ref|| / ((k * |alpha| * ||A|| * ||x|| + |beta| * ||y0||) |
//  |                         * eps)                                         |
//  |  k = inner dimension; passes when err <= tol (10, x sqrt(2) complex).  |
//  +------------------------------------------------------------------------+
/// Returns err as above; a zero denominator (nothing to compare) yields the
/// absolute difference over eps, so exact results still pass and NaN fails.
template <Scalar T>
double scaled_error(double diff_norm, int64_t k, T alpha, double normA, double normx, T beta,
                    double normy0) {
  const double denom = (static_cast<double>(std::max<int64_t>(k, 1)) * std::abs(alpha) * normA *
                            normx +
                        std::abs(beta) * normy0) *
                       eps<T>();
  if (std::isnan(diff_norm)) return std::numeric_limits<double>::infinity();
  return denom > 0 ? diff_norm / denom : diff_norm / eps<T>();
}

}  // namespace mgblas::testing
