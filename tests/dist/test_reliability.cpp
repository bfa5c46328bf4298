// SPDX-License-Identifier: BSD-3-Clause
// Collective safety, checked sizes and messages (issue 12): each test is one probe of
// a way ranks can disagree or a size can overflow, and asserts that every rank gets a
// clear error (naming the failing rank and argument) within the host-path deadline,
// with the outputs untouched, and that the next collective call still works.
//
// Run on 2 and 3 ranks of host devices; MGBLAS_COMM_TIMEOUT is set low here so that the
// probes that must time out do so in seconds.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstdlib>
#include <functional>
#include <random>
#include <limits>
#include <memory>
#include <string>
#include <vector>

#include "core/context.hpp"
#include "core/error.hpp"
#include "core/memory.hpp"
#include "dist/batched_mgpu.hpp"
#include <mgblas/mgblas.h>
#include "dist/dist_blas.hpp"
#include "dist/tsgemm_mgpu.hpp"
#include "kernels/blas.hpp"
#include "layouts/dist_matrix.hpp"

namespace mgblas {
namespace {

constexpr int64_t kMax = std::numeric_limits<int64_t>::max();

// One host-device context per test binary, with a short deadline (seconds).
std::shared_ptr<Context> make_context(const char* deadline = "4") {
  setenv("MGBLAS_COMM_TIMEOUT", deadline, 1);
  ContextOptions opts;
  opts.backend = BackendChoice::Host;
  opts.host_devices = 2;
  opts.bind = false;
  opts.verify_inputs = 1;
  return Context::create(opts);
}
std::shared_ptr<Context>& context() {
  static std::shared_ptr<Context> ctx = make_context();
  return ctx;
}
class ReleaseContext : public ::testing::Environment {
 public:
  void TearDown() override { context().reset(); }
};
::testing::Environment* const release = ::testing::AddGlobalTestEnvironment(new ReleaseContext);

// Fresh random values in [-1, 1): the same on every rank for the same seed.
std::vector<double> rnd(int64_t n, uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> dist(-1.0, 1.0);
  std::vector<double> v(static_cast<std::size_t>(n));
  for (auto& e : v) e = dist(rng);
  return v;
}

bool contains(const std::string& s, const std::string& part) {
  return s.find(part) != std::string::npos;
}

// What a probe raised on this rank: the class and the message ("" when nothing).
struct Outcome {
  std::string kind;
  std::string what;
};
template <typename F>
Outcome run(F&& f) {
  try {
    f();
  } catch (const RemoteError& e) {
    return {"remote", e.what()};
  } catch (const BadArgument& e) {
    return {"bad", e.what()};
  } catch (const DimensionMismatch& e) {
    return {"mismatch", e.what()};
  } catch (const Timeout& e) {
    return {"timeout", e.what()};
  } catch (const AllocationError& e) {
    return {"alloc", e.what()};
  } catch (const std::exception& e) {
    return {"other", e.what()};
  }
  return {"", ""};
}

// A distributed n x n matrix of fresh random values and host vectors.
struct Operands {
  int64_t n = 40;
  std::vector<double> x, y;
  DistMatrix<double> A;
  explicit Operands(const std::shared_ptr<Context>& ctx, int64_t nn = 40)
      : n(nn), x(rnd(nn, 11)), y(rnd(nn, 12)),
        A(ctx, BlockCyclic1D(nn, nn, 8, ctx->global_num_devices())) {
    const auto host = rnd(nn * nn, 13);
    A.distribute(host.data(), nn, 0);
  }
};

// Every rank must see an error; the rank that caused it its own kind, the others a
// RemoteError naming it. y stays untouched everywhere.
void expect_raised_everywhere(const Context& ctx, const Outcome& o, int culprit,
                              const std::string& mine, const std::string& text) {
  if (ctx.rank() == culprit) {
    EXPECT_EQ(o.kind, mine) << o.what;
  } else {
    EXPECT_EQ(o.kind, "remote") << o.what;
    EXPECT_TRUE(contains(o.what, "rank " + std::to_string(culprit))) << o.what;
  }
  EXPECT_TRUE(contains(o.what, text)) << o.what;
  // The location is a detail, not part of the message.
  EXPECT_FALSE(contains(o.what, ".cpp:")) << o.what;
}

// The next collective call after a failed one works and gives the right answer.
void expect_next_call_works(const std::shared_ptr<Context>& ctx, Operands& op) {
  std::vector<double> y(op.n, 0.0), full(op.n * op.n), ref(op.n, 0.0);
  gemv_mgpu(ctx, Op::N, 1.0, op.A, op.x.data(), 0.0, y.data());
  op.A.collect(full.data(), op.n, -1);
  for (int64_t j = 0; j < op.n; ++j)
    for (int64_t i = 0; i < op.n; ++i) ref[i] += full[i + j * op.n] * op.x[j];
  for (int64_t i = 0; i < op.n; ++i) EXPECT_NEAR(y[i], ref[i], 1e-12 * op.n) << i;
}

// ---- one rank's bad argument ------------------------------------------------------

TEST(Reliability, BadOpOnOneRankRaisesOnEveryRank) {
  auto& ctx = context();
  Operands op(ctx);
  const int culprit = ctx->nranks() - 1;
  std::vector<double> y = op.y;
  const Op bad = ctx->rank() == culprit ? static_cast<Op>('X') : Op::N;
  const Outcome o = run([&] { gemv_mgpu(ctx, bad, 1.0, op.A, op.x.data(), 0.0, y.data()); });
  expect_raised_everywhere(*ctx, o, culprit, "bad", "'op'");
  EXPECT_EQ(y, op.y);
  expect_next_call_works(ctx, op);
}

// One vector argument type holds a host array or a DistVector; a host x with a
// DistVector y (or the reverse) is named, on every rank, before anything is written.
TEST(Reliability, MixedHostAndDistVectorFormsAreNamed) {
  auto& ctx = context();
  Operands op(ctx);
  DistVector<double> yv(ctx, op.n);
  std::vector<double> y = op.y;
  // Every rank passes the mix, so every rank raises its own BadArgument.
  Outcome o = run([&] { symv_mgpu(ctx, Uplo::Lower, 1.0, op.A, op.x.data(), 0.0, yv); });
  EXPECT_EQ(o.kind, "bad") << o.what;
  EXPECT_TRUE(contains(o.what, "'y' = a DistVector")) << o.what;
  o = run([&] { gemv_mgpu(Op::N, 1.0, op.A, yv, 0.0, y.data()); });
  EXPECT_EQ(o.kind, "bad") << o.what;
  EXPECT_TRUE(contains(o.what, "a DistVector, as x is")) << o.what;
  EXPECT_EQ(y, op.y);
  expect_next_call_works(ctx, op);
}

TEST(Reliability, AllocationFailureOnOneRankRaisesOnEveryRank) {
  auto& ctx = context();
  // One column of 2^57 rows lives on global device 0 only (rank 0): 2^60 bytes there,
  // beyond any address space (a machine that overcommits memory fails it too), nothing
  // elsewhere.
  const Outcome o = run([&] {
    DistMatrix<double> big(ctx, BlockCyclic1D(int64_t{1} << 57, 1, 1, ctx->global_num_devices()));
  });
  expect_raised_everywhere(*ctx, o, 0, "alloc", "bytes");
  if (ctx->rank() == 0) EXPECT_TRUE(contains(o.what, "host:0")) << o.what;
  Operands op(ctx);
  expect_next_call_works(ctx, op);
}

TEST(Reliability, RowTiledAllocationFailureOnOneRankRaisesOnEveryRank) {
  auto& ctx = context();
  // One tile of 2^57 rows on global device 0 (rank 0) and one of 1 row elsewhere: 2^60
  // bytes on rank 0 only.
  const int P = ctx->global_num_devices();
  const int64_t tile = int64_t{1} << 57;
  const Outcome o = run([&] { RowTiledMatrix<double> big(ctx, RowTiling(tile + P - 1, P, tile), 1); });
  expect_raised_everywhere(*ctx, o, 0, "alloc", "bytes");
  const Outcome bad_n = run([&] { RowTiledMatrix<double> A(ctx, 16, ctx->rank() == 1 ? -1 : 2); });
  expect_raised_everywhere(*ctx, bad_n, 1, "bad", "'n'");
  Operands op(ctx);
  expect_next_call_works(ctx, op);
}

// ---- ranks that disagree ----------------------------------------------------------

TEST(Reliability, DifferentBetaOrAlphaOrXIsNamed) {
  auto& ctx = context();
  Operands op(ctx);
  const bool odd = ctx->rank() == 1;
  struct Case {
    const char* field;
    double alpha, beta;
    bool other_x;
  };
  for (const Case c : {Case{"'beta'", 1.0, odd ? 2.0 : 1.0, false},
                       Case{"'alpha'", odd ? -1.0 : 1.0, 0.0, false},
                       Case{"'x' (contents)", 1.0, 0.0, odd}}) {
    std::vector<double> y = op.y, x = op.x;
    if (c.other_x) x[3] += 1.0;
    const Outcome o = run([&] { gemv_mgpu(ctx, Op::N, c.alpha, op.A, x.data(), c.beta, y.data()); });
    EXPECT_EQ(o.kind, "mismatch") << o.what;
    EXPECT_TRUE(contains(o.what, c.field)) << o.what;
    EXPECT_TRUE(contains(o.what, "rank")) << o.what;
    EXPECT_EQ(y, op.y) << c.field;
  }
  expect_next_call_works(ctx, op);
}

TEST(Reliability, DifferentPrecisionsOfOneMatrixAreNamed) {
  // Only where z is built (MGBLAS_PRECISIONS): the discarded branch is never linked.
  if constexpr (!precision_enabled_v<zcomplex>) {
    GTEST_SKIP() << "z is not built; MGBLAS_PRECISIONS = " << enabled_precisions();
  } else {
    auto& ctx = context();
    const BlockCyclic1D L(16, 16, 4, ctx->global_num_devices());
    const Outcome o = run([&] {
      if (ctx->rank() == 0) DistMatrix<double> A(ctx, L);
      else DistMatrix<zcomplex> A(ctx, L);
    });
    EXPECT_EQ(o.kind, "mismatch") << o.what;
    EXPECT_TRUE(contains(o.what, "'precision'")) << o.what;
    Operands op(ctx);
    expect_next_call_works(ctx, op);
  }
}

TEST(Reliability, BatchedAlphaAndTsgemmBetaPerRankAreNamed) {
  auto& ctx = context();
  const bool odd = ctx->rank() == 1;
  const int64_t m = 4, batch = 6;
  auto A = rnd(m * m * batch, 21);
  auto B = rnd(m * m * batch, 22);
  auto C = rnd(m * m * batch, 23);
  const auto C0 = C;
  Outcome o = run([&] {
    gemm_batched_strided_mgpu<double>(ctx, Op::N, Op::N, m, m, m, odd ? 2.0 : 1.0, A.data(), m,
                                      m * m, B.data(), m, m * m, 0.0, C.data(), m, m * m, batch);
  });
  EXPECT_EQ(o.kind, "mismatch") << o.what;
  EXPECT_TRUE(contains(o.what, "'alpha'")) << o.what;
  EXPECT_EQ(C, C0);

  const int64_t rows = 64, k = 3, n = 2;
  RowTiledMatrix<double> TA(ctx, RowTiling(rows, ctx->global_num_devices()), k);
  RowTiledMatrix<double> TC(ctx, RowTiling(rows, ctx->global_num_devices()), n);
  const auto hostA = rnd(rows * k, 24);
  const auto hostC = rnd(rows * n, 25);
  TA.distribute(hostA.data(), rows, 0);
  TC.distribute(hostC.data(), rows, 0);
  const auto Bsmall = rnd(k * n, 26);
  o = run([&] { tsgemm_mgpu(ctx, Op::N, 1.0, TA, Bsmall.data(), k, odd ? 3.0 : 1.0, TC); });
  EXPECT_EQ(o.kind, "mismatch") << o.what;
  EXPECT_TRUE(contains(o.what, "'beta'")) << o.what;
  std::vector<double> after(rows * n);
  TC.collect(after.data(), rows, -1);
  EXPECT_EQ(after, hostC);
}

TEST(Reliability, AnotherCallIsDetectedNotPaired) {
  auto& ctx = context();
  Operands op(ctx);
  std::vector<double> y = op.y;
  // Rank 1 skips the gemv and goes on to the symv: the calls are told apart by name and
  // sequence number, so both ranks raise instead of pairing the two.
  const Outcome o = run([&] {
    if (ctx->rank() != 1) gemv_mgpu(ctx, Op::N, 1.0, op.A, op.x.data(), 0.0, y.data());
    symv_mgpu(ctx, Uplo::Lower, 1.0, op.A, op.x.data(), 0.0, y.data());
  });
  EXPECT_EQ(o.kind, "mismatch") << o.what;
  EXPECT_TRUE(contains(o.what, "gemv_mgpu") && contains(o.what, "symv_mgpu")) << o.what;
}

// A skipped or an extra call of the same kind pairs with the next one of that kind (the
// calls are numbered in step, and here their inputs are the same), but the next call of
// another kind finds it: every rank raises there, before writing, naming each rank's
// call and how many calls of each kind every rank has begun. A fresh context, so the
// counts start at zero.
TEST(Reliability, ASkippedCallOfTheSameKindIsNamedAtTheNextCollective) {
  const auto ctx = make_context();
  const int culprit = ctx->nranks() - 1;
  Operands op(ctx);
  std::vector<std::vector<double>> ys(3, op.y);
  std::vector<double> y_symv = op.y;
  int made = 0;
  const Outcome o = run([&] {
    for (int i = 0; i < 3; ++i) {
      if (ctx->rank() == culprit && i == 1) continue;  // the skipped call
      gemv_mgpu(ctx, Op::N, 1.0, op.A, op.x.data(), 0.0, ys[i].data());
      ++made;
    }
    symv_mgpu(ctx, Uplo::Lower, 1.0, op.A, op.x.data(), 0.0, y_symv.data());
  });
  EXPECT_EQ(o.kind, "mismatch") << o.what;
  EXPECT_EQ(made, 2) << o.what;
  const std::string r = std::to_string(culprit);
  EXPECT_TRUE(contains(o.what, "rank 0 in its call #")) << o.what;
  EXPECT_TRUE(contains(o.what, "'gemv_mgpu' #3")) << o.what;
  EXPECT_TRUE(contains(o.what, "rank " + r + " in its call #")) << o.what;
  EXPECT_TRUE(contains(o.what, "'symv_mgpu' #1")) << o.what;
  EXPECT_TRUE(contains(o.what, "'gemv_mgpu' 3 on rank 0")) << o.what;
  EXPECT_TRUE(contains(o.what, "2 on rank " + r)) << o.what;
  if (ctx->rank() != culprit) EXPECT_EQ(ys[2], op.y);  // the unmatched call wrote nothing
  EXPECT_EQ(y_symv, op.y);
  expect_next_call_works(ctx, op);
}

TEST(Reliability, AnExtraCallOfTheSameKindIsNamedAtTheNextCollective) {
  const auto ctx = make_context();
  const int culprit = ctx->nranks() - 1;
  Operands op(ctx);
  std::vector<double> y1 = op.y, y2 = op.y;
  const Outcome o = run([&] {
    gemv_mgpu(ctx, Op::N, 1.0, op.A, op.x.data(), 0.0, y1.data());
    if (ctx->rank() == culprit) gemv_mgpu(ctx, Op::N, 1.0, op.A, op.x.data(), 0.0, y2.data());
    ctx->comm().barrier();
  });
  EXPECT_EQ(o.kind, "mismatch") << o.what;
  const std::string r = std::to_string(culprit);
  EXPECT_TRUE(contains(o.what, "'gemv_mgpu' 1 on rank 0")) << o.what;
  EXPECT_TRUE(contains(o.what, "2 on rank " + r)) << o.what;
  EXPECT_TRUE(contains(o.what, "'barrier' #1")) << o.what;
  EXPECT_NE(y1, op.y);  // the first call, made by every rank, ran
  EXPECT_EQ(y2, op.y);
  expect_next_call_works(ctx, op);
}

TEST(Reliability, AnExtraCallTimesOutInsteadOfHanging) {
  // The last probe on this context: a timeout leaves its communicator unusable.
  auto& ctx = context();
  Operands op(ctx);
  std::vector<double> y = op.y;
  const Outcome o = run([&] {
    if (ctx->rank() == 0) gemv_mgpu(ctx, Op::N, 1.0, op.A, op.x.data(), 0.0, y.data());
  });
  if (ctx->rank() == 0) {
    EXPECT_EQ(o.kind, "timeout") << o.what;
    EXPECT_TRUE(contains(o.what, "gemv_mgpu") && contains(o.what, "MGBLAS_COMM_TIMEOUT")) << o.what;
    EXPECT_EQ(y, op.y);
    const Outcome again = run([&] { ctx->comm().barrier(); });
    EXPECT_EQ(again.kind, "timeout") << again.what;
  } else {
    EXPECT_EQ(o.kind, "") << o.what;
  }
  // A fresh communicator for what follows. Its creation is a collective with a deadline
  // too, and rank 0 joins it only after its own timeout: the others must wait longer.
  context() = make_context("30");
}

TEST(Reliability, ABarrierAgainstAGemvIsNamedOnBothSides) {
  // Rank 1 enters the library's barrier while the others enter gemv_mgpu.
  auto& ctx = context();
  Operands op(ctx);
  std::vector<double> y = op.y;
  const Outcome o = run([&] {
    if (ctx->rank() == 1) ctx->comm().barrier();
    else gemv_mgpu(ctx, Op::N, 1.0, op.A, op.x.data(), 0.0, y.data());
  });
  EXPECT_EQ(o.kind, "mismatch") << o.what;
  EXPECT_TRUE(contains(o.what, "'barrier'") && contains(o.what, "gemv_mgpu")) << o.what;
  EXPECT_EQ(y, op.y);
  expect_next_call_works(ctx, op);
}

// ---- sizes that overflow ----------------------------------------------------------

TEST(Reliability, OffsetsNearInt64MaxAreRejected) {
  const auto dev = Device::make_host(0);
  const Queue q(*dev);
  std::vector<double> A(16, 1.0), x(4, 1.0), y(4, 5.0);
  const auto y0 = y;
  for (const auto& [name, f] : std::vector<std::pair<std::string, std::function<void()>>>{
           {"row_off", [&] { gemv_offset(q, Op::N, 4, 4, 1.0, A.data(), 4, kMax, 0, x.data(), 1, 0.0, y.data(), 1); }},
           {"col_off", [&] { gemv_offset(q, Op::N, 4, 4, 1.0, A.data(), 4, 0, kMax / 2, x.data(), 1, 0.0, y.data(), 1); }},
           {"off", [&] { symv_offset(q, Uplo::Lower, 4, 1.0, A.data(), 4, kMax, x.data(), 1, 0.0, y.data(), 1); }},
           {"off", [&] { hemv_offset(q, Uplo::Upper, 4, 1.0, A.data(), 4, kMax - 2, x.data(), 1, 0.0, y.data(), 1); }},
           {"incx", [&] { gemv(q, Op::N, 4, 4, 1.0, A.data(), 4, x.data(), kMax / 2, 0.0, y.data(), 1); }}}) {
    const Outcome o = run(f);
    EXPECT_EQ(o.kind, "bad") << name << ": " << o.what;
    EXPECT_TRUE(contains(o.what, "'" + name + "'")) << o.what;
    EXPECT_EQ(y, y0);
  }
}

TEST(Reliability, HugeMatricesAndBuffersAreRejectedWithTheirSize) {
  auto& ctx = context();
  const int64_t big = int64_t{1} << 33;
  Outcome o = run([&] { DistMatrix<double> A(ctx, BlockCyclic1D(big, big, 1024, ctx->global_num_devices())); });
  EXPECT_EQ(o.kind, "bad") << o.what;  // found on every rank alike
  EXPECT_TRUE(contains(o.what, "overflow")) << o.what;
  const auto dev = Device::make_host(0);
  // 2^57 + 8 doubles: 2^60 + 64 bytes, no overflow, but no such memory either.
  o = run([&] { DeviceBuffer<double> b(*dev, (std::size_t{1} << 57) + 8); });
  EXPECT_EQ(o.kind, "alloc") << o.what;
  EXPECT_TRUE(contains(o.what, "1152921504606847040 bytes")) << o.what;
  // 2^61 + 8 doubles: the byte count itself overflows.
  o = run([&] { DeviceBuffer<double> b(*dev, (std::size_t{1} << 61) + 8); });
  EXPECT_EQ(o.kind, "bad") << o.what;
  EXPECT_TRUE(contains(o.what, "overflow")) << o.what;
  o = run([&] { DeviceBuffer<double> b(*dev, std::size_t{1} << 58); });  // 2 EiB
  EXPECT_EQ(o.kind, "alloc") << o.what;
  EXPECT_TRUE(contains(o.what, "2305843009213693952 bytes") && contains(o.what, "host:0")) << o.what;
}

// ---- BLAS semantics -----------------------------------------------------------------

TEST(Reliability, NegativeIncrementsAreRejectedSayingSo) {
  const auto dev = Device::make_host(0);
  std::vector<double> A(16, 1.0), x(4, 1.0), y(4, 0.0);
  const Outcome o = run([&] {
    gemv(Queue(*dev), Op::N, 4, 4, 1.0, A.data(), 4, x.data(), -1, 0.0, y.data(), 1);
  });
  EXPECT_EQ(o.kind, "bad");
  EXPECT_TRUE(contains(o.what, "'incx' = -1") && contains(o.what, "negative")) << o.what;
}

TEST(Reliability, ZeroInnerDimensionLeavesYUntouched) {
  const auto dev = Device::make_host(0);
  std::vector<double> y = rnd(5, 31);
  const auto y0 = y;
  gemv(Queue(*dev), Op::N, 5, 0, 1.0, static_cast<const double*>(nullptr), 5,
       static_cast<const double*>(nullptr), 1, 0.0, y.data(), 1);
  EXPECT_EQ(y, y0);
  auto& ctx = context();
  DistMatrix<double> A(ctx, BlockCyclic1D(5, 4, 2, ctx->global_num_devices()));
  std::vector<double> yd = y;
  // The whole inner dimension cut away by the column offset.
  gemv_mgpu_offset(ctx, Op::N, 1.0, A, 0, 4, static_cast<const double*>(nullptr), 0.0, yd.data());
  EXPECT_EQ(yd, y0);
}

// ---- the C API ---------------------------------------------------------------------

struct CMatrices {
  mgblas_context_t ctx = nullptr;
  mgblas_matrix_t d = nullptr, z = nullptr;
  int rank = 0, nranks = 1;
  CMatrices() {
    setenv("MGBLAS_COMM_TIMEOUT", "4", 1);
    EXPECT_EQ(mgblas_context_create_ex(MGBLAS_BACKEND_HOST, 2, &ctx), MGBLAS_SUCCESS) << mgblas_last_error();
    rank = context()->rank();
    EXPECT_EQ(mgblas_matrix_create(ctx, MGBLAS_PREC_D, 12, 12, 4, &d), MGBLAS_SUCCESS);
    EXPECT_EQ(mgblas_matrix_create(ctx, MGBLAS_PREC_Z, 12, 12, 4, &z), MGBLAS_SUCCESS);
    const auto host = rnd(144, 41);
    EXPECT_EQ(mgblas_matrix_distribute(ctx, d, host.data(), 12, 0), MGBLAS_SUCCESS);
  }
  ~CMatrices() {
    mgblas_matrix_destroy(d);
    mgblas_matrix_destroy(z);
    mgblas_context_destroy(ctx);
  }
  void expect_everywhere(mgblas_status_t s, int culprit, mgblas_status_t mine, const char* text) {
    EXPECT_EQ(s, rank == culprit ? mine : MGBLAS_ERROR_REMOTE) << mgblas_last_error();
    EXPECT_TRUE(contains(mgblas_last_error(), text)) << mgblas_last_error();
    // Where it was raised: a source file and line (the C API's checks live in capi/'s
    // capi_support.hpp as well as its .cpp files).
    const std::string where = mgblas_last_error_location();
    EXPECT_TRUE(contains(where, ".cpp:") || contains(where, ".hpp:")) << where;
  }
};

TEST(ReliabilityCApi, BadEnumNullHandleOrOtherPrecisionOnOneRankFailsEverywhere) {
  if (!mgblas::precision_enabled(mgblas::DataType::kFloat64) ||
      !mgblas::precision_enabled(mgblas::DataType::kComplex128))
    GTEST_SKIP() << "needs d and z; MGBLAS_PRECISIONS = " << mgblas::enabled_precisions();
  CMatrices c;
  const int culprit = 1;
  std::vector<double> x = rnd(12, 42), y(12, 7.0);
  const auto y0 = y;
  const bool me = c.rank == culprit;
  c.expect_everywhere(mgblas_dgemv_mgpu(c.ctx, me ? static_cast<mgblas_op_t>('Q') : MGBLAS_OP_N,
                                        1.0, c.d, x.data(), 0.0, y.data()),
                      culprit, MGBLAS_ERROR_BAD_ARGUMENT, "'op'");
  c.expect_everywhere(mgblas_dsymv_mgpu(c.ctx, me ? static_cast<mgblas_uplo_t>(7) : MGBLAS_UPLO_LOWER,
                                        1.0, c.d, x.data(), 0.0, y.data()),
                      culprit, MGBLAS_ERROR_BAD_ARGUMENT, "'uplo'");
  c.expect_everywhere(mgblas_dgemv_mgpu(c.ctx, MGBLAS_OP_N, 1.0, me ? nullptr : c.d, x.data(), 0.0, y.data()),
                      culprit, MGBLAS_ERROR_BAD_ARGUMENT, "'A'");
  c.expect_everywhere(mgblas_dgemv_mgpu(c.ctx, MGBLAS_OP_N, 1.0, me ? c.z : c.d, x.data(), 0.0, y.data()),
                      culprit, MGBLAS_ERROR_BAD_ARGUMENT, "precision");
  EXPECT_EQ(y, y0);
  // Lower-case letters are BLAS letters too; the call then works on every rank.
  EXPECT_EQ(mgblas_dgemv_mgpu(c.ctx, static_cast<mgblas_op_t>('t'), 1.0, c.d, x.data(), 0.0, y.data()),
            MGBLAS_SUCCESS) << mgblas_last_error();
  EXPECT_EQ(mgblas_dsymv_mgpu(c.ctx, static_cast<mgblas_uplo_t>('u'), 1.0, c.d, x.data(), 0.0, y.data()),
            MGBLAS_SUCCESS) << mgblas_last_error();
}

// A precision outside MGBLAS_PRECISIONS (s in a build with MGBLAS_PRECISIONS=d): its C
// names exist and answer MGBLAS_ERROR_NOT_COMPILED naming the entry and the list.
TEST(ReliabilityCApi, PrecisionOutsideTheBuildIsNotCompiled) {
  if (mgblas::precision_enabled(mgblas::DataType::kFloat32))
    GTEST_SKIP() << "s is built; MGBLAS_PRECISIONS = " << mgblas::enabled_precisions();
  mgblas_context_t ctx = nullptr;
  ASSERT_EQ(mgblas_context_create_ex(MGBLAS_BACKEND_HOST, 2, &ctx), MGBLAS_SUCCESS)
      << mgblas_last_error();
  mgblas_matrix_t M = nullptr;
  EXPECT_EQ(mgblas_matrix_create(ctx, MGBLAS_PREC_S, 8, 8, 4, &M), MGBLAS_ERROR_NOT_COMPILED);
  EXPECT_TRUE(contains(mgblas_last_error(), "MGBLAS_PRECISIONS")) << mgblas_last_error();
  EXPECT_EQ(M, nullptr);
  mgblas_device_t dev = nullptr;
  ASSERT_EQ(mgblas_context_device(ctx, 0, &dev), MGBLAS_SUCCESS);
  std::vector<float> A(4, 1.0f), x(2, 1.0f), y(2, 0.0f);
  EXPECT_EQ(mgblas_sgemv(dev, MGBLAS_OP_N, 2, 2, 1.0f, A.data(), 2, x.data(), 1, 0.0f, y.data(), 1),
            MGBLAS_ERROR_NOT_COMPILED);
  EXPECT_TRUE(contains(mgblas_last_error(), "mgblas_sgemv")) << mgblas_last_error();
  EXPECT_TRUE(contains(mgblas_last_error(), "'s'")) << mgblas_last_error();
  EXPECT_EQ(mgblas_context_destroy(ctx), MGBLAS_SUCCESS);
}

TEST(ReliabilityCApi, MessagesNameOpAOpBAndDisagreements) {
  if (!mgblas::precision_enabled(mgblas::DataType::kFloat64) ||
      !mgblas::precision_enabled(mgblas::DataType::kComplex128))
    GTEST_SKIP() << "needs d and z; MGBLAS_PRECISIONS = " << mgblas::enabled_precisions();
  CMatrices c;
  mgblas_device_t dev = nullptr;
  ASSERT_EQ(mgblas_context_device(c.ctx, 0, &dev), MGBLAS_SUCCESS);
  std::vector<double> A(16, 1.0), C(16, 0.0);
  EXPECT_EQ(mgblas_dgemm(dev, MGBLAS_OP_N, static_cast<mgblas_op_t>('Z'), 4, 4, 4, 1.0, A.data(), 4,
                         A.data(), 4, 0.0, C.data(), 4),
            MGBLAS_ERROR_BAD_ARGUMENT);
  EXPECT_TRUE(contains(mgblas_last_error(), "'opB'")) << mgblas_last_error();
  // Ranks that create one matrix in two precisions.
  mgblas_matrix_t M = nullptr;
  const mgblas_status_t s =
      mgblas_matrix_create(c.ctx, c.rank == 0 ? MGBLAS_PREC_D : MGBLAS_PREC_Z, 8, 8, 4, &M);
  EXPECT_EQ(s, MGBLAS_ERROR_DIMENSION_MISMATCH) << mgblas_last_error();
  EXPECT_TRUE(contains(mgblas_last_error(), "'prec'")) << mgblas_last_error();
  EXPECT_EQ(M, nullptr);
}

TEST(ReliabilityCApi, HandlesUsedAfterDestroyAreErrors) {
  mgblas_context_t ctx = nullptr;
  ASSERT_EQ(mgblas_context_create_ex(MGBLAS_BACKEND_HOST, 1, &ctx), MGBLAS_SUCCESS);
  mgblas_device_t dev = nullptr;
  ASSERT_EQ(mgblas_context_device(ctx, 0, &dev), MGBLAS_SUCCESS);
  int gpu = -1;
  EXPECT_EQ(mgblas_device_is_gpu(dev, &gpu), MGBLAS_SUCCESS);
  ASSERT_EQ(mgblas_context_destroy(ctx), MGBLAS_SUCCESS);
  std::vector<double> A(4, 1.0), x(2, 1.0), y(2, 3.0);
  EXPECT_EQ(mgblas_dgemv(dev, MGBLAS_OP_N, 2, 2, 1.0, A.data(), 2, x.data(), 1, 0.0, y.data(), 1),
            MGBLAS_ERROR_BAD_ARGUMENT);
  EXPECT_TRUE(contains(mgblas_last_error(), "'dev'")) << mgblas_last_error();
  EXPECT_EQ(y, std::vector<double>(2, 3.0));
  EXPECT_EQ(mgblas_context_num_devices(ctx, nullptr, nullptr), MGBLAS_ERROR_BAD_ARGUMENT);
}

}  // namespace
}  // namespace mgblas
