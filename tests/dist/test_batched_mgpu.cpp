// SPDX-License-Identifier: BSD-3-Clause
// Batched GEMM over host devices and MPI ranks (dist/batched_mgpu.hpp), compared with
// the single-device host engine on the whole batch. Every rank draws the same data from
// the test's seed and checks the whole (gathered) C; the gaps between entries and the
// leading-dimension padding hold NaN and must come out untouched, C holds NaN when
// beta = 0. Verdicts are reduced over ranks by the MPI test main.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <memory>
#include <numeric>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "core/context.hpp"
#include "core/error.hpp"
#include "dist/batched_mgpu.hpp"
#include "kernels/blas.hpp"
#include "tests/dist/dist_test_helpers.hpp"
#include "tests/dist/host_contexts.hpp"
#include "tests/kernels/batched_test_helpers.hpp"
#include "tests/testing/testing.hpp"

namespace {

using namespace mgblas;
namespace mt = mgblas::testing;

namespace td = mgblas::testing::dist;
using mt::EntryView;
using td::HostContexts;
using td::reference_device;

std::string where(const Context& ctx) {
  std::ostringstream os;
  os << "ranks=" << ctx.nranks() << " devices/rank=" << ctx.num_devices()
     << " seed=" << mt::test_seed();
  return os.str();
}

//  Each entry is checked with its own bound and everything outside the entries' C must
//  come back bit for bit: mt::check_entries (tests/kernels/batched_test_helpers.hpp),
//  the check of the single-device batched tests. C_ref: the single-device host engine
//  on the whole batch.

template <typename T>
class BatchedMgpu_Host : public ::testing::Test {};
TYPED_TEST_SUITE(BatchedMgpu_Host, mt::TestScalars, mt::PrecisionName);

// ---- strided -------------------------------------------------------------------------

struct StridedCase {
  Op opA, opB;
  int64_t m, n, k, batch;
  bool beta_zero = false, alpha_zero = false, shared_a = false;
};

template <Scalar T>
void run_strided(const std::shared_ptr<Context>& ctx, const StridedCase& c, std::mt19937_64& rng) {
  SCOPED_TRACE(detail::concat("strided ", to_string(c.opA), to_string(c.opB), " m=", c.m,
                              " n=", c.n, " k=", c.k, " batch=", c.batch,
                              c.beta_zero ? " beta=0" : "", c.alpha_zero ? " alpha=0" : "",
                              c.shared_a ? " strideA=0" : "", " ", where(*ctx)));
  const int64_t ra = c.opA == Op::N ? c.m : c.k, ca = c.opA == Op::N ? c.k : c.m;
  const int64_t rb = c.opB == Op::N ? c.k : c.n, cb = c.opB == Op::N ? c.n : c.k;
  const int64_t lda = ra + 1, ldb = rb + 2, ldc = c.m + 1;
  const int64_t sA = c.shared_a ? 0 : lda * std::max<int64_t>(ca, 1) + 3;
  const int64_t sB = ldb * std::max<int64_t>(cb, 1) + 2, sC = ldc * c.n + 5;
  auto buffer = [&](int64_t stride, int64_t count, int64_t ld, int64_t cols) {
    return std::vector<T>(static_cast<std::size_t>(std::max<int64_t>(count - 1, 0) * stride +
                                                   ld * std::max<int64_t>(cols, 1) + 1),
                          mt::nan_value<T>());
  };
  std::vector<T> A = buffer(sA, c.shared_a ? 1 : c.batch, lda, ca);
  std::vector<T> B = buffer(sB, c.batch, ldb, cb), C0 = buffer(sC, c.batch, ldc, c.n);
  const auto entries = mt::strided_views(c.m, c.n, c.k, c.batch, lda, sA, ldb, sB, ldc, sC);
  for (const EntryView& v : entries) mt::fill_entry(c.opA, c.opB, v, A, B, C0, !c.beta_zero, rng);
  const T alpha = c.alpha_zero ? T(0) : mt::random_scalar<T>(rng);
  const T beta = c.beta_zero ? T(0) : mt::random_scalar<T>(rng);
  std::vector<T> C_ref = C0, C = C0;
  gemm_batched_strided<T>(reference_device(), c.opA, c.opB, c.m, c.n, c.k, alpha, A.data(), lda,
                          sA, B.data(), ldb, sB, beta, C_ref.data(), ldc, sC, c.batch);
  gemm_batched_strided_mgpu<T>(ctx, c.opA, c.opB, c.m, c.n, c.k, alpha, A.data(), lda, sA,
                               B.data(), ldb, sB, beta, C.data(), ldc, sC, c.batch);
  mt::check_entries(c.opA, c.opB, entries, alpha, beta, c.beta_zero, A, B, C0, C, C_ref);
}

TYPED_TEST(BatchedMgpu_Host, strided) {
  auto rng = mt::make_rng();
  const Op ops[] = {Op::N, Op::T, Op::C};
  for (const auto& ctx : HostContexts::all()) {
    for (int64_t batch : {0, 1, 7, 50})
      run_strided<TypeParam>(ctx, {Op::N, Op::N, 3, 4, 5, batch}, rng);
    for (Op a : ops)
      for (Op b : ops) run_strided<TypeParam>(ctx, {a, b, 5, 3, 4, 11}, rng);
    run_strided<TypeParam>(ctx, {Op::T, Op::C, 6, 6, 6, 13, true}, rng);
    run_strided<TypeParam>(ctx, {Op::C, Op::N, 4, 2, 3, 9, false, true}, rng);
    run_strided<TypeParam>(ctx, {Op::N, Op::T, 7, 5, 0, 8}, rng);
    run_strided<TypeParam>(ctx, {Op::N, Op::N, 8, 8, 8, 10, false, false, true}, rng);
  }
}

// ---- variable size ---------------------------------------------------------------------

template <Scalar T>
void run_vbatched(const std::shared_ptr<Context>& ctx, Op opA, Op opB, int64_t batch,
                  int64_t max_dim, bool gaussian, bool beta_zero, std::mt19937_64& rng) {
  SCOPED_TRACE(detail::concat("vbatched ", to_string(opA), to_string(opB), " batch=", batch,
                              " max=", max_dim, gaussian ? " gaussian" : " uniform",
                              beta_zero ? " beta=0" : "", " ", where(*ctx)));
  std::uniform_int_distribution<int64_t> uniform(0, max_dim);
  std::normal_distribution<double> normal(max_dim / 2.0, max_dim / 6.0);
  const auto draw = [&] {
    if (!gaussian) return uniform(rng);
    return std::clamp<int64_t>(std::llround(normal(rng)), 0, max_dim);
  };
  std::vector<int64_t> m(batch), n(batch), k(batch), lda(batch), ldb(batch), ldc(batch);
  std::vector<EntryView> entries;
  int64_t a_len = 0, b_len = 0, c_len = 0;
  for (int64_t e = 0; e < batch; ++e) {
    m[e] = e % 7 == 3 ? 0 : draw();
    n[e] = e % 9 == 4 ? 0 : draw();
    k[e] = e % 5 == 2 ? 0 : draw();
    const int64_t ra = opA == Op::N ? m[e] : k[e], ca = opA == Op::N ? k[e] : m[e];
    const int64_t rb = opB == Op::N ? k[e] : n[e], cb = opB == Op::N ? n[e] : k[e];
    lda[e] = std::max<int64_t>(1, ra) + e % 2;
    ldb[e] = std::max<int64_t>(1, rb) + 1;
    ldc[e] = std::max<int64_t>(1, m[e]) + e % 3;
    entries.push_back({m[e], n[e], k[e], a_len, lda[e], b_len, ldb[e], c_len, ldc[e]});
    a_len += lda[e] * std::max<int64_t>(ca, 1) + 2;
    b_len += ldb[e] * std::max<int64_t>(cb, 1) + 1;
    c_len += ldc[e] * std::max<int64_t>(n[e], 1) + 3;
  }
  std::vector<T> A(a_len + 1, mt::nan_value<T>()), B(b_len + 1, mt::nan_value<T>()),
      C0(c_len + 1, mt::nan_value<T>());
  for (const EntryView& v : entries) mt::fill_entry(opA, opB, v, A, B, C0, !beta_zero, rng);
  const T alpha = mt::random_scalar<T>(rng);
  const T beta = beta_zero ? T(0) : mt::random_scalar<T>(rng);
  std::vector<T> C_ref = C0, C = C0;
  const auto h = mt::entry_pointers(entries, A.data(), B.data(), C_ref.data());
  gemm_vbatched<T>(reference_device(), opA, opB, m.data(), n.data(), k.data(), alpha, h.a.data(),
                   lda.data(), h.b.data(), ldb.data(), beta, h.c.data(), ldc.data(), batch,
                   mt::largest(m), mt::largest(n), mt::largest(k));
  const auto p = mt::entry_pointers(entries, A.data(), B.data(), C.data());
  gemm_vbatched_mgpu<T>(ctx, opA, opB, m.data(), n.data(), k.data(), alpha, p.a.data(),
                        lda.data(), p.b.data(), ldb.data(), beta, p.c.data(), ldc.data(), batch);
  mt::check_entries(opA, opB, entries, alpha, beta, beta_zero, A, B, C0, C, C_ref);
}

TYPED_TEST(BatchedMgpu_Host, vbatched) {
  auto rng = mt::make_rng();
  for (const auto& ctx : HostContexts::all()) {
    for (int64_t batch : {0, 1, 7, 40}) {
      run_vbatched<TypeParam>(ctx, Op::N, Op::N, batch, 12, false, false, rng);
      run_vbatched<TypeParam>(ctx, Op::C, Op::T, batch, 12, true, true, rng);
    }
    run_vbatched<TypeParam>(ctx, Op::T, Op::C, 25, 33, false, false, rng);
  }
}

// ---- data already on the devices -------------------------------------------------------

TYPED_TEST(BatchedMgpu_Host, local_shares) {
  using T = TypeParam;
  auto rng = mt::make_rng();
  for (const auto& ctx : HostContexts::all()) {
    SCOPED_TRACE(where(*ctx));
    const int64_t m = 4, n = 3, k = 5, batch = 23, sA = m * k + 1, sB = k * n + 2, sC = m * n + 3;
    std::vector<T> A(batch * sA), B(batch * sB), C0(batch * sC, mt::nan_value<T>());
    for (auto& x : A) x = mt::random_value<T>(rng);
    for (auto& x : B) x = mt::random_value<T>(rng);
    const T alpha = mt::random_scalar<T>(rng);
    std::vector<T> C = C0, C_ref = C0;
    gemm_batched_strided<T>(reference_device(), Op::N, Op::T, m, n, k, alpha, A.data(), m, sA,
                            B.data(), n, sB, T(0), C_ref.data(), m, sC, batch);
    // B is stored n x k (op T).
    std::vector<const T*> a, b;
    std::vector<T*> c;
    std::vector<EntryView> mine;
    const int P = ctx->global_num_devices();
    for (int d = 0; d < ctx->num_devices(); ++d) {
      const BatchShare s = batch_share(batch, P, ctx->device_offset() + d);
      a.push_back(A.data() + s.first * sA);
      b.push_back(B.data() + s.first * sB);
      c.push_back(C.data() + s.first * sC);
      for (int64_t e = s.first; e < s.first + s.count; ++e)
        mine.push_back({m, n, k, e * sA, m, e * sB, n, e * sC, m});
    }
    gemm_batched_strided_mgpu_local<T>(ctx, Op::N, Op::T, m, n, k, alpha, a, m, sA, b, n, sB,
                                       T(0), c, m, sC, batch);
    // Only this rank's entries are computed; everything else keeps its NaN.
    mt::check_entries(Op::N, Op::T, mine, alpha, T(0), true, A, B, C0, C, C_ref);
  }
}

// ---- splits and errors -----------------------------------------------------------------

TEST(BatchedMgpu, splits) {
  for (int64_t batch : {0, 1, 5, 100})
    for (int P : {1, 2, 3, 7}) {
      int64_t next = 0;
      for (int g = 0; g < P; ++g) {
        const BatchShare s = batch_share(batch, P, g);
        EXPECT_EQ(s.first, next);
        EXPECT_GE(s.count, batch / P);
        EXPECT_LE(s.count, batch / P + 1);
        next += s.count;
      }
      EXPECT_EQ(next, batch);
    }
  // Work split: one heavy entry ends a device's range early; zero work splits by count.
  const std::vector<int64_t> m = {10, 1, 1, 1, 1, 1}, n = {10, 1, 1, 1, 1, 1}, k = {10, 1, 1, 1, 1, 1};
  const auto b = batch_split_by_work(6, m.data(), n.data(), k.data(), 2);
  ASSERT_EQ(b.size(), 3u);
  EXPECT_EQ(b[0], 0);
  EXPECT_EQ(b[1], 1);
  EXPECT_EQ(b[2], 6);
  const std::vector<int64_t> z(4, 0);
  const auto bz = batch_split_by_work(4, z.data(), z.data(), z.data(), 3);
  EXPECT_EQ(bz, (std::vector<int64_t>{0, 2, 3, 4}));
}

TEST(BatchedMgpu, bad_arguments) {
  const auto& ctx = HostContexts::all().back();
  std::vector<double> a(64, 1.0), c(64, 0.0);
  EXPECT_THROW(gemm_batched_strided_mgpu<double>(ctx, Op::N, Op::N, 4, 4, 4, 1.0, a.data(), 3, 16,
                                                 a.data(), 4, 16, 0.0, c.data(), 4, 16, 2),
               BadArgument);
  EXPECT_THROW(gemm_batched_strided_mgpu<double>(ctx, Op::N, Op::N, 4, 4, 4, 1.0, a.data(), 4, 16,
                                                 a.data(), 4, 16, 0.0, c.data(), 4, 8, 2),
               BadArgument);
  EXPECT_THROW(gemm_batched_strided_mgpu<double>(ctx, Op::N, Op::N, 2, 2, 2, 1.0, nullptr, 2, 4,
                                                 a.data(), 2, 4, 0.0, c.data(), 2, 4, 3),
               BadArgument);
  const int64_t m[2] = {2, 2}, n[2] = {2, 2}, k[2] = {2, 2}, ld[2] = {2, 1};
  const double* pa[2] = {a.data(), a.data()};
  double* pc[2] = {c.data(), c.data() + 8};
  EXPECT_THROW(gemm_vbatched_mgpu<double>(ctx, Op::N, Op::N, m, n, k, 1.0, pa, ld, pa, ld, 0.0,
                                          pc, ld, 2),
               BadArgument);
}

}  // namespace
