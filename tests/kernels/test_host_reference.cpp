// SPDX-License-Identifier: BSD-3-Clause
// The host reference engine, through the public single-device entries (kernels/blas.hpp)
// on a host device:
// - tiny cases worked out by hand, exact in floating point;
// - typed sweeps over the four scalars against plain loops written here, on fresh
//   random data, with NaN in everything a call must neither read nor write (lda
//   padding, outside offset submatrices, vector gaps, batch gaps, guards around every
//   buffer) and in outputs that beta = 0 must overwrite;
// - bad inputs: every rule of the public entries broken once.
#include <gtest/gtest.h>
#include <sys/mman.h>
#include <unistd.h>

#include <cstring>

#include <algorithm>
#include <array>
#include <climits>
#include <complex>
#include <cstdint>
#include <limits>
#include <memory>
#include <random>
#include <sstream>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "core/device.hpp"
#include "core/error.hpp"
#include "core/types.hpp"
#include "kernels/blas.hpp"
#include "tests/testing/testing.hpp"

namespace {

namespace mt = mgblas::testing;
using mgblas::BadArgument;
using mgblas::Device;
using mgblas::is_complex_v;
using mgblas::Op;
using mgblas::Queue;
using mgblas::Uplo;

using z = std::complex<double>;

// =================================================================================
// Buffers with poison
// =================================================================================

// A NaN-filled array with NaN guards on both sides of data(). A test writes its
// operands into it and marks the output positions; afterwards every other position
// must still hold NaN (nothing written outside the output), and a NaN read by mistake
// shows up in the result.
template <typename T>
class Poisoned {
 public:
  explicit Poisoned(int64_t size)
      : raw_(static_cast<std::size_t>(size + 2 * kGuard), mt::nan_value<T>()),
        output_(raw_.size(), false) {}
  T* data() { return raw_.data() + kGuard; }
  const T* data() const { return raw_.data() + kGuard; }
  T& operator[](int64_t i) { return raw_[kGuard + i]; }
  const T& operator[](int64_t i) const { return raw_[kGuard + i]; }
  void mark_output(int64_t i) { output_[kGuard + i] = true; }
  /// Positions outside the marked outputs that no longer hold NaN.
  int64_t poison_lost() const {
    int64_t lost = 0;
    for (std::size_t i = 0; i < raw_.size(); ++i)
      if (!output_[i] && !mt::is_nan(raw_[i])) ++lost;
    return lost;
  }

