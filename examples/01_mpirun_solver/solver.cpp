// SPDX-License-Identifier: BSD-3-Clause
//
// 01_mpirun_solver: the conjugate gradient method with a Jacobi (diagonal) preconditioner
// on a dense symmetric (Hermitian) positive definite system A x = b, A spread over every
// device of every MPI rank, checked against LAPACK.
//
// What it does
//   Rank 0 draws A = S H S, with H Hermitian: off-diagonal entries uniform on [-1, 1]
//   (real and imaginary parts), diagonal entries shift * sqrt(n) + uniform on [-1, 1]
//   (--shift, default 3: the off-diagonal part has its spectrum in about +-1.2 sqrt(n),
//   real, or +-1.6 sqrt(n), complex, so H is positive definite with cond(H) about 2 to
//   4), and S = diag(spread^u_i), u_i uniform on [0, 1] (--spread, default 10: rows and
//   columns scaled by 1 .. spread, cond(A) up to spread^2 cond(H); the Jacobi
//   preconditioner undoes most of that scaling). Only the lower triangle goes to the
//   devices: the strictly upper part is set to NaN before DistMatrix::distribute deals
//   the block columns (width nb) round-robin over all devices of all ranks
//   (BlockCyclic1D), so a read of it would show in the result. b is uniform on [-1, 1].
//   Every rank then runs the same preconditioned CG from x = 0:
//     q = A p              symv_mgpu / hemv_mgpu (lower): every device multiplies its own
//                          block columns, one Reducer (kept for the whole solve) sums
//                          over devices and ranks and hands q to every rank;
//     x, r, z = D^-1 r, p  on the host, every rank alike (D = diag(A), read once from the
//                          devices that own each diagonal entry).
//   until ||r|| <= tol ||b|| or --maxit iterations. The vectors are replicated host
//   arrays: the library has no device-side vector operations (axpy, dot), so device
//   DistVectors would only add an explicit copy to and from the devices per iteration,
//   which the host-pointer form of symv_mgpu does anyway. Rank 0's stop decision is
//   broadcast, so the ranks cannot leave the loop at different iterations.
//
// How to run
//   mpirun -np 2 build/examples/01_mpirun_solver/mgblas_solver --n 2000
//   mpirun -np 4 build/examples/01_mpirun_solver/mgblas_solver --n 4000 --nb 128
//          --type s,d,c,z --tol 1e-8                       (one command line)
//   Open MPI as root on a small machine: add --oversubscribe --allow-run-as-root.
//   GPUs are used when present, else host devices (MGBLAS_HOST_DEVICES per rank).
//   --no-check skips the LAPACK comparison (whose O(n^3) on rank 0 dominates large n).
//
// Expected output (--n 2000 --type d, host devices, 2 ranks x 2 devices, one OpenMP
// thread per rank on 2 cores; times vary)
//   # mgblas 0.1.0 -- distributed Jacobi-preconditioned conjugate gradient (lower)
//   # command: build/examples/01_mpirun_solver/mgblas_solver --n 2000 --type d
//   # back-end host, 2 ranks, 4 devices (2 on rank 0), reducer host (...)
//   # type       n     nb  ranks  devices  iters   time(ms)  iter(ms)    resid      err  status
//        d    2000     64      2        4     15      5.685     0.379  1.3e-13  2.2e-11  ok
//   #   d: per iteration (ms) matvec 0.362 vector 0.018; ||r||/||b|| 6.5e-11, cond1(A) ~ 1.6e+03
//   # 1 cases, 0 failed
//   iters is the number of CG iterations (matrix-vector products); time is the whole
//   solve (max over ranks), iter(ms) = time / iters, split on the next line into the
//   distributed SYMV/HEMV and the host vector work (each the max over ranks).
//   resid = ||b - A x||_2 / (||A||_F ||x||_2), computed on rank 0 in double precision
//           with the full matrix (||A||_F >= ||A||_2, so resid <= ||b - A x|| / ||b||);
//   err   = ||x - x_lapack||_2 / ||x_lapack||_2, x_lapack from LAPACKE ?posv;
//   ||r||/||b|| is the true relative residual, cond1(A) LAPACKE ?pocon's estimate.
//   ok when CG converged, resid <= 10 tol and err <= 10 cond1(A) (||r||/||b|| + n eps).
//   --tol defaults to 1e-10 in double and 1e-4 in single precision.
//   The exit status is non-zero if any case fails.
//   On a small machine with several ranks per core set OMP_NUM_THREADS=1 (see
//   02_eigensolver: OpenMP and OpenBLAS threads spin against each other).

