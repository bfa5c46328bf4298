// SPDX-License-Identifier: BSD-3-Clause
// The band-to-bidiagonal bulge chase on the host engine (kernels/lapack.hpp
// band_to_bidiag): the checks of gb2bd_test_helpers.hpp that test_cuda_band_to_bidiag runs
// on a GPU, with Q2 and P2 applied by band_to_tridiag_apply_q.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <memory>
#include <utility>
#include <vector>

#include "core/device.hpp"
#include "kernels/gb2bd_kernels.hpp"
#include "tests/kernels/gb2bd_test_helpers.hpp"

namespace mgblas::testing {
namespace {

const Device& host_device() {
  static const std::unique_ptr<Device> dev = Device::make_host(0);
  return *dev;
}

template <typename T>
class BandToBidiag_Host : public ::testing::Test {};
TYPED_TEST_SUITE(BandToBidiag_Host, TestScalars, PrecisionName);

TYPED_TEST(BandToBidiag_Host, EveryBand) { check_every_bidiag<TypeParam>(host_device()); }
// A random upper band is ill-conditioned: its smallest singular values, and the
// bidiagonal's trailing entries, decay geometrically with n, below the smallest normal
// number (float from n of a few hundred); the reflectors must stay finite there.
TYPED_TEST(BandToBidiag_Host, EntriesBelowTheSmallestNormal) {
  using T = TypeParam;
  auto rng = make_rng();
  const bool single = sizeof(real_type_t<T>) == 4;
  check_bidiag<T>(host_device(), make_upper_band<T>(UpperBandKind::Random, single ? 800 : 3000, single ? 8 : 64, rng),
                  UpperBandKind::Random, false);
}
TYPED_TEST(BandToBidiag_Host, BadArguments) {
  check_bidiag_bad_arguments<TypeParam>(host_device());
}

// The chase's schedule (kernels/gb2bd_kernels.hpp) on a model: the entries each task
// (s, k) reads and writes, two rectangles (U over C_k and E right of it), against every
// task of an earlier sweep that may still run when (s, k) does, task j of sweep s - d with
// j > k + d (the rule: (s - 1, k + 1) finished, which in turn waited for (s - 2, k + 2)).
// Only (s - 1, k + 2) may share an entry with (s, k), and only one: its head (r, c), which
// is (s, k)'s last left-update entry (c_k + b - 1, c_k + 2b - 1), the one (s, k) reads
// after the head's hand-off. Such shared heads exist, so the hand-off is needed.
TEST(BandToBidiagSchedule, ChaseScheduleSharesOneEntry) {
  struct Rect {
    int64_t r0, r1, c0, c1;  // rows [r0, r1) x columns [c0, c1)
  };
  struct Task {
    Rect u, e;
    int64_t hr, hc;  // the head (r, c)
  };
  const auto task = [](int64_t n, int64_t b, int64_t s, int64_t k) {
    const int64_t c = s + 1 + k * b, r = k == 0 ? s : c - b;
    const int64_t m = std::min(b, n - c), ce = std::min(c + m + b, n);
    return Task{{r, c + m, c, c + m}, {c, c + m, c + m, ce}, r, c};
  };
  // The common entries of two rectangles: how many, and the last one seen.
  const auto meet = [](const Rect& x, const Rect& y, int64_t& count, int64_t& i, int64_t& j) {
    const int64_t r0 = std::max(x.r0, y.r0), r1 = std::min(x.r1, y.r1);
    const int64_t c0 = std::max(x.c0, y.c0), c1 = std::min(x.c1, y.c1);
    if (r0 >= r1 || c0 >= c1) return;
    count += (r1 - r0) * (c1 - c0);
    i = r1 - 1;
    j = c1 - 1;
  };
  for (auto [n, b] : std::vector<std::pair<int64_t, int64_t>>{
           {40, 1}, {40, 2}, {41, 3}, {77, 5}, {100, 8}, {131, 32}, {300, 64}}) {
    SCOPED_TRACE(detail::concat("n=", n, " b=", b));
    int64_t wrong = 0, heads = 0;
    for (int64_t s = 1; s + 1 < n; ++s)
      for (int64_t k = 0; k < band2bd_tasks(n, b, s); ++k) {
        const Task t = task(n, b, s, k);
        for (int64_t d = 1; d <= s; ++d)
          for (int64_t j = k + d + 1; j < band2bd_tasks(n, b, s - d); ++j) {
            const Task o = task(n, b, s - d, j);
            int64_t count = 0, i = -1, jj = -1;
            for (const Rect& x : {t.u, t.e})
              for (const Rect& y : {o.u, o.e}) meet(x, y, count, i, jj);
            if (count == 0) continue;
            const bool head = d == 1 && j == k + 2 && count == 1 && i == o.hr && jj == o.hc &&
                              i == t.u.r1 - 1 && jj == t.e.c1 - 1;
            heads += head ? 1 : 0;
            wrong += head ? 0 : 1;
          }
      }
    EXPECT_EQ(wrong, 0) << "tasks that may run at once and share entries besides the head";
    if (b > 1 && n > 4 * b) EXPECT_GT(heads, 0);
  }
}

}  // namespace
}  // namespace mgblas::testing
