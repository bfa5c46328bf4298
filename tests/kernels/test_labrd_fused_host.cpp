// SPDX-License-Identifier: BSD-3-Clause
// The host engine's fused row step of the bidiagonal reduction (labrd_fused in
// kernels/labrd_kernels.hpp) against the steps it replaces, on the same fresh random
// inputs: gemv (A^H v into Y's column), labrd_row (Y's finish, the row's update and its
// sums) and gemv (A u). A, Y and the sums must agree to rounding; the rows of A below
// the step's md rows hold NaN, so a read past them fails the comparison.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "core/device.hpp"
#include "core/error.hpp"
#include "kernels/gemv_kernels.hpp"
#include "kernels/labrd_kernels.hpp"
#include "tests/kernels/host_test_helpers.hpp"
#include "tests/testing/testing.hpp"

namespace mgblas {
namespace {

using testing::TestScalars;

template <typename T>
class LabrdFusedHost : public testing::HostEngineTest<T> {};
TYPED_TEST_SUITE(LabrdFusedHost, TestScalars, testing::PrecisionName);

// The operands of one row step; `ref` and `fused` each get a copy of A, Y and sums.
template <Scalar T>
struct RowStep {
  int64_t md = 0, nq = 0, lda = 0, ldy = 0, ldv = 0, ldx = 0;
  bool owns_head = false;
  kernels::LabrdSums S;
  std::vector<T> A, v, Y, Ut, s, tau, vrow, xrow, sums;

