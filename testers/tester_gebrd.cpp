// SPDX-License-Identifier: BSD-3-Clause
// mgblas-tester gebrd: the distributed bidiagonal reduction (gebrd_mgpu) over the GPUs of every
// rank against cusolverDn<t>gebrd on rank 0's first GPU, on the same matrix in the same
// run.
//
//   mpirun -np R mgblas-tester gebrd -m 8192 -n 8192 --type d,s [--nb 256] [--panel 0]
//          [--niter 3] [--profile] [--check-max-n 1024] [--no-ref] [--pass auto|one|two]
//          [--one-pass-min-mib MIB] [--csv FILE]
//
// -m and -n are lists of the same length (or -m omitted: square). The matrix: entry
// (i, j) of A is a function of (seed, i + j m) only (tester_dist_fill), so each device
// fills its own block columns and the cuSOLVER copy is filled whole. Columns: time(s)
// is the median over --niter calls (devices synchronised, max over ranks), the matrix
// refilled before each; GFLOP/s counts 4 m n^2 - 4 n^3 / 3 real flops for m >= n (m and
// n swapped otherwise; x4 for complex); floor(s) is the read floor of the two
// matrix-vector products per column, 2 sum_c (m - c)(n - c) sizeof(T) bytes at
// --peak-bw (the fused one-pass step's own floor is half of it); speedup = cuSOLVER time /
// mgblas time. --pass: auto is GebrdOptions' default (the fused row step on large trailing
// matrices), one the fused step on every column, two the two GEMVs on every column.
// --profile: one more call with GebrdProfile, its phases on a '#' line. --check
// (max(m, n) <= --check-max-n) gathers A and checks ||A - Q B P^H||, Q's and P's
// orthogonality and the singular values on rank 0 (tests/lapack/bidiag_check.hpp).
#include <cusolverDn.h>
#include <mpi.h>

#include <chrono>
#include <cstdio>
#include <sstream>

#include "core/context.hpp"
#include "dist/lapack/gebrd_mgpu.hpp"
#include "tests/lapack/bidiag_check.hpp"
#include "testers/subcommands.hpp"
#include "testers/tester_mpi_lapack.hpp"

