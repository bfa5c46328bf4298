// SPDX-License-Identifier: BSD-3-Clause
// Batched GEMM on the CUDA engine (strided, pointer array, variable size) compared
// with the host engine on the same fresh random data, for s, d, c, z.
//
// Operands live in one buffer per role with NaN in every gap between entries and in
// every ld padding: NaN in A/B gaps shows up in C if an engine reads them, NaN in C
// gaps must come out bit-for-bit untouched. Each entry is checked with its own bound.
#include <algorithm>
#include <cmath>
#include <string>
#include <tuple>
#include <vector>

#include "kernels/blas.hpp"
#include "tests/kernels/cuda_test_helpers.hpp"

namespace mgblas::testing {
namespace {

constexpr Op kOps[] = {Op::N, Op::T, Op::C};

/// One entry's view for the checks: where its operands start in the host buffers.
struct EntryView {
  int64_t m, n, k;
  int64_t a_off, lda, b_off, ldb, c_off, ldc;
};

/// Checks every entry against the reference and everything outside the entries' C
/// regions against the poisoned input; `C0`, `C` and `C_ref` are whole buffers.
template <Scalar T>
void check_entries(Op opA, Op opB, const std::vector<EntryView>& entries, T alpha, T beta,
                   bool c_poisoned, const std::vector<T>& A, const std::vector<T>& B,
                   const std::vector<T>& C0, const std::vector<T>& C,
                   const std::vector<T>& C_ref) {
  double worst = 0, ref_norm_sum = 0;
  int64_t worst_entry = -1;
  std::vector<char> in_output(C0.size(), 0);
  for (std::size_t e = 0; e < entries.size(); ++e) {
    const EntryView& v = entries[e];
    const int64_t rowsA = opA == Op::N ? v.m : v.k, colsA = opA == Op::N ? v.k : v.m;
    const int64_t rowsB = opB == Op::N ? v.k : v.n, colsB = opB == Op::N ? v.n : v.k;
    for (int64_t j = 0; j < v.n; ++j)
      for (int64_t i = 0; i < v.m; ++i) in_output[v.c_off + i + j * v.ldc] = 1;
    const double normA = norm_fro(rowsA, colsA, A.data() + v.a_off, v.lda);
    const double normB = norm_fro(rowsB, colsB, B.data() + v.b_off, v.ldb);
    const double normC0 = c_poisoned ? 0.0 : norm_fro(v.m, v.n, C0.data() + v.c_off, v.ldc);
    ref_norm_sum += norm_fro(v.m, v.n, C_ref.data() + v.c_off, v.ldc);
    //  +----------------------------------------------------------------------+
    //  |  per entry i:  err_i = ||C_i - C_ref,i||_F / ((k_i * |alpha|         |
    //  |      * ||A_i||_F * ||B_i||_F + |beta| * ||C0_i||_F) * eps)           |
    //  |  passes when max_i err_i <= 10 (x sqrt(2) for complex)               |
    //  +----------------------------------------------------------------------+
    const double err = scaled_error(
        matrix_diff_norm(v.m, v.n, C.data() + v.c_off, v.ldc, C_ref.data() + v.c_off, v.ldc),
        v.k, alpha, normA, normB, beta, normC0);
    if (!std::isnan(worst) && !(err <= worst)) {  // a NaN error sticks
      worst = err;
      worst_entry = static_cast<int64_t>(e);
    }
  }
  // Some reference entry must be non-zero: one with a non-empty C and either a
  // product to add or beta != 0.
  const bool nonzero_expected =
      std::any_of(entries.begin(), entries.end(), [&](const EntryView& v) {
        return v.m > 0 && v.n > 0 && (beta != T(0) || (alpha != T(0) && v.k > 0));
      });
  if (nonzero_expected) {
    ASSERT_GT(ref_norm_sum, 0.0) << "zero reference: the comparison would pass vacuously";
  }
  EXPECT_LE(worst, error_tolerance<T>()) << "worst entry " << worst_entry;
  expect_untouched_outside(C0, C, [&](int64_t p) { return in_output[p] != 0; }, "C");
}

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

/// A buffer of `count` entries, entry i a rows x cols matrix (ld) at i * stride, random
/// inside and NaN elsewhere (padding and gaps).
template <Scalar T>
std::vector<T> strided_entries(int64_t rows, int64_t cols, int64_t ld, int64_t stride,
                               int64_t count, bool fill, std::mt19937_64& rng) {
  const int64_t size = count > 0 ? (count - 1) * stride + ld * std::max<int64_t>(cols, 1) : 1;
  std::vector<T> buf(static_cast<std::size_t>(size), nan_value<T>());
  if (fill)
    for (int64_t e = 0; e < count; ++e)
      for (int64_t j = 0; j < cols; ++j)
        for (int64_t i = 0; i < rows; ++i) buf[e * stride + i + j * ld] = random_value<T>(rng);
  return buf;
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

  std::vector<EntryView> entries;
  for (int64_t e = 0; e < c.batch; ++e)
    entries.push_back({c.m, c.n, c.k, e * strideA, lda, e * strideB, ldb, e * strideC, ldc});
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
  // The same entries as pointer arrays, over host buffers and over device buffers.
  auto pointers = [&](const T* A_, const T* B_, T* C_) {
    std::vector<const T*> a, b;
    std::vector<T*> cc;
    for (const EntryView& v : entries) {
      a.push_back(A_ + v.a_off);
      b.push_back(B_ + v.b_off);
      cc.push_back(C_ + v.c_off);
    }
    return std::make_tuple(a, b, cc);
  };

  std::vector<T> C_ref = C0;
  {
    auto [a, b, cc] = pointers(A.data(), B.data(), C_ref.data());
    gemm_batched<T>(host(), c.opA, c.opB, c.m, c.n, c.k, alpha, a.data(), lda, b.data(), ldb,
                    beta, cc.data(), ldc, c.batch);
  }
  const DeviceBuffer<T> dA = upload(A), dB = upload(B);
  DeviceBuffer<T> dC = upload(C0);
  {
    auto [a, b, cc] = pointers(dA.data(), dB.data(), dC.data());
    const DeviceBuffer<const T*> da = upload(a), db = upload(b);
    const DeviceBuffer<T*> dcc = upload(cc);
    gemm_batched<T>(gpu(), c.opA, c.opB, c.m, c.n, c.k, alpha, da.data(), lda, db.data(), ldb,
                    beta, dcc.data(), ldc, c.batch);
    gpu().synchronize();  // before the pointer arrays are freed
  }
  const std::vector<T> C = download(dC);
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
  auto fill = [&](std::vector<T>& buf, int64_t off, int64_t rows, int64_t cols, int64_t ld) {
    for (int64_t j = 0; j < cols; ++j)
      for (int64_t i = 0; i < rows; ++i) buf[off + i + j * ld] = random_value<T>(rng);
  };
  std::vector<T> A(static_cast<std::size_t>(a_size + 1), nan_value<T>());
  std::vector<T> B(static_cast<std::size_t>(b_size + 1), nan_value<T>());
  std::vector<T> C0(static_cast<std::size_t>(c_size + 1), nan_value<T>());
  T alpha, beta;
  draw_scalars(c.scalars, rng, alpha, beta);
  for (const EntryView& v : entries) {
    fill(A, v.a_off, c.opA == Op::N ? v.m : v.k, c.opA == Op::N ? v.k : v.m, v.lda);
    fill(B, v.b_off, c.opB == Op::N ? v.k : v.n, c.opB == Op::N ? v.n : v.k, v.ldb);
    if (!poisons_output(c.scalars)) fill(C0, v.c_off, v.m, v.n, v.ldc);
  }
  const int64_t extra = c.loose_bounds ? 5 : 0;
  const int64_t max_m = (c.batch ? *std::max_element(m.begin(), m.end()) : 0) + extra;
  const int64_t max_n = (c.batch ? *std::max_element(n.begin(), n.end()) : 0) + extra;
  const int64_t max_k = (c.batch ? *std::max_element(k.begin(), k.end()) : 0) + extra;

  auto pointers = [&](const T* A_, const T* B_, T* C_) {
    std::vector<const T*> a, b;
    std::vector<T*> cc;
    for (const EntryView& v : entries) {
      a.push_back(A_ + v.a_off);
      b.push_back(B_ + v.b_off);
      cc.push_back(C_ + v.c_off);
    }
    return std::make_tuple(a, b, cc);
  };
  std::vector<T> C_ref = C0;
  {
    auto [a, b, cc] = pointers(A.data(), B.data(), C_ref.data());
    gemm_vbatched<T>(host(), c.opA, c.opB, m.data(), n.data(), k.data(), alpha, a.data(),
                     lda.data(), b.data(), ldb.data(), beta, cc.data(), ldc.data(), c.batch,
                     max_m, max_n, max_k);
  }
  const DeviceBuffer<T> dA = upload(A), dB = upload(B);
  DeviceBuffer<T> dC = upload(C0);
  {
    auto [a, b, cc] = pointers(dA.data(), dB.data(), dC.data());
    const DeviceBuffer<const T*> da = upload(a), db = upload(b);
    const DeviceBuffer<T*> dcc = upload(cc);
    const DeviceBuffer<int64_t> dm = upload(m), dn = upload(n), dk = upload(k),
                                dlda = upload(lda), dldb = upload(ldb), dldc = upload(ldc);
    gemm_vbatched<T>(gpu(), c.opA, c.opB, dm.data(), dn.data(), dk.data(), alpha, da.data(),
                     dlda.data(), db.data(), dldb.data(), beta, dcc.data(), dldc.data(), c.batch,
                     max_m, max_n, max_k);
    gpu().synchronize();  // before the size and pointer arrays are freed
  }
  const std::vector<T> C = download(dC);
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
