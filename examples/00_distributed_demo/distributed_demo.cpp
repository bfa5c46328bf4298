// SPDX-License-Identifier: BSD-3-Clause
//
// 00_distributed_demo: GEMV, SYMV and HEMV on a matrix spread over every device of
// every MPI rank, timed and checked.
//
// What it does
//   Rank 0 draws an n x n matrix A; DistMatrix::distribute deals its block columns
//   (width nb) round-robin over all devices of all ranks (BlockCyclic1D). Every rank
//   holds the same x and y. Each operation
//       gemv:  y = alpha * A * x + beta * y
//       symv:  y = alpha * A * x + beta * y, A symmetric, lower triangle stored
//       hemv:  the same with A Hermitian
//   runs on all devices at once (each multiplies its own block columns), and the
//   Reducer sums the partial vectors over devices and ranks, so every rank ends with
//   the whole y. The first call is checked on rank 0 against the single-device host
//   engine (OpenBLAS) on the full matrix; the next --niter calls are timed.
//
// How to run
//   mpirun -np 2 ./build/examples/00_distributed_demo/mgblas_demo
//   mpirun -np 4 ./build/examples/00_distributed_demo/mgblas_demo --n 8192 --nb 512
//          --type s,d,c,z --ops gemv,symv --niter 20           (one command line)
//   Open MPI as root on a small machine: add --oversubscribe --allow-run-as-root.
//   GPUs are used when present (MGBLAS_DEVICES picks them), else host devices
//   (MGBLAS_HOST_DEVICES per rank, default 1; MGBLAS_BACKEND=host forces them).
//   --reducer host|nccl|auto (or MGBLAS_REDUCER with auto) picks the reducer, --chunks
//   splits each device's work so that the reduction of one chunk overlaps the next.
//   The binding report (rank, host, GPU, PCI bus, CPU set, who bound the thread) is
//   printed first; MGBLAS_DEVICES overrides the GPU choice, MGBLAS_BIND=0 the binding.
//
// Expected output (host devices, 2 ranks x 2 devices; times vary)
//   # mgblas 0.1.0 -- distributed Level-2 demo
//   # back-end host, 2 ranks, 4 devices (2 on rank 0), reducer host (...)
//   # binding:
//   #   rank 0 (local 0) host node1  device host:0  cpus 0-1 (bound by none)
//   #   ...
//   # type  op        n     nb  ranks  devices   time(ms)      GB/s     error  status
//        d  gemv   4096    256      2        4     20.512      6.55  2.1e-03  ok
//        d  symv   4096    256      2        4     17.803      3.77  1.9e-03  ok
//        d  hemv   4096    256      2        4     17.751      3.78  1.9e-03  ok
//   # 3 cases, 0 failed
//   error = ||y - y_ref|| / ((n |alpha| ||A||_F ||x|| + |beta| ||y0||) eps) must stay
//   below 10 (x sqrt(2) for complex); the exit status is non-zero if any case fails.
//   GB/s counts the least traffic an operation needs: gemv (n^2 + 2n) elements,
//   symv/hemv (n(n+1)/2 + 2n) elements.

#include <CLI/CLI.hpp>
#include <mgblas/mgblas.hpp>

#include "../common/example_main.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <complex>
#include <cstdint>
#include <cstdio>
#include <iostream>
#include <limits>
#include <memory>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#if MGBLAS_HAVE_MPI
#include <mpi.h>
#endif

