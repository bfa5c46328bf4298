// SPDX-License-Identifier: BSD-3-Clause
// mgblas's own GEMV and SYMV/HEMV kernels (kernels/cuda/level2),
// called directly with every compiled tuning set and with forced grid splits (one
// block along the inner dimension: beta fused; several: beta pre-scaled and atomics),
// and through the public entries (the dispatcher's choice), against the host engine
// on the same fresh random data, for s, d, c, z.
//
// Poison: the parent matrix outside the submatrix, the unreferenced triangle, the
// lda padding and the gaps of strided vectors are NaN, so is y when beta = 0; y must
// come out right and unchanged outside its strided elements. Leading dimensions are
// either a multiple of 128 bytes (the aligned path with a row shift for offsets) or
// odd (element loads only).
#include <cstdio>
#include <memory>
#include <string>
#include <tuple>
#include <vector>

#include "kernels/blas.hpp"
#include "kernels/columns.hpp"
#include "kernels/cuda/level2/gemv.hpp"
#include "kernels/cuda/level2/symv.hpp"
#include "kernels/cuda/level2/level2_dispatch.hpp"
#include "layouts/block_cyclic.hpp"
#include "tests/kernels/cuda_test_helpers.hpp"

namespace mgblas::testing {
namespace {

namespace l2 = kernels::cuda::level2;

/// Rows per block of the N kernel (32 lanes x one 16-byte chunk) and the tile of the
/// default SYMV set (symv_tuning.hpp): the sizes around which boundaries move.
template <Scalar T> constexpr int64_t gemv_nb() { return 512 / static_cast<int64_t>(sizeof(T)); }
template <Scalar T> constexpr int64_t symv_nb() { return sizeof(T) == 16 ? 32 : 64; }

/// Leading dimension >= rows: rounded up to 128 bytes, or the next odd number.
template <Scalar T>
int64_t leading_dim(int64_t rows, bool aligned) {
  const int64_t per = 128 / static_cast<int64_t>(sizeof(T));
  if (aligned) return std::max<int64_t>(per, (rows + per - 1) / per * per);
  return rows % 2 == 1 ? rows : rows + 1;
}

/// y0 and the device result compared (error bound of STYLE.md section 8) and the
/// gaps of y checked untouched.
template <Scalar T>
void check_y(const std::vector<T>& y0, const std::vector<T>& y, const std::vector<T>& y_ref,
             int64_t len, int64_t inc, int64_t k, T alpha, T beta, double normA, double normx,
             bool poisoned) {
  const double normy0 = poisoned ? 0.0 : norm_vec(len, y0.data(), inc);
  //  +------------------------------------------------------------------------+
  //  |  err = ||y - y_ref|| / ((k * |alpha| * ||A|| * ||x|| + |beta| * ||y0||) |
  //  |                         * eps),  k the inner dimension                 |
  //  |  passes when err <= 10 (x sqrt(2) for complex)                         |
  //  +------------------------------------------------------------------------+
  const double err =
      scaled_error(norm_diff(len, y.data(), inc, y_ref.data(), inc), k, alpha, normA, normx,
                   beta, normy0);
  EXPECT_LE(err, error_tolerance<T>());
  expect_untouched_outside(y0, y, [&](int64_t p) { return p % inc == 0 && p / inc < len; },
                           "y");
}

// ---- GEMV ---------------------------------------------------------------------------

struct GemvCase {
  Op op;
  int64_t m, n;
  int64_t row_off = 0, col_off = 0;
  int64_t incx = 1, incy = 1;
  Scalars scalars = Scalars::Random;
  bool aligned_ld = true;
};

template <Scalar T>
void run_gemv(const GemvCase& c, std::mt19937_64& rng, std::vector<int64_t> splits = {0, 1, 3}) {
  const int64_t len_x = c.op == Op::N ? c.n : c.m;
  const int64_t len_y = c.op == Op::N ? c.m : c.n;
  const int64_t lda = leading_dim<T>(c.row_off + c.m + 1, c.aligned_ld);
  std::vector<T> A(static_cast<std::size_t>(lda * std::max<int64_t>(c.col_off + c.n, 1)),
                   nan_value<T>());
  for (int64_t j = 0; j < c.n; ++j)
    for (int64_t i = 0; i < c.m; ++i)
      A[(c.row_off + i) + (c.col_off + j) * lda] = random_value<T>(rng);
  const std::vector<T> x = random_strided_vector<T>(len_x, c.incx, rng);
  std::vector<T> y0 = random_strided_vector<T>(len_y, c.incy, rng);
  T alpha, beta;
  draw_scalars(c.scalars, rng, alpha, beta);
  const bool poisoned = poisons_output(c.scalars);
  // The host reference gets zeros where the device gets NaN (beta = 0): the
  // mathematical result is the same and the oracle's own beta = 0 handling is not
  // under test here.
  std::vector<T> y_ref = y0;
  if (poisoned)
    for (int64_t i = 0; i < len_y; ++i) y0[i * c.incy] = nan_value<T>();
  gemv_offset<T>(host(), c.op, c.m, c.n, alpha, A.data(), lda, c.row_off, c.col_off, x.data(),
                 c.incx, beta, y_ref.data(), c.incy);
  // The engine's kernels (below the public entry, used by the drivers) scale y by beta
  // over an empty inner dimension; the public entry returns first, as BLAS does.
  if (len_x == 0)
    for (int64_t i = 0; i < len_y; ++i) y_ref[i * c.incy] *= beta;

  const double normA = norm_fro(c.m, c.n, A.data() + c.row_off + c.col_off * lda, lda);
  const double normx = norm_vec(len_x, x.data(), c.incx);
  if (c.m > 0 && c.n > 0 && c.scalars != Scalars::BothZero) {
    ASSERT_GT(normA, 0.0);
    ASSERT_GT(norm_vec(len_y, y_ref.data(), c.incy), 0.0) << "vacuous comparison";
  }
  const DeviceBuffer<T> dA = upload(A), dx = upload(x);
  auto check = [&](const std::string& how, auto&& call) {
    SCOPED_TRACE(detail::concat("gemv op=", to_string(c.op), " m=", c.m, " n=", c.n, " off=(",
                                c.row_off, ",", c.col_off, ") lda=", lda, " incx=", c.incx,
                                " incy=", c.incy, " ", to_string(c.scalars), " via ", how, ", ",
                                seed_text()));
    DeviceBuffer<T> dy = upload(y0);
    call(dy.data());
    const std::vector<T> y = download(dy);
    check_y(y0, y, y_ref, len_y, c.incy, len_x, alpha, beta, normA, normx, poisoned);
  };
  gpu().make_current();
  for (int v = 0; v < l2::gemv_variant_count<T>(c.op); ++v)
    for (int64_t split : splits)
      check(detail::concat(l2::gemv_variant_name<T>(c.op, v), " split ", split), [&](T* y) {
        l2::gemv<T>(gpu().stream(), c.op, c.m, c.n, alpha, dA.data(), lda, c.row_off, c.col_off,
                    dx.data(), c.incx, beta, y, c.incy, {v, split});
      });
  const auto choice = l2::choose_gemv<T>(c.op, c.m, c.n, dA.data() + c.row_off + c.col_off * lda,
                                         lda, dx.data(), c.incx, y0.data(), c.incy);
  const auto public_call = [&](T* y) {
    gemv_offset<T>(gpu(), c.op, c.m, c.n, alpha, dA.data(), lda, c.row_off, c.col_off, dx.data(),
                   c.incx, beta, y, c.incy);
  };
  if (len_x == 0) {  // the public entry's quick return leaves y as it was, poison included
    DeviceBuffer<T> dy = upload(y0);
    public_call(dy.data());
    const std::vector<T> y = download(dy);
    EXPECT_EQ(std::memcmp(y.data(), y0.data(), y.size() * sizeof(T)), 0) << "empty inner dimension";
    return;
  }
  check(detail::concat("public gemv_offset, dispatcher: ", l2::chosen_engine(choice)), public_call);
}

template <typename T>
class GemvEngine_Cuda : public ::testing::Test {};
TYPED_TEST_SUITE(GemvEngine_Cuda, TestScalars, PrecisionName);

constexpr Op kOps[] = {Op::N, Op::T, Op::C};

TYPED_TEST(GemvEngine_Cuda, square_sizes) {
  using T = TypeParam;
  auto rng = make_rng();
  const int64_t nb = gemv_nb<T>();
  for (Op op : kOps)
    for (int64_t s : {int64_t{0}, int64_t{1}, int64_t{2}, int64_t{31}, int64_t{32}, int64_t{33},
                      nb - 1, nb, nb + 1, int64_t{1000}, int64_t{2131}})
      for (bool aligned : {true, false})
        run_gemv<T>({.op = op, .m = s, .n = s, .aligned_ld = aligned}, rng);
  for (Op op : kOps) run_gemv<T>({.op = op, .m = 4097, .n = 4097}, rng, {0, 1});
}

TYPED_TEST(GemvEngine_Cuda, rectangular) {
  using T = TypeParam;
  auto rng = make_rng();
  const std::pair<int64_t, int64_t> shapes[] = {{100000, 16}, {16, 100000}, {1000, 37},
                                                {37, 1000},   {2131, 1},    {1, 2131},
                                                {7, 0},       {0, 7}};
  for (Op op : kOps)
    for (auto [m, n] : shapes) run_gemv<T>({.op = op, .m = m, .n = n}, rng);
}

TYPED_TEST(GemvEngine_Cuda, offsets_and_strides) {
  using T = TypeParam;
  auto rng = make_rng();
  const int64_t nb = gemv_nb<T>();
  const std::pair<int64_t, int64_t> offsets[] = {{0, 0}, {1, 1}, {17, 5}, {nb - 1, 1},
                                                 {nb + 3, nb + 3}};
  const std::pair<int64_t, int64_t> shapes[] = {{517, 333}, {33, 1000}, {1000, 31}, {1, 1}};
  for (Op op : kOps)
    for (auto [ro, co] : offsets)
      for (auto [m, n] : shapes)
        for (int64_t inc : {1, 3})
          for (bool aligned : {true, false})
            run_gemv<T>({.op = op, .m = m, .n = n, .row_off = ro, .col_off = co, .incx = inc,
                         .incy = inc, .aligned_ld = aligned},
                        rng);
}

TYPED_TEST(GemvEngine_Cuda, special_scalars) {
  using T = TypeParam;
  auto rng = make_rng();
  for (Op op : kOps)
    for (Scalars s : {Scalars::BetaZero, Scalars::AlphaZero, Scalars::BothZero})
      for (auto [m, n] : {std::pair<int64_t, int64_t>{1000, 517}, {33, 31}, {16, 100000}})
        for (int64_t inc : {1, 3})
          run_gemv<T>({.op = op, .m = m, .n = n, .row_off = 17, .col_off = 5, .incx = inc,
                       .incy = inc, .scalars = s},
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
  bool aligned_ld = true;
};

template <Scalar T>
void run_symv(const SymvCase& c, std::mt19937_64& rng, std::vector<int64_t> splits = {0, 1, 1000}) {
  const int64_t n = c.n;
  const int64_t lda = leading_dim<T>(c.off + n + 1, c.aligned_ld);
  // Only the uplo triangle of the diagonal submatrix holds numbers; for hemv its
  // diagonal keeps a random imaginary part, which must be taken as zero.
  std::vector<T> A(static_cast<std::size_t>(lda * std::max<int64_t>(c.off + n, 1)),
                   nan_value<T>());
  double norm2 = 0;
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
  const bool poisoned = poisons_output(c.scalars);
  std::vector<T> y_ref = y0;
  if (poisoned)
    for (int64_t i = 0; i < n; ++i) y0[i * c.incy] = nan_value<T>();
  if (c.hermitian)
    hemv_offset<T>(host(), c.uplo, n, alpha, A.data(), lda, c.off, x.data(), c.incx, beta,
                   y_ref.data(), c.incy);
  else
    symv_offset<T>(host(), c.uplo, n, alpha, A.data(), lda, c.off, x.data(), c.incx, beta,
                   y_ref.data(), c.incy);
  const double normA = std::sqrt(norm2);
  const double normx = norm_vec(n, x.data(), c.incx);
  if (n > 0 && c.scalars != Scalars::BothZero)
    ASSERT_GT(norm_vec(n, y_ref.data(), c.incy), 0.0) << "vacuous comparison";

  const DeviceBuffer<T> dA = upload(A), dx = upload(x);
  auto check = [&](const std::string& how, auto&& call) {
    SCOPED_TRACE(detail::concat(c.hermitian ? "hemv" : "symv", " uplo=", to_string(c.uplo),
                                " n=", n, " off=", c.off, " lda=", lda, " incx=", c.incx,
                                " incy=", c.incy, " ", to_string(c.scalars), " via ", how, ", ",
                                seed_text()));
    DeviceBuffer<T> dy = upload(y0);
    call(dy.data());
    const std::vector<T> y = download(dy);
    check_y(y0, y, y_ref, n, c.incy, n, alpha, beta, normA, normx, poisoned);
  };
  gpu().make_current();
  for (int v = 0; v < l2::symv_variant_count<T>(); ++v)
    for (int64_t split : splits)
      check(detail::concat(l2::symv_variant_name<T>(c.uplo, c.hermitian, v), " tiles/block ",
                           split),
            [&](T* y) {
              l2::symv<T>(gpu().stream(), c.uplo, c.hermitian, n, alpha, dA.data(), lda, c.off,
                          dx.data(), c.incx, beta, y, c.incy, {v, split});
            });
  const auto choice = l2::choose_symv<T>(c.uplo, c.hermitian, n, dA.data() + c.off * (lda + 1),
                                         lda, dx.data(), c.incx, y0.data(), c.incy);
  check(detail::concat("public entry, dispatcher: ", l2::chosen_engine(choice)), [&](T* y) {
    if (c.hermitian)
      hemv_offset<T>(gpu(), c.uplo, n, alpha, dA.data(), lda, c.off, dx.data(), c.incx, beta, y,
                     c.incy);
    else
      symv_offset<T>(gpu(), c.uplo, n, alpha, dA.data(), lda, c.off, dx.data(), c.incx, beta, y,
                     c.incy);
  });
}

template <typename T>
class SymvEngine_Cuda : public ::testing::Test {};
TYPED_TEST_SUITE(SymvEngine_Cuda, TestScalars, PrecisionName);

constexpr Uplo kUplos[] = {Uplo::Lower, Uplo::Upper};

/// symv for real types; for complex, hemv and the complex-symmetric symv.
template <Scalar T> std::vector<bool> hermitian_kinds() {
  if constexpr (is_complex_v<T>) return {true, false};
  else return {false};
}

TYPED_TEST(SymvEngine_Cuda, sizes) {
  using T = TypeParam;
  auto rng = make_rng();
  const int64_t nb = symv_nb<T>();
  for (bool herm : hermitian_kinds<T>())
    for (Uplo uplo : kUplos) {
      for (int64_t n : {int64_t{0}, int64_t{1}, int64_t{2}, int64_t{31}, int64_t{32},
                        int64_t{33}, nb - 1, nb, nb + 1, int64_t{1000}, int64_t{2131}})
        for (bool aligned : {true, false})
          run_symv<T>({.hermitian = herm, .uplo = uplo, .n = n, .aligned_ld = aligned}, rng);
      run_symv<T>({.hermitian = herm, .uplo = uplo, .n = 4097}, rng, {0});
    }
}

TYPED_TEST(SymvEngine_Cuda, offsets_and_strides) {
  using T = TypeParam;
  auto rng = make_rng();
  const int64_t nb = symv_nb<T>();
  for (bool herm : hermitian_kinds<T>())
    for (Uplo uplo : kUplos)
      for (int64_t off : {int64_t{0}, int64_t{1}, int64_t{17}, nb - 1, nb + 3})
        for (int64_t n : {int64_t{1}, int64_t{33}, int64_t{517}})
          for (int64_t inc : {1, 3})
            for (bool aligned : {true, false})
              run_symv<T>({.hermitian = herm, .uplo = uplo, .n = n, .off = off, .incx = inc,
                           .incy = inc, .aligned_ld = aligned},
                          rng);
}

TYPED_TEST(SymvEngine_Cuda, special_scalars) {
  using T = TypeParam;
  auto rng = make_rng();
  for (bool herm : hermitian_kinds<T>())
    for (Uplo uplo : kUplos)
      for (Scalars s : {Scalars::BetaZero, Scalars::AlphaZero, Scalars::BothZero})
        for (int64_t inc : {1, 3})
          run_symv<T>({.hermitian = herm, .uplo = uplo, .n = 517, .off = 17, .incx = inc,
                       .incy = inc, .scalars = s},
                      rng);
}

// ---- symv_cyclic: one device's share of a block-cyclic matrix --------------------------
//
// P virtual devices on one GPU: each gets its own local storage (the layout's blocks of
// the global matrix, all rows, ld padded to 128 bytes, padding NaN) and one or two calls
// (the second splits its columns at an arbitrary global column, as dist's pipeline
// chunks do); y, summed over every call, must be alpha * S * x. The tile kernel's calls
// (forms 0 and 1) also form quad, which must be x^H y_ref.
struct CyclicCase {
  bool hermitian;
  Uplo uplo;
  int64_t n, off;
  int64_t nb;
  int P, first;
  bool split;
  // How the shares run: the engine's symv_cyclic directly (0), or the per-device entry
  // symv_columns (kernels/columns.hpp) with SymvColumns::Tiles (1) or ::Columns (2).
  int form = 0;
};

template <Scalar T>
void run_symv_cyclic(const CyclicCase& c, std::mt19937_64& rng) {
  const int64_t n = c.n, m = n - c.off;
  std::vector<T> A(static_cast<std::size_t>(n * n), nan_value<T>());
  double norm2 = 0;
  for (int64_t j = c.off; j < n; ++j)
    for (int64_t i = c.off; i < n; ++i) {
      if (c.uplo == Uplo::Lower ? i < j : i > j) continue;
      const T a = random_value<T>(rng);
      A[i + j * n] = a;
      const double mag = (i == j && c.hermitian) ? std::abs(std::real(a)) : std::abs(a);
      norm2 += (i == j ? 1.0 : 2.0) * mag * mag;
    }
  const std::vector<T> x = random_strided_vector<T>(m, 1, rng);
  const T alpha = random_value<T>(rng);
  std::vector<T> y_ref(static_cast<std::size_t>(std::max<int64_t>(m, 1)), T(0));
  if (c.hermitian)
    hemv_offset<T>(host(), c.uplo, m, alpha, A.data(), n, c.off, x.data(), 1, T(0), y_ref.data(), 1);
  else
    symv_offset<T>(host(), c.uplo, m, alpha, A.data(), n, c.off, x.data(), 1, T(0), y_ref.data(), 1);
  ASSERT_GT(norm_vec(m, y_ref.data(), 1), 0.0) << "vacuous comparison";

  const BlockCyclic1D L(n, n, c.nb, c.P, c.first);
  const int64_t ld = L.local_ld(sizeof(T));
  gpu().make_current();
  const DeviceBuffer<T> dx = upload(x);
  std::vector<T> y0(static_cast<std::size_t>(m), T(0));
  DeviceBuffer<T> dy = upload(y0);
  // quad is x^H S x of a real symmetric or Hermitian S (refused for complex symmetric).
  const bool with_quad = c.form < 2 && (c.hermitian || !is_complex_v<T>);
  DeviceBuffer<T> dquad = upload(std::vector<T>{T(0)});
  T* quad = with_quad ? dquad.data() : nullptr;
  std::vector<DeviceBuffer<T>> locals;
  for (int g = 0; g < c.P; ++g) {
    const int64_t ln = L.local_n(g);
    if (ln == 0) continue;
    std::vector<T> local(static_cast<std::size_t>(ld * ln), nan_value<T>());
    for (int64_t jl = 0; jl < ln; ++jl)
      std::copy_n(A.data() + L.global_col(g, jl) * n, n, local.data() + jl * ld);
    locals.push_back(upload(local));
    // g's local columns at or after global column c: those of blocks before c's block,
    // plus c's offset in its block when g owns it.
    const auto local_begin = [&](int64_t col) {
      int64_t cols = 0;
      for (int64_t jl = 0; jl < ln; ++jl) cols += L.global_col(g, jl) < col ? 1 : 0;
      return cols;
    };
    std::vector<int64_t> cuts{c.off};
    if (c.split) cuts.push_back(c.off + (n - c.off) * 2 / 5);
    cuts.push_back(n);
    for (std::size_t k = 0; k + 1 < cuts.size(); ++k) {
      const int64_t l0 = local_begin(cuts[k]), l1 = local_begin(cuts[k + 1]);
      if (c.form > 0) {
        // layouts/' columns of the range must be the ones counted here.
        const LocalColumns cols = local_columns(L, g, cuts[k], cuts[k + 1]);
        ASSERT_EQ(cols.local_begin, l0);
        ASSERT_EQ(cols.local_end, l1);
        symv_columns<T>(Queue(gpu()), c.uplo, c.hermitian, n, c.off, cols, alpha,
                        locals.back().data(), ld, dx.data(), dy.data(),
                        c.form == 1 ? SymvColumns::Tiles : SymvColumns::Columns, quad);
        continue;
      }
      if (l1 <= l0) continue;
      const LocalColumns share{c.nb, c.nb * c.P, L.first_block(g) * c.nb, l0, l1};
      l2::symv_cyclic<T>(gpu().stream(), c.uplo, c.hermitian, n, c.off, share, alpha,
                         locals.back().data(), ld, dx.data(), dy.data(), quad);
    }
  }
  SCOPED_TRACE(detail::concat(c.hermitian ? "hemv" : "symv", " uplo=", to_string(c.uplo),
                              " n=", n, " off=", c.off, " nb=", c.nb, " P=", c.P,
                              " first=", c.first, " split=", c.split, " form=", c.form, ", ",
                              seed_text()));
  const std::vector<T> y = download(dy);
  const double normx = norm_vec(m, x.data(), 1);
  check_y(y0, y, y_ref, m, 1, m, alpha, T(0), std::sqrt(norm2), normx, false);
  if (with_quad) {
    T quad_ref(0);
    for (int64_t i = 0; i < m; ++i) quad_ref += mgblas::conj(x[i]) * y_ref[i];
    const T got = download(dquad)[0];
    const double scale = m * std::abs(alpha) * std::sqrt(norm2) * normx * normx * eps<T>();
    EXPECT_LE(std::abs(got - quad_ref) / (scale + 1e-300), error_tolerance<T>())
        << "quad " << got << " against x^H y_ref " << quad_ref;
  }
}

TYPED_TEST(SymvEngine_Cuda, cyclic_shares) {
  using T = TypeParam;
  auto rng = make_rng();
  const int64_t t = l2::symv_tile<T>();
  for (bool herm : hermitian_kinds<T>())
    for (Uplo uplo : kUplos)
      for (int P : {1, 2, 3})
        for (int64_t nb : {t, 2 * t})
          for (const auto& [n, off] : {std::pair<int64_t, int64_t>{1, 0}, {t + 5, 0},
                                       {517, 0}, {517, 17}, {1000, t + 3}, {1000, 999}})
            for (bool split : {false, true}) {
              // Split shares of several devices also run through the per-device entry
              // symv_columns (the kernels dist/ runs), in both of its kernel forms.
              const int forms = P > 1 && split ? 3 : 1;
              for (int form = 0; form < forms; ++form)
                run_symv_cyclic<T>({herm, uplo, n, off, nb, P, P > 1 ? 1 : 0, split, form}, rng);
            }
  if constexpr (is_complex_v<T>) {
    // x^H S x of a complex-symmetric S is not what the kernel's quad forms: refused
    // before any launch.
    DeviceBuffer<T> buf = upload(std::vector<T>(static_cast<std::size_t>(t * t), T(0)));
    const LocalColumns all{t, t, 0, 0, t};
    EXPECT_THROW(l2::symv_cyclic<T>(gpu().stream(), Uplo::Lower, false, t, 0, all, T(1), buf.data(),
                                    t, buf.data(), buf.data() + t, buf.data() + 2 * t),
                 NotImplemented);
  }
}

// +-----------------------------------------------------------------------------------+
// | gather_columns / scatter_columns / finish_sum on the GPU through the per-device    |
// | entries = the host engine's results on the same inputs (exact: copies, and one     |
// | fused or plain multiply-add per entry, within one rounding: compared with the      |
// | bound of a length-1 product).                                                      |
// +-----------------------------------------------------------------------------------+
TYPED_TEST(GemvEngine_Cuda, column_vector_kernels_entry) {
  using T = TypeParam;
  auto rng = make_rng();
  const std::unique_ptr<Device> hdev = Device::make_host(0);
  for (const auto& [n, nb, P, c0] : {std::tuple<int64_t, int64_t, int, int64_t>{1000, 64, 3, 0},
                                      {517, 24, 2, 17}, {2131, 32, 12, 100}}) {
    const BlockCyclic1D L(n, n, nb, P, 1);
    const int64_t len = n - c0, stride = max_local_count(L, c0);
    const std::vector<T> x = random_strided_vector<T>(len, 1, rng);
    std::vector<LocalColumns> cols;
    for (int g = 0; g < P; ++g) cols.push_back(local_columns(L, g, c0, n));
    gpu().make_current();
    const DeviceBuffer<T> dx = upload(x);
    std::vector<T> gathered(static_cast<std::size_t>(stride * P), T(0));
    DeviceBuffer<T> dg = upload(gathered);
    for (int g = 0; g < P; ++g) {
      gather_columns<T>(Queue(gpu()), cols[g], dx.data(), c0, dg.data() + g * stride);
      gather_columns<T>(Queue(*hdev), cols[g], x.data(), c0, gathered.data() + g * stride);
    }
    EXPECT_EQ(download(dg), gathered) << "gather n=" << n << " P=" << P;
    const T beta = random_value<T>(rng);
    const std::vector<T> y0 = random_strided_vector<T>(len, 1, rng);
    std::vector<T> y = y0;
    DeviceBuffer<T> dy = upload(y0);
    scatter_columns<T>(Queue(gpu()), cols, dg.data(), stride, c0, beta, dy.data());
    scatter_columns<T>(Queue(*hdev), cols, gathered.data(), stride, c0, beta, y.data());
    const std::vector<T> yd = download(dy);
    check_y(y0, yd, y, len, 1, 1, T(1), beta, 1.0, norm_vec(len, x.data(), 1), false);
    DeviceBuffer<T> dz = upload(y0);
    std::vector<T> z = y0;
    finish_sum<T>(Queue(gpu()), len, dx.data(), beta, dz.data());
    finish_sum<T>(Queue(*hdev), len, x.data(), beta, z.data());
    check_y(y0, download(dz), z, len, 1, 1, T(1), beta, 1.0, norm_vec(len, x.data(), 1), false);
  }
}

// The dispatcher says what it chose and why, for every precision and kind.
TYPED_TEST(GemvEngine_Cuda, dispatcher_labels) {
  using T = TypeParam;
  gpu().make_current();
  DeviceBuffer<T> buf(gpu(), 64);
  for (Op op : kOps) {
    const auto c = l2::choose_gemv<T>(op, 8192, 8192, buf.data(), 8192, buf.data(), 1,
                                      buf.data(), 1);
    EXPECT_NE(std::string(l2::chosen_engine(c)), "");
    std::printf("gemv %c op=%s 8192^2: %s\n", precision_letter<T>(), to_string(op),
                l2::chosen_engine(c));
  }
  for (Uplo uplo : kUplos) {
    const auto c = l2::choose_symv<T>(uplo, true, 8192, buf.data(), 8192, buf.data(), 1,
                                      buf.data(), 1);
    std::printf("symv/hemv %c uplo=%s 8192: %s\n", precision_letter<T>(), to_string(uplo),
                l2::chosen_engine(c));
  }
  // A misaligned complex operand must not reach mgblas's kernels.
  if constexpr (is_complex_v<T>) {
    const T* odd = reinterpret_cast<const T*>(reinterpret_cast<const char*>(buf.data()) + 4);
    const auto c = l2::choose_gemv<T>(Op::N, 8, 8, odd, 8, buf.data(), 1, buf.data(), 1);
    EXPECT_EQ(c.engine, l2::Engine::Cublas) << l2::chosen_engine(c);
  }
}

}  // namespace
}  // namespace mgblas::testing
