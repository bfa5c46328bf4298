// SPDX-License-Identifier: BSD-3-Clause
// The host engine's column kernels (kernels/column_kernels.hpp) through their per-device
// entries (kernels/columns.hpp), on fresh random block-cyclic shapes: gathers, scatters
// and the final sum against a walk over every global column, the SYMV/HEMV share summed
// over all devices against a dense product written out as loops, the row blocks of a
// 2-D redistribution against BlockCyclic2D's index arithmetic.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <complex>
#include <cstdint>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "core/device.hpp"
#include "core/error.hpp"
#include "kernels/columns.hpp"
#include "layouts/block_cyclic.hpp"
#include "layouts/block_cyclic_2d.hpp"
#include "tests/kernels/host_test_helpers.hpp"
#include "tests/testing/testing.hpp"

namespace mgblas {
namespace {

using testing::TestScalars;

template <typename T>
class ColumnsHost : public testing::HostEngineTest<T> {};
TYPED_TEST_SUITE(ColumnsHost, TestScalars, testing::PrecisionName);

// A random square layout and a column c in [0, n] where a range starts.
struct RandomCase {
  BlockCyclic1D L;
  int64_t c;
  std::string text() const {
    return detail::concat("n=", L.n(), " nb=", L.nb(), " P=", L.num_devices(),
                          " first=", L.first(), " c=", c);
  }
};
RandomCase random_case(std::mt19937_64& rng, int64_t max_n) {
  const int P = std::uniform_int_distribution<int>(1, 5)(rng);
  const int first = std::uniform_int_distribution<int>(0, P - 1)(rng);
  const int64_t n = std::uniform_int_distribution<int64_t>(0, max_n)(rng);
  const int64_t nb = std::uniform_int_distribution<int64_t>(1, 24)(rng);
  return {BlockCyclic1D(n, n, nb, P, first), std::uniform_int_distribution<int64_t>(0, n)(rng)};
}

// +-----------------------------------------------------------------------------------+
// | finish_sum:  y_i = s_i + beta y_i  (s = null: 0; beta = 0: y_i = s_i, NaN in y    |
// | not read).  Exact: one operation per entry, as the formula.                       |
// +-----------------------------------------------------------------------------------+
TYPED_TEST(ColumnsHost, FinishSum) {
  using T = TypeParam;
  auto rng = testing::make_rng();
  for (int rep = 0; rep < 20; ++rep) {
    const int64_t n = std::uniform_int_distribution<int64_t>(0, 100)(rng);
    const bool zero_beta = rep % 3 == 0, null_s = rep % 4 == 1;
    const T beta = zero_beta ? T(0) : testing::random_scalar<T>(rng);
    const auto s = testing::random_vector<T>(n, rng);
    auto y = testing::random_vector<T>(n, rng);
    if (zero_beta) std::fill(y.begin(), y.end(), testing::nan_value<T>());
    const auto y0 = y;
    finish_sum<T>(*this->dev_, n, null_s ? nullptr : s.data(), beta, y.data());
    for (int64_t i = 0; i < n; ++i) {
      const T si = null_s ? T(0) : s[i];
      EXPECT_EQ(y[i], zero_beta ? si : si + beta * y0[i]) << "i=" << i;
    }
  }
}

// +-----------------------------------------------------------------------------------+
// | gather:  out_t = x[j_t - c0], j_t the t-th column >= c0 that device g owns         |
// | (walking every column).  scatter of every device's gathered piece (padded to       |
// | stride) with beta:  y_i = x_i + beta y0_i for every i (each column once);          |
// | scatter of one device's piece: its entries set, the others untouched.              |
// +-----------------------------------------------------------------------------------+
TYPED_TEST(ColumnsHost, GatherScatter) {
  using T = TypeParam;
  auto rng = testing::make_rng();
  const Queue q(*this->dev_);
  for (int rep = 0; rep < 40; ++rep) {
    const RandomCase rc = random_case(rng, 200);
    SCOPED_TRACE(rc.text());
    const BlockCyclic1D& L = rc.L;
    const int64_t n = L.n(), c0 = rc.c;
    const auto x = testing::random_vector<T>(n - c0, rng);
    const int64_t stride = max_local_count(L, c0);
    std::vector<T> gathered(static_cast<size_t>(stride * L.num_devices()),
                            testing::nan_value<T>());
    std::vector<LocalColumns> cols;
    for (int g = 0; g < L.num_devices(); ++g) {
      cols.push_back(local_columns(L, g, c0, n));
      gather_columns<T>(q, cols.back(), x.data(), c0, gathered.data() + g * stride);
      int64_t t = 0;
      for (int64_t j = c0; j < n; ++j)
        if (L.owner(j) == g) EXPECT_EQ(gathered[g * stride + t++], x[j - c0]) << "j=" << j;
      EXPECT_EQ(t, cols.back().count());
    }

    const T beta = rep % 2 ? T(0) : testing::random_scalar<T>(rng);
    auto y = testing::random_vector<T>(n - c0, rng);
    if (beta == T(0)) std::fill(y.begin(), y.end(), testing::nan_value<T>());
    const auto y0 = y;
    scatter_columns<T>(q, cols, gathered.data(), stride, c0, beta, y.data());
    for (int64_t i = 0; i < n - c0; ++i)
      EXPECT_EQ(y[i], beta == T(0) ? x[i] : x[i] + beta * y0[i]) << "i=" << i;

    const int g = std::uniform_int_distribution<int>(0, L.num_devices() - 1)(rng);
    auto z = testing::random_vector<T>(n - c0, rng);
    const auto z0 = z;
    scatter_columns<T>(q, std::span(&cols[g], 1), gathered.data() + g * stride, 0, c0, T(0),
                       z.data());
    for (int64_t j = c0; j < n; ++j)
      EXPECT_EQ(z[j - c0], L.owner(j) == g ? x[j - c0] : z0[j - c0]) << "j=" << j;
  }
}

// +-----------------------------------------------------------------------------------+
// | Sum over devices g of symv_columns(g's columns of [off, n)) = alpha S x, S =       |
// | A(off:n, off:n) symmetric / Hermitian from its uplo triangle, y starting at 0:     |
// |   err = ||y - y_ref|| / ((n |alpha| ||S|| ||x||) eps) <= tol                       |
// | with y_ref from loops over the stored triangle. Local storage gets NaN outside     |
// | the stored triangle and in its padding, which must not be read. Every other case  |
// | also asks for quad: summed over the devices, x^H y_ref, within the same bound      |
// | times ||x||.                                                                       |
// +-----------------------------------------------------------------------------------+
TYPED_TEST(ColumnsHost, SymvColumnsSum) {
  using T = TypeParam;
  auto rng = testing::make_rng();
  const Queue q(*this->dev_);
  for (int rep = 0; rep < 24; ++rep) {
    const RandomCase rc = random_case(rng, 120);
    const BlockCyclic1D& L = rc.L;
    const int64_t n = L.n(), off = rc.c;
    const Uplo uplo = rep % 2 ? Uplo::Upper : Uplo::Lower;
    const bool herm = rep % 4 >= 2;
    const bool lower = uplo == Uplo::Lower;
    SCOPED_TRACE(rc.text() + (herm ? " hemv" : " symv") + (lower ? " lower" : " upper"));
    const int64_t ld = std::max<int64_t>(1, n) + 3;
    std::vector<T> A(static_cast<size_t>(ld * std::max<int64_t>(1, n)));
    for (auto& a : A) a = testing::random_value<T>(rng);
    const auto stored = [&](int64_t r, int64_t c) { return lower ? r >= c : r <= c; };
    const auto entry = [&](int64_t r, int64_t c) {  // S(r, c) from the stored triangle
      if (stored(r, c)) return r == c && herm ? T(std::real(A[r + c * ld])) : A[r + c * ld];
      const T a = A[c + r * ld];
      return herm ? conj(a) : a;
    };
    const int64_t len = n - off;
    const auto x = testing::random_vector<T>(len, rng);
    const T alpha = testing::random_scalar<T>(rng);
    std::vector<T> ref(len, T(0));
    double normS = 0;
    for (int64_t c = off; c < n; ++c)
      for (int64_t r = off; r < n; ++r) {
        ref[r - off] += alpha * entry(r, c) * x[c - off];
        normS += std::norm(entry(r, c));
      }
    normS = std::sqrt(normS);

    std::vector<T> y(len, T(0));
    const bool with_quad = rep % 3 != 0;
    T quad(0), quad_ref(0);
    for (int64_t i = 0; i < len; ++i) quad_ref += conj(x[i]) * ref[i];
    for (int g = 0; g < L.num_devices(); ++g) {
      const int64_t ln = L.local_n(g);
      std::vector<T> Al(static_cast<size_t>(ld * std::max<int64_t>(1, ln)),
                        testing::nan_value<T>());
      for (int64_t jl = 0; jl < ln; ++jl) {
        const int64_t c = L.global_col(g, jl);
        for (int64_t r = 0; r < n; ++r)
          if (stored(r, c)) Al[r + jl * ld] = A[r + c * ld];
      }
      symv_columns<T>(q, uplo, herm, n, off, local_columns(L, g, off, n), alpha, Al.data(), ld,
                      x.data(), y.data(), SymvColumns::Tiles, with_quad ? &quad : nullptr);
    }
    const double normx = testing::norm_vec(len, x.data());
    const double scale =
        std::max<int64_t>(1, len) * std::abs(alpha) * normS * normx * testing::eps<T>() + 1e-300;
    const double err = testing::norm_diff(len, y.data(), 1, ref.data(), 1) / scale;
    EXPECT_LE(err, testing::error_tolerance<T>());
    if (with_quad) {
      EXPECT_LE(std::abs(quad - quad_ref) / (scale * normx + 1e-300), testing::error_tolerance<T>())
          << "quad " << quad << " against x^H y_ref " << quad_ref;
    } else {
      EXPECT_EQ(quad, T(0));
    }
    for (int64_t i = 0; i < len; ++i) EXPECT_FALSE(testing::is_nan(y[i])) << "i=" << i;
  }
}

// +-----------------------------------------------------------------------------------+
// | max_magnitude = max over entries of max(|Re a|, |Im a|), NaN when one is NaN;      |
// | range_scale: A times a power of two 2^-e when that maximum is outside              |
// | [sqrt(safmin)/eps, eps/sqrt(safmin)] (e its exponent), and back exactly with       |
// | inverse; untouched inside the range. Exact comparisons: powers of two.            |
// +-----------------------------------------------------------------------------------+
TYPED_TEST(ColumnsHost, MaxMagnitudeAndRangeScale) {
  using T = TypeParam;
  using R = real_type_t<T>;
  auto rng = testing::make_rng();
  const Queue q(*this->dev_);
  const bool single = sizeof(R) == 4;
  for (double scale : {1.0, single ? 1e30 : 1e300, single ? 1e-30 : 1e-300}) {
    const int64_t rows = 23, cols = 7, ld = 25;
    std::vector<T> A = testing::random_vector<T>(static_cast<std::size_t>(ld * cols), rng);
    for (T& a : A) a *= static_cast<R>(scale);
    R want = 0;
    for (int64_t j = 0; j < cols; ++j)
      for (int64_t i = 0; i < rows; ++i)
        want = std::max({want, std::abs(std::real(A[i + j * ld])), std::abs(std::imag(A[i + j * ld]))});
    R got = -1;
    max_magnitude<T>(q, rows, cols, A.data(), ld, &got);
    EXPECT_EQ(got, want) << "scale " << scale;
    const R maxima[2] = {R(0), got};
    std::vector<T> B = A;
    range_scale<T>(q, rows, cols, 2, maxima, false, B.data(), ld);
    if (scale == 1.0) {
      EXPECT_EQ(B, A);
    } else {
      const R f = std::real(B[0]) / std::real(A[0]);
      EXPECT_EQ(f, std::exp2(-std::ilogb(got))) << "scale " << scale;
      R scaled = 0;
      max_magnitude<T>(q, rows, cols, B.data(), ld, &scaled);
      EXPECT_TRUE(scaled >= R(1) && scaled < R(2)) << scaled;
    }
    range_scale<T>(q, rows, cols, 2, maxima, true, B.data(), ld);
    EXPECT_EQ(B, A) << "scaled back exactly";
    A[5 + 3 * ld] = testing::nan_value<T>();
    max_magnitude<T>(q, rows, cols, A.data(), ld, &got);
    EXPECT_TRUE(std::isnan(got));
  }
}

// +-----------------------------------------------------------------------------------+
// | copy_row_blocks: the rows of process row pr of a 2-D block-cyclic layout, in      |
// | columns cols[c] of A, to and from packed columns; a row's place from              |
// | BlockCyclic2D::global_row (ScaLAPACK's indxl2g), not from the kernel's formula.   |
// +-----------------------------------------------------------------------------------+
TYPED_TEST(ColumnsHost, CopyRowBlocks) {
  using T = TypeParam;
  auto rng = testing::make_rng();
  const Queue q(*this->dev_);
  auto pick = [&](int64_t lo, int64_t hi) {
    return std::uniform_int_distribution<int64_t>(lo, hi)(rng);
  };
  for (int trial = 0; trial < 40; ++trial) {
    const int64_t m = pick(0, 90), mb = pick(1, 12), ncols = pick(1, 9), ld = m + pick(1, 3);
    const int nprow = static_cast<int>(pick(1, 4)), rsrc = static_cast<int>(pick(0, nprow - 1));
    const int pr = static_cast<int>(pick(0, nprow - 1));
    const BlockCyclic2D D(m, 1, mb, 1, nprow, 1, rsrc, 0);
    const int64_t rows = D.local_rows(pr);
    const int phase = (pr - rsrc + nprow) % nprow;
    // Distinct columns in a random order.
    std::vector<int64_t> cols(static_cast<std::size_t>(ncols));
    for (int64_t c = 0; c < ncols; ++c) cols[c] = c;
    std::shuffle(cols.begin(), cols.end(), rng);
    cols.resize(static_cast<std::size_t>(pick(1, ncols)));
    const auto count = static_cast<int64_t>(cols.size());
    const std::string where = detail::concat("m=", m, " mb=", mb, " nprow=", nprow, " rsrc=",
                                             rsrc, " pr=", pr, " count=", count);

    std::vector<T> A = testing::random_vector<T>(static_cast<std::size_t>(ld * ncols), rng);
    std::vector<T> packed(static_cast<std::size_t>(std::max<int64_t>(1, count * rows)));
    copy_row_blocks<T>(q, count, rows, mb, nprow, phase, cols.data(), packed.data(), A.data(), ld,
                       /*to_columns=*/false);
    for (int64_t c = 0; c < count; ++c)
      for (int64_t il = 0; il < rows; ++il)
        ASSERT_EQ(packed[c * rows + il], A[cols[c] * ld + D.global_row(pr, il)])
            << where << " c=" << c << " il=" << il;

    // Back into a fresh matrix: exactly those entries change.
    const std::vector<T> before = testing::random_vector<T>(A.size(), rng);
    std::vector<T> B = before;
    copy_row_blocks<T>(q, count, rows, mb, nprow, phase, cols.data(), packed.data(), B.data(), ld,
                       /*to_columns=*/true);
    std::vector<T> want = before;
    for (int64_t c = 0; c < count; ++c)
      for (int64_t il = 0; il < rows; ++il)
        want[cols[c] * ld + D.global_row(pr, il)] = packed[c * rows + il];
    ASSERT_EQ(B, want) << where;
  }
  // A row past the columns' end is refused by name.
  std::vector<T> A(8), packed(8);
  const int64_t col = 0;
  EXPECT_THROW(copy_row_blocks<T>(q, 1, 8, 2, 2, 1, &col, packed.data(), A.data(), 8, true),
               BadArgument);
}

}  // namespace
}  // namespace mgblas
