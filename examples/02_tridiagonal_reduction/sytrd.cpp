// SPDX-License-Identifier: BSD-3-Clause
//
// 02_tridiagonal_reduction: the unblocked tridiagonal reduction of LAPACK's DSYTD2 /
// ZHETD2 (lower triangle), Q^H A Q = T, on a symmetric or Hermitian matrix spread over
// every device of every MPI rank, checked against LAPACK.
//
// What it does
//   Rank 0 draws a random symmetric (Hermitian) n x n matrix A; DistMatrix::distribute
//   deals its block columns (width nb) round-robin over all devices of all ranks
//   (BlockCyclic1D). Then, for j = 0 .. n-2, with m = n-j-1 and S = A(j+1:n, j+1:n):
//     1. the owner device of column j copies A(j:n, j) to its host and its rank
//        broadcasts it; every rank computes the reflector H = I - tau v v^H with
//        v(0) = 1 that maps A(j+1:n, j) to (beta, 0, ..., 0), as DLARFG/ZLARFG does;
//        d(j) = A(j, j), e(j) = beta;
//     2. w = tau * S * v           symv_mgpu_offset / hemv_mgpu_offset at offset j+1
//                                  (every device multiplies its own block columns, the
//                                  Reducer sums over devices and ranks);
//     3. w -= (tau/2) (w^H v) v    on the host (every rank alike);
//     4. S -= v w^H + w v^H        every device updates its own block columns of S,
//                                  lower part, with one k = 2 gemm per local block.
//   d(n-1) = A(n-1, n-1) at the end. Vectors are replicated host arrays; only the
//   matrix is distributed.
//
// How to run
//   mpirun -np 2 build/examples/02_tridiagonal_reduction/mgblas_sytrd --n 500
//   mpirun -np 4 build/examples/02_tridiagonal_reduction/mgblas_sytrd --n 2000 --nb 128
//          --type s,d,c,z                                  (one command line)
//   Open MPI as root on a small machine: add --oversubscribe --allow-run-as-root.
//   GPUs are used when present, else host devices (MGBLAS_HOST_DEVICES per rank).
//   --no-check skips the LAPACK comparison (whose O(n^3) on rank 0 dominates large n).
//
// Expected output (--n 500 --nb 48 --type d, host devices, 2 ranks x 2 devices, one
// OpenMP thread per rank on 2 cores; times vary)
//   # mgblas 0.1.0 -- distributed tridiagonal reduction (unblocked SYTRD/HETRD, lower)
//   # back-end host, 2 ranks, 4 devices (2 on rank 0), reducer host (...)
//   # type       n     nb  ranks  devices   time(ms)  step(ms)   err(T)  err(eig)  status
//        d     500     48      2        4     21.332     0.043  1.2e-12   9.2e-15  ok
//   #   per step (ms): column 0.008  symv 0.008  host 0.005  update 0.030
//   # 1 cases, 0 failed
//   time is the whole reduction (max over ranks), step(ms) = time / (n - 1); the per
//   step line splits it into the column broadcast, the distributed SYMV/HEMV, the
//   host vector work and the rank-2 update (each the max over ranks).
//   err(T)   = max(|d - d_lapack|, ||e| - |e_lapack||) / ||A||_2
//              (d and e of LAPACKE ?sytrd/?hetrd on the same A; e may differ in sign)
//   err(eig) = max |lambda(T) - lambda(A)| / ||A||_2
//              (lambda(T) from ?sterf, lambda(A) from ?syevd/?heevd)
//   ok when err(eig) <= tol * n * eps (--tol, default 100) and err(T) <= tol_t * n *
//   sqrt(eps) (--tol-t, default 0.1: 1.5e-9 n in double, 3.5e-5 n in single). The
//   eigenvalues are well-conditioned (Weyl), so they test backward stability; the
//   entries of T are forward quantities of two different (blocked vs unblocked)
//   reductions and have been seen to differ by 100 n eps at n = 2000 in double and by
//   6 n eps at n = 200 in single, hence the looser bound.
//   The exit status is non-zero if any case fails. ||A||_2 = max |lambda(A)|.
//   On a small machine with several ranks per core set OMP_NUM_THREADS=1: OpenMP and
//   OpenBLAS threads spinning against each other made the complex cases 100x slower.

