// SPDX-License-Identifier: BSD-3-Clause
//
// 03_svd: singular values (and optionally singular vectors) of a dense m x n matrix
// spread over every device of every MPI rank, with mgblas's gesvd_mgpu (public API only;
// LAPACKE and CBLAS on rank 0 make the graded matrices and check the result).
//
// What it does, per precision (--type s,d,c,z)
//   1. The matrix A, made on rank 0 (--matrix):
//        random   entries uniform on [-1, 1] (real and imaginary parts for c, z);
//        graded   A = U diag(S) V^H with S_i = 10^(-12 i / (k-1)), i = 0 .. k-1, k =
//                 min(m, n): known singular values from 1 down to 1e-12; U (m x k) and V
//                 (n x k) have orthonormal columns, from the QR of Gaussian matrices
//                 (complex for c, z), formed in double precision, then rounded;
//        FILE.mtx a Matrix Market file (m x n general, or square symmetric / hermitian;
//                 see ../common/matrix_market.hpp); --m and --n are then ignored.
//      DistMatrix::distribute deals its block columns (width nb) over all devices of all
//      ranks (t_dist).
//   2. gesvd_mgpu on every device of every rank: the bidiagonal reduction B = Q^H A P
//      (gebrd_mgpu), B's singular values (and, with --vectors K, the vectors of its K
//      largest), then U = Q U_B and V = P V_B (unmbr_mgpu) on U's and V's devices. s
//      (all k values, descending) lands on every rank; U (m x K) and V (n x K) stay
//      distributed. GesvdOptions::profile times each phase (columns below).
//   3. The check on rank 0 (U and V gathered there with DistMatrix::collect; the verdict
//      is shared with every rank), in double precision:
//        sv_err    = max_i |s_i - s_i(ref)| / (max(m, n) ||A||_2 eps), the reference being
//                    the known S of a graded matrix, or else LAPACKE ?gesdd('N') of rank
//                    0's copy of A;
//        vec_resid = max_i ||A v_i - s_i u_i||_2 / (max(m, n) ||A||_2 eps);
//        orth_u    = ||I - U^H U||_1 / (m eps), orth_v = ||I - V^H V||_1 / (n eps).
//      ||A||_2 = s_0(ref); eps of the precision computed in. A case is ok when all four
//      are <= --tol (default 100); the program exits 1 when a case is not.
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
// shared cores; times vary):
//   MGBLAS_HOST_DEVICES=2 OMP_NUM_THREADS=1 mpirun -np 2 mgblas_svd --m 150 --n 110
//       --nb 24 --type s,d,c,z --vectors 4
//   # mgblas 0.1.0 -- distributed SVD (gesvd_mgpu on all devices)
//   # command: examples/03_svd/mgblas_svd --m 150 --n 110 --nb 24 --type s,d,c,z --vectors 4
//   # back-end host, 2 ranks, 4 devices (2 on rank 0), reducer host (pinned staging, host sum, MPI_Allreduce)
//   # matrix: random, entries uniform on [-1, 1]
//   # singular vectors: the 4 largest pairs (u_i, v_i), on the devices, gathered on rank 0 for the check
//   # sv_err vs LAPACKE ?gesdd (double precision); sv_err, vec_resid in units of max(m, n) ||A||_2 eps,
//   #   orth_u, orth_v = ||I - X^H X||_1 / (rows eps); bound 100
//   # times in seconds, max over ranks (GesvdProfile); GFLOP/s = (4 M K^2 - 4 K^3 / 3) / t_red,
//   #   M = max(m, n), K = min(m, n) (complex: 4x)
//   #  type       m       n    nb ranks devices   t_dist    t_red  GFLOP/s    t_bid   t_copy   t_back    t_tot   sv_err vec_resid   orth_u   orth_v  status
//        s     150     110    24     2       4   0.0002   0.0339     0.16   0.0020   0.0000   0.0004   0.0356  2.8e-02   3.6e-02  5.4e-02  1.2e-01  ok
//        d     150     110    24     2       4   0.0001   0.0269     0.20   0.0041   0.0000   0.0004   0.0287  2.5e-02   7.6e-02  1.0e-01  6.0e-02  ok
//        c     150     110    24     2       4   0.0000   0.0270     0.81   0.0007   0.0000   0.0036   0.0313  2.8e-02   6.2e-02  8.8e-02  1.2e-01  ok
//        z     150     110    24     2       4   0.0001   0.0290     0.76   0.0015   0.0000   0.0006   0.0310  4.1e-02   5.3e-02  8.4e-02  5.8e-02  ok
//   # 4 cases, 0 failed
//
// The columns (seconds are max over ranks; t_red .. t_tot are GesvdProfile's phases)
//   t_dist   DistMatrix::distribute from rank 0
//   t_red    GesvdProfile::reduction: gebrd_mgpu, or on GPUs from K = 2048 (8192 with
//            vectors) the two-stage reduction with its chase (GesvdOptions::stages Auto);
//            GFLOP/s = (4 M K^2 - 4 K^3 / 3) / t_red, M = max(m, n), K = min(m, n)
//            (complex types: 4x the flops), the one-stage count either way
//   t_bid    GesvdProfile::bidiagonal: B's singular values (bisection over every device
//            without vectors) or its values and K vector pairs, with their copy to U's
//            and V's devices
//   t_copy   GesvdProfile::to_devices, that copy (part of t_bid; "-" without vectors)
//   t_back   GesvdProfile::back_transform, U = Q U_B and V = P V_B ("-" without vectors)
//   t_tot    GesvdProfile::total, the whole gesvd_mgpu call
#include "../common/lapacke_std_complex.hpp"

