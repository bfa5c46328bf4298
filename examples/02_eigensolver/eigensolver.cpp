// SPDX-License-Identifier: BSD-3-Clause
//
// 02_eigensolver: eigenvalues (and optionally the eigenvectors of the smallest ones) of a
// dense symmetric / Hermitian matrix spread over every device of every MPI rank, built
// on mgblas's public API: hetrd_mgpu -> tridiag_eigenvalues_mgpu for the values, and the
// library's eigen-solver heevd_mgpu for the vectors.
//
// What it does, per precision (--type s,d,c,z)
//   1. The matrix A (n x n), on rank 0: either read from a Matrix Market file (--matrix;
//      array or coordinate, general / symmetric / hermitian, real or complex: see
//      ../common/matrix_market.hpp), or generated with a known spectrum (--gen):
//      A = Q D Q^H, Q the unitary factor of the Householder QR of a Gaussian matrix
//      (LAPACKE ?geqrf + ?orgqr / ?ungqr, then one gemm), formed in double precision and
//      rounded to the case's precision, with D
//        random     uniform on [-1, 1];
//        clustered  half of the values 0.5 + i * 1e-9 (a cluster narrower than 1e-6),
//                   the rest uniform on [-1, 1];
//        graded     D_i = +-10^(-12 i / (n-1)), random signs.
//      DistMatrix::distribute deals its block columns (width nb = min(--nb, n)) over all
//      devices of all ranks (BlockCyclic1D). Only the --uplo triangle is sent: the other
//      one is NaN on the devices, so a read of it would show.
//   2. T = Q^H A Q with hetrd_mgpu (host-output form: d, e, tau on every rank), timed
//      with the devices synchronised, max over ranks. --profile runs it a second time
//      with HetrdOptions::profile set (the profile synchronises at every phase, so the
//      timed run is a separate, unprofiled one).
//   3. The n eigenvalues of T with tridiag_eigenvalues_mgpu (bisection, the index range
//      split over every device of every rank).
//   4. --vectors K: heevd_mgpu(uplo, A, w, &Z, EigenRange::smallest(K)) (K = n: all) on a
//      fresh copy of A, Z an n x K DistMatrix with its own BlockCyclic1D over the K
//      columns: its own reduction, T's eigenvectors (divide and conquer on each rank's
//      first device; LAPACK ?stedc on host devices) copied to every device's columns of
//      Z, and the back-transformation Q Z, each phase timed (HeevdProfile).
//   5. The check (rank 0, in double precision; the verdict is broadcast).
//
// How to run
//   mpirun -np 2 build/examples/02_eigensolver/mgblas_eigensolver --n 2000 --vectors 10
//   mpirun -np 4 build/examples/02_eigensolver/mgblas_eigensolver --n 8000 --nb 256
//          --type d,z --gen clustered --no-check                (one command line)
//   mpirun -np 2 build/examples/02_eigensolver/mgblas_eigensolver
//          --matrix examples/02_eigensolver/data/path10.mtx --type d,z --vectors 3
//   Open MPI as root on a small machine: add --oversubscribe --allow-run-as-root.
//   GPUs are used when present, else host devices (MGBLAS_HOST_DEVICES per rank).
//   On a small machine with several ranks per core set OMP_NUM_THREADS=1: OpenMP and
//   OpenBLAS threads spinning against each other made complex cases 100x slower.
//
// Expected output (host devices, 2 ranks x 2 devices, one OpenMP thread per rank on 2
// cores; times vary):
//   MGBLAS_HOST_DEVICES=2 OMP_NUM_THREADS=1 mpirun -np 2 mgblas_eigensolver --n 300
//       --nb 32 --type s,d,c,z --gen clustered --vectors 8 --profile
//   # mgblas 0.1.0 -- distributed eigen-solver (hetrd_mgpu, stebz_mgpu, heevd_mgpu)
//   # back-end host, 2 ranks, 4 devices (2 on rank 0), reducer host (pinned staging, host sum, MPI_Allreduce)
//   # matrix A = Q D Q^H, D clustered, seed 1; uplo L; 8 eigenvectors
//   # times in seconds, max over ranks; GFLOP/s = (4/3) n^3 / t_trd (complex types: 4x the flops)
//   # type      n   nb ranks devices t_trd(s)  GFLOP/s t_eig(s) t_vec(s)  eig_err vec_resid  status
//        s    300   32     2       4   0.1455    0.247   0.0212   0.1639  3.7e-02   4.6e-02  ok
//   #   s: ||A||_2 9.8e-01; eig_err vs D 3.7e-02, vs ?syevd 2.4e-02; vec_orth 4.2e-02; heevd_mgpu: reduction 0.1566 s, tridiagonal 0.0070 s, back-transform 0.0011 s
//   # phases: s symv 1% panel 2% comm 27% update 9% other 61% of 0.1395 s (profiled run)
//        d    300   32     2       4   0.1551    0.232   0.0399   0.1451  4.1e-02   4.4e-02  ok
//   #   d: ||A||_2 9.8e-01; eig_err vs D 1.5e-02, vs ?syevd 4.1e-02; vec_orth 3.9e-02; heevd_mgpu: reduction 0.1380 s, tridiagonal 0.0059 s, back-transform 0.0015 s
//   # phases: d symv 1% panel 7% comm 28% update 1% other 63% of 0.1483 s (profiled run)
//        c    300   32     2       4   0.1323    1.088   0.0094   0.1877  3.3e-02   5.8e-02  ok
//   #   c: ||A||_2 9.8e-01; eig_err vs D 3.3e-02, vs ?heevd 2.7e-02; vec_orth 3.0e-02; heevd_mgpu: reduction 0.1728 s, tridiagonal 0.0136 s, back-transform 0.0017 s
//   # phases: c symv 2% panel 11% comm 28% update 6% other 53% of 0.1490 s (profiled run)
//        z    300   32     2       4   0.1598    0.901   0.0446   0.1713  2.0e-02   4.4e-02  ok
//   #   z: ||A||_2 9.8e-01; eig_err vs D 1.0e-02, vs ?heevd 2.0e-02; vec_orth 6.1e-02; heevd_mgpu: reduction 0.1672 s, tridiagonal 0.0042 s, back-transform 0.0036 s
//   # phases: z symv 12% panel 11% comm 20% update 1% other 55% of 0.1670 s (profiled run)
//   # 4 cases, 0 failed
//   (At this size, with 2 ranks sharing 2 cores, the reduction is mostly fixed cost and
//   its split varies from run to run: "other" is what no HetrdProfile phase covers,
//   i.e. argument agreement, workspace and transport set-up, and waiting for the peer.)
//
// The columns
//   t_trd     hetrd_mgpu, seconds (max over ranks); GFLOP/s = (4/3) n^3 / t_trd for
//             real types and 4 * (4/3) n^3 / t_trd for complex ones.
//   t_eig     tridiag_eigenvalues_mgpu; t_vec: the whole heevd_mgpu call with vectors
//             ("-" without --vectors); the '#' line under the row splits it into its
//             reduction, tridiagonal and back-transform phases (max over ranks).
//   eig_err   max_i |lambda_i - lambda_i(ref)| / (n ||A||_2 eps): against the sorted D
//             of a generated matrix, and against LAPACKE ?syevd / ?heevd of rank 0's copy
//             of A for a file (and, with --check, for a generated matrix up to n = 2000);
//             the larger of the two. ||A||_2 = max |lambda(ref)|.
//   vec_resid ||A X - X Lambda||_1 / (n ||A||_1 eps), X the K eigenvectors collected on
//             rank 0, Lambda the K smallest eigenvalues of step 3 (--check, n <= 4000);
//             vec_orth (on the '#' line) ||I - X^H X||_1 / (n eps).
//   status    ok when all are <= --tol (default 100); unchecked when none was
//             computed (a file with --no-check); skipped for a real type on a complex
//             file. The exit status is non-zero if any case fails.
//   # phases  (--profile) HetrdProfile of the second run, max over ranks.

