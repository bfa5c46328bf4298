// SPDX-License-Identifier: BSD-3-Clause
// The C entries of the eigen-solver (mgblas_dsyevd_mgpu, mgblas_zheevd_mgpu and their _ex
// forms, generated from the manifest with its roles range, int_out and matrix_opt) on
// host devices and MPI ranks: A Z = Z diag(w) and Z^H Z = I on the gathered results for
// both triangles, w against LAPACK's, the index and value subsets (Z's columns past m
// untouched), values only (Z NULL), empty value intervals, the options reaching the
// solver, and bad arguments (one rank's, or every rank's) failing on every rank with
// their name, the outputs untouched.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include <mgblas/mgblas.h>

#include "core/context.hpp"
#include "tests/dist/c_host_context.hpp"
#include "tests/dist/dist_test_helpers.hpp"
#include "tests/dist/host_contexts.hpp"
#include "tests/lapack/tridiag_check.hpp"

namespace {

using namespace mgblas;
namespace mt = mgblas::testing;
namespace td = mgblas::testing::dist;
namespace tl = mgblas::testing::lapack;
using td::HostContexts;

constexpr double kSentinel = 7.0;  // Z's entries before a call (columns past m keep it)

template <typename T>
bool enabled() {
  return precision_enabled(data_type_of<T>());
}

// The C entry of precision T (d: syevd, z: heevd): the _ex form where opts is given.
template <typename T>
mgblas_status_t c_heevd(mgblas_context_t ctx, char uplo, mgblas_matrix_t A, int range, double vl,
                        double vu, int64_t il, int64_t iu, int64_t* m, real_type_t<T>* w,
                        mgblas_matrix_t Z, const mgblas_reduction_options_t* opts = nullptr) {
  const auto u = static_cast<mgblas_uplo_t>(uplo);
  const auto r = static_cast<mgblas_range_t>(range);
  if constexpr (std::is_same_v<T, double>)
    return opts ? mgblas_dsyevd_mgpu_ex(ctx, u, A, r, vl, vu, il, iu, m, w, Z, opts)
                : mgblas_dsyevd_mgpu(ctx, u, A, r, vl, vu, il, iu, m, w, Z);
  else
    return opts ? mgblas_zheevd_mgpu_ex(ctx, u, A, r, vl, vu, il, iu, m, w, Z, opts)
                : mgblas_zheevd_mgpu(ctx, u, A, r, vl, vu, il, iu, m, w, Z);
}

// A C matrix handle destroyed at scope exit and when replaced, so that a failed ASSERT
// leaves nothing behind (destroying is local, not collective).
struct CMatrix {
  mgblas_matrix_t h = nullptr;
  CMatrix() = default;
  explicit CMatrix(mgblas_matrix_t m) : h(m) {}
  CMatrix(CMatrix&& o) noexcept : h(std::exchange(o.h, nullptr)) {}
  CMatrix& operator=(CMatrix&& o) noexcept {
    std::swap(h, o.h);
    return *this;
  }
  ~CMatrix() { mgblas_matrix_destroy(h); }
  operator mgblas_matrix_t() const { return h; }
};

template <typename T>
mgblas_precision_t c_precision() {
  return std::is_same_v<T, double> ? MGBLAS_PREC_D : MGBLAS_PREC_Z;
}

// A random Hermitian n x n matrix (the same on every rank), its LAPACK eigenvalues, and
// the C context with its C++ communicator for the verdicts.
template <typename T>
struct Problem {
  using R = real_type_t<T>;
  td::CHostContext owner;  // 2 host devices per rank
  std::shared_ptr<Context> ctx = HostContexts::all()[0];
  int64_t n, nb;
  std::vector<T> A;
  std::vector<R> ref;