#include <CLI/CLI.hpp>
#include <mgblas/mgblas.hpp>

#include "../common/example_driver.hpp"
#include "../common/example_main.hpp"
#include "../common/matrix_market.hpp"

#include <cblas.h>

#include <algorithm>
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

void check_info(lapack_int info, const char* what) {
  if (info != 0) throw std::runtime_error(std::string(what) + ": LAPACKE info " + std::to_string(info));
}

// The singular values (descending) of the m x n matrix a (overwritten), wide precision:
// LAPACKE ?gesdd('N'), the oracle.
template <typename W>
void gesdd_values(int64_t m, int64_t n, W* a, double* s) {
  const auto mi = static_cast<lapack_int>(m), ni = static_cast<lapack_int>(n);
  W dummy{};
  if constexpr (is_complex_v<W>) check_info(LAPACKE_zgesdd(LAPACK_COL_MAJOR, 'N', mi, ni, a, mi, s, &dummy, 1, &dummy, 1), "zgesdd");
  else check_info(LAPACKE_dgesdd(LAPACK_COL_MAJOR, 'N', mi, ni, a, mi, s, &dummy, 1, &dummy, 1), "dgesdd");
}

// C = op(A) op(B) in wide precision, column-major, op = N or ^H (^T for real W).
template <typename W>
void gemm(CBLAS_TRANSPOSE ta, CBLAS_TRANSPOSE tb, int64_t m, int64_t n, int64_t k, const W* a,
          int64_t lda, const W* b, int64_t ldb, W* c, int64_t ldc) {
  const auto mi = static_cast<int>(m), ni = static_cast<int>(n), ki = static_cast<int>(k);
  const auto la = static_cast<int>(lda), lb = static_cast<int>(ldb), lc = static_cast<int>(ldc);
  if constexpr (is_complex_v<W>) {
    const W one(1), zero(0);
    cblas_zgemm(CblasColMajor, ta, tb, mi, ni, ki, &one, a, la, b, lb, &zero, c, lc);
  } else {
    cblas_dgemm(CblasColMajor, ta, tb, mi, ni, ki, 1.0, a, la, b, lb, 0.0, c, lc);
  }
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
  gemm<W>(CblasNoTrans, CblasConjTrans, m, n, k, US.data(), m, V.data(), n, A.data(), m);
  return A;
}

// ---- The check ----------------------------------------------------------------------

// ||I - X^H X||_1 / (rows eps) for the rows x K matrix X.
template <typename W>
double orthogonality(int64_t rows, int64_t K, const std::vector<W>& X, double eps) {
  std::vector<W> G(static_cast<std::size_t>(K * K));
  gemm<W>(CblasConjTrans, CblasNoTrans, K, K, rows, X.data(), rows, X.data(), rows, G.data(), K);
  double worst = 0;
  for (int64_t j = 0; j < K; ++j) {
    double col = 0;
    for (int64_t i = 0; i < K; ++i) col += std::abs((i == j ? W(1) : W(0)) - G[i + j * K]);
    worst = std::max(worst, col);
  }
  return worst / (double(rows) * eps);
}