namespace mgblas::testers {
namespace {


struct Options : LapackOptions {
  std::vector<int64_t> mlist;  // and LapackOptions::nlist
  int64_t nb = 256, panel = 0, check_max_n = 1024, one_pass_min_mib = -1;
  bool ref = true, profile = false;
  std::string pass = "auto";
  double peak_bw = 4530;  // GB/s: the H200's measured read ceiling (shared/DEVICE.md)
};

// cusolverDn<t>gebrd, one overload per precision.
int buffer_size(cusolverDnHandle_t h, int m, int n, float*) {
  int lw = 0;
  CHECK_CUSOLVER(cusolverDnSgebrd_bufferSize(h, m, n, &lw));
  return lw;
}
int buffer_size(cusolverDnHandle_t h, int m, int n, double*) {
  int lw = 0;
  CHECK_CUSOLVER(cusolverDnDgebrd_bufferSize(h, m, n, &lw));
  return lw;
}
int buffer_size(cusolverDnHandle_t h, int m, int n, scomplex*) {
  int lw = 0;
  CHECK_CUSOLVER(cusolverDnCgebrd_bufferSize(h, m, n, &lw));
  return lw;
}
int buffer_size(cusolverDnHandle_t h, int m, int n, zcomplex*) {
  int lw = 0;
  CHECK_CUSOLVER(cusolverDnZgebrd_bufferSize(h, m, n, &lw));
  return lw;
}
void brd(cusolverDnHandle_t h, int m, int n, float* A, int lda, float* d, float* e, float* tq,
         float* tp, float* w, int lw, int* info) {
  CHECK_CUSOLVER(cusolverDnSgebrd(h, m, n, A, lda, d, e, tq, tp, w, lw, info));
}
void brd(cusolverDnHandle_t h, int m, int n, double* A, int lda, double* d, double* e,
         double* tq, double* tp, double* w, int lw, int* info) {
  CHECK_CUSOLVER(cusolverDnDgebrd(h, m, n, A, lda, d, e, tq, tp, w, lw, info));
}
void brd(cusolverDnHandle_t h, int m, int n, scomplex* A, int lda, float* d, float* e,
         scomplex* tq, scomplex* tp, scomplex* w, int lw, int* info) {
  auto c = [](scomplex* p) { return reinterpret_cast<cuComplex*>(p); };
  CHECK_CUSOLVER(cusolverDnCgebrd(h, m, n, c(A), lda, d, e, c(tq), c(tp), c(w), lw, info));
}
void brd(cusolverDnHandle_t h, int m, int n, zcomplex* A, int lda, double* d, double* e,
         zcomplex* tq, zcomplex* tp, zcomplex* w, int lw, int* info) {
  auto c = [](zcomplex* p) { return reinterpret_cast<cuDoubleComplex*>(p); };
  CHECK_CUSOLVER(cusolverDnZgebrd(h, m, n, c(A), lda, d, e, c(tq), c(tp), c(w), lw, info));
}

// Median seconds of cusolverDn<t>gebrd on rank 0's first GPU (CUDA events), the matrix
// refilled (untimed) before each call.
template <Scalar T>
double cusolver_seconds(const Device& dev, int64_t m, int64_t n, uint64_t seed, int niter) {
  using R = real_type_t<T>;
  dev.make_current();
  const int mm = static_cast<int>(m), nn = static_cast<int>(n), lda = mm;
  const auto k = static_cast<std::size_t>(std::min(m, n));
  DeviceBuffer<T> A(dev, static_cast<std::size_t>(m * n)), tq(dev, k), tp(dev, k);
  DeviceBuffer<R> d(dev, k), e(dev, k);
  DeviceBuffer<int> info(dev, 1);
  cusolverDnHandle_t h = nullptr;
  CHECK_CUSOLVER(cusolverDnCreate(&h));
  CHECK_CUSOLVER(cusolverDnSetStream(h, dev.stream()));
  const int lw = buffer_size(h, mm, nn, A.data());
  DeviceBuffer<T> work(dev, static_cast<std::size_t>(std::max(lw, 1)));
  const double secs = event_median(
      dev, niter,
      [&] { fill_matrix(dev, A.data(), lda, m, n, is_complex_v<T> ? 2 : 1, sizeof(R) == 8, seed); },
      [&] {
        brd(h, mm, nn, A.data(), lda, d.data(), e.data(), tq.data(), tp.data(), work.data(), lw,
            info.data());
      });
  cusolverDnDestroy(h);
  return secs;
}


template <Scalar T>
int run_type(const std::shared_ptr<Context>& ctx, const Options& o,
             const std::vector<std::pair<int64_t, int64_t>>& shapes) {
  using R = real_type_t<T>;
  const bool root = ctx->rank() == 0;
  int failures = 0;
  for (auto [m, n] : shapes) {
    const uint64_t seed = o.seed * 1000003 + static_cast<uint64_t>(m * 7919 + n);
    const int64_t k = std::min(m, n);
    DistMatrix<T> A(ctx, BlockCyclic1D(m, n, std::min(o.nb, std::max<int64_t>(n, 1)),
                                       ctx->global_num_devices()));
    std::vector<R> d(k), e(std::max<int64_t>(k - 1, 0));
    std::vector<T> tq(k), tp(k);
    GebrdOptions opts;
    opts.panel = o.panel;
    opts.set_pass(o.pass == "auto" ? GebrdPass::Auto
                  : o.pass == "one" ? GebrdPass::One
                                    : GebrdPass::Two);
    if (o.one_pass_min_mib >= 0) opts.one_pass_min_bytes = o.one_pass_min_mib << 20;
    std::vector<double> t;
    for (int r = 0; r < o.warmup + o.niter; ++r) {
      fill_dist(A, seed);
      ctx->comm().barrier();
      const auto t0 = std::chrono::steady_clock::now();
      gebrd_mgpu<T>(A, d.data(), e.data(), tq.data(), tp.data(), opts);
      const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
      if (r >= o.warmup) t.push_back(s);
    }
    // The slowest rank's median.
    const double mine = median_of(t);
    double secs = mine;
    MPI_Allreduce(&mine, &secs, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);

    double resid = -1, orth = -1, sv = -1;
    bool ok = true;
    if (o.check && std::max(m, n) <= o.check_max_n) {
      std::vector<T> out(static_cast<std::size_t>(m * n)), A0(out.size());
      A.collect(out.data(), std::max<int64_t>(1, m), 0);
      fill_dist(A, seed);
      A.collect(A0.data(), std::max<int64_t>(1, m), 0);
      if (root) {
        const auto err = ::mgblas::testing::lapack::check_bidiagonal<T>(m, n, A0, out, d, e, tq, tp);
        resid = err.residual;
        orth = std::max(err.orth_q, err.orth_p);
        sv = err.singular;
        ok = err.lapack_ok && resid <= 30 * o.tol && orth <= 30 * o.tol && sv <= 30 * o.tol;
      }
    }
    GebrdProfile prof;
    if (o.profile) {
      fill_dist(A, seed);
      opts.profile = &prof;
      gebrd_mgpu<T>(A, d.data(), e.data(), tq.data(), tp.data(), opts);
    }
    double ref = 0;  // cusolverDn<t>gebrd supports m >= n only
    if (o.ref && root && ctx->device(0).is_gpu() && m >= n)
      ref = cusolver_seconds<T>(ctx->device(0), m, n, seed, o.niter);
    if (root) {
      const double big = static_cast<double>(std::max(m, n)), kk = static_cast<double>(k);
      const double flops = (is_complex_v<T> ? 4.0 : 1.0) * (4.0 * big * kk * kk - 4.0 / 3.0 * kk * kk * kk);
      double elems = 0;  // two products per column over the trailing (m - c) x (n - c)
      for (int64_t c = 0; c < k; ++c) elems += 2.0 * double(m - c) * double(n - c);
      const double floor_s = elems * sizeof(T) / (o.peak_bw * 1e9);
      std::printf("%5s %7lld %7lld %5lld %5lld %5d %5d %10.4f %9.1f %9.4f %6.1f%% %11.4f %8.2f %9.2e %9.2e %9.2e  %s\n",
                  std::string(1, precision_letter<T>()).c_str(), static_cast<long long>(m),
                  static_cast<long long>(n), static_cast<long long>(A.layout().nb()),
                  static_cast<long long>(o.panel), ctx->global_num_devices(), ctx->nranks(), secs,
                  flops / secs * 1e-9, floor_s, 100.0 * floor_s / secs, ref,
                  ref > 0 ? ref / secs : 0.0, resid, orth, sv, ok ? "ok" : "FAILED");
      if (o.profile)
        std::printf("#   phases (s): products %.4f  panel %.4f  comm %.4f  update %.4f  total %.4f "
                    "(profiled call, devices synchronised per phase)\n",
                    prof.products, prof.panel, prof.comm, prof.update, prof.total);
      if (!o.csv.empty()) {
        if (FILE* f = std::fopen(o.csv.c_str(), "a")) {
          std::fprintf(f, "%c,%lld,%lld,%lld,%d,%d,%.6f,%.6f,%.6f,%.3e,%.3e,%.3e,%.4f,%.4f,%.4f,%.4f\n",
                       precision_letter<T>(), static_cast<long long>(m), static_cast<long long>(n),
                       static_cast<long long>(A.layout().nb()), ctx->global_num_devices(),
                       ctx->nranks(), secs, ref, floor_s, resid, orth, sv, prof.products,
                       prof.panel, prof.comm, prof.update);
          std::fclose(f);
        }
      }
      std::fflush(stdout);
    }
    failures += ok ? 0 : 1;
  }
  return failures;
}

int run(int argc, char** argv, int world_rank) {
  Options o;
  CLI::App app{"mgblas-tester gebrd: distributed bidiagonal reduction against cuSOLVER"};
  app.add_option("-m", o.mlist, "rows (default: square)")->delimiter(',');
  app.add_option("-n", o.nlist, "columns")->delimiter(',');
  add_type_option(app, o.types);
  add_common_options(app, o, "the definition (||A - Q B P^H||, orthogonality, singular values; rank 0)");
  app.add_option("--nb", o.nb, "block-column width of the layout")->capture_default_str();
  app.add_option("--panel", o.panel, "GebrdOptions::panel (0: automatic)")->capture_default_str();
  app.add_option("--check-max-n", o.check_max_n, "largest max(m, n) checked")->capture_default_str();
  app.add_option("--peak-bw", o.peak_bw, "read bandwidth for the floor, GB/s")->capture_default_str();
  app.add_flag("--ref,!--no-ref", o.ref, "time cuSOLVER on rank 0's first GPU")->capture_default_str();
  app.add_flag("--profile", o.profile, "one more call with the per-phase profile");
  app.add_option("--pass", o.pass,
                 "auto: GebrdOptions' default; one: A^H v and A u from one read of A (the fused "
                 "row step) on every column; two: two GEMVs on every column")
      ->check(CLI::IsMember({"auto", "one", "two"}))
      ->capture_default_str();
  app.add_option("--one-pass-min-mib", o.one_pass_min_mib,
                 "GebrdOptions::one_pass_min_bytes in MiB, after --pass (-1: as --pass sets it)")
      ->check(CLI::Range(int64_t{-1}, int64_t{1} << 30))
      ->capture_default_str();
  if (const int status = parse_on_every_rank(app, argc, argv, world_rank); status >= 0)
    return status;
  if (o.niter < 1) o.niter = 1;
  std::vector<int64_t> ns = o.nlist.empty() ? std::vector<int64_t>{4096} : o.nlist;
  std::vector<int64_t> ms = o.mlist.empty() ? ns : o.mlist;
  if (ms.size() != ns.size()) {
    if (world_rank == 0)
      std::fprintf(stderr, "mgblas-tester gebrd: -m and -n need the same length\n");
    return 2;
  }
  std::vector<std::pair<int64_t, int64_t>> shapes;
  for (std::size_t i = 0; i < ns.size(); ++i) shapes.emplace_back(ms[i], ns[i]);
  return run_on_gpus(
      "mgblas-tester gebrd", argc, argv, world_rank, o,
      "type       m       n    nb panel  gpus ranks    time(s)   GFLOP/s  floor(s) %floor "
      "cusolver(s)  speedup  residual    orthog  sing.val  status",
      [&](auto tag, const auto& ctx) { return run_type<decltype(tag)>(ctx, o, shapes); });
}

}  // namespace
}  // namespace mgblas::testers

namespace mgblas::testers {
// `mgblas-tester gebrd` (testers/mgblas_tester.cpp).
int gebrd_main(int argc, char** argv) {
  return mpi_tester_main("mgblas-tester gebrd", argc, argv, run);
}
}  // namespace mgblas::testers
