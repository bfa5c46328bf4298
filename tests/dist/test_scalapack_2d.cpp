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
//     arrays within 30 n eps ||A|| (square blocks: p?syev takes no others);
//   - the ScaLAPACK-shaped SVD mgblas_?gesvd_2d against p?gesvd's singular values, its U and
//     V by the residual and orthogonality;
//   - the ScaLAPACK-shaped eigen-solver mgblas_?syevd_2d / ?heevd_2d on the local arrays
//     ScaLAPACK placed, against p?syevd / p?heevd on the same arrays: eigenvalues within
//     30 n eps ||A||_1, both Z's (gathered) with residual and orthogonality under 30, A's
//     local arrays untouched; subsets (index ranges at both ends, k = 1, a value range, an
//     empty one) against p?syevd's values at those indices; bad arguments on one rank
//     raise on every rank with w and z untouched;
//   - the ScaLAPACK-shaped reductions mgblas_?sytrd_2d / ?hetrd_2d (both triangles) and
//     mgblas_?gebrd_2d (tall, wide and square) against p?sytrd / p?hetrd and p?gebrd on
//     the same local arrays: the overwritten local arrays (gathered) and d, e, tau (tauq,
//     taup) equal up to rounding, the reduction being unique given LAPACK's reflector
//     convention: within 30 x the larger of max(m, n) eps ||A||_1 and the reduction's
//     sensitivity on the matrix, measured with LAPACK (check_tridiagonal_2d says why);
//     ScaLAPACK's distributed vectors are read from the processes that hold them
//     (dist/lapack/hetrd_2d.hpp and gebrd_2d.hpp say where); bad arguments on one rank
//     raise on every rank with a and the vectors untouched.
// Grids: every nprow x npcol that fits in the ranks (ranks past it included), row- and
// column-major, block sizes that do and do not divide n; for the eigen-solver and the
// reductions also the 2 x 2 grid with mb = nb = 64.
#include <gtest/gtest.h>

#include <mpi.h>

#include <algorithm>
#include <cmath>
#include <complex>
#include <cstdint>
#include <limits>
#include <random>
#include <string>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

#include <lapacke.h>
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
void pdsyevd_(const char* jobz, const char* uplo, const int* n, double* a, const int* ia,
              const int* ja, const int* desca, double* w, double* z, const int* iz,
              const int* jz, const int* descz, double* work, const int* lwork, int* iwork,
              const int* liwork, int* info);
void pzheevd_(const char* jobz, const char* uplo, const int* n, std::complex<double>* a,
              const int* ia, const int* ja, const int* desca, double* w,
              std::complex<double>* z, const int* iz, const int* jz, const int* descz,
              std::complex<double>* work, const int* lwork, double* rwork, const int* lrwork,
              int* iwork, const int* liwork, int* info);
void pdsytrd_(const char* uplo, const int* n, double* a, const int* ia, const int* ja,
              const int* desca, double* d, double* e, double* tau, double* work,
              const int* lwork, int* info);
void pzhetrd_(const char* uplo, const int* n, std::complex<double>* a, const int* ia,
              const int* ja, const int* desca, double* d, double* e, std::complex<double>* tau,
              std::complex<double>* work, const int* lwork, int* info);
void pdgesvd_(const char* jobu, const char* jobvt, const int* m, const int* n, double* a,
              const int* ia, const int* ja, const int* desca, double* s, double* u,
              const int* iu, const int* ju, const int* descu, double* vt, const int* ivt,
              const int* jvt, const int* descvt, double* work, const int* lwork, int* info);
void pzgesvd_(const char* jobu, const char* jobvt, const int* m, const int* n,
              std::complex<double>* a, const int* ia, const int* ja, const int* desca,
              double* s, std::complex<double>* u, const int* iu, const int* ju,
              const int* descu, std::complex<double>* vt, const int* ivt, const int* jvt,
              const int* descvt, std::complex<double>* work, const int* lwork, double* rwork,
              int* info);
void pdgebrd_(const int* m, const int* n, double* a, const int* ia, const int* ja,
              const int* desca, double* d, double* e, double* tauq, double* taup, double* work,
              const int* lwork, int* info);
