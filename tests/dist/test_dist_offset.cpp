// SPDX-License-Identifier: BSD-3-Clause
// Submatrix (offset) forms of the distributed Level 2 on host devices and MPI ranks (the
// CI side of tests/dist/test_dist_nccl.cpp): gemv_mgpu_offset with host, replicated and
// block-cyclic vectors, symv/hemv_mgpu_offset, the pipelined reduction (chunks), all
// compared with the single-device host engine on the submatrix.
#include <gtest/gtest.h>

#include <algorithm>
#include <memory>
#include <vector>

#include "core/context.hpp"
#include "dist/reducer.hpp"
#include "layouts/block_cyclic.hpp"
#include "tests/dist/dist_cases.hpp"
#include "tests/dist/host_contexts.hpp"

namespace {

using namespace mgblas;
namespace mt = mgblas::testing;
namespace td = mgblas::testing::dist;

using td::HostContexts;

//  +------------------------------------------------------------------------------+
//  |  local_begin(L, g, c) = #{ jl : L.global_col(g, jl) < c }, for every c in      |
//  |  [0, n], every device g; max_local_count = the largest count at or after c     |
//  +------------------------------------------------------------------------------+
TEST(ColumnRange, LocalBeginCountsColumnsBefore) {
  int bad = 0;
  for (int P = 1; P <= 4; ++P)
    for (int first = 0; first < P; ++first)
      for (int64_t n : {0, 1, 2, 7, 31, 64, 65})
        for (int64_t nb : {1, 2, 3, 8, 70}) {
          const BlockCyclic1D L(1, n, nb, P, first);
          for (int64_t c = 0; c <= n; ++c) {
            int64_t most = 0;
            for (int g = 0; g < P; ++g) {
              int64_t before = 0;
              for (int64_t jl = 0; jl < L.local_n(g); ++jl) before += L.global_col(g, jl) < c;
              bad += local_begin(L, g, c) != before;
              most = std::max(most, L.local_n(g) - before);
            }
            bad += max_local_count(L, c) != most;
          }
        }
  EXPECT_EQ(bad, 0);
}

template <typename T>
class DistOffset_Host : public ::testing::Test {};

TYPED_TEST_SUITE(DistOffset_Host, mt::TestScalars, mt::PrecisionName);

TYPED_TEST(DistOffset_Host, Gemv) {
  using T = TypeParam;
  auto rng = mt::make_rng();
  for (const auto& ctx : HostContexts::all()) {
    auto red = make_reducer(ctx, ReducerKind::Host);
    for (const auto& s : td::shapes(false))
      for (Op op : {Op::N, Op::T, Op::C})
        td::check_gemv_forms(*red, td::draw<T>('G', op, Uplo::Lower, s, rng, false));
  }
}

TYPED_TEST(DistOffset_Host, SymvHemv) {
  using T = TypeParam;
  auto rng = mt::make_rng();
  for (const auto& ctx : HostContexts::all()) {
    auto red = make_reducer(ctx, ReducerKind::Host);
    for (const auto& s : td::shapes(true))
      for (Uplo uplo : {Uplo::Lower, Uplo::Upper})
        for (char kind : {'S', 'H'}) {
          const auto p = td::draw<T>(kind, Op::N, uplo, s, rng, false);
          td::check(*red, p, td::Form::Host, td::Form::Host);
          td::check(*red, p, td::Form::Replicated, td::Form::Replicated);
        }
  }
}

// The pipelined reduction: the local work in chunks, each chunk's entries handed to the
// reducer as they are completed (row chunks for gemv N, column chunks for symv/hemv).
TYPED_TEST(DistOffset_Host, PipelineChunks) {
  using T = TypeParam;
  auto rng = mt::make_rng();
  for (const auto& ctx : HostContexts::all()) {
    auto red = make_reducer(ctx, ReducerKind::Host);
    for (int chunks : {2, 3, 7}) {
      red->set_pipeline_chunks(chunks);
      for (const auto& s : {td::Shape{700, 650, 32, 5, 3}, td::Shape{97, 97, 100, 0, 0}}) {
        const auto g = td::draw<T>('G', Op::N, Uplo::Lower, s, rng, false);
        td::check(*red, g, td::Form::Replicated, td::Form::Replicated);
        const td::Shape sq{s.n, s.n, s.nb, s.j0, s.j0};
        for (Uplo uplo : {Uplo::Lower, Uplo::Upper}) {
          const auto h = td::draw<T>('H', Op::N, uplo, sq, rng, false);
          td::check(*red, h, td::Form::Host, td::Form::Host);
        }
      }
    }
  }
}

// beta = 0 with y full of NaN: y must be overwritten, not scaled.
TYPED_TEST(DistOffset_Host, BetaZeroIgnoresNanInY) {
  using T = TypeParam;
  auto rng = mt::make_rng();
  for (const auto& ctx : HostContexts::all()) {
    auto red = make_reducer(ctx, ReducerKind::Host);
    td::check_beta_zero<T>(*red, 'S', rng);
  }
}

// Offsets outside [0, m] / [0, n] raise BadArgument on every rank; y is untouched.
TYPED_TEST(DistOffset_Host, BadOffsetsRaiseEverywhere) {
  using T = TypeParam;
  const auto& ctx = HostContexts::all()[1];
  auto rng = mt::make_rng();
  const auto A = mt::random_vector<T>(12 * 10, rng);
  DistMatrix<T> dA(ctx, BlockCyclic1D(12, 10, 3, ctx->global_num_devices()));
  dA.distribute_replicated(A.data(), 12);
  DistMatrix<T> dS(ctx, BlockCyclic1D(10, 10, 3, ctx->global_num_devices()));
  dS.distribute_replicated(A.data(), 10);
  const auto x = mt::random_vector<T>(12, rng);
  std::vector<T> y = mt::random_vector<T>(12, rng);
  const auto y0 = y;
  const T alpha = mt::random_scalar<T>(rng), beta = mt::random_scalar<T>(rng);
  int raised = 0;
  const auto expect_bad = [&](auto&& f) {
    try {
      f();
    } catch (const BadArgument&) {
      ++raised;
    }
  };
  expect_bad([&] { gemv_mgpu_offset(Op::N, alpha, dA, 13, 0, x.data(), beta, y.data()); });
  expect_bad([&] { gemv_mgpu_offset(Op::T, alpha, dA, 0, -1, x.data(), beta, y.data()); });
  expect_bad([&] { symv_mgpu_offset(Uplo::Lower, alpha, dS, 11, x.data(), beta, y.data()); });
  expect_bad([&] { hemv_mgpu_offset(Uplo::Upper, alpha, dS, -2, x.data(), beta, y.data()); });
  const bool ok = raised == 4 && y == y0;
  ASSERT_TRUE(td::everywhere(*ctx, ok, "bad offsets: " + std::to_string(raised) + " of 4 raised"));
}

// An empty submatrix product: off = n returns at once; j0 = n with op N scales y.
TYPED_TEST(DistOffset_Host, EmptySubmatrix) {
  using T = TypeParam;
  const auto& ctx = HostContexts::all()[2];
  auto rng = mt::make_rng();
  const auto A = mt::random_vector<T>(8 * 8, rng);
  DistMatrix<T> dA(ctx, BlockCyclic1D(8, 8, 3, ctx->global_num_devices()));
  dA.distribute_replicated(A.data(), 8);
  const T alpha = mt::random_scalar<T>(rng), beta = mt::random_scalar<T>(rng);
  T* no_y = nullptr;
  const T* no_x = nullptr;
  symv_mgpu_offset(Uplo::Lower, alpha, dA, 8, no_x, beta, no_y);
  auto y = mt::random_vector<T>(3, rng);
  const auto y0 = y;
  // An empty inner dimension is BLAS's quick return: y is left as it was.
  gemv_mgpu_offset(Op::N, alpha, dA, 5, 8, no_x, beta, y.data());
  const bool ok = y == y0;
  ASSERT_TRUE(td::everywhere(*ctx, ok, "empty submatrix"));
}

}  // namespace
