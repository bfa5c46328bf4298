// SPDX-License-Identifier: BSD-3-Clause
// The batched GEMM engine of the CUDA back-end (kernels/cuda/batched/) against the host
// engine, through the public entries of kernels/blas.hpp, for s, d, c, z:
// - every op pair at the sizes 1..33 and some of 33..128, the small-k shapes and
//   rectangles; batch counts 0, 1, 7, 100000;
// - strided entries with gaps (NaN) between them and in the ld padding, pointer arrays
//   with repeated A and B pointers and C in reverse order, variable sizes drawn from
//   uniform and Gaussian distributions with zeros inside, the grouped call;
// - beta = 0 over NaN in C, alpha = 0, alpha = 1 with beta = 0 (the policy compiled
//   apart), k = 0;
// - every compiled kernel instance forced at least once (with its smallest and largest
//   entries per block), cuBLAS and the generic kernel forced, launches split into many
//   small grids, a batch beyond 2^31 entries;
// - tables loaded from MGBLAS_BATCHED_TABLE (older format, older name) and the report of the choice;
// - the multi-device driver on the CUDA back-end; bad arguments.
// Each entry is checked with its own bound (formula box in batched_test_helpers.hpp) and every
// element outside the entries' C must come back bit for bit.
#include <cuda_runtime.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <memory>
#include <string>
#include <vector>

#include "core/context.hpp"
#include "dist/batched_mgpu.hpp"
#include "kernels/blas.hpp"
#include "kernels/cuda/batched/batched.hpp"
#include "tests/kernels/batched_test_helpers.hpp"
#include "tests/kernels/cuda_batched_test_helpers.hpp"
#include "tests/kernels/cuda_test_helpers.hpp"