void pzgebrd_(const int* m, const int* n, std::complex<double>* a, const int* ia, const int* ja,
              const int* desca, double* d, double* e, std::complex<double>* tauq,
              std::complex<double>* taup, std::complex<double>* work, const int* lwork,
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
// A random Hermitian n x n matrix (full storage, real diagonal), the same on every rank
// (the seed is the test's).
template <typename T>
std::vector<T> random_hermitian(int n) {
  auto rng = mt::make_rng();
  std::vector<T> A = mt::random_vector<T>(static_cast<std::size_t>(n) * n, rng);
  for (int j = 0; j < n; ++j)
    for (int i = 0; i <= j; ++i) {
      const T v = i == j ? T(std::real(A[i + j * n])) : A[i + j * n];
      A[i + j * n] = v;
      A[j + i * n] = conj_of(v);
    }
  return A;
}

// The m x n A placed by ScaLAPACK on a BLACS grid of g's shape with mb x nb blocks
// (padded local leading dimension); ranks past the grid get context -1 and hold nothing.
template <typename T>
struct OnGrid {
  int blacs = 0, myrow = -1, mycol = -1, locr = 0, locc = 0;
  int desc[9] = {};
  bool in_grid = false;
  std::vector<T> local;
};

template <typename T>
OnGrid<T> place_on_grid(const Grid& g, int m, int n, int mb, int nb, const std::vector<T>& A) {
  OnGrid<T> out;
  Cblacs_get(-1, 0, &out.blacs);
  Cblacs_gridinit(&out.blacs, g.order == 'R' ? "Row" : "Col", g.nprow, g.npcol);
  int nprow = -1, npcol = -1;
  if (out.blacs >= 0) Cblacs_gridinfo(out.blacs, &nprow, &npcol, &out.myrow, &out.mycol);
  out.in_grid = out.blacs >= 0 && out.myrow >= 0;
  const int zero = 0;
  const int unset[9] = {1, -1, m, n, mb, nb, 0, 0, 1};
  std::copy(unset, unset + 9, out.desc);
  if (out.in_grid) {
    out.locr = numroc_(&m, &mb, &out.myrow, &zero, &nprow);
    out.locc = numroc_(&n, &nb, &out.mycol, &zero, &npcol);
    const int lld = std::max(1, out.locr) + 1;  // padded
    int info = 0;
    descinit_(out.desc, &m, &n, &mb, &nb, &zero, &zero, &out.blacs, &lld, &info);
    EXPECT_EQ(info, 0);
  }
  out.local.assign(static_cast<std::size_t>(std::max(1, out.desc[8] * out.locc)), T(-7));
  if (out.in_grid)
    for (int j = 0; j < n; ++j)
      for (int i = 0; i < m; ++i) elset(out.local.data(), i + 1, j + 1, out.desc, A[i + j * m]);
  return out;
}
template <typename T>
OnGrid<T> place_on_grid(const Grid& g, int n, int mb, int nb, const std::vector<T>& A) {
  return place_on_grid(g, n, n, mb, nb, A);
}

template <typename T>
void check_against_scalapack(mgblas_context_t ctx, const Grid& g, int n, int mb, int nb) {
  int me = 0, nranks = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &me);
  MPI_Comm_size(MPI_COMM_WORLD, &nranks);
  SCOPED_TRACE(::testing::Message() << "grid " << g.nprow << "x" << g.npcol << " " << g.order
                                    << ", n " << n << ", mb " << mb << ", nb " << nb);
  const std::vector<T> A = random_hermitian<T>(n);
  OnGrid<T> on = place_on_grid(g, n, mb, nb, A);
  const int blacs = on.blacs, myrow = on.myrow, mycol = on.mycol;
  const bool in_grid = on.in_grid;
  int* desc = on.desc;
  std::vector<T>& local = on.local;

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

// Every process grid that fits in nranks ranks, row-major, and column-major where that
// differs (both dimensions > 1).
std::vector<Grid> every_grid(int nranks) {
  std::vector<Grid> grids;
  for (int r = 1; r <= nranks; ++r)
    for (int cc = 1; r * cc <= nranks; ++cc)
      for (char order : {'R', 'C'})
        if (order == 'R' || (r > 1 && cc > 1)) grids.push_back({r, cc, order});
  return grids;
}

TYPED_TEST(ScaLAPACK2D, EveryGridMatchesScaLAPACK) {
  int nranks = 1;
  MPI_Comm_size(MPI_COMM_WORLD, &nranks);
  td::CHostContext c(2);
  for (const Grid& g : every_grid(nranks))
    for (auto [n, mb, nb] : {std::tuple{1, 1, 1}, {37, 3, 5}, {37, 5, 5}, {64, 64, 64}, {150, 7, 2},
                               {150, 7, 7}})
      check_against_scalapack<TypeParam>(c.ctx, g, n, mb, nb);
}


// ---- the eigen-solver's ScaLAPACK-shaped entry against p?syevd / p?heevd -------------

// ScaLAPACK's eigenpairs of the matrix in `a` (destroyed): w and Z's local array z.
void scalapack_eigenpairs(int n, double* a, const int* desc, double* w, double* z) {
  const int one = 1;
  int lwork = -1, liwork = -1, info = 0, iquery = 0;
  double query = 0;
  pdsyevd_("V", "L", &n, a, &one, &one, desc, w, z, &one, &one, desc, &query, &lwork, &iquery,
           &liwork, &info);
  lwork = static_cast<int>(query) + 1;
  liwork = std::max(iquery, 1);
  std::vector<double> work(lwork);
  std::vector<int> iwork(liwork);
  pdsyevd_("V", "L", &n, a, &one, &one, desc, w, z, &one, &one, desc, work.data(), &lwork,
           iwork.data(), &liwork, &info);
  EXPECT_EQ(info, 0);
}
void scalapack_eigenpairs(int n, zcomplex* a, const int* desc, double* w, zcomplex* z) {
  const int one = 1;
  int lwork = -1, lrwork = -1, liwork = -1, info = 0, iquery = 0;
  zcomplex query = 0;
  double rquery = 0;
  pzheevd_("V", "L", &n, a, &one, &one, desc, w, z, &one, &one, desc, &query, &lwork, &rquery,
           &lrwork, &iquery, &liwork, &info);
  lwork = static_cast<int>(query.real()) + 1;
  lrwork = static_cast<int>(rquery) + 1;
  liwork = std::max(iquery, 1);
  std::vector<zcomplex> work(lwork);
  std::vector<double> rwork(lrwork);
  std::vector<int> iwork(liwork);
  pzheevd_("V", "L", &n, a, &one, &one, desc, w, z, &one, &one, desc, work.data(), &lwork,
           rwork.data(), &lrwork, iwork.data(), &liwork, &info);
  EXPECT_EQ(info, 0);
}

mgblas_status_t eigen_2d(mgblas_context_t ctx, mgblas_uplo_t uplo, const mgblas_desc2d_t* da,
                         const double* a, mgblas_range_t range, double vl, double vu,
                         int64_t il, int64_t iu, int64_t* m, double* w,
                         const mgblas_desc2d_t* dz, double* z) {
  return mgblas_dsyevd_2d(ctx, uplo, da, a, range, vl, vu, il, iu, m, w, dz, z);
}
mgblas_status_t eigen_2d(mgblas_context_t ctx, mgblas_uplo_t uplo, const mgblas_desc2d_t* da,
                         const zcomplex* a, mgblas_range_t range, double vl, double vu,
                         int64_t il, int64_t iu, int64_t* m, double* w,
                         const mgblas_desc2d_t* dz, zcomplex* z) {
  return mgblas_zheevd_2d(ctx, uplo, da, reinterpret_cast<const mgblas_complex_double*>(a),
                          range, vl, vu, il, iu, m, w, dz,
                          reinterpret_cast<mgblas_complex_double*>(z));
}

double norm1(int64_t m, int64_t n, const std::vector<zcomplex>& X) {
  double best = 0;
  for (int64_t j = 0; j < n; ++j) {
    double s = 0;
    for (int64_t i = 0; i < m; ++i) s += std::abs(X[i + j * m]);
    best = std::max(best, s);
  }
  return best;
}

//  +-------------------------------------------------------------------------------+
//  |  residual = ||A Z - Z diag(w)||_1 / (n ||A||_1 eps)                             |
//  |  orth     = ||I - Z^H Z||_1 / (n eps)        (both <= 30, LAPACK's threshold)   |
//  +-------------------------------------------------------------------------------+
// Z: n x m, column-major (complex arithmetic for both precisions: exact for real data).
template <typename T>
std::pair<double, double> residual_orth(int n, int64_t m, const std::vector<T>& A,
                                        const std::vector<T>& Z, const double* w) {
  const double ep = std::numeric_limits<double>::epsilon();
  std::vector<zcomplex> R(static_cast<std::size_t>(n * m)), G(static_cast<std::size_t>(m * m));
  std::vector<zcomplex> Ac(A.begin(), A.end());
  for (int64_t j = 0; j < m; ++j)
    for (int i = 0; i < n; ++i) {
      zcomplex s = 0;
      for (int k = 0; k < n; ++k) s += Ac[i + k * n] * zcomplex(Z[k + j * n]);
      R[i + j * n] = s - zcomplex(Z[i + j * n]) * w[j];
    }
  for (int64_t j = 0; j < m; ++j)
    for (int64_t i = 0; i < m; ++i) {
      zcomplex s = 0;
      for (int k = 0; k < n; ++k) s += std::conj(zcomplex(Z[k + i * n])) * zcomplex(Z[k + j * n]);
      G[i + j * m] = (i == j ? 1.0 : 0.0) - s;
    }
  const double na = std::max(norm1(n, n, Ac), std::numeric_limits<double>::min());
  return {norm1(n, m, R) / (n * na * ep), norm1(m, m, G) / (n * ep)};
}

// The n x k matrix of a descriptor's local arrays, gathered on every rank (through the
// C API's import, checked against ScaLAPACK above).
template <typename T>
std::vector<T> gather_local(mgblas_context_t ctx, const mgblas_desc2d_t& d, const T* local,
                            bool in_grid) {
  std::vector<T> out(static_cast<std::size_t>(std::max<int64_t>(1, d.m * d.n)));
  if (d.m * d.n == 0) return {};
  mgblas_matrix_t M = nullptr;
  EXPECT_EQ(mgblas_matrix_create(ctx, prec_of<T>(), d.m, d.n, 8, &M), MGBLAS_SUCCESS);
  EXPECT_EQ(mgblas_matrix_import_2d(ctx, M, &d, in_grid ? local : nullptr), MGBLAS_SUCCESS)
      << mgblas_last_error();
  EXPECT_EQ(mgblas_matrix_collect(ctx, M, out.data(), d.m, -1), MGBLAS_SUCCESS);
  mgblas_matrix_destroy(M);
  return out;
}

bool all_ranks(bool ok) {
  int v = ok ? 1 : 0, all = 0;
  MPI_Allreduce(&v, &all, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
  return all == 1;
}

// A subset through the C entry: m, its eigenvalues against ScaLAPACK's at `first`, its
// vectors' residual and orthogonality, Z's columns past m untouched.
struct Subset {
  mgblas_range_t range;
  double vl, vu;
  int64_t il, iu;
  int64_t first, count;  // the expected positions in the ascending order
  int k;                 // Z's columns
  const char* name;
};

// One grid, one size (square blocks: p?syevd takes no others). Every rank calls it.
template <typename T>
void check_eigensolver(mgblas_context_t ctx, const Grid& g, int n, int nb) {
  int me = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &me);
  SCOPED_TRACE(::testing::Message() << "eigen-solver: grid " << g.nprow << "x" << g.npcol << " "
                                    << g.order << ", n " << n << ", nb " << nb);
  const std::vector<T> A = random_hermitian<T>(n);
  OnGrid<T> on = place_on_grid(g, n, nb, nb, A);
  const int blacs = on.blacs, mycol = on.mycol, locr = on.locr, lld = on.desc[8];
  const int npcol = g.npcol, zero = 0;
  int info = 0;
  const bool in_grid = on.in_grid;
  int* desc = on.desc;
  const std::vector<T>& local = on.local;
  // mgblas reads the lower triangle only: the upper one of its copy is NaN.
  std::vector<T> mine = local;
  if (in_grid)
    for (int j = 1; j < n; ++j)
      for (int i = 0; i < j; ++i)
        elset(mine.data(), i + 1, j + 1, desc, std::numeric_limits<double>::quiet_NaN());
  const std::vector<T> mine0 = mine;
  mgblas_desc2d_t da{};
  ASSERT_EQ(mgblas_desc2d_from_scalapack(desc, g.nprow, g.npcol, g.order, &da), MGBLAS_SUCCESS)
      << mgblas_last_error();
  double norm = 0;
  for (int j = 0; j < n; ++j) {
    double s = 0;
    for (int i = 0; i < n; ++i) s += std::abs(A[i + j * n]);
    norm = std::max(norm, s);
  }
  const double ep = std::numeric_limits<double>::epsilon();
  const double tol = 30.0 * n * ep * norm;

  // All pairs: mgblas, then ScaLAPACK on its own copy of the same local arrays.
  std::vector<T> z(local.size(), T(-9));
  std::vector<double> w(n, -3);
  int64_t m = -1;
  ASSERT_EQ(eigen_2d(ctx, MGBLAS_UPLO_LOWER, &da, in_grid ? mine.data() : nullptr,
                     MGBLAS_RANGE_ALL, 0, 0, 0, 0, &m, w.data(), &da,
                     in_grid ? z.data() : nullptr),
            MGBLAS_SUCCESS)
      << mgblas_last_error();
  EXPECT_EQ(m, n);
  const auto same = [](T x, T y) {
    return x == y || (std::isnan(std::abs(x)) && std::isnan(std::abs(y)));
  };
  EXPECT_TRUE(all_ranks(std::equal(mine.begin(), mine.end(), mine0.begin(), same)))
      << "A's local arrays changed";
  bool padding = true;
  if (in_grid)
    for (std::size_t k = 0; k < z.size(); ++k)
      if (static_cast<int>(k) % lld >= locr) padding = padding && z[k] == T(-9);
  EXPECT_TRUE(all_ranks(padding)) << "z's padding rows written";
  std::vector<double> wref(n, 0);
  std::vector<T> zref(local.size(), T(0));
  std::vector<T> work = local;
  if (in_grid) scalapack_eigenpairs(n, work.data(), desc, wref.data(), zref.data());
  // Ranks outside the grid take ScaLAPACK's eigenvalues from rank 0 (inside every grid).
  MPI_Bcast(wref.data(), n, MPI_DOUBLE, 0, MPI_COMM_WORLD);
  for (int k = 0; k < n; ++k) EXPECT_NEAR(w[k], wref[k], tol) << "eigenvalue " << k;
  const std::vector<T> Z = gather_local(ctx, da, z.data(), in_grid);
  const std::vector<T> Zref = gather_local(ctx, da, zref.data(), in_grid);
  const auto [res, orth] = residual_orth<T>(n, n, A, Z, w.data());
  const auto [res_ref, orth_ref] = residual_orth<T>(n, n, A, Zref, wref.data());
  EXPECT_LE(res, 30.0) << "mgblas residual (ScaLAPACK's: " << res_ref << ")";
  EXPECT_LE(orth, 30.0) << "mgblas orthogonality (ScaLAPACK's: " << orth_ref << ")";
  EXPECT_LE(res_ref, 30.0) << "ScaLAPACK's residual";

  // Subsets, Z of k columns (on Z's own descriptor, n x k with A's blocks) + 2 spare.
  const int k3 = std::min(3, n);
  // A value interval with its ends halfway between eigenvalues (so that rounding cannot
  // move one across): positions lo .. hi - 1.
  const int lo = n >= 4 ? n / 4 : 0, hi = n >= 4 ? 3 * n / 4 : n;
  const double vl = lo > 0 ? 0.5 * (wref[lo - 1] + wref[lo]) : wref[0] - 1;
  const double vu = hi < n ? 0.5 * (wref[hi - 1] + wref[hi]) : wref[n - 1] + 1;
  const Subset subsets[] = {
      {MGBLAS_RANGE_INDEX, 0, 0, 0, 0, 0, 1, 1 + 2, "k = 1 smallest"},
      {MGBLAS_RANGE_INDEX, 0, 0, n - 1, n - 1, n - 1, 1, 1 + 2, "k = 1 largest"},
      {MGBLAS_RANGE_INDEX, 0, 0, 0, k3 - 1, 0, k3, k3, "bottom 3"},
      {MGBLAS_RANGE_INDEX, 0, 0, n - k3, n - 1, n - k3, k3, k3 + 2, "top 3"},
      {MGBLAS_RANGE_VALUE, vl, vu, 0, 0, lo, hi - lo, n, "value range"},
      {MGBLAS_RANGE_VALUE, 1e6, 2e6, 0, 0, n, 0, n, "empty value range"},
  };
  for (const Subset& s : subsets) {
    SCOPED_TRACE(s.name);
    int zdesc[9] = {1, -1, n, s.k, nb, nb, 0, 0, 1};
    int zc = 0;
    if (in_grid) {
      zc = numroc_(&s.k, &nb, &mycol, &zero, &npcol);
      const int zl = std::max(1, locr);
      descinit_(zdesc, &n, &s.k, &nb, &nb, &zero, &zero, &blacs, &zl, &info);
      ASSERT_EQ(info, 0);
    }
    mgblas_desc2d_t dz{};
    ASSERT_EQ(mgblas_desc2d_from_scalapack(zdesc, g.nprow, g.npcol, g.order, &dz),
              MGBLAS_SUCCESS);
    std::vector<T> zs(static_cast<std::size_t>(std::max(1, zdesc[8] * zc)), T(-9));
    std::vector<double> ws(n, -3);
    ASSERT_EQ(eigen_2d(ctx, MGBLAS_UPLO_LOWER, &da, in_grid ? mine.data() : nullptr, s.range,
                       s.vl, s.vu, s.il, s.iu, &m, ws.data(), &dz,
                       in_grid ? zs.data() : nullptr),
              MGBLAS_SUCCESS)
        << mgblas_last_error();
    ASSERT_EQ(m, s.count);
    for (int64_t j = 0; j < m; ++j)
      EXPECT_NEAR(ws[j], wref[s.first + j], tol) << "eigenvalue " << s.first + j;
    const std::vector<T> Zs = gather_local(ctx, dz, zs.data(), in_grid);
    const std::vector<T> Zm(Zs.begin(), Zs.begin() + n * m);
    const auto [r, o] = residual_orth<T>(n, m, A, Zm, ws.data());
    EXPECT_LE(r, 30.0);
    EXPECT_LE(o, 30.0);
    EXPECT_TRUE(std::all_of(Zs.begin() + n * m, Zs.end(), [](T v) { return v == T(-9); }))
        << "Z's columns past m written";
  }

  // Bad arguments on rank 0 alone: an error on every rank, w and z untouched.
  const auto bad = [&](const char* what, const mgblas_desc2d_t* a_desc, const T* a,
                       int64_t* count, const mgblas_desc2d_t* z_desc, int64_t il, int64_t iu,
                       const char* named) {
    std::vector<T> zb(z.size(), T(-9));
    std::vector<double> wb(n, -3);
    const mgblas_status_t st = eigen_2d(ctx, MGBLAS_UPLO_LOWER, a_desc, a, MGBLAS_RANGE_INDEX,
                                        0, 0, il, iu, count, wb.data(), z_desc,
                                        in_grid ? zb.data() : nullptr);
    const std::string msg = mgblas_last_error();
    const bool ok = st != MGBLAS_SUCCESS &&
                    (me != 0 || msg.find(named) != std::string::npos) &&
                    std::all_of(zb.begin(), zb.end(), [](T v) { return v == T(-9); }) &&
                    std::all_of(wb.begin(), wb.end(), [](double v) { return v == -3; });
    EXPECT_TRUE(all_ranks(ok)) << what << ": status " << st << ", '" << msg << "'";
  };
  const T* pa = in_grid ? mine.data() : nullptr;
  mgblas_desc2d_t short_ld = da;
  if (me == 0) short_ld.lld = std::max(1, locr) - 1;
  bad("lld below the local rows", &short_ld, pa, &m, &da, 0, 0, "'lda'");
  mgblas_desc2d_t zero_mb = da;
  if (me == 0) zero_mb.mb = 0;
  bad("mb = 0", &zero_mb, pa, &m, &da, 0, 0, "mb");
  mgblas_desc2d_t bad_order = da;
  if (me == 0) bad_order.order = 7;
  bad("grid order 7", &bad_order, pa, &m, &da, 0, 0, "desca->order");
  bad("null desca", me == 0 ? nullptr : &da, pa, &m, &da, 0, 0, "'desca'");
  bad("null m", &da, pa, me == 0 ? nullptr : &m, &da, 0, 0, "'m'");
  bad("null a", &da, me == 0 ? nullptr : pa, &m, &da, 0, 0, "'a'");
  bad("il > iu", &da, pa, &m, &da, me == 0 ? 2 : 0, me == 0 ? 1 : 0, "il = 2");
  bad("iu = n", &da, pa, &m, &da, 0, me == 0 ? n : 0, "iu = ");
  mgblas_desc2d_t other_nb = da;
  if (me == 0) other_nb.nb = nb + 1;
  int nranks = 1;
  MPI_Comm_size(MPI_COMM_WORLD, &nranks);
  if (nranks > 1) bad("desca differs between ranks", &other_nb, pa, &m, &da, 0, 0, "desca.nb");
  mgblas_desc2d_t too_few = da;
  too_few.n = 0;  // all pairs need n columns (index range 0..0 needs 1)
  bad("descz with 0 columns", &da, pa, &m, &too_few, 0, 0, "'descz'");
  if (in_grid) Cblacs_gridexit(blacs);
}

TYPED_TEST(ScaLAPACK2D, EigenSolverMatchesScaLAPACK) {
  int nranks = 1;
  MPI_Comm_size(MPI_COMM_WORLD, &nranks);
  td::CHostContext c(2);
  for (const Grid& g : every_grid(nranks))
    for (auto [n, nb] : {std::pair{1, 1}, {37, 5}, {150, 7}})
      check_eigensolver<TypeParam>(c.ctx, g, n, nb);
  // The case: a 2 x 2 grid, mb = nb = 64.
  if (nranks >= 4) check_eigensolver<TypeParam>(c.ctx, {2, 2, 'R'}, 300, 64);
}


// ---- the SVD's ScaLAPACK-shaped entry against p?gesvd ---------------------------------

// ScaLAPACK's singular values of the m x n matrix in `a` (destroyed), descending.
void scalapack_singular_values(int m, int n, double* a, const int* desc, double* s) {
  const int one = 1;
  int lwork = -1, info = 0;
  double query = 0, none = 0;
  pdgesvd_("N", "N", &m, &n, a, &one, &one, desc, s, &none, &one, &one, desc, &none, &one,
           &one, desc, &query, &lwork, &info);
  lwork = static_cast<int>(query) + 1;
  std::vector<double> work(lwork);
  pdgesvd_("N", "N", &m, &n, a, &one, &one, desc, s, &none, &one, &one, desc, &none, &one,
           &one, desc, work.data(), &lwork, &info);
  EXPECT_EQ(info, 0);
}
void scalapack_singular_values(int m, int n, zcomplex* a, const int* desc, double* s) {
  const int one = 1;
  int lwork = -1, info = 0;
  zcomplex query = 0, none = 0;
  std::vector<double> rwork(static_cast<std::size_t>(1 + 4 * std::max(m, n)));
  pzgesvd_("N", "N", &m, &n, a, &one, &one, desc, s, &none, &one, &one, desc, &none, &one,
           &one, desc, &query, &lwork, rwork.data(), &info);
  lwork = static_cast<int>(query.real()) + 1;
  std::vector<zcomplex> work(lwork);
  pzgesvd_("N", "N", &m, &n, a, &one, &one, desc, s, &none, &one, &one, desc, &none, &one,
           &one, desc, work.data(), &lwork, rwork.data(), &info);
  EXPECT_EQ(info, 0);
}

mgblas_status_t svd_2d(mgblas_context_t ctx, const mgblas_desc2d_t* da, const double* a,
                       double* s, const mgblas_desc2d_t* du, double* u,
                       const mgblas_desc2d_t* dv, double* v) {
  return mgblas_dgesvd_2d(ctx, da, a, s, du, u, dv, v, -1);
}
mgblas_status_t svd_2d(mgblas_context_t ctx, const mgblas_desc2d_t* da, const zcomplex* a,
                       double* s, const mgblas_desc2d_t* du, zcomplex* u,
                       const mgblas_desc2d_t* dv, zcomplex* v) {
  return mgblas_zgesvd_2d(ctx, da, reinterpret_cast<const mgblas_complex_double*>(a), s, du,
                          reinterpret_cast<mgblas_complex_double*>(u), dv,
                          reinterpret_cast<mgblas_complex_double*>(v), -1);
}

//  +-------------------------------------------------------------------------------+
//  |  values   = max_i |s_i - s_i(p?gesvd)| / (max(m, n) ||A||_1 eps)  <= 30          |
//  |  residual = ||A V - U diag(s)||_1 / (max(m, n) ||A||_1 eps)       <= 30          |
//  |  orth     = ||I - U^H U||_1 / (m eps), ||I - V^H V||_1 / (n eps)  <= 30          |
//  +-------------------------------------------------------------------------------+
// mgblas_?gesvd_2d with U (m x k) and V (n x k) on A's blocks and grid, against p?gesvd's
// singular values on the same local arrays; U and V gathered through the C API's import.
template <typename T>
void check_svd(mgblas_context_t ctx, const Grid& g, int m, int n, int nb) {
  SCOPED_TRACE(::testing::Message() << "svd: grid " << g.nprow << "x" << g.npcol << " "
                                    << g.order << ", " << m << " x " << n << ", nb " << nb);
  auto rng = mt::make_rng();
  const std::vector<T> A = mt::random_vector<T>(static_cast<std::size_t>(m) * n, rng);
  OnGrid<T> on = place_on_grid(g, m, n, nb, nb, A);
  const bool in_grid = on.in_grid;
  const int k = std::min(m, n), zero = 0;
  mgblas_desc2d_t da{};
  ASSERT_EQ(mgblas_desc2d_from_scalapack(on.desc, g.nprow, g.npcol, g.order, &da),
            MGBLAS_SUCCESS)
      << mgblas_last_error();
  // U shares A's rows (the same local rows, lld); V has n rows.
  mgblas_desc2d_t du = da, dv = da;
  du.n = k;
  dv.m = n;
  dv.n = k;
  int locc_k = 0, locr_n = 0;
  if (in_grid) {
    locc_k = numroc_(&k, &nb, &on.mycol, &zero, &g.npcol);
    locr_n = numroc_(&n, &nb, &on.myrow, &zero, &g.nprow);
  }
  dv.lld = std::max(1, locr_n);
  std::vector<T> u(static_cast<std::size_t>(std::max<int64_t>(1, da.lld * locc_k)), T(-7));
  std::vector<T> v(static_cast<std::size_t>(std::max<int64_t>(1, dv.lld * locc_k)), T(-7));
  std::vector<double> s(static_cast<std::size_t>(std::max(1, k)), -3);
  const std::vector<T> local0 = on.local;
  ASSERT_EQ(svd_2d(ctx, &da, in_grid ? on.local.data() : nullptr, s.data(), &du,
                   in_grid ? u.data() : nullptr, &dv, in_grid ? v.data() : nullptr),
            MGBLAS_SUCCESS)
      << mgblas_last_error();
  EXPECT_TRUE(all_ranks(on.local == local0)) << "A's local arrays changed";
  std::vector<double> sref(static_cast<std::size_t>(std::max(1, k)), 0);
  std::vector<T> work = on.local;
  if (in_grid) scalapack_singular_values(m, n, work.data(), on.desc, sref.data());
  MPI_Bcast(sref.data(), k, MPI_DOUBLE, 0, MPI_COMM_WORLD);
  const double ep = std::numeric_limits<double>::epsilon();
  const double na = std::max(norm1(m, n, std::vector<zcomplex>(A.begin(), A.end())),
                             std::numeric_limits<double>::min());
  const double unit = std::max(m, n) * na * ep;
  for (int i = 0; i < k; ++i) EXPECT_LE(std::abs(s[i] - sref[i]) / unit, 30.0) << "s[" << i << "]";
  const std::vector<T> U = gather_local(ctx, du, u.data(), in_grid);
  const std::vector<T> V = gather_local(ctx, dv, v.data(), in_grid);
  std::vector<zcomplex> R(static_cast<std::size_t>(m) * k), Gu(static_cast<std::size_t>(k) * k),
      Gv(static_cast<std::size_t>(k) * k);
  for (int j = 0; j < k; ++j) {
    for (int i = 0; i < m; ++i) {
      zcomplex t = 0;
      for (int l = 0; l < n; ++l) t += zcomplex(A[i + l * m]) * zcomplex(V[l + j * n]);
      R[i + j * m] = t - zcomplex(U[i + j * m]) * s[j];
    }
    for (int i = 0; i < k; ++i) {
      zcomplex tu = 0, tv = 0;
      for (int l = 0; l < m; ++l) tu += std::conj(zcomplex(U[l + i * m])) * zcomplex(U[l + j * m]);
      for (int l = 0; l < n; ++l) tv += std::conj(zcomplex(V[l + i * n])) * zcomplex(V[l + j * n]);
      Gu[i + j * k] = (i == j ? 1.0 : 0.0) - tu;
      Gv[i + j * k] = (i == j ? 1.0 : 0.0) - tv;
    }
  }
  EXPECT_LE(norm1(m, k, R) / unit, 30.0) << "residual";
  EXPECT_LE(norm1(k, k, Gu) / (m * ep), 30.0) << "orthogonality of U";
  EXPECT_LE(norm1(k, k, Gv) / (n * ep), 30.0) << "orthogonality of V";
  if (in_grid) Cblacs_gridexit(on.blacs);
}

TYPED_TEST(ScaLAPACK2D, SvdMatchesScaLAPACK) {
  int nranks = 1;
  MPI_Comm_size(MPI_COMM_WORLD, &nranks);
  td::CHostContext c(2);
  for (const Grid& g : every_grid(nranks))
    for (auto [m, n, nb] : {std::tuple{1, 1, 1}, {37, 23, 5}, {23, 37, 4}})
      check_svd<TypeParam>(c.ctx, g, m, n, nb);
  // A 2 x 2 grid with 64 x 64 blocks, each process holding several.
  if (nranks >= 4) check_svd<TypeParam>(c.ctx, {2, 2, 'R'}, 150, 130, 64);
}


// ---- the reductions' ScaLAPACK-shaped entries against p?sytrd / p?hetrd, p?gebrd -----

// ScaLAPACK's reductions on their local array `a` (overwritten), into the local vectors
// they fill (room for max(LOCr, LOCc) entries: some are tied to rows, some to columns).
void scalapack_tridiagonal(char uplo, int n, double* a, const int* desc, double* d, double* e,
                           double* tau) {
  const int one = 1;
  int lwork = -1, info = 0;
  double query = 0;
  pdsytrd_(&uplo, &n, a, &one, &one, desc, d, e, tau, &query, &lwork, &info);
  lwork = static_cast<int>(query) + 1;
  std::vector<double> work(lwork);
  pdsytrd_(&uplo, &n, a, &one, &one, desc, d, e, tau, work.data(), &lwork, &info);
  EXPECT_EQ(info, 0);
}
void scalapack_tridiagonal(char uplo, int n, zcomplex* a, const int* desc, double* d, double* e,
                           zcomplex* tau) {
  const int one = 1;
  int lwork = -1, info = 0;
  zcomplex query = 0;
  pzhetrd_(&uplo, &n, a, &one, &one, desc, d, e, tau, &query, &lwork, &info);
  lwork = static_cast<int>(query.real()) + 1;
  std::vector<zcomplex> work(lwork);
  pzhetrd_(&uplo, &n, a, &one, &one, desc, d, e, tau, work.data(), &lwork, &info);
  EXPECT_EQ(info, 0);
}
void scalapack_bidiagonal(int m, int n, double* a, const int* desc, double* d, double* e,
                          double* tauq, double* taup) {
  const int one = 1;
  int lwork = -1, info = 0;
  double query = 0;
  pdgebrd_(&m, &n, a, &one, &one, desc, d, e, tauq, taup, &query, &lwork, &info);
  lwork = static_cast<int>(query) + 1;
  std::vector<double> work(lwork);
  pdgebrd_(&m, &n, a, &one, &one, desc, d, e, tauq, taup, work.data(), &lwork, &info);
  EXPECT_EQ(info, 0);
}
void scalapack_bidiagonal(int m, int n, zcomplex* a, const int* desc, double* d, double* e,
                          zcomplex* tauq, zcomplex* taup) {
  const int one = 1;
  int lwork = -1, info = 0;
  zcomplex query = 0;
  pzgebrd_(&m, &n, a, &one, &one, desc, d, e, tauq, taup, &query, &lwork, &info);
  lwork = static_cast<int>(query.real()) + 1;
  std::vector<zcomplex> work(lwork);
  pzgebrd_(&m, &n, a, &one, &one, desc, d, e, tauq, taup, work.data(), &lwork, &info);
  EXPECT_EQ(info, 0);
}

mgblas_status_t tridiagonal_2d(mgblas_context_t ctx, mgblas_uplo_t uplo,
                               const mgblas_desc2d_t* da, double* a, double* d, double* e,
                               double* tau, const mgblas_reduction_options_t* opts = nullptr) {
  return mgblas_dsytrd_2d_ex(ctx, uplo, da, a, d, e, tau, opts);
}
mgblas_status_t tridiagonal_2d(mgblas_context_t ctx, mgblas_uplo_t uplo,
                               const mgblas_desc2d_t* da, zcomplex* a, double* d, double* e,
                               zcomplex* tau, const mgblas_reduction_options_t* opts = nullptr) {
  return mgblas_zhetrd_2d_ex(ctx, uplo, da, reinterpret_cast<mgblas_complex_double*>(a), d, e,
                             reinterpret_cast<mgblas_complex_double*>(tau), opts);
}
mgblas_status_t bidiagonal_2d(mgblas_context_t ctx, const mgblas_desc2d_t* da, double* a,
                              double* d, double* e, double* tauq, double* taup) {
  return mgblas_dgebrd_2d(ctx, da, a, d, e, tauq, taup);
}
mgblas_status_t bidiagonal_2d(mgblas_context_t ctx, const mgblas_desc2d_t* da, zcomplex* a,
                              double* d, double* e, zcomplex* tauq, zcomplex* taup) {
  return mgblas_zgebrd_2d(ctx, da, reinterpret_cast<mgblas_complex_double*>(a), d, e,
                          reinterpret_cast<mgblas_complex_double*>(tauq),
                          reinterpret_cast<mgblas_complex_double*>(taup));
}

template <typename T>
double norm1_of(int m, int n, const std::vector<T>& A) {
  double best = 0;
  for (int j = 0; j < n; ++j) {
    double s = 0;
    for (int i = 0; i < m; ++i) s += std::abs(A[i + j * m]);
    best = std::max(best, s);
  }
  return best;
}

// LAPACK's reductions (LAPACKE ?sytrd / ?hetrd, ?gebrd) of the whole column-major A on
// one process: the overwritten A, d, e and the reflectors' scalars (tau; tauq, taup).
template <typename T>
struct Reduced {
  std::vector<T> A;
  std::vector<double> d, e;
  std::vector<T> tau1, tau2;
};
Reduced<double> lapack_tridiagonal(char uplo, int n, std::vector<double> A) {
  Reduced<double> r{std::move(A), std::vector<double>(std::max(1, n)),
                    std::vector<double>(std::max(1, n)), std::vector<double>(std::max(1, n)), {}};
  if (n > 0)
    LAPACKE_dsytrd(LAPACK_COL_MAJOR, uplo, n, r.A.data(), n, r.d.data(), r.e.data(),
                   r.tau1.data());
  return r;
}
Reduced<zcomplex> lapack_tridiagonal(char uplo, int n, std::vector<zcomplex> A) {
  Reduced<zcomplex> r{std::move(A), std::vector<double>(std::max(1, n)),
                      std::vector<double>(std::max(1, n)), std::vector<zcomplex>(std::max(1, n)),
                      {}};
  if (n > 0)
    LAPACKE_zhetrd(LAPACK_COL_MAJOR, uplo, n, reinterpret_cast<lapack_complex_double*>(r.A.data()),
                   n, r.d.data(), r.e.data(),
                   reinterpret_cast<lapack_complex_double*>(r.tau1.data()));
  return r;
}
template <typename T>
Reduced<T> lapack_bidiagonal(int m, int n, std::vector<T> A) {
  const std::size_t k = static_cast<std::size_t>(std::max(1, std::min(m, n)));
  Reduced<T> r{std::move(A), std::vector<double>(k), std::vector<double>(k), std::vector<T>(k),
               std::vector<T>(k)};
  if (m == 0 || n == 0) return r;
  if constexpr (std::is_same_v<T, double>)
    LAPACKE_dgebrd(LAPACK_COL_MAJOR, m, n, r.A.data(), m, r.d.data(), r.e.data(),
                   r.tau1.data(), r.tau2.data());
  else
    LAPACKE_zgebrd(LAPACK_COL_MAJOR, m, n, reinterpret_cast<lapack_complex_double*>(r.A.data()),
                   m, r.d.data(), r.e.data(),
                   reinterpret_cast<lapack_complex_double*>(r.tau1.data()),
                   reinterpret_cast<lapack_complex_double*>(r.tau2.data()));
  return r;
}

// A + E, E random (Hermitian for `hermitian`, from its own seed) with ||E||_1 =
// max(m, n) eps ||A||_1: a backward error the size a stable reduction's rounding may
// have, to measure how far the outputs move under it.
template <typename T>
std::vector<T> perturbed(int m, int n, const std::vector<T>& A, bool hermitian) {
  std::mt19937_64 rng(mt::test_seed() + 977);
  std::vector<T> E = mt::random_vector<T>(static_cast<std::size_t>(m) * n, rng);
  if (hermitian)
    for (int j = 0; j < n; ++j)
      for (int i = 0; i <= j; ++i) {
        const T v = i == j ? T(std::real(E[i + j * m])) : E[i + j * m];
        E[i + j * m] = v;
        E[j + i * m] = conj_of(v);
      }
  const double scale = std::max({m, n, 1}) * std::numeric_limits<double>::epsilon() *
                       norm1_of(m, n, A) / std::max(norm1_of(m, n, E), 1e-300);
  std::vector<T> out = A;
  for (std::size_t k = 0; k < out.size(); ++k) out[k] += E[k] * scale;
  return out;
}

// A vector ScaLAPACK ties to A's columns (by_rows false) or rows, whole on every rank:
// entry j is read on the process that holds A(j, j) (square nb x nb blocks from process
// (0, 0)), which computes it in every variant of the reductions (its row and column hold
// the reflector), then summed over the ranks (every entry has one contributor).
template <typename V>
std::vector<V> tied_vector(const Grid& g, int myrow, int mycol, bool in_grid, int len, int nb,
                           const std::vector<V>& local, bool by_rows) {
  std::vector<V> out(static_cast<std::size_t>(std::max(1, len)), V(0));
  for (int j = 0; in_grid && j < len; ++j) {
    const int blk = j / nb;
    if (blk % g.nprow != myrow || blk % g.npcol != mycol) continue;
    const int li = (blk / (by_rows ? g.nprow : g.npcol)) * nb + j % nb;
    out[j] = local[li];
  }
  const int count = static_cast<int>(out.size() * sizeof(V) / sizeof(double));
  MPI_Allreduce(MPI_IN_PLACE, out.data(), count, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  out.resize(static_cast<std::size_t>(len));
  return out;
}

// max |x[i] - y[i + shift]| over x's entries (NaN when any difference is NaN).
template <typename V>
double max_gap(const std::vector<V>& x, const std::vector<V>& y, int shift = 0) {
  double gap = 0;
  for (std::size_t i = 0; i < x.size(); ++i) {
    const double v = std::abs(x[i] - y[i + shift]);
    if (std::isnan(v)) return v;
    gap = std::max(gap, v);
  }
  return gap;
}

// The tolerance of both comparisons. The reduction is unique given LAPACK's reflector
// convention, so different blockings agree up to rounding, but not up to a fixed multiple
// of n eps ||A||: its outputs are not forward stable (a reflector's direction moves by the
// rounding in x over ||x||, and later steps inherit it), and on some random matrices
// LAPACK's and ScaLAPACK's own results differ by 8 times 30 n eps ||A|| (seen: d,
// n = 150, Upper, MGBLAS_TEST_SEED=8). So "rounding" is measured on each matrix: `sens`,
// how far LAPACK's outputs move when A moves by a backward error of n eps ||A||_1.
//  +-------------------------------------------------------------------------------+
//  |  sens = max |LAPACK(A + E) - LAPACK(A)| over d, e, tau and A's storage,        |
//  |         E random Hermitian, ||E||_1 = n eps ||A||_1                             |
//  |  tol = 30 max(n eps max(1, ||A||_1), sens)                                     |
//  |  |a_mgblas - a_ScaLAPACK| <= tol on the uplo triangle (gathered local arrays)   |
//  |  |d - D|, |e - E|, |tau - TAU| <= tol (ScaLAPACK's Upper: E, TAU at i + 1)      |
//  |  a_mgblas's other triangle still NaN, its padding rows untouched                |
//  +-------------------------------------------------------------------------------+
template <typename T>
void check_tridiagonal_2d(mgblas_context_t ctx, const Grid& g, int n, int nb, char uplo) {
  int me = 0, nranks = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &me);
  MPI_Comm_size(MPI_COMM_WORLD, &nranks);
  SCOPED_TRACE(::testing::Message() << "hetrd_2d: grid " << g.nprow << "x" << g.npcol << " "
                                    << g.order << ", n " << n << ", nb " << nb << ", uplo "
                                    << uplo);
  const bool lower = uplo == 'L';
  const std::vector<T> A = random_hermitian<T>(n);
  OnGrid<T> on = place_on_grid(g, n, nb, nb, A);
  const bool in_grid = on.in_grid;
  const int* desc = on.desc;
  const int locr = on.locr, lld = on.desc[8];
  // mgblas's copy: the other triangle NaN (not referenced).
  std::vector<T> mine = on.local;
  if (in_grid)
    for (int j = 0; j < n; ++j)
      for (int i = 0; i < n; ++i)
        if (lower ? i < j : i > j)
          elset(mine.data(), i + 1, j + 1, desc, std::numeric_limits<double>::quiet_NaN());
  mgblas_desc2d_t da{};
  ASSERT_EQ(mgblas_desc2d_from_scalapack(desc, g.nprow, g.npcol, g.order, &da), MGBLAS_SUCCESS)
      << mgblas_last_error();
  const mgblas_uplo_t mu = lower ? MGBLAS_UPLO_LOWER : MGBLAS_UPLO_UPPER;
  const int n1 = std::max(0, n - 1);
  std::vector<double> d(n, -3), e(std::max(1, n1), -3);
  std::vector<T> tau(std::max(1, n1), T(-3));
  mgblas_reduction_profile_t prof{};
  mgblas_reduction_options_t opts{};
  opts.profile = &prof;
  ASSERT_EQ(tridiagonal_2d(ctx, mu, &da, in_grid ? mine.data() : nullptr, d.data(), e.data(),
                           tau.data(), &opts),
            MGBLAS_SUCCESS)
      << mgblas_last_error();
  EXPECT_TRUE(n == 0 || prof.total > 0) << "no profile";
  e.resize(n1);
  tau.resize(n1);

  // ScaLAPACK on its own copy of the same local arrays.
  std::vector<T> theirs = on.local;
  const int len = std::max(1, std::max(on.locr, on.locc));
  std::vector<double> D(len), E(len);
  std::vector<T> TAU(len);
  if (in_grid) scalapack_tridiagonal(uplo, n, theirs.data(), desc, D.data(), E.data(), TAU.data());
  const std::vector<double> Dg = tied_vector(g, on.myrow, on.mycol, in_grid, n, nb, D, false);
  const std::vector<double> Eg = tied_vector(g, on.myrow, on.mycol, in_grid, n, nb, E, false);
  const std::vector<T> TAUg = tied_vector(g, on.myrow, on.mycol, in_grid, n, nb, TAU, false);

  const int shift = lower ? 0 : 1;  // p?sytrd's Upper keeps e[i], tau[i] at column i + 1
  const std::vector<T> ours = gather_local(ctx, da, mine.data(), in_grid);
  const std::vector<T> ref = gather_local(ctx, da, theirs.data(), in_grid);
  // max |X - Y| on the uplo triangle.
  const auto triangle_gap = [&](const std::vector<T>& X, const std::vector<T>& Y) {
    double gap = 0;
    for (int j = 0; j < n; ++j)
      for (int i = lower ? j : 0; i <= (lower ? n - 1 : j); ++i) {
        const std::size_t k = static_cast<std::size_t>(i) + static_cast<std::size_t>(j) * n;
        const double v = std::abs(X[k] - Y[k]);
        gap = std::isnan(v) ? v : std::max(gap, v);
      }
    return gap;
  };
  bool other_nan = true;
  for (int j = 0; j < n; ++j)
    for (int i = 0; i < n; ++i)
      if (lower ? i < j : i > j)
        other_nan = other_nan && std::isnan(std::abs(ours[i + static_cast<std::size_t>(j) * n]));
  const Reduced<T> r0 = lapack_tridiagonal(uplo, n, A);
  const Reduced<T> r1 = lapack_tridiagonal(uplo, n, perturbed(n, n, A, true));
  const double sens = std::max({max_gap(r0.d, r1.d), max_gap(r0.e, r1.e),
                                max_gap(r0.tau1, r1.tau1), triangle_gap(r0.A, r1.A)});
  const double tol = 30.0 * std::max(std::max(n, 1) * std::numeric_limits<double>::epsilon() *
                                         std::max(1.0, norm1_of(n, n, A)),
                                     sens);
  EXPECT_LE(max_gap(d, Dg), tol) << "d";
  EXPECT_LE(max_gap(e, Eg, shift), tol) << "e";
  EXPECT_LE(max_gap(tau, TAUg, shift), tol) << "tau";
  EXPECT_LE(triangle_gap(ours, ref), tol) << "the overwritten local arrays";
  EXPECT_TRUE(other_nan) << "the other triangle written";
  bool padding = true;
  if (in_grid)
    for (std::size_t k = 0; k < mine.size(); ++k)
      if (static_cast<int>(k) % lld >= locr) padding = padding && mine[k] == T(-7);
  EXPECT_TRUE(all_ranks(padding)) << "a's padding rows written";

  // Bad arguments on rank 0 alone: an error on every rank, a, d, e, tau untouched.
  const auto bad = [&](const char* what, const mgblas_desc2d_t* a_desc, T* a, double* dp,
                       const char* named) {
    const std::vector<T> before = mine;
    std::vector<double> db(n, -3), eb(std::max(1, n1), -3);
    std::vector<T> tb(std::max(1, n1), T(-3));
    const mgblas_status_t st =
        tridiagonal_2d(ctx, mu, a_desc, a, dp == nullptr ? nullptr : db.data(), eb.data(),
                       tb.data());
    const std::string msg = mgblas_last_error();
    const bool ok = st != MGBLAS_SUCCESS &&
                    (me != 0 || msg.find(named) != std::string::npos) &&
                    std::equal(mine.begin(), mine.end(), before.begin(),
                               [](T x, T y) {
                                 return x == y || (std::isnan(std::abs(x)) &&
                                                   std::isnan(std::abs(y)));
                               }) &&
                    std::all_of(db.begin(), db.end(), [](double v) { return v == -3; }) &&
                    std::all_of(eb.begin(), eb.end(), [](double v) { return v == -3; }) &&
                    std::all_of(tb.begin(), tb.end(), [](T v) { return v == T(-3); });
    EXPECT_TRUE(all_ranks(ok)) << what << ": status " << st << ", '" << msg << "'";
  };
  T* pa = in_grid ? mine.data() : nullptr;
  if (n > 1) {
    mgblas_desc2d_t short_ld = da;
    if (me == 0) short_ld.lld = std::max(1, locr) - 1;
    bad("lld below the local rows", &short_ld, pa, d.data(), "'lda'");
    mgblas_desc2d_t zero_mb = da;
    if (me == 0) zero_mb.mb = 0;
    bad("mb = 0", &zero_mb, pa, d.data(), "mb");
    mgblas_desc2d_t bad_order = da;
    if (me == 0) bad_order.order = 7;
    bad("grid order 7", &bad_order, pa, d.data(), "desca->order");
    bad("null desca", me == 0 ? nullptr : &da, pa, d.data(), "'desca'");
    bad("null a", &da, me == 0 ? nullptr : pa, d.data(), "'a'");
    bad("null d", &da, pa, me == 0 ? nullptr : d.data(), "'d'");
    mgblas_desc2d_t other_nb = da;
    if (me == 0) other_nb.nb = nb + 1;
    if (nranks > 1) bad("desca differs between ranks", &other_nb, pa, d.data(), "desca.nb");
  }
  if (in_grid) Cblacs_gridexit(on.blacs);
}

//  +-------------------------------------------------------------------------------+
//  |  sens = max |LAPACK(A + E) - LAPACK(A)| over d, e, tauq, taup and A's         |
//  |         storage, E random, ||E||_1 = max(m, n) eps ||A||_1                      |
//  |  tol = 30 max(max(m, n) eps max(1, ||A||_1), sens), k = min(m, n)               |
//  |  (check_tridiagonal_2d says why sens)                                           |
//  |  |a_mgblas - a_ScaLAPACK| <= tol (gathered local arrays)                        |
//  |  |d - D|, |e - E|, |tauq - TAUQ|, |taup - TAUP| <= tol, ScaLAPACK's vectors      |
//  |  read where p?gebrd ties them (m >= n: D, TAUQ by column, E, TAUP by row;       |
//  |  m < n: D, TAUP by row, E, TAUQ by column)                                      |
//  +-------------------------------------------------------------------------------+
template <typename T>
void check_bidiagonal_2d(mgblas_context_t ctx, const Grid& g, int m, int n, int nb) {
  int me = 0, nranks = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &me);
  MPI_Comm_size(MPI_COMM_WORLD, &nranks);
  SCOPED_TRACE(::testing::Message() << "gebrd_2d: grid " << g.nprow << "x" << g.npcol << " "
                                    << g.order << ", " << m << " x " << n << ", nb " << nb);
  auto rng = mt::make_rng();
  const std::vector<T> A = mt::random_vector<T>(static_cast<std::size_t>(m) * n, rng);
  OnGrid<T> on = place_on_grid(g, m, n, nb, nb, A);
  const bool in_grid = on.in_grid;
  const int* desc = on.desc;
  const int locr = on.locr, lld = on.desc[8];
  std::vector<T> mine = on.local;
  mgblas_desc2d_t da{};
  ASSERT_EQ(mgblas_desc2d_from_scalapack(desc, g.nprow, g.npcol, g.order, &da), MGBLAS_SUCCESS)
      << mgblas_last_error();
  const int k = std::min(m, n), k1 = std::max(0, k - 1);
  std::vector<double> d(std::max(1, k), -3), e(std::max(1, k1), -3);
  std::vector<T> tauq(std::max(1, k), T(-3)), taup(std::max(1, k), T(-3));
  ASSERT_EQ(bidiagonal_2d(ctx, &da, in_grid ? mine.data() : nullptr, d.data(), e.data(),
                          tauq.data(), taup.data()),
            MGBLAS_SUCCESS)
      << mgblas_last_error();
  d.resize(k);
  e.resize(k1);
  tauq.resize(k);
  taup.resize(k);

  std::vector<T> theirs = on.local;
  const int len = std::max(1, std::max(on.locr, on.locc));
  std::vector<double> D(len), E(len);
  std::vector<T> TQ(len), TP(len);
  if (in_grid)
    scalapack_bidiagonal(m, n, theirs.data(), desc, D.data(), E.data(), TQ.data(), TP.data());
  const bool upper = m >= n;
  const auto tied = [&](const auto& local, int count, bool by_rows) {
    return tied_vector(g, on.myrow, on.mycol, in_grid, count, nb, local, by_rows);
  };
  const std::vector<double> Dg = tied(D, k, !upper), Eg = tied(E, k1, upper);
  const std::vector<T> TQg = tied(TQ, k, false), TPg = tied(TP, k, true);

  const std::vector<T> ours = gather_local(ctx, da, mine.data(), in_grid);
  const std::vector<T> ref = gather_local(ctx, da, theirs.data(), in_grid);
  const Reduced<T> r0 = lapack_bidiagonal(m, n, A);
  const Reduced<T> r1 = lapack_bidiagonal(m, n, perturbed(m, n, A, false));
  const double sens = std::max({max_gap(r0.d, r1.d), max_gap(r0.e, r1.e),
                                max_gap(r0.tau1, r1.tau1), max_gap(r0.tau2, r1.tau2),
                                max_gap(r0.A, r1.A)});
  const double tol = 30.0 * std::max(std::max({m, n, 1}) * std::numeric_limits<double>::epsilon() *
                                         std::max(1.0, norm1_of(m, n, A)),
                                     sens);
  EXPECT_LE(max_gap(d, Dg), tol) << "d";
  EXPECT_LE(max_gap(e, Eg), tol) << "e";
  EXPECT_LE(max_gap(tauq, TQg), tol) << "tauq";
  EXPECT_LE(max_gap(taup, TPg), tol) << "taup";
  EXPECT_LE(max_gap(ours, ref), tol) << "the overwritten local arrays";
  bool padding = true;
  if (in_grid)
    for (std::size_t q = 0; q < mine.size(); ++q)
      if (static_cast<int>(q) % lld >= locr) padding = padding && mine[q] == T(-7);
  EXPECT_TRUE(all_ranks(padding)) << "a's padding rows written";

  // Bad arguments on rank 0 alone: an error on every rank, a and the vectors untouched.
  const auto bad = [&](const char* what, const mgblas_desc2d_t* a_desc, T* a, bool null_taup,
                       const char* named) {
    const std::vector<T> before = mine;
    std::vector<double> db(std::max(1, k), -3), eb(std::max(1, k1), -3);
    std::vector<T> qb(std::max(1, k), T(-3)), pb(std::max(1, k), T(-3));
    const mgblas_status_t st = bidiagonal_2d(ctx, a_desc, a, db.data(), eb.data(), qb.data(),
                                             null_taup ? nullptr : pb.data());
    const std::string msg = mgblas_last_error();
    const bool ok = st != MGBLAS_SUCCESS &&
                    (me != 0 || msg.find(named) != std::string::npos) && mine == before &&
                    std::all_of(db.begin(), db.end(), [](double v) { return v == -3; }) &&
                    std::all_of(eb.begin(), eb.end(), [](double v) { return v == -3; }) &&
                    std::all_of(qb.begin(), qb.end(), [](T v) { return v == T(-3); }) &&
                    std::all_of(pb.begin(), pb.end(), [](T v) { return v == T(-3); });
    EXPECT_TRUE(all_ranks(ok)) << what << ": status " << st << ", '" << msg << "'";
  };
  T* pa = in_grid ? mine.data() : nullptr;
  if (k > 1) {
    mgblas_desc2d_t short_ld = da;
    if (me == 0) short_ld.lld = std::max(1, locr) - 1;
    bad("lld below the local rows", &short_ld, pa, false, "'lda'");
    mgblas_desc2d_t neg_n = da;
    if (me == 0) neg_n.n = -1;
    bad("n = -1", &neg_n, pa, false, "desca");
    bad("null a", &da, me == 0 ? nullptr : pa, false, "'a'");
    bad("null taup", &da, pa, me == 0, "'taup'");
    mgblas_desc2d_t other_nb = da;
    if (me == 0) other_nb.nb = nb + 1;
    if (nranks > 1) bad("desca differs between ranks", &other_nb, pa, false, "desca.nb");
  }
  if (in_grid) Cblacs_gridexit(on.blacs);
}

