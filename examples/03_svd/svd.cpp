// SPDX-License-Identifier: BSD-3-Clause
//
// 03_svd: singular values (and optionally singular vectors) of a dense m x n matrix
// spread over every device of every MPI rank, built on mgblas's public API: gebrd_mgpu
// reduces A to bidiagonal form on all devices, then LAPACK finishes on rank 0.
//
// What it does, per precision (--type s,d,c,z); every phase is timed
//   1. The matrix A, made on rank 0 (--matrix):
//        random   entries uniform on [-1, 1] (real and imaginary parts for c, z);
//        graded   A = U diag(S) V^H with S_i = 10^(-12 i / (k-1)), i = 0 .. k-1, k =
//                 min(m, n): known singular values from 1 down to 1e-12; U (m x k) and V
//                 (n x k) have orthonormal columns, from the QR of Gaussian matrices
//                 (complex for c, z), formed in double precision, then rounded;
//        FILE.mtx a Matrix Market file (m x n general, or square symmetric / hermitian;
//                 see ../common/matrix_market.hpp); --m and --n are then ignored.
//      t_dist: DistMatrix::distribute deals its block columns (width nb) over all devices
//      of all ranks.
//   2. t_brd: B = Q^H A P with gebrd_mgpu on every device of every rank (upper bidiagonal
//      for m >= n, lower for m < n): d, e, tauq, taup on every rank, the reflectors left
//      in A as LAPACK's ?gebrd stores them. Timed with the devices synchronised.
//   3. t_sv: B's singular values with LAPACKE ?bdsqr on rank 0 (?bdsdc with --vectors,
//      which also gives B = U_B S V_B^T).
//   4. t_vec, only with --vectors K: the K largest singular triplets, u_i = Q U_B(:, i)
//      and v_i = P V_B(:, i). The reduced A is gathered on rank 0 and the reflectors are
//      applied there by the HOST, with LAPACKE ?ormbr / ?unmbr: this back-transformation
//      is not distributed; a distributed ormbr_mgpu (GEMM-rich, on the devices) is
//      future work. t_vec is the gather plus the host ?ormbr.
//   5. The check (rank 0, the verdict shared with every rank):
//        sv_err    = max_i |sigma_i - sigma_i(ref)| / (max(m, n) ||A||_2 eps), the
//                    reference being the known S of a graded matrix, or else LAPACKE
//                    ?gesdd('N') of rank 0's copy of A in double precision;
//        vec_resid = max_i ||A v_i - sigma_i u_i||_2 / (max(m, n) ||A||_2 eps).
//      A case is ok when both are <= --tol (default 100); the program exits 1 when a case
//      is not.
//
// How to run
//   mpirun -np 2 build/examples/03_svd/mgblas_svd --m 2000 --n 1500 --vectors 5
//   mpirun -np 4 build/examples/03_svd/mgblas_svd --m 8192 --n 8192 --nb 256 --type d,z
//   mpirun -np 2 build/examples/03_svd/mgblas_svd --m 900 --n 1300 --matrix graded
//   mpirun -np 2 build/examples/03_svd/mgblas_svd --matrix examples/03_svd/data/rect7x5.mtx
//       --nb 2 --vectors 3
//   Open MPI as root on a small machine: add --oversubscribe --allow-run-as-root.
//   GPUs are used when present, else host devices (MGBLAS_HOST_DEVICES per rank); with
//   several ranks per core set OMP_NUM_THREADS=1 (see 02_eigensolver).
//
// Expected output (host devices, 2 ranks x 2 devices, one OpenMP thread per rank on 2
// cores; times vary):
//   MGBLAS_HOST_DEVICES=2 OMP_NUM_THREADS=1 mpirun -np 2 mgblas_svd --m 150 --n 110
//       --nb 24 --type s,d,c,z --vectors 4
//   # matrix: random, entries uniform on [-1, 1]
//   # singular vectors: 4 pairs, back-transformed by rank 0's HOST (LAPACKE ?ormbr / ?unmbr on
//   #   the gathered reduced matrix; a distributed ormbr on the devices is future work)
//   # sv_err vs LAPACKE ?gesdd (double precision); errors in units of max(m, n) ||A||_2 eps, bound 100
//   # times in seconds (max over ranks); GFLOP/s of gebrd_mgpu = ... (complex: 4x)
//   #  type       m       n    nb ranks devices t_dist(s)  t_brd(s)   GFLOP/s   t_sv(s)  t_vec(s)    sv_err vec_resid  status
//        s     150     110    24     2       4    0.0002    0.0097      0.57    0.0009    0.0003   1.4e-02   3.6e-02  ok
//        d     150     110    24     2       4    0.0001    0.0085      0.65    0.0009    0.0002   4.6e-02   4.5e-02  ok
//        c     150     110    24     2       4    0.0000    0.0146      1.51    0.0011    0.0003   2.0e-02   3.3e-02  ok
//        z     150     110    24     2       4    0.0001    0.0137      1.60    0.0010    0.0003   5.3e-02   5.0e-02  ok
//   # 4 cases, 0 failed
//
// The columns
//   t_dist   DistMatrix::distribute from rank 0, seconds (max over ranks)
//   t_brd    gebrd_mgpu, seconds (max over ranks); GFLOP/s = (4 M K^2 - 4 K^3 / 3) / t_brd,
//            M = max(m, n), K = min(m, n) (complex types: 4x the flops)
//   t_sv     ?bdsqr (or ?bdsdc) on rank 0
//   t_vec    the gather of A on rank 0 (max over ranks) and ?ormbr / ?unmbr on its host
#include "../common/lapacke_std_complex.hpp"