#include <CLI/CLI.hpp>
#include <mgblas/mgblas.hpp>

#include "../common/example_driver.hpp"
#include "../common/example_main.hpp"
#include "../common/lapacke_std_complex.hpp"
#include "../common/matrix_market.hpp"

#include <cblas.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <complex>
#include <cstdint>
#include <cstdio>
#include <limits>
#include <optional>
#include <random>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

namespace {

using namespace mgblas;

struct Options {
  int64_t n = 1000;
  std::string matrix;  // Matrix Market file; empty: generated
  std::string gen = "random";
  int64_t vectors = 0;
  std::vector<std::string> types = examples::default_types("dz");
  int64_t nb = 256;
  std::string uplo = "L";
  bool check = true;
  bool profile = false;
  double tol = 100;
  uint64_t seed = 1;
};

template <Scalar T>
using Real = real_type_t<T>;
// The precision every host-side generation and check runs in: double or complex<double>.
template <Scalar T>
using Wide = std::conditional_t<is_complex_v<T>, zcomplex, double>;

// ---- The matrix ---------------------------------------------------------------------

// Q of the Householder QR of an n x n Gaussian matrix (?geqrf + ?orgqr / ?ungqr): a
// random unitary matrix. (Haar measure would also need the signs of diag(R); Q D Q^H
// does not depend on them, as diagonal sign matrices commute with D.)
template <typename W>
std::vector<W> random_unitary(int64_t n, std::mt19937_64& rng) {
  std::normal_distribution<double> g;
  std::vector<W> q(static_cast<std::size_t>(n * n)), tau(n);
  for (auto& x : q) {
    if constexpr (is_complex_v<W>) {
      const double re = g(rng);
      x = W(re, g(rng));
    } else {
      x = g(rng);
    }
  }
  const int ni = static_cast<int>(n);
  int info;
  if constexpr (is_complex_v<W>) {
    info = LAPACKE_zgeqrf(LAPACK_COL_MAJOR, ni, ni, q.data(), ni, tau.data());
    if (info == 0) info = LAPACKE_zungqr(LAPACK_COL_MAJOR, ni, ni, ni, q.data(), ni, tau.data());
  } else {
    info = LAPACKE_dgeqrf(LAPACK_COL_MAJOR, ni, ni, q.data(), ni, tau.data());
    if (info == 0) info = LAPACKE_dorgqr(LAPACK_COL_MAJOR, ni, ni, ni, q.data(), ni, tau.data());
  }
  if (info != 0) throw std::runtime_error("random_unitary: LAPACKE info " + std::to_string(info));
  return q;
}

// The spectrum D of --gen (unsorted: its order is the columns of Q).
std::vector<double> make_spectrum(const std::string& gen, int64_t n, std::mt19937_64& rng) {
  std::uniform_real_distribution<double> u(-1, 1);
  std::vector<double> D(n);
  for (auto& x : D) x = u(rng);
  if (gen == "clustered") {
    // Half of them 1e-9 apart (1e-6 / half apart beyond n = 2000): one cluster of width
    // < 1e-6 around 0.5, well inside the spectrum's range [-1, 1].
    const int64_t half = n / 2;
    const double step = std::min(1e-9, 1e-6 / static_cast<double>(std::max<int64_t>(half, 1)));
    for (int64_t i = 0; i < half; ++i) D[i] = 0.5 + static_cast<double>(i) * step;
  } else if (gen == "graded") {
    for (int64_t i = 0; i < n; ++i) {
      const double expo = n > 1 ? -12.0 * static_cast<double>(i) / static_cast<double>(n - 1) : 0;
      D[i] = std::copysign(std::pow(10.0, expo), u(rng));
    }
  }
  return D;
}

// A = Q diag(D) Q^H in double precision, made exactly Hermitian (upper = conj(lower),
// real diagonal) so that both triangles describe the same matrix.
template <typename W>
std::vector<W> with_spectrum(int64_t n, const std::vector<double>& D, std::mt19937_64& rng) {
  const std::vector<W> q = random_unitary<W>(n, rng);
  std::vector<W> qd = q, a(static_cast<std::size_t>(n * n));
  for (int64_t j = 0; j < n; ++j)
    for (int64_t i = 0; i < n; ++i) qd[i + j * n] *= D[j];
  const int ni = static_cast<int>(n);
  if constexpr (is_complex_v<W>) {
    const W one(1), zero(0);
    cblas_zgemm(CblasColMajor, CblasNoTrans, CblasConjTrans, ni, ni, ni, &one, qd.data(), ni,
                q.data(), ni, &zero, a.data(), ni);
  } else {
    cblas_dgemm(CblasColMajor, CblasNoTrans, CblasTrans, ni, ni, ni, 1.0, qd.data(), ni,
                q.data(), ni, 0.0, a.data(), ni);
  }
  for (int64_t j = 0; j < n; ++j) {
    a[j + j * n] = W(std::real(a[j + j * n]));
    for (int64_t i = j + 1; i < n; ++i) a[j + i * n] = mgblas::conj(a[i + j * n]);
  }
  return a;
}

// What rank 0 read from --matrix, once for every precision.
struct FileMatrix {
  bool present = false;
  bool complex = false;
  int64_t n = 0;
  std::string desc;
  std::vector<zcomplex> a;  // rank 0 only
};

// The case's A on rank 0 (full storage, precision T) and, for a generated matrix, its
// sorted spectrum.
template <Scalar T>
void make_matrix(const Options& o, const FileMatrix& file, int64_t n, std::vector<T>& A,
                 std::vector<double>& known) {
  A.resize(static_cast<std::size_t>(n * n));
  if (file.present) {
    for (std::size_t k = 0; k < A.size(); ++k) {
      if constexpr (is_complex_v<T>)
        A[k] = T(static_cast<Real<T>>(file.a[k].real()), static_cast<Real<T>>(file.a[k].imag()));
      else
        A[k] = static_cast<T>(file.a[k].real());
    }
    return;
  }
  // Same seed, same matrix for s and d (and for c and z): the precisions are comparable.
  std::mt19937_64 rng(o.seed);
  known = make_spectrum(o.gen, n, rng);
  const std::vector<Wide<T>> a = with_spectrum<Wide<T>>(n, known, rng);
  for (std::size_t k = 0; k < A.size(); ++k) {
    if constexpr (is_complex_v<T>)
      A[k] = T(static_cast<Real<T>>(a[k].real()), static_cast<Real<T>>(a[k].imag()));
    else
      A[k] = static_cast<T>(a[k]);
  }
  std::sort(known.begin(), known.end());
}

// ---- LAPACKE per precision ----------------------------------------------------------

int heevd(int n, float* a, float* w) {
  return LAPACKE_ssyevd(LAPACK_COL_MAJOR, 'N', 'L', n, a, n, w);
}
int heevd(int n, double* a, double* w) {
  return LAPACKE_dsyevd(LAPACK_COL_MAJOR, 'N', 'L', n, a, n, w);
}
int heevd(int n, scomplex* a, float* w) {
  return LAPACKE_cheevd(LAPACK_COL_MAJOR, 'N', 'L', n, a, n, w);
}
int heevd(int n, zcomplex* a, double* w) {
  return LAPACKE_zheevd(LAPACK_COL_MAJOR, 'N', 'L', n, a, n, w);
}

// ---- The solver ---------------------------------------------------------------------

// The eigenvalues of T (d, e) on every rank, ascending: the library's bisection over
// every device of every rank.
template <typename R>
std::vector<R> tridiagonal_eigenvalues(Context& ctx, const std::vector<R>& d,
                                       const std::vector<R>& e) {
  return tridiag_eigenvalues_mgpu(ctx, d, e);
}

struct Result {
  double t_trd = 0, t_eig = 0, t_vec = 0;  // seconds, max over ranks
  double t_vec_trd = 0, t_vec_tri = 0, t_vec_back = 0;  // heevd_mgpu's phases
  std::optional<HetrdProfile> profile;
  double anorm = 0;
  std::optional<double> err_known, err_ref, vec_resid, vec_orth;
  bool skipped = false;
  bool ok = true;
};

// Max over ranks of a time in seconds (at microsecond resolution).
double max_over_ranks(const Communicator& comm, double s) {
  return static_cast<double>(comm.allreduce_max(static_cast<int64_t>(s * 1e6))) * 1e-6;
}

template <Scalar T>
Result run_case(const std::shared_ptr<Context>& ctx_ptr, const Options& o,
                const FileMatrix& file) {
  using R = Real<T>;
  Context& ctx = *ctx_ptr;
  const Communicator& comm = ctx.comm();
  const bool root = ctx.rank() == 0;
  const int64_t n = file.present ? file.n : o.n;
  const int64_t nb = std::min(o.nb, n);
  const int64_t K = o.vectors;
  const Uplo uplo = o.uplo == "U" ? Uplo::Upper : Uplo::Lower;
  Result r;
  if (file.present && file.complex && !is_complex_v<T>) {
    r.skipped = true;  // the same on every rank: file.complex was broadcast
    return r;
  }

  std::vector<T> A_host, one_triangle;
  std::vector<double> known;
  if (root) {
    make_matrix<T>(o, file, n, A_host, known);
    // The other triangle as NaN: the devices only ever see the --uplo one.
    one_triangle = A_host;
    const T nan(std::numeric_limits<R>::quiet_NaN());
    for (int64_t j = 0; j < n; ++j)
      for (int64_t i = 0; i < n; ++i)
        if (uplo == Uplo::Lower ? i < j : i > j) one_triangle[i + j * n] = nan;
  }
  DistMatrix<T> A(ctx_ptr, BlockCyclic1D(n, n, nb, ctx.global_num_devices()));
  A.distribute(root ? one_triangle.data() : nullptr, n, /*root=*/0);

  // 2. Tridiagonal reduction (host outputs, the same on every rank).
  std::vector<R> d(n), e(std::max<int64_t>(n - 1, 1));
  std::vector<T> tau(std::max<int64_t>(n - 1, 1));
  ctx.synchronize();
  r.t_trd = 1e-3 * examples::timed_max_ms(comm, [&] {
              hetrd_mgpu<T>(uplo, A, d.data(), e.data(), tau.data());
              ctx.synchronize();
            });
  if (o.profile) {
    // A second reduction of the same matrix with the profile on; it overwrites A, d, e
    // and tau with the same reduction, so the steps below stay consistent.
    A.distribute(root ? one_triangle.data() : nullptr, n, 0);
    HetrdProfile p;
    HetrdOptions opts;
    opts.profile = &p;
    hetrd_mgpu<T>(uplo, A, d.data(), e.data(), tau.data(), opts);
    for (double* x : {&p.symv, &p.panel, &p.comm, &p.update, &p.total})
      *x = max_over_ranks(comm, *x);
    r.profile = p;
  }
  // Kept for the eigen-solver's own run below.
  std::vector<T> A_triangle = K > 0 ? std::move(one_triangle) : std::vector<T>{};
  one_triangle = {};

  // 3. Eigenvalues of T.
  std::vector<R> w;
  e.resize(std::max<int64_t>(n - 1, 0));
  r.t_eig = 1e-3 * examples::timed_max_ms(comm, [&] { w = tridiagonal_eigenvalues(ctx, d, e); });

  // 4. Eigenvectors for the K smallest eigenvalues (K = n: all) with the library's
  // eigen-solver, heevd_mgpu, on a fresh copy of A (hetrd_mgpu above overwrote it): its
  // own reduction, T's eigenvectors on every device's columns of Z, and Q Z.
  std::vector<T> X;
  if (K > 0) {
    const int P = ctx.global_num_devices();
    DistMatrix<T> Z(ctx_ptr, BlockCyclic1D(n, K, std::min(nb, (K + P - 1) / P), P));
    std::vector<R> wz(static_cast<std::size_t>(n));
    HeevdProfile prof;
    HeevdOptions opts;
    opts.profile = &prof;
    const EigenRange range = K == n ? EigenRange::all() : EigenRange::smallest(K);
    A.distribute(root ? A_triangle.data() : nullptr, n, 0);
    ctx.synchronize();
    int64_t m = 0;
    r.t_vec = 1e-3 * examples::timed_max_ms(comm, [&] {
                m = heevd_mgpu<T>(uplo, A, wz.data(), &Z, range, opts);
                ctx.synchronize();
              });
    if (m != K) throw std::runtime_error("heevd_mgpu returned " + std::to_string(m) + " pairs");
    r.t_vec_trd = max_over_ranks(comm, prof.reduction);
    r.t_vec_tri = max_over_ranks(comm, prof.tridiagonal);
    r.t_vec_back = max_over_ranks(comm, prof.back_transform);
    if (root) X.resize(static_cast<std::size_t>(n * K));
    Z.collect(root ? X.data() : nullptr, n, 0);
  }
  A_triangle = {};

  // 5. The check on rank 0.
  //  +-----------------------------------------------------------------------------------+
  //  |  generated:  err_known = max |w - sort(D)| / (n ||A||_2 eps), ||A||_2 = max |D|   |
  //  |  file, or --check and n <= 2000:  lambda_ref = ?syevd/?heevd(A) (precision T)     |
  //  |              err_ref = max |w - lambda_ref| / (n ||A||_2 eps)                      |
  //  |  --vectors, --check, n <= 4000:  R = A X - X diag(w(0:K)) in double              |
  //  |              vec_resid = ||R||_1 / (n ||A||_1 eps)                                |
  //  |  ok when every one computed is <= tol (and finite)                               |
  //  +-----------------------------------------------------------------------------------+
  bool fine = true;
  if (root) {
    const double eps = std::numeric_limits<R>::epsilon();
    const double nd = static_cast<double>(std::max<int64_t>(n, 1));
    const auto max_err = [&](const auto& ref) {
      double most = 0;
      for (int64_t i = 0; i < n; ++i)
        most = std::max(most, std::abs(static_cast<double>(w[i]) - static_cast<double>(ref[i])));
      return most;
    };
    if (!known.empty()) {
      for (double x : known) r.anorm = std::max(r.anorm, std::abs(x));
      r.err_known = max_err(known) / (nd * r.anorm * eps);
    }
    if (n > 0 && ((file.present && o.check) || (!file.present && o.check && n <= 2000))) {
      std::vector<T> a = A_host;
      std::vector<R> lam(n);
      const int info = heevd(static_cast<int>(n), a.data(), lam.data());
      if (file.present)
        for (R x : lam) r.anorm = std::max(r.anorm, std::abs(static_cast<double>(x)));
      r.err_ref = info == 0 ? max_err(lam) / (nd * std::max(r.anorm, 1e-300) * eps)
                            : std::numeric_limits<double>::infinity();
    }
    if (K > 0 && o.check && n <= 4000) {
      double res_one = 0, a_one = 0;
      for (int64_t j = 0; j < n; ++j) {
        double col = 0;
        for (int64_t i = 0; i < n; ++i) col += std::abs(static_cast<Wide<T>>(A_host[i + j * n]));
        a_one = std::max(a_one, col);
      }
      std::vector<Wide<T>> ax(n);
      for (int64_t k = 0; k < K; ++k) {
        const T* x = X.data() + k * n;
        const double lambda = static_cast<double>(w[k]);
        for (int64_t i = 0; i < n; ++i) ax[i] = -lambda * static_cast<Wide<T>>(x[i]);
        for (int64_t j = 0; j < n; ++j) {
          const Wide<T> xj = static_cast<Wide<T>>(x[j]);
          const T* aj = A_host.data() + j * n;
          for (int64_t i = 0; i < n; ++i) ax[i] += static_cast<Wide<T>>(aj[i]) * xj;
        }
        double col = 0;
        for (const auto& v : ax) col += std::abs(v);
        res_one = std::max(res_one, col);
      }
      r.vec_resid = res_one / (nd * std::max(a_one, 1e-300) * eps);
      // ||I - X^H X||_1 / (n eps), in double.
      double orth_one = 0;
      for (int64_t j = 0; j < K; ++j) {
        double col = 0;
        for (int64_t i = 0; i < K; ++i) {
          Wide<T> dot = 0;
          for (int64_t k = 0; k < n; ++k) {
            const auto xi = static_cast<Wide<T>>(X[k + i * n]);
            if constexpr (is_complex_v<T>) dot += std::conj(xi) * static_cast<Wide<T>>(X[k + j * n]);
            else dot += xi * static_cast<Wide<T>>(X[k + j * n]);
          }
          col += std::abs((i == j ? Wide<T>(1) : Wide<T>(0)) - dot);
        }
        orth_one = std::max(orth_one, col);
      }
      r.vec_orth = orth_one / (nd * eps);
    }
    for (const auto& err : {r.err_known, r.err_ref, r.vec_resid, r.vec_orth})
      if (err) fine = fine && std::isfinite(*err) && *err <= o.tol;
  }
  r.ok = examples::share_verdict(comm, fine);
  return r;
}

template <Scalar T>
bool run_type(const std::shared_ptr<Context>& ctx, const Options& o, const FileMatrix& file) {
  const Result r = run_case<T>(ctx, o, file);
  if (ctx->rank() != 0) return r.ok;
  const char t = precision_letter<T>();
  const int64_t n = file.present ? file.n : o.n;
  if (r.skipped) {
    std::printf("# %4c: skipped: the matrix file is complex, type %c is real\n", t, t);
    std::fflush(stdout);
    return true;
  }
  const double nd = static_cast<double>(n);
  const double flops = (is_complex_v<T> ? 4.0 : 1.0) * 4.0 / 3.0 * nd * nd * nd;
  const auto num = [](const std::optional<double>& x, char* buf) {
    if (x) std::snprintf(buf, 16, "%.1e", *x);
    else std::snprintf(buf, 16, "-");
    return buf;
  };
  char eig[16], vec[16], tvec[16];
  std::optional<double> eig_err;
  for (const auto& x : {r.err_known, r.err_ref})
    if (x) eig_err = std::max(eig_err.value_or(0.0), *x);
  if (o.vectors > 0) std::snprintf(tvec, sizeof tvec, "%.4f", r.t_vec);
  else std::snprintf(tvec, sizeof tvec, "-");
  const bool checked = eig_err || r.vec_resid;
  std::printf("%6c %6lld %4lld %5d %7d %8.4f %8.3f %8.4f %8s %8s %9s  %s\n", t,
              static_cast<long long>(n), static_cast<long long>(std::min(o.nb, n)),
              ctx->nranks(), ctx->global_num_devices(), r.t_trd,
              r.t_trd > 0 ? flops / r.t_trd * 1e-9 : 0.0, r.t_eig, tvec, num(eig_err, eig),
              num(r.vec_resid, vec), !r.ok ? "FAILED" : (checked ? "ok" : "unchecked"));
  char e0[16], e1[16], e2[16];
  std::printf("#   %c: ||A||_2 %s; eig_err vs D %s, vs ?%s %s", t,
              num(r.anorm > 0 ? std::optional<double>(r.anorm) : std::nullopt, e0),
              num(r.err_known, e1), is_complex_v<T> ? "heevd" : "syevd", num(r.err_ref, e2));
  if (o.vectors > 0) {
    char e3[16];
    std::printf("; vec_orth %s; heevd_mgpu: reduction %.4f s, tridiagonal %.4f s, back-transform "
                "%.4f s", num(r.vec_orth, e3), r.t_vec_trd, r.t_vec_tri, r.t_vec_back);
  }
  std::printf("\n");
  if (r.profile) {
    const HetrdProfile& p = *r.profile;
    const double tot = p.total > 0 ? p.total : 1;
    // other: what no phase covers, i.e. the argument agreement, workspace and transport
    // set-up and the copy of the outputs (each field is a max over ranks on its own, so
    // this is approximate).
    const double other = std::max(0.0, p.total - p.symv - p.panel - p.comm - p.update);
    std::printf("# phases: %c symv %.0f%% panel %.0f%% comm %.0f%% update %.0f%% other %.0f%% "
                "of %.4f s (profiled run)\n",
                t, 100 * p.symv / tot, 100 * p.panel / tot, 100 * p.comm / tot,
                100 * p.update / tot, 100 * other / tot, p.total);
  }
  std::fflush(stdout);
  return r.ok;
}

// Rank 0 reads --matrix; n, the field and the outcome reach every rank. Returns false
// (after rank 0 printed why) when the file cannot be used.
bool load_file(const Context& ctx, const Options& o, FileMatrix& file) {
  file.present = true;
  int64_t head[2] = {-1, 0};  // n (-1: failed), complex
  if (ctx.rank() == 0) {
    try {
      examples::MatrixMarket mm = examples::read_matrix_market(o.matrix);
      if (mm.symmetry == "general" && examples::hermitian_defect(mm) > 1e-12)
        throw std::runtime_error(o.matrix + ": a general matrix that is not " +
                                 (mm.complex ? "Hermitian" : "symmetric"));
      head[0] = mm.n;
      head[1] = mm.complex ? 1 : 0;
      file.desc = mm.format + " " + (mm.complex ? "complex " : "real ") + mm.symmetry;
      file.a = std::move(mm.a);
    } catch (const std::exception& ex) {
      std::fprintf(stderr, "mgblas_eigensolver: %s\n", ex.what());
    }
  }
  ctx.comm().bcast(head, sizeof head, 0);
  file.n = head[0];
  file.complex = head[1] != 0;
  return file.n >= 0;
}

int run(int argc, char** argv, int world_rank) {
  Options o;
  CLI::App app{"mgblas distributed symmetric / Hermitian eigen-solver"};
  app.add_option("--n", o.n, "matrix order of a generated matrix")
      ->capture_default_str()
      ->check(CLI::PositiveNumber);
  auto* matrix = app.add_option("--matrix", o.matrix, "Matrix Market file (read on rank 0)")
                     ->check(CLI::ExistingFile);
  auto* gen = app.add_option("--gen", o.gen, "spectrum of a generated matrix A = Q D Q^H")
                  ->capture_default_str()
                  ->check(CLI::IsMember({"random", "clustered", "graded"}));
  matrix->excludes(gen);
  app.add_option("--vectors", o.vectors, "eigenvectors of the K smallest eigenvalues")
      ->capture_default_str()
      ->check(CLI::NonNegativeNumber);
  examples::add_layout_options(app, o.nb, o.types);
  app.add_option("--uplo", o.uplo, "triangle of A the reduction reads")
      ->capture_default_str()
      ->check(CLI::IsMember({"L", "U"}));
  app.add_flag("--check,!--no-check", o.check,
               "compare with LAPACK ?syevd/?heevd (n <= 2000 when generated) and compute the "
               "eigenvector residual (n <= 4000)")
      ->capture_default_str();
  app.add_flag("--profile", o.profile, "a second, profiled reduction: the '# phases:' line");
  app.add_option("--tol", o.tol, "pass when eig_err and vec_resid are <= tol")
      ->capture_default_str()
      ->check(CLI::PositiveNumber);
  app.add_option("--seed", o.seed, "seed of the generated matrix")->capture_default_str();
  if (const auto status = examples::parse_all_ranks(app, argc, argv, world_rank)) return *status;

  const auto ctx = Context::create();
  FileMatrix file;
  if (!o.matrix.empty()) {
    if (!load_file(*ctx, o, file)) return 2;
    if (app.count("--n") > 0 && o.n != file.n) {
      if (ctx->rank() == 0)
        std::fprintf(stderr, "mgblas_eigensolver: --n %lld but %s is %lld x %lld\n",
                     static_cast<long long>(o.n), o.matrix.c_str(),
                     static_cast<long long>(file.n), static_cast<long long>(file.n));
      return 2;
    }
  }
  const int64_t n = file.present ? file.n : o.n;
  if (o.vectors > n) {
    if (ctx->rank() == 0)
      std::fprintf(stderr, "mgblas_eigensolver: --vectors %lld > n = %lld\n",
                   static_cast<long long>(o.vectors), static_cast<long long>(n));
    return 2;
  }

  // The banner wants a Reducer; hetrd_mgpu and unmtr_mgpu pick their own transport.
  const auto reducer = make_reducer(ctx, ReducerKind::Auto);
  examples::print_banner(*reducer, "distributed eigen-solver (hetrd_mgpu, stebz_mgpu, heevd_mgpu)",
                         argc, argv);
  if (ctx->rank() == 0) {
    if (file.present)
      std::printf("# matrix %s (Matrix Market %s), n = %lld", o.matrix.c_str(), file.desc.c_str(),
                  static_cast<long long>(n));
    else
      std::printf("# matrix A = Q D Q^H, D %s, seed %llu", o.gen.c_str(),
                  static_cast<unsigned long long>(o.seed));
    std::printf("; uplo %s; %lld eigenvectors\n", o.uplo.c_str(),
                static_cast<long long>(o.vectors));
    std::printf("# times in seconds, max over ranks; GFLOP/s = (4/3) n^3 / t_trd (complex "
                "types: 4x the flops)\n");
    std::printf("# %4s %6s %4s %5s %7s %8s %8s %8s %8s %8s %9s  %s\n", "type", "n", "nb",
                "ranks", "devices", "t_trd(s)", "GFLOP/s", "t_eig(s)", "t_vec(s)", "eig_err",
                "vec_resid", "status");
    std::fflush(stdout);
  }
  // Verdicts are decided on rank 0 and broadcast, so every rank exits alike.
  return examples::run_cases(*ctx, o.types, [&](auto tag) {
    return run_type<typename decltype(tag)::type>(ctx, o, file);
  });
}

}  // namespace

int main(int argc, char** argv) {
  return mgblas::examples::run_main("mgblas_eigensolver", argc, argv, run);
}