namespace {

using namespace mgblas;

struct Options {
  int64_t n = 4096;
  int64_t nb = 256;
  std::vector<std::string> types = examples::default_types("d");
  int niter = 10;
  std::vector<std::string> ops{"gemv", "symv", "hemv"};
  std::string reducer = "auto";
  int chunks = 1;
};

template <Scalar T>
T scalar(double re, double im) {
  if constexpr (is_complex_v<T>)
    return T(static_cast<real_type_t<T>>(re), static_cast<real_type_t<T>>(im));
  else
    return static_cast<T>(re);
}

template <Scalar T>
std::vector<T> random_entries(int64_t count, uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  std::vector<T> v(static_cast<std::size_t>(count));
  for (auto& e : v) {
    const double re = u(rng);
    e = scalar<T>(re, is_complex_v<T> ? u(rng) : 0.0);
  }
  return v;
}

template <Scalar T>
double norm2(const std::vector<T>& v) {
  double s = 0;
  for (const T& e : v) {
    const double a = std::abs(e);
    s += a * a;
  }
  return std::sqrt(s);
}

struct Result {
  double ms = 0;
  double error = 0;
  bool ok = false;
};

// One operation on one precision: check the first call on rank 0, time the rest.
template <Scalar T>
Result run_case(Reducer& reducer, const std::string& op, const Options& o) {
  Context& ctx = reducer.context();
  const auto& comm = ctx.comm();
  const int64_t n = o.n;
  const bool root = ctx.rank() == 0;

  // Only rank 0 holds the whole matrix; the vectors are replicated (same seed).
  std::vector<T> A_host = root ? random_entries<T>(n * n, 1) : std::vector<T>();
  const std::vector<T> x = random_entries<T>(n, 2);
  const std::vector<T> y0 = random_entries<T>(n, 3);
  const T alpha = scalar<T>(1.25, -0.5);
  const T beta = scalar<T>(-0.75, 0.25);

  DistMatrix<T> A(reducer.context_ptr(), BlockCyclic1D(n, n, o.nb, ctx.global_num_devices()));
  A.distribute(root ? A_host.data() : nullptr, n, /*root=*/0);

  const auto call = [&](T* y) {
    if (op == "gemv")
      gemv_mgpu(reducer, Op::N, alpha, A, x.data(), beta, y);
    else if (op == "symv")
      symv_mgpu(reducer, Uplo::Lower, alpha, A, x.data(), beta, y);
    else
      hemv_mgpu(reducer, Uplo::Lower, alpha, A, x.data(), beta, y);
  };

  std::vector<T> y = y0;
  call(y.data());

  //  +--------------------------------------------------------------------------+
  //  |  y_ref = alpha * A * x + beta * y0 on one host device (OpenBLAS)         |
  //  |  err = ||y - y_ref|| / ((n |alpha| ||A||_F ||x|| + |beta| ||y0||) eps)   |
  //  |  ok when err <= 10 (x sqrt(2) for complex)                               |
  //  +--------------------------------------------------------------------------+
  Result r;
  int verdict = 0;
  if (root) {
    const auto host = Device::make_host(0);
    std::vector<T> y_ref = y0;
    if (op == "gemv")
      gemv(*host, Op::N, n, n, alpha, A_host.data(), n, x.data(), 1, beta, y_ref.data(), 1);
    else if (op == "symv")
      symv(*host, Uplo::Lower, n, alpha, A_host.data(), n, x.data(), 1, beta, y_ref.data(), 1);
    else
      hemv(*host, Uplo::Lower, n, alpha, A_host.data(), n, x.data(), 1, beta, y_ref.data(), 1);
    std::vector<T> diff(y.size());
    for (std::size_t i = 0; i < y.size(); ++i) diff[i] = y[i] - y_ref[i];
    // ||A||_F of the whole draw also bounds symv/hemv, whose matrix mirrors one triangle
    // of it (its norm is within a factor sqrt(2)).
    const double eps = std::numeric_limits<real_type_t<T>>::epsilon();
    const double denom = (static_cast<double>(n) * std::abs(alpha) * norm2(A_host) * norm2(x) +
                          std::abs(beta) * norm2(y0)) *
                         eps;
    r.error = denom > 0 ? norm2(diff) / denom : norm2(diff) / eps;
    const double tol = is_complex_v<T> ? 10.0 * std::sqrt(2.0) : 10.0;
    verdict = std::isfinite(r.error) && r.error <= tol ? 1 : 0;
  }
  comm.bcast(&verdict, sizeof verdict, 0);
  r.ok = verdict == 1;

  // Timed calls start together; the slowest rank's time is the operation's time.
  std::vector<T> y_work = y0;
  comm.barrier();
  const auto t0 = std::chrono::steady_clock::now();
  for (int it = 0; it < o.niter; ++it) call(y_work.data());
  const auto t1 = std::chrono::steady_clock::now();
  const int64_t ns = std::chrono::duration_cast<std::chrono::nanoseconds>(t1 - t0).count();
  r.ms = static_cast<double>(comm.allreduce_max(ns)) * 1e-6 / std::max(1, o.niter);
  return r;
}

// Minimum traffic, in bytes: every stored matrix entry and both vectors once.
double traffic_bytes(const std::string& op, int64_t n, std::size_t elem) {
  const double nn = static_cast<double>(n);
  const double entries = op == "gemv" ? nn * nn + 2 * nn : nn * (nn + 1) / 2 + 2 * nn;
  return entries * static_cast<double>(elem);
}

template <Scalar T>
void run_type(Reducer& reducer, const Options& o, int& cases, int& failed) {
  for (const auto& op : o.ops) {
    const Result r = run_case<T>(reducer, op, o);
    ++cases;
    failed += r.ok ? 0 : 1;
    const Context& ctx = reducer.context();
    if (ctx.rank() == 0) {
      const double gbs = o.niter > 0 && r.ms > 0
                             ? traffic_bytes(op, o.n, sizeof(T)) / (r.ms * 1e-3) * 1e-9
                             : 0.0;
      std::printf("%6c  %-4s %7lld %6lld %6d %8d %10.3f %9.2f %9.1e  %s\n", precision_letter<T>(),
                  op.c_str(), static_cast<long long>(o.n), static_cast<long long>(o.nb),
                  ctx.nranks(), ctx.global_num_devices(), r.ms, gbs, r.error,
                  r.ok ? "ok" : "FAILED");
      std::fflush(stdout);
    }
  }
}

std::string mpi_version() {
#if MGBLAS_HAVE_MPI
  char text[MPI_MAX_LIBRARY_VERSION_STRING];
  int len = 0;
  MPI_Get_library_version(text, &len);
  std::string v(text, static_cast<std::size_t>(len));
  v = v.substr(0, v.find_first_of(",\n"));
  return v;
#else
  return "none (built without MPI)";
#endif
}

int run(int argc, char** argv, int world_rank) {
  Options o;
  CLI::App app{"mgblas distributed Level-2 demo: gemv/symv/hemv over all devices of all ranks"};
  app.add_option("--n", o.n, "matrix order")->capture_default_str()->check(CLI::PositiveNumber);
  app.add_option("--nb", o.nb, "block column width of the layout")
      ->capture_default_str()
      ->check(CLI::PositiveNumber);
  app.add_option("--type", o.types, "precisions, comma separated: s,d,c,z")
      ->delimiter(',')
      ->capture_default_str()
      ->check(CLI::IsMember({"s", "d", "c", "z"}));
  app.add_option("--niter", o.niter, "timed calls per case (after one checked call)")
      ->capture_default_str()
      ->check(CLI::NonNegativeNumber);
  app.add_option("--ops", o.ops, "operations, comma separated: gemv,symv,hemv")
      ->delimiter(',')
      ->capture_default_str()
      ->check(CLI::IsMember({"gemv", "symv", "hemv"}));
  app.add_option("--reducer", o.reducer, "how partial results are summed: auto, host or nccl")
      ->capture_default_str()
      ->check(CLI::IsMember({"auto", "host", "nccl"}));
  app.add_option("--chunks", o.chunks, "pipeline chunks (reduction of one overlaps the next)")
      ->capture_default_str()
      ->check(CLI::PositiveNumber);
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    // Every rank parses the same line; one rank speaks.
    std::ostringstream sink;
    return world_rank == 0 ? app.exit(e) : app.exit(e, sink, sink);
  }