#include <CLI/CLI.hpp>
#include <mgblas/mgblas.hpp>

#include "../common/example_driver.hpp"
#include "../common/example_main.hpp"
#include "../common/matrix_market.hpp"

#include <cblas.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <complex>
#include <cstdint>
#include <cstdio>
#include <limits>
#include <random>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

namespace {

using namespace mgblas;
using namespace mgblas::examples;

struct Options {
  int64_t m = 600, n = 500, nb = 64, panel = 0, vectors = 0;
  std::vector<std::string> types = examples::default_types("dz");
  std::string matrix = "random";  // random, graded or a Matrix Market file
  double tol = 100;
  uint64_t seed = 1;
  bool generated() const { return matrix == "random" || matrix == "graded"; }
};

// The precision every host-side generation and check runs in: double or complex<double>.
template <Scalar T>
using Wide = std::conditional_t<is_complex_v<T>, zcomplex, double>;

double seconds_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

void check_info(lapack_int info, const char* what) {
  if (info != 0) throw std::runtime_error(std::string(what) + ": LAPACKE info " + std::to_string(info));
}

// ---- LAPACKE per precision --------------------------------------------------------

// The singular values (descending) of the m x n matrix a (overwritten), wide precision.
template <typename W>
void gesdd_values(int64_t m, int64_t n, W* a, double* s) {
  const auto mi = static_cast<lapack_int>(m), ni = static_cast<lapack_int>(n);
  W dummy{};
  if constexpr (is_complex_v<W>) check_info(LAPACKE_zgesdd(LAPACK_COL_MAJOR, 'N', mi, ni, a, mi, s, &dummy, 1, &dummy, 1), "zgesdd");
  else check_info(LAPACKE_dgesdd(LAPACK_COL_MAJOR, 'N', mi, ni, a, mi, s, &dummy, 1, &dummy, 1), "dgesdd");
}
// The singular values of the bidiagonal B (d, e overwritten; d descending on return).
template <typename R>
lapack_int bdsqr_values(char uplo, lapack_int k, R* d, R* e) {
  if constexpr (std::is_same_v<R, float>) return LAPACKE_sbdsqr(LAPACK_COL_MAJOR, uplo, k, 0, 0, 0, d, e, nullptr, 1, nullptr, 1, nullptr, 1);
  else return LAPACKE_dbdsqr(LAPACK_COL_MAJOR, uplo, k, 0, 0, 0, d, e, nullptr, 1, nullptr, 1, nullptr, 1);
}
// B = U S VT with U, VT k x k (compq 'I').
template <typename R>
lapack_int bdsdc(char uplo, lapack_int k, R* d, R* e, R* u, R* vt) {
  if constexpr (std::is_same_v<R, float>) return LAPACKE_sbdsdc(LAPACK_COL_MAJOR, uplo, 'I', k, d, e, u, k, vt, k, nullptr, nullptr);
  else return LAPACKE_dbdsdc(LAPACK_COL_MAJOR, uplo, 'I', k, d, e, u, k, vt, k, nullptr, nullptr);
}
// C = Q C (vect 'Q', C m x K, kk = n) or C = P C (vect 'P', C n x K, kk = m) from
// gebrd's reflectors in a (lda = m); kk is the other dimension of the reduced matrix.
template <typename T>
lapack_int ormbr(char vect, lapack_int rows, lapack_int K, lapack_int kk, const T* a, lapack_int lda,
                 const T* tau, T* c) {
  if constexpr (std::is_same_v<T, float>) return LAPACKE_sormbr(LAPACK_COL_MAJOR, vect, 'L', 'N', rows, K, kk, a, lda, tau, c, rows);
  else if constexpr (std::is_same_v<T, double>) return LAPACKE_dormbr(LAPACK_COL_MAJOR, vect, 'L', 'N', rows, K, kk, a, lda, tau, c, rows);
  else if constexpr (std::is_same_v<T, scomplex>) return LAPACKE_cunmbr(LAPACK_COL_MAJOR, vect, 'L', 'N', rows, K, kk, a, lda, tau, c, rows);
  else return LAPACKE_zunmbr(LAPACK_COL_MAJOR, vect, 'L', 'N', rows, K, kk, a, lda, tau, c, rows);
}

// ---- The matrix ---------------------------------------------------------------------

// A rows x k matrix with orthonormal columns: the Q of the Householder QR of a Gaussian
// one (?geqrf, then ?orgqr / ?ungqr), real or complex as W.
template <typename W>
std::vector<W> orthonormal_columns(int64_t rows, int64_t k, std::mt19937_64& rng) {
  std::normal_distribution<double> g;
  std::vector<W> q(static_cast<std::size_t>(rows * k)), tau(static_cast<std::size_t>(k));
  for (W& x : q) {
    if constexpr (is_complex_v<W>) {
      const double re = g(rng);
      x = W(re, g(rng));
    } else {
      x = g(rng);
    }
  }
  const auto ri = static_cast<lapack_int>(rows), ki = static_cast<lapack_int>(k);
  if constexpr (is_complex_v<W>) {
    check_info(LAPACKE_zgeqrf(LAPACK_COL_MAJOR, ri, ki, q.data(), ri, tau.data()), "zgeqrf");
    check_info(LAPACKE_zungqr(LAPACK_COL_MAJOR, ri, ki, ki, q.data(), ri, tau.data()), "zungqr");
  } else {
    check_info(LAPACKE_dgeqrf(LAPACK_COL_MAJOR, ri, ki, q.data(), ri, tau.data()), "dgeqrf");
    check_info(LAPACKE_dorgqr(LAPACK_COL_MAJOR, ri, ki, ki, q.data(), ri, tau.data()), "dorgqr");
  }
  return q;
}

// Rank 0's matrix in wide precision (m x n, column-major; m and n set from a file) and,
// for a graded one, its singular values (descending) in `known`.
template <typename W>
std::vector<W> make_matrix(const Options& o, int64_t& m, int64_t& n, std::vector<double>& known) {
  std::mt19937_64 rng(o.seed);
  if (!o.generated()) {
    const MatrixMarket mm = read_matrix_market(o.matrix, /*rectangular=*/true);
    m = mm.m;
    n = mm.n;
    std::vector<W> A(mm.a.size());
    for (std::size_t i = 0; i < A.size(); ++i) {
      if constexpr (is_complex_v<W>) A[i] = mm.a[i];
      else A[i] = mm.a[i].real();  // a complex file in a real precision: its real part
    }
    return A;
  }
  std::vector<W> A(static_cast<std::size_t>(m * n));
  if (o.matrix == "random") {
    std::uniform_real_distribution<double> u(-1, 1);
    for (W& v : A) {
      if constexpr (is_complex_v<W>) {
        const double re = u(rng);
        v = W(re, u(rng));
      } else {
        v = u(rng);
      }
    }
    return A;
  }
  // graded: A = (U diag(S)) V^H, one gemm.
  const int64_t k = std::min(m, n);
  known.resize(static_cast<std::size_t>(k));
  for (int64_t i = 0; i < k; ++i)
    known[i] = k > 1 ? std::pow(10.0, -12.0 * double(i) / double(k - 1)) : 1.0;
  std::vector<W> US = orthonormal_columns<W>(m, k, rng);
  const std::vector<W> V = orthonormal_columns<W>(n, k, rng);
  for (int64_t j = 0; j < k; ++j)
    for (int64_t i = 0; i < m; ++i) US[i + j * m] *= known[j];
  const auto mi = static_cast<int>(m), ni = static_cast<int>(n), ki = static_cast<int>(k);
  if constexpr (is_complex_v<W>) {
    const W one(1), zero(0);
    cblas_zgemm(CblasColMajor, CblasNoTrans, CblasConjTrans, mi, ni, ki, &one, US.data(), mi,
                V.data(), ni, &zero, A.data(), mi);
  } else {
    cblas_dgemm(CblasColMajor, CblasNoTrans, CblasTrans, mi, ni, ki, 1.0, US.data(), mi,
                V.data(), ni, 0.0, A.data(), mi);
  }
  return A;
}

// ---- One precision --------------------------------------------------------------------

template <Scalar T>
bool run_case(const std::shared_ptr<Context>& ctx, const Options& o) {
  using R = real_type_t<T>;
  using W = Wide<T>;
  const Communicator& comm = ctx->comm();
  const bool root = ctx->rank() == 0;

  // 1. The matrix on rank 0, rounded to T (the reference uses the rounded one).
  int64_t m = o.m, n = o.n;
  std::vector<double> known;
  std::vector<T> A0;
  if (root) {
    const std::vector<W> Aw = make_matrix<W>(o, m, n, known);
    A0.resize(Aw.size());
    for (std::size_t i = 0; i < Aw.size(); ++i) A0[i] = static_cast<T>(Aw[i]);
  }
  int64_t dims[2] = {m, n};
  comm.bcast(dims, sizeof dims, 0);
  m = dims[0];
  n = dims[1];
  const int64_t k = std::min(m, n), big = std::max(m, n);
  const int64_t K = std::min(o.vectors, k);
  const int64_t nb = std::min(o.nb, n);
  DistMatrix<T> A(ctx, BlockCyclic1D(m, n, nb, ctx->global_num_devices()));
  const double t_dist = 1e-3 * timed_max_ms(comm, [&] {
    A.distribute(root ? A0.data() : nullptr, m, /*root=*/0);
    ctx->synchronize();
  });

  // 2. The bidiagonal reduction on every device of every rank.
  std::vector<R> d(k), e(std::max<int64_t>(k - 1, 1));
  std::vector<T> tauq(k), taup(k);
  GebrdOptions opts;
  opts.panel = o.panel;
  const double t_brd = 1e-3 * timed_max_ms(comm, [&] {
    gebrd_mgpu<T>(A, d.data(), e.data(), tauq.data(), taup.data(), opts);
    ctx->synchronize();
  });

  // The reflectors, gathered on rank 0 for its host ?ormbr (collective, so timed here).
  std::vector<T> Ared;
  const double t_gather = K == 0 ? 0.0 : 1e-3 * timed_max_ms(comm, [&] {
    if (root) Ared.resize(static_cast<std::size_t>(m * n));
    A.collect(root ? Ared.data() : nullptr, m, /*root=*/0);
  });

  // 3.-5. Rank 0: B's singular values (and vectors), the back-transformation, the check.
  double t_sv = 0, t_vec = 0, sv_err = 0, vec_resid = 0;
  bool ok = true;
  if (root) {
    const char uplo = m >= n ? 'U' : 'L';
    std::vector<R> s(d), ee(e), UB, VT;
    ee.resize(static_cast<std::size_t>(k));
    const auto t0 = std::chrono::steady_clock::now();
    lapack_int info;
    if (K > 0) {
      UB.resize(static_cast<std::size_t>(k * k));
      VT.resize(static_cast<std::size_t>(k * k));
      info = bdsdc<R>(uplo, static_cast<lapack_int>(k), s.data(), ee.data(), UB.data(), VT.data());
    } else {
      info = bdsqr_values<R>(uplo, static_cast<lapack_int>(k), s.data(), ee.data());
    }
    t_sv = seconds_since(t0);
    ok = info == 0;
    if (!ok) std::fprintf(stderr, "mgblas_svd: ?bdsqr / ?bdsdc info %d\n", static_cast<int>(info));

    std::vector<W> Aw(A0.size());  // the matrix that was reduced, in wide precision
    for (std::size_t i = 0; i < A0.size(); ++i) Aw[i] = static_cast<W>(A0[i]);
    std::vector<double> ref = known;
    if (ref.empty()) {
      std::vector<W> copy(Aw);
      ref.resize(static_cast<std::size_t>(k));
      gesdd_values<W>(m, n, copy.data(), ref.data());
    }
    const double unit = double(big) * std::max(ref[0], 1e-300) * double(std::numeric_limits<R>::epsilon());
    for (int64_t i = 0; i < k; ++i) sv_err = std::max(sv_err, std::abs(double(s[i]) - ref[i]) / unit);

    if (K > 0 && ok) {
      // u_i = Q [U_B(:, i); 0] (m), v_i = P [V_B(:, i); 0] (n); ?bdsdc gives V_B^T.
      std::vector<T> Uv(static_cast<std::size_t>(m * K), T(0)), Vv(static_cast<std::size_t>(n * K), T(0));
      for (int64_t c = 0; c < K; ++c)
        for (int64_t i = 0; i < k; ++i) {
          Uv[i + c * m] = T(UB[i + c * k]);
          Vv[i + c * n] = T(VT[c + i * k]);
        }
      const auto t2 = std::chrono::steady_clock::now();
      const lapack_int iq = ormbr<T>('Q', static_cast<lapack_int>(m), static_cast<lapack_int>(K), static_cast<lapack_int>(n),
                                     Ared.data(), static_cast<lapack_int>(m), tauq.data(), Uv.data());
      const lapack_int ip = ormbr<T>('P', static_cast<lapack_int>(n), static_cast<lapack_int>(K), static_cast<lapack_int>(m),
                                     Ared.data(), static_cast<lapack_int>(m), taup.data(), Vv.data());
      t_vec = t_gather + seconds_since(t2);
      ok = iq == 0 && ip == 0;
      if (!ok) std::fprintf(stderr, "mgblas_svd: ?ormbr info %d, %d\n", static_cast<int>(iq), static_cast<int>(ip));
      std::vector<W> r(static_cast<std::size_t>(m));
      for (int64_t c = 0; c < K && ok; ++c) {
        // r = A v_c - sigma_c u_c in wide precision.
        for (int64_t i = 0; i < m; ++i) r[i] = -double(s[c]) * static_cast<W>(Uv[i + c * m]);
        for (int64_t j = 0; j < n; ++j) {
          const W vj = static_cast<W>(Vv[j + c * n]);
          for (int64_t i = 0; i < m; ++i) r[i] += Aw[i + j * m] * vj;
        }
        double r2 = 0;
        for (const W& x : r) r2 += std::norm(x);
        vec_resid = std::max(vec_resid, std::sqrt(r2) / unit);
      }
    }
    ok = ok && sv_err <= o.tol && vec_resid <= o.tol;
  }
  ok = share_verdict(comm, ok);
  if (root) {
    const double M = double(big), kk = double(k);
    const double flops = (is_complex_v<T> ? 4.0 : 1.0) * (4.0 * M * kk * kk - 4.0 / 3.0 * kk * kk * kk);
    char vec[32] = "-", res[32] = "-";
    if (K > 0) {
      std::snprintf(vec, sizeof vec, "%.4f", t_vec);
      std::snprintf(res, sizeof res, "%.1e", vec_resid);
    }
    std::printf("%6c %7lld %7lld %5lld %5d %7d %9.4f %9.4f %9.2f %9.4f %9s %9.1e %9s  %s\n",
                precision_letter<T>(), static_cast<long long>(m), static_cast<long long>(n),
                static_cast<long long>(nb), ctx->nranks(), ctx->global_num_devices(), t_dist, t_brd,
                flops / std::max(t_brd, 1e-12) * 1e-9, t_sv, vec, sv_err, res, ok ? "ok" : "FAILED");
    std::fflush(stdout);
  }
  return ok;
}

}  // namespace

