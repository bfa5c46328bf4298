// SPDX-License-Identifier: BSD-3-Clause
// Batched GEMM on the CUDA engine (strided, pointer array, variable size) compared
// with the host engine on the same fresh random data, for s, d, c, z.
//
// Operands live in one buffer per role with NaN in every gap between entries and in
// every ld padding (batched_test_helpers.hpp). Each entry is checked with its own bound.
#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "kernels/blas.hpp"
#include "tests/kernels/batched_test_helpers.hpp"
#include "tests/kernels/cuda_batched_test_helpers.hpp"
#include "tests/kernels/cuda_test_helpers.hpp"

namespace mgblas::testing {
namespace {

// ---- strided ------------------------------------------------------------------------

struct StridedCase {
  Op opA, opB;
  int64_t m, n, k, batch;
  Scalars scalars = Scalars::Random;
  bool shared_a = false;  // strideA = 0: every entry multiplies the same A
};

std::string describe(const StridedCase& c) {
  return detail::concat("gemm_batched_strided opA=", to_string(c.opA), " opB=",
                        to_string(c.opB), " m=", c.m, " n=", c.n, " k=", c.k,
                        " batch=", c.batch, c.shared_a ? " strideA=0 " : " ",
                        to_string(c.scalars), ", ", seed_text());
}

template <Scalar T>
void run_strided(const StridedCase& c, std::mt19937_64& rng) {
  SCOPED_TRACE(describe(c));
  const int64_t rowsA = c.opA == Op::N ? c.m : c.k, colsA = c.opA == Op::N ? c.k : c.m;
  const int64_t rowsB = c.opB == Op::N ? c.k : c.n, colsB = c.opB == Op::N ? c.n : c.k;
  const int64_t lda = rowsA + 1, ldb = rowsB + 2, ldc = c.m + 1;
  // Strides past the matrix leave gaps (NaN) between entries.
  const int64_t strideA = c.shared_a ? 0 : lda * colsA + 5;
  const int64_t strideB = ldb * colsB + 3;
  const int64_t strideC = ldc * c.n + 7;
  const std::vector<T> A =
      strided_entries<T>(rowsA, colsA, lda, strideA, c.shared_a ? 1 : c.batch, true, rng);
  const std::vector<T> B = strided_entries<T>(rowsB, colsB, ldb, strideB, c.batch, true, rng);
  T alpha, beta;
  draw_scalars(c.scalars, rng, alpha, beta);
  const std::vector<T> C0 = strided_entries<T>(c.m, c.n, ldc, strideC, c.batch,
                                               !poisons_output(c.scalars), rng);

  auto call = [&](const Device& dev, const T* A_, const T* B_, T* C_) {
    gemm_batched_strided<T>(dev, c.opA, c.opB, c.m, c.n, c.k, alpha, A_, lda, strideA, B_, ldb,
                            strideB, beta, C_, ldc, strideC, c.batch);
  };
  std::vector<T> C_ref = C0;
  call(host(), A.data(), B.data(), C_ref.data());
  const DeviceBuffer<T> dA = upload(A), dB = upload(B);
  DeviceBuffer<T> dC = upload(C0);
  call(gpu(), dA.data(), dB.data(), dC.data());
  const std::vector<T> C = download(dC);

  const auto entries =
      strided_views(c.m, c.n, c.k, c.batch, lda, strideA, ldb, strideB, ldc, strideC);
  check_entries(c.opA, c.opB, entries, alpha, beta, poisons_output(c.scalars), A, B, C0, C,
                C_ref);
}

template <typename T>
class GemmBatchedStrided_Cuda : public ::testing::Test {};
TYPED_TEST_SUITE(GemmBatchedStrided_Cuda, TestScalars, PrecisionName);

TYPED_TEST(GemmBatchedStrided_Cuda, batch_counts) {
  auto rng = make_rng();
  const std::pair<Op, Op> pairs[] = {{Op::N, Op::N}, {Op::T, Op::N}, {Op::N, Op::C},
                                     {Op::C, Op::T}};
  for (auto [opA, opB] : pairs)
    for (int64_t batch : {0, 1, 7, 1000}) {
      run_strided<TypeParam>({.opA = opA, .opB = opB, .m = 4, .n = 5, .k = 3, .batch = batch},
                             rng);
      if (batch <= 7)
        run_strided<TypeParam>(
            {.opA = opA, .opB = opB, .m = 33, .n = 17, .k = 40, .batch = batch}, rng);
    }
}

TYPED_TEST(GemmBatchedStrided_Cuda, op_pairs) {
  auto rng = make_rng();
  for (Op opA : kOps)
    for (Op opB : kOps) {
      run_strided<TypeParam>({.opA = opA, .opB = opB, .m = 33, .n = 17, .k = 20, .batch = 7},
                             rng);
      run_strided<TypeParam>(
          {.opA = opA, .opB = opB, .m = 16, .n = 16, .k = 16, .batch = 7, .shared_a = true},
          rng);
    }
}

TYPED_TEST(GemmBatchedStrided_Cuda, special_scalars) {
  auto rng = make_rng();
  for (Op opA : kOps) {
    for (Scalars s : {Scalars::BetaZero, Scalars::AlphaZero, Scalars::BothZero}) {
      run_strided<TypeParam>(
          {.opA = opA, .opB = Op::T, .m = 9, .n = 7, .k = 5, .batch = 7, .scalars = s}, rng);
      run_strided<TypeParam>(
          {.opA = opA, .opB = Op::N, .m = 3, .n = 2, .k = 4, .batch = 1000, .scalars = s}, rng);
    }
    // k = 0: every C_i = beta * C_i.
    for (Scalars s : {Scalars::Random, Scalars::BetaZero})
      run_strided<TypeParam>(
          {.opA = opA, .opB = Op::C, .m = 9, .n = 7, .k = 0, .batch = 7, .scalars = s}, rng);
  }
}

// ---- pointer arrays -------------------------------------------------------------------

struct ArrayCase {
  Op opA, opB;
  int64_t m, n, k, batch;
  Scalars scalars = Scalars::Random;
};

std::string describe(const ArrayCase& c) {
  return detail::concat("gemm_batched opA=", to_string(c.opA), " opB=", to_string(c.opB),
                        " m=", c.m, " n=", c.n, " k=", c.k, " batch=", c.batch, " ",
                        to_string(c.scalars), ", ", seed_text());
}

template <Scalar T>
void run_pointer_array(const ArrayCase& c, std::mt19937_64& rng) {
  SCOPED_TRACE(describe(c));
  const int64_t rowsA = c.opA == Op::N ? c.m : c.k, colsA = c.opA == Op::N ? c.k : c.m;
  const int64_t rowsB = c.opB == Op::N ? c.k : c.n, colsB = c.opB == Op::N ? c.n : c.k;
  const int64_t lda = rowsA + 2, ldb = rowsB + 1, ldc = c.m + 3;
  // Pools of 3 A and 2 B matrices shared by all entries (repeated read-only pointers);
  // one C per entry, placed in reverse order with gaps.
  constexpr int64_t kPoolA = 3, kPoolB = 2;
  const int64_t sA = lda * colsA + 4, sB = ldb * colsB + 6, sC = ldc * c.n + 5;
  const std::vector<T> A = strided_entries<T>(rowsA, colsA, lda, sA, kPoolA, true, rng);
  const std::vector<T> B = strided_entries<T>(rowsB, colsB, ldb, sB, kPoolB, true, rng);
  T alpha, beta;
  draw_scalars(c.scalars, rng, alpha, beta);
  const std::vector<T> C0 =
      strided_entries<T>(c.m, c.n, ldc, sC, c.batch, !poisons_output(c.scalars), rng);

  std::vector<EntryView> entries;
  for (int64_t e = 0; e < c.batch; ++e)
    entries.push_back({c.m, c.n, c.k, (e % kPoolA) * sA, lda, ((e / 2) % kPoolB) * sB, ldb,
                       (c.batch - 1 - e) * sC, ldc});
  std::vector<T> C_ref = C0;
  const std::vector<T> C = batched_on_both<T>(c.opA, c.opB, c.m, c.n, c.k, alpha, lda, ldb, beta,
                                              ldc, entries, A, B, C0, C_ref);
  check_entries(c.opA, c.opB, entries, alpha, beta, poisons_output(c.scalars), A, B, C0, C,
                C_ref);
}

template <typename T>
class GemmBatched_Cuda : public ::testing::Test {};
TYPED_TEST_SUITE(GemmBatched_Cuda, TestScalars, PrecisionName);

TYPED_TEST(GemmBatched_Cuda, batch_counts) {
  auto rng = make_rng();
  const std::pair<Op, Op> pairs[] = {{Op::N, Op::N}, {Op::C, Op::N}, {Op::T, Op::T}};
  for (auto [opA, opB] : pairs)
    for (int64_t batch : {0, 1, 7, 1000}) {
      run_pointer_array<TypeParam>(
          {.opA = opA, .opB = opB, .m = 5, .n = 4, .k = 6, .batch = batch}, rng);
      if (batch <= 7)
        run_pointer_array<TypeParam>(
            {.opA = opA, .opB = opB, .m = 31, .n = 33, .k = 17, .batch = batch}, rng);
    }
}

TYPED_TEST(GemmBatched_Cuda, op_pairs) {
  auto rng = make_rng();
  for (Op opA : kOps)
    for (Op opB : kOps)
      run_pointer_array<TypeParam>(
          {.opA = opA, .opB = opB, .m = 17, .n = 33, .k = 20, .batch = 7}, rng);
}

TYPED_TEST(GemmBatched_Cuda, special_scalars) {
  auto rng = make_rng();
  for (Op opA : kOps) {
    for (Scalars s : {Scalars::BetaZero, Scalars::AlphaZero, Scalars::BothZero})
      run_pointer_array<TypeParam>(
          {.opA = opA, .opB = Op::N, .m = 8, .n = 9, .k = 5, .batch = 7, .scalars = s}, rng);
    for (Scalars s : {Scalars::Random, Scalars::BetaZero})
      run_pointer_array<TypeParam>(
          {.opA = opA, .opB = Op::T, .m = 8, .n = 9, .k = 0, .batch = 7, .scalars = s}, rng);
  }
}

// ---- variable size --------------------------------------------------------------------

struct VbatchedCase {
  Op opA, opB;
  int64_t batch;
  int64_t max_dim;  // m, n, k uniform on [0, max_dim]
  Scalars scalars = Scalars::Random;
  bool loose_bounds = false;  // pass max_m/n/k above the actual maxima
};

std::string describe(const VbatchedCase& c) {
  return detail::concat("gemm_vbatched opA=", to_string(c.opA), " opB=", to_string(c.opB),
                        " batch=", c.batch, " sizes<=", c.max_dim,
                        c.loose_bounds ? " loose bounds " : " ", to_string(c.scalars), ", ",
                        seed_text());
}

template <Scalar T>
void run_vbatched(const VbatchedCase& c, std::mt19937_64& rng) {
  SCOPED_TRACE(describe(c));
  std::uniform_int_distribution<int64_t> size(0, c.max_dim), pad(0, 2);
  std::vector<int64_t> m(c.batch), n(c.batch), k(c.batch), lda(c.batch), ldb(c.batch),
      ldc(c.batch);
  std::vector<EntryView> entries;
  int64_t a_size = 0, b_size = 0, c_size = 0;
  for (int64_t e = 0; e < c.batch; ++e) {
    m[e] = size(rng);
    n[e] = size(rng);
    k[e] = size(rng);
    // Zero sizes inside the batch, besides the random ones: empty C, empty product.
    if (e % 5 == 1) m[e] = 0;
    if (e % 5 == 2) n[e] = 0;
    if (e % 5 == 3) k[e] = 0;
    const int64_t rowsA = c.opA == Op::N ? m[e] : k[e], colsA = c.opA == Op::N ? k[e] : m[e];
    const int64_t rowsB = c.opB == Op::N ? k[e] : n[e], colsB = c.opB == Op::N ? n[e] : k[e];
    lda[e] = std::max<int64_t>(1, rowsA) + pad(rng);
    ldb[e] = std::max<int64_t>(1, rowsB) + pad(rng);
    ldc[e] = std::max<int64_t>(1, m[e]) + pad(rng);
    entries.push_back({m[e], n[e], k[e], a_size, lda[e], b_size, ldb[e], c_size, ldc[e]});
    a_size += lda[e] * colsA + 3;  // +3: a NaN gap after every entry
    b_size += ldb[e] * colsB + 3;
    c_size += ldc[e] * n[e] + 3;
  }
  std::vector<T> A(static_cast<std::size_t>(a_size + 1), nan_value<T>());
  std::vector<T> B(static_cast<std::size_t>(b_size + 1), nan_value<T>());
  std::vector<T> C0(static_cast<std::size_t>(c_size + 1), nan_value<T>());
  T alpha, beta;
  draw_scalars(c.scalars, rng, alpha, beta);
  for (const EntryView& v : entries)
    fill_entry(c.opA, c.opB, v, A, B, C0, !poisons_output(c.scalars), rng);
  const int64_t extra = c.loose_bounds ? 5 : 0;
  const int64_t max_m = largest(m) + extra, max_n = largest(n) + extra, max_k = largest(k) + extra;

  std::vector<T> C_ref = C0;
  const std::vector<T> C = vbatched_on_both<T>(
      c.opA, c.opB, {m, n, k, lda, ldb, ldc, max_m, max_n, max_k}, alpha, beta, entries, A, B,
      C0, C_ref);
  check_entries(c.opA, c.opB, entries, alpha, beta, poisons_output(c.scalars), A, B, C0, C,
                C_ref);
}

template <typename T>
class GemmVbatched_Cuda : public ::testing::Test {};
TYPED_TEST_SUITE(GemmVbatched_Cuda, TestScalars, PrecisionName);

TYPED_TEST(GemmVbatched_Cuda, batch_counts) {
  auto rng = make_rng();
  const std::pair<Op, Op> pairs[] = {{Op::N, Op::N}, {Op::C, Op::T}};
  for (auto [opA, opB] : pairs)
    for (int64_t batch : {0, 1, 7, 1000})
      run_vbatched<TypeParam>({.opA = opA, .opB = opB, .batch = batch, .max_dim = 40}, rng);
}

TYPED_TEST(GemmVbatched_Cuda, op_pairs) {
  auto rng = make_rng();
  for (Op opA : kOps)
    for (Op opB : kOps) {
      run_vbatched<TypeParam>({.opA = opA, .opB = opB, .batch = 37, .max_dim = 40}, rng);
      // Several C tiles and k steps per entry.
      run_vbatched<TypeParam>({.opA = opA, .opB = opB, .batch = 4, .max_dim = 150}, rng);
    }
}

TYPED_TEST(GemmVbatched_Cuda, special_scalars) {
  auto rng = make_rng();
  for (Scalars s : {Scalars::BetaZero, Scalars::AlphaZero, Scalars::BothZero})
    for (Op opA : kOps)
      run_vbatched<TypeParam>(
          {.opA = opA, .opB = Op::N, .batch = 37, .max_dim = 40, .scalars = s}, rng);
}

TYPED_TEST(GemmVbatched_Cuda, loose_bounds) {
  auto rng = make_rng();
  run_vbatched<TypeParam>(
      {.opA = Op::T, .opB = Op::N, .batch = 50, .max_dim = 20, .loose_bounds = true}, rng);
  run_vbatched<TypeParam>({.opA = Op::N, .opB = Op::C, .batch = 50, .max_dim = 20,
                           .scalars = Scalars::BetaZero, .loose_bounds = true},
                          rng);
}

}  // namespace
}  // namespace mgblas::testing