  std::string text() const {
    return detail::concat("md=", md, " nq=", nq, " jy=", S.jy, " ju=", S.ju, " lda=", lda,
                          " ldy=", ldy, " owns_head=", owns_head);
  }
};

template <Scalar T>
RowStep<T> random_step(std::mt19937_64& rng) {
  auto pick = [&](int64_t lo, int64_t hi) { return std::uniform_int_distribution<int64_t>(lo, hi)(rng); };
  RowStep<T> c;
  c.md = pick(1, 300);
  c.nq = pick(0, 40);
  const int64_t jy = pick(1, 6), ju = pick(0, 6);
  c.S = kernels::LabrdSums{c.md - 1, jy, ju};
  c.owns_head = c.nq > 0 && pick(0, 1) == 1;
  c.lda = c.md + pick(0, 5);
  c.ldy = std::max<int64_t>(1, c.nq + pick(0, 3));
  c.ldv = pick(1, 4);
  c.ldx = pick(1, 4);
  c.A.assign(static_cast<std::size_t>(c.lda * std::max<int64_t>(c.nq, 1)), testing::nan_value<T>());
  for (int64_t q = 0; q < c.nq; ++q)
    for (int64_t r = 0; r < c.md; ++r) c.A[r + q * c.lda] = testing::random_value<T>(rng);
  c.v = testing::random_vector<T>(static_cast<std::size_t>(c.md), rng);
  c.v[0] = T(1);  // a reflector's head, as the column step leaves it
  c.Y = testing::random_vector<T>(static_cast<std::size_t>(c.ldy * jy), rng);
  c.Ut = testing::random_vector<T>(static_cast<std::size_t>(c.ldy * std::max<int64_t>(ju, 1)), rng);
  c.s = testing::random_vector<T>(static_cast<std::size_t>(jy - 1 + ju), rng);
  c.tau = {testing::random_scalar<T>(rng)};
  c.vrow = testing::random_vector<T>(static_cast<std::size_t>(c.ldv * jy), rng);
  c.xrow = testing::random_vector<T>(static_cast<std::size_t>(c.ldx * std::max<int64_t>(ju, 1)), rng);
  c.sums.assign(static_cast<std::size_t>(c.S.size()), testing::nan_value<T>());
  return c;
}

// max |a - b| over the first n entries, relative to max(1, max |b|); NaN counts as infinite.
template <Scalar T>
double rel_diff(const std::vector<T>& a, const std::vector<T>& b) {
  double diff = 0, scale = 1;
  for (std::size_t i = 0; i < b.size(); ++i) {
    const bool a_nan = std::isnan(std::abs(a[i])), b_nan = std::isnan(std::abs(b[i]));
    if (a_nan != b_nan) return std::numeric_limits<double>::infinity();
    if (a_nan) continue;  // never-written padding, the same in both
    diff = std::max(diff, static_cast<double>(std::abs(a[i] - b[i])));
    scale = std::max(scale, static_cast<double>(std::abs(b[i])));
  }
  return diff / scale;
}

// +-----------------------------------------------------------------------------------+
// | labrd_fused  ==  gemv(C) into Y(:, fix); labrd_row(fix = jy - 1, jxf = ju); gemv(N) |
// | of the rows below the row and the columns after the head into sums[z]            |
// | (A, Y and every sum; Ut untouched) to rounding: (md + nq + jy + ju) eps x 40.      |
// +-----------------------------------------------------------------------------------+
TYPED_TEST(LabrdFusedHost, MatchesGemvRowGemv) {
  using T = TypeParam;
  const Device& dev = *this->dev_;
  auto rng = testing::make_rng();
  for (int rep = 0; rep < 60; ++rep) {
    const RowStep<T> c = random_step<T>(rng);
    SCOPED_TRACE(c.text());
    const int64_t fix = c.S.jy - 1, q0 = c.owns_head ? 1 : 0;
    // The steps the fused one replaces (the driver's two-pass order).
    std::vector<T> A_ref = c.A, Y_ref = c.Y, sums_ref = c.sums;
    kernels::host::gemv(dev, nullptr, Op::C, c.md, c.nq, T(1), A_ref.data(), c.lda, c.v.data(), 1,
                        T(0), Y_ref.data() + fix * c.ldy, 1);
    kernels::host::labrd_row(dev, nullptr, c.nq, Y_ref.data(), const_cast<T*>(c.Ut.data()), c.ldy, fix,
                             c.S.ju, c.s.data(), c.tau.data(), true, c.S, c.vrow.data(), c.ldv,
                             c.xrow.data(), c.ldx, A_ref.data(), c.lda, c.owns_head,
                             c.owns_head ? A_ref.data() + 1 : nullptr, sums_ref.data(), nullptr);
    const int64_t nx = c.nq - q0;
    if (c.S.m1 > 0 && nx > 0)
      kernels::host::gemv(dev, nullptr, Op::N, c.S.m1, nx, T(1), A_ref.data() + 1 + q0 * c.lda,
                          c.lda, A_ref.data() + q0 * c.lda, c.lda, T(0), sums_ref.data(), 1);
    else
      std::fill(sums_ref.begin(), sums_ref.begin() + c.S.m1, T(0));
    // The fused step.
    std::vector<T> A = c.A, Y = c.Y, sums = c.sums;
    const std::vector<T> Ut0 = c.Ut;
    kernels::host::labrd_fused(dev, nullptr, c.nq, c.v.data(), Y.data(), c.Ut.data(), c.ldy,
                               c.s.data(), c.tau.data(), c.S, c.vrow.data(), c.ldv,
                               c.xrow.data(), c.ldx, c.nq > 0 ? A.data() : nullptr, c.lda,
                               c.owns_head, sums.data(), nullptr);
    const double tol = 40.0 * double(c.md + c.nq + c.S.jy + c.S.ju) * testing::eps<T>();
    EXPECT_LE(rel_diff(A, A_ref), tol) << "A (the row and the rows below it)";
    EXPECT_LE(rel_diff(Y, Y_ref), tol) << "Y";
    EXPECT_LE(rel_diff(sums, sums_ref), tol) << "sums";
    EXPECT_EQ(c.Ut, Ut0) << "Ut is read only";
  }
}

}  // namespace
}  // namespace mgblas