TYPED_TEST(ScaLAPACK2D, ReductionsMatchScaLAPACK) {
  int nranks = 1;
  MPI_Comm_size(MPI_COMM_WORLD, &nranks);
  td::CHostContext c(2);
  for (const Grid& g : every_grid(nranks)) {
    for (auto [n, nb] : {std::pair{1, 1}, {37, 5}, {150, 7}})
      for (char uplo : {'L', 'U'}) check_tridiagonal_2d<TypeParam>(c.ctx, g, n, nb, uplo);
    for (auto [m, n, nb] : {std::tuple{1, 1, 1}, {41, 23, 5}, {23, 41, 5}, {30, 30, 4},
                            {150, 130, 7}})
      check_bidiagonal_2d<TypeParam>(c.ctx, g, m, n, nb);
  }
  // The case: a 2 x 2 grid, mb = nb = 64.
  if (nranks >= 4) {
    for (char uplo : {'L', 'U'}) check_tridiagonal_2d<TypeParam>(c.ctx, {2, 2, 'R'}, 300, 64, uplo);
    check_bidiagonal_2d<TypeParam>(c.ctx, {2, 2, 'R'}, 300, 260, 64);
    check_bidiagonal_2d<TypeParam>(c.ctx, {2, 2, 'C'}, 260, 300, 64);
  }
}

}  // namespace
