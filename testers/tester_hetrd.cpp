// SPDX-License-Identifier: BSD-3-Clause
// mgblas-tester hetrd: the distributed tridiagonal reduction (hetrd_mgpu) over the GPUs of every
// rank against cusolverDn<t>sytrd / <t>hetrd on rank 0's first GPU, on the same matrix
// in the same run.
//
//   mpirun -np R mgblas-tester hetrd -n 4096,8192 --type d,s [--nb 256] [--panel 0] [--uplo L]
//          [--niter 3] [--profile] [--eig] [--check-max-n 2048] [--no-ref] [--csv FILE]
//
// The matrix: entry (i, j) of A is a function of (seed, i + j n) only (tester_dist_fill),
// so each device fills its own block columns and the cuSOLVER copy is filled whole, with
// no host copy of A. Only the `uplo` triangle is read (the rest is ignored by both).
// Columns: time(s) is the median over --niter calls (devices synchronised, max over
// ranks), the matrix refilled before each; GFLOP/s counts (4/3) n^3 real flops (x4 for
// complex); floor(s) is the SYMV/HEMV read floor, (n^3/6) sizeof(T) bytes at --peak-bw;
// speedup = cuSOLVER time / mgblas time. With --profile one more call runs with
// HetrdProfile and a '#' line gives its phases. --eig: the eigenvalues-only pipeline
// (hetrd_mgpu, then tridiag_eigenvalues_mgpu on the host outputs) against
// cusolverDnXsyevd (jobz N) on the same matrix, on a '#' line. --check (n <= --check-max-n) gathers A and
// checks ||A - Q T Q^H|| and ||I - Q^H Q|| on rank 0 (tests/lapack/tridiag_check.hpp).
// --band B: also the two-stage reduction (hetrd_2stage_mgpu, band half-width B) on the
// same matrix, median time and a profiled call's phases (stage one with its TFLOP/s at
// (4/3) n^3, the chase), and with --eig its eigenvalues, on '#' lines. --csv FILE: one row
// per case with all of these (a header line first into a new or empty file).
#include <cusolverDn.h>
#include <mpi.h>

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <sstream>

#include "core/context.hpp"
#include "dist/lapack/hetrd_2stage_mgpu.hpp"
#include "dist/lapack/hetrd_mgpu.hpp"
#include "dist/lapack/stebz_mgpu.hpp"
#include "tests/lapack/tridiag_check.hpp"
#include "testers/subcommands.hpp"
#include "testers/tester_mpi_lapack.hpp"

