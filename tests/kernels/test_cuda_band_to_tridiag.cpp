// SPDX-License-Identifier: BSD-3-Clause
// The band-to-tridiagonal bulge chase on the CUDA engine (kernels/lapack.hpp
// band_to_tridiag, one persistent kernel pipelining the sweeps): the checks of
// sb2st_test_helpers.hpp, d and e against the host engine's on the same band, n up to
// 4000, the same result bit for bit on every call, bad arguments; the application of its
// Q2 (band_to_tridiag_apply_q, windows of sweeps streamed through registers): the same
// checks, and C against the host engine's on the same reflectors and C at every edge of
// the kernel's shapes.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <initializer_list>
#include <string>

#include "tests/kernels/cuda_test_helpers.hpp"
#include "tests/kernels/sb2st_test_helpers.hpp"

namespace mgblas::testing {
namespace {

template <typename T>
class BandToTridiag_Cuda : public ::testing::Test {};
TYPED_TEST_SUITE(BandToTridiag_Cuda, TestScalars, PrecisionName);

TYPED_TEST(BandToTridiag_Cuda, EveryBand) { check_every_band<TypeParam>(gpu()); }

// The same band twice gives the same d, e, V2 and tau2 bit for bit: a sweep's arithmetic
// and its order of summation do not depend on which block takes the sweep or when, and
// Q2's back-transformations rely on the reflectors being the ones every rank computed.
// n = 4000 runs the chase over many rounds of the persistent blocks (b = 3: 1333 tasks in
// sweep 0; b = 32 and 64: the two thread shapes of the usual bands).
TYPED_TEST(BandToTridiag_Cuda, RepeatsBitwise) {
  using T = TypeParam;
  auto rng = make_rng();
  const auto same = [](const auto& x, const auto& y) {
    return std::equal(x.begin(), x.end(), y.begin(), y.end(),
                      [](auto u, auto v) { return u == v || (u != u && v != v); });
  };
  for (int64_t b : {3, 32, 64}) {
    const Band<T> a = make_band<T>(BandSpectrum::Random, 4000, b, rng);
    const auto first = run_chase<T>(gpu(), a, true);
    for (int rep = 0; rep < 2; ++rep) {
      const auto again = run_chase<T>(gpu(), a, true);
      SCOPED_TRACE(detail::concat("b=", b, " call ", rep + 2, ", ", seed_text()));
      EXPECT_TRUE(same(first.d, again.d) && same(first.e, again.e)) << "d, e";
      EXPECT_TRUE(same(first.V2, again.V2) && same(first.tau2, again.tau2)) << "V2, tau2";
    }
  }
}

//  +--------------------------------------------------------------------------+
//  |  eig = max_i |lambda_i(T_gpu) - lambda_i(T_host)| / (n eps ||A||_1)        |
//  |        (both by ?sterf), passes when <= 10 (eigenvalue_error);            |
//  |  ent = max(||d - d_host||_inf, ||e - e_host||_inf) / (n eps ||A||_1),      |
//  |        at n = 100 only, passes when <= 30.                                 |
//  |  The same tasks in another order of summation. T itself is not a          |
//  |  well-conditioned function of A (its late entries follow the Krylov        |
//  |  sequence A^k e_1, as Lanczos does): on the H200, n = 777 gave ent up to   |
//  |  8.6e3 with both engines' T passing the backward checks, so the entries    |
//  |  are compared where that growth is small and the spectra everywhere.       |
//  +--------------------------------------------------------------------------+
TYPED_TEST(BandToTridiag_Cuda, SameAsHost) {
  using T = TypeParam;
  using R = real_type_t<T>;
  auto rng = make_rng();
  for (int64_t b : {2, 8, 64})
    for (int64_t n : {int64_t{100}, int64_t{777}}) {
      const Band<T> a = make_band<T>(BandSpectrum::Random, n, b, rng);
      SCOPED_TRACE(detail::concat("n=", n, " b=", b, ", ", seed_text()));
      const auto g = run_chase<T>(gpu(), a, true);
      const auto h = run_chase<T>(host(), a, true);
      const double normA = band_norm1(a);
      const std::vector<R> wg = sterf_eigenvalues(Tridiagonal<R>{g.d, g.e});
      const std::vector<R> wh = sterf_eigenvalues(Tridiagonal<R>{h.d, h.e});
      EXPECT_LE(eigenvalue_error(n, wh, 0, n, wg.data(), normA), kEigenvalueTolerance)
          << "eigenvalues of T: GPU vs host engine";
      if (n > 100) continue;
      double diff = 0;
      for (int64_t i = 0; i < n; ++i) diff = std::max(diff, double(std::abs(g.d[i] - h.d[i])));
      for (int64_t i = 0; i + 1 < n; ++i) diff = std::max(diff, double(std::abs(g.e[i] - h.e[i])));
      const double err = diff / (n * std::numeric_limits<R>::epsilon() * normA);
      EXPECT_LE(err, kChaseThreshold) << "d, e: GPU vs host engine";
    }
}

TYPED_TEST(BandToTridiag_Cuda, Large) {
  auto rng = make_rng();
  check_chase<TypeParam>(gpu(), make_band<TypeParam>(BandSpectrum::Random, 1000, 64, rng), "random",
                         true);
  check_chase<TypeParam>(gpu(), make_band<TypeParam>(BandSpectrum::Random, 3000, 64, rng), "random",
                         false);
  check_chase<TypeParam>(gpu(), make_band<TypeParam>(BandSpectrum::Graded, 2131, 32, rng), "graded",
                         false);
}

TYPED_TEST(BandToTridiag_Cuda, BadArguments) { check_bad_arguments<TypeParam>(gpu()); }

TYPED_TEST(BandToTridiag_Cuda, ApplyQ) { check_every_apply_q<TypeParam>(gpu()); }

TYPED_TEST(BandToTridiag_Cuda, ApplyQBadArguments) {
  check_apply_q_bad_arguments<TypeParam>(gpu());
}

/// The same C0 (n x m, leading dimension n + pad, NaN padding) through op(Q2) on the host
/// engine once, then through the GPU engine once per kernel choice of `choices` (values of
/// MGBLAS_SB2ST_APPLY_Q, nullptr: unset; a choice this build lacks is skipped), with the
/// same reflectors (from the GPU's chase).
template <Scalar T>
void compare_apply_q(const Band<T>& a, const ChaseResult<T>& r, Op op, int64_t m, int64_t pad,
                     std::mt19937_64& rng, std::initializer_list<const char*> choices = {nullptr}) {
  using R = real_type_t<T>;
  const int64_t n = a.n, ldc = n + pad;
  SCOPED_TRACE(detail::concat("op=", static_cast<char>(op), " n=", n, " b=", a.b, " m=", m,
                              " ldc=", ldc, ", ", seed_text()));
  const std::vector<T> C0 =
      padded_matrix<T>(n, m, ldc, [&](int64_t, int64_t) { return random_value<T>(rng); });
  std::vector<T> Ch = C0;
  run_apply_q(host(), op, n, a.b, r, m, Ch, ldc);
  const std::vector<T> zero(C0.size(), T(0));
  const double normC0 = diff_norm1(n, m, C0.data(), ldc, zero.data(), ldc);
  ASSERT_GT(normC0, 0.0);
  for (const char* choice : choices) {
    SCOPED_TRACE(detail::concat("MGBLAS_SB2ST_APPLY_Q=", choice ? choice : "(unset)"));
    const ScopedEnv env("MGBLAS_SB2ST_APPLY_Q", choice);
    std::vector<T> Cg = C0;
    try {
      run_apply_q(gpu(), op, n, a.b, r, m, Cg, ldc);
    } catch (const BadArgument& e) {
      if (choice != nullptr && std::string(e.what()).find("is built") != std::string::npos)
        continue;  // no shape of these sweeps and lanes in this build
      throw;
    }
    //  +------------------------------------------------------------------------+
    //  |  err = ||C_gpu - C_host||_1 / (n ||C0||_1 eps), passes when <= 30: both |
    //  |  apply the same unitary reflectors (in orders that differ only across   |
    //  |  commuting pairs) with other sums; the padding rows untouched.          |
    //  +------------------------------------------------------------------------+
    const double err = diff_norm1(n, m, Cg.data(), ldc, Ch.data(), ldc) /
                       (n * normC0 * std::numeric_limits<R>::epsilon());
    EXPECT_LE(err, kChaseThreshold) << "GPU vs host engine";
    expect_untouched_outside(C0, Cg, [&](int64_t p) { return p % ldc < n; }, "C (padding)");
  }
}

// The edges of the windowed kernel: n < b (b taken as n - 1), n = b + 1, n not a multiple
// of b or of the window (64 or 32 sweeps), one column, columns not filling a block (333),
// ldc > n; bands of every shape (16, 32, 64, 128) and past them (200: the warp kernel).
TYPED_TEST(BandToTridiag_Cuda, ApplyQSameAsHost) {
  using T = TypeParam;
  auto rng = make_rng();
  for (int64_t b : {1, 2, 16, 32, 64, 100, 200})
    for (int64_t n : {std::max<int64_t>(2, b / 2), b + 1, 2 * b + 3, int64_t{131}}) {
      const Band<T> a = make_band<T>(BandSpectrum::Random, n, b, rng);
      // The GPU chase holds a task in shared memory, which b = 100 (complex double) and
      // b = 200 exceed: their reflectors come from the host engine's chase.
      const ChaseResult<T> r = run_chase<T>(b <= 64 ? gpu() : host(), a, true);
      for (Op op : {Op::N, Op::C}) {
        compare_apply_q<T>(a, r, op, 1, 0, rng);
        compare_apply_q<T>(a, r, op, 333, 5, rng);
      }
    }
}

// The kernel choices of docs/environment.md against the host engine: the warp kernel
// (MGBLAS_SB2ST_APPLY_Q=generic), the tensor-core blocks (mma: double with bands <= 32
// and complex double at band 32, the tile held in registers there; mma-ring, double only,
// with it in shared memory; the other cases skip them), the alternative shapes where this
// build has them (groups of 1, 2 and 4 reflectors, 2 to 16 lanes), and one window per
// chunk of packed steps (MGBLAS_SB2ST_APPLY_Q_PACK_BYTES=1), at n = 777 and 2131 (prime).
TYPED_TEST(BandToTridiag_Cuda, ApplyQKernelChoices) {
  using T = TypeParam;
  auto rng = make_rng();
  for (int64_t b : {8, 32, 64}) {
    const Band<T> a = make_band<T>(BandSpectrum::Random, 777, b, rng);
    const ChaseResult<T> r = run_chase<T>(gpu(), a, true);
    for (Op op : {Op::N, Op::C})
      compare_apply_q<T>(a, r, op, 37, 1, rng,
                         {"generic", "mma", "mma-ring", "64x2", "64x4", "64x4x2", "64x8", "32x4",
                          "32x8", "16x16"});
    const ScopedEnv chunks("MGBLAS_SB2ST_APPLY_Q_PACK_BYTES", "1");
    SCOPED_TRACE("MGBLAS_SB2ST_APPLY_Q_PACK_BYTES=1");
    for (Op op : {Op::N, Op::C}) compare_apply_q<T>(a, r, op, 70, 0, rng);
  }
  const Band<T> a = make_band<T>(BandSpectrum::Random, 2131, 32, rng);
  const ChaseResult<T> r = run_chase<T>(gpu(), a, true);
  for (Op op : {Op::N, Op::C})
    compare_apply_q<T>(a, r, op, 65, 3, rng, {nullptr, "generic", "mma", "mma-ring", "64x4x4"});
}

}  // namespace
}  // namespace mgblas::testing
