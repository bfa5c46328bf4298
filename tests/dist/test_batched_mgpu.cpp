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
#include "tests/testing/testing.hpp"

namespace {

using namespace mgblas;
namespace mt = mgblas::testing;

// Contexts with 1, 2 and 3 host devices per rank (Context::create is collective),
// released before MPI_Finalize.
class HostContexts : public ::testing::Environment {
 public:
  static std::vector<std::shared_ptr<Context>>& all() {
    static std::vector<std::shared_ptr<Context>> contexts;
    if (contexts.empty())
      for (int devices = 1; devices <= 3; ++devices) {
        ContextOptions opts;
        opts.backend = BackendChoice::Host;
        opts.host_devices = devices;
        opts.bind = false;
        contexts.push_back(Context::create(opts));
      }
    return contexts;
  }
  void TearDown() override { all().clear(); }
};
[[maybe_unused]] ::testing::Environment* const host_contexts =
    ::testing::AddGlobalTestEnvironment(new HostContexts);

const Device& reference_device() {
  static const std::unique_ptr<Device> dev = Device::make_host(0);
  return *dev;
}

std::string where(const Context& ctx) {
  std::ostringstream os;
  os << "ranks=" << ctx.nranks() << " devices/rank=" << ctx.num_devices()
     << " seed=" << mt::test_seed();
  return os.str();
}

/// Entry views for the checks.
struct Entry {
  int64_t m, n, k, a_off, lda, b_off, ldb, c_off, ldc;
};

//  +----------------------------------------------------------------------------+
//  |  per entry i:  err_i = ||C_i - C_ref,i||_F / ((k_i |alpha| ||A_i||_F        |
//  |                 ||B_i||_F + |beta| ||C0_i||_F) eps); max_i err_i <= 10     |
//  |                 (x sqrt(2) complex); outside every C_i: bit-for-bit C0     |
//  |  C_ref: the single-device host engine on the whole batch                   |
//  +----------------------------------------------------------------------------+
template <Scalar T>
void check(Op opA, Op opB, const std::vector<Entry>& entries, T alpha, T beta, bool poisoned,
           const std::vector<T>& A, const std::vector<T>& B, const std::vector<T>& C0,
           const std::vector<T>& C, const std::vector<T>& C_ref) {
  std::vector<char> inside(C0.size(), 0);
  double worst = 0;
  for (const Entry& v : entries) {
    for (int64_t j = 0; j < v.n; ++j)
      for (int64_t i = 0; i < v.m; ++i) inside[v.c_off + i + j * v.ldc] = 1;
    const int64_t ra = opA == Op::N ? v.m : v.k, ca = opA == Op::N ? v.k : v.m;
    const int64_t rb = opB == Op::N ? v.k : v.n, cb = opB == Op::N ? v.n : v.k;
    double d = 0;
    for (int64_t j = 0; j < v.n; ++j) {
      const double dj = mt::norm_diff(v.m, C.data() + v.c_off + j * v.ldc, 1,
                                      C_ref.data() + v.c_off + j * v.ldc, 1);
      d += dj * dj;
    }
    const double err = mt::scaled_error(
        std::sqrt(d), v.k, alpha, mt::norm_fro(ra, ca, A.data() + v.a_off, v.lda),
        mt::norm_fro(rb, cb, B.data() + v.b_off, v.ldb), beta,
        poisoned ? 0.0 : mt::norm_fro(v.m, v.n, C0.data() + v.c_off, v.ldc));
    worst = std::isnan(err) ? INFINITY : std::max(worst, err);
  }
  EXPECT_LE(worst, mt::error_tolerance<T>());
  int64_t changed = 0;
  for (std::size_t p = 0; p < C0.size(); ++p)
    if (!inside[p] && std::memcmp(&C0[p], &C[p], sizeof(T)) != 0) ++changed;
  EXPECT_EQ(changed, 0) << "elements outside the C entries changed";
}

template <typename T>
class BatchedMgpu_Host : public ::testing::Test {};
using Scalars = ::testing::Types<float, double, std::complex<float>, std::complex<double>>;
struct PrecisionName {
  template <typename T>
  static std::string GetName(int) {
    return std::string(1, precision_letter<T>());
  }
};
TYPED_TEST_SUITE(BatchedMgpu_Host, Scalars, PrecisionName);

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
  std::vector<Entry> entries;
  for (int64_t e = 0; e < c.batch; ++e) {
    entries.push_back({c.m, c.n, c.k, e * sA, lda, e * sB, ldb, e * sC, ldc});
    for (int64_t j = 0; j < ca; ++j)
      for (int64_t i = 0; i < ra; ++i) A[e * sA + i + j * lda] = mt::random_value<T>(rng);
    for (int64_t j = 0; j < cb; ++j)
      for (int64_t i = 0; i < rb; ++i) B[e * sB + i + j * ldb] = mt::random_value<T>(rng);
    if (!c.beta_zero)
      for (int64_t j = 0; j < c.n; ++j)
        for (int64_t i = 0; i < c.m; ++i) C0[e * sC + i + j * ldc] = mt::random_value<T>(rng);
  }
  const T alpha = c.alpha_zero ? T(0) : mt::random_scalar<T>(rng);
  const T beta = c.beta_zero ? T(0) : mt::random_scalar<T>(rng);
  std::vector<T> C_ref = C0, C = C0;
  gemm_batched_strided<T>(reference_device(), c.opA, c.opB, c.m, c.n, c.k, alpha, A.data(), lda,
                          sA, B.data(), ldb, sB, beta, C_ref.data(), ldc, sC, c.batch);
  gemm_batched_strided_mgpu<T>(ctx, c.opA, c.opB, c.m, c.n, c.k, alpha, A.data(), lda, sA,
                               B.data(), ldb, sB, beta, C.data(), ldc, sC, c.batch);
  check<T>(c.opA, c.opB, entries, alpha, beta, c.beta_zero, A, B, C0, C, C_ref);
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
  std::vector<Entry> entries;
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
  for (const Entry& v : entries) {
    const int64_t ra = opA == Op::N ? v.m : v.k, ca = opA == Op::N ? v.k : v.m;
    const int64_t rb = opB == Op::N ? v.k : v.n, cb = opB == Op::N ? v.n : v.k;
    for (int64_t j = 0; j < ca; ++j)
      for (int64_t i = 0; i < ra; ++i) A[v.a_off + i + j * v.lda] = mt::random_value<T>(rng);
    for (int64_t j = 0; j < cb; ++j)
      for (int64_t i = 0; i < rb; ++i) B[v.b_off + i + j * v.ldb] = mt::random_value<T>(rng);
    if (!beta_zero)
      for (int64_t j = 0; j < v.n; ++j)
        for (int64_t i = 0; i < v.m; ++i) C0[v.c_off + i + j * v.ldc] = mt::random_value<T>(rng);
  }
  const T alpha = mt::random_scalar<T>(rng);
  const T beta = beta_zero ? T(0) : mt::random_scalar<T>(rng);
  std::vector<T> C_ref = C0, C = C0;
  auto pointers = [&](std::vector<T>& c) {
    std::vector<const T*> a, b;
    std::vector<T*> cc;
    for (const Entry& v : entries) {
      a.push_back(A.data() + v.a_off);
      b.push_back(B.data() + v.b_off);
      cc.push_back(c.data() + v.c_off);
    }
    return std::make_tuple(a, b, cc);
  };
  const int64_t max_m = batch ? *std::max_element(m.begin(), m.end()) : 0;
  const int64_t max_n = batch ? *std::max_element(n.begin(), n.end()) : 0;
  const int64_t max_k = batch ? *std::max_element(k.begin(), k.end()) : 0;
  {
    auto [a, b, cc] = pointers(C_ref);
    gemm_vbatched<T>(reference_device(), opA, opB, m.data(), n.data(), k.data(), alpha, a.data(),
                     lda.data(), b.data(), ldb.data(), beta, cc.data(), ldc.data(), batch, max_m,
                     max_n, max_k);
  }
  {
    auto [a, b, cc] = pointers(C);
    gemm_vbatched_mgpu<T>(ctx, opA, opB, m.data(), n.data(), k.data(), alpha, a.data(),
                          lda.data(), b.data(), ldb.data(), beta, cc.data(), ldc.data(), batch);
  }
  check<T>(opA, opB, entries, alpha, beta, beta_zero, A, B, C0, C, C_ref);
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
    std::vector<Entry> mine;
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
    check<T>(Op::N, Op::T, mine, alpha, T(0), true, A, B, C0, C, C_ref);
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