#include <CLI/CLI.hpp>
#include <mgblas/mgblas.hpp>

#include "../common/example_driver.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <complex>
#include <cstdint>
#include <cstdio>
#include <limits>
#include <memory>
#include <random>
#include <sstream>
#include <string>
#include <vector>

// LAPACKE with std::complex, so that the oracle calls take the library's scalars.
#define lapack_complex_float std::complex<float>
#define lapack_complex_double std::complex<double>
#include <lapacke.h>

namespace {

using namespace mgblas;

struct Options {
  int64_t n = 1000;
  int64_t nb = 64;
  std::vector<std::string> types{"d", "z"};
  double tol = 100;
  double tol_t = 0.1;
  uint64_t seed = 1;
  bool check = true;
};

template <Scalar T>
using Real = real_type_t<T>;

// Random symmetric / Hermitian matrix, entries uniform on [-1, 1] (real and imaginary
// parts), full storage so LAPACK sees the same matrix; the diagonal is real.
template <Scalar T>
std::vector<T> random_hermitian(int64_t n, uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<Real<T>> u(-1, 1);
  std::vector<T> A(static_cast<std::size_t>(n * n));
  for (int64_t j = 0; j < n; ++j) {
    if constexpr (is_complex_v<T>)
      A[j + j * n] = T(u(rng), 0);
    else
      A[j + j * n] = u(rng);
    for (int64_t i = j + 1; i < n; ++i) {
      T a;
      if constexpr (is_complex_v<T>)
        a = T(u(rng), u(rng));
      else
        a = u(rng);
      A[i + j * n] = a;
      A[j + i * n] = mgblas::conj(a);
    }
  }
  return A;
}

struct Result {
  double ms = 0;
  double col_ms = 0, symv_ms = 0, host_ms = 0, update_ms = 0;  // per step
  double err_t = 0, err_eig = 0;
  bool ok = true;
};

// DLARFG / ZLARFG on (alpha, x): returns tau and beta and overwrites x with v(1:).
// H^H (alpha; x) = (beta; 0) with H = I - tau v v^H, beta real. Without LAPACK's
// rescaling loop for |beta| < safmin: entries here are O(1).
template <Scalar T>
T householder(T alpha, T* x, int64_t len, Real<T>& beta) {
  using R = Real<T>;
  R xnorm = 0;
  for (int64_t i = 0; i < len; ++i) xnorm = std::hypot(xnorm, std::abs(x[i]));
  const R alphr = std::real(alpha);
  const R alphi = std::imag(alpha);
  if (xnorm == 0 && alphi == 0) {
    beta = alphr;
    return T(0);  // H = I
  }
  beta = -std::copysign(std::hypot(alphr, alphi, xnorm), alphr);
  T tau;
  if constexpr (is_complex_v<T>)
    tau = T((beta - alphr) / beta, -alphi / beta);
  else
    tau = (beta - alphr) / beta;
  const T scale = T(1) / (alpha - T(beta));
  for (int64_t i = 0; i < len; ++i) x[i] *= scale;
  return tau;
}

// The reduction itself. On return d (n), e (n-1) and tau (n-1) are the same on every
// rank; A holds the updated trailing matrices (its strictly lower part below the
// subdiagonal is not overwritten with v, unlike LAPACK's).
template <Scalar T>
void sytd2_mgpu(Reducer& reducer, DistMatrix<T>& A, std::vector<Real<T>>& d,
                std::vector<Real<T>>& e, std::vector<T>& tau, Result& r) {
  Context& ctx = reducer.context();
  const Communicator& comm = ctx.comm();
  const BlockCyclic1D& L = A.layout();
  const int64_t n = A.n();
  const int64_t ld = A.ld();
  const int P = L.num_devices();
  d.assign(n, 0);
  e.assign(std::max<int64_t>(n - 1, 0), 0);
  tau.assign(std::max<int64_t>(n - 1, 0), T(0));

  // Staging: col = A(j:n, j); vw = [v w] and wv = [w v] (m x 2, leading dimension m),
  // copied to every local device as the gemm's A and B operands.
  std::vector<T> col(n), vw(2 * n), wv(2 * n);
  std::vector<DeviceBuffer<T>> vw_dev, wv_dev;
  for (int dl = 0; dl < ctx.num_devices(); ++dl) {
    vw_dev.emplace_back(ctx.device(dl), 2 * n);
    wv_dev.emplace_back(ctx.device(dl), 2 * n);
  }

  using clock = std::chrono::steady_clock;
  const auto ms_since = [](clock::time_point t0) {
    return std::chrono::duration<double, std::milli>(clock::now() - t0).count();
  };

  // Column j (global) from its owner device to every rank: rows j..n-1.
  const auto read_column = [&](int64_t j) {
    const int g = L.owner(j);
    const int owner_rank = ctx.rank_of_device(g);
    const int dl = ctx.local_index_of(g);
    if (dl >= 0)
      copy_vector(ctx.device(dl), n - j, A.local(dl) + L.local_col(j) * ld + j, col.data());
    comm.bcast(col.data(), sizeof(T) * static_cast<std::size_t>(n - j), owner_rank);
  };

  for (int64_t j = 0; j + 1 < n; ++j) {
    const int64_t m = n - j - 1;
    T* v = vw.data();
    T* w = vw.data() + m;

    auto t0 = clock::now();
    read_column(j);
    r.col_ms += ms_since(t0);

    t0 = clock::now();
    d[j] = std::real(col[0]);
    std::copy(col.begin() + 2, col.begin() + 2 + (m - 1), v + 1);
    Real<T> beta = 0;
    const T tj = householder(col[1], v + 1, m - 1, beta);
    v[0] = T(1);
    e[j] = beta;
    tau[j] = tj;
    r.host_ms += ms_since(t0);
    if (tj == T(0)) continue;  // H = I: nothing to update (every rank skips alike)

    // w = tau * S * v on all devices, summed over devices and ranks.
    t0 = clock::now();
    if constexpr (is_complex_v<T>)
      hemv_mgpu_offset(reducer, Uplo::Lower, tj, A, j + 1, v, T(0), w);
    else
      symv_mgpu_offset(reducer, Uplo::Lower, tj, A, j + 1, v, T(0), w);
    r.symv_ms += ms_since(t0);

    // w -= (tau/2) (w^H v) v: makes the rank-2 update below equal H^H S H.
    t0 = clock::now();
    T whv(0);
    for (int64_t i = 0; i < m; ++i) whv += mgblas::conj(w[i]) * v[i];
    const T a = Real<T>(-0.5) * tj * whv;
    for (int64_t i = 0; i < m; ++i) w[i] += a * v[i];
    std::copy(w, w + m, wv.data());
    std::copy(v, v + m, wv.data() + m);
    r.host_ms += ms_since(t0);

    // S -= [v w] [w v]^H on the lower part of every local block column of S: for the
    // block's columns cs..ce-1 the rows cs..n-1 (the block's upper triangle is updated
    // too, harmlessly: only the lower triangle is ever read).
    t0 = clock::now();
    for (int dl = 0; dl < ctx.num_devices(); ++dl) {
      const int dev = ctx.device_offset() + dl;
      const Device& device = ctx.device(dl);
      copy_vector(device, 2 * m, vw.data(), vw_dev[dl].data());
      copy_vector(device, 2 * m, wv.data(), wv_dev[dl].data());
      for (int64_t lb = 0; lb < L.local_blocks(dev); ++lb) {
        const int64_t jb = L.first_block(dev) + lb * P;
        const int64_t c0 = jb * L.nb();
        const int64_t ce = c0 + L.block_width(jb);
        if (ce <= j + 1) continue;
        const int64_t cs = std::max(c0, j + 1);
        const int64_t k0 = cs - (j + 1);  // row of cs in v, w
        T* C = A.local(dl) + (lb * L.nb() + (cs - c0)) * ld + cs;
        gemm(Queue(device), Op::N, Op::C, n - cs, ce - cs, 2, T(-1), vw_dev[dl].data() + k0, m,
             wv_dev[dl].data() + k0, m, T(1), C, ld);
      }
    }
    // The next step's column copy and SYMV may run on other streams.
    ctx.synchronize();
    r.update_ms += ms_since(t0);
  }
  if (n > 0) {
    read_column(n - 1);
    d[n - 1] = std::real(col[0]);
  }
}

// LAPACKE overloads per precision.
int sytrd_ref(int n, float* a, float* d, float* e, float* t) {
  return LAPACKE_ssytrd(LAPACK_COL_MAJOR, 'L', n, a, n, d, e, t);
}
int sytrd_ref(int n, double* a, double* d, double* e, double* t) {
  return LAPACKE_dsytrd(LAPACK_COL_MAJOR, 'L', n, a, n, d, e, t);
}
int sytrd_ref(int n, scomplex* a, float* d, float* e, scomplex* t) {
  return LAPACKE_chetrd(LAPACK_COL_MAJOR, 'L', n, a, n, d, e, t);
}
int sytrd_ref(int n, zcomplex* a, double* d, double* e, zcomplex* t) {
  return LAPACKE_zhetrd(LAPACK_COL_MAJOR, 'L', n, a, n, d, e, t);
}
int eig_ref(int n, float* a, float* w) {
  return LAPACKE_ssyevd(LAPACK_COL_MAJOR, 'N', 'L', n, a, n, w);
}
int eig_ref(int n, double* a, double* w) {
  return LAPACKE_dsyevd(LAPACK_COL_MAJOR, 'N', 'L', n, a, n, w);
}
int eig_ref(int n, scomplex* a, float* w) {
  return LAPACKE_cheevd(LAPACK_COL_MAJOR, 'N', 'L', n, a, n, w);
}
int eig_ref(int n, zcomplex* a, double* w) {
  return LAPACKE_zheevd(LAPACK_COL_MAJOR, 'N', 'L', n, a, n, w);
}
int sterf(int n, float* d, float* e) { return LAPACKE_ssterf(n, d, e); }
int sterf(int n, double* d, double* e) { return LAPACKE_dsterf(n, d, e); }

template <Scalar T>
Result run_case(Reducer& reducer, const Options& o) {
  Context& ctx = reducer.context();
  const Communicator& comm = ctx.comm();
  const int64_t n = o.n;
  const bool root = ctx.rank() == 0;
  using R = Real<T>;

  const std::vector<T> A_host = root ? random_hermitian<T>(n, o.seed) : std::vector<T>();
  DistMatrix<T> A(reducer.context_ptr(), BlockCyclic1D(n, n, o.nb, ctx.global_num_devices()));
  A.distribute(root ? A_host.data() : nullptr, n, /*root=*/0);

  Result r;
  std::vector<R> d, e;
  std::vector<T> tau;
  comm.barrier();
  const auto t0 = std::chrono::steady_clock::now();
  sytd2_mgpu(reducer, A, d, e, tau, r);
  const auto t1 = std::chrono::steady_clock::now();
  const int64_t ns = std::chrono::duration_cast<std::chrono::nanoseconds>(t1 - t0).count();
  r.ms = static_cast<double>(comm.allreduce_max(ns)) * 1e-6;
  const double steps = static_cast<double>(std::max<int64_t>(n - 1, 1));
  for (double* p : {&r.col_ms, &r.symv_ms, &r.host_ms, &r.update_ms}) {
    const int64_t us = comm.allreduce_max(static_cast<int64_t>(*p * 1e3));
    *p = static_cast<double>(us) * 1e-3 / steps;
  }
  if (!o.check) return r;

  //  +--------------------------------------------------------------------------------+
  //  |  (d_ref, e_ref) = LAPACKE ?sytrd/?hetrd('L', A);  lambda_ref = ?syevd/?heevd(A) |
  //  |  lambda = ?sterf(d, e);  ||A||_2 = max |lambda_ref|                            |
  //  |  err(T)   = max(max|d - d_ref|, max||e| - |e_ref||) / ||A||_2                  |
  //  |  err(eig) = max |lambda - lambda_ref| / ||A||_2                                |
  //  |  ok when err(eig) <= tol * n * eps and err(T) <= tol_t * n * sqrt(eps)       |
  //  |  (reflector signs may differ: e compared by magnitude)                         |
  //  +--------------------------------------------------------------------------------+
  bool fine = true;
  if (root && n > 0) {
    const int ni = static_cast<int>(n);
    std::vector<T> a = A_host, t_ref(std::max<int64_t>(n - 1, 1));
    std::vector<R> d_ref(n), e_ref(std::max<int64_t>(n - 1, 1)), lam_ref(n);
    int info = sytrd_ref(ni, a.data(), d_ref.data(), e_ref.data(), t_ref.data());
    a = A_host;
    info |= eig_ref(ni, a.data(), lam_ref.data());
    std::vector<R> lam = d, e_work = e;
    e_work.resize(std::max<int64_t>(n - 1, 1));
    info |= sterf(ni, lam.data(), e_work.data());

    double anorm = 0;
    for (R l : lam_ref) anorm = std::max(anorm, std::abs(static_cast<double>(l)));
    const double dt = std::max(examples::max_diff(n, d.data(), d_ref.data()),
                               examples::max_diff(n - 1, e.data(), e_ref.data(), true));
    const double de = examples::max_diff(n, lam.data(), lam_ref.data());
    const double scale = anorm > 0 ? anorm : 1.0;
    r.err_t = dt / scale;
    r.err_eig = de / scale;
    const double eps = std::numeric_limits<R>::epsilon();
    const double nd = static_cast<double>(n);
    fine = info == 0 && anorm > 0 && std::isfinite(r.err_t) && std::isfinite(r.err_eig) &&
           r.err_eig <= o.tol * nd * eps && r.err_t <= o.tol_t * nd * std::sqrt(eps);
  }
  r.ok = examples::share_verdict(comm, fine);
  return r;
}

template <Scalar T>
bool run_type(Reducer& reducer, const Options& o) {
  const Result r = run_case<T>(reducer, o);
  const Context& ctx = reducer.context();
  if (ctx.rank() != 0) return r.ok;
  const double step = r.ms / static_cast<double>(std::max<int64_t>(o.n - 1, 1));
  if (o.check)
    std::printf("%6c %7lld %6lld %6d %8d %10.3f %9.3f %8.1e %9.1e  %s\n", precision_letter<T>(),
                static_cast<long long>(o.n), static_cast<long long>(o.nb), ctx.nranks(),
                ctx.global_num_devices(), r.ms, step, r.err_t, r.err_eig,
                r.ok ? "ok" : "FAILED");
  else
    std::printf("%6c %7lld %6lld %6d %8d %10.3f %9.3f %8s %9s  %s\n", precision_letter<T>(),
                static_cast<long long>(o.n), static_cast<long long>(o.nb), ctx.nranks(),
                ctx.global_num_devices(), r.ms, step, "-", "-", "unchecked");
  std::printf("#   per step (ms): column %.3f  symv %.3f  host %.3f  update %.3f\n", r.col_ms,
              r.symv_ms, r.host_ms, r.update_ms);
  std::fflush(stdout);
  return r.ok;
}

int run(int argc, char** argv, int world_rank) {
  Options o;
  CLI::App app{"mgblas distributed tridiagonal reduction (unblocked SYTRD/HETRD, lower)"};
  app.add_option("--n", o.n, "matrix order")->capture_default_str()->check(CLI::PositiveNumber);
  examples::add_layout_options(app, o.nb, o.types);
  app.add_option("--tol", o.tol, "pass when err(eig) <= tol * n * eps")
      ->capture_default_str()
      ->check(CLI::PositiveNumber);
  app.add_option("--tol-t", o.tol_t, "pass when err(T) <= tol_t * n * sqrt(eps)")
      ->capture_default_str()
      ->check(CLI::PositiveNumber);
  app.add_option("--seed", o.seed, "seed of the random matrix")->capture_default_str();
  app.add_flag("!--no-check", o.check, "skip the comparison with LAPACK");
  if (const auto status = examples::parse_all_ranks(app, argc, argv, world_rank)) return *status;

  const auto ctx = Context::create();
  auto reducer = make_reducer(ctx, ReducerKind::Auto);
  examples::print_banner(*reducer, "distributed tridiagonal reduction (unblocked SYTRD/HETRD, lower)",
                         argc, argv);
  if (ctx->rank() == 0)
    std::printf("# %4s %7s %6s %6s %8s %10s %9s %8s %9s  %s\n", "type", "n", "nb", "ranks",
                "devices", "time(ms)", "step(ms)", "err(T)", "err(eig)", "status");
  // Verdicts are decided on rank 0 and broadcast, so every rank exits alike.
  return examples::run_cases(*ctx, o.types, [&](auto tag) {
    return run_type<typename decltype(tag)::type>(*reducer, o);
  });
}

}  // namespace

int main(int argc, char** argv) {
  return mgblas::examples::run_main("mgblas_sytrd", argc, argv, run);
}
