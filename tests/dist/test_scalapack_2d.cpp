// SPDX-License-Identifier: BSD-3-Clause
// The 2-D block-cyclic entries against ScaLAPACK itself (Debian's libscalapack; tests
// only): BLACS makes the process grid and the descriptor, ScaLAPACK's p?elset places a
// random matrix, and through the C API
//   - mgblas_desc2d_from_scalapack reads the descriptor, and the grid position it implies
//     for this rank is the one Cblacs_gridinfo reports;
//   - mgblas_matrix_import_2d gives the matrix ScaLAPACK holds, mgblas_matrix_export_2d
//     gives back ScaLAPACK's local arrays entry for entry;
//   - the eigenvalues of the imported matrix (?sytrd_mgpu / ?hetrd_mgpu, then
//     tridiag_eigenvalues_mgpu) match ScaLAPACK's p?syev / p?heev on the same local
//     arrays within 30 n eps ||A|| (square blocks: p?syev takes no others).
// Grids: every nprow x npcol that fits in the ranks (ranks past it included), row- and
// column-major, block sizes that do and do not divide n.
#include <gtest/gtest.h>

#include <mpi.h>

#include <algorithm>
#include <cmath>
#include <complex>
#include <cstdint>
#include <limits>
#include <string>
#include <tuple>
#include <type_traits>
#include <vector>

#include <mgblas/mgblas.h>

#include "tests/dist/c_host_context.hpp"
#include "tests/testing/testing.hpp"

extern "C" {
void Cblacs_get(int context, int what, int* value);
void Cblacs_gridinit(int* context, const char* order, int nprow, int npcol);
void Cblacs_gridinfo(int context, int* nprow, int* npcol, int* myrow, int* mycol);
void Cblacs_gridexit(int context);
void descinit_(int* desc, const int* m, const int* n, const int* mb, const int* nb,
               const int* irsrc, const int* icsrc, const int* ictxt, const int* lld, int* info);
int numroc_(const int* n, const int* nb, const int* iproc, const int* isrcproc,
            const int* nprocs);
void pdelset_(double* a, const int* ia, const int* ja, const int* desca, const double* alpha);
void pzelset_(std::complex<double>* a, const int* ia, const int* ja, const int* desca,
              const std::complex<double>* alpha);
void pdsyev_(const char* jobz, const char* uplo, const int* n, double* a, const int* ia,
             const int* ja, const int* desca, double* w, double* z, const int* iz,
             const int* jz, const int* descz, double* work, const int* lwork, int* info);
void pzheev_(const char* jobz, const char* uplo, const int* n, std::complex<double>* a,
             const int* ia, const int* ja, const int* desca, double* w,
             std::complex<double>* z, const int* iz, const int* jz, const int* descz,
             std::complex<double>* work, const int* lwork, double* rwork, const int* lrwork,
             int* info);
}

