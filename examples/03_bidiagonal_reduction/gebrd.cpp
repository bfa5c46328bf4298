// SPDX-License-Identifier: BSD-3-Clause
//
// 03_bidiagonal_reduction: the unblocked bidiagonal reduction of LAPACK's DGEBD2 /
// ZGEBD2 (m >= n, upper bidiagonal), Q^H A P = B, on a general matrix spread over every
// device of every MPI rank, checked against LAPACK.
//
// What it does
//   Rank 0 draws a random m x n matrix A (m >= n); DistMatrix::distribute deals its
//   block columns (width nb) round-robin over all devices of all ranks (BlockCyclic1D).
//   Then, for j = 0 .. n-1:
//     1. the owner device of column j copies A(j:m, j) to its host and its rank
//        broadcasts it; every rank generates the left reflector H_j = I - tauq v v^H
//        (LAPACKE ?larfg, v(0) = 1) that annihilates A(j+1:m, j); d(j) = beta;
//     2. w = A(j:m, j+1:n)^H v     gemv_mgpu_offset, op C, at offset (j, j+1) (every
//                                  device multiplies its own block columns; the
//                                  Reducer assembles w over devices and ranks);
//     3. A(j:m, j+1:n) -= conj(tauq) v w^H      every device on its own local columns
//                                  > j: one k = 1 gemm per device;
//   and, while j < n-1:
//     4. every device copies its entries of the row A(j, j+1:n) to its host; one sum
//        over the ranks (each entry has one owner, the others add zeros) gives every
//        rank the row; the right reflector G_j = I - taup u u^H (?larfg on the
//        conjugated row, u(0) = 1) annihilates A(j, j+2:n); e(j) = beta;
//     5. z = A(j+1:m, j+1:n) u     gemv_mgpu_offset, op N, at offset (j+1, j+1);
//     6. A(j+1:m, j+1:n) -= taup z u^H          one k = 1 gemm per device.
//   Vectors are replicated host arrays; only the matrix is distributed. Row j and
//   column j are never read again, so the reflectors are not written back into A.
//
// How to run
//   mpirun -np 2 build/examples/03_bidiagonal_reduction/mgblas_gebrd --m 600 --n 500
//   mpirun -np 4 build/examples/03_bidiagonal_reduction/mgblas_gebrd --m 3000 --n 2000
//          --nb 128 --type s,d,c,z                         (one command line)
//   Open MPI as root on a small machine: add --oversubscribe --allow-run-as-root.
//   GPUs are used when present, else host devices (MGBLAS_HOST_DEVICES per rank).
//   --no-check skips the LAPACK comparison (whose O(mn^2) on rank 0 dominates large n).
//
// Expected output (--m 600 --n 500 --nb 48 --type d, host devices, 2 ranks x 2 devices,
// one OpenMP thread per rank on 2 cores; times vary)
//   # mgblas 0.1.0 -- distributed bidiagonal reduction (unblocked GEBRD, upper)
//   # back-end host, 2 ranks, 4 devices (2 on rank 0), reducer host (...)
//   # type       m       n     nb  ranks  devices   time(ms)  step(ms)   err(B)   err(sv)  status
//        d     600     500     48      2        4     64.933     0.130  7.4e-14   2.7e-15  ok
//   #   per step (ms): column 0.059  gemv 0.033  row 0.019  host 0.001  update 0.076
//   # 1 cases, 0 failed
//   time is the whole reduction (max over ranks), step(ms) = time / n; the per step
//   line splits it into the column broadcast, the two distributed GEMVs, the row
//   gather, the host reflector work and the two rank-1 updates (each the max over
//   ranks, so the parts may add up to more than step(ms)).
//   err(B)  = max(max||d| - |d_lapack||, max||e| - |e_lapack||) / ||A||_2
//             (d and e of LAPACKE ?gebrd on the same A; their signs may differ)
//   err(sv) = max |sigma(B) - sigma(A)| / ||A||_2
//             (sigma(B) from ?bdsqr on d, e; sigma(A) from ?gesdd)
//   ok when err(sv) <= tol * m * eps (--tol, default 100) and err(B) <= tol_b * m *
//   sqrt(eps) (--tol-b, default 0.1). The singular values are well-conditioned
//   (Weyl), so they test backward stability; d and e are forward quantities of two
//   different (blocked vs unblocked) reductions, hence the looser bound (as in 02).
//   The exit status is non-zero if any case fails. ||A||_2 = sigma_max(A).
//   On a small machine with several ranks per core set OMP_NUM_THREADS=1 (see 02).

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
#include <random>
#include <sstream>
#include <string>
#include <vector>