namespace mgblas::testing {
namespace {

namespace bt = kernels::cuda::batched;

/// The shared check (batched_test_helpers.hpp), its message naming the kernel chosen.
template <Scalar T>
void check(Op opA, Op opB, const std::vector<EntryView>& entries, T alpha, T beta,
           bool c_poisoned, const std::vector<T>& A, const std::vector<T>& B,
           const std::vector<T>& C0, const std::vector<T>& C, const std::vector<T>& C_ref) {
  check_entries(opA, opB, entries, alpha, beta, c_poisoned, A, B, C0, C, C_ref,
                "; kernel " + bt::last_choice().label());
}

// ---- strided --------------------------------------------------------------------------

struct Case {
  Op opA = Op::N, opB = Op::N;
  int64_t m = 1, n = 1, k = 1, batch = 7;
  Scalars scalars = Scalars::Random;
  bool unit = false;      // alpha = 1, beta = 0 (NaN in C)
  bool shared_a = false;  // strideA = 0
  int pad = 1;            // extra rows of every leading dimension
};

std::string describe(const char* what, const Case& c) {
  return detail::concat(what, " ", to_string(c.opA), to_string(c.opB), " m=", c.m, " n=", c.n,
                        " k=", c.k, " batch=", c.batch, " ", to_string(c.scalars),
                        c.unit ? " alpha=1,beta=0" : "", c.shared_a ? " strideA=0" : "",
                        " pad=", c.pad, ", ", seed_text());
}

template <Scalar T>
void scalars_of(const Case& c, std::mt19937_64& rng, T& alpha, T& beta) {
  draw_scalars(c.scalars, rng, alpha, beta);
  if (c.unit) {
    alpha = T(1);
    beta = T(0);
  }
}
bool poisoned(const Case& c) { return c.unit || poisons_output(c.scalars); }

template <Scalar T>
void run_strided(const Case& c, std::mt19937_64& rng) {
  SCOPED_TRACE(describe("strided", c));
  const int64_t ra = c.opA == Op::N ? c.m : c.k, ca = c.opA == Op::N ? c.k : c.m;
  const int64_t rb = c.opB == Op::N ? c.k : c.n, cb = c.opB == Op::N ? c.n : c.k;
  const int64_t lda = std::max<int64_t>(1, ra) + c.pad, ldb = std::max<int64_t>(1, rb) + c.pad;
  const int64_t ldc = c.m + c.pad;
  const int64_t sA = c.shared_a ? 0 : lda * std::max<int64_t>(ca, 1) + 3;
  const int64_t sB = ldb * std::max<int64_t>(cb, 1) + 5, sC = ldc * c.n + 2;
  const auto A = strided_entries<T>(ra, ca, lda, sA, c.shared_a ? 1 : c.batch, true, rng);
  const auto B = strided_entries<T>(rb, cb, ldb, sB, c.batch, true, rng);
  T alpha, beta;
  scalars_of(c, rng, alpha, beta);
  const auto C0 = strided_entries<T>(c.m, c.n, ldc, sC, c.batch, !poisoned(c), rng);
  std::vector<T> C_ref = C0;
  gemm_batched_strided<T>(host(), c.opA, c.opB, c.m, c.n, c.k, alpha, A.data(), lda, sA,
                          B.data(), ldb, sB, beta, C_ref.data(), ldc, sC, c.batch);
  const DeviceBuffer<T> dA = upload(A), dB = upload(B);
  DeviceBuffer<T> dC = upload(C0);
  gemm_batched_strided<T>(gpu(), c.opA, c.opB, c.m, c.n, c.k, alpha, dA.data(), lda, sA,
                          dB.data(), ldb, sB, beta, dC.data(), ldc, sC, c.batch);
  const auto C = download(dC);
  const auto entries = strided_views(c.m, c.n, c.k, c.batch, lda, sA, ldb, sB, ldc, sC);
  check(c.opA, c.opB, entries, alpha, beta, poisoned(c), A, B, C0, C, C_ref);
}

// ---- pointer arrays ---------------------------------------------------------------------

/// A from a pool of 3 matrices and B from a pool of 2 (repeated read-only pointers), one
/// C per entry in reverse order with gaps.
template <Scalar T>
void run_array(const Case& c, std::mt19937_64& rng) {
  SCOPED_TRACE(describe("array", c));
  const int64_t ra = c.opA == Op::N ? c.m : c.k, ca = c.opA == Op::N ? c.k : c.m;
  const int64_t rb = c.opB == Op::N ? c.k : c.n, cb = c.opB == Op::N ? c.n : c.k;
  const int64_t lda = std::max<int64_t>(1, ra) + c.pad, ldb = std::max<int64_t>(1, rb) + c.pad;
  const int64_t ldc = c.m + c.pad;
  const int64_t sA = lda * std::max<int64_t>(ca, 1) + 4, sB = ldb * std::max<int64_t>(cb, 1) + 6;
  const int64_t sC = ldc * c.n + 5;
  const auto A = strided_entries<T>(ra, ca, lda, sA, 3, true, rng);
  const auto B = strided_entries<T>(rb, cb, ldb, sB, 2, true, rng);
  T alpha, beta;
  scalars_of(c, rng, alpha, beta);
  const auto C0 = strided_entries<T>(c.m, c.n, ldc, sC, c.batch, !poisoned(c), rng);
  std::vector<EntryView> entries;
  for (int64_t e = 0; e < c.batch; ++e)
    entries.push_back({c.m, c.n, c.k, (e % 3) * sA, lda, ((e / 2) % 2) * sB, ldb,
                       (c.batch - 1 - e) * sC, ldc});
  std::vector<T> C_ref = C0;
  const std::vector<T> C = batched_on_both<T>(c.opA, c.opB, c.m, c.n, c.k, alpha, lda, ldb, beta,
                                              ldc, entries, A, B, C0, C_ref);
  check(c.opA, c.opB, entries, alpha, beta, poisoned(c), A, B, C0, C, C_ref);
}

// ---- variable size ----------------------------------------------------------------------

struct VCase {
  Op opA = Op::N, opB = Op::N;
  int64_t batch = 7;
  int64_t max_dim = 8;
  bool gaussian = false;
  Scalars scalars = Scalars::Random;
  bool unit = false;
  int64_t fixed_k = -1;  // >= 0: every k equal (small-k shapes)
};

template <Scalar T>
void run_variable(const VCase& c, std::mt19937_64& rng) {
  SCOPED_TRACE(detail::concat("variable ", to_string(c.opA), to_string(c.opB), " batch=", c.batch,
                              " max=", c.max_dim, c.gaussian ? " gaussian " : " uniform ",
                              to_string(c.scalars), c.unit ? " alpha=1,beta=0" : "",
                              " k=", c.fixed_k, ", ", seed_text()));
  std::uniform_int_distribution<int64_t> uniform(0, c.max_dim), pad(0, 2);
  std::normal_distribution<double> normal(c.max_dim / 2.0, c.max_dim / 6.0);
  const auto draw = [&] {
    if (!c.gaussian) return uniform(rng);
    return std::clamp<int64_t>(std::llround(normal(rng)), 0, c.max_dim);
  };
  const Case sc{.scalars = c.scalars, .unit = c.unit};
  std::vector<int64_t> m(c.batch), n(c.batch), k(c.batch), lda(c.batch), ldb(c.batch),
      ldc(c.batch);
  std::vector<EntryView> entries;
  int64_t a_len = 0, b_len = 0, c_len = 0;
  for (int64_t e = 0; e < c.batch; ++e) {
    m[e] = e % 5 == 1 ? 0 : draw();
    n[e] = e % 5 == 2 ? 0 : draw();
    k[e] = c.fixed_k >= 0 ? c.fixed_k : (e % 5 == 3 ? 0 : draw());
    const int64_t ra = c.opA == Op::N ? m[e] : k[e], ca = c.opA == Op::N ? k[e] : m[e];
    const int64_t rb = c.opB == Op::N ? k[e] : n[e], cb = c.opB == Op::N ? n[e] : k[e];
    lda[e] = std::max<int64_t>(1, ra) + pad(rng);
    ldb[e] = std::max<int64_t>(1, rb) + pad(rng);
    ldc[e] = std::max<int64_t>(1, m[e]) + pad(rng);
    entries.push_back({m[e], n[e], k[e], a_len, lda[e], b_len, ldb[e], c_len, ldc[e]});
    a_len += lda[e] * std::max<int64_t>(ca, 1) + 3;
    b_len += ldb[e] * std::max<int64_t>(cb, 1) + 3;
    c_len += ldc[e] * std::max<int64_t>(n[e], 1) + 3;
  }
  std::vector<T> A(a_len + 1, nan_value<T>()), B(b_len + 1, nan_value<T>()),
      C0(c_len + 1, nan_value<T>());
  T alpha, beta;
  scalars_of(sc, rng, alpha, beta);
  for (const EntryView& v : entries) fill_entry(c.opA, c.opB, v, A, B, C0, !poisoned(sc), rng);
  const int64_t max_m = largest(m), max_n = largest(n), max_k = largest(k);
  std::vector<T> C_ref = C0;
  const std::vector<T> C = vbatched_on_both<T>(
      c.opA, c.opB, {m, n, k, lda, ldb, ldc, max_m, max_n, max_k}, alpha, beta, entries, A, B,
      C0, C_ref);
  check(c.opA, c.opB, entries, alpha, beta, poisoned(sc), A, B, C0, C, C_ref);
}

template <typename T>
class BatchedEngine_Cuda : public ::testing::Test {
 protected:
  void TearDown() override {
    bt::set_forced(std::nullopt);
    bt::set_max_blocks_per_launch(0);
  }
};
TYPED_TEST_SUITE(BatchedEngine_Cuda, TestScalars, PrecisionName);

// Every op pair at every size 1..33 (square), scalars rotating through random,
// beta = 0, alpha = 1 & beta = 0 and alpha = 0.
TYPED_TEST(BatchedEngine_Cuda, sizes_1_to_33_all_op_pairs) {
  auto rng = make_rng();
  int turn = 0;
  for (int64_t s = 1; s <= 33; ++s)
    for (Op a : kOps)
      for (Op b : kOps) {
        Case c{.opA = a, .opB = b, .m = s, .n = s, .k = s, .batch = 7};
        switch (turn++ % 4) {
          case 1: c.scalars = Scalars::BetaZero; break;
          case 2: c.unit = true; break;
          case 3: if (s % 8 == 0) c.scalars = Scalars::AlphaZero; break;
          default: break;
        }
        run_strided<TypeParam>(c, rng);
      }
}

// Rectangles, the small-k factorisation shapes and sizes 33..128.
TYPED_TEST(BatchedEngine_Cuda, rectangles_small_k_and_mid_sizes) {
  auto rng = make_rng();
  const std::tuple<int64_t, int64_t, int64_t> shapes[] = {
      {8, 8, 16},  {16, 16, 8}, {32, 32, 16}, {16, 16, 32}, {8, 8, 32}, {32, 32, 8}, {5, 17, 3},
      {33, 2, 9},  {1, 32, 32}, {31, 7, 1},   {48, 48, 8},  {64, 64, 16}, {100, 40, 32}};
  for (auto [m, n, k] : shapes)
    for (Op a : kOps)
      run_strided<TypeParam>({.opA = a, .opB = a == Op::N ? Op::T : Op::N, .m = m, .n = n, .k = k},
                             rng);
  for (int64_t s : {33, 48, 64, 65, 100, 128})
    for (auto [a, b] : {std::pair{Op::N, Op::N}, {Op::T, Op::C}, {Op::C, Op::T}})
      run_strided<TypeParam>({.opA = a, .opB = b, .m = s, .n = s, .k = s, .batch = 3}, rng);
}

TYPED_TEST(BatchedEngine_Cuda, batch_counts) {
  auto rng = make_rng();
  for (int64_t batch : {0, 1, 7, 100000}) {
    run_strided<TypeParam>({.opA = Op::N, .opB = Op::N, .m = 4, .n = 4, .k = 4, .batch = batch,
                            .pad = 0},
                           rng);
    run_strided<TypeParam>({.opA = Op::T, .opB = Op::C, .m = 16, .n = 16, .k = 16, .batch = batch,
                            .scalars = Scalars::BetaZero},
                           rng);
    run_array<TypeParam>({.opA = Op::C, .opB = Op::N, .m = 3, .n = 3, .k = 3, .batch = batch}, rng);
  }
  run_strided<TypeParam>({.opA = Op::N, .opB = Op::T, .m = 2, .n = 2, .k = 2, .batch = 100000,
                          .unit = true, .pad = 0},
                         rng);
  run_variable<TypeParam>({.opA = Op::N, .opB = Op::N, .batch = 100000, .max_dim = 8}, rng);
}

TYPED_TEST(BatchedEngine_Cuda, special_scalars_and_shared_operand) {
  auto rng = make_rng();
  for (Op a : kOps) {
    for (Scalars s : {Scalars::BetaZero, Scalars::AlphaZero, Scalars::BothZero}) {
      run_strided<TypeParam>({.opA = a, .opB = Op::T, .m = 9, .n = 7, .k = 5, .scalars = s}, rng);
      run_array<TypeParam>({.opA = a, .opB = Op::N, .m = 4, .n = 4, .k = 4, .scalars = s}, rng);
    }
    // k = 0: C = beta * C.
    run_strided<TypeParam>({.opA = a, .opB = Op::C, .m = 6, .n = 5, .k = 0}, rng);
    run_array<TypeParam>({.opA = a, .opB = Op::C, .m = 6, .n = 5, .k = 0,
                          .scalars = Scalars::BetaZero},
                         rng);
    run_strided<TypeParam>({.opA = a, .opB = Op::N, .m = 8, .n = 8, .k = 8, .batch = 20,
                            .shared_a = true},
                           rng);
  }
}

TYPED_TEST(BatchedEngine_Cuda, pointer_arrays) {
  auto rng = make_rng();
  for (int64_t s : {1, 2, 5, 16, 24, 32, 40})
    for (Op a : kOps)
      for (Op b : kOps)
        run_array<TypeParam>({.opA = a, .opB = b, .m = s, .n = s, .k = s, .batch = 9,
                              .unit = (s + static_cast<int>(a)) % 3 == 0},
                             rng);
  run_array<TypeParam>({.opA = Op::N, .opB = Op::N, .m = 8, .n = 8, .k = 16, .batch = 30}, rng);
  run_array<TypeParam>({.opA = Op::T, .opB = Op::N, .m = 7, .n = 19, .k = 3, .batch = 30}, rng);
}

TYPED_TEST(BatchedEngine_Cuda, variable_sizes) {
  auto rng = make_rng();
  for (int64_t max_dim : {1, 8, 32, 128})
    for (bool gaussian : {false, true})
      for (auto [a, b] : {std::pair{Op::N, Op::N}, {Op::T, Op::C}, {Op::C, Op::T}}) {
        const int64_t batch = max_dim == 128 ? 40 : 300;
        run_variable<TypeParam>({.opA = a, .opB = b, .batch = batch, .max_dim = max_dim,
                                 .gaussian = gaussian,
                                 .scalars = gaussian ? Scalars::BetaZero : Scalars::Random},
                                rng);
      }
  for (Op a : kOps)
    for (Op b : kOps)
      run_variable<TypeParam>({.opA = a, .opB = b, .batch = 57, .max_dim = 24}, rng);
  run_variable<TypeParam>({.opA = Op::N, .opB = Op::N, .batch = 50, .max_dim = 32, .unit = true},
                          rng);
  for (int64_t k : {8, 16, 32})
    run_variable<TypeParam>({.opA = Op::N, .opB = Op::T, .batch = 50, .max_dim = 64,
                             .fixed_k = k},
                            rng);
  for (int64_t batch : {0, 1, 7})
    run_variable<TypeParam>({.opA = Op::C, .opB = Op::N, .batch = batch, .max_dim = 20}, rng);
  // Every k zero, and alpha = 0: only C is scaled.
  run_variable<TypeParam>({.opA = Op::N, .opB = Op::N, .batch = 30, .max_dim = 9, .fixed_k = 0},
                          rng);
  run_variable<TypeParam>({.opA = Op::N, .opB = Op::N, .batch = 30, .max_dim = 9,
                           .scalars = Scalars::AlphaZero},
                          rng);
}

// Groups of several shapes through the grouped entry, on the GPU and the host.
TYPED_TEST(BatchedEngine_Cuda, grouped) {
  using T = TypeParam;
  auto rng = make_rng();
  // One A, B and C per entry, lda/ldb/ldc padded by 1, 2, 1 and NaN gaps of 1, 2, 3.
  const std::vector<GroupSpec> groups = {
      {Op::N, Op::N, 4, 4, 4, 50, false}, {Op::T, Op::C, 7, 3, 9, 11, true},
      {Op::C, Op::N, 2, 5, 0, 3, false},  {Op::N, Op::T, 6, 6, 6, 0, false},
      {Op::C, Op::C, 16, 8, 8, 9, false}, {Op::T, Op::N, 40, 33, 20, 2, true}};
  const auto p = grouped_problem<T>(groups, {1, 2, 1, 0, 0, 1, 2, 3}, rng);
  const auto G_ = static_cast<int64_t>(p.groups.size());
  std::vector<T> C_ref = p.C0;
  const auto h = entry_pointers(p.entries, p.A.data(), p.B.data(), C_ref.data());
  gemm_grouped<T>(host(), G_, p.opA.data(), p.opB.data(), p.m.data(), p.n.data(), p.k.data(),
                  p.alpha.data(), h.a.data(), p.lda.data(), h.b.data(), p.ldb.data(),
                  p.beta.data(), h.c.data(), p.ldc.data(), p.size.data());
  const DeviceBuffer<T> dA = upload(p.A), dB = upload(p.B);
  DeviceBuffer<T> dC = upload(p.C0);
  {
    const auto d = upload(entry_pointers(p.entries, dA.data(), dB.data(), dC.data()));
    gemm_grouped<T>(gpu(), G_, p.opA.data(), p.opB.data(), p.m.data(), p.n.data(), p.k.data(),
                    p.alpha.data(), d.a.data(), p.lda.data(), d.b.data(), p.ldb.data(),
                    p.beta.data(), d.c.data(), p.ldc.data(), p.size.data());
    gpu().synchronize();
  }
  check_groups(p, download(dC), C_ref, "; kernel " + bt::last_choice().label());
}

// Every compiled instance forced at least once: at its own shape (exact), below its
// bounds (bounded: fixed and variable sizes), at a ragged size (tiled), with the
// smallest and the largest feasible entries per block, both alpha/beta policies.
TYPED_TEST(BatchedEngine_Cuda, every_instance_forced) {
  using T = TypeParam;
  auto rng = make_rng();
  const char prec = precision_letter<T>();
  const auto& all = bt::instances(prec);
  ASSERT_FALSE(all.empty());
  int turn = 0;
  for (const bt::InstanceInfo& inst : all) {
    const auto es = bt::feasible_entries_per_block(inst);
    ASSERT_FALSE(es.empty()) << inst.name;
    for (int e : {es.front(), es.back()}) {
      SCOPED_TRACE(detail::concat(inst.name, " E=", e));
      const bt::ScopedForce force({inst.name, e});
      const Op a = kOps[turn % 3], b = kOps[(turn / 3) % 3];
      const bool unit = turn++ % 2 == 1;
      switch (inst.family) {
        case bt::Family::Small:
          run_strided<T>({.opA = a, .opB = b, .m = inst.m, .n = inst.n, .k = inst.k, .batch = 37,
                          .unit = unit},
                         rng);
          run_array<T>({.opA = b, .opB = a, .m = inst.m, .n = inst.n, .k = inst.k, .batch = 5},
                       rng);
          EXPECT_EQ(bt::last_choice().kernel, inst.name);
          EXPECT_EQ(bt::last_choice().entries_per_block, e);
          break;
        case bt::Family::SmallBounded:
          run_strided<T>({.opA = a, .opB = b, .m = std::max(1, inst.m - 1), .n = inst.n,
                          .k = std::max(1, inst.k / 2), .batch = 37, .unit = unit},
                         rng);
          run_array<T>({.opA = b, .opB = a, .m = inst.m, .n = std::max(1, inst.n - 2),
                        .k = inst.k, .batch = 5},
                       rng);
          run_variable<T>({.opA = a, .opB = b, .batch = 41, .max_dim = inst.m, .unit = unit}, rng);
          EXPECT_EQ(bt::last_choice().kernel, inst.name);
          break;
        case bt::Family::Tiled:
          if (e != es.front()) break;
          run_strided<T>({.opA = a, .opB = b, .m = inst.m + 5, .n = 2 * inst.n + 1,
                          .k = inst.k + 3, .batch = 4, .unit = unit},
                         rng);
          run_array<T>({.opA = b, .opB = a, .m = 3, .n = inst.n, .k = 2 * inst.k, .batch = 6},
                       rng);
          run_variable<T>({.opA = a, .opB = b, .batch = 23, .max_dim = 2 * inst.m + 3}, rng);
          EXPECT_EQ(bt::last_choice().kernel, inst.name);
          break;
        default: break;
      }
    }
  }
  {
    const bt::ScopedForce force({"cublas", 0});
    run_strided<T>({.opA = Op::T, .opB = Op::N, .m = 5, .n = 6, .k = 7}, rng);
    run_array<T>({.opA = Op::C, .opB = Op::C, .m = 3, .n = 3, .k = 3}, rng);
    EXPECT_EQ(bt::last_choice().kernel, "cublas");
  }
  {
    const bt::ScopedForce force({"generic", 0});
    run_variable<T>({.opA = Op::T, .opB = Op::C, .batch = 30, .max_dim = 20}, rng);
    EXPECT_EQ(bt::last_choice().kernel, "generic");
  }
}

// Launches split into grids of a few blocks: entries and operands advance correctly.
TYPED_TEST(BatchedEngine_Cuda, split_launches) {
  auto rng = make_rng();
  bt::set_max_blocks_per_launch(3);
  run_strided<TypeParam>({.opA = Op::N, .opB = Op::C, .m = 4, .n = 4, .k = 4, .batch = 1001}, rng);
  run_array<TypeParam>({.opA = Op::T, .opB = Op::N, .m = 9, .n = 9, .k = 9, .batch = 77}, rng);
  run_variable<TypeParam>({.opA = Op::N, .opB = Op::T, .batch = 99, .max_dim = 30}, rng);
  run_strided<TypeParam>({.opA = Op::C, .opB = Op::N, .m = 40, .n = 20, .k = 10, .batch = 11}, rng);
  bt::set_max_blocks_per_launch(0);
}

// The dispatcher: a table from MGBLAS_BATCHED_TABLE is honoured and reported; a table
// entry that names a kernel this build lacks falls back to the model; choices are
// queryable without a call.
TEST(BatchedEngine_Cuda_Dispatch, tables_and_reports) {
  auto rng = make_rng();
  const auto& all = bt::instances('d');
  const bt::InstanceInfo* small = nullptr;
  for (const auto& i : all)
    if (i.family == bt::Family::Small && i.m == 4 && i.n == 4 && i.k == 4) small = &i;
  if (!small)
    for (const auto& i : all)
      if (i.family == bt::Family::SmallBounded && i.m >= 4) small = &i;
  ASSERT_NE(small, nullptr);
  gpu().make_current();
  const bt::Problem p{bt::Interface::Strided, 'd', Op::N, Op::N, 4, 4, 4, 1000, false};
  const std::string cls = bt::size_class(p);
  EXPECT_EQ(cls, "4x4x4");
  EXPECT_EQ(bt::size_class({bt::Interface::Variable, 'd', Op::N, Op::N, 30, 20, 7, 5, false}),
            "vmn32k8");
  const bt::Choice model = bt::model_choice<double>(p);
  EXPECT_EQ(model.source, "model");
  const std::string path = ::testing::TempDir() + "mgblas_batched_table_test.json";
  {
    // Every architecture this test might run on.
    std::ofstream f(path);
    f << "{\"format\": \"mgblas-batched-table/1\", \"tables\": {";
    for (int cc : {70, 75, 80, 86, 89, 90, 100, 120}) {
      f << (cc == 70 ? "" : ",") << "\"sm_" << cc << "\": {\"source\": \"test\", \"d\": {"
        << "\"NN\": {\"4x4x4\": {\"kernel\": \"" << small->name << "\", \"entries_per_block\": 2},"
        << "\"5x5x5\": {\"kernel\": \"no_such_kernel\"}}, "
        << "\"*\": {\"6x6x6\": {\"kernel\": \"cublas\"}}}}";
    }
    f << "}}";
  }
  ASSERT_EQ(setenv("MGBLAS_BATCHED_TABLE", path.c_str(), 1), 0);
  bt::reload_tables();
  EXPECT_NE(bt::table_sources().find(path), std::string::npos) << bt::table_sources();
  run_strided<double>({.opA = Op::N, .opB = Op::N, .m = 4, .n = 4, .k = 4, .batch = 33}, rng);
  EXPECT_EQ(bt::last_choice().kernel, small->name);
  EXPECT_EQ(bt::last_choice().entries_per_block, 2);
  EXPECT_NE(bt::last_choice().source.find(path), std::string::npos) << bt::last_choice().label();
  run_strided<double>({.opA = Op::N, .opB = Op::N, .m = 5, .n = 5, .k = 5}, rng);
  EXPECT_NE(bt::last_choice().source.find("model (table"), std::string::npos)
      << bt::last_choice().label();
  run_strided<double>({.opA = Op::T, .opB = Op::C, .m = 6, .n = 6, .k = 6}, rng);
  EXPECT_EQ(bt::last_choice().kernel, "cublas") << bt::last_choice().label();
  unsetenv("MGBLAS_BATCHED_TABLE");
  bt::reload_tables();
  std::remove(path.c_str());
  EXPECT_EQ(bt::table_sources().find(path), std::string::npos);
  // Not a table at all: an error naming the file, from the call that needs the tables.
  {
    std::ofstream f(path);
    f << "{ not json";
  }
  setenv("MGBLAS_BATCHED_TABLE", path.c_str(), 1);
  bt::reload_tables();
  try {
    run_strided<double>({.opA = Op::N, .opB = Op::N, .m = 4, .n = 4, .k = 4}, rng);
    ADD_FAILURE() << "a broken table was accepted";
  } catch (const BadArgument& e) {
    EXPECT_NE(std::string(e.what()).find(path), std::string::npos) << e.what();
  }
  unsetenv("MGBLAS_BATCHED_TABLE");
  bt::reload_tables();
  std::remove(path.c_str());
}

TEST(BatchedEngine_Cuda_Dispatch, bad_arguments) {
  const DeviceBuffer<double> a(gpu(), 64);
  DeviceBuffer<double> c(gpu(), 64);
  double* C = c.data();
  EXPECT_THROW(gemm_batched_strided<double>(gpu(), Op::N, Op::N, 4, 4, 4, 1.0, a.data(), 3, 16,
                                            a.data(), 4, 16, 0.0, C, 4, 16, 2),
               BadArgument);
  EXPECT_THROW(gemm_batched_strided<double>(gpu(), Op::N, Op::N, 4, 4, 4, 1.0, a.data(), 4, 16,
                                            a.data(), 4, 16, 0.0, C, 4, 8, 2),
               BadArgument);
  EXPECT_THROW(gemm_batched_strided<double>(gpu(), Op::N, Op::N, -1, 4, 4, 1.0, a.data(), 4, 16,
                                            a.data(), 4, 16, 0.0, C, 4, 16, 2),
               BadArgument);
  EXPECT_THROW(gemm_batched_strided<double>(gpu(), Op::N, Op::N, 4, 4, 4, 1.0, nullptr, 4, 16,
                                            a.data(), 4, 16, 0.0, C, 4, 16, 2),
               BadArgument);
  EXPECT_THROW(gemm_batched<double>(gpu(), Op::N, Op::N, 4, 4, 4, 1.0, nullptr, 4, nullptr, 4,
                                    0.0, nullptr, 4, 3),
               BadArgument);
  EXPECT_THROW(gemm_vbatched<double>(gpu(), Op::N, Op::N, nullptr, nullptr, nullptr, 1.0, nullptr,
                                     nullptr, nullptr, nullptr, 0.0, nullptr, nullptr, 3, 4, 4, 4),
               BadArgument);
  // A forced kernel that cannot run the call.
  const auto& all = bt::instances('d');
  for (const auto& i : all)
    if (i.family == bt::Family::Small) {
      const bt::ScopedForce force({i.name, 0});
      EXPECT_THROW(gemm_batched_strided<double>(gpu(), Op::N, Op::N, i.m + 1, i.n, i.k, 1.0,
                                                a.data(), 64, 0, a.data(), 64, 0, 0.0, C,
                                                i.m + 1, 0, 1),
                   BadArgument);
      break;
    }
  {
    const bt::ScopedForce force({"no_such_kernel", 0});
    EXPECT_THROW(gemm_batched_strided<double>(gpu(), Op::N, Op::N, 2, 2, 2, 1.0, a.data(), 2, 4,
                                              a.data(), 2, 4, 0.0, C, 2, 4, 2),
                 BadArgument);
  }
  {
    const bt::ScopedForce force({"generic", 0});  // variable size only
    EXPECT_THROW(gemm_batched_strided<double>(gpu(), Op::N, Op::N, 2, 2, 2, 1.0, a.data(), 2, 4,
                                              a.data(), 2, 4, 0.0, C, 2, 4, 2),
                 BadArgument);
  }
  for (const auto& i : all)
    if (i.family == bt::Family::SmallBounded) {
      const bt::ScopedForce force({i.name, 4096});  // more threads than the kernel takes
      EXPECT_THROW(gemm_batched_strided<double>(gpu(), Op::N, Op::N, 1, 1, 1, 1.0, a.data(), 1, 1,
                                                a.data(), 1, 1, 0.0, C, 1, 1, 3),
                   BadArgument);
      break;
    }
}

// A batch beyond 2^31 entries (1 x 1 x 1, A and B shared): the 64-bit batch count and
// entry offsets; checked at the ends and in the middle. Needs about 9 GB of GPU memory.
TEST(BatchedEngine_Cuda_Dispatch, batch_beyond_int32) {
  std::size_t free_b = 0, total_b = 0;
  gpu().make_current();
  if (cudaMemGetInfo(&free_b, &total_b) != cudaSuccess || free_b < (std::size_t{12} << 30))
    GTEST_SKIP() << "needs 12 GiB of free GPU memory";
  const int64_t batch = (int64_t{1} << 31) + 37;
  DeviceBuffer<float> C(gpu(), static_cast<std::size_t>(batch));
  const DeviceBuffer<float> ab = upload(std::vector<float>{1.5f, -2.0f});
  memset_bytes(gpu(), C.data(), 0, static_cast<std::size_t>(batch) * sizeof(float));
  // C_i = 0.5 * (1.5 * -2) + 2 * 0 = -1.5 for every entry, A and B shared (stride 0).
  gemm_batched_strided<float>(gpu(), Op::N, Op::N, 1, 1, 1, 0.5f, ab.data(), 1, 0,
                              ab.data() + 1, 1, 0, 2.0f, C.data(), 1, 1, batch);
  for (int64_t at : {int64_t{0}, int64_t{1} << 30, (int64_t{1} << 31) - 1, int64_t{1} << 31,
                     batch - 1}) {
    float v = 0;
    copy_vector(gpu(), 1, C.data() + at, &v);
    EXPECT_EQ(v, -1.5f) << "entry " << at << " with " << bt::last_choice().label();
  }
}

// The multi-device driver on the GPUs of this process (one rank).
TYPED_TEST(BatchedEngine_Cuda, multi_device_driver) {
  using T = TypeParam;
  auto rng = make_rng();
  ContextOptions opts;
  opts.backend = BackendChoice::Cuda;
  opts.bind = false;
  const auto ctx = Context::create(opts);
  const int64_t m = 5, n = 4, k = 6, batch = 1003, lda = m + 1, ldb = k, ldc = m + 2;
  const int64_t sA = lda * k + 1, sB = ldb * n, sC = ldc * n + 3;
  const auto A = strided_entries<T>(m, k, lda, sA, batch, true, rng);
  const auto B = strided_entries<T>(k, n, ldb, sB, batch, true, rng);
  const auto C0 = strided_entries<T>(m, n, ldc, sC, batch, true, rng);
  const T alpha = random_scalar<T>(rng), beta = random_scalar<T>(rng);
  std::vector<T> C = C0, C_ref = C0;
  gemm_batched_strided<T>(host(), Op::N, Op::N, m, n, k, alpha, A.data(), lda, sA, B.data(), ldb,
                          sB, beta, C_ref.data(), ldc, sC, batch);
  gemm_batched_strided_mgpu<T>(ctx, Op::N, Op::N, m, n, k, alpha, A.data(), lda, sA, B.data(),
                               ldb, sB, beta, C.data(), ldc, sC, batch);
  check(Op::N, Op::N, strided_views(m, n, k, batch, lda, sA, ldb, sB, ldc, sC), alpha, beta,
        false, A, B, C0, C, C_ref);

  // Variable sizes with zeros, C NaN-poisoned with beta = 0.
  std::uniform_int_distribution<int64_t> size(0, 20);
  const int64_t vb = 200;
  std::vector<int64_t> vm(vb), vn(vb), vk(vb), vlda(vb), vldb(vb), vldc(vb);
  std::vector<EntryView> ventries;
  int64_t a_len = 0, b_len = 0, c_len = 0;
  for (int64_t e = 0; e < vb; ++e) {
    vm[e] = e % 7 == 0 ? 0 : size(rng);
    vn[e] = size(rng);
    vk[e] = e % 11 == 0 ? 0 : size(rng);
    vlda[e] = std::max<int64_t>(1, vk[e]);  // op T: A stored k x m
    vldb[e] = std::max<int64_t>(1, vk[e]) + 1;
    vldc[e] = std::max<int64_t>(1, vm[e]);
    ventries.push_back({vm[e], vn[e], vk[e], a_len, vlda[e], b_len, vldb[e], c_len, vldc[e]});
    a_len += vlda[e] * std::max<int64_t>(vm[e], 1) + 1;
    b_len += vldb[e] * std::max<int64_t>(vn[e], 1) + 1;
    c_len += vldc[e] * std::max<int64_t>(vn[e], 1) + 1;
  }
  std::vector<T> vA(a_len, nan_value<T>()), vB(b_len, nan_value<T>()), vC0(c_len, nan_value<T>());
  for (const EntryView& v : ventries) fill_entry(Op::T, Op::N, v, vA, vB, vC0, false, rng);
  std::vector<T> vC = vC0, vC_ref = vC0;
  const auto h = entry_pointers(ventries, vA.data(), vB.data(), vC_ref.data());
  gemm_vbatched<T>(host(), Op::T, Op::N, vm.data(), vn.data(), vk.data(), alpha, h.a.data(),
                   vlda.data(), h.b.data(), vldb.data(), T(0), h.c.data(), vldc.data(), vb, 20, 20,
                   20);
  const auto mg = entry_pointers(ventries, vA.data(), vB.data(), vC.data());
  gemm_vbatched_mgpu<T>(ctx, Op::T, Op::N, vm.data(), vn.data(), vk.data(), alpha, mg.a.data(),
                        vlda.data(), mg.b.data(), vldb.data(), T(0), mg.c.data(), vldc.data(), vb);
  check(Op::T, Op::N, ventries, alpha, T(0), true, vA, vB, vC0, vC, vC_ref);
}

}  // namespace
}  // namespace mgblas::testing