  Problem(int64_t n_, int64_t nb_) : n(n_), nb(nb_) {
    auto rng = mt::make_rng();
    A = tl::random_hermitian<T>(n, rng, false);
    ctx->comm().bcast(A.data(), A.size() * sizeof(T), 0);
    EXPECT_EQ(tl::eigenvalues<T>(n, A, ref), 0);
  }
  mgblas_context_t c() const { return owner.ctx; }
  // A fresh distributed copy of A (the solver overwrites it).
  CMatrix matrix() const {
    mgblas_matrix_t h = nullptr;
    EXPECT_EQ(mgblas_matrix_create(c(), c_precision<T>(), n, n, nb, &h), MGBLAS_SUCCESS)
        << mgblas_last_error();
    EXPECT_EQ(mgblas_matrix_distribute(c(), h, A.data(), n, 0), MGBLAS_SUCCESS);
    return CMatrix(h);
  }
  // An n x k matrix of block size nbz filled with kSentinel.
  CMatrix vectors(int64_t k, int64_t nbz) const {
    mgblas_matrix_t h = nullptr;
    EXPECT_EQ(mgblas_matrix_create(c(), c_precision<T>(), n, k, nbz, &h), MGBLAS_SUCCESS)
        << mgblas_last_error();
    const std::vector<T> fill(static_cast<std::size_t>(n * std::max<int64_t>(k, 1)), T(kSentinel));
    EXPECT_EQ(mgblas_matrix_distribute(c(), h, fill.data(), n, 0), MGBLAS_SUCCESS);
    return CMatrix(h);
  }
  std::vector<T> collect(mgblas_matrix_t h, int64_t k) const {
    std::vector<T> out(static_cast<std::size_t>(n * std::max<int64_t>(k, 1)));
    EXPECT_EQ(mgblas_matrix_collect(c(), h, out.data(), n, -1), MGBLAS_SUCCESS);
    return out;
  }
  bool everywhere(bool ok, const std::string& why) const { return td::everywhere(*ctx, ok, why); }
};

//  +-------------------------------------------------------------------------------+
//  |  residual   = max_j || A z_j - w_j z_j ||_1 / (n ||A||_1 eps)                  |
//  |  orthogonal = || I - Z_m^H Z_m ||_1 / (n eps)                                  |
//  |  values     = max_j | w_j - LAPACK's w_(first + j) | / (n ||A||_1 eps)         |
//  |  Z_m: Z's first m columns; Z's columns m..K-1 must still hold the sentinel.   |
//  +-------------------------------------------------------------------------------+
struct Errors {
  double residual = 0, orthogonal = 0, values = 0;
  bool rest_untouched = true;
  bool fine() const { return residual < 30 && orthogonal < 30 && values < 30 && rest_untouched; }
  std::string text() const {
    return "residual " + std::to_string(residual) + ", orthogonal " + std::to_string(orthogonal) +
           ", values " + std::to_string(values) +
           (rest_untouched ? "" : ", columns past m written");
  }
};

template <typename T>
Errors check(const Problem<T>& p, int64_t m, const std::vector<real_type_t<T>>& w, int64_t first,
             const std::vector<T>* Z, int64_t K) {
  const int64_t n = p.n;
  const double e = mt::eps<T>(), anorm = std::max(tl::norm1(n, p.A), 1e-300);
  Errors err;
  for (int64_t j = 0; j < m; ++j)
    err.values = std::max(err.values, std::abs(double(w[j]) - double(p.ref[first + j])) /
                                          (double(n) * anorm * e));
  if (!Z) return err;
  const auto z = [&](int64_t i, int64_t j) { return (*Z)[i + j * n]; };
  for (int64_t j = 0; j < m; ++j) {
    double r = 0;
    for (int64_t i = 0; i < n; ++i) {
      T s = -T(w[j]) * z(i, j);
      for (int64_t k = 0; k < n; ++k) s += p.A[i + k * n] * z(k, j);
      r += std::abs(s);
    }
    err.residual = std::max(err.residual, r / (double(n) * anorm * e));
  }
  for (int64_t j = 0; j < m; ++j) {
    double col = 0;
    for (int64_t i = 0; i < m; ++i) {
      T s = i == j ? T(-1) : T(0);
      for (int64_t k = 0; k < n; ++k) s += conj(z(k, i)) * z(k, j);
      col += std::abs(s);
    }
    err.orthogonal = std::max(err.orthogonal, col / (double(n) * e));
  }
  for (int64_t j = m; j < K; ++j)
    for (int64_t i = 0; i < n; ++i) err.rest_untouched &= z(i, j) == T(kSentinel);
  return err;
}

template <typename T>
class Heevd_CApi : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!enabled<T>())
      GTEST_SKIP() << "precision not built; MGBLAS_PRECISIONS = " << enabled_precisions();
  }
};
using CScalars = ::testing::Types<double, zcomplex>;  // one real, one complex
TYPED_TEST_SUITE(Heevd_CApi, CScalars, mt::PrecisionName);

