// SPDX-License-Identifier: BSD-3-Clause
// Distributed Level 2 (gemv_mgpu, symv_mgpu, hemv_mgpu) and the host Reducer, over
// host devices and MPI ranks, compared with the single-device host engine on the full
// matrix. Every rank draws the same data from the test's seed, so each rank can check
// its own (replicated) result; verdicts are reduced over ranks before asserting.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "core/context.hpp"
#include "core/error.hpp"
#include "dist/dist_blas.hpp"
#include "dist/reducer.hpp"
#include "kernels/blas.hpp"
#include "layouts/dist_matrix.hpp"
#include "tests/dist/dist_test_helpers.hpp"
#include "tests/dist/host_contexts.hpp"
#include "tests/testing/testing.hpp"

namespace {

using namespace mgblas;
namespace mt = mgblas::testing;

namespace td = mgblas::testing::dist;
using td::everywhere;
using td::HostContexts;
using td::raises;
using td::reference_device;

std::string describe(const Context& ctx, const char* op, int64_t m, int64_t n, int64_t nb) {
  std::ostringstream os;
  os << op << " m=" << m << " n=" << n << " nb=" << nb << " ranks=" << ctx.nranks()
     << " devices/rank=" << ctx.num_devices() << " seed=" << mt::test_seed();
  return os.str();
}

struct Shape {
  int64_t m, n, nb;
};

// Sizes 1, small odd ones, nb > n, more devices than block columns, n not a multiple
// of nb, and random sizes up to 300: the same on every rank (same seed).
std::vector<Shape> shapes(std::mt19937_64& rng, bool square) {
  static constexpr int64_t kNb[] = {1, 3, 32, 100};
  std::uniform_int_distribution<int64_t> size(1, 300);
  std::vector<Shape> out = {{1, 1, 1}, {7, 5, 100}, {33, 31, 32}, {13, 17, 3}};
  for (int i = 0; i < 3; ++i) out.push_back({size(rng), size(rng), kNb[size(rng) % 4]});
  out.push_back({size(rng), size(rng), 1 + size(rng) % 40});
  if (square)
    for (auto& s : out) s.m = s.n;
  return out;
}

int64_t lda_of(int64_t m) {
  return std::max<int64_t>(1, m);
}

template <Scalar T>
DistMatrix<T> distributed(const std::shared_ptr<Context>& ctx, int64_t m, int64_t n, int64_t nb,
                          const std::vector<T>& A) {
  DistMatrix<T> dA(ctx, BlockCyclic1D(m, n, nb, ctx->global_num_devices()));
  dA.distribute_replicated(A.data(), lda_of(m));
  return dA;
}

//  +------------------------------------------------------------------------------+
//  |  y_ref = alpha * op(A) * x + beta * y0   (single-device host engine)         |
//  |  err   = ||y - y_ref|| / ((k * |alpha| * ||A||_F * ||x|| + |beta| * ||y0||)  |
//  |          * eps),  k = length of x;  pass: err <= 10 (x sqrt(2) complex)      |
//  +------------------------------------------------------------------------------+
template <Scalar T>
void check_gemv(const std::shared_ptr<Context>& ctx, Op op, const Shape& s,
                std::mt19937_64& rng, bool nan_y) {
  const int64_t m = s.m, n = s.n;
  const int64_t len_x = op == Op::N ? n : m, len_y = op == Op::N ? m : n;
  const auto A = mt::random_vector<T>(m * n, rng);
  const auto x = mt::random_vector<T>(len_x, rng);
  auto y = mt::random_vector<T>(len_y, rng);
  const T alpha = mt::random_scalar<T>(rng);
  const T beta = nan_y ? T(0) : mt::random_scalar<T>(rng);
  if (nan_y) std::fill(y.begin(), y.end(), mt::nan_value<T>());
  std::vector<T> y_ref = nan_y ? std::vector<T>(len_y, T(0)) : y;
  const double norm_y0 = nan_y ? 0.0 : mt::norm_vec(len_y, y.data());
  gemv(Queue(reference_device()), op, m, n, alpha, A.data(), lda_of(m), x.data(), 1, beta,
       y_ref.data(), 1);

  const auto dA = distributed(ctx, m, n, s.nb, A);
  gemv_mgpu(op, alpha, dA, x.data(), beta, y.data());

  const double err = mt::scaled_error(mt::norm_diff(len_y, y.data(), 1, y_ref.data(), 1), len_x,
                                      alpha, mt::norm_fro(m, n, A.data(), lda_of(m)),
                                      mt::norm_vec(len_x, x.data()), beta, norm_y0);
  const bool ok = err <= mt::error_tolerance<T>();
  ASSERT_TRUE(everywhere(*ctx, ok,
                         describe(*ctx, to_string(op), m, n, s.nb) + " error " +
                             std::to_string(err)));
}

// The triangle opposite `uplo` (strictly) is poisoned with NaN: neither engine may
// read it. The error bound uses ||A|| of the unpoisoned draw (k = n).
template <Scalar T, bool kHermitian>
void check_symv(const std::shared_ptr<Context>& ctx, Uplo uplo, const Shape& s,
                std::mt19937_64& rng, bool nan_y) {
  const int64_t n = s.n;
  auto A = mt::random_vector<T>(n * n, rng);
  const auto x = mt::random_vector<T>(n, rng);
  auto y = mt::random_vector<T>(n, rng);
  const T alpha = mt::random_scalar<T>(rng);
  const T beta = nan_y ? T(0) : mt::random_scalar<T>(rng);
  const double norm_A = mt::norm_fro(n, n, A.data(), n);
  for (int64_t j = 0; j < n; ++j)
    for (int64_t i = 0; i < n; ++i)
      if (uplo == Uplo::Lower ? i < j : i > j) A[i + j * n] = mt::nan_value<T>();
  if (nan_y) std::fill(y.begin(), y.end(), mt::nan_value<T>());
  std::vector<T> y_ref = nan_y ? std::vector<T>(n, T(0)) : y;
  const double norm_y0 = nan_y ? 0.0 : mt::norm_vec(n, y.data());
  if constexpr (kHermitian)
    hemv(Queue(reference_device()), uplo, n, alpha, A.data(), n, x.data(), 1, beta, y_ref.data(),
         1);
  else
    symv(Queue(reference_device()), uplo, n, alpha, A.data(), n, x.data(), 1, beta, y_ref.data(),
         1);

  const auto dA = distributed(ctx, n, n, s.nb, A);
  if constexpr (kHermitian)
    hemv_mgpu(uplo, alpha, dA, x.data(), beta, y.data());
  else
    symv_mgpu(uplo, alpha, dA, x.data(), beta, y.data());

  const double err = mt::scaled_error(mt::norm_diff(n, y.data(), 1, y_ref.data(), 1), n, alpha,
                                      norm_A, mt::norm_vec(n, x.data()), beta, norm_y0);
  const bool ok = err <= mt::error_tolerance<T>();
  const std::string what = std::string(kHermitian ? "hemv " : "symv ") + to_string(uplo);
  ASSERT_TRUE(everywhere(*ctx, ok,
                         describe(*ctx, what.c_str(), n, n, s.nb) + " error " +
                             std::to_string(err)));
}

template <typename T>
class DistLevel2_Host : public ::testing::Test {};

TYPED_TEST_SUITE(DistLevel2_Host, mt::TestScalars, mt::PrecisionName);

TYPED_TEST(DistLevel2_Host, Gemv) {
  using T = TypeParam;
  auto rng = mt::make_rng();
  const auto cases = shapes(rng, false);
  for (const auto& ctx : HostContexts::all())
    for (const auto& s : cases)
      for (Op op : {Op::N, Op::T, Op::C}) check_gemv<T>(ctx, op, s, rng, false);
}

TYPED_TEST(DistLevel2_Host, Symv) {
  using T = TypeParam;
  auto rng = mt::make_rng();
  const auto cases = shapes(rng, true);
  for (const auto& ctx : HostContexts::all())
    for (const auto& s : cases)
      for (Uplo uplo : {Uplo::Lower, Uplo::Upper}) check_symv<T, false>(ctx, uplo, s, rng, false);
}

TYPED_TEST(DistLevel2_Host, Hemv) {
  using T = TypeParam;
  auto rng = mt::make_rng();
  const auto cases = shapes(rng, true);
  for (const auto& ctx : HostContexts::all())
    for (const auto& s : cases)
      for (Uplo uplo : {Uplo::Lower, Uplo::Upper}) check_symv<T, true>(ctx, uplo, s, rng, false);
}

// beta = 0 with y full of NaN: y must be overwritten, not scaled.
TYPED_TEST(DistLevel2_Host, BetaZeroIgnoresNanInY) {
  using T = TypeParam;
  auto rng = mt::make_rng();
  const Shape s{45, 38, 7};
  for (const auto& ctx : HostContexts::all()) {
    for (Op op : {Op::N, Op::T, Op::C}) check_gemv<T>(ctx, op, s, rng, true);
    for (Uplo uplo : {Uplo::Lower, Uplo::Upper}) {
      check_symv<T, false>(ctx, uplo, {38, 38, 7}, rng, true);
      check_symv<T, true>(ctx, uplo, {38, 38, 7}, rng, true);
    }
  }
}

// Replicated DistVector x and y, through one reused Reducer: every local device must
// receive the whole result.
TYPED_TEST(DistLevel2_Host, DistVectorsAndReusedReducer) {
  using T = TypeParam;
  auto rng = mt::make_rng();
  for (const auto& ctx : HostContexts::all()) {
    auto reducer = make_reducer(ctx, ReducerKind::Host);
    for (const Shape& s : {Shape{70, 50, 32}, Shape{9, 120, 3}, Shape{64, 64, 100}}) {
      for (int kind = 0; kind < 3; ++kind) {  // gemv N, gemv C, hemv L
        const Op op = kind == 1 ? Op::C : Op::N;
        const int64_t m = kind == 2 ? s.n : s.m, n = s.n;
        const int64_t len_x = op == Op::N ? n : m, len_y = op == Op::N ? m : n;
        const auto A = mt::random_vector<T>(m * n, rng);
        const auto x = mt::random_vector<T>(len_x, rng);
        const auto y0 = mt::random_vector<T>(len_y, rng);
        const T alpha = mt::random_scalar<T>(rng), beta = mt::random_scalar<T>(rng);
        std::vector<T> y_ref = y0;
        if (kind == 2)
          hemv(Queue(reference_device()), Uplo::Lower, n, alpha, A.data(), n, x.data(), 1, beta,
               y_ref.data(), 1);
        else
          gemv(Queue(reference_device()), op, m, n, alpha, A.data(), lda_of(m), x.data(), 1,
               beta, y_ref.data(), 1);

        const auto dA = distributed(ctx, m, n, s.nb, A);
        DistVector<T> dx(ctx, len_x), dy(ctx, len_y);
        dx.distribute_replicated(x.data());
        dy.distribute_replicated(y0.data());
        if (kind == 2)
          hemv_mgpu(*reducer, Uplo::Lower, alpha, dA, dx, beta, dy);
        else
          gemv_mgpu(*reducer, op, alpha, dA, dx, beta, dy);

        // Host devices: each local copy is host memory and can be read in place.
        double worst = 0;
        for (int d = 0; d < ctx->num_devices(); ++d)
          worst = std::max(worst, mt::scaled_error(
                                      mt::norm_diff(len_y, dy.local(d), 1, y_ref.data(), 1),
                                      len_x, alpha, mt::norm_fro(m, n, A.data(), lda_of(m)),
                                      mt::norm_vec(len_x, x.data()), beta,
                                      mt::norm_vec(len_y, y0.data())));
        ASSERT_TRUE(everywhere(*ctx, worst <= mt::error_tolerance<T>(),
                               describe(*ctx, kind == 2 ? "hemv L" : to_string(op), m, n, s.nb) +
                                   " DistVector error " + std::to_string(worst)));
      }
    }
  }
}

// Empty dimensions and alpha = 0: y = beta * y without any reduction, x may be null.
TYPED_TEST(DistLevel2_Host, QuickReturns) {
  using T = TypeParam;
  auto rng = mt::make_rng();
  const auto& ctx = HostContexts::all()[1];
  const T beta = mt::random_scalar<T>(rng), alpha = mt::random_scalar<T>(rng);
  const T* no_x = nullptr;
  bool ok = true;

  // An empty inner dimension is BLAS's quick return: y untouched, not scaled by beta.
  {  // m = 0: op N has an empty y (null allowed); op T has an empty inner dimension.
    const std::vector<T> A;
    const auto dA = distributed(ctx, 0, 9, 4, A);
    T* no_y = nullptr;
    gemv_mgpu(Op::N, alpha, dA, no_x, beta, no_y);
    auto y = mt::random_vector<T>(9, rng);
    const auto y0 = y;
    gemv_mgpu(Op::T, alpha, dA, no_x, beta, y.data());
    ok = ok && y == y0;
  }
  {  // n = 0: symv returns at once; gemv N leaves y; gemv T has an empty y.
    const std::vector<T> A;
    const auto dA = distributed(ctx, 0, 0, 4, A);
    T* no_y = nullptr;
    symv_mgpu(Uplo::Lower, alpha, dA, no_x, beta, no_y);
    hemv_mgpu(Uplo::Upper, alpha, dA, no_x, beta, no_y);
    const auto dB = distributed(ctx, 6, 0, 4, A);
    auto y = mt::random_vector<T>(6, rng);
    const auto y0 = y;
    gemv_mgpu(Op::N, alpha, dB, no_x, beta, y.data());
    ok = ok && y == y0;
    gemv_mgpu(Op::T, alpha, dB, no_x, beta, no_y);
  }
  {  // alpha = 0: y = beta * y, and beta = 0 as well clears NaN.
    const auto A = mt::random_vector<T>(25, rng);
    const auto dA = distributed(ctx, 5, 5, 2, A);
    auto y = mt::random_vector<T>(5, rng);
    const auto y0 = y;
    symv_mgpu(Uplo::Upper, T(0), dA, no_x, beta, y.data());
    for (int i = 0; i < 5; ++i) ok = ok && y[i] == beta * y0[i];
    std::fill(y.begin(), y.end(), mt::nan_value<T>());
    gemv_mgpu(Op::N, T(0), dA, no_x, T(0), y.data());
    for (int i = 0; i < 5; ++i) ok = ok && y[i] == T(0);
  }
  ASSERT_TRUE(everywhere(*ctx, ok, "quick return changed y wrongly"));
}

// Each call below is wrong on every rank: each must raise the named error on every
// rank and leave y bit-for-bit untouched.
template <Scalar T>
bool untouched(const std::vector<T>& y, const std::vector<T>& y0) {
  return std::memcmp(y.data(), y0.data(), y.size() * sizeof(T)) == 0;
}

TYPED_TEST(DistLevel2_Host, BadArgumentsRaiseEverywhere) {
  using T = TypeParam;
  auto rng = mt::make_rng();
  const auto& one = HostContexts::all()[0];
  const auto& two = HostContexts::all()[1];
  const auto A = mt::random_vector<T>(12 * 12, rng);
  const auto x = mt::random_vector<T>(12, rng);
  const auto y0 = mt::random_vector<T>(12, rng);
  auto y = y0;
  const T alpha = mt::random_scalar<T>(rng), beta = mt::random_scalar<T>(rng);
  const T* no_x = nullptr;

  // A laid out over the devices of `two`, the call made on `one`.
  const auto dA2 = distributed(two, 12, 12, 5, A);
  bool ok = raises<DimensionMismatch>([&] { gemv_mgpu(one, Op::N, alpha, dA2, x.data(), beta, y.data()); });
  ok = raises<DimensionMismatch>([&] { symv_mgpu(one, Uplo::Lower, alpha, dA2, x.data(), beta, y.data()); }) && ok;
  ok = ok && untouched(y, y0);
  EXPECT_TRUE(ok) << "layout over another device count";

  const auto dA = distributed(one, 12, 12, 5, A);
  ok = raises<BadArgument>([&] { gemv_mgpu(Op::T, alpha, dA, no_x, beta, y.data()); });
  ok = raises<BadArgument>([&] { hemv_mgpu(Uplo::Upper, alpha, dA, no_x, beta, y.data()); }) && ok;
  ok = raises<BadArgument>([&] { gemv_mgpu(static_cast<Op>('X'), alpha, dA, x.data(), beta, y.data()); }) && ok;
  ok = raises<BadArgument>([&] { gemv_mgpu(Op::N, alpha, dA, x.data(), beta, static_cast<T*>(nullptr)); }) && ok;
  ok = ok && untouched(y, y0);
  EXPECT_TRUE(ok) << "null x / y or bad op";

  const auto dR = distributed(one, 12, 9, 5, std::vector<T>(A.begin(), A.begin() + 12 * 9));
  ok = raises<DimensionMismatch>([&] { symv_mgpu(Uplo::Lower, alpha, dR, x.data(), beta, y.data()); });
  ok = raises<DimensionMismatch>([&] { hemv_mgpu(Uplo::Upper, alpha, dR, x.data(), beta, y.data()); }) && ok;
  ok = ok && untouched(y, y0);
  EXPECT_TRUE(ok) << "symv/hemv on a 12 x 9 matrix";

  // DistVectors: block-cyclic where only replicated is taken (symv x, gemv T x, gemv N
  // y) or over other columns than A, wrong length, other context.
  DistVector<T> dx_cyclic(one, BlockCyclic1D(1, 12, 5, one->global_num_devices()));
  DistVector<T> dx_cyclic_nb4(one, BlockCyclic1D(1, 12, 4, one->global_num_devices()));
  DistVector<T> dx_short(one, 11), dx_other(two, 12), dy(one, 12);
  dy.distribute_replicated(y0.data());
  ok = raises<BadArgument>([&] { symv_mgpu(Uplo::Lower, alpha, dA, dx_cyclic, beta, dy); });
  ok = raises<BadArgument>([&] { gemv_mgpu(Op::T, alpha, dA, dx_cyclic, beta, dy); }) && ok;
  ok = raises<BadArgument>([&] { gemv_mgpu(Op::N, alpha, dA, dy, beta, dx_cyclic); }) && ok;
  ok = raises<DimensionMismatch>([&] { gemv_mgpu(Op::N, alpha, dA, dx_cyclic_nb4, beta, dy); }) && ok;
  ok = raises<DimensionMismatch>([&] { gemv_mgpu(Op::N, alpha, dA, dx_short, beta, dy); }) && ok;
  ok = raises<BadArgument>([&] { symv_mgpu(Uplo::Lower, alpha, dA, dx_other, beta, dy); }) && ok;
  for (int d = 0; d < one->num_devices(); ++d)
    ok = ok && std::memcmp(dy.local(d), y0.data(), 12 * sizeof(T)) == 0;
  EXPECT_TRUE(ok) << "bad DistVector arguments";

  ASSERT_TRUE(everywhere(*one, !::testing::Test::HasFailure(), "bad arguments"));
}

// One rank alone is wrong (or the ranks disagree): that rank raises its own error, the
// others RemoteError or DimensionMismatch, and nobody hangs.
TYPED_TEST(DistLevel2_Host, OneBadRankRaisesEverywhere) {
  using T = TypeParam;
  const auto& ctx = HostContexts::all()[2];
  if (ctx->nranks() < 2) GTEST_SKIP() << "needs 2 ranks or more";
  auto rng = mt::make_rng();
  const auto A = mt::random_vector<T>(20 * 20, rng);
  const auto x = mt::random_vector<T>(20, rng);
  const auto y0 = mt::random_vector<T>(20, rng);
  auto y = y0;
  const T alpha = mt::random_scalar<T>(rng), beta = mt::random_scalar<T>(rng);
  const auto dA = distributed(ctx, 20, 20, 3, A);
  const bool last = ctx->rank() == ctx->nranks() - 1;

  bool ok = last ? raises<BadArgument>([&] {
    gemv_mgpu(Op::N, alpha, dA, static_cast<const T*>(nullptr), beta, y.data());
  })
                 : raises<RemoteError>([&] { gemv_mgpu(Op::N, alpha, dA, x.data(), beta, y.data()); });
  ok = raises<DimensionMismatch>([&] {
    gemv_mgpu(last ? Op::T : Op::N, alpha, dA, x.data(), beta, y.data());
  }) && ok;
  ok = ok && untouched(y, y0);
  ASSERT_TRUE(everywhere(*ctx, ok, "one bad rank"));
}

// ---------------------------------------------------------------------------------
// Reducer
// ---------------------------------------------------------------------------------

//  +------------------------------------------------------------------------------+
//  |  partial of global device g: p_g[i] = (g + 1) * (i + 1), or none for odd g   |
//  |  with >1 device; y = sum_g p_g + beta * y0, exact in double for these sizes  |
//  +------------------------------------------------------------------------------+
TEST(Reducer_Host, SumsEveryDeviceOfEveryRank) {
  for (const auto& ctx : HostContexts::all()) {
    auto red = make_reducer(ctx);
    ASSERT_EQ(red->kind(), ReducerKind::Host);
    const int64_t n = 37;
    const int G = ctx->global_num_devices();
    const bool skip_odd = G > 1;
    std::vector<double> y(n, 2.0);
    red->reduce<double>(n, 0.5, y.data(), [&] {
      std::vector<const double*> partials(ctx->num_devices(), nullptr);
      for (int d = 0; d < ctx->num_devices(); ++d) {
        const int g = ctx->device_offset() + d;
        if (skip_odd && g % 2 == 1) continue;
        double* p = red->workspace<double>(d, 0, n);
        for (int64_t i = 0; i < n; ++i) p[i] = (g + 1.0) * (i + 1.0);
        partials[d] = p;
      }
      return partials;
    });
    double weight = 0;
    for (int g = 0; g < G; ++g)
      if (!(skip_odd && g % 2 == 1)) weight += g + 1.0;
    bool ok = true;
    for (int64_t i = 0; i < n; ++i) ok = ok && y[i] == weight * (i + 1.0) + 1.0;
    ASSERT_TRUE(everywhere(*ctx, ok, "reducer sum"));
  }
}

TEST(Reducer_Host, FailureWhileProducingRaisesEverywhere) {
  const auto& ctx = HostContexts::all()[1];
  auto red = make_reducer(ctx, ReducerKind::Host);
  // Complex where c is built, else the build's first precision (MGBLAS_PRECISIONS).
  using S = std::conditional_t<precision_enabled_v<scomplex>, scomplex,
                               scalar_of_t<enabled_precision_letters()[0]>>;
  std::vector<S> y(8, S(1));
  const auto y0 = y;
  const bool culprit = ctx->rank() == 0;
  const auto produce = [&] {
    if (culprit) MGBLAS_THROW(BadArgument, "test: a producer failing on rank 0");
    return std::vector<const S*>(ctx->num_devices(), nullptr);
  };
  bool ok = culprit || ctx->nranks() == 1
                ? raises<BadArgument>([&] { red->reduce<S>(8, S(0), y.data(), produce); })
                : raises<RemoteError>([&] { red->reduce<S>(8, S(0), y.data(), produce); });
  ok = ok && untouched(y, y0);
  ASSERT_TRUE(everywhere(*ctx, ok, "producer failure"));
}

TEST(Reducer_Host, KindSelection) {
  const auto& ctx = HostContexts::all()[0];
  bool ok = resolve_reducer_kind(*ctx) == ReducerKind::Host;  // host devices: never NCCL
  ok = ok && resolve_reducer_kind(*ctx, ReducerKind::Nccl) == ReducerKind::Nccl;
  try {  // host devices: no NCCL (not compiled, or not GPUs)
    make_reducer(ctx, ReducerKind::Nccl);
    ok = false;
  } catch (const NotCompiled&) {
  } catch (const BadArgument&) {
  }
  ::setenv("MGBLAS_REDUCER", "host", 1);
  ok = ok && resolve_reducer_kind(*ctx) == ReducerKind::Host;
  ::setenv("MGBLAS_REDUCER", "nccl", 1);
  ok = ok && resolve_reducer_kind(*ctx) == ReducerKind::Nccl;
  ok = ok && resolve_reducer_kind(*ctx, ReducerKind::Host) == ReducerKind::Host;
  ::setenv("MGBLAS_REDUCER", "mpi", 1);
  ok = raises<BadArgument>([&] { make_reducer(ctx); }) && ok;
  ::unsetenv("MGBLAS_REDUCER");
  ASSERT_TRUE(everywhere(*ctx, ok, "reducer kind selection"));
}

}  // namespace