 private:
  static constexpr int64_t kGuard = 8;
  std::vector<T> raw_;
  std::vector<bool> output_;
};

enum class Fill { Random, Nan };

// m x n column-major block at buf[off], leading dimension ld.
template <typename T>
void fill_matrix(Poisoned<T>& buf, int64_t off, int64_t m, int64_t n, int64_t ld,
                 std::mt19937_64& rng, Fill fill, bool output) {
  for (int64_t j = 0; j < n; ++j)
    for (int64_t i = 0; i < m; ++i) {
      const int64_t p = off + i + j * ld;
      buf[p] = fill == Fill::Random ? mt::random_value<T>(rng) : mt::nan_value<T>();
      if (output) buf.mark_output(p);
    }
}

template <typename T>
std::vector<T> gather_matrix(const T* A, int64_t m, int64_t n, int64_t ld) {
  std::vector<T> v;
  v.reserve(static_cast<std::size_t>(m * n));
  for (int64_t j = 0; j < n; ++j)
    for (int64_t i = 0; i < m; ++i) v.push_back(A[i + j * ld]);
  return v;
}

// Elements 0, inc, 2 inc, ... of a strided vector.
int64_t strided_size(int64_t len, int64_t inc) { return len == 0 ? 1 : 1 + (len - 1) * inc; }

// =================================================================================
// Reference loops, accumulated in double precision
// =================================================================================

template <typename T>
using Wide = std::conditional_t<is_complex_v<T>, z, double>;

template <typename T>
Wide<T> wide(T v) {
  return Wide<T>(v);
}
template <typename T>
T narrow(Wide<T> v) {
  return static_cast<T>(v);
}

// Element (i, j) of op(A).
template <typename T>
T op_at(Op op, const T* A, int64_t lda, int64_t i, int64_t j) {
  if (op == Op::N) return A[i + j * lda];
  const T a = A[j + i * lda];
  return op == Op::C ? mgblas::conj(a) : a;
}

// Element (i, j) of the symmetric (or Hermitian) matrix whose `uplo` triangle is stored.
template <typename T>
T sym_at(Uplo uplo, bool hermitian, const T* A, int64_t lda, int64_t i, int64_t j) {
  if (i == j && hermitian) return T(std::real(A[i + i * lda]));
  const bool stored = uplo == Uplo::Lower ? i >= j : i <= j;
  if (stored) return A[i + j * lda];
  const T a = A[j + i * lda];
  return hermitian ? mgblas::conj(a) : a;
}

// out[i] = alpha * sum_l a(i, l) * x[l] + beta * y0[i], i < rows (y0 unread when beta = 0).
template <typename T, typename At>
std::vector<T> ref_matvec(int64_t rows, int64_t inner, At a, T alpha, const T* x, int64_t incx,
                          T beta, const T* y0, int64_t incy) {
  std::vector<T> out(static_cast<std::size_t>(rows));
  for (int64_t i = 0; i < rows; ++i) {
    Wide<T> s = 0;
    for (int64_t l = 0; l < inner; ++l) s += wide(a(i, l)) * wide(x[l * incx]);
    Wide<T> r = wide(alpha) * s;
    if (beta != T(0)) r += wide(beta) * wide(y0[i * incy]);
    out[static_cast<std::size_t>(i)] = narrow<T>(r);
  }
  return out;
}

// C = alpha * op(A) * op(B) + beta * C0 as a dense m x n vector (C0 unread when beta = 0).
template <typename T>
std::vector<T> ref_gemm(Op opA, Op opB, int64_t m, int64_t n, int64_t k, T alpha, const T* A,
                        int64_t lda, const T* B, int64_t ldb, T beta, const T* C0, int64_t ldc) {
  std::vector<T> out(static_cast<std::size_t>(m * n));
  for (int64_t j = 0; j < n; ++j)
    for (int64_t i = 0; i < m; ++i) {
      Wide<T> s = 0;
      for (int64_t l = 0; l < k; ++l)
        s += wide(op_at(opA, A, lda, i, l)) * wide(op_at(opB, B, ldb, l, j));
      Wide<T> r = wide(alpha) * s;
      if (beta != T(0)) r += wide(beta) * wide(C0[i + j * ldc]);
      out[static_cast<std::size_t>(i + j * m)] = narrow<T>(r);
    }
  return out;
}

// =================================================================================
// Scalars and the comparison
// =================================================================================

// Random: random alpha, beta. BetaZero: beta = 0 with NaN in the output. AlphaZero:
// alpha = 0, random beta. BothZero: the output must become exactly zero. BothOne:
// alpha = beta = 1.
enum class Mode { Random, BetaZero, AlphaZero, BothZero, BothOne };
constexpr std::array kModes{Mode::Random, Mode::BetaZero, Mode::AlphaZero, Mode::BothZero,
                            Mode::BothOne};
constexpr std::array kOps{Op::N, Op::T, Op::C};
constexpr std::array kUplos{Uplo::Lower, Uplo::Upper};

const char* to_string(Mode m) {
  switch (m) {
    case Mode::Random: return "random";
    case Mode::BetaZero: return "beta=0";
    case Mode::AlphaZero: return "alpha=0";
    case Mode::BothZero: return "alpha=beta=0";
    case Mode::BothOne: return "alpha=beta=1";
  }
  return "?";
}

template <typename T>
std::pair<T, T> scalars(Mode mode, std::mt19937_64& rng) {
  const bool alpha_zero = mode == Mode::AlphaZero || mode == Mode::BothZero;
  const bool beta_zero = mode == Mode::BetaZero || mode == Mode::BothZero;
  const T alpha = mt::random_scalar<T>(rng);
  const T beta = mt::random_scalar<T>(rng);
  if (mode == Mode::BothOne) return {T(1), T(1)};  // the BLAS's and the engine's quick paths
  return {alpha_zero ? T(0) : alpha, beta_zero ? T(0) : beta};
}

//  +------------------------------------------------------------------------+
//  |  err = ||y - y_ref|| / ((k * |alpha| * ||A|| * ||x|| + |beta| * ||y0||) |
//  |                         * eps)           passes when err <= tol        |
//  |  k = inner dimension; for gemm x is B and y is C; tol 10 (x sqrt(2)    |
//  |  for complex). Where y_ref = 0 by construction the result must be 0.   |
//  +------------------------------------------------------------------------+
template <typename T>
void expect_close(const std::vector<T>& got, const std::vector<T>& want, int64_t k, T alpha,
                  double normA, double normx, T beta, double normy0) {
  ASSERT_EQ(got.size(), want.size());
  if (want.empty()) return;
  const bool product = k > 0 && alpha != T(0);
  if (product) {
    // Operands and reference must be non-zero, or the comparison proves nothing.
    ASSERT_GT(normA, 0.0);
    ASSERT_GT(normx, 0.0);
  }
  if (product || beta != T(0)) {
    ASSERT_GT(mt::norm_vec(static_cast<int64_t>(want.size()), want.data()), 0.0);
  }
  const auto len = static_cast<int64_t>(got.size());
  const double diff = mt::norm_diff(len, got.data(), 1, want.data(), 1);
  const double err = mt::scaled_error(diff, k, alpha, normA, normx, beta, normy0);
  EXPECT_LE(err, mt::error_tolerance<T>()) << "||diff|| = " << diff;
}

// =================================================================================
// Typed sweeps
// =================================================================================

template <typename T>
class HostReference : public ::testing::Test {
 protected:
  void SetUp() override { rng_ = mt::make_rng(); }
  std::unique_ptr<Device> dev_ = Device::make_host(0);
  std::mt19937_64 rng_;
};

// The precisions of this build (MGBLAS_PRECISIONS).
using Scalars = mgblas::EnabledScalars::apply<::testing::Types>;
struct ScalarName {
  template <typename T>
  static std::string GetName(int) {
    return std::string(1, mgblas::precision_letter<T>());
  }
};
TYPED_TEST_SUITE(HostReference, Scalars, ScalarName);

std::string describe(const std::initializer_list<std::pair<const char*, int64_t>>& values) {
  std::ostringstream os;
  for (const auto& [name, v] : values) os << name << "=" << v << " ";
  return os.str();
}

// ---- GEMV -------------------------------------------------------------------------

struct GemvCase {
  Op op;
  int64_t m, n;
  int64_t pad;               // lda - (row_off + m)
  int64_t row_off, col_off;  // used by gemv_offset only
  bool offset_entry;
  int64_t incx, incy;
  Mode mode;
};

template <typename T>
void check_gemv(const Device& dev, std::mt19937_64& rng, const GemvCase& c) {
  SCOPED_TRACE(describe({{"m", c.m},
                         {"n", c.n},
                         {"pad", c.pad},
                         {"row_off", c.row_off},
                         {"col_off", c.col_off},
                         {"offset_entry", c.offset_entry},
                         {"incx", c.incx},
                         {"incy", c.incy}}) +
               "op=" + mgblas::to_string(c.op) + " " + to_string(c.mode));
  const int64_t lda = std::max<int64_t>(1, c.row_off + c.m + c.pad);
  Poisoned<T> A(lda * (c.col_off + c.n));
  const int64_t sub = c.row_off + c.col_off * lda;
  fill_matrix(A, sub, c.m, c.n, lda, rng, Fill::Random, false);

  const int64_t lenx = c.op == Op::N ? c.n : c.m;
  const int64_t leny = c.op == Op::N ? c.m : c.n;
  const auto [alpha, beta] = scalars<T>(c.mode, rng);
  Poisoned<T> x(strided_size(lenx, c.incx));
  fill_matrix(x, 0, 1, lenx, c.incx, rng, Fill::Random, false);
  Poisoned<T> y(strided_size(leny, c.incy));
  fill_matrix(y, 0, 1, leny, c.incy, rng, beta == T(0) ? Fill::Nan : Fill::Random, true);
  const std::vector<T> y0 = gather_matrix(y.data(), 1, leny, c.incy);

  const T* As = A.data() + sub;
  const auto a = [&](int64_t i, int64_t l) { return op_at(c.op, As, lda, i, l); };
  const auto want = ref_matvec(leny, lenx, a, alpha, x.data(), c.incx, beta, y.data(), c.incy);

  if (c.offset_entry)
    mgblas::gemv_offset(dev, c.op, c.m, c.n, alpha, A.data(), lda, c.row_off, c.col_off, x.data(),
                        c.incx, beta, y.data(), c.incy);
  else
    mgblas::gemv(dev, c.op, c.m, c.n, alpha, As, lda, x.data(), c.incx, beta, y.data(), c.incy);

  EXPECT_EQ(y.poison_lost(), 0) << "y written outside its elements";
  if (lenx == 0) {  // BLAS's quick return: y untouched (a NaN poison included)
    const std::vector<T> after = gather_matrix(y.data(), 1, leny, c.incy);
    EXPECT_TRUE(after.empty() ||  // memcmp of the null data() of empty vectors is UB
                std::memcmp(after.data(), y0.data(), after.size() * sizeof(T)) == 0);
    return;
  }
  expect_close(gather_matrix(y.data(), 1, leny, c.incy), want, lenx, alpha,
               mt::norm_fro(c.m, c.n, As, lda), mt::norm_vec(lenx, x.data(), c.incx), beta,
               beta == T(0) ? 0.0 : mt::norm_vec(leny, y0.data()));
}

const std::vector<std::pair<int64_t, int64_t>> kMatrixShapes = {
    {0, 0}, {0, 5}, {5, 0}, {1, 1}, {2, 2}, {7, 7}, {33, 33}, {33, 7}, {7, 33}, {1, 33}, {33, 1}};

TYPED_TEST(HostReference, gemv_matches_loops) {
  for (Op op : kOps)
    for (const auto& [m, n] : kMatrixShapes)
      for (int64_t pad : {0, 3})
        for (int64_t incx : {1, 3})
          for (int64_t incy : {1, 3})
            for (Mode mode : kModes)
              check_gemv<TypeParam>(*this->dev_, this->rng_,
                                    {op, m, n, pad, 0, 0, false, incx, incy, mode});
}

TYPED_TEST(HostReference, gemv_offset_matches_loops) {
  const std::vector<std::pair<int64_t, int64_t>> offsets = {{0, 0}, {1, 1}, {17, 5}};
  for (Op op : kOps)
    for (const auto& [row_off, col_off] : offsets)
      for (const auto& [m, n] : kMatrixShapes)
        for (int64_t inc : {1, 3})
          for (Mode mode : kModes)
            check_gemv<TypeParam>(*this->dev_, this->rng_,
                                  {op, m, n, 2, row_off, col_off, true, inc, 4 - inc, mode});
}

// ---- SYMV / HEMV ------------------------------------------------------------------

struct SymvCase {
  bool hermitian;
  Uplo uplo;
  int64_t n;
  int64_t pad;  // lda - (off + n)
  int64_t off;
  bool offset_entry;
  int64_t incx, incy;
  Mode mode;
};

template <typename T>
void check_symv(const Device& dev, std::mt19937_64& rng, const SymvCase& c) {
  SCOPED_TRACE(describe({{"hermitian", c.hermitian},
                         {"n", c.n},
                         {"pad", c.pad},
                         {"off", c.off},
                         {"offset_entry", c.offset_entry},
                         {"incx", c.incx},
                         {"incy", c.incy}}) +
               "uplo=" + mgblas::to_string(c.uplo) + " " + to_string(c.mode));
  const int64_t lda = std::max<int64_t>(1, c.off + c.n + c.pad);
  Poisoned<T> A(lda * (c.off + c.n));
  const int64_t sub = c.off + c.off * lda;
  // Only the stored triangle gets values: a read of the other one brings in NaN. The
  // Hermitian diagonal keeps a random imaginary part, which must be ignored.
  for (int64_t j = 0; j < c.n; ++j)
    for (int64_t i = 0; i < c.n; ++i)
      if (c.uplo == Uplo::Lower ? i >= j : i <= j) A[sub + i + j * lda] = mt::random_value<T>(rng);

  const auto [alpha, beta] = scalars<T>(c.mode, rng);
  Poisoned<T> x(strided_size(c.n, c.incx));
  fill_matrix(x, 0, 1, c.n, c.incx, rng, Fill::Random, false);
  Poisoned<T> y(strided_size(c.n, c.incy));
  fill_matrix(y, 0, 1, c.n, c.incy, rng, beta == T(0) ? Fill::Nan : Fill::Random, true);
  const std::vector<T> y0 = gather_matrix(y.data(), 1, c.n, c.incy);

  const T* As = A.data() + sub;
  const auto a = [&](int64_t i, int64_t l) { return sym_at(c.uplo, c.hermitian, As, lda, i, l); };
  const auto want = ref_matvec(c.n, c.n, a, alpha, x.data(), c.incx, beta, y.data(), c.incy);
  std::vector<T> full;
  for (int64_t j = 0; j < c.n; ++j)
    for (int64_t i = 0; i < c.n; ++i) full.push_back(a(i, j));

  if (c.offset_entry) {
    if (c.hermitian)
      mgblas::hemv_offset(dev, c.uplo, c.n, alpha, A.data(), lda, c.off, x.data(), c.incx, beta,
                          y.data(), c.incy);
    else
      mgblas::symv_offset(dev, c.uplo, c.n, alpha, A.data(), lda, c.off, x.data(), c.incx, beta,
                          y.data(), c.incy);
  } else {
    if (c.hermitian)
      mgblas::hemv(dev, c.uplo, c.n, alpha, As, lda, x.data(), c.incx, beta, y.data(), c.incy);
    else
      mgblas::symv(dev, c.uplo, c.n, alpha, As, lda, x.data(), c.incx, beta, y.data(), c.incy);
  }

  EXPECT_EQ(y.poison_lost(), 0) << "y written outside its elements";
  expect_close(gather_matrix(y.data(), 1, c.n, c.incy), want, c.n, alpha,
               mt::norm_vec(c.n * c.n, full.data()), mt::norm_vec(c.n, x.data(), c.incx), beta,
               beta == T(0) ? 0.0 : mt::norm_vec(c.n, y0.data()));
}

TYPED_TEST(HostReference, symv_hemv_match_loops) {
  for (bool hermitian : {false, true})
    for (Uplo uplo : kUplos)
      for (int64_t n : {0, 1, 2, 7, 33})
        for (int64_t pad : {0, 3})
          for (int64_t incx : {1, 3})
            for (int64_t incy : {1, 3})
              for (Mode mode : kModes)
                check_symv<TypeParam>(*this->dev_, this->rng_,
                                      {hermitian, uplo, n, pad, 0, false, incx, incy, mode});
}

TYPED_TEST(HostReference, symv_hemv_offset_match_loops) {
  for (bool hermitian : {false, true})
    for (Uplo uplo : kUplos)
      for (int64_t off : {0, 1, 17})
        for (int64_t n : {0, 1, 2, 7, 33})
          for (int64_t inc : {1, 3})
            for (Mode mode : kModes)
              check_symv<TypeParam>(*this->dev_, this->rng_,
                                    {hermitian, uplo, n, 2, off, true, inc, 4 - inc, mode});
}

// ---- GEMM and batched GEMM --------------------------------------------------------

struct GemmShape {
  int64_t m, n, k;
};
const std::vector<GemmShape> kGemmShapes = {{0, 0, 0},  {0, 3, 2},  {3, 0, 2},  {3, 2, 0},
                                            {1, 1, 1},  {2, 2, 2},  {7, 7, 7},  {33, 33, 33},
                                            {33, 7, 2}, {2, 7, 33}, {1, 33, 7}, {7, 1, 33}};

// One gemm operand set: where op(A), op(B) and C sit in their buffers.
struct GemmLayout {
  Op opA, opB;
  int64_t m, n, k;
  int64_t lda, ldb, ldc;
  int64_t rows_a() const { return opA == Op::N ? m : k; }
  int64_t cols_a() const { return opA == Op::N ? k : m; }
  int64_t rows_b() const { return opB == Op::N ? k : n; }
  int64_t cols_b() const { return opB == Op::N ? n : k; }
  int64_t size_a() const { return lda * cols_a(); }
  int64_t size_b() const { return ldb * cols_b(); }
  int64_t size_c() const { return ldc * n; }
};

GemmLayout make_layout(Op opA, Op opB, const GemmShape& s, int64_t pad) {
  GemmLayout g{opA, opB, s.m, s.n, s.k, 0, 0, 0};
  g.lda = std::max<int64_t>(1, g.rows_a()) + pad;
  g.ldb = std::max<int64_t>(1, g.rows_b()) + pad;
  g.ldc = std::max<int64_t>(1, s.m) + pad;
  return g;
}

std::string describe(const GemmLayout& g, Mode mode) {
  return describe(
             {{"m", g.m}, {"n", g.n}, {"k", g.k}, {"lda", g.lda}, {"ldb", g.ldb}, {"ldc", g.ldc}}) +
         "opA=" + mgblas::to_string(g.opA) + " opB=" + mgblas::to_string(g.opB) + " " +
         to_string(mode);
}

// Fills one entry's operands at the given offsets of the buffers; C is marked output.
template <typename T>
void fill_gemm_entry(const GemmLayout& g, Poisoned<T>& A, int64_t a_off, Poisoned<T>& B,
                     int64_t b_off, Poisoned<T>& C, int64_t c_off, bool beta_zero,
                     std::mt19937_64& rng) {
  fill_matrix(A, a_off, g.rows_a(), g.cols_a(), g.lda, rng, Fill::Random, false);
  fill_matrix(B, b_off, g.rows_b(), g.cols_b(), g.ldb, rng, Fill::Random, false);
  fill_matrix(C, c_off, g.m, g.n, g.ldc, rng, beta_zero ? Fill::Nan : Fill::Random, true);
}

// The reference of one entry, from its operands before the call.
template <typename T>
struct GemmExpected {
  std::vector<T> c;
  double normA, normB, normC0;
};

template <typename T>
GemmExpected<T> expected_gemm(const GemmLayout& g, T alpha, const T* A, const T* B, T beta,
                              const T* C0) {
  return {ref_gemm(g.opA, g.opB, g.m, g.n, g.k, alpha, A, g.lda, B, g.ldb, beta, C0, g.ldc),
          mt::norm_fro(g.rows_a(), g.cols_a(), A, g.lda),
          mt::norm_fro(g.rows_b(), g.cols_b(), B, g.ldb),
          beta == T(0) ? 0.0 : mt::norm_fro(g.m, g.n, C0, g.ldc)};
}

template <typename T>
void expect_gemm_entry(const GemmLayout& g, const T* C, const GemmExpected<T>& e, T alpha, T beta) {
  expect_close(gather_matrix(C, g.m, g.n, g.ldc), e.c, g.k, alpha, e.normA, e.normB, beta,
               e.normC0);
}

TYPED_TEST(HostReference, gemm_tsgemm_match_loops) {
  using T = TypeParam;
  auto& rng = this->rng_;
  std::vector<GemmShape> shapes = kGemmShapes;
  shapes.push_back({257, 4, 9});  // tall-and-skinny shapes for tsgemm
  shapes.push_back({9, 4, 257});
  for (bool ts : {false, true})
    for (Op opA : kOps)
      for (Op opB : kOps)
        for (const GemmShape& s : shapes)
          for (int64_t pad : {0, 2})
            for (Mode mode : kModes) {
              const GemmLayout g = make_layout(opA, opB, s, pad);
              SCOPED_TRACE(describe(g, mode) + (ts ? " tsgemm" : " gemm"));
              const auto [alpha, beta] = scalars<T>(mode, rng);
              Poisoned<T> A(g.size_a()), B(g.size_b()), C(g.size_c());
              fill_gemm_entry(g, A, 0, B, 0, C, 0, beta == T(0), rng);
              const auto want = expected_gemm(g, alpha, A.data(), B.data(), beta, C.data());
              if (ts)
                mgblas::tsgemm(*this->dev_, opA, opB, g.m, g.n, g.k, alpha, A.data(), g.lda,
                               B.data(), g.ldb, beta, C.data(), g.ldc);
              else
                mgblas::gemm(*this->dev_, opA, opB, g.m, g.n, g.k, alpha, A.data(), g.lda, B.data(),
                             g.ldb, beta, C.data(), g.ldc);
              EXPECT_EQ(C.poison_lost(), 0) << "C written outside its elements";
              expect_gemm_entry(g, C.data(), want, alpha, beta);
            }
}

// Batch 64 of the 7 x 7 x 7 entries is large enough for the host engine to spread the
// entries over threads; the others run one after the other.
const std::vector<GemmShape> kBatchShapes = {{2, 3, 4}, {7, 7, 7}, {5, 1, 33},
                                             {0, 3, 2}, {3, 0, 2}, {4, 3, 0}};

TYPED_TEST(HostReference, gemm_batched_strided_matches_loops) {
  using T = TypeParam;
  auto& rng = this->rng_;
  constexpr int64_t kGap = 5;  // NaN between consecutive entries
  for (Op opA : kOps)
    for (Op opB : kOps)
      for (const GemmShape& s : kBatchShapes)
        for (int64_t batch : {0, 1, 7, 64})
          for (bool shared_ab : {false, true})
            for (Mode mode : kModes) {
              const GemmLayout g = make_layout(opA, opB, s, 1);
              SCOPED_TRACE(describe(g, mode) + " batch=" + std::to_string(batch) +
                           (shared_ab ? " strideA=strideB=0" : ""));
              const auto [alpha, beta] = scalars<T>(mode, rng);
              // Stride 0 for A and B: every entry multiplies the same operands.
              const int64_t strideA = shared_ab ? 0 : g.size_a() + kGap;
              const int64_t strideB = shared_ab ? 0 : g.size_b() + kGap;
              const int64_t strideC = g.size_c() + kGap;
              const int64_t entries = std::max<int64_t>(batch, 1);
              Poisoned<T> A(strideA * entries + g.size_a()), B(strideB * entries + g.size_b());
              Poisoned<T> C(strideC * entries);
              std::vector<GemmExpected<T>> want;
              for (int64_t i = 0; i < batch; ++i) {
                // With stride 0 entry 0's A and B are every entry's: fill them once.
                if (i == 0 || !shared_ab) {
                  fill_matrix(A, i * strideA, g.rows_a(), g.cols_a(), g.lda, rng, Fill::Random,
                              false);
                  fill_matrix(B, i * strideB, g.rows_b(), g.cols_b(), g.ldb, rng, Fill::Random,
                              false);
                }
                fill_matrix(C, i * strideC, g.m, g.n, g.ldc, rng,
                            beta == T(0) ? Fill::Nan : Fill::Random, true);
                want.push_back(expected_gemm(g, alpha, A.data() + i * strideA,
                                             B.data() + i * strideB, beta, C.data() + i * strideC));
              }
              mgblas::gemm_batched_strided(*this->dev_, opA, opB, g.m, g.n, g.k, alpha, A.data(),
                                           g.lda, strideA, B.data(), g.ldb, strideB, beta, C.data(),
                                           g.ldc, strideC, batch);
              EXPECT_EQ(C.poison_lost(), 0) << "C written outside its entries";
              for (int64_t i = 0; i < batch; ++i) {
                SCOPED_TRACE("entry " + std::to_string(i));
                expect_gemm_entry(g, C.data() + i * strideC, want[i], alpha, beta);
              }
            }
}

TYPED_TEST(HostReference, gemm_batched_matches_loops) {
  using T = TypeParam;
  auto& rng = this->rng_;
  // Fewer A and B matrices than entries: the pointer arrays repeat them.
  constexpr int64_t kDistinctA = 2, kDistinctB = 3;
  for (Op opA : kOps)
    for (Op opB : kOps)
      for (const GemmShape& s : kBatchShapes)
        for (int64_t batch : {0, 1, 7, 64})
          for (Mode mode : kModes) {
            const GemmLayout g = make_layout(opA, opB, s, 2);
            SCOPED_TRACE(describe(g, mode) + " batch=" + std::to_string(batch));
            const auto [alpha, beta] = scalars<T>(mode, rng);
            std::vector<Poisoned<T>> As, Bs, Cs;
            for (int64_t i = 0; i < kDistinctA; ++i) As.emplace_back(g.size_a());
            for (int64_t i = 0; i < kDistinctB; ++i) Bs.emplace_back(g.size_b());
            for (int64_t i = 0; i < std::max<int64_t>(batch, 1); ++i) Cs.emplace_back(g.size_c());
            for (auto& A : As)
              fill_matrix(A, 0, g.rows_a(), g.cols_a(), g.lda, rng, Fill::Random, false);
            for (auto& B : Bs)
              fill_matrix(B, 0, g.rows_b(), g.cols_b(), g.ldb, rng, Fill::Random, false);
            std::vector<const T*> Aarray, Barray;
            std::vector<T*> Carray;
            std::vector<GemmExpected<T>> want;
            for (int64_t i = 0; i < batch; ++i) {
              Aarray.push_back(As[i % kDistinctA].data());
              Barray.push_back(Bs[i % kDistinctB].data());
              fill_matrix(Cs[i], 0, g.m, g.n, g.ldc, rng, beta == T(0) ? Fill::Nan : Fill::Random,
                          true);
              Carray.push_back(Cs[i].data());
              want.push_back(expected_gemm(g, alpha, Aarray[i], Barray[i], beta, Carray[i]));
            }
            Aarray.resize(std::max<int64_t>(batch, 1));  // never a null data() for batch 0
            Barray.resize(Aarray.size());
            Carray.resize(Aarray.size());
            mgblas::gemm_batched(*this->dev_, opA, opB, g.m, g.n, g.k, alpha, Aarray.data(), g.lda,
                                 Barray.data(), g.ldb, beta, Carray.data(), g.ldc, batch);
            // With batch = 0, Cs[0] has no output and must stay all NaN.
            for (const auto& c : Cs)
              EXPECT_EQ(c.poison_lost(), 0) << "C written outside its elements";
            for (int64_t i = 0; i < batch; ++i) {
              SCOPED_TRACE("entry " + std::to_string(i));
              expect_gemm_entry(g, Carray[i], want[i], alpha, beta);
            }
          }
}

TYPED_TEST(HostReference, gemm_vbatched_matches_loops) {
  using T = TypeParam;
  auto& rng = this->rng_;
  // Zeros in every position: empty C (skipped) and empty product (C scaled by beta).
  const std::vector<GemmShape> entries = {{3, 4, 5},  {0, 2, 3}, {2, 0, 3}, {4, 3, 0}, {1, 1, 1},
                                          {7, 2, 33}, {0, 0, 0}, {5, 5, 5}, {33, 1, 7}};
  for (Op opA : kOps)
    for (Op opB : kOps)
      for (Mode mode : kModes)
        for (int64_t batch : {int64_t{0}, int64_t{1}, static_cast<int64_t>(entries.size())}) {
          SCOPED_TRACE(std::string("opA=") + mgblas::to_string(opA) +
                       " opB=" + mgblas::to_string(opB) + " " + to_string(mode) +
                       " batch=" + std::to_string(batch));
          const auto [alpha, beta] = scalars<T>(mode, rng);
          std::vector<GemmLayout> g;
          std::vector<int64_t> m, n, k, lda, ldb, ldc;
          int64_t max_m = 0, max_n = 0, max_k = 0;
          std::vector<Poisoned<T>> As, Bs, Cs;
          std::vector<const T*> Aarray, Barray;
          std::vector<T*> Carray;
          std::vector<GemmExpected<T>> want;
          for (int64_t i = 0; i < std::max<int64_t>(batch, 1); ++i) {
            // Leading dimensions differ per entry (padding i % 3).
            g.push_back(make_layout(opA, opB, entries[i], i % 3));
            m.push_back(g[i].m), n.push_back(g[i].n), k.push_back(g[i].k);
            lda.push_back(g[i].lda), ldb.push_back(g[i].ldb), ldc.push_back(g[i].ldc);
            As.emplace_back(g[i].size_a()), Bs.emplace_back(g[i].size_b());
            Cs.emplace_back(g[i].size_c());
          }
          for (int64_t i = 0; i < batch; ++i) {
            max_m = std::max(max_m, m[i]), max_n = std::max(max_n, n[i]);
            max_k = std::max(max_k, k[i]);
            fill_gemm_entry(g[i], As[i], 0, Bs[i], 0, Cs[i], 0, beta == T(0), rng);
            Aarray.push_back(As[i].data()), Barray.push_back(Bs[i].data());
            Carray.push_back(Cs[i].data());
            want.push_back(
                expected_gemm(g[i], alpha, As[i].data(), Bs[i].data(), beta, Cs[i].data()));
          }
          Aarray.resize(m.size()), Barray.resize(m.size()), Carray.resize(m.size());
          mgblas::gemm_vbatched(*this->dev_, opA, opB, m.data(), n.data(), k.data(), alpha,
                                Aarray.data(), lda.data(), Barray.data(), ldb.data(), beta,
                                Carray.data(), ldc.data(), batch, max_m, max_n, max_k);
          // Empty entries and, with batch = 0, Cs[0] must stay all NaN.
          for (const auto& c : Cs)
            EXPECT_EQ(c.poison_lost(), 0) << "C written outside its elements";
          for (int64_t i = 0; i < batch; ++i) {
            SCOPED_TRACE("entry " + std::to_string(i));
            expect_gemm_entry(g[i], Cs[i].data(), want[i], alpha, beta);
          }
        }
}

// =================================================================================
// Hand-checked cases (small integers: every result is exact)
// =================================================================================

class HostHandChecked : public ::testing::Test {
 protected:
  std::unique_ptr<Device> dev_ = Device::make_host(0);
  static constexpr double kNan = std::numeric_limits<double>::quiet_NaN();
  const z nan_{kNan, kNan};
};

// The complex cases, where z is built (MGBLAS_PRECISIONS).
#if MGBLAS_HAVE_PRECISION_Z
// A = [ 1+i   2     -i  ]    column-major below
//     [ 3     1-2i  2+i ]
const std::vector<z> kA23 = {{1, 1}, {3, 0}, {2, 0}, {1, -2}, {0, -1}, {2, 1}};

TEST_F(HostHandChecked, gemv_n_complex_2x3) {
  // x = (1, i, 2):  A x = (1+i + 2i - 2i, 3 + (i+2) + (4+2i)) = (1+i, 9+3i)
  // y = 2 A x + i (1, -1) = (2+3i, 18+5i)
  const std::vector<z> x = {{1, 0}, {0, 1}, {2, 0}};
  std::vector<z> y = {{1, 0}, {-1, 0}};
  mgblas::gemv(*dev_, Op::N, 2, 3, z(2, 0), kA23.data(), 2, x.data(), 1, z(0, 1), y.data(), 1);
  EXPECT_EQ(y, (std::vector<z>{{2, 3}, {18, 5}}));
}

TEST_F(HostHandChecked, gemv_t_complex_2x3) {
  // x = (1, i):  A^T x = (1+i + 3i, 2 + (i+2), -i + (2i-1)) = (1+4i, 4+i, -1+i)
  const std::vector<z> x = {{1, 0}, {0, 1}};
  std::vector<z> y(3, nan_);
  mgblas::gemv(*dev_, Op::T, 2, 3, z(1, 0), kA23.data(), 2, x.data(), 1, z(0, 0), y.data(), 1);
  EXPECT_EQ(y, (std::vector<z>{{1, 4}, {4, 1}, {-1, 1}}));
}

TEST_F(HostHandChecked, gemv_c_complex_2x3) {
  // x = (1, i):  A^H x = ((1-i) + 3i, 2 + (1+2i) i, i + (2-i) i) = (1+2i, i, 1+3i)
  const std::vector<z> x = {{1, 0}, {0, 1}};
  std::vector<z> y(3, nan_);
  mgblas::gemv(*dev_, Op::C, 2, 3, z(1, 0), kA23.data(), 2, x.data(), 1, z(0, 0), y.data(), 1);
  EXPECT_EQ(y, (std::vector<z>{{1, 2}, {0, 1}, {1, 3}}));
}
#endif

// x ends exactly where an inaccessible page begins: a read past x faults. OpenBLAS
// 0.3.21's c/zgemv_n reads one element past x when m % 4 == 2; the host engine must not.
template <typename C>
void gemv_n_reads_only_x(const Device& dev, int64_t incx) {
  const long page = sysconf(_SC_PAGESIZE);
  void* mem = mmap(nullptr, 2 * page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  ASSERT_NE(mem, MAP_FAILED);
  ASSERT_EQ(mprotect(static_cast<char*>(mem) + page, page, PROT_NONE), 0);
  std::mt19937_64 rng(std::random_device{}());
  std::uniform_real_distribution<double> u(-1, 1);
  for (const int64_t m : {2, 6, 10, 7}) {
    const int64_t n = 5, span = (n - 1) * incx + 1;
    C* x = reinterpret_cast<C*>(static_cast<char*>(mem) + page) - span;
    std::vector<C> A(m * n), y(m), ref(m, C(0));
    for (auto& a : A) a = C(u(rng), u(rng));
    for (int64_t j = 0; j < n; ++j) x[j * incx] = C(u(rng), u(rng));
    for (int64_t j = 0; j < n; ++j)
      for (int64_t i = 0; i < m; ++i) ref[i] += A[i + j * m] * x[j * incx];
    mgblas::gemv(dev, Op::N, m, n, C(1), A.data(), m, x, incx, C(0), y.data(), 1);
    for (int64_t i = 0; i < m; ++i)
      EXPECT_NEAR(std::abs(y[i] - ref[i]), 0.0, 1e-5) << "m = " << m << ", i = " << i;
  }
  munmap(mem, 2 * page);
}

// The check for a precision of MGBLAS_PRECISIONS only: in a template, the discarded
// branch is not instantiated, so a build without c or z links.
template <typename T>
void reads_only_x_if_built(const Device& dev, int64_t incx) {
  if constexpr (mgblas::precision_enabled_v<T>) gemv_n_reads_only_x<T>(dev, incx);
}

TEST_F(HostHandChecked, gemv_n_complex_reads_nothing_past_x) {
  if (!mgblas::precision_enabled_v<std::complex<float>> &&
      !mgblas::precision_enabled_v<std::complex<double>>)
    GTEST_SKIP() << "no complex precision in MGBLAS_PRECISIONS";
  reads_only_x_if_built<std::complex<float>>(*dev_, 1);
  reads_only_x_if_built<std::complex<double>>(*dev_, 1);
  reads_only_x_if_built<std::complex<double>>(*dev_, 3);
}

// S = [2 1 0; 1 3 -1; 0 -1 4], x = (1, 2, 3): S x = (4, 4, 10). The triangle that is not
// stored holds NaN.
TEST_F(HostHandChecked, symv_lower_3x3) {
  const std::vector<double> A = {2, 1, 0, kNan, 3, -1, kNan, kNan, 4};
  const std::vector<double> x = {1, 2, 3};
  std::vector<double> y(3, kNan);
  mgblas::symv(*dev_, Uplo::Lower, 3, 1.0, A.data(), 3, x.data(), 1, 0.0, y.data(), 1);
  EXPECT_EQ(y, (std::vector<double>{4, 4, 10}));
}

TEST_F(HostHandChecked, symv_upper_3x3) {
  // y = 2 S x - (1, 1, 1) = (7, 7, 19)
  const std::vector<double> A = {2, kNan, kNan, 1, 3, kNan, 0, -1, 4};
  const std::vector<double> x = {1, 2, 3};
  std::vector<double> y(3, 1.0);
  mgblas::symv(*dev_, Uplo::Upper, 3, 2.0, A.data(), 3, x.data(), 1, -1.0, y.data(), 1);
  EXPECT_EQ(y, (std::vector<double>{7, 7, 19}));
}

#if MGBLAS_HAVE_PRECISION_Z
TEST_F(HostHandChecked, symv_complex_symmetric_lower_3x3) {
  // S = [1 i 0; i 2 1+i; 0 1+i -1] (symmetric, not Hermitian), x = (1, 1, i):
  // S x = (1+i, i + 2 + (i-1), (1+i) - i) = (1+i, 1+2i, 1)
  const std::vector<z> A = {{1, 0}, {0, 1}, {0, 0}, nan_, {2, 0}, {1, 1}, nan_, nan_, {-1, 0}};
  const std::vector<z> x = {{1, 0}, {1, 0}, {0, 1}};
  std::vector<z> y(3, nan_);
  mgblas::symv(*dev_, Uplo::Lower, 3, z(1, 0), A.data(), 3, x.data(), 1, z(0, 0), y.data(), 1);
  EXPECT_EQ(y, (std::vector<z>{{1, 1}, {1, 2}, {1, 0}}));
}

// H = [2 1-i 2i; 1+i 3 -1; -2i -1 1], x = (1, i, 1):
// H x = (2 + (1-i) i + 2i, (1+i) + 3i - 1, -2i - i + 1) = (3+3i, 4i, 1-3i).
// The diagonal is stored with imaginary parts (5, -7, 9) that must be ignored.
TEST_F(HostHandChecked, hemv_lower_and_upper_3x3) {
  const std::vector<z> lower = {{2, 5},  {1, 1}, {0, -2}, nan_,  {3, -7},
                                {-1, 0}, nan_,   nan_,    {1, 9}};
  const std::vector<z> upper = {{2, 5}, nan_,   nan_,    {1, -1}, {3, -7},
                                nan_,   {0, 2}, {-1, 0}, {1, 9}};
  const std::vector<z> x = {{1, 0}, {0, 1}, {1, 0}};
  const std::vector<z> want = {{3, 3}, {0, 4}, {1, -3}};
  for (const auto& [uplo, A] : {std::pair{Uplo::Lower, lower}, std::pair{Uplo::Upper, upper}}) {
    SCOPED_TRACE(mgblas::to_string(uplo));
    std::vector<z> y(3, nan_);
    mgblas::hemv(*dev_, uplo, 3, z(1, 0), A.data(), 3, x.data(), 1, z(0, 0), y.data(), 1);
    EXPECT_EQ(y, want);
  }
}
#endif

TEST_F(HostHandChecked, gemm_2x2x2) {
  // A = [1 2; 3 4], B = [5 6; 7 8]: A B = [19 22; 43 50], A^T B = [26 30; 38 44]
  const std::vector<double> A = {1, 3, 2, 4}, B = {5, 7, 6, 8};
  std::vector<double> C(4, kNan);
  mgblas::gemm(*dev_, Op::N, Op::N, 2, 2, 2, 1.0, A.data(), 2, B.data(), 2, 0.0, C.data(), 2);
  EXPECT_EQ(C, (std::vector<double>{19, 43, 22, 50}));
  std::fill(C.begin(), C.end(), kNan);
  mgblas::gemm(*dev_, Op::T, Op::N, 2, 2, 2, 1.0, A.data(), 2, B.data(), 2, 0.0, C.data(), 2);
  EXPECT_EQ(C, (std::vector<double>{26, 38, 30, 44}));
  // 2 A B + I = [39 44; 86 101]
  C = {1, 0, 0, 1};
  mgblas::gemm(*dev_, Op::N, Op::N, 2, 2, 2, 2.0, A.data(), 2, B.data(), 2, 1.0, C.data(), 2);
  EXPECT_EQ(C, (std::vector<double>{39, 86, 44, 101}));
}

TEST_F(HostHandChecked, zero_inner_dimension) {
  // gemv op N with n = 0: BLAS's quick return, y untouched; gemm with k = 0: C = beta C
  // (as BLAS: its quick return needs alpha = 0 or k = 0 together with beta = 1).
  std::vector<double> y = {1, 2, 3};
  mgblas::gemv<double>(*dev_, Op::N, 3, 0, 1.0, nullptr, 3, nullptr, 1, -2.0, y.data(), 1);
  EXPECT_EQ(y, (std::vector<double>{1, 2, 3}));
  std::vector<double> C = {1, 2, 3, 4};
  mgblas::gemm<double>(*dev_, Op::N, Op::N, 2, 2, 0, 1.0, nullptr, 2, nullptr, 1, 3.0, C.data(), 2);
  EXPECT_EQ(C, (std::vector<double>{3, 6, 9, 12}));
  std::fill(C.begin(), C.end(), kNan);
  mgblas::gemm<double>(*dev_, Op::N, Op::N, 2, 2, 0, 1.0, nullptr, 2, nullptr, 1, 0.0, C.data(), 2);
  EXPECT_EQ(C, (std::vector<double>(4, 0.0)));
}

// =================================================================================
// Bad inputs
// =================================================================================

class HostBadInput : public ::testing::Test {
 protected:
  // Runs `call`, which must raise BadArgument from `func` naming argument `arg` before
  // writing anything: y and C (the outputs of every call below) stay as they were.
  template <typename F>
  void expect_rejected(const char* func, const std::string& arg, F&& call,
                       const std::string& also = "") {
    SCOPED_TRACE(std::string(func) + " '" + arg + "'");
    const auto y0 = y_, C0 = C_;
    std::string what;
    try {
      call();
      ADD_FAILURE() << "no BadArgument raised";
    } catch (const BadArgument& e) {
      what = e.what();
    }
    // The message is for the user: where it was raised is kept apart (Error::where()).
    EXPECT_EQ(what.find(".cpp:"), std::string::npos) << what;
    EXPECT_NE(what.find("'" + arg + "'"), std::string::npos) << what;
    EXPECT_NE(what.find(also), std::string::npos) << what;
    EXPECT_EQ(y_, y0) << "output written before the error";
    EXPECT_EQ(C_, C0) << "output written before the error";
  }

  std::unique_ptr<Device> dev_ = Device::make_host(0);
  const Device& d_ = *dev_;
  // Operands of a valid 5 x 4 problem (lda = 5); inputs are ones, outputs sevens.
  std::vector<double> A_ = std::vector<double>(64, 1.0);
  std::vector<double> B_ = std::vector<double>(64, 1.0);
  std::vector<double> x_ = std::vector<double>(16, 1.0);
  std::vector<double> y_ = std::vector<double>(16, 7.0);
  std::vector<double> C_ = std::vector<double>(64, 7.0);
  const double* A = A_.data();
  const double* B = B_.data();
  const double* x = x_.data();
  double* y = y_.data();
  double* C = C_.data();
  static constexpr int64_t kBeyondBlasInt = int64_t{INT_MAX} + 1;
};

TEST_F(HostBadInput, gemv) {
  const auto gemv = [&](Op op, int64_t m, int64_t n, const double* a, int64_t lda, const double* xx,
                        int64_t incx, double* yy, int64_t incy) {
    return [=, this] { mgblas::gemv(d_, op, m, n, 1.0, a, lda, xx, incx, 0.5, yy, incy); };
  };
  expect_rejected("gemv", "lda", gemv(Op::N, 5, 4, A, 3, x, 1, y, 1),
                  "gemv: argument 'lda' = 3: must be >= max(1, m) = 5");
  expect_rejected("gemv", "m", gemv(Op::N, -1, 4, A, 5, x, 1, y, 1), "= -1");
  expect_rejected("gemv", "n", gemv(Op::N, 5, -1, A, 5, x, 1, y, 1));
  expect_rejected("gemv", "lda", gemv(Op::T, 5, 4, A, 4, x, 1, y, 1));
  expect_rejected("gemv", "lda", gemv(Op::N, 0, 4, A, 0, x, 1, y, 1), "max(1, m) = 1");
  expect_rejected("gemv", "incx", gemv(Op::N, 5, 4, A, 5, x, 0, y, 1));
  expect_rejected("gemv", "incx", gemv(Op::N, 5, 4, A, 5, x, -1, y, 1));
  expect_rejected("gemv", "incy", gemv(Op::N, 5, 4, A, 5, x, 1, y, 0));
  expect_rejected("gemv", "incy", gemv(Op::C, 5, 4, A, 5, x, 1, y, -2));
  expect_rejected("gemv", "A", gemv(Op::N, 5, 4, nullptr, 5, x, 1, y, 1), "null");
  expect_rejected("gemv", "x", gemv(Op::N, 5, 4, A, 5, nullptr, 1, y, 1), "null");
  expect_rejected("gemv", "y", gemv(Op::N, 5, 4, A, 5, x, 1, nullptr, 1), "null");
  expect_rejected("gemv", "op", gemv(static_cast<Op>('X'), 5, 4, A, 5, x, 1, y, 1));
  expect_rejected("gemv", "q.device", [&] {
    Queue q(d_);
    q.device = nullptr;
    mgblas::gemv(q, Op::N, 5, 4, 1.0, A, 5, x, 1, 0.5, y, 1);
  });
  // The host engine's CBLAS integer is 32-bit: larger values are refused, not truncated.
  expect_rejected("gemv", "lda", gemv(Op::N, 5, 4, A, kBeyondBlasInt, x, 1, y, 1), "host engine");
  expect_rejected("gemv", "incx", gemv(Op::N, 5, 4, A, 5, x, kBeyondBlasInt, y, 1), "host engine");
  expect_rejected("gemv", "m", gemv(Op::N, kBeyondBlasInt, 1, A, kBeyondBlasInt, x, 1, y, 1),
                  "host engine");

  // Null operands that the sizes leave untouched are accepted.
  EXPECT_NO_THROW(gemv(Op::N, 0, 4, nullptr, 1, nullptr, 1, nullptr, 1)());
  EXPECT_NO_THROW(gemv(Op::T, 5, 0, nullptr, 5, nullptr, 1, nullptr, 1)());
  EXPECT_NO_THROW(gemv(Op::N, 5, 0, nullptr, 5, nullptr, 1, nullptr, 1)());
  EXPECT_NO_THROW(gemv(Op::N, 5, 0, nullptr, 5, nullptr, 1, y, 1)());
  EXPECT_EQ(y_[0], 7.0);  // n = 0: BLAS's quick return leaves y as it was
}

TEST_F(HostBadInput, gemv_offset) {
  const auto gemv_offset = [&](int64_t lda, int64_t row_off, int64_t col_off) {
    return [=, this] {
      mgblas::gemv_offset(d_, Op::N, 5, 4, 1.0, A, lda, row_off, col_off, x, 1, 0.5, y, 1);
    };
  };
  expect_rejected("gemv_offset", "row_off", gemv_offset(8, -1, 0));
  expect_rejected("gemv_offset", "col_off", gemv_offset(8, 0, -1));
  expect_rejected("gemv_offset", "lda", gemv_offset(5, 1, 1), "max(1, row_off + m) = 6");
  expect_rejected("gemv_offset", "incx",
                  [&] { mgblas::gemv_offset(d_, Op::N, 5, 4, 1.0, A, 8, 1, 1, x, 0, 0.5, y, 1); });
  EXPECT_NO_THROW(gemv_offset(6, 1, 1)());
}

TEST_F(HostBadInput, symv_hemv) {
  using Entry = void (*)(const Queue&, Uplo, int64_t, double, const double*, int64_t, const double*,
                         int64_t, double, double*, int64_t);
  const std::pair<const char*, Entry> entries[] = {{"symv", &mgblas::symv<double>},
                                                   {"hemv", &mgblas::hemv<double>}};
  for (const auto& [name, entry] : entries) {
    const auto call = [&, entry = entry](Uplo uplo, int64_t n, const double* a, int64_t lda,
                                         const double* xx, int64_t incx, double* yy, int64_t incy) {
      return [=, this] { entry(d_, uplo, n, 1.0, a, lda, xx, incx, 0.5, yy, incy); };
    };
    expect_rejected(name, "n", call(Uplo::Lower, -1, A, 4, x, 1, y, 1));
    expect_rejected(name, "lda", call(Uplo::Upper, 4, A, 3, x, 1, y, 1), "max(1, n) = 4");
    expect_rejected(name, "uplo", call(static_cast<Uplo>('X'), 4, A, 4, x, 1, y, 1));
    expect_rejected(name, "incx", call(Uplo::Lower, 4, A, 4, x, 0, y, 1));
    expect_rejected(name, "incy", call(Uplo::Lower, 4, A, 4, x, 1, y, -1));
    expect_rejected(name, "A", call(Uplo::Lower, 4, nullptr, 4, x, 1, y, 1));
    expect_rejected(name, "x", call(Uplo::Lower, 4, A, 4, nullptr, 1, y, 1));
    expect_rejected(name, "y", call(Uplo::Lower, 4, A, 4, x, 1, nullptr, 1));
    expect_rejected(name, "lda", call(Uplo::Lower, 4, A, kBeyondBlasInt, x, 1, y, 1),
                    "host engine");
    EXPECT_NO_THROW(call(Uplo::Lower, 0, nullptr, 1, nullptr, 1, nullptr, 1)());
  }
}

TEST_F(HostBadInput, symv_hemv_offset) {
  using Entry = void (*)(const Queue&, Uplo, int64_t, double, const double*, int64_t, int64_t,
                         const double*, int64_t, double, double*, int64_t);
  const std::pair<const char*, Entry> entries[] = {{"symv_offset", &mgblas::symv_offset<double>},
                                                   {"hemv_offset", &mgblas::hemv_offset<double>}};
  for (const auto& [name, entry] : entries) {
    const auto call = [&, entry = entry](int64_t lda, int64_t off) {
      return [=, this] { entry(d_, Uplo::Lower, 4, 1.0, A, lda, off, x, 1, 0.5, y, 1); };
    };
    expect_rejected(name, "off", call(8, -1));
    expect_rejected(name, "lda", call(5, 2), "max(1, off + n) = 6");
    expect_rejected(name, "y", [&, entry = entry] {
      entry(d_, Uplo::Lower, 4, 1.0, A, 8, 2, x, 1, 0.5, nullptr, 1);
    });
    EXPECT_NO_THROW(call(6, 2)());
  }
}

TEST_F(HostBadInput, gemm_tsgemm) {
  using Entry = void (*)(const Queue&, Op, Op, int64_t, int64_t, int64_t, double, const double*,
                         int64_t, const double*, int64_t, double, double*, int64_t);
  const std::pair<const char*, Entry> entries[] = {{"gemm", &mgblas::gemm<double>},
                                                   {"tsgemm", &mgblas::tsgemm<double>}};
  for (const auto& [name, entry] : entries) {
    // A 3 x 4 times 4 x 2 product.
    const auto call = [&, entry = entry](Op opA, Op opB, int64_t m, int64_t n, int64_t k,
                                         const double* a, int64_t lda, const double* b, int64_t ldb,
                                         double* c, int64_t ldc) {
      return [=, this] { entry(d_, opA, opB, m, n, k, 1.0, a, lda, b, ldb, 0.5, c, ldc); };
    };
    const Op N = Op::N, T = Op::T;
    expect_rejected(name, "m", call(N, N, -1, 2, 4, A, 3, B, 4, C, 3));
    expect_rejected(name, "n", call(N, N, 3, -1, 4, A, 3, B, 4, C, 3));
    expect_rejected(name, "k", call(N, N, 3, 2, -1, A, 3, B, 4, C, 3));
    expect_rejected(name, "opA", call(static_cast<Op>(0), N, 3, 2, 4, A, 3, B, 4, C, 3));
    expect_rejected(name, "opB", call(N, static_cast<Op>('x'), 3, 2, 4, A, 3, B, 4, C, 3));
    expect_rejected(name, "lda", call(N, N, 3, 2, 4, A, 2, B, 4, C, 3), "max(1, m) = 3");
    expect_rejected(name, "lda", call(T, N, 3, 2, 4, A, 3, B, 4, C, 3), "max(1, k) = 4");
    expect_rejected(name, "ldb", call(N, N, 3, 2, 4, A, 3, B, 3, C, 3), "max(1, k) = 4");
    expect_rejected(name, "ldb", call(N, Op::C, 3, 2, 4, A, 3, B, 1, C, 3), "max(1, n) = 2");
    expect_rejected(name, "ldc", call(N, N, 3, 2, 4, A, 3, B, 4, C, 2), "max(1, m) = 3");
    expect_rejected(name, "A", call(N, N, 3, 2, 4, nullptr, 3, B, 4, C, 3));
    expect_rejected(name, "B", call(N, N, 3, 2, 4, A, 3, nullptr, 4, C, 3));
    expect_rejected(name, "C", call(N, N, 3, 2, 4, A, 3, B, 4, nullptr, 3));
    expect_rejected(name, "ldc", call(N, N, 3, 2, 4, A, 3, B, 4, C, kBeyondBlasInt), "host engine");
    // k = 0: A and B are not read; m = 0: nothing is.
    EXPECT_NO_THROW(call(N, N, 3, 2, 0, nullptr, 3, nullptr, 1, C, 3)());
    EXPECT_NO_THROW(call(N, N, 0, 2, 4, nullptr, 1, nullptr, 4, nullptr, 1)());
  }
}

TEST_F(HostBadInput, gemm_batched_strided) {
  // Two 3 x 2 entries with k = 4, ldc = 3.
  const auto call = [&](int64_t strideA, int64_t strideB, int64_t strideC, int64_t batch,
                        const double* a = nullptr, double* c = nullptr) {
    a = a ? a : A;
    c = c ? c : C;
    return [=, this] {
      mgblas::gemm_batched_strided(d_, Op::N, Op::N, 3, 2, 4, 1.0, a, 3, strideA, B, 4, strideB,
                                   0.5, c, 3, strideC, batch);
    };
  };
  constexpr const char* kName = "gemm_batched_strided";
  expect_rejected(kName, "batch", call(12, 8, 6, -1));
  expect_rejected(kName, "strideA", call(-1, 8, 6, 2));
  expect_rejected(kName, "strideB", call(12, -8, 6, 2));
  expect_rejected(kName, "strideC", call(12, 8, -6, 2));
  expect_rejected(kName, "strideC", call(12, 8, 5, 2), "ldc * n = 6");
  expect_rejected(kName, "lda", [&] {
    mgblas::gemm_batched_strided(d_, Op::N, Op::N, 3, 2, 4, 1.0, A, 2, 12, B, 4, 8, 0.5, C, 3, 6,
                                 2);
  });
  expect_rejected(kName, "A", [&] {
    mgblas::gemm_batched_strided<double>(d_, Op::N, Op::N, 3, 2, 4, 1.0, nullptr, 3, 12, B, 4, 8,
                                         0.5, C, 3, 6, 2);
  });
  expect_rejected(kName, "C", [&] {
    mgblas::gemm_batched_strided<double>(d_, Op::N, Op::N, 3, 2, 4, 1.0, A, 3, 12, B, 4, 8, 0.5,
                                         nullptr, 3, 6, 2);
  });
  // Shared A and B (stride 0) are fine; so is an overlapping strideC for a single entry.
  EXPECT_NO_THROW(call(0, 0, 6, 2)());
  EXPECT_NO_THROW(call(12, 8, 1, 1)());
  EXPECT_NO_THROW(call(12, 8, 6, 0)());
}

TEST_F(HostBadInput, gemm_batched) {
  const std::vector<const double*> Aarray = {A, A}, Barray = {B, B};
  const std::vector<double*> Carray = {C, C + 6};
  const auto call = [&](const double* const* a, const double* const* b, double* const* c,
                        int64_t batch, int64_t ldb = 4) {
    return [=, this] {
      mgblas::gemm_batched(d_, Op::N, Op::N, 3, 2, 4, 1.0, a, 3, b, ldb, 0.5, c, 3, batch);
    };
  };
  constexpr const char* kName = "gemm_batched";
  expect_rejected(kName, "batch", call(Aarray.data(), Barray.data(), Carray.data(), -1));
  expect_rejected(kName, "Aarray", call(nullptr, Barray.data(), Carray.data(), 2));
  expect_rejected(kName, "Barray", call(Aarray.data(), nullptr, Carray.data(), 2));
  expect_rejected(kName, "Carray", call(Aarray.data(), Barray.data(), nullptr, 2));
  expect_rejected(kName, "ldb", call(Aarray.data(), Barray.data(), Carray.data(), 2, 3));
  // An entry that is null: the host engine sees it, before entry 0 is written.
  const std::vector<double*> with_null = {C, nullptr};
  expect_rejected(kName, "Carray[1]", call(Aarray.data(), Barray.data(), with_null.data(), 2));
  const std::vector<const double*> a_null = {A, nullptr};
  expect_rejected(kName, "Aarray[1]", call(a_null.data(), Barray.data(), Carray.data(), 2));
  EXPECT_NO_THROW(call(nullptr, nullptr, nullptr, 0)());
}

TEST_F(HostBadInput, gemm_vbatched) {
  // Entry 0: 3 x 2 x 4; entry 1: 2 x 2 x 3, both ld = 4, C entries 8 apart.
  std::vector<int64_t> m = {3, 2}, n = {2, 2}, k = {4, 3}, ld = {4, 4};
  const std::vector<const double*> Aarray = {A, A + 16}, Barray = {B, B + 16};
  const std::vector<double*> Carray = {C, C + 8};
  struct Args {
    const int64_t* m;
    const int64_t* lda;
    const double* const* a;
    double* const* c;
    int64_t batch = 2, max_m = 3, max_n = 2, max_k = 4;
  };
  const Args ok{m.data(), ld.data(), Aarray.data(), Carray.data()};
  const auto call = [&](Args g) {
    return [=, this] {
      mgblas::gemm_vbatched(d_, Op::N, Op::N, g.m, n.data(), k.data(), 1.0, g.a, g.lda,
                            Barray.data(), ld.data(), 0.5, g.c, ld.data(), g.batch, g.max_m,
                            g.max_n, g.max_k);
    };
  };
  constexpr const char* kName = "gemm_vbatched";
  auto bad = ok;
  bad.batch = -1;
  expect_rejected(kName, "batch", call(bad));
  bad = ok, bad.max_m = -1;
  expect_rejected(kName, "max_m", call(bad));
  bad = ok, bad.max_n = -1;
  expect_rejected(kName, "max_n", call(bad));
  bad = ok, bad.max_k = -1;
  expect_rejected(kName, "max_k", call(bad));
  bad = ok, bad.m = nullptr;
  expect_rejected(kName, "m", call(bad), "null");
  bad = ok, bad.lda = nullptr;
  expect_rejected(kName, "lda", call(bad), "null");
  bad = ok, bad.a = nullptr;
  expect_rejected(kName, "Aarray", call(bad), "null");
  bad = ok, bad.c = nullptr;
  expect_rejected(kName, "Carray", call(bad), "null");
  // Entries: checked by the host engine before any entry is computed.
  bad = ok, bad.max_m = 2;
  expect_rejected(kName, "m[0]", call(bad), "max_m = 2");
  const std::vector<int64_t> short_ld = {4, 1};
  bad = ok, bad.lda = short_ld.data();
  expect_rejected(kName, "lda[1]", call(bad), "max(1, m[1]) = 2");
  const std::vector<double*> c_null = {C, nullptr};
  bad = ok, bad.c = c_null.data();
  expect_rejected(kName, "Carray[1]", call(bad));

  // max_k = 0: every product is empty, A, B and their leading dimensions are unread,
  // and C = beta * C.
  std::vector<int64_t> k0 = {0, 0};
  mgblas::gemm_vbatched<double>(d_, Op::N, Op::N, m.data(), n.data(), k0.data(), 1.0, nullptr,
                                nullptr, nullptr, nullptr, 0.5, Carray.data(), ld.data(), 2, 3, 2,
                                0);
  EXPECT_EQ(C_[0], 3.5);
  EXPECT_EQ(C_[3], 7.0);  // padding row of entry 0 (ldc 4 > m 3)
  EXPECT_NO_THROW(call({nullptr, nullptr, nullptr, nullptr, 0})());
}

}  // namespace
