// SPDX-License-Identifier: BSD-3-Clause
// GEMV, SYMV and HEMV, plain and offset forms, on the CUDA engine compared with the
// host engine on the same fresh random data, for s, d, c, z.
//
// Every case poisons with NaN what must not be read (the parent matrix outside the
// submatrix, lda padding, the unreferenced triangle, the gaps of strided vectors, y
// itself when beta = 0) and checks afterwards that nothing of y outside its strided
// elements changed.
#include <string>
#include <vector>

#include "kernels/blas.hpp"
#include "tests/kernels/cuda_test_helpers.hpp"

namespace mgblas::testing {
namespace {

constexpr Op kOps[] = {Op::N, Op::T, Op::C};
constexpr Uplo kUplos[] = {Uplo::Lower, Uplo::Upper};

// ---- GEMV ---------------------------------------------------------------------------

struct GemvCase {
  Op op;
  int64_t m, n;
  int64_t row_off = 0, col_off = 0;
  int64_t incx = 1, incy = 1;
  Scalars scalars = Scalars::Random;
  bool offset_entry = false;  // gemv_offset, else gemv (offsets 0)
};

std::string describe(const GemvCase& c) {
  return detail::concat(c.offset_entry ? "gemv_offset" : "gemv", " op=", to_string(c.op),
                        " m=", c.m, " n=", c.n, " off=(", c.row_off, ",", c.col_off,
                        ") incx=", c.incx, " incy=", c.incy, " ", to_string(c.scalars), ", ",
                        seed_text());
}

template <Scalar T>
void run_gemv(const GemvCase& c, std::mt19937_64& rng) {
  SCOPED_TRACE(describe(c));
  const int64_t len_x = c.op == Op::N ? c.n : c.m;
  const int64_t len_y = c.op == Op::N ? c.m : c.n;
  // The parent is NaN except for the submatrix: nothing outside it may be read.
  const int64_t lda = c.row_off + c.m + 3;
  std::vector<T> A(static_cast<std::size_t>(lda * std::max<int64_t>(c.col_off + c.n, 1)),
                   nan_value<T>());
  for (int64_t j = 0; j < c.n; ++j)
    for (int64_t i = 0; i < c.m; ++i)
      A[(c.row_off + i) + (c.col_off + j) * lda] = random_value<T>(rng);
  const std::vector<T> x = random_strided_vector<T>(len_x, c.incx, rng);
  std::vector<T> y0 = random_strided_vector<T>(len_y, c.incy, rng);
  T alpha, beta;
  draw_scalars(c.scalars, rng, alpha, beta);
  if (poisons_output(c.scalars))
    for (int64_t i = 0; i < len_y; ++i) y0[i * c.incy] = nan_value<T>();

  auto call = [&](const Device& dev, const T* A_, const T* x_, T* y_) {
    if (c.offset_entry)
      gemv_offset<T>(dev, c.op, c.m, c.n, alpha, A_, lda, c.row_off, c.col_off, x_, c.incx,
                     beta, y_, c.incy);
    else
      gemv<T>(dev, c.op, c.m, c.n, alpha, A_, lda, x_, c.incx, beta, y_, c.incy);
  };
  std::vector<T> y_ref = y0;
  call(host(), A.data(), x.data(), y_ref.data());
  const DeviceBuffer<T> dA = upload(A), dx = upload(x);
  DeviceBuffer<T> dy = upload(y0);
  call(gpu(), dA.data(), dx.data(), dy.data());
  const std::vector<T> y = download(dy);
  if (len_x == 0) {  // BLAS's quick return: y untouched on both engines (NaN poison too)
    ASSERT_EQ(std::memcmp(y.data(), y0.data(), y.size() * sizeof(T)), 0);
    ASSERT_EQ(std::memcmp(y_ref.data(), y0.data(), y.size() * sizeof(T)), 0);
    return;
  }

  const double normA = norm_fro(c.m, c.n, A.data() + c.row_off + c.col_off * lda, lda);
  const double normx = norm_vec(len_x, x.data(), c.incx);
  const double normy0 = poisons_output(c.scalars) ? 0.0 : norm_vec(len_y, y0.data(), c.incy);
  const double normref = norm_vec(len_y, y_ref.data(), c.incy);
  if (c.m > 0 && c.n > 0) {
    ASSERT_GT(normA, 0.0);
    ASSERT_GT(normx, 0.0);
  }
  // The reference is zero only when there is nothing to add and beta = 0.
  const bool zero_expected = beta == T(0) && (alpha == T(0) || len_x == 0);
  if (len_y > 0 && !zero_expected) {
    ASSERT_GT(normref, 0.0) << "zero reference: the comparison would pass vacuously";
  }
  //  +------------------------------------------------------------------------+
  //  |  err = ||y - y_ref|| / ((k * |alpha| * ||A|| * ||x|| + |beta| * ||y0||) |
  //  |                         * eps),  k = n for op N, m for op T/C          |
  //  |  passes when err <= 10 (x sqrt(2) for complex)                         |
  //  +------------------------------------------------------------------------+
  const double err = scaled_error(norm_diff(len_y, y.data(), c.incy, y_ref.data(), c.incy),
                                  len_x, alpha, normA, normx, beta, normy0);
  EXPECT_LE(err, error_tolerance<T>());
  expect_untouched_outside(
      y0, y, [&](int64_t p) { return p % c.incy == 0 && p / c.incy < len_y; }, "y");
}

template <typename T>
class Gemv_Cuda : public ::testing::Test {};
TYPED_TEST_SUITE(Gemv_Cuda, TestScalars, PrecisionName);

// Square sizes around the warp and tile widths, an odd prime, and rectangular and
// tall-and-skinny shapes, including an empty inner dimension (y untouched, as in BLAS).
TYPED_TEST(Gemv_Cuda, sizes) {
  auto rng = make_rng();
  std::vector<std::pair<int64_t, int64_t>> shapes;
  for (int64_t s : {0, 1, 2, 31, 32, 33, 1000, 2131}) shapes.emplace_back(s, s);
  for (auto mn : std::vector<std::pair<int64_t, int64_t>>{
           {100000, 16}, {16, 100000}, {2131, 33}, {33, 2131}, {1, 1000}, {1000, 1}, {7, 0},
           {0, 7}})
    shapes.push_back(mn);
  for (Op op : kOps)
    for (auto [m, n] : shapes) run_gemv<TypeParam>({.op = op, .m = m, .n = n}, rng);
}

TYPED_TEST(Gemv_Cuda, offsets) {
  auto rng = make_rng();
  const std::pair<int64_t, int64_t> offsets[] = {{0, 0}, {1, 1}, {17, 5}};
  const std::pair<int64_t, int64_t> shapes[] = {{1, 1},     {2, 2},    {31, 33}, {33, 1000},
                                                {1000, 31}, {2131, 17}, {0, 5},   {5, 0}};
  const std::pair<int64_t, int64_t> incs[] = {{1, 1}, {3, 3}};
  for (Op op : kOps)
    for (auto [ro, co] : offsets)
      for (auto [m, n] : shapes)
        for (auto [incx, incy] : incs)
          run_gemv<TypeParam>({.op = op, .m = m, .n = n, .row_off = ro, .col_off = co,
                               .incx = incx, .incy = incy, .offset_entry = true},
                              rng);
}

// Large shapes appear once per op here and below: filling them with random numbers
// costs more than the GPU and host runs together.
TYPED_TEST(Gemv_Cuda, strides) {
  auto rng = make_rng();
  const std::pair<int64_t, int64_t> shapes[] = {{1, 1}, {33, 32}, {517, 300}};
  const std::pair<int64_t, int64_t> incs[] = {{1, 3}, {3, 1}, {3, 3}};
  for (Op op : kOps) {
    for (auto [m, n] : shapes)
      for (auto [incx, incy] : incs)
        run_gemv<TypeParam>({.op = op, .m = m, .n = n, .incx = incx, .incy = incy}, rng);
    run_gemv<TypeParam>({.op = op, .m = 100000, .n = 16, .incx = 3, .incy = 3}, rng);
    run_gemv<TypeParam>({.op = op, .m = 16, .n = 100000, .incx = 3, .incy = 3}, rng);
  }
}

// beta = 0: y holds NaN before the call and must come out finite and right.
TYPED_TEST(Gemv_Cuda, beta_zero) {
  auto rng = make_rng();
  const std::pair<int64_t, int64_t> shapes[] = {{1, 1}, {32, 33}, {517, 300}, {7, 0}, {0, 7}};
  for (Op op : kOps) {
    for (auto [m, n] : shapes)
      for (int64_t inc : {1, 3}) {
        run_gemv<TypeParam>(
            {.op = op, .m = m, .n = n, .incx = inc, .incy = inc, .scalars = Scalars::BetaZero},
            rng);
        run_gemv<TypeParam>({.op = op, .m = m, .n = n, .row_off = 17, .col_off = 5,
                             .incx = inc, .incy = inc, .scalars = Scalars::BetaZero,
                             .offset_entry = true},
                            rng);
      }
    run_gemv<TypeParam>({.op = op, .m = 100000, .n = 16, .scalars = Scalars::BetaZero}, rng);
    run_gemv<TypeParam>({.op = op, .m = 16, .n = 100000, .scalars = Scalars::BetaZero}, rng);
  }
}

// alpha = 0: y = beta * y (beta = 0: zeros over NaN), A and x not needed.
TYPED_TEST(Gemv_Cuda, alpha_zero) {
  auto rng = make_rng();
  const std::pair<int64_t, int64_t> shapes[] = {{1, 1}, {33, 31}, {300, 517}};
  for (Op op : kOps)
    for (auto [m, n] : shapes)
      for (Scalars s : {Scalars::AlphaZero, Scalars::BothZero})
        for (int64_t inc : {1, 3})
          run_gemv<TypeParam>({.op = op, .m = m, .n = n, .incx = inc, .incy = inc, .scalars = s},
                              rng);
}

// ---- SYMV / HEMV ----------------------------------------------------------------------

struct SymvCase {
  bool hermitian;
  Uplo uplo;
  int64_t n;
  int64_t off = 0;
  int64_t incx = 1, incy = 1;
  Scalars scalars = Scalars::Random;
  bool offset_entry = false;  // symv_offset / hemv_offset, else symv / hemv (off 0)
};

std::string describe(const SymvCase& c) {
  return detail::concat(c.hermitian ? "hemv" : "symv", c.offset_entry ? "_offset" : "",
                        " uplo=", to_string(c.uplo), " n=", c.n, " off=", c.off,
                        " incx=", c.incx, " incy=", c.incy, " ", to_string(c.scalars), ", ",
                        seed_text());
}

template <Scalar T>
void run_symv(const SymvCase& c, std::mt19937_64& rng) {
  SCOPED_TRACE(describe(c));
  const int64_t n = c.n;
  // Only the uplo triangle of the diagonal submatrix at (off, off) holds numbers; the
  // other triangle, the rest of the parent and the lda padding are NaN. For hemv the
  // diagonal keeps a random imaginary part, which must be taken as zero.
  const int64_t lda = c.off + n + 2;
  std::vector<T> A(static_cast<std::size_t>(lda * std::max<int64_t>(c.off + n, 1)),
                   nan_value<T>());
  double norm2 = 0;  // squared Frobenius norm of the full symmetric/Hermitian matrix
  for (int64_t j = 0; j < n; ++j)
    for (int64_t i = 0; i < n; ++i) {
      if (c.uplo == Uplo::Lower ? i < j : i > j) continue;
      const T a = random_value<T>(rng);
      A[(c.off + i) + (c.off + j) * lda] = a;
      const double mag = (i == j && c.hermitian) ? std::abs(std::real(a)) : std::abs(a);
      norm2 += (i == j ? 1.0 : 2.0) * mag * mag;
    }
  const std::vector<T> x = random_strided_vector<T>(n, c.incx, rng);
  std::vector<T> y0 = random_strided_vector<T>(n, c.incy, rng);
  T alpha, beta;
  draw_scalars(c.scalars, rng, alpha, beta);
  if (poisons_output(c.scalars))
    for (int64_t i = 0; i < n; ++i) y0[i * c.incy] = nan_value<T>();

  auto call = [&](const Device& dev, const T* A_, const T* x_, T* y_) {
    if (c.offset_entry) {
      if (c.hermitian)
        hemv_offset<T>(dev, c.uplo, n, alpha, A_, lda, c.off, x_, c.incx, beta, y_, c.incy);
      else
        symv_offset<T>(dev, c.uplo, n, alpha, A_, lda, c.off, x_, c.incx, beta, y_, c.incy);
    } else {
      if (c.hermitian)
        hemv<T>(dev, c.uplo, n, alpha, A_, lda, x_, c.incx, beta, y_, c.incy);
      else
        symv<T>(dev, c.uplo, n, alpha, A_, lda, x_, c.incx, beta, y_, c.incy);
    }
  };
  std::vector<T> y_ref = y0;
  call(host(), A.data(), x.data(), y_ref.data());
  const DeviceBuffer<T> dA = upload(A), dx = upload(x);
  DeviceBuffer<T> dy = upload(y0);
  call(gpu(), dA.data(), dx.data(), dy.data());
  const std::vector<T> y = download(dy);

  const double normA = std::sqrt(norm2);
  const double normx = norm_vec(n, x.data(), c.incx);
  const double normy0 = poisons_output(c.scalars) ? 0.0 : norm_vec(n, y0.data(), c.incy);
  const double normref = norm_vec(n, y_ref.data(), c.incy);
  if (n > 0) {
    ASSERT_GT(normA, 0.0);
    ASSERT_GT(normx, 0.0);
    if (!(alpha == T(0) && beta == T(0))) {
      ASSERT_GT(normref, 0.0) << "zero reference: the comparison would pass vacuously";
    }
  }
  //  +------------------------------------------------------------------------+
  //  |  err = ||y - y_ref|| / ((n * |alpha| * ||A|| * ||x|| + |beta| * ||y0||) |
  //  |                         * eps),  ||A|| of the full (both-triangle) A   |
  //  |  passes when err <= 10 (x sqrt(2) for complex)                         |
  //  +------------------------------------------------------------------------+
  const double err = scaled_error(norm_diff(n, y.data(), c.incy, y_ref.data(), c.incy), n,
                                  alpha, normA, normx, beta, normy0);
  EXPECT_LE(err, error_tolerance<T>());
  expect_untouched_outside(y0, y, [&](int64_t p) { return p % c.incy == 0 && p / c.incy < n; },
                           "y");
}

template <typename T>
class Symv_Cuda : public ::testing::Test {};
TYPED_TEST_SUITE(Symv_Cuda, TestScalars, PrecisionName);

TYPED_TEST(Symv_Cuda, sizes) {
  auto rng = make_rng();
  for (bool herm : {false, true})
    for (Uplo uplo : kUplos)
      for (int64_t n : {0, 1, 2, 31, 32, 33, 1000, 2131})
        run_symv<TypeParam>({.hermitian = herm, .uplo = uplo, .n = n}, rng);
}

TYPED_TEST(Symv_Cuda, offsets) {
  auto rng = make_rng();
  const std::pair<int64_t, int64_t> incs[] = {{1, 1}, {3, 3}, {1, 3}};
  for (bool herm : {false, true})
    for (Uplo uplo : kUplos)
      for (int64_t off : {0, 1, 17})
        for (int64_t n : {0, 1, 2, 33, 517})
          for (auto [incx, incy] : incs)
            run_symv<TypeParam>({.hermitian = herm, .uplo = uplo, .n = n, .off = off,
                                 .incx = incx, .incy = incy, .offset_entry = true},
                                rng);
}

TYPED_TEST(Symv_Cuda, strides) {
  auto rng = make_rng();
  const std::pair<int64_t, int64_t> incs[] = {{1, 3}, {3, 1}, {3, 3}};
  for (bool herm : {false, true})
    for (Uplo uplo : kUplos)
      for (int64_t n : {1, 32, 33, 517})
        for (auto [incx, incy] : incs)
          run_symv<TypeParam>(
              {.hermitian = herm, .uplo = uplo, .n = n, .incx = incx, .incy = incy}, rng);
}

TYPED_TEST(Symv_Cuda, beta_zero) {
  auto rng = make_rng();
  for (bool herm : {false, true})
    for (Uplo uplo : kUplos)
      for (int64_t n : {1, 33, 517})
        for (int64_t inc : {1, 3}) {
          run_symv<TypeParam>({.hermitian = herm, .uplo = uplo, .n = n, .incx = inc,
                               .incy = inc, .scalars = Scalars::BetaZero},
                              rng);
          run_symv<TypeParam>({.hermitian = herm, .uplo = uplo, .n = n, .off = 17, .incx = inc,
                               .incy = inc, .scalars = Scalars::BetaZero, .offset_entry = true},
                              rng);
        }
}

TYPED_TEST(Symv_Cuda, alpha_zero) {
  auto rng = make_rng();
  for (bool herm : {false, true})
    for (Uplo uplo : kUplos)
      for (int64_t n : {1, 33, 517})
        for (Scalars s : {Scalars::AlphaZero, Scalars::BothZero})
          run_symv<TypeParam>(
              {.hermitian = herm, .uplo = uplo, .n = n, .incx = 3, .incy = 3, .scalars = s},
              rng);
}

}  // namespace
}  // namespace mgblas::testing