namespace {

namespace mt = mgblas::testing;
namespace td = mgblas::testing::dist;
using zcomplex = std::complex<double>;

double conj_of(double v) { return v; }
zcomplex conj_of(zcomplex v) { return std::conj(v); }

template <typename T> constexpr mgblas_precision_t prec_of();
template <> constexpr mgblas_precision_t prec_of<double>() { return MGBLAS_PREC_D; }
template <> constexpr mgblas_precision_t prec_of<zcomplex>() { return MGBLAS_PREC_Z; }

void elset(double* a, int i, int j, const int* desc, double v) { pdelset_(a, &i, &j, desc, &v); }
void elset(zcomplex* a, int i, int j, const int* desc, zcomplex v) {
  pzelset_(a, &i, &j, desc, &v);
}

// ScaLAPACK's eigenvalues of the matrix in `a` (destroyed), lower triangle.
std::vector<double> scalapack_eigenvalues(int n, double* a, const int* desc) {
  std::vector<double> w(n);
  const int one = 1;
  int lwork = -1, info = 0;
  double query = 0;
  pdsyev_("N", "L", &n, a, &one, &one, desc, w.data(), nullptr, &one, &one, desc, &query,
          &lwork, &info);
  lwork = static_cast<int>(query) + 1;
  std::vector<double> work(lwork);
  pdsyev_("N", "L", &n, a, &one, &one, desc, w.data(), nullptr, &one, &one, desc, work.data(),
          &lwork, &info);
  EXPECT_EQ(info, 0);
  return w;
}
std::vector<double> scalapack_eigenvalues(int n, zcomplex* a, const int* desc) {
  std::vector<double> w(n);
  const int one = 1;
  int lwork = -1, lrwork = -1, info = 0;
  zcomplex query = 0;
  double rquery = 0;
  pzheev_("N", "L", &n, a, &one, &one, desc, w.data(), nullptr, &one, &one, desc, &query,
          &lwork, &rquery, &lrwork, &info);
  lwork = static_cast<int>(query.real()) + 1;
  lrwork = std::max(static_cast<int>(rquery) + 1, 2 * n);
  std::vector<zcomplex> work(lwork);
  std::vector<double> rwork(lrwork);
  pzheev_("N", "L", &n, a, &one, &one, desc, w.data(), nullptr, &one, &one, desc, work.data(),
          &lwork, rwork.data(), &lrwork, &info);
  EXPECT_EQ(info, 0);
  return w;
}

mgblas_status_t reduce(mgblas_context_t ctx, mgblas_matrix_t A, double* d, double* e,
                       double* tau) {
  return mgblas_dsytrd_mgpu(ctx, MGBLAS_UPLO_LOWER, A, d, e, tau);
}
mgblas_status_t reduce(mgblas_context_t ctx, mgblas_matrix_t A, double* d, double* e,
                       zcomplex* tau) {
  return mgblas_zhetrd_mgpu(ctx, MGBLAS_UPLO_LOWER, A, d, e,
                            reinterpret_cast<mgblas_complex_double*>(tau));
}

struct Grid {
  int nprow, npcol;
  char order;
};

// One grid, one size: the checks of the file comment. Every rank calls it.
template <typename T>
void check_against_scalapack(mgblas_context_t ctx, const Grid& g, int n, int mb, int nb) {
  int me = 0, nranks = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &me);
  MPI_Comm_size(MPI_COMM_WORLD, &nranks);
  SCOPED_TRACE(::testing::Message() << "grid " << g.nprow << "x" << g.npcol << " " << g.order
                                    << ", n " << n << ", mb " << mb << ", nb " << nb);
  // A random Hermitian matrix, the same on every rank (the seed is the test's).
  auto rng = mt::make_rng();
  std::vector<T> A = mt::random_vector<T>(static_cast<std::size_t>(n) * n, rng);
  for (int j = 0; j < n; ++j)
    for (int i = 0; i <= j; ++i) {
      const T v = i == j ? T(std::real(A[i + j * n])) : A[i + j * n];
      A[i + j * n] = v;
      A[j + i * n] = conj_of(v);
    }

  // BLACS grid; ranks past it get context -1 and hold nothing.
  int blacs = 0;
  Cblacs_get(-1, 0, &blacs);
  Cblacs_gridinit(&blacs, g.order == 'R' ? "Row" : "Col", g.nprow, g.npcol);
  int nprow = -1, npcol = -1, myrow = -1, mycol = -1;
  if (blacs >= 0) Cblacs_gridinfo(blacs, &nprow, &npcol, &myrow, &mycol);
  const bool in_grid = blacs >= 0 && myrow >= 0;
  const int zero = 0;
  int locr = 0, locc = 0, desc[9] = {1, -1, n, n, mb, nb, 0, 0, 1}, info = 0;
  if (in_grid) {
    locr = numroc_(&n, &mb, &myrow, &zero, &nprow);
    locc = numroc_(&n, &nb, &mycol, &zero, &npcol);
    const int lld = std::max(1, locr) + 1;  // padded
    descinit_(desc, &n, &n, &mb, &nb, &zero, &zero, &blacs, &lld, &info);
    ASSERT_EQ(info, 0);
  }
  const int lld = desc[8];
  std::vector<T> local(static_cast<std::size_t>(std::max(1, lld * locc)), T(-7));
  if (in_grid)
    for (int j = 0; j < n; ++j)
      for (int i = 0; i < n; ++i) elset(local.data(), i + 1, j + 1, desc, A[i + j * n]);