// Every eigenpair, both triangles, with vectors (Z of another nb than A) and without.
TYPED_TEST(Heevd_CApi, AllEigenpairsBothTriangles) {
  using T = TypeParam;
  using R = real_type_t<T>;
  Problem<T> p(57, 8);
  const int64_t n = p.n;
  for (char uplo : {'L', 'U'}) {
    CMatrix A = p.matrix(), Z = p.vectors(n, 16);
    std::vector<R> w(n, -1);
    int64_t m = -1;
    ASSERT_EQ(c_heevd<T>(p.c(), uplo, A, MGBLAS_RANGE_ALL, 0, 0, 0, 0, &m, w.data(), Z),
              MGBLAS_SUCCESS) << mgblas_last_error();
    const std::vector<T> Zh = p.collect(Z, n);
    const Errors err = check(p, m, w, 0, &Zh, n);
    EXPECT_TRUE(p.everywhere(m == n && err.fine(), std::string("uplo ") + uplo + ": m = " +
                                                        std::to_string(m) + ", " + err.text()));
    // Values only: Z NULL; the same values.
    A = p.matrix();
    std::vector<R> v(n, -1);
    m = -1;
    ASSERT_EQ(c_heevd<T>(p.c(), uplo, A, 'a', 0, 0, 0, 0, &m, v.data(), nullptr), MGBLAS_SUCCESS)
        << mgblas_last_error();
    const Errors ev = check(p, m, v, 0, static_cast<const std::vector<T>*>(nullptr), 0);
    EXPECT_TRUE(p.everywhere(m == n && ev.fine(), "values only: " + ev.text()));
  }
}

// range I: il..iu (0-based, inclusive) into a Z of exactly iu - il + 1 columns, and into
// a wider one whose other columns stay; range V: (vl, vu] with bounds in the gaps of the
// spectrum, so the count is known; both triangles.
TYPED_TEST(Heevd_CApi, IndexAndValueSubsets) {
  using T = TypeParam;
  using R = real_type_t<T>;
  Problem<T> p(50, 8);
  const int64_t n = p.n, il = 3, iu = 11, k = iu - il + 1;
  for (char uplo : {'L', 'U'}) {
    for (int64_t K : {k, k + 5}) {
      CMatrix A = p.matrix(), Z = p.vectors(K, 4);
      std::vector<R> w(n, -1);
      int64_t m = -1;
      ASSERT_EQ(c_heevd<T>(p.c(), uplo, A, MGBLAS_RANGE_INDEX, 0, 0, il, iu, &m, w.data(), Z),
                MGBLAS_SUCCESS) << mgblas_last_error();
      const std::vector<T> Zh = p.collect(Z, K);
      const Errors err = check(p, m, w, il, &Zh, K);
      EXPECT_TRUE(p.everywhere(m == k && err.fine(), "range I, K = " + std::to_string(K) +
                                                         ": m = " + std::to_string(m) + ", " +
                                                         err.text()));
    }
    // (vl, vu] holding the eigenvalues 5..20 of the ascending order.
    const double vl = (double(p.ref[4]) + double(p.ref[5])) / 2;
    const double vu = (double(p.ref[20]) + double(p.ref[21])) / 2;
    CMatrix A = p.matrix(), Z = p.vectors(n, 8);
    std::vector<R> w(n, -1);
    int64_t m = -1;
    ASSERT_EQ(c_heevd<T>(p.c(), uplo, A, 'V', vl, vu, 0, 0, &m, w.data(), Z), MGBLAS_SUCCESS)
        << mgblas_last_error();
    const std::vector<T> Zh = p.collect(Z, n);
    const Errors err = check(p, m, w, 5, &Zh, n);
    EXPECT_TRUE(p.everywhere(m == 16 && err.fine(),
                             "range V: m = " + std::to_string(m) + ", " + err.text()));
  }
}

