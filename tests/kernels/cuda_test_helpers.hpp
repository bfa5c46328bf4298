// SPDX-License-Identifier: BSD-3-Clause
// Shared pieces of the CUDA-versus-host kernel tests (test_cuda_*.cpp): the two
// devices, transfers, NaN-poisoned operands and the "untouched outside the output"
// check. Each test runs the public entry on the GPU and on the host reference engine
// with the same fresh random inputs and compares them with testing::scaled_error.
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <complex>
#include <cstdint>
#include <cstring>
#include <memory>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "core/device.hpp"
#include "core/error.hpp"
#include "core/memory.hpp"
#include "core/types.hpp"
#include "tests/testing/testing.hpp"

namespace mgblas::testing {

/// GPU 0 and a host device, created once per binary after the GPU main has checked
/// that a GPU is visible (it exits 77 before any test otherwise).
class CudaTestDevices : public ::testing::Environment {
 public:
  void SetUp() override {
    gpu_ = Device::make_cuda(0, 0);
    host_ = Device::make_host(0);
  }
  void TearDown() override {
    gpu_.reset();
    host_.reset();
  }
  static const Device& gpu() { return *gpu_; }
  static const Device& host() { return *host_; }

 private:
  static inline std::unique_ptr<Device> gpu_;
  static inline std::unique_ptr<Device> host_;
};
// Registered before main runs (one translation unit per test binary includes this).
inline ::testing::Environment* const cuda_test_devices =
    ::testing::AddGlobalTestEnvironment(new CudaTestDevices);

inline const Device& gpu() { return CudaTestDevices::gpu(); }
inline const Device& host() { return CudaTestDevices::host(); }

using TestScalars = ::testing::Types<float, double, std::complex<float>, std::complex<double>>;

/// Typed-test names carry the precision letter: Gemv_Cuda/d.sizes.
struct PrecisionName {
  template <typename T>
  static std::string GetName(int) {
    return std::string(1, precision_letter<T>());
  }
};

// ---- transfers --------------------------------------------------------------------

template <typename T>
DeviceBuffer<T> upload(const std::vector<T>& h) {
  DeviceBuffer<T> d(gpu(), h.size());
  copy_vector(gpu(), static_cast<int64_t>(h.size()), h.data(), d.data());
  return d;
}

/// Waits for the GPU's stream (copy_vector is synchronous), so it follows the kernels.
template <typename T>
std::vector<T> download(const DeviceBuffer<T>& d) {
  std::vector<T> h(d.size());
  copy_vector(gpu(), static_cast<int64_t>(d.size()), d.data(), h.data());
  return h;
}

// ---- scalars ----------------------------------------------------------------------

/// Which alpha/beta a case uses: random both, beta = 0 (with NaN in the output,
/// which must be overwritten), alpha = 0 (output = beta * output), or both zero.
enum class Scalars { Random, BetaZero, AlphaZero, BothZero };

inline const char* to_string(Scalars s) {
  switch (s) {
    case Scalars::Random: return "random";
    case Scalars::BetaZero: return "beta=0";
    case Scalars::AlphaZero: return "alpha=0";
    case Scalars::BothZero: return "alpha=beta=0";
  }
  return "?";
}

template <Scalar T>
void draw_scalars(Scalars kind, std::mt19937_64& rng, T& alpha, T& beta) {
  alpha = random_scalar<T>(rng);
  beta = random_scalar<T>(rng);
  if (kind == Scalars::AlphaZero || kind == Scalars::BothZero) alpha = T(0);
  if (kind == Scalars::BetaZero || kind == Scalars::BothZero) beta = T(0);
}

/// NaN in the output before a beta = 0 call: the engine must not read it.
inline bool poisons_output(Scalars kind) {
  return kind == Scalars::BetaZero || kind == Scalars::BothZero;
}

// ---- operands ---------------------------------------------------------------------

/// A rows x cols column-major matrix in storage of ld * cols elements: random inside,
/// NaN in the ld padding (never to be read, and never written).
template <Scalar T>
std::vector<T> random_padded_matrix(int64_t rows, int64_t cols, int64_t ld,
                                    std::mt19937_64& rng) {
  std::vector<T> a(static_cast<std::size_t>(ld * std::max<int64_t>(cols, 1)), nan_value<T>());
  for (int64_t j = 0; j < cols; ++j)
    for (int64_t i = 0; i < rows; ++i) a[i + j * ld] = random_value<T>(rng);
  return a;
}

/// A strided vector of len elements in storage of max(1, len * inc) elements: random at
/// i * inc, NaN in the gaps.
template <Scalar T>
std::vector<T> random_strided_vector(int64_t len, int64_t inc, std::mt19937_64& rng) {
  std::vector<T> v(static_cast<std::size_t>(std::max<int64_t>(1, len * inc)), nan_value<T>());
  for (int64_t i = 0; i < len; ++i) v[i * inc] = random_value<T>(rng);
  return v;
}

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
