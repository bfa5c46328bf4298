// SPDX-License-Identifier: BSD-3-Clause
// GEMM and TSGEMM on the CUDA engine compared with the host engine on the same fresh
// random data, for s, d, c, z: all nine op pairs, k = 0, beta = 0 over NaN, alpha = 0,
// tall-and-skinny shapes. The lda/ldb/ldc padding holds NaN; C's padding must come
// out untouched.
#include <complex>
#include <cstring>
#include <string>
#include <type_traits>
#include <vector>

#include "kernels/blas.hpp"
#include "kernels/cuda/gemm/skinny.hpp"
#include "kernels/gemm_kernels.hpp"
#include "tests/kernels/cuda_test_helpers.hpp"

namespace mgblas::testing {
namespace {

constexpr Op kOps[] = {Op::N, Op::T, Op::C};

struct GemmCase {
  Op opA, opB;
  int64_t m, n, k;
  Scalars scalars = Scalars::Random;
  bool tall_skinny = false;  // call tsgemm, else gemm
};

std::string describe(const GemmCase& c) {
  return detail::concat(c.tall_skinny ? "tsgemm" : "gemm", " opA=", to_string(c.opA),
                        " opB=", to_string(c.opB), " m=", c.m, " n=", c.n, " k=", c.k, " ",
                        to_string(c.scalars), ", ", seed_text());
}

template <Scalar T>
void run_gemm(const GemmCase& c, std::mt19937_64& rng) {
  SCOPED_TRACE(describe(c));
  // A is stored m x k for op N, k x m otherwise; B k x n or n x k.
  const int64_t rowsA = c.opA == Op::N ? c.m : c.k, colsA = c.opA == Op::N ? c.k : c.m;
  const int64_t rowsB = c.opB == Op::N ? c.k : c.n, colsB = c.opB == Op::N ? c.n : c.k;
  const int64_t lda = rowsA + 2, ldb = rowsB + 3, ldc = c.m + 4;
  const std::vector<T> A = random_padded_matrix<T>(rowsA, colsA, lda, rng);
  const std::vector<T> B = random_padded_matrix<T>(rowsB, colsB, ldb, rng);
  std::vector<T> C0 = random_padded_matrix<T>(c.m, c.n, ldc, rng);
  T alpha, beta;
  draw_scalars(c.scalars, rng, alpha, beta);
  if (poisons_output(c.scalars))
    for (int64_t j = 0; j < c.n; ++j)
      for (int64_t i = 0; i < c.m; ++i) C0[i + j * ldc] = nan_value<T>();

  auto call = [&](const Device& dev, const T* A_, const T* B_, T* C_) {
    if (c.tall_skinny)
      tsgemm<T>(dev, c.opA, c.opB, c.m, c.n, c.k, alpha, A_, lda, B_, ldb, beta, C_, ldc);
    else
      gemm<T>(dev, c.opA, c.opB, c.m, c.n, c.k, alpha, A_, lda, B_, ldb, beta, C_, ldc);
  };
  std::vector<T> C_ref = C0;
  call(host(), A.data(), B.data(), C_ref.data());
  const DeviceBuffer<T> dA = upload(A), dB = upload(B);
  DeviceBuffer<T> dC = upload(C0);
  call(gpu(), dA.data(), dB.data(), dC.data());
  const std::vector<T> C = download(dC);

  check_gemm(c.m, c.n, c.k, alpha, beta, rowsA, colsA, A, lda, rowsB, colsB, B, ldb, C0, C, C_ref,
             ldc, poisons_output(c.scalars));
}

template <typename T>
class Gemm_Cuda : public ::testing::Test {};
TYPED_TEST_SUITE(Gemm_Cuda, TestScalars, PrecisionName);

TYPED_TEST(Gemm_Cuda, op_pairs) {
  auto rng = make_rng();
  const int64_t shapes[][3] = {{1, 1, 1},       {2, 3, 4},        {31, 33, 32},
                               {33, 31, 17},    {32, 32, 32},     {1000, 129, 65},
                               {65, 1000, 129}, {2131, 16, 7},    {0, 5, 3},
                               {5, 0, 3},       {0, 0, 0}};
  for (Op opA : kOps)
    for (Op opB : kOps)
      for (const auto& s : shapes)
        run_gemm<TypeParam>({.opA = opA, .opB = opB, .m = s[0], .n = s[1], .k = s[2]}, rng);
}

// k = 0: C = beta * C (beta = 0: zeros over NaN), as the mathematics says.
TYPED_TEST(Gemm_Cuda, k_zero) {
  auto rng = make_rng();
  for (Op opA : kOps)
    for (Op opB : kOps)
      for (int64_t mn : {1, 5, 33})
        for (Scalars s : {Scalars::Random, Scalars::BetaZero})
          run_gemm<TypeParam>(
              {.opA = opA, .opB = opB, .m = mn, .n = mn + 2, .k = 0, .scalars = s}, rng);
}

TYPED_TEST(Gemm_Cuda, beta_zero) {
  auto rng = make_rng();
  const int64_t shapes[][3] = {{1, 1, 1}, {33, 31, 17}, {1000, 129, 65}};
  for (Op opA : kOps)
    for (Op opB : kOps)
      for (const auto& s : shapes)
        run_gemm<TypeParam>({.opA = opA, .opB = opB, .m = s[0], .n = s[1], .k = s[2],
                             .scalars = Scalars::BetaZero},
                            rng);
}

TYPED_TEST(Gemm_Cuda, alpha_zero) {
  auto rng = make_rng();
  const int64_t shapes[][3] = {{1, 1, 1}, {33, 31, 17}, {200, 129, 65}};
  for (Op opA : kOps)
    for (const auto& s : shapes)
      for (Scalars sc : {Scalars::AlphaZero, Scalars::BothZero})
        run_gemm<TypeParam>(
            {.opA = opA, .opB = Op::N, .m = s[0], .n = s[1], .k = s[2], .scalars = sc}, rng);
}

// hemm (side left) against the host engine: both triangles with NaN in the other one (it
// must not be read; in complex the diagonal's imaginary part is random and must be read as
// zero), beta = 0 over NaN, the same bits from a second call. In float and complex float with
// 17-32 columns these are skinny.cu's kernels: tiles below, above and across the diagonal,
// split k ranges, 16-byte and single-entry copies; double and complex double run the same
// cases on cuBLAS.
template <Scalar T>
void run_hemm(Uplo uplo, int64_t m, int64_t n, Scalars sc, std::mt19937_64& rng) {
  SCOPED_TRACE(detail::concat("hemm uplo=", static_cast<char>(uplo), " m=", m, " n=", n, " ",
                              to_string(sc), ", ", seed_text()));
  const int64_t lda = m + 2, ldb = m + 3, ldc = m + 1;
  std::vector<T> A = random_padded_matrix<T>(m, m, lda, rng);
  std::vector<T> full = A;  // the Hermitian matrix, for the error's scale
  for (int64_t j = 0; j < m; ++j)
    for (int64_t i = 0; i < m; ++i)
      if (uplo == Uplo::Lower ? i < j : i > j) {
        const T x = A[j + i * lda];
        if constexpr (is_complex_v<T>)
          full[i + j * lda] = std::conj(x);
        else
          full[i + j * lda] = x;
        A[i + j * lda] = nan_value<T>();
      }
  const std::vector<T> B = random_padded_matrix<T>(m, n, ldb, rng);
  std::vector<T> C0 = random_padded_matrix<T>(m, n, ldc, rng);
  T alpha, beta;
  draw_scalars(sc, rng, alpha, beta);
  if (poisons_output(sc))
    for (int64_t j = 0; j < n; ++j)
      for (int64_t i = 0; i < m; ++i) C0[i + j * ldc] = nan_value<T>();
  std::vector<T> C_ref = C0;
  kernels::hemm<T>(host(), /*herm=*/true, uplo, m, n, alpha, A.data(), lda, B.data(), ldb, beta,
                   C_ref.data(), ldc);
  const DeviceBuffer<T> dA = upload(A), dB = upload(B);
  DeviceBuffer<T> dC = upload(C0);
  kernels::hemm<T>(gpu(), /*herm=*/true, uplo, m, n, alpha, dA.data(), lda, dB.data(), ldb, beta,
                   dC.data(), ldc);
  const std::vector<T> C = download(dC);
  check_gemm(m, n, m, alpha, beta, m, m, full, lda, m, n, B, ldb, C0, C, C_ref, ldc,
             poisons_output(sc));
  // The k-split partials are added in a fixed order: a second call gives the same bits.
  DeviceBuffer<T> dC2 = upload(C0);
  kernels::hemm<T>(gpu(), /*herm=*/true, uplo, m, n, alpha, dA.data(), lda, dB.data(), ldb, beta,
                   dC2.data(), ldc);
  const std::vector<T> C2 = download(dC2);
  EXPECT_EQ(0, std::memcmp(C.data(), C2.data(), C.size() * sizeof(T))) << "hemm repeated";
}

TYPED_TEST(Gemm_Cuda, hemm_skinny_columns) {
  auto rng = make_rng();
  // lda = m + 2: a multiple of 4 for m = 1502, 2602 and 5002 (the 16-byte copies), not for
  // 513 and 1027 (the 4-byte ones).
  const int64_t shapes[][2] = {{513, 32}, {1502, 17}, {2602, 24}, {1027, 32}, {5002, 32}};
  for (Uplo uplo : {Uplo::Lower, Uplo::Upper})
    for (const auto& s : shapes)
      for (Scalars sc : {Scalars::Random, Scalars::BetaZero}) {
        if (std::is_same_v<real_type_t<TypeParam>, float>)
          ASSERT_TRUE(kernels::cuda::skinny::serves_symm(s[0], s[1]));
        run_hemm<TypeParam>(uplo, s[0], s[1], sc, rng);
      }
}

// kernels::hemm_whole, the query stage one asks before halving its trailing matrix: the
// CUDA engine answers yes exactly where skinny.cu serves (float symmetric, complex float
// Hermitian, 17-32 columns), no with MGBLAS_SYMM_SKINNY=0; the host engine never.
TYPED_TEST(Gemm_Cuda, hemm_whole_follows_the_kernels) {
  using T = TypeParam;
  constexpr bool single = std::is_same_v<real_type_t<T>, float>;
  for (int64_t n : {1, 16, 17, 24, 32, 33, 64})
    for (bool herm : {true, false}) {
      SCOPED_TRACE(detail::concat("n=", n, " herm=", herm));
      const bool served = single && (herm || !is_complex_v<T>)&&n > 16 && n <= 32;
      EXPECT_EQ(served, kernels::hemm_whole<T>(gpu(), herm, n));
      EXPECT_FALSE(kernels::hemm_whole<T>(host(), herm, n));
      const mgblas::testing::ScopedEnv off("MGBLAS_SYMM_SKINNY", "0");
      EXPECT_FALSE(kernels::hemm_whole<T>(gpu(), herm, n));
    }
}

// Tall-and-skinny shapes through tsgemm: large A times a skinny B (TSM2R), a tall
// skinny A times a small B (TSM2L), and A^T * B with two tall inputs.
TYPED_TEST(Gemm_Cuda, tall_skinny) {
  auto rng = make_rng();
  const GemmCase cases[] = {
      {.opA = Op::N, .opB = Op::N, .m = 100000, .n = 16, .k = 16},
      {.opA = Op::N, .opB = Op::T, .m = 100000, .n = 16, .k = 16},
      {.opA = Op::N, .opB = Op::C, .m = 100000, .n = 16, .k = 16},
      {.opA = Op::N, .opB = Op::N, .m = 100000, .n = 16, .k = 16, .scalars = Scalars::BetaZero},
      {.opA = Op::N, .opB = Op::T, .m = 2131, .n = 8, .k = 1000},
      {.opA = Op::N, .opB = Op::N, .m = 30000, .n = 8, .k = 64},
      {.opA = Op::T, .opB = Op::N, .m = 16, .n = 16, .k = 100000},
      {.opA = Op::C, .opB = Op::N, .m = 16, .n = 16, .k = 100000},
      {.opA = Op::C, .opB = Op::N, .m = 16, .n = 16, .k = 100000, .scalars = Scalars::BetaZero},
      {.opA = Op::N, .opB = Op::N, .m = 30000, .n = 33, .k = 0},
      {.opA = Op::N, .opB = Op::N, .m = 30000, .n = 33, .k = 0, .scalars = Scalars::BetaZero},
  };
  for (GemmCase c : cases) {
    c.tall_skinny = true;
    run_gemm<TypeParam>(c, rng);
  }
}

}  // namespace
}  // namespace mgblas::testing
