// SPDX-License-Identifier: BSD-3-Clause
// Distributed tall-and-skinny GEMM (tsgemm_mgpu, both forms) and RowTiledMatrix over
// host devices and MPI ranks, compared with the single-device host engine on the full
// matrices. Every rank draws the same data from the test's seed and checks the whole
// result; verdicts are reduced over ranks before asserting.
#include <gtest/gtest.h>

#include <algorithm>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "core/context.hpp"
#include "core/error.hpp"
#include "dist/reducer.hpp"
#include "dist/tsgemm_mgpu.hpp"
#include "kernels/blas.hpp"
#include "tests/dist/dist_test_helpers.hpp"
#include "tests/dist/host_contexts.hpp"
#include "tests/testing/testing.hpp"

namespace {

using namespace mgblas;
namespace mt = mgblas::testing;

namespace td = mgblas::testing::dist;
using td::everywhere;
using td::HostContexts;

template <Scalar T>
std::vector<T> random_matrix(int64_t rows, int64_t cols, int64_t ld, std::mt19937_64& rng) {
  std::vector<T> a(static_cast<std::size_t>(std::max<int64_t>(1, ld * cols)), mt::nan_value<T>());
  for (int64_t j = 0; j < cols; ++j)
    for (int64_t i = 0; i < rows; ++i) a[i + j * ld] = mt::random_value<T>(rng);
  return a;
}

/// C0 and the scalars of a case, drawn in this order; beta = 0 puts NaN in the m x n
/// part of C0 (it must not be read), the padding is NaN in any case.
template <Scalar T>
std::vector<T> draw_c0(int64_t m, int64_t n, int64_t ldc, bool beta0, T& alpha, T& beta,
                       std::mt19937_64& rng) {
  auto C0 = random_matrix<T>(m, n, ldc, rng);
  alpha = mt::random_scalar<T>(rng);
  beta = beta0 ? T(0) : mt::random_scalar<T>(rng);
  if (beta0)
    for (int64_t j = 0; j < n; ++j)
      for (int64_t i = 0; i < m; ++i) C0[i + j * ldc] = mt::nan_value<T>();
  return C0;
}

template <Scalar T>
double diff_norm(int64_t m, int64_t n, const T* X, int64_t ldx, const T* Y, int64_t ldy) {
  double s = 0;
  for (int64_t j = 0; j < n; ++j)
    for (int64_t i = 0; i < m; ++i) {
      const double d = std::abs(X[i + j * ldx] - Y[i + j * ldy]);
      s += d * d;
    }
  return std::sqrt(s);
}

struct Shape {
  int64_t m, n, k, tile;
};

// Sizes 1, small odd ones, a tile larger than a device's share (devices with no rows),
// n and k across the TSM2L / TSM2R boundary, and random ones up to 400 rows.
std::vector<Shape> shapes(std::mt19937_64& rng) {
  std::vector<Shape> out = {{1, 1, 1, 1},   {7, 5, 3, 1},   {100, 8, 33, 4},
                            {257, 32, 16, 32}, {13, 3, 40, 100}, {64, 1, 1, 7}};
  std::uniform_int_distribution<int64_t> size(1, 400), small(1, 33), tile(1, 64);
  for (int i = 0; i < 3; ++i) out.push_back({size(rng), small(rng), small(rng), tile(rng)});
  return out;
}

std::string describe(const Context& ctx, const char* form, Op op, const Shape& s, bool beta0) {
  std::ostringstream os;
  os << "tsgemm_mgpu " << form << " op=" << to_string(op) << " m=" << s.m << " n=" << s.n
     << " k=" << s.k << " tile=" << s.tile << (beta0 ? " beta=0" : "") << " ranks=" << ctx.nranks()
     << " devices/rank=" << ctx.num_devices() << " seed=" << mt::test_seed();
  return os.str();
}

//  +------------------------------------------------------------------------------+
//  |  C_ref = alpha * A * op(B) + beta * C0     (single-device host engine)        |
//  |  err = ||C - C_ref||_F / ((k |alpha| ||A||_F ||B||_F + |beta| ||C0||_F) eps)  |
//  |  pass: err <= 10 (x sqrt(2) complex)                                          |
//  +------------------------------------------------------------------------------+
template <Scalar T>
void check_rows(const std::shared_ptr<Context>& ctx, Op opB, const Shape& s, bool beta0,
                int variant, std::mt19937_64& rng) {
  const int64_t m = s.m, n = s.n, k = s.k;
  const int64_t rows_b = opB == Op::N ? k : n, cols_b = opB == Op::N ? n : k;
  const int64_t lda = m + 2, ldb = rows_b + 1, ldc = m + 3;
  const auto A = random_matrix<T>(m, k, lda, rng);
  const auto B = random_matrix<T>(rows_b, cols_b, ldb, rng);
  T alpha, beta;
  const auto C0 = draw_c0<T>(m, n, ldc, beta0, alpha, beta, rng);
  auto C_ref = C0;
  tsgemm(Queue(td::reference_device()), Op::N, opB, m, n, k, alpha, A.data(), lda, B.data(), ldb,
         beta, C_ref.data(), ldc);

  const RowTiling tiling(m, ctx->global_num_devices(), s.tile);
  RowTiledMatrix<T> dA(ctx, tiling, k), dC(ctx, tiling, n);
  // Both fills: from rank 0, and from every rank's own copy.
  if (variant % 2 == 0) dA.distribute(ctx->rank() == 0 ? A.data() : nullptr, lda, 0);
  else dA.distribute_replicated(A.data(), lda);
  dC.distribute(ctx->rank() == ctx->nranks() - 1 ? C0.data() : nullptr, ldc, ctx->nranks() - 1);
  if (variant % 3 == 0) {
    auto reducer = make_reducer(ctx, ReducerKind::Host);
    tsgemm_mgpu(*reducer, opB, alpha, dA, B.data(), ldb, beta, dC);
  } else {
    tsgemm_mgpu(opB, alpha, dA, B.data(), ldb, beta, dC);
  }
  std::vector<T> C(C0.size(), mt::nan_value<T>());
  dC.collect(C.data(), ldc, variant % 2 == 0 ? -1 : 0);
  bool ok = true;
  double err = 0;
  if (variant % 2 == 0 || ctx->rank() == 0) {
    err = mt::scaled_error(diff_norm(m, n, C.data(), ldc, C_ref.data(), ldc), k, alpha,
                           mt::norm_fro(m, k, A.data(), lda),
                           mt::norm_fro(rows_b, cols_b, B.data(), ldb), beta,
                           beta0 ? 0.0 : mt::norm_fro(m, n, C0.data(), ldc));
    ok = err <= mt::error_tolerance<T>();
    // The padding rows of the collected C stay as they were.
    for (int64_t j = 0; j < n && ok; ++j)
      for (int64_t i = m; i < ldc; ++i) ok = ok && mt::is_nan(C[i + j * ldc]);
  }
  ASSERT_TRUE(everywhere(*ctx, ok,
                         describe(*ctx, "rows", opB, s, beta0) + " error " + std::to_string(err)));
}

template <Scalar T>
void check_ksplit(const std::shared_ptr<Context>& ctx, Op opA, const Shape& s, bool beta0,
                  int variant, std::mt19937_64& rng) {
  // Here s.m is the long dimension k of the tiles and s.n, s.k the result's m x n.
  const int64_t k = s.m, m = s.k, n = s.n;
  const int64_t lda = k + 1, ldb = k + 2, ldc = variant % 2 == 0 ? m : m + 3;
  const auto A = random_matrix<T>(k, m, lda, rng);
  const auto B = random_matrix<T>(k, n, ldb, rng);
  T alpha, beta;
  const auto C0 = draw_c0<T>(m, n, ldc, beta0, alpha, beta, rng);
  auto C_ref = C0;
  tsgemm(Queue(td::reference_device()), opA, Op::N, m, n, k, alpha, A.data(), lda, B.data(), ldb,
         beta, C_ref.data(), ldc);

  const RowTiling tiling(k, ctx->global_num_devices(), s.tile);
  RowTiledMatrix<T> dA(ctx, tiling, m), dB(ctx, tiling, n);
  dA.distribute_replicated(A.data(), lda);
  dB.distribute(ctx->rank() == 0 ? B.data() : nullptr, ldb, 0);
  auto C = C0;
  if (variant % 3 == 1) tsgemm_mgpu(ctx, opA, alpha, dA, dB, beta, C.data(), ldc);
  else tsgemm_mgpu(opA, alpha, dA, dB, beta, C.data(), ldc);
  //  k-split: the partial sums of the devices are added in another order than the
  //  host's single sum; the k factor of the bound covers it.
  const double err = mt::scaled_error(diff_norm(m, n, C.data(), ldc, C_ref.data(), ldc), k, alpha,
                                      mt::norm_fro(k, m, A.data(), lda),
                                      mt::norm_fro(k, n, B.data(), ldb), beta,
                                      beta0 ? 0.0 : mt::norm_fro(m, n, C0.data(), ldc));
  bool ok = err <= mt::error_tolerance<T>();
  for (int64_t j = 0; j < n && ok; ++j)
    for (int64_t i = m; i < ldc; ++i) ok = ok && mt::is_nan(C[i + j * ldc]);
  ASSERT_TRUE(everywhere(*ctx, ok,
                         describe(*ctx, "k-split", opA, s, beta0) + " error " + std::to_string(err)));
}

template <typename T>
class TsgemmMgpu_Host : public ::testing::Test {};
TYPED_TEST_SUITE(TsgemmMgpu_Host, mt::TestScalars, mt::PrecisionName);

TYPED_TEST(TsgemmMgpu_Host, rows) {
  auto rng = mt::make_rng();
  int variant = 0;
  for (const auto& ctx : HostContexts::all())
    for (const Shape& s : shapes(rng))
      for (Op opB : {Op::N, Op::T, Op::C}) {
        check_rows<TypeParam>(ctx, opB, s, false, variant++, rng);
        check_rows<TypeParam>(ctx, opB, s, true, variant++, rng);
      }
}

TYPED_TEST(TsgemmMgpu_Host, k_split) {
  auto rng = mt::make_rng();
  int variant = 0;
  for (const auto& ctx : HostContexts::all())
    for (const Shape& s : shapes(rng))
      for (Op opA : {Op::T, Op::C}) {
        check_ksplit<TypeParam>(ctx, opA, s, false, variant++, rng);
        check_ksplit<TypeParam>(ctx, opA, s, true, variant++, rng);
      }
}

// Zero sizes and alpha = 0: quick returns, C = beta * C, nothing read that need not be.
TYPED_TEST(TsgemmMgpu_Host, quick_returns) {
  using T = TypeParam;
  auto rng = mt::make_rng();
  for (const auto& ctx : HostContexts::all()) {
    // k = 0 in the rows form: C = beta * C with B never read (null).
    RowTiledMatrix<T> A0(ctx, 50, 0), C(ctx, 50, 4);
    auto C0 = random_matrix<T>(50, 4, 50, rng);
    C.distribute_replicated(C0.data(), 50);
    tsgemm_mgpu(Op::N, T(1), A0, static_cast<const T*>(nullptr), 1, T(2), C);
    std::vector<T> out(C0.size());
    C.collect(out.data(), 50, -1);
    bool ok = true;
    for (std::size_t i = 0; i < out.size(); ++i) ok = ok && out[i] == T(2) * C0[i];
    // alpha = 0 in the k-split form: C = beta * C, beta = 0 over NaN gives zeros.
    RowTiledMatrix<T> A(ctx, 80, 3), B(ctx, 80, 2);
    A.distribute_replicated(random_matrix<T>(80, 3, 80, rng).data(), 80);
    B.distribute_replicated(random_matrix<T>(80, 2, 80, rng).data(), 80);
    std::vector<T> Ck(6, mt::nan_value<T>());
    tsgemm_mgpu(Op::T, T(0), A, B, T(0), Ck.data(), 3);
    for (const T& v : Ck) ok = ok && v == T(0);
    // k = 0 in the k-split form: C = beta * C.
    RowTiledMatrix<T> E(ctx, 0, 3), F(ctx, 0, 2);
    std::vector<T> Ce(6, T(1));
    tsgemm_mgpu(Op::C, T(1), E, F, T(3), Ce.data(), 3);
    for (const T& v : Ce) ok = ok && v == T(3);
    // Empty results: nothing happens (C may be null).
    RowTiledMatrix<T> G(ctx, 10, 0), H(ctx, 10, 2);
    tsgemm_mgpu(Op::C, T(1), G, H, T(0), static_cast<T*>(nullptr), 1);
    RowTiledMatrix<T> Z(ctx, 0, 5), W(ctx, 0, 2);
    tsgemm_mgpu(Op::N, T(1), Z, static_cast<const T*>(nullptr), 5, T(1), W);
    ASSERT_TRUE(everywhere(*ctx, ok, "quick returns"));
  }
}

// Bad arguments raise on every rank: the rank that has them raises its own error, the
// others RemoteError; arguments bad everywhere raise the same error everywhere.
TYPED_TEST(TsgemmMgpu_Host, bad_arguments) {
  using T = TypeParam;
  auto rng = mt::make_rng();
  for (const auto& ctx : HostContexts::all()) {
    RowTiledMatrix<T> A(ctx, 100, 8), B(ctx, 100, 4), C(ctx, 100, 4);
    RowTiledMatrix<T> C_other(ctx, RowTiling(100, ctx->global_num_devices(), 7), 4);
    const auto Bh = random_matrix<T>(8, 4, 8, rng);
    std::vector<T> Ch(8 * 4);
    // op(A) = N is not the k-split form.
    EXPECT_THROW(tsgemm_mgpu(Op::N, T(1), A, B, T(0), Ch.data(), 8), BadArgument);
    // C tiled differently from A.
    EXPECT_THROW(tsgemm_mgpu(Op::N, T(1), A, Bh.data(), 8, T(0), C_other), DimensionMismatch);
    // ldb too small, on every rank.
    EXPECT_THROW(tsgemm_mgpu(Op::N, T(1), A, Bh.data(), 7, T(0), C), BadArgument);
    // ldc too small on rank 0 only: rank 0 raises BadArgument, the others RemoteError.
    const int64_t ldc = ctx->rank() == 0 ? 7 : 8;
    if (ctx->rank() == 0) {
      EXPECT_THROW(tsgemm_mgpu(Op::T, T(1), A, B, T(0), Ch.data(), ldc), BadArgument);
    } else {
      EXPECT_THROW(tsgemm_mgpu(Op::T, T(1), A, B, T(0), Ch.data(), ldc), RemoteError);
    }
    // B null although it is needed.
    EXPECT_THROW(tsgemm_mgpu(Op::N, T(1), A, static_cast<const T*>(nullptr), 8, T(0), C),
                 BadArgument);
    // A matrix of another context.
    if (ctx != HostContexts::all().front()) {
      RowTiledMatrix<T> foreign(HostContexts::all().front(), 100, 4);
      EXPECT_THROW(tsgemm_mgpu(ctx, Op::N, T(1), A, Bh.data(), 8, T(0), foreign), BadArgument);
    }
    // The layout of a RowTiledMatrix must cover the context's devices.
    EXPECT_THROW(RowTiledMatrix<T>(ctx, RowTiling(10, ctx->global_num_devices() + 1, 1), 2),
                 DimensionMismatch);
    // Bad distribute / collect arguments.
    EXPECT_THROW(C.distribute_replicated(Bh.data(), 50), BadArgument);
    EXPECT_THROW(C.collect(Ch.data(), 50, -1), BadArgument);
    EXPECT_THROW(C.distribute(Bh.data(), 100, ctx->nranks()), BadArgument);
  }
}

}  // namespace