int main(int argc, char** argv) {
  return run_main("mgblas_svd", argc, argv, [](int argc_, char** argv_, int world_rank) {
    Options o;
    CLI::App app{"mgblas_svd: singular values and vectors of a distributed matrix (gebrd_mgpu)"};
    app.add_option("--m", o.m, "rows of a generated matrix")->capture_default_str()->check(CLI::PositiveNumber);
    app.add_option("--n", o.n, "columns of a generated matrix")->capture_default_str()->check(CLI::PositiveNumber);
    add_layout_options(app, o.nb, o.types);
    app.add_option("--panel", o.panel, "GebrdOptions::panel: columns per panel, a divisor of nb (0: automatic)")
        ->capture_default_str()
        ->check(CLI::NonNegativeNumber);
    app.add_option("--matrix", o.matrix,
                   "random (uniform [-1, 1]), graded (known singular values 1 .. 1e-12) or a "
                   "Matrix Market file (then --m, --n are ignored; ./random for a file so named)")
        ->capture_default_str();
    app.add_option("--gen", o.matrix, "the same as --matrix random | graded")
        ->check(CLI::IsMember({"random", "graded"}));
    app.add_option("--vectors", o.vectors,
                   "singular vector pairs to compute, largest first (back-transformed on rank 0's host)")
        ->capture_default_str()
        ->check(CLI::NonNegativeNumber);
    app.add_option("--tol", o.tol, "bound on sv_err and vec_resid")->capture_default_str();
    app.add_option("--seed", o.seed, "random seed")->capture_default_str();
    if (auto status = parse_all_ranks(app, argc_, argv_, world_rank)) return *status;
    const auto ctx = Context::create();
    // The banner wants a Reducer; gebrd_mgpu picks its own transport.
    const auto reducer = make_reducer(ctx, ReducerKind::Auto);
    print_banner(*reducer, "distributed SVD (gebrd_mgpu on all devices, then LAPACK on rank 0)", argc_, argv_);
    if (ctx->rank() == 0) {
      std::printf("# matrix: %s\n", o.matrix == "random"   ? "random, entries uniform on [-1, 1]"
                                    : o.matrix == "graded" ? "graded, known singular values 10^(-12 i / (k-1))"
                                                           : o.matrix.c_str());
      if (o.vectors > 0)
        std::printf("# singular vectors: %lld pairs, back-transformed by rank 0's HOST (LAPACKE ?ormbr / ?unmbr on\n"
                    "#   the gathered reduced matrix; a distributed ormbr on the devices is future work)\n",
                    static_cast<long long>(o.vectors));
      std::printf("# sv_err vs %s; errors in units of max(m, n) ||A||_2 eps, bound %g\n",
                  o.matrix == "graded" ? "the known singular values" : "LAPACKE ?gesdd (double precision)", o.tol);
      std::printf("# times in seconds (max over ranks); GFLOP/s of gebrd_mgpu = (4 M K^2 - 4 K^3 / 3) / t_brd, "
                  "M = max(m, n), K = min(m, n) (complex: 4x)\n");
      std::printf("#  type       m       n    nb ranks devices t_dist(s)  t_brd(s)   GFLOP/s   t_sv(s)  t_vec(s)    sv_err vec_resid  status\n");
    }
    return run_cases(*ctx, o.types, [&](auto tag) { return run_case<typename decltype(tag)::type>(ctx, o); });
  });
}