  // The descriptor as mgblas reads it: the same grid position as BLACS's.
  mgblas_desc2d_t d2{};
  ASSERT_EQ(mgblas_desc2d_from_scalapack(desc, g.nprow, g.npcol, g.order, &d2), MGBLAS_SUCCESS)
      << mgblas_last_error();
  if (in_grid) {
    const int prow = g.order == 'R' ? me / g.npcol : me % g.nprow;
    const int pcol = g.order == 'R' ? me % g.npcol : me / g.nprow;
    EXPECT_EQ(prow, myrow);
    EXPECT_EQ(pcol, mycol);
  }

  // Import: the matrix ScaLAPACK holds.
  mgblas_matrix_t M = nullptr;
  ASSERT_EQ(mgblas_matrix_create(ctx, prec_of<T>(), n, n, 16, &M), MGBLAS_SUCCESS);
  ASSERT_EQ(mgblas_matrix_import_2d(ctx, M, &d2, in_grid ? local.data() : nullptr),
            MGBLAS_SUCCESS)
      << mgblas_last_error();
  std::vector<T> back(static_cast<std::size_t>(n) * n);
  ASSERT_EQ(mgblas_matrix_collect(ctx, M, back.data(), n, -1), MGBLAS_SUCCESS);
  EXPECT_EQ(back, A);

  // Export: ScaLAPACK's local arrays, padding untouched.
  std::vector<T> out(local.size(), T(-7));
  ASSERT_EQ(mgblas_matrix_export_2d(ctx, M, &d2, in_grid ? out.data() : nullptr),
            MGBLAS_SUCCESS)
      << mgblas_last_error();
  EXPECT_EQ(out, local);

  // Eigenvalues: mgblas on the imported matrix, ScaLAPACK on its own arrays.
  std::vector<double> dd(n), e(std::max(1, n - 1)), w(n);
  std::vector<T> tau(std::max(1, n - 1));
  ASSERT_EQ(reduce(ctx, M, dd.data(), e.data(), tau.data()), MGBLAS_SUCCESS)
      << mgblas_last_error();
  ASSERT_EQ(mgblas_dtridiag_eigenvalues_mgpu(ctx, n, dd.data(), e.data(), w.data()),
            MGBLAS_SUCCESS)
      << mgblas_last_error();
  mgblas_matrix_destroy(M);
  if (in_grid && mb == nb) {  // p?syev / p?heev take square blocks only
    const std::vector<double> ref = scalapack_eigenvalues(n, local.data(), desc);
    double norm = 0;
    for (const T& v : A) norm = std::max(norm, std::abs(v));
    const double tol = 30.0 * n * std::numeric_limits<double>::epsilon() * n * norm;
    for (int k = 0; k < n; ++k) EXPECT_NEAR(w[k], ref[k], tol) << "eigenvalue " << k;
  }
  if (in_grid) Cblacs_gridexit(blacs);
}

template <typename T>
class ScaLAPACK2D : public ::testing::Test {};
using Types = ::testing::Types<double, zcomplex>;
struct Name {
  template <typename T>
  static std::string GetName(int) {
    return std::is_same_v<T, double> ? "d" : "z";
  }
};
TYPED_TEST_SUITE(ScaLAPACK2D, Types, Name);

TYPED_TEST(ScaLAPACK2D, EveryGridMatchesScaLAPACK) {
  int nranks = 1;
  MPI_Comm_size(MPI_COMM_WORLD, &nranks);
  td::CHostContext c(2);
  std::vector<Grid> grids;
  for (int r = 1; r <= nranks; ++r)
    for (int cc = 1; r * cc <= nranks; ++cc)
      for (char order : {'R', 'C'})
        if (order == 'R' || (r > 1 && cc > 1)) grids.push_back({r, cc, order});
  for (const Grid& g : grids)
    for (auto [n, mb, nb] : {std::tuple{1, 1, 1}, {37, 3, 5}, {37, 5, 5}, {64, 64, 64}, {150, 7, 2},
                               {150, 7, 7}})
      check_against_scalapack<TypeParam>(c.ctx, g, n, mb, nb);
}

}  // namespace