namespace mgblas::testers {
namespace {


struct Options : LapackOptions {
  int64_t nb = 256, panel = 0, check_max_n = 2048, band = 0;
  std::string uplo = "L";
  bool ref = true, profile = false, eig = false, one_stage = true;
  double peak_bw = 4530;  // GB/s: the H200's measured read ceiling (shared/DEVICE.md)
};

// cusolverDn<t>sytrd / <t>hetrd, one overload per precision.
int buffer_size(cusolverDnHandle_t h, cublasFillMode_t u, int n, float* A, int lda, float* d,
                float* e, float* tau) {
  int lw = 0;
  CHECK_CUSOLVER(cusolverDnSsytrd_bufferSize(h, u, n, A, lda, d, e, tau, &lw));
  return lw;
}
int buffer_size(cusolverDnHandle_t h, cublasFillMode_t u, int n, double* A, int lda, double* d,
                double* e, double* tau) {
  int lw = 0;
  CHECK_CUSOLVER(cusolverDnDsytrd_bufferSize(h, u, n, A, lda, d, e, tau, &lw));
  return lw;
}
int buffer_size(cusolverDnHandle_t h, cublasFillMode_t u, int n, scomplex* A, int lda, float* d,
                float* e, scomplex* tau) {
  int lw = 0;
  CHECK_CUSOLVER(cusolverDnChetrd_bufferSize(h, u, n, reinterpret_cast<cuComplex*>(A), lda, d, e,
                                             reinterpret_cast<cuComplex*>(tau), &lw));
  return lw;
}
int buffer_size(cusolverDnHandle_t h, cublasFillMode_t u, int n, zcomplex* A, int lda, double* d,
                double* e, zcomplex* tau) {
  int lw = 0;
  CHECK_CUSOLVER(cusolverDnZhetrd_bufferSize(h, u, n, reinterpret_cast<cuDoubleComplex*>(A), lda,
                                             d, e, reinterpret_cast<cuDoubleComplex*>(tau), &lw));
  return lw;
}
void trd(cusolverDnHandle_t h, cublasFillMode_t u, int n, float* A, int lda, float* d, float* e,
         float* tau, float* w, int lw, int* info) {
  CHECK_CUSOLVER(cusolverDnSsytrd(h, u, n, A, lda, d, e, tau, w, lw, info));
}
void trd(cusolverDnHandle_t h, cublasFillMode_t u, int n, double* A, int lda, double* d,
         double* e, double* tau, double* w, int lw, int* info) {
  CHECK_CUSOLVER(cusolverDnDsytrd(h, u, n, A, lda, d, e, tau, w, lw, info));
}
void trd(cusolverDnHandle_t h, cublasFillMode_t u, int n, scomplex* A, int lda, float* d, float* e,
         scomplex* tau, scomplex* w, int lw, int* info) {
  CHECK_CUSOLVER(cusolverDnChetrd(h, u, n, reinterpret_cast<cuComplex*>(A), lda, d, e,
                                  reinterpret_cast<cuComplex*>(tau),
                                  reinterpret_cast<cuComplex*>(w), lw, info));
}
void trd(cusolverDnHandle_t h, cublasFillMode_t u, int n, zcomplex* A, int lda, double* d,
         double* e, zcomplex* tau, zcomplex* w, int lw, int* info) {
  CHECK_CUSOLVER(cusolverDnZhetrd(h, u, n, reinterpret_cast<cuDoubleComplex*>(A), lda, d, e,
                                  reinterpret_cast<cuDoubleComplex*>(tau),
                                  reinterpret_cast<cuDoubleComplex*>(w), lw, info));
}

// Median seconds of cusolverDn<t>sytrd on rank 0's first GPU (CUDA events), the matrix
// refilled (untimed) before each call.
template <Scalar T>
double cusolver_seconds(const Device& dev, Uplo uplo, int64_t n, uint64_t seed, int niter) {
  using R = real_type_t<T>;
  dev.make_current();
  const int nn = static_cast<int>(n), lda = nn;
  DeviceBuffer<T> A(dev, static_cast<std::size_t>(n * n)), tau(dev, static_cast<std::size_t>(n));
  DeviceBuffer<R> d(dev, static_cast<std::size_t>(n)), e(dev, static_cast<std::size_t>(n));
  DeviceBuffer<int> info(dev, 1);
  cusolverDnHandle_t h = nullptr;
  CHECK_CUSOLVER(cusolverDnCreate(&h));
  CHECK_CUSOLVER(cusolverDnSetStream(h, dev.stream()));
  const cublasFillMode_t u = uplo == Uplo::Lower ? CUBLAS_FILL_MODE_LOWER : CUBLAS_FILL_MODE_UPPER;
  const int lw = buffer_size(h, u, nn, A.data(), lda, d.data(), e.data(), tau.data());
  DeviceBuffer<T> work(dev, static_cast<std::size_t>(std::max(lw, 1)));
  const double secs = event_median(
      dev, niter,
      [&] { fill_matrix(dev, A.data(), lda, n, n, is_complex_v<T> ? 2 : 1, sizeof(R) == 8, seed); },
      [&] {
        trd(h, u, nn, A.data(), lda, d.data(), e.data(), tau.data(), work.data(), lw, info.data());
      });
  cusolverDnDestroy(h);
  return secs;
}

template <Scalar T>
int run_type(const std::shared_ptr<Context>& ctx, const Options& o,
             const std::vector<int64_t>& sizes) {
  using R = real_type_t<T>;
  const bool root = ctx->rank() == 0;
  const Uplo uplo = o.uplo == "U" ? Uplo::Upper : Uplo::Lower;
  int failures = 0;
  for (int64_t n : sizes) {
    const uint64_t seed = o.seed * 1000003 + static_cast<uint64_t>(n);
    DistMatrix<T> A(ctx, BlockCyclic1D(n, n, std::min(o.nb, std::max<int64_t>(n, 1)),
                                       ctx->global_num_devices()));
    std::vector<R> d(n), e(std::max<int64_t>(n - 1, 0));
    std::vector<T> tau(std::max<int64_t>(n - 1, 0));
    HetrdOptions opts;
    opts.panel = o.panel;
    std::vector<double> t;
    for (int r = 0; r < (o.one_stage ? o.warmup + o.niter : 0); ++r) {
      fill_dist(A, seed);
      ctx->comm().barrier();
      const auto t0 = std::chrono::steady_clock::now();
      hetrd_mgpu<T>(uplo, A, d.data(), e.data(), tau.data(), opts);
      const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
      if (r >= o.warmup) t.push_back(s);
    }
    // The slowest rank's median.
    const double mine = median_of(t);
    double secs = mine;
    MPI_Allreduce(&mine, &secs, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);

    double resid = -1, orth = -1;
    bool ok = true;
    if (o.one_stage && o.check && n <= o.check_max_n) {
      std::vector<T> out(static_cast<std::size_t>(n * n)), A0(out.size());
      A.collect(out.data(), std::max<int64_t>(1, n), 0);
      fill_dist(A, seed);
      A.collect(A0.data(), std::max<int64_t>(1, n), 0);
      if (root) {
        // The reduction takes the diagonal's imaginary parts as zero (Hermitian).
        for (int64_t i = 0; i < n; ++i) A0[i + i * n] = std::real(A0[i + i * n]);
        const auto err = ::mgblas::testing::lapack::check_tridiagonal<T>(uplo, n, A0, out, d, e, tau);
        resid = err.residual;
        orth = err.orthogonal;
        ok = err.lapack_ok && resid <= 20 * o.tol && orth <= 20 * o.tol;
      }
    }
    HetrdProfile prof;
    if (o.one_stage && o.profile) {
      fill_dist(A, seed);
      opts.profile = &prof;
      hetrd_mgpu<T>(uplo, A, d.data(), e.data(), tau.data(), opts);
    }
    // Eigenvalues only: hetrd_mgpu + tridiag_eigenvalues_mgpu against cusolverDnXsyevd.
    double eig_s = 0, eig_ref = 0, eig_diff = -1;
    std::vector<R> w(n), wref;
    if (o.eig) {
      std::vector<double> te;
      for (int r = 0; r < (o.one_stage ? o.warmup + o.niter : 0); ++r) {
        fill_dist(A, seed);
        ctx->comm().barrier();
        const auto t0 = std::chrono::steady_clock::now();
        hetrd_mgpu<T>(uplo, A, d.data(), e.data(), tau.data(), opts);
        tridiag_eigenvalues_mgpu<T>(*ctx, n, d.data(), e.data(), w.data());
        const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
        if (r >= o.warmup) te.push_back(s);
      }
      const double mine_e = median_of(te);
      MPI_Allreduce(&mine_e, &eig_s, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
      if (o.ref && root && ctx->device(0).is_gpu()) {
        eig_ref = syevd_seconds<T>(ctx->device(0), CUSOLVER_EIG_MODE_NOVECTOR, uplo, n, seed, 0,
                                   o.niter, wref);
        double big = 0;
        eig_diff = 0;
        for (int64_t i = 0; i < n; ++i) {
          big = std::max(big, std::abs(double(wref[i])));
          eig_diff = std::max(eig_diff, std::abs(double(w[i]) - double(wref[i])));
        }
        eig_diff /= std::max(big, 1e-300);
      }
    }
    // The two-stage reduction on the same matrix (and with --eig its eigenvalues).
    double two_s = 0, two_eig_s = 0, two_eig_diff = -1;
    HetrdProfile two_prof;
    if (o.band > 0 && n > 0) {
      HetrdOptions to;
      to.band = o.band;
      std::vector<double> tb, te;
      for (int r = 0; r < o.warmup + o.niter; ++r) {
        fill_dist(A, seed);
        ctx->comm().barrier();
        const auto t0 = std::chrono::steady_clock::now();
        hetrd_2stage_mgpu<T>(uplo, A, d.data(), e.data(), to);
        const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
        if (o.eig) tridiag_eigenvalues_mgpu<T>(*ctx, n, d.data(), e.data(), w.data());
        const double se = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
        if (r >= o.warmup) {
          tb.push_back(s);
          te.push_back(se);
        }
      }
      const double mine_b = median_of(tb), mine_e = median_of(te);
      MPI_Allreduce(&mine_b, &two_s, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
      MPI_Allreduce(&mine_e, &two_eig_s, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
      if (o.eig && !wref.empty()) {
        double big = 0;
        two_eig_diff = 0;
        for (int64_t i = 0; i < n; ++i) {
          big = std::max(big, std::abs(double(wref[i])));
          two_eig_diff = std::max(two_eig_diff, std::abs(double(w[i]) - double(wref[i])));
        }
        two_eig_diff /= std::max(big, 1e-300);
      }
      fill_dist(A, seed);
      to.profile = &two_prof;
      hetrd_2stage_mgpu<T>(uplo, A, d.data(), e.data(), to);
    }
    double ref = 0;
    if (o.ref && root && ctx->device(0).is_gpu())
      ref = cusolver_seconds<T>(ctx->device(0), uplo, n, seed, o.niter);
    if (root) {
      const double nd = static_cast<double>(n);
      const double flops = (is_complex_v<T> ? 4.0 : 1.0) * 4.0 / 3.0 * nd * nd * nd;
      const double floor_s = nd * nd * nd / 6.0 * sizeof(T) / (o.peak_bw * 1e9);
      std::printf("%5s %7lld %5lld %5lld %4s %5d %5d %10.4f %9.1f %9.4f %6.1f%% %11.4f %8.2f %9.2e %9.2e  %s\n",
                  std::string(1, precision_letter<T>()).c_str(), static_cast<long long>(n),
                  static_cast<long long>(A.layout().nb()), static_cast<long long>(o.panel),
                  o.uplo.c_str(), ctx->global_num_devices(), ctx->nranks(), secs,
                  secs > 0 ? flops / secs * 1e-9 : 0.0, floor_s,
                  secs > 0 ? 100.0 * floor_s / secs : 0.0, ref,
                  ref > 0 && secs > 0 ? ref / secs : 0.0, resid, orth, ok ? "ok" : "FAILED");
      if (o.eig)
        std::printf("#   eigenvalues only: mgblas hetrd+stebz %.4f s, cusolverDnXsyevd(N) %.4f s, "
                    "speedup %.2f, max|w - w_cusolver| / max|w| %.2e\n",
                    eig_s, eig_ref, eig_ref > 0 && eig_s > 0 ? eig_ref / eig_s : 0.0, eig_diff);
      if (o.band > 0 && two_s > 0) {
        const double nd = static_cast<double>(n);
        const double flops = (is_complex_v<T> ? 4.0 : 1.0) * 4.0 / 3.0 * nd * nd * nd;
        const double one = two_prof.panel + two_prof.symv + two_prof.comm + two_prof.update;
        std::printf("#   two-stage (band %lld): %.4f s, %.2fx cuSOLVER's sytrd, %.2fx one-stage; "
                    "profiled: stage one %.4f s (%.1f TFLOP/s: qr %.4f hemm %.4f comm %.4f "
                    "update %.4f), chase %.4f s\n",
                    static_cast<long long>(o.band), two_s, ref > 0 ? ref / two_s : 0.0,
                    secs / two_s, one, flops / one * 1e-12, two_prof.panel, two_prof.symv,
                    two_prof.comm, two_prof.update, two_prof.chase);
        if (o.eig)
          std::printf("#   two-stage eigenvalues: %.4f s, %.2fx cusolverDnXsyevd(N), "
                      "max|w - w_cusolver| / max|w| %.2e\n",
                      two_eig_s, eig_ref > 0 ? eig_ref / two_eig_s : 0.0, two_eig_diff);
      }
      if (o.profile)
        std::printf("#   phases (s): symv %.4f  panel %.4f  comm %.4f  update %.4f  total %.4f "
                    "(profiled call, devices synchronised per phase)\n",
                    prof.symv, prof.panel, prof.comm, prof.update, prof.total);
      if (!o.csv.empty()) {
        // The header into a new or empty file; the two-stage columns are 0 without --band,
        // the eigenvalue ones without --eig.
        std::error_code ec;
        const bool fresh = std::filesystem::file_size(o.csv, ec) == 0 || ec;
        if (FILE* f = std::fopen(o.csv.c_str(), "a")) {
          if (fresh)
            std::fprintf(f,
                         "type,n,nb,uplo,gpus,ranks,time_s,cusolver_s,symv_floor_s,residual,"
                         "orthogonality,phase_symv_s,phase_panel_s,phase_comm_s,"
                         "phase_update_s,band,two_stage_s,stage_one_s,chase_s,eig_s,"
                         "eig_cusolver_s,two_stage_eig_s\n");
          std::fprintf(f,
                       "%c,%lld,%lld,%s,%d,%d,%.6f,%.6f,%.6f,%.3e,%.3e,%.4f,%.4f,%.4f,%.4f,"
                       "%lld,%.6f,%.6f,%.6f,%.6f,%.6f,%.6f\n",
                       precision_letter<T>(), static_cast<long long>(n),
                       static_cast<long long>(A.layout().nb()), o.uplo.c_str(),
                       ctx->global_num_devices(), ctx->nranks(), secs, ref, floor_s, resid, orth,
                       prof.symv, prof.panel, prof.comm, prof.update,
                       static_cast<long long>(o.band), two_s,
                       two_prof.panel + two_prof.symv + two_prof.comm + two_prof.update,
                       two_prof.chase, eig_s, eig_ref, two_eig_s);
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
  CLI::App app{"mgblas-tester hetrd: distributed tridiagonal reduction against cuSOLVER"};
  app.add_option("-n", o.nlist, "sizes")->delimiter(',');
  add_type_option(app, o.types);
  add_common_options(app, o, "the definition (||A - Q T Q^H||, ||I - Q^H Q||, rank 0)");
  app.add_option("--nb", o.nb, "block-column width of the layout")->capture_default_str();
  app.add_option("--panel", o.panel, "HetrdOptions::panel (0: automatic)")->capture_default_str();
  app.add_option("--uplo", o.uplo, "L or U")->capture_default_str()->check(CLI::IsMember({"L", "U"}));
  app.add_option("--check-max-n", o.check_max_n, "largest n checked")->capture_default_str();
  app.add_option("--peak-bw", o.peak_bw, "read bandwidth for the SYMV floor, GB/s")->capture_default_str();
  app.add_flag("--ref,!--no-ref", o.ref, "time cuSOLVER on rank 0's first GPU")->capture_default_str();
  app.add_option("--band", o.band, "also time the two-stage reduction with this band "
                 "half-width (0: no)")->capture_default_str();
  app.add_flag("--profile", o.profile, "one more call with the per-phase profile");
  app.add_flag("--one-stage,!--no-one-stage", o.one_stage, "time the one-stage hetrd_mgpu "
               "(off: the two-stage path and cuSOLVER only)")->capture_default_str();
  app.add_flag("--eig", o.eig, "also time eigenvalues only (hetrd + tridiag_eigenvalues_mgpu) "
               "against cusolverDnXsyevd without vectors");
  if (const int status = parse_on_every_rank(app, argc, argv, world_rank); status >= 0)
    return status;
  if (o.niter < 1) o.niter = 1;
  const std::vector<int64_t> sizes = o.nlist.empty() ? std::vector<int64_t>{4096} : o.nlist;
  return run_on_gpus(
      "mgblas-tester hetrd", argc, argv, world_rank, o,
      "type       n    nb panel uplo  gpus ranks    time(s)   GFLOP/s  floor(s) %floor "
      "cusolver(s)  speedup  residual    orthog  status",
      [&](auto tag, const auto& ctx) { return run_type<decltype(tag)>(ctx, o, sizes); });
}

}  // namespace
}  // namespace mgblas::testers

namespace mgblas::testers {
// `mgblas-tester hetrd` (testers/mgblas_tester.cpp).
int hetrd_main(int argc, char** argv) {
  return mpi_tester_main("mgblas-tester hetrd", argc, argv, run);
}
}  // namespace mgblas::testers
