// SPDX-License-Identifier: BSD-3-Clause
// Distributed Level 2 on GPUs: 1 rank x all its GPUs, or several ranks (mpirun) x their
// share of the node's GPUs. gemv/symv/hemv_mgpu and their offset forms through the NCCL
// and the host reducer, with host, replicated and block-cyclic vectors, pipelined and
// not, with the block-cyclic SYMV/HEMV kernel and with the engine's per-block products,
// compared with the single-device host engine; NCCL and host reducers agree; one rank's
// bad argument or failure reaches every rank instead of hanging it.
//
// Exits 77 (skipped) without a GPU. NCCL parts are skipped when NCCL cannot take the
// context (two ranks on one GPU).
#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <memory>
#include <vector>

#include "core/context.hpp"
#include "tests/dist/gpu_context.hpp"
#include "core/error.hpp"
#include "dist/nccl_comm.hpp"
#include "dist/reducer.hpp"
#include "tests/dist/dist_cases.hpp"

namespace {

using namespace mgblas;
namespace mt = mgblas::testing;
namespace td = mgblas::testing::dist;
using td::raises;

// One GPU context for the whole run (tests/dist/gpu_context.hpp: Context::create and the
// first NCCL use are collective), released before MPI_Finalize.
using td::GpuContext;

// The reducers every case runs through: NCCL (whole, and pipelined in 3 chunks) when
// NCCL can take the context, and the host reducer.
std::vector<std::unique_ptr<Reducer>> reducers() {
  auto& ctx = GpuContext::get();
  std::vector<std::unique_ptr<Reducer>> out;
  try {
    out.push_back(make_reducer(ctx, ReducerKind::Nccl));
    out.push_back(make_reducer(ctx, ReducerKind::Nccl));
    out.back()->set_pipeline_chunks(3);
  } catch (const NotImplemented& e) {
    if (ctx->rank() == 0) std::printf("NCCL unavailable here, host reducer only: %s\n", e.what());
    out.clear();
  }
  out.push_back(make_reducer(ctx, ReducerKind::Host));
  return out;
}

// Sets MGBLAS_DIST_SYMV for the scope of one case.
class SymvPath {
 public:
  explicit SymvPath(const char* path) { ::setenv("MGBLAS_DIST_SYMV", path, 1); }
  ~SymvPath() { ::unsetenv("MGBLAS_DIST_SYMV"); }
};

template <typename T>
class DistNccl : public ::testing::Test {};

TYPED_TEST_SUITE(DistNccl, mt::TestScalars, mt::PrecisionName);

TEST(DistNcclSetup, BindingReport) {
  auto& ctx = GpuContext::get();
  const std::string report = ctx->binding_report();
  if (ctx->rank() == 0) std::cout << "binding:\n" << report;
  bool ok = ctx->backend() == Backend::Cuda;
  for (const auto& b : ctx->binding())
    ok = ok && b.device.rfind("cuda:", 0) == 0 && !b.pci_bus_id.empty();
  ok = ok && report.find("pci") != std::string::npos;
  auto red = make_reducer(ctx);
  if (ctx->rank() == 0) std::cout << "auto reducer: " << red->description() << "\n";
  ASSERT_TRUE(td::everywhere(*ctx, ok, "binding report:\n" + report));
}

TYPED_TEST(DistNccl, Gemv) {
  using T = TypeParam;
  auto rng = mt::make_rng();
  for (auto& red : reducers())
    for (const auto& s : td::shapes(false))
      for (Op op : {Op::N, Op::T, Op::C})
        td::check_gemv_forms(*red, td::draw<T>('G', op, Uplo::Lower, s, rng, false));
}

TYPED_TEST(DistNccl, SymvHemv) {
  using T = TypeParam;
  auto rng = mt::make_rng();
  // nb = 64 and 128 (and 256 in shapes()) are multiples of the engine tile, so "kernel"
  // runs the engine's tile kernel there (offsets inside and at tile edges) and the
  // column kernel elsewhere; "columns" forces the column kernel.
  auto sizes = td::shapes(true);
  for (const td::Shape& s : {td::Shape{700, 700, 64, 45, 45}, td::Shape{1000, 1000, 128, 128, 128},
                             td::Shape{515, 515, 64, 0, 0}, td::Shape{96, 96, 64, 33, 33}})
    sizes.push_back(s);
  for (const char* path : {"kernel", "columns", "engine"}) {
    const SymvPath use(path);
    for (auto& red : reducers())
      for (const auto& s : sizes)
        for (Uplo uplo : {Uplo::Lower, Uplo::Upper})
          for (char kind : {'S', 'H'}) {
            const auto p = td::draw<T>(kind, Op::N, uplo, s, rng, false);
            td::check(*red, p, td::Form::Host, td::Form::Host, path);
            td::check(*red, p, td::Form::Replicated, td::Form::Replicated, path);
          }
  }
}

// Sizes with many kernel tiles, several row groups per block and every kind of tile
// (full, cut by the diagonal, the narrow last one), and a pipeline of 5 chunks.
TYPED_TEST(DistNccl, LargerSizes) {
  using T = TypeParam;
  auto rng = mt::make_rng();
  auto reds = reducers();
  for (auto& red : reds) red->set_pipeline_chunks(red->pipeline_chunks() > 1 ? 5 : 1);
  for (const auto& s : {td::Shape{2131, 2131, 256, 0, 0}, td::Shape{4099, 4099, 64, 129, 129},
                        td::Shape{3001, 3001, 1, 17, 17}}) {
    // Drawn once per shape (large draws cost seconds on the host), run by every reducer.
    const char kind = is_complex_v<T> ? 'H' : 'S';
    const auto lower = td::draw<T>(kind, Op::N, Uplo::Lower, s, rng, false);
    const auto upper = td::draw<T>(kind, Op::N, Uplo::Upper, s, rng, false);
    const auto g = td::draw<T>('G', Op::N, Uplo::Lower, s, rng, false);
    const auto t = td::draw<T>('G', Op::C, Uplo::Lower, s, rng, false);
    for (auto& red : reds) {
      td::check(*red, lower, td::Form::Replicated, td::Form::Replicated);
      td::check(*red, upper, td::Form::Replicated, td::Form::Replicated);
      td::check(*red, g, td::Form::Replicated, td::Form::Replicated);
      td::check(*red, t, td::Form::Host, td::Form::Host);
    }
  }
}

TYPED_TEST(DistNccl, BetaZeroIgnoresNanInY) {
  using T = TypeParam;
  auto rng = mt::make_rng();
  for (auto& red : reducers()) td::check_beta_zero<T>(*red, 'H', rng);
}

//  +------------------------------------------------------------------------------+
//  |  || y_nccl - y_host || / ((k |alpha| ||S|| ||x|| + |beta| ||y0||) eps) <= tol   |
//  |  the two reducers sum in different orders: equal within rounding only          |
//  +------------------------------------------------------------------------------+
TYPED_TEST(DistNccl, NcclMatchesHost) {
  using T = TypeParam;
  auto& ctx = GpuContext::get();
  auto reds = reducers();
  if (reds.size() < 2) GTEST_SKIP() << "NCCL cannot take this context";
  auto rng = mt::make_rng();
  for (const auto& s : {td::Shape{1000, 1000, 100, 0, 0}, td::Shape{777, 777, 32, 11, 11}}) {
    const auto problems = {td::draw<T>('G', Op::N, Uplo::Lower, s, rng, false),
                           td::draw<T>('G', Op::T, Uplo::Lower, s, rng, false),
                           td::draw<T>('S', Op::N, Uplo::Lower, s, rng, false),
                           td::draw<T>('H', Op::N, Uplo::Upper, s, rng, false)};
    for (const auto& p : problems) {
      const auto a = td::run(*reds.front(), p, td::Form::Replicated, td::Form::Replicated);
      const auto b = td::run(*reds.back(), p, td::Form::Replicated, td::Form::Replicated);
      const double err = mt::scaled_error(mt::norm_diff(p.len_y(), a.y.data(), 1, b.y.data(), 1),
                                          p.len_x(), p.alpha, p.norm_A, p.norm_x, p.beta,
                                          p.norm_y0);
      EXPECT_TRUE(td::everywhere(*ctx, err <= mt::error_tolerance<T>(),
                                 std::string("nccl vs host, kind ") + p.kind + " n=" +
                                     std::to_string(s.n) + ": " + std::to_string(err)));
    }
  }
}

// One rank alone is wrong (or the ranks disagree): that rank raises its own error, the
// others RemoteError or DimensionMismatch, before any NCCL collective starts; the
// communicator stays usable.
TEST(DistNcclFailures, OneBadRankRaisesEverywhere) {
  auto& ctx = GpuContext::get();
  auto reds = reducers();
  auto rng = mt::make_rng();
  const int64_t n = 300;
  const auto A = mt::random_vector<double>(n * n, rng);
  const auto x = mt::random_vector<double>(n, rng);
  const auto y0 = mt::random_vector<double>(n, rng);
  DistMatrix<double> dA(ctx, BlockCyclic1D(n, n, 32, ctx->global_num_devices()));
  dA.distribute_replicated(A.data(), n);
  const bool last = ctx->rank() == ctx->nranks() - 1;
  for (auto& red : reds) {
    auto y = y0;
    const double* bad_x = last ? nullptr : x.data();
    bool ok = last || ctx->nranks() == 1
                  ? raises<BadArgument>([&] { symv_mgpu(*red, Uplo::Lower, 1.5, dA, bad_x, 0.5, y.data()); })
                  : raises<RemoteError>([&] { symv_mgpu(*red, Uplo::Lower, 1.5, dA, bad_x, 0.5, y.data()); });
    if (ctx->nranks() > 1)
      ok = raises<DimensionMismatch>([&] {
             gemv_mgpu(*red, last ? Op::T : Op::N, 1.5, dA, x.data(), 0.5, y.data());
           }) && ok;
    ok = ok && y == y0;
    // Still usable: a correct call afterwards.
    gemv_mgpu(*red, Op::N, 1.0, dA, x.data(), 0.0, y.data());
    std::vector<double> y_ref(n, 0.0);
    gemv(Queue(td::reference_device()), Op::N, n, n, 1.0, A.data(), n, x.data(), 1, 0.0,
         y_ref.data(), 1);
    const double err = mt::scaled_error(mt::norm_diff(n, y.data(), 1, y_ref.data(), 1), n, 1.0,
                                        mt::norm_fro(n, n, A.data(), n), mt::norm_vec(n, x.data()),
                                        0.0, 0.0);
    ok = ok && err <= mt::error_tolerance<double>();
    ASSERT_TRUE(td::everywhere(*ctx, ok, std::string("one bad rank, reducer ") +
                                             to_string(red->kind())));
  }
}

// A producer failing on rank 0 after the others may have queued their collectives:
// every rank raises, the NCCL work in flight is aborted, and the next reducer makes a
// new communicator that works. Last in the file: it replaces the communicator.
TEST(DistNcclFailures, ProducerFailureAbortsAndRecovers) {
  auto& ctx = GpuContext::get();
  std::unique_ptr<Reducer> red;
  try {
    red = make_reducer(ctx, ReducerKind::Nccl);
  } catch (const NotImplemented&) {
    GTEST_SKIP() << "NCCL cannot take this context";
  }
  const int64_t n = 1000;
  std::vector<double> y(n, 2.0);
  const auto y0 = y;
  const bool culprit = ctx->rank() == 0;
  const auto produce = [&] {
    if (culprit) MGBLAS_THROW(BadArgument, "test: a producer failing on rank 0");
    std::vector<const double*> parts(ctx->num_devices(), nullptr);
    for (int d = 0; d < ctx->num_devices(); ++d) {
      double* p = red->workspace<double>(d, 0, n);
      memset_bytes(ctx->device(d), p, 0, n * sizeof(double), /*async=*/true);
      parts[d] = p;
    }
    return parts;
  };
  bool ok = culprit ? raises<BadArgument>([&] { red->reduce<double>(n, 1.0, y.data(), produce); })
                    : raises<RemoteError>([&] { red->reduce<double>(n, 1.0, y.data(), produce); });
  ok = ok && y == y0;
  const auto& nccl = static_cast<NcclReducer&>(*red).communicator();
  ok = ok && nccl.aborted();
  red.reset();

  // A new reducer, a new communicator: p_g[i] = (g + 1) everywhere, y = sum + 1 * y0.
  red = make_reducer(ctx, ReducerKind::Nccl);
  red->reduce<double>(n, 1.0, y.data(), [&] {
    std::vector<const double*> parts(ctx->num_devices(), nullptr);
    for (int d = 0; d < ctx->num_devices(); ++d) {
      const int g = ctx->device_offset() + d;
      std::vector<double> h(n, g + 1.0);
      double* p = red->workspace<double>(d, 0, n);
      copy_vector(ctx->device(d), n, h.data(), p);
      parts[d] = p;
    }
    return parts;
  });
  const int G = ctx->global_num_devices();
  const double expect = G * (G + 1) / 2.0 + 2.0;
  for (int64_t i = 0; i < n; ++i) ok = ok && y[i] == expect;
  ASSERT_TRUE(td::everywhere(*ctx, ok, "producer failure and recovery"));
}

}  // namespace