// An interval holding no eigenvalue (beyond the spectrum, and in a gap): m = 0, success,
// w and Z untouched, with and without vectors.
TYPED_TEST(Heevd_CApi, EmptyValueRange) {
  using T = TypeParam;
  using R = real_type_t<T>;
  Problem<T> p(33, 4);
  const int64_t n = p.n;
  const double gap = (double(p.ref[9]) + double(p.ref[10])) / 2;
  const double width = (double(p.ref[10]) - double(p.ref[9])) / 8;
  const std::pair<double, double> intervals[] = {{2.0 * n, 4.0 * n}, {gap - width, gap + width}};
  for (const auto& [vl, vu] : intervals)
    for (bool vectors : {true, false}) {
      CMatrix A = p.matrix(), Z = vectors ? p.vectors(n, 8) : CMatrix();
      std::vector<R> w(n, -1);
      int64_t m = -1;
      ASSERT_EQ(c_heevd<T>(p.c(), 'L', A, MGBLAS_RANGE_VALUE, vl, vu, 0, 0, &m, w.data(), Z),
                MGBLAS_SUCCESS) << mgblas_last_error();
      bool untouched = std::all_of(w.begin(), w.end(), [](R v) { return v == R(-1); });
      if (vectors) {
        const std::vector<T> Zh = p.collect(Z, n);
        untouched &= check(p, 0, w, 0, &Zh, n).rest_untouched;
      }
      EXPECT_TRUE(p.everywhere(m == 0 && untouched, "empty (" + std::to_string(vl) + ", " +
                                                        std::to_string(vu) + "]: m = " +
                                                        std::to_string(m)));
    }
}