  const auto ctx = Context::create();
  auto reducer = make_reducer(ctx, o.reducer == "host"   ? ReducerKind::Host
                                   : o.reducer == "nccl" ? ReducerKind::Nccl
                                                         : ReducerKind::Auto);
  reducer->set_pipeline_chunks(o.chunks);
  const std::string binding = ctx->binding_report();
  if (ctx->rank() == 0) {
    std::string cmd;
    for (int i = 0; i < argc; ++i) cmd += (i ? " " : "") + std::string(argv[i]);
    std::printf("# mgblas %s -- distributed Level-2 demo\n", MGBLAS_VERSION_STRING);
    std::printf("# command: %s\n", cmd.c_str());
    std::printf("# MPI: %s\n", mpi_version().c_str());
    std::printf("# back-end %s, %d ranks, %d devices (%d on rank 0), reducer %s\n",
                to_string(ctx->backend()), ctx->nranks(), ctx->global_num_devices(),
                ctx->num_devices(), reducer->description().c_str());
    std::printf("# binding:\n");
    std::istringstream lines(binding);
    for (std::string line; std::getline(lines, line);) std::printf("#   %s\n", line.c_str());
    std::printf("# %4s  %-4s %7s %6s %6s %8s %10s %9s %9s  %s\n", "type", "op", "n", "nb", "ranks",
                "devices", "time(ms)", "GB/s", "error", "status");
    std::fflush(stdout);
  }

  int cases = 0, failed = 0;
  examples::for_each_type(o.types, [&](auto tag) {
    run_type<typename decltype(tag)::type>(*reducer, o, cases, failed);
  });
  // Verdicts are decided on rank 0 and broadcast, so every rank exits alike.
  if (ctx->rank() == 0) std::printf("# %d cases, %d failed\n", cases, failed);
  return failed == 0 ? 0 : 1;
}

}  // namespace

int main(int argc, char** argv) {
  return mgblas::examples::run_main("mgblas_demo", argc, argv, run);
}
