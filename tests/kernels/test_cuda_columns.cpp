// SPDX-License-Identifier: BSD-3-Clause
// The CUDA engine's scaling and digest kernels (kernels/columns.hpp) against the host
// engine on fresh random data: max_magnitude and range_scale must give the host's
// bits exactly (a maximum and a power-of-two product are exact), digest must equal
// hash_bytes of the same bytes on the host, for every length (float vectors end in a
// half word), and change when one entry changes.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <random>
#include <tuple>
#include <vector>

#include "core/hash.hpp"
#include "kernels/columns.hpp"
#include "tests/kernels/cuda_test_helpers.hpp"

namespace mgblas::testing {
namespace {

template <typename T>
class Columns_Cuda : public ::testing::Test {};
TYPED_TEST_SUITE(Columns_Cuda, TestScalars, PrecisionName);

TYPED_TEST(Columns_Cuda, DigestEqualsHost) {
  using T = TypeParam;
  auto rng = make_rng();
  DeviceBuffer<uint64_t> scratch(gpu(), 1);
  for (int64_t n : {1, 2, 3, 7, 8, 9, 255, 4096, 12345}) {
    SCOPED_TRACE(detail::concat("n=", n, " ", seed_text()));
    std::vector<T> x = random_vector<T>(static_cast<std::size_t>(n), rng);
    const uint64_t want = hash_bytes(x.data(), x.size() * sizeof(T));
    DeviceBuffer<T> dx = upload(x);
    EXPECT_EQ(digest<T>(gpu(), n, dx.data(), scratch.data()), want);
    EXPECT_EQ(digest<T>(host(), n, x.data(), nullptr), want);
    // One entry changed (the last, which a float vector holds in a half word).
    x[static_cast<std::size_t>(n - 1)] += T(1);
    DeviceBuffer<T> dy = upload(x);
    EXPECT_NE(digest<T>(gpu(), n, dy.data(), scratch.data()), want);
  }
}

// A matrix at scale `scale` (entries up to about scale), optionally with a NaN.
template <Scalar T>
std::vector<T> scaled_matrix(int64_t rows, int64_t cols, int64_t ld, double scale, bool nan,
                             std::mt19937_64& rng) {
  std::vector<T> A = random_vector<T>(static_cast<std::size_t>(ld * cols), rng);
  for (T& a : A) a *= static_cast<real_type_t<T>>(scale);
  if (nan) A[static_cast<std::size_t>((rows / 2) + (cols / 2) * ld)] = nan_value<T>();
  return A;
}

TYPED_TEST(Columns_Cuda, MaxMagnitudeAndRangeScaleMatchHost) {
  using T = TypeParam;
  using R = real_type_t<T>;
  auto rng = make_rng();
  const bool single = sizeof(R) == 4;
  DeviceBuffer<R> dmax(gpu(), 1);
  for (double scale : {1.0, single ? 1e30 : 1e300, single ? 1e-30 : 1e-300, single ? 1e15 : 1e200})
    for (bool nan : {false, true})
      for (auto [rows, cols, ld] : {std::tuple<int64_t, int64_t, int64_t>{1, 1, 1}, {37, 5, 40},
                                    {1000, 33, 1003}}) {
        SCOPED_TRACE(detail::concat("scale=", scale, " nan=", nan, " ", rows, "x", cols, " ",
                                    seed_text()));
        const std::vector<T> A = scaled_matrix<T>(rows, cols, ld, scale, nan, rng);
        R host_max = -1;
        max_magnitude<T>(host(), rows, cols, A.data(), ld, &host_max);
        const DeviceBuffer<T> dA = upload(A);
        max_magnitude<T>(gpu(), rows, cols, dA.data(), ld, dmax.data());
        const R gpu_max = download(dmax)[0];
        if (nan) {
          EXPECT_TRUE(std::isnan(host_max));
          EXPECT_TRUE(std::isnan(gpu_max));
        } else {
          EXPECT_EQ(gpu_max, host_max);
          EXPECT_GT(host_max, R(0));
        }
        // Scale, then scale back: both engines, the same bits; in range: untouched.
        const std::vector<R> maxima = {R(0), host_max, R(0)};
        const DeviceBuffer<R> dmaxima = upload(maxima);
        for (bool inverse : {false, true}) {
          std::vector<T> B = A;
          range_scale<T>(host(), rows, cols, 3, maxima.data(), inverse, B.data(), ld);
          DeviceBuffer<T> dB = upload(A);
          range_scale<T>(gpu(), rows, cols, 3, dmaxima.data(), inverse, dB.data(), ld);
          const std::vector<T> G = download(dB);
          bool same = true, changed = false;
          for (std::size_t i = 0; i < A.size(); ++i) {
            const bool in_block = static_cast<int64_t>(i % ld) < rows;
            same = same && (is_nan(G[i]) ? is_nan(B[i]) : G[i] == B[i]);
            if (!in_block) same = same && (is_nan(G[i]) ? is_nan(A[i]) : G[i] == A[i]);
            changed = changed || (!is_nan(A[i]) && G[i] != A[i]);
          }
          EXPECT_TRUE(same) << "GPU and host differ, or the padding was written";
          const bool out_of_range = !nan && scale != 1.0;
          EXPECT_EQ(changed, out_of_range) << "inverse=" << inverse;
        }
      }
}

}  // namespace
}  // namespace mgblas::testing