// Bad arguments fail on every rank before anything is written: rank 0's alone (range 'X',
// NULL w, NULL m, a Z of another precision, NULL A), or every rank's (il > iu, iu >= n,
// vl >= vu, a NaN bound, a Z too narrow for range I, opts.pass).
TYPED_TEST(Heevd_CApi, BadArgumentsFailEverywhere) {
  using T = TypeParam;
  using R = real_type_t<T>;
  Problem<T> p(20, 4);
  const int64_t n = p.n;
  const bool root = p.ctx->rank() == 0;
  CMatrix A = p.matrix(), Z = p.vectors(n, 4);
  std::vector<R> w(n, -1);
  int64_t m = -1;
  const auto untouched = [&] {
    return m == -1 && std::all_of(w.begin(), w.end(), [](R v) { return v == R(-1); });
  };
  // rank 0 alone
  int range = root ? 'X' : 'A';
  EXPECT_TRUE(td::c_error_everywhere(
      *p.ctx, c_heevd<T>(p.c(), 'L', A, range, 0, 0, 0, 0, &m, w.data(), Z), "'range'",
      untouched()));
  EXPECT_TRUE(td::c_error_everywhere(
      *p.ctx, c_heevd<T>(p.c(), 'L', A, 'A', 0, 0, 0, 0, &m, root ? nullptr : w.data(), Z),
      "'w'", untouched()));
  EXPECT_TRUE(td::c_error_everywhere(
      *p.ctx, c_heevd<T>(p.c(), 'L', A, 'A', 0, 0, 0, 0, root ? nullptr : &m, w.data(), Z),
      "'m'", untouched()));
  EXPECT_TRUE(td::c_error_everywhere(
      *p.ctx, c_heevd<T>(p.c(), 'L', root ? nullptr : A.h, 'A', 0, 0, 0, 0, &m, w.data(), Z),
      "'A'", untouched()));
  CMatrix other;  // a Z of the other precision
  ASSERT_EQ(mgblas_matrix_create(p.c(), std::is_same_v<T, double> ? MGBLAS_PREC_Z : MGBLAS_PREC_D,
                                 n, n, 4, &other.h), MGBLAS_SUCCESS);
  EXPECT_TRUE(td::c_error_everywhere(
      *p.ctx, c_heevd<T>(p.c(), 'L', A, 'A', 0, 0, 0, 0, &m, w.data(), root ? other.h : Z.h), "'Z'",
      untouched()));
  // every rank: the status and the message on each
  const auto fails = [&](mgblas_status_t want, const char* name, int r, double vl, double vu,
                         int64_t il, int64_t iu, mgblas_matrix_t z,
                         const mgblas_reduction_options_t* opts, const std::string& what) {
    const mgblas_status_t st = c_heevd<T>(p.c(), 'L', A, r, vl, vu, il, iu, &m, w.data(), z, opts);
    const std::string msg = mgblas_last_error();
    return p.everywhere(st == want && msg.find(name) != std::string::npos && untouched(),
                        what + ": status " + std::to_string(st) + ", '" + msg + "'");
  };
  const auto B = MGBLAS_ERROR_BAD_ARGUMENT;
  EXPECT_TRUE(fails(B, "'range'", 'I', 0, 0, 5, 4, Z, nullptr, "il > iu"));
  EXPECT_TRUE(fails(B, "'range'", 'I', 0, 0, 0, n, Z, nullptr, "iu = n"));
  EXPECT_TRUE(fails(B, "'range'", 'I', 0, 0, -1, 2, nullptr, nullptr, "il < 0, values only"));
  EXPECT_TRUE(fails(B, "'range'", 'V', 1.0, 1.0, 0, 0, Z, nullptr, "vl = vu"));
  EXPECT_TRUE(fails(B, "'range'", 'V', 2.0, -2.0, 0, 0, nullptr, nullptr, "vl > vu"));
  EXPECT_TRUE(fails(B, "'range'", 'V', std::nan(""), 1.0, 0, 0, Z, nullptr, "NaN vl"));
  EXPECT_TRUE(fails(B, "'range'", 0, 0, 0, 0, 0, Z, nullptr, "range 0"));
  const CMatrix narrow = p.vectors(3, 4);
  EXPECT_TRUE(fails(MGBLAS_ERROR_DIMENSION_MISMATCH, "'Z'", 'I', 0, 0, 2, 5, narrow, nullptr,
                    "Z 3 columns for 4 eigenpairs"));
  mgblas_reduction_options_t bad{};
  bad.pass = MGBLAS_GEBRD_PASS_TWO;
  EXPECT_TRUE(fails(B, "opts.pass", 'A', 0, 0, 0, 0, Z, &bad, "opts.pass"));
  bad = {};
  bad.transport = static_cast<mgblas_transport_t>(5);
  EXPECT_TRUE(fails(B, "opts.transport", 'A', 0, 0, 0, 0, Z, &bad, "opts.transport"));
  // The bounds of the other kinds are not read: garbage il, iu, vl, vu with range A.
  ASSERT_EQ(c_heevd<T>(p.c(), 'U', A, 'A', 5.0, -5.0, 9, 2, &m, w.data(), nullptr),
            MGBLAS_SUCCESS) << mgblas_last_error();
  EXPECT_TRUE(p.everywhere(m == n, "range A with another kind's bounds"));
}