// LAPACKE with std::complex, so that the calls take the library's scalars.
#define lapack_complex_float std::complex<float>
#define lapack_complex_double std::complex<double>
#include <lapacke.h>

namespace {

using namespace mgblas;

template <Scalar T>
using Real = real_type_t<T>;

// LAPACKE overloads per precision: the reflectors of the reduction, and the oracle.
int larfg(int n, float* alpha, float* x, float* tau) {
  return LAPACKE_slarfg(n, alpha, x, 1, tau);
}
int larfg(int n, double* alpha, double* x, double* tau) {
  return LAPACKE_dlarfg(n, alpha, x, 1, tau);
}
int larfg(int n, scomplex* alpha, scomplex* x, scomplex* tau) {
  return LAPACKE_clarfg(n, alpha, x, 1, tau);
}
int larfg(int n, zcomplex* alpha, zcomplex* x, zcomplex* tau) {
  return LAPACKE_zlarfg(n, alpha, x, 1, tau);
}
int gebrd_ref(int m, int n, float* a, float* d, float* e, float* tq, float* tp) {
  return LAPACKE_sgebrd(LAPACK_COL_MAJOR, m, n, a, m, d, e, tq, tp);
}
int gebrd_ref(int m, int n, double* a, double* d, double* e, double* tq, double* tp) {
  return LAPACKE_dgebrd(LAPACK_COL_MAJOR, m, n, a, m, d, e, tq, tp);
}
int gebrd_ref(int m, int n, scomplex* a, float* d, float* e, scomplex* tq, scomplex* tp) {
  return LAPACKE_cgebrd(LAPACK_COL_MAJOR, m, n, a, m, d, e, tq, tp);
}
int gebrd_ref(int m, int n, zcomplex* a, double* d, double* e, zcomplex* tq, zcomplex* tp) {
  return LAPACKE_zgebrd(LAPACK_COL_MAJOR, m, n, a, m, d, e, tq, tp);
}
// Singular values only (jobz = 'N'): U and VT are not referenced.
int svd_ref(int m, int n, float* a, float* s) {
  float dummy = 0;
  return LAPACKE_sgesdd(LAPACK_COL_MAJOR, 'N', m, n, a, m, s, &dummy, 1, &dummy, 1);
}
int svd_ref(int m, int n, double* a, double* s) {
  double dummy = 0;
  return LAPACKE_dgesdd(LAPACK_COL_MAJOR, 'N', m, n, a, m, s, &dummy, 1, &dummy, 1);
}
int svd_ref(int m, int n, scomplex* a, float* s) {
  scomplex dummy = 0;
  return LAPACKE_cgesdd(LAPACK_COL_MAJOR, 'N', m, n, a, m, s, &dummy, 1, &dummy, 1);
}
int svd_ref(int m, int n, zcomplex* a, double* s) {
  zcomplex dummy = 0;
  return LAPACKE_zgesdd(LAPACK_COL_MAJOR, 'N', m, n, a, m, s, &dummy, 1, &dummy, 1);
}
// Singular values of the upper bidiagonal (d, e), descending, into d.
int bdsqr(int n, float* d, float* e) {
  return LAPACKE_sbdsqr(LAPACK_COL_MAJOR, 'U', n, 0, 0, 0, d, e, nullptr, 1, nullptr, 1,
                        nullptr, 1);
}
int bdsqr(int n, double* d, double* e) {
  return LAPACKE_dbdsqr(LAPACK_COL_MAJOR, 'U', n, 0, 0, 0, d, e, nullptr, 1, nullptr, 1,
                        nullptr, 1);
}

struct Options {
  int64_t m = 1000;
  int64_t n = 1000;
  int64_t nb = 64;
  std::vector<std::string> types{"d", "z"};
  double tol = 100;
  double tol_b = 0.1;
  uint64_t seed = 1;
  bool check = true;
};

// Per-step time split, summed over the steps on this rank (ms).
struct Split {
  double column = 0, gemv = 0, row = 0, host = 0, update = 0;
};

struct Result {
  double ms = 0;
  Split step;  // per step, max over ranks
  double err_b = 0, err_sv = 0;
  bool ok = true;
};

// The reduction itself. On return d (n) and e (n-1) are the same on every rank; A
// holds the updated trailing matrices (the reflectors are not stored, unlike LAPACK).
template <Scalar T>
void gebd2_mgpu(Reducer& reducer, DistMatrix<T>& A, std::vector<Real<T>>& d,
                std::vector<Real<T>>& e, Split& split) {
  Context& ctx = reducer.context();
  const Communicator& comm = ctx.comm();
  const BlockCyclic1D& L = A.layout();
  const int64_t m = A.m();
  const int64_t n = A.n();
  const int64_t ld = A.ld();
  const int nloc = ctx.num_devices();
  d.assign(n, 0);
  e.assign(std::max<int64_t>(n - 1, 0), 0);

  // Host vectors: v (left reflector, length m - j), w (length n - j - 1), u (right
  // reflector, length n - j - 1), z (length m - j - 1); packed holds the entries of w or
  // u at one device's local columns > j, in local order (the gemm's B operand).
  std::vector<T> v(m), w(n), u(n), z(m), packed(n);
  std::vector<DeviceBuffer<T>> a_dev, b_dev;
  for (int dl = 0; dl < nloc; ++dl) {
    a_dev.emplace_back(ctx.device(dl), std::max<int64_t>(m, 1));
    b_dev.emplace_back(ctx.device(dl), std::max<int64_t>(n, 1));
  }

  using clock = std::chrono::steady_clock;
  const auto ms_since = [](clock::time_point t0) {
    return std::chrono::duration<double, std::milli>(clock::now() - t0).count();
  };

  // First local column of device dl whose global column is > j (local columns are in
  // increasing global order, so all the later ones are too).
  const auto first_local_after = [&](int dl, int64_t j) {
    const int dev = ctx.device_offset() + dl;
    const int64_t nl = L.local_n(dev);
    int64_t lo = 0, hi = nl;
    while (lo < hi) {
      const int64_t mid = (lo + hi) / 2;
      if (L.global_col(dev, mid) > j)
        hi = mid;
      else
        lo = mid + 1;
    }
    return lo;
  };

  // A(r0:m, j+1:n) -= alpha * a * b^H, a (length m - r0) and b (length n - j - 1, indexed
  // from column j+1) host vectors; one gemm per device on its local columns > j.
  const auto rank1_update = [&](int64_t j, int64_t r0, T alpha, const T* a, const T* b) {
    for (int dl = 0; dl < nloc; ++dl) {
      const int dev = ctx.device_offset() + dl;
      const int64_t lc0 = first_local_after(dl, j);
      const int64_t cnt = L.local_n(dev) - lc0;
      if (cnt <= 0) continue;
      for (int64_t k = 0; k < cnt; ++k) packed[k] = b[L.global_col(dev, lc0 + k) - (j + 1)];
      const Device& device = ctx.device(dl);
      copy_vector(device, m - r0, a, a_dev[dl].data());
      copy_vector(device, cnt, packed.data(), b_dev[dl].data());
      gemm(Queue(device), Op::N, Op::C, m - r0, cnt, 1, alpha, a_dev[dl].data(), m - r0,
           b_dev[dl].data(), cnt, T(1), A.local(dl) + lc0 * ld + r0, ld);
    }
    // The next step's copies and GEMVs may run on other streams.
    ctx.synchronize();
  };

  for (int64_t j = 0; j < n; ++j) {
    const int64_t mj = m - j;      // rows of the left reflector
    const int64_t nj = n - j - 1;  // columns right of j

    // Column j, rows j..m-1, from its owner device to every rank.
    auto t0 = clock::now();
    {
      const int g = L.owner(j);
      const int dl = ctx.local_index_of(g);
      if (dl >= 0)
        copy_vector(ctx.device(dl), mj, A.local(dl) + L.local_col(j) * ld + j, v.data());
      comm.bcast(v.data(), sizeof(T) * static_cast<std::size_t>(mj), ctx.rank_of_device(g));
    }
    split.column += ms_since(t0);

    t0 = clock::now();
    T tauq(0);
    larfg(static_cast<int>(mj), &v[0], v.data() + 1, &tauq);
    d[j] = std::real(v[0]);
    v[0] = T(1);
    split.host += ms_since(t0);

    if (nj == 0) break;
    if (tauq != T(0)) {  // else H_j = I (every rank skips alike)
      t0 = clock::now();
      gemv_mgpu_offset(reducer, Op::C, T(1), A, j, j + 1, v.data(), T(0), w.data());
      split.gemv += ms_since(t0);
      t0 = clock::now();
      rank1_update(j, j, -mgblas::conj(tauq), v.data(), w.data());
      split.update += ms_since(t0);
    }

    // Row j, columns j+1..n-1: each device's entries, then one sum over the ranks.
    t0 = clock::now();
    std::fill(u.begin(), u.begin() + nj, T(0));
    for (int dl = 0; dl < nloc; ++dl) {
      const int dev = ctx.device_offset() + dl;
      const int64_t lc0 = first_local_after(dl, j);
      const int64_t cnt = L.local_n(dev) - lc0;
      if (cnt <= 0) continue;
      copy_matrix(ctx.device(dl), 1, cnt, A.local(dl) + lc0 * ld + j, ld, packed.data(), 1);
      for (int64_t k = 0; k < cnt; ++k) u[L.global_col(dev, lc0 + k) - (j + 1)] = packed[k];
    }
    comm.allreduce_sum(u.data(), nj);
    split.row += ms_since(t0);

    // ZGEBD2 generates G_j from the conjugated row (ZLACGV).
    t0 = clock::now();
    for (int64_t k = 0; k < nj; ++k) u[k] = mgblas::conj(u[k]);
    T taup(0);
    larfg(static_cast<int>(nj), &u[0], u.data() + 1, &taup);
    e[j] = std::real(u[0]);
    u[0] = T(1);
    split.host += ms_since(t0);
    if (taup == T(0)) continue;

    t0 = clock::now();
    gemv_mgpu_offset(reducer, Op::N, T(1), A, j + 1, j + 1, u.data(), T(0), z.data());
    split.gemv += ms_since(t0);
    t0 = clock::now();
    rank1_update(j, j + 1, -taup, z.data(), u.data());
    split.update += ms_since(t0);
  }
}

// Random m x n matrix, entries uniform on [-1, 1] (real and imaginary parts).
template <Scalar T>
std::vector<T> random_matrix(int64_t m, int64_t n, uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<Real<T>> dist(-1, 1);
  std::vector<T> A(static_cast<std::size_t>(m * n));
  for (T& a : A) {
    if constexpr (is_complex_v<T>)
      a = T(dist(rng), dist(rng));
    else
      a = dist(rng);
  }
  return A;
}

template <Scalar T>
Result run_case(Reducer& reducer, const Options& o) {
  Context& ctx = reducer.context();
  const Communicator& comm = ctx.comm();
  const int64_t m = o.m, n = o.n;
  const bool root = ctx.rank() == 0;
  using R = Real<T>;

  const std::vector<T> A_host = root ? random_matrix<T>(m, n, o.seed) : std::vector<T>();
  DistMatrix<T> A(reducer.context_ptr(), BlockCyclic1D(m, n, o.nb, ctx.global_num_devices()));
  A.distribute(root ? A_host.data() : nullptr, m, /*root=*/0);

  Result r;
  std::vector<R> d, e;
  Split split;
  comm.barrier();
  const auto t0 = std::chrono::steady_clock::now();
  gebd2_mgpu(reducer, A, d, e, split);
  const auto t1 = std::chrono::steady_clock::now();
  const int64_t ns = std::chrono::duration_cast<std::chrono::nanoseconds>(t1 - t0).count();
  r.ms = static_cast<double>(comm.allreduce_max(ns)) * 1e-6;
  const double steps = static_cast<double>(std::max<int64_t>(n, 1));
  r.step = split;
  for (double* p : {&r.step.column, &r.step.gemv, &r.step.row, &r.step.host, &r.step.update}) {
    const int64_t us = comm.allreduce_max(static_cast<int64_t>(*p * 1e3));
    *p = static_cast<double>(us) * 1e-3 / steps;
  }
  if (!o.check) return r;

  //  +--------------------------------------------------------------------------------+
  //  |  (d_ref, e_ref) = LAPACKE ?gebrd(A);  sigma_ref = ?gesdd(A, jobz = 'N')         |
  //  |  sigma = ?bdsqr('U', d, e);  ||A||_2 = sigma_ref(0)                            |
  //  |  err(B)  = max(max||d| - |d_ref||, max||e| - |e_ref||) / ||A||_2               |
  //  |  err(sv) = max |sigma - sigma_ref| / ||A||_2                                   |
  //  |  ok when err(sv) <= tol * m * eps and err(B) <= tol_b * m * sqrt(eps)          |
  //  |  (reflector signs may differ: d and e compared by magnitude)                   |
  //  +--------------------------------------------------------------------------------+
  bool fine = true;
  if (root && n > 0) {
    const int mi = static_cast<int>(m), ni = static_cast<int>(n);
    std::vector<T> a = A_host, tq(n), tp(n);
    std::vector<R> d_ref(n), e_ref(n), sv_ref(n);
    int info = gebrd_ref(mi, ni, a.data(), d_ref.data(), e_ref.data(), tq.data(), tp.data());
    a = A_host;
    info |= svd_ref(mi, ni, a.data(), sv_ref.data());
    std::vector<R> sv = d, e_work = e;
    e_work.resize(n);
    info |= bdsqr(ni, sv.data(), e_work.data());

    const double anorm = sv_ref[0];
    const double db = std::max(examples::max_diff(n, d.data(), d_ref.data(), true),
                               examples::max_diff(n - 1, e.data(), e_ref.data(), true));
    const double ds = examples::max_diff(n, sv.data(), sv_ref.data());
    const double scale = anorm > 0 ? anorm : 1.0;
    r.err_b = db / scale;
    r.err_sv = ds / scale;
    const double eps = std::numeric_limits<R>::epsilon();
    const double md = static_cast<double>(m);
    fine = info == 0 && anorm > 0 && std::isfinite(r.err_b) && std::isfinite(r.err_sv) &&
           r.err_sv <= o.tol * md * eps && r.err_b <= o.tol_b * md * std::sqrt(eps);
  }
  r.ok = examples::share_verdict(comm, fine);
  return r;
}

template <Scalar T>
bool run_type(Reducer& reducer, const Options& o) {
  const Result r = run_case<T>(reducer, o);
  const Context& ctx = reducer.context();
  if (ctx.rank() != 0) return r.ok;
  const double step = r.ms / static_cast<double>(std::max<int64_t>(o.n, 1));
  char err_b[16] = "-", err_sv[16] = "-";
  if (o.check) {
    std::snprintf(err_b, sizeof err_b, "%.1e", r.err_b);
    std::snprintf(err_sv, sizeof err_sv, "%.1e", r.err_sv);
  }
  std::printf("%6c %7lld %7lld %6lld %6d %8d %10.3f %9.3f %8s %9s  %s\n", precision_letter<T>(),
              static_cast<long long>(o.m), static_cast<long long>(o.n),
              static_cast<long long>(o.nb), ctx.nranks(), ctx.global_num_devices(), r.ms, step,
              err_b, err_sv, !o.check ? "unchecked" : r.ok ? "ok" : "FAILED");
  std::printf("#   per step (ms): column %.3f  gemv %.3f  row %.3f  host %.3f  update %.3f\n",
              r.step.column, r.step.gemv, r.step.row, r.step.host, r.step.update);
  std::fflush(stdout);
  return r.ok;
}

int run(int argc, char** argv, int world_rank) {
  Options o;
  CLI::App app{"mgblas distributed bidiagonal reduction (unblocked GEBRD, upper, m >= n)"};
  app.add_option("--m", o.m, "rows (m >= n)")->capture_default_str()->check(CLI::PositiveNumber);
  app.add_option("--n", o.n, "columns")->capture_default_str()->check(CLI::PositiveNumber);
  examples::add_layout_options(app, o.nb, o.types);
  app.add_option("--tol", o.tol, "pass when err(sv) <= tol * m * eps")
      ->capture_default_str()
      ->check(CLI::PositiveNumber);
  app.add_option("--tol-b", o.tol_b, "pass when err(B) <= tol_b * m * sqrt(eps)")
      ->capture_default_str()
      ->check(CLI::PositiveNumber);
  app.add_option("--seed", o.seed, "seed of the random matrix")->capture_default_str();
  app.add_flag("!--no-check", o.check, "skip the comparison with LAPACK");
  if (const auto status = examples::parse_all_ranks(app, argc, argv, world_rank)) return *status;
  if (o.m < o.n) {  // checked after the parse, alike on every rank; one rank speaks
    const CLI::ValidationError bad("--m", "must be >= --n (upper bidiagonal form)");
    std::ostringstream sink;
    return world_rank == 0 ? app.exit(bad) : app.exit(bad, sink, sink);
  }

  const auto ctx = Context::create();
  auto reducer = make_reducer(ctx, ReducerKind::Auto);
  examples::print_banner(*reducer, "distributed bidiagonal reduction (unblocked GEBRD, upper)",
                         argc, argv);
  if (ctx->rank() == 0)
    std::printf("# %4s %7s %7s %6s %6s %8s %10s %9s %8s %9s  %s\n", "type", "m", "n", "nb",
                "ranks", "devices", "time(ms)", "step(ms)", "err(B)", "err(sv)", "status");
  // Verdicts are decided on rank 0 and broadcast, so every rank exits alike.
  return examples::run_cases(*ctx, o.types, [&](auto tag) {
    return run_type<typename decltype(tag)::type>(*reducer, o);
  });
}

}  // namespace

int main(int argc, char** argv) {
  return mgblas::examples::run_main("mgblas_gebrd", argc, argv, run);
}