template <Scalar T, typename W>
std::vector<W> widened(const std::vector<T>& x) {
  std::vector<W> w(x.size());
  for (std::size_t i = 0; i < x.size(); ++i) w[i] = static_cast<W>(x[i]);
  return w;
}

double max_over_ranks(const Communicator& comm, double seconds) {
  return static_cast<double>(comm.allreduce_max(static_cast<int64_t>(seconds * 1e9))) * 1e-9;
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

  // 2. The SVD on every device of every rank: s on every rank, U and V (m x K, n x K) on
  //    the devices.
  GesvdProfile prof;
  GesvdOptions opts;
  opts.reduction.panel = o.panel;
  opts.profile = &prof;
  comm.barrier();
  const SingularSystem<T> svd = gesvd_mgpu<T>(A, /*vectors=*/K > 0, K, opts);
  for (double* x : {&prof.reduction, &prof.bidiagonal, &prof.to_devices, &prof.back_transform, &prof.total})
    *x = max_over_ranks(comm, *x);

  // 3. The check on rank 0 (the vectors gathered there first: collect is collective).
  std::vector<T> Uc, Vc;
  if (K > 0) {
    if (root) {
      Uc.resize(static_cast<std::size_t>(m * K));
      Vc.resize(static_cast<std::size_t>(n * K));
    }
    svd.U->collect(root ? Uc.data() : nullptr, m, /*root=*/0);
    svd.V->collect(root ? Vc.data() : nullptr, n, /*root=*/0);
  }
  double sv_err = 0, vec_resid = 0, orth_u = 0, orth_v = 0;
  bool ok = true;
  if (root) {
    const std::vector<W> Aw = widened<T, W>(A0);  // the matrix that was decomposed
    std::vector<double> ref = known;
    if (ref.empty()) {
      std::vector<W> copy(Aw);
      ref.resize(static_cast<std::size_t>(k));
      gesdd_values<W>(m, n, copy.data(), ref.data());
    }
    const double eps = double(std::numeric_limits<R>::epsilon());
    const double unit = double(big) * std::max(ref[0], 1e-300) * eps;
    for (int64_t i = 0; i < k; ++i) sv_err = std::max(sv_err, std::abs(double(svd.s[i]) - ref[i]) / unit);
    if (K > 0) {
      // r_i = A v_i - s_i u_i in wide precision.
      const std::vector<W> Uw = widened<T, W>(Uc), Vw = widened<T, W>(Vc);
      std::vector<W> AV(static_cast<std::size_t>(m * K));
      gemm<W>(CblasNoTrans, CblasNoTrans, m, K, n, Aw.data(), m, Vw.data(), n, AV.data(), m);
      for (int64_t c = 0; c < K; ++c) {
        double r2 = 0;
        for (int64_t i = 0; i < m; ++i) r2 += std::norm(AV[i + c * m] - double(svd.s[c]) * Uw[i + c * m]);
        vec_resid = std::max(vec_resid, std::sqrt(r2) / unit);
      }
      orth_u = orthogonality(m, K, Uw, eps);
      orth_v = orthogonality(n, K, Vw, eps);
    }
    ok = sv_err <= o.tol && vec_resid <= o.tol && orth_u <= o.tol && orth_v <= o.tol;
  }
  ok = share_verdict(comm, ok);
  if (root) {
    const double M = double(big), kk = double(k);
    const double flops = (is_complex_v<T> ? 4.0 : 1.0) * (4.0 * M * kk * kk - 4.0 / 3.0 * kk * kk * kk);
    char copy[16] = "-", back[16] = "-", res[16] = "-", ou[16] = "-", ov[16] = "-";
    if (K > 0) {
      std::snprintf(copy, sizeof copy, "%.4f", prof.to_devices);
      std::snprintf(back, sizeof back, "%.4f", prof.back_transform);
      std::snprintf(res, sizeof res, "%.1e", vec_resid);
      std::snprintf(ou, sizeof ou, "%.1e", orth_u);
      std::snprintf(ov, sizeof ov, "%.1e", orth_v);
    }
    std::printf("%6c %7lld %7lld %5lld %5d %7d %8.4f %8.4f %8.2f %8.4f %8s %8s %8.4f %8.1e %9s %8s %8s  %s\n",
                precision_letter<T>(), static_cast<long long>(m), static_cast<long long>(n),
                static_cast<long long>(nb), ctx->nranks(), ctx->global_num_devices(), t_dist, prof.reduction,
                flops / std::max(prof.reduction, 1e-12) * 1e-9, prof.bidiagonal, copy, back,
                prof.total, sv_err, res, ou, ov, ok ? "ok" : "FAILED");
    std::fflush(stdout);
  }
  return ok;
}

}  // namespace