// mgblas_<p>heevd_mgpu_ex: a panel and the host transport reach both steps (the same
// results), the profile is added to (the reduction's phases, the whole call's total);
// stages and band reach the eigenvalues-only path.
TYPED_TEST(Heevd_CApi, OptionsOfTheExEntry) {
  using T = TypeParam;
  using R = real_type_t<T>;
  Problem<T> p(41, 16);
  const int64_t n = p.n;
  CMatrix A = p.matrix(), Z = p.vectors(n, 16);
  mgblas_reduction_profile_t prof{0, 0, 0, 0, 1.0};
  mgblas_reduction_options_t opts{};
  opts.panel = 4;
  opts.transport = MGBLAS_TRANSPORT_HOST;
  opts.profile = &prof;
  std::vector<R> w(n, -1);
  int64_t m = -1;
  ASSERT_EQ(c_heevd<T>(p.c(), 'L', A, 'I', 0, 0, 0, n - 1, &m, w.data(), Z, &opts),
            MGBLAS_SUCCESS) << mgblas_last_error();
  const std::vector<T> Zh = p.collect(Z, n);
  const Errors err = check(p, m, w, 0, &Zh, n);
  EXPECT_TRUE(p.everywhere(m == n && err.fine(), "_ex: " + err.text()));
  EXPECT_TRUE(p.everywhere(prof.total > 1.0 && prof.products > 0 && prof.update > 0 &&
                               prof.total - 1.0 >= prof.products + prof.panel + prof.comm +
                                                       prof.update,
                           "profile: total " + std::to_string(prof.total)));
  // opts.stages and opts.band: the values through the two-stage reduction (band 4) and
  // through the one-stage one, both LAPACK's; a stages value outside the enum fails.
  for (mgblas_stages_t stages : {MGBLAS_STAGES_TWO, MGBLAS_STAGES_ONE}) {
    mgblas_reduction_options_t st{};
    st.stages = stages;
    st.band = 4;
    A = p.matrix();
    std::vector<R> v(n, -1);
    m = -1;
    ASSERT_EQ(c_heevd<T>(p.c(), 'U', A, 'A', 0, 0, 0, 0, &m, v.data(), nullptr, &st),
              MGBLAS_SUCCESS) << mgblas_last_error();
    const Errors ev = check(p, m, v, 0, static_cast<const std::vector<T>*>(nullptr), 0);
    EXPECT_TRUE(p.everywhere(m == n && ev.fine(),
                             "stages " + std::to_string(static_cast<int>(stages)) + ": " +
                                 ev.text()));
  }
  mgblas_reduction_options_t bad_stages{};
  bad_stages.stages = static_cast<mgblas_stages_t>(7);
  A = p.matrix();
  m = -1;
  const mgblas_status_t sst =
      c_heevd<T>(p.c(), 'L', A, 'A', 0, 0, 0, 0, &m, w.data(), nullptr, &bad_stages);
  EXPECT_TRUE(p.everywhere(sst == MGBLAS_ERROR_BAD_ARGUMENT && m == -1 &&
                               std::string(mgblas_last_error()).find("opts.stages") !=
                                   std::string::npos,
                           std::string("stages 7: ") + mgblas_last_error()));
  opts.panel = 3;  // not a divisor of nb = 16
  opts.profile = nullptr;
  A = p.matrix();
  m = -1;
  const mgblas_status_t st = c_heevd<T>(p.c(), 'L', A, 'A', 0, 0, 0, 0, &m, w.data(), Z, &opts);
  EXPECT_TRUE(p.everywhere(st == MGBLAS_ERROR_BAD_ARGUMENT && m == -1 &&
                               std::string(mgblas_last_error()).find("panel") != std::string::npos,
                           std::string("panel 3: ") + mgblas_last_error()));
}

}  // namespace
