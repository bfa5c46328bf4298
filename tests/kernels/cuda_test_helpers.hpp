// SPDX-License-Identifier: BSD-3-Clause
// Shared pieces of the CUDA-versus-host kernel tests (test_cuda_*.cpp): the two
// devices, transfers and NaN-poisoned operands (the checks, which need no GPU, are in
// host_test_helpers.hpp). Each test runs the public entry on the GPU and on the host
// reference engine with the same fresh random inputs and compares them with
// testing::scaled_error.
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
#include "tests/kernels/host_test_helpers.hpp"
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

// ---- transfers --------------------------------------------------------------------

template <typename T>
DeviceBuffer<T> upload(const std::vector<T>& h) {
  DeviceBuffer<T> d(gpu(), h.size());
  copy_vector(gpu(), static_cast<int64_t>(h.size()), h.data(), d.data());
  return d;
}

/// The pointer arrays of a batched call, copied to the GPU (the batched entries read
/// them there); keep them until the call has finished.
template <typename T>
struct DevicePointerArrays {
  DeviceBuffer<const T*> a, b;
  DeviceBuffer<T*> c;
};

template <typename T>
DevicePointerArrays<T> upload(const PointerArrays<T>& p) {
  return {upload(p.a), upload(p.b), upload(p.c)};
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

}  // namespace mgblas::testing