int main(int argc, char** argv) {
  return run_main("mgblas_svd", argc, argv, [](int argc_, char** argv_, int world_rank) {
    Options o;
    CLI::App app{"mgblas_svd: singular values and vectors of a distributed matrix (gesvd_mgpu)"};
    app.add_option("--m", o.m, "rows of a generated matrix")->capture_default_str()->check(CLI::PositiveNumber);
    app.add_option("--n", o.n, "columns of a generated matrix")->capture_default_str()->check(CLI::PositiveNumber);
    add_layout_options(app, o.nb, o.types);
    app.add_option("--panel", o.panel, "GesvdOptions::reduction.panel: columns per panel, a divisor of nb (0: automatic)")
        ->capture_default_str()
        ->check(CLI::NonNegativeNumber);
    app.add_option("--matrix", o.matrix,
                   "random (uniform [-1, 1]), graded (known singular values 1 .. 1e-12) or a "
                   "Matrix Market file (then --m, --n are ignored; ./random for a file so named)")
        ->capture_default_str();
    app.add_option("--gen", o.matrix, "the same as --matrix random | graded")
        ->check(CLI::IsMember({"random", "graded"}));
    app.add_option("--vectors", o.vectors,
                   "singular vector pairs to compute, largest first (0: values only)")
        ->capture_default_str()
        ->check(CLI::NonNegativeNumber);
    app.add_option("--tol", o.tol, "bound on sv_err, vec_resid, orth_u and orth_v")->capture_default_str();
    app.add_option("--seed", o.seed, "random seed")->capture_default_str();
    if (auto status = parse_all_ranks(app, argc_, argv_, world_rank)) return *status;
    const auto ctx = Context::create();
    // The banner wants a Reducer; gesvd_mgpu picks its own transport.
    const auto reducer = make_reducer(ctx, ReducerKind::Auto);
    print_banner(*reducer, "distributed SVD (gesvd_mgpu on all devices)", argc_, argv_);
    if (ctx->rank() == 0) {
      std::printf("# matrix: %s\n", o.matrix == "random"   ? "random, entries uniform on [-1, 1]"
                                    : o.matrix == "graded" ? "graded, known singular values 10^(-12 i / (k-1))"
                                                           : o.matrix.c_str());
      if (o.vectors > 0)
        std::printf("# singular vectors: the %lld largest pairs (u_i, v_i), on the devices, gathered on rank 0 for the check\n",
                    static_cast<long long>(o.vectors));
      std::printf("# sv_err vs %s; sv_err, vec_resid in units of max(m, n) ||A||_2 eps,\n"
                  "#   orth_u, orth_v = ||I - X^H X||_1 / (rows eps); bound %g\n",
                  o.matrix == "graded" ? "the known singular values" : "LAPACKE ?gesdd (double precision)", o.tol);
      std::printf("# times in seconds, max over ranks (GesvdProfile); GFLOP/s = (4 M K^2 - 4 K^3 / 3) / t_red,\n"
                  "#   M = max(m, n), K = min(m, n) (complex: 4x)\n");
      std::printf("#  type       m       n    nb ranks devices   t_dist    t_red  GFLOP/s    t_bid   t_copy   t_back    "
                  "t_tot   sv_err vec_resid   orth_u   orth_v  status\n");
    }
    return run_cases(*ctx, o.types, [&](auto tag) { return run_case<typename decltype(tag)::type>(ctx, o); });
  });
}