#include <CLI/CLI.hpp>
#include <mgblas/mgblas.hpp>

#include "../common/example_driver.hpp"
#include "../common/example_main.hpp"
#include "../common/lapacke_std_complex.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <complex>
#include <cstdint>
#include <cstdio>
#include <limits>
#include <random>
#include <string>
#include <vector>

namespace {

using namespace mgblas;

struct Options {
  int64_t n = 1000;
  int64_t nb = 64;
  std::vector<std::string> types = examples::default_types("dz");
  double tol = 0;  // 0: per precision
  int64_t maxit = 1000;
  double shift = 3;
  double spread = 10;
  uint64_t seed = 1;
  bool check = true;
};

template <Scalar T>
using Real = real_type_t<T>;

template <Scalar T>
double tolerance(const Options& o) {
  if (o.tol > 0) return o.tol;
  return std::is_same_v<Real<T>, double> ? 1e-10 : 1e-4;
}

// The test problem of the header: A = S H S in full storage (rank 0 keeps it for the
// check) and b.
template <Scalar T>
void make_problem(const Options& o, std::vector<T>& A, std::vector<T>& b) {
  const int64_t n = o.n;
  std::mt19937_64 rng(o.seed);
  std::uniform_real_distribution<Real<T>> u(-1, 1);
  std::uniform_real_distribution<double> u01(0, 1);
  const auto draw = [&] {
    if constexpr (is_complex_v<T>) {
      const Real<T> re = u(rng);
      return T(re, u(rng));
    } else {
      return u(rng);
    }
  };
  std::vector<double> s(n);
  for (auto& si : s) si = std::pow(o.spread, u01(rng));
  const double diag = o.shift * std::sqrt(static_cast<double>(n));
  A.assign(static_cast<std::size_t>(n * n), T(0));
  for (int64_t j = 0; j < n; ++j) {
    A[j + j * n] = T(static_cast<Real<T>>(s[j] * s[j] * (diag + std::real(draw()))));
    for (int64_t i = j + 1; i < n; ++i) {
      const T h = draw() * static_cast<Real<T>>(s[i] * s[j]);
      A[i + j * n] = h;
      A[j + i * n] = mgblas::conj(h);
    }
  }
  b.resize(n);
  for (auto& bi : b) bi = draw();
}

struct Result {
  int64_t iters = 0;
  bool converged = false;
  double ms = 0, matvec_ms = 0, vector_ms = 0;
  double resid = 0, err = 0, relres = 0, cond = 0;
  bool ok = true;
};

// The diagonal of A on every rank: each device copies the diagonal of its block columns
// (a 1 x width strided copy per block), the ranks sum their (disjoint) parts.
template <Scalar T>
std::vector<T> diagonal(const DistMatrix<T>& A) {
  Context& ctx = A.context();
  const BlockCyclic1D& L = A.layout();
  const int64_t ld = A.ld();
  std::vector<T> d(A.n(), T(0));
  for (int dl = 0; dl < ctx.num_devices(); ++dl) {
    const int dev = ctx.device_offset() + dl;
    for (int64_t lb = 0; lb < L.local_blocks(dev); ++lb) {
      const int64_t c0 = L.global_col(dev, lb * L.nb());
      const T* src = A.local(dl) + lb * L.nb() * ld + c0;
      copy_matrix(ctx.device(dl), 1, L.block_width(c0 / L.nb()), src, ld + 1, d.data() + c0, 1);
    }
  }
  ctx.comm().allreduce_sum(d.data(), A.n());
  return d;
}

template <Scalar T>
T dot(const std::vector<T>& x, const std::vector<T>& y) {
  T s(0);
  for (std::size_t i = 0; i < x.size(); ++i) s += mgblas::conj(x[i]) * y[i];
  return s;
}

// Preconditioned CG (Saad, Iterative Methods, Alg. 9.1) from x = 0. Every rank holds
// the whole b and returns the whole x.
template <Scalar T>
void pcg(Reducer& reducer, const DistMatrix<T>& A, const std::vector<T>& b, std::vector<T>& x,
         double tol, int64_t maxit, Result& res) {
  using R = Real<T>;
  using clock = std::chrono::steady_clock;
  const auto ms_since = [](clock::time_point t0) {
    return std::chrono::duration<double, std::milli>(clock::now() - t0).count();
  };
  const Communicator& comm = reducer.context().comm();
  const std::size_t n = b.size();

  auto t0 = clock::now();
  std::vector<R> dinv(n);
  const std::vector<T> d = diagonal(A);
  for (std::size_t i = 0; i < n; ++i) dinv[i] = R(1) / std::real(d[i]);
  x.assign(n, T(0));
  std::vector<T> r = b, z(n), p(n), q(n);
  for (std::size_t i = 0; i < n; ++i) p[i] = z[i] = dinv[i] * r[i];
  R rz = std::real(dot(r, z));
  const R bnorm = std::sqrt(std::real(dot(b, b)));
  res.vector_ms += ms_since(t0);

  int done = bnorm == 0;  // b = 0: x = 0
  while (!done && res.iters < maxit) {
    t0 = clock::now();
    if constexpr (is_complex_v<T>)
      hemv_mgpu(reducer, Uplo::Lower, T(1), A, p.data(), T(0), q.data());
    else
      symv_mgpu(reducer, Uplo::Lower, T(1), A, p.data(), T(0), q.data());
    res.matvec_ms += ms_since(t0);
    ++res.iters;

    t0 = clock::now();
    const T alpha = rz / std::real(dot(p, q));
    for (std::size_t i = 0; i < n; ++i) {
      x[i] += alpha * p[i];
      r[i] -= alpha * q[i];
    }
    const R rnorm = std::sqrt(std::real(dot(r, r)));
    done = rnorm <= tol * bnorm || !std::isfinite(rnorm);
    // q is the same on every rank up to the reduction's summation order; rank 0 decides.
    comm.bcast(&done, sizeof done, 0);
    if (!done) {
      for (std::size_t i = 0; i < n; ++i) z[i] = dinv[i] * r[i];
      const R rz_next = std::real(dot(r, z));
      const T beta = rz_next / rz;
      rz = rz_next;
      for (std::size_t i = 0; i < n; ++i) p[i] = z[i] + beta * p[i];
    } else {
      res.converged = std::isfinite(rnorm);
    }
    res.vector_ms += ms_since(t0);
  }
}

// LAPACKE overloads per precision: Cholesky solve and the 1-norm condition estimate.
int posv(int n, float* a, float* b) {
  return LAPACKE_sposv(LAPACK_COL_MAJOR, 'L', n, 1, a, n, b, n);
}
int posv(int n, double* a, double* b) {
  return LAPACKE_dposv(LAPACK_COL_MAJOR, 'L', n, 1, a, n, b, n);
}
int posv(int n, scomplex* a, scomplex* b) {
  return LAPACKE_cposv(LAPACK_COL_MAJOR, 'L', n, 1, a, n, b, n);
}
int posv(int n, zcomplex* a, zcomplex* b) {
  return LAPACKE_zposv(LAPACK_COL_MAJOR, 'L', n, 1, a, n, b, n);
}
int pocon(int n, const float* l, float anorm, float* rcond) {
  return LAPACKE_spocon(LAPACK_COL_MAJOR, 'L', n, l, n, anorm, rcond);
}
int pocon(int n, const double* l, double anorm, double* rcond) {
  return LAPACKE_dpocon(LAPACK_COL_MAJOR, 'L', n, l, n, anorm, rcond);
}
int pocon(int n, const scomplex* l, float anorm, float* rcond) {
  return LAPACKE_cpocon(LAPACK_COL_MAJOR, 'L', n, l, n, anorm, rcond);
}
int pocon(int n, const zcomplex* l, double anorm, double* rcond) {
  return LAPACKE_zpocon(LAPACK_COL_MAJOR, 'L', n, l, n, anorm, rcond);
}

using Wide = std::complex<double>;  // every check in double (complex: imaginary part used)

double norm2(const std::vector<Wide>& v) {
  double s = 0;
  for (const Wide& e : v) s += std::norm(e);
  return std::sqrt(s);
}

template <Scalar T>
std::vector<Wide> widen(const std::vector<T>& v) {
  return std::vector<Wide>(v.begin(), v.end());
}

// Rank 0: fills res.resid, relres, err, cond and returns the verdict.
template <Scalar T>
bool check(const Options& o, const std::vector<T>& A, const std::vector<T>& b,
           const std::vector<T>& x, Result& res) {
  using R = Real<T>;
  const int64_t n = o.n;
  const int ni = static_cast<int>(n);

  //  +---------------------------------------------------------------------------------+
  //  |  r = b - A x (double, full A);  resid = ||r||_2 / (||A||_F ||x||_2)             |
  //  |  relres = ||r||_2 / ||b||_2                                                     |
  //  |  x_ref = LAPACKE ?posv('L', A, b);  err = ||x - x_ref||_2 / ||x_ref||_2         |
  //  |  cond1 = 1 / ?pocon(L, ||A||_1)  (>= cond2(A) / small factor, A Hermitian)      |
  //  |  x - x_ref = A^-1 r + O(cond eps):  err <= cond2 (relres + n eps)               |
  //  |  ok when converged, resid <= 10 tol and err <= 10 cond1 (relres + n eps)       |
  //  +---------------------------------------------------------------------------------+
  std::vector<Wide> r = widen(b);
  const std::vector<Wide> xw = widen(x);
  double fro = 0, one = 0;
  for (int64_t j = 0; j < n; ++j) {
    double col = 0;
    for (int64_t i = 0; i < n; ++i) {
      const Wide a = A[i + j * n];
      r[i] -= a * xw[j];
      fro += std::norm(a);
      col += std::abs(a);
    }
    one = std::max(one, col);
  }
  fro = std::sqrt(fro);
  const double rnorm = norm2(r), xnorm = norm2(xw), bnorm = norm2(widen(b));
  res.resid = rnorm / (fro * xnorm);
  res.relres = rnorm / bnorm;

  std::vector<T> l = A, x_ref = b;
  int info = posv(ni, l.data(), x_ref.data());
  R rcond = 0;
  if (info == 0) info = pocon(ni, l.data(), static_cast<R>(one), &rcond);
  res.cond = rcond > 0 ? 1.0 / static_cast<double>(rcond) : 0;
  std::vector<Wide> diff = widen(x_ref);
  const double xref_norm = norm2(diff);
  for (int64_t i = 0; i < n; ++i) diff[i] -= xw[i];
  res.err = norm2(diff) / xref_norm;

  const double eps = std::numeric_limits<R>::epsilon();
  return info == 0 && rcond > 0 && bnorm > 0 && xref_norm > 0 && res.converged &&
         std::isfinite(res.resid) && std::isfinite(res.err) &&
         res.resid <= 10 * tolerance<T>(o) &&
         res.err <= 10 * res.cond * (res.relres + static_cast<double>(n) * eps);
}

template <Scalar T>
Result run_case(Reducer& reducer, const Options& o) {
  Context& ctx = reducer.context();
  const Communicator& comm = ctx.comm();
  const int64_t n = o.n;
  const bool root = ctx.rank() == 0;

  std::vector<T> A_host, b(n);
  if (root) make_problem(o, A_host, b);
  comm.bcast(b.data(), sizeof(T) * static_cast<std::size_t>(n), 0);
  DistMatrix<T> A(reducer.context_ptr(), BlockCyclic1D(n, n, o.nb, ctx.global_num_devices()));
  {
    // Only the lower triangle reaches the devices: NaN above the diagonal.
    std::vector<T> lower;
    if (root) {
      lower = A_host;
      const Real<T> nan = std::numeric_limits<Real<T>>::quiet_NaN();
      for (int64_t j = 1; j < n; ++j)
        for (int64_t i = 0; i < j; ++i) lower[i + j * n] = T(nan);
    }
    A.distribute(root ? lower.data() : nullptr, n, /*root=*/0);
  }

  Result res;
  std::vector<T> x;
  res.ms = examples::timed_max_ms(comm,
                                  [&] { pcg(reducer, A, b, x, tolerance<T>(o), o.maxit, res); });
  const double iters = static_cast<double>(std::max<int64_t>(res.iters, 1));
  for (double* p : {&res.matvec_ms, &res.vector_ms}) {
    const int64_t us = comm.allreduce_max(static_cast<int64_t>(*p * 1e3));
    *p = static_cast<double>(us) * 1e-3 / iters;
  }
  if (!o.check) {
    res.ok = res.converged;
    return res;
  }
  res.ok = examples::share_verdict(comm, root && check(o, A_host, b, x, res));
  return res;
}

template <Scalar T>
bool run_type(Reducer& reducer, const Options& o) {
  const Result r = run_case<T>(reducer, o);
  const Context& ctx = reducer.context();
  if (ctx.rank() != 0) return r.ok;
  const char* status = r.ok ? "ok" : (r.converged ? "FAILED" : "FAILED(maxit)");
  const double per_iter = r.ms / static_cast<double>(std::max<int64_t>(r.iters, 1));
  std::printf("%6c %7lld %6lld %6d %8d %6lld %10.3f %9.3f", precision_letter<T>(),
              static_cast<long long>(o.n), static_cast<long long>(o.nb), ctx.nranks(),
              ctx.global_num_devices(), static_cast<long long>(r.iters), r.ms, per_iter);
  if (o.check)
    std::printf(" %8.1e %8.1e  %s\n", r.resid, r.err, status);
  else
    std::printf(" %8s %8s  %s\n", "-", "-", r.ok ? "unchecked" : status);
  std::printf("#   %c: per iteration (ms) matvec %.3f vector %.3f", precision_letter<T>(),
              r.matvec_ms, r.vector_ms);
  if (o.check) std::printf("; ||r||/||b|| %.1e, cond1(A) ~ %.1e", r.relres, r.cond);
  std::printf("\n");
  std::fflush(stdout);
  return r.ok;
}

int run(int argc, char** argv, int world_rank) {
  Options o;
  CLI::App app{"mgblas distributed Jacobi-preconditioned conjugate gradient"};
  app.add_option("--n", o.n, "matrix order")->capture_default_str()->check(CLI::PositiveNumber);
  examples::add_layout_options(app, o.nb, o.types);
  app.add_option("--tol", o.tol, "stop at ||r|| <= tol ||b|| (0: 1e-10 double, 1e-4 single)")
      ->capture_default_str()
      ->check(CLI::NonNegativeNumber);
  app.add_option("--maxit", o.maxit, "maximum number of iterations")
      ->capture_default_str()
      ->check(CLI::PositiveNumber);
  app.add_option("--shift", o.shift,
                 "diagonal of H in units of sqrt(n) (positive definite above ~1.2 real, ~1.6 "
                 "complex)")
      ->capture_default_str()
      ->check(CLI::PositiveNumber);
  app.add_option("--spread", o.spread, "row/column scaling of A = S H S, 1 .. spread")
      ->capture_default_str()
      ->check(CLI::Range(1.0, 1e6));
  app.add_option("--seed", o.seed, "seed of the random matrix and right-hand side")
      ->capture_default_str();
  app.add_flag("!--no-check", o.check, "skip the comparison with LAPACK");
  if (const auto status = examples::parse_all_ranks(app, argc, argv, world_rank)) return *status;

  const auto ctx = Context::create();
  auto reducer = make_reducer(ctx, ReducerKind::Auto);  // one for every solve
  examples::print_banner(*reducer, "distributed Jacobi-preconditioned conjugate gradient (lower)",
                         argc, argv);
  if (ctx->rank() == 0)
    std::printf("# %4s %7s %6s %6s %8s %6s %10s %9s %8s %8s  %s\n", "type", "n", "nb", "ranks",
                "devices", "iters", "time(ms)", "iter(ms)", "resid", "err", "status");
  // Verdicts are decided on rank 0 and broadcast, so every rank exits alike.
  return examples::run_cases(*ctx, o.types, [&](auto tag) {
    return run_type<typename decltype(tag)::type>(*reducer, o);
  });
}

}  // namespace

int main(int argc, char** argv) {
  return mgblas::examples::run_main("mgblas_solver", argc, argv, run);
}
