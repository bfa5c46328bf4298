// SPDX-License-Identifier: BSD-3-Clause
// mgblas-tester unmtr: the distributed application of a tridiagonal reduction's Q
// (unmtr_mgpu / ormtr_mgpu) over the GPUs of every rank against cusolverDn<t>ormtr /
// <t>unmtr on rank 0's first GPU, with the same reflectors and the same C in the same run.
//
//   mpirun -np R mgblas-tester unmtr -n 4096,8192 [-k 0] --type d [--uplo L,U] [--trans N]
//          [--nb 256] [--cnb 256] [--panel 0] [--niter 3] [--check-max-n 8192] [--no-ref]
//
// A (entries a function of (seed, index), tester_dist_fill) is reduced once by hetrd_mgpu;
// then C (n x K, K = -k or n when -k is 0, its own BlockCyclic1D of --cnb columns) is
// refilled (untimed) before each call. The reference gathers the reduced A and tau to rank
// 0 and runs cuSOLVER on a copy of A and on the same C. Columns: time(s) is the median over
// --niter calls, max over ranks (the call returns when C is complete); GFLOP/s counts
// 2 n^2 K real flops (x4 for complex), the product with Q; speedup = cuSOLVER time /
// mgblas time; diff = ||C_mgblas - C_cusolver||_F / (||C||_F n eps), with --check and
// n <= --check-max-n.
#include <cusolverDn.h>
#include <mpi.h>

#include <chrono>
#include <cmath>
#include <cstdio>

#include "core/context.hpp"
#include "dist/lapack/hetrd_mgpu.hpp"
#include "dist/lapack/unmtr_mgpu.hpp"
#include "testers/subcommands.hpp"
#include "testers/tester_mpi_lapack.hpp"

namespace mgblas::testers {
namespace {

struct Options : LapackOptions {
  int64_t k = 0, nb = 256, cnb = 256, panel = 0, check_max_n = 8192;
  std::vector<std::string> uplos = {"L", "U"};
  std::string trans = "N";
  bool ref = true;
};

// cusolverDn<t>ormtr / <t>unmtr and their workspace query, one overload per precision.
using Side = cublasSideMode_t;
using Fill = cublasFillMode_t;
using COp = cublasOperation_t;
int work_size(cusolverDnHandle_t h, Side s, Fill u, COp t, int m, int n, const float* A, int lda,
              const float* tau, const float* C, int ldc) {
  int lw = 0;
  CHECK_CUSOLVER(cusolverDnSormtr_bufferSize(h, s, u, t, m, n, A, lda, tau, C, ldc, &lw));
  return lw;
}
int work_size(cusolverDnHandle_t h, Side s, Fill u, COp t, int m, int n, const double* A, int lda,
              const double* tau, const double* C, int ldc) {
  int lw = 0;
  CHECK_CUSOLVER(cusolverDnDormtr_bufferSize(h, s, u, t, m, n, A, lda, tau, C, ldc, &lw));
  return lw;
}
int work_size(cusolverDnHandle_t h, Side s, Fill u, COp t, int m, int n, const scomplex* A,
              int lda, const scomplex* tau, const scomplex* C, int ldc) {
  int lw = 0;
  CHECK_CUSOLVER(cusolverDnCunmtr_bufferSize(
      h, s, u, t, m, n, reinterpret_cast<const cuComplex*>(A), lda,
      reinterpret_cast<const cuComplex*>(tau), reinterpret_cast<const cuComplex*>(C), ldc, &lw));
  return lw;
}
int work_size(cusolverDnHandle_t h, Side s, Fill u, COp t, int m, int n, const zcomplex* A,
              int lda, const zcomplex* tau, const zcomplex* C, int ldc) {
  int lw = 0;
  CHECK_CUSOLVER(cusolverDnZunmtr_bufferSize(
      h, s, u, t, m, n, reinterpret_cast<const cuDoubleComplex*>(A), lda,
      reinterpret_cast<const cuDoubleComplex*>(tau), reinterpret_cast<const cuDoubleComplex*>(C),
      ldc, &lw));
  return lw;
}
void mtr(cusolverDnHandle_t h, Side s, Fill u, COp t, int m, int n, float* A, int lda, float* tau,
         float* C, int ldc, float* w, int lw, int* info) {
  CHECK_CUSOLVER(cusolverDnSormtr(h, s, u, t, m, n, A, lda, tau, C, ldc, w, lw, info));
}
void mtr(cusolverDnHandle_t h, Side s, Fill u, COp t, int m, int n, double* A, int lda,
         double* tau, double* C, int ldc, double* w, int lw, int* info) {
  CHECK_CUSOLVER(cusolverDnDormtr(h, s, u, t, m, n, A, lda, tau, C, ldc, w, lw, info));
}
void mtr(cusolverDnHandle_t h, Side s, Fill u, COp t, int m, int n, scomplex* A, int lda,
         scomplex* tau, scomplex* C, int ldc, scomplex* w, int lw, int* info) {
  CHECK_CUSOLVER(cusolverDnCunmtr(h, s, u, t, m, n, reinterpret_cast<cuComplex*>(A), lda,
                                  reinterpret_cast<cuComplex*>(tau),
                                  reinterpret_cast<cuComplex*>(C), ldc,
                                  reinterpret_cast<cuComplex*>(w), lw, info));
}
void mtr(cusolverDnHandle_t h, Side s, Fill u, COp t, int m, int n, zcomplex* A, int lda,
         zcomplex* tau, zcomplex* C, int ldc, zcomplex* w, int lw, int* info) {
  CHECK_CUSOLVER(cusolverDnZunmtr(h, s, u, t, m, n, reinterpret_cast<cuDoubleComplex*>(A), lda,
                                  reinterpret_cast<cuDoubleComplex*>(tau),
                                  reinterpret_cast<cuDoubleComplex*>(C), ldc,
                                  reinterpret_cast<cuDoubleComplex*>(w), lw, info));
}

// cuSOLVER on rank 0's first GPU with the reduced A (host, n x n) and tau: median seconds
// (CUDA events), C refilled before each call; the last result into C_out.
template <Scalar T>
double cusolver_seconds(const Device& dev, Uplo uplo, Op op, int64_t n, int64_t K,
                        const std::vector<T>& A_host, const std::vector<T>& tau_host,
                        uint64_t seed_c, int niter, std::vector<T>& C_out) {
  using R = real_type_t<T>;
  dev.make_current();
  const int nn = static_cast<int>(n), kk = static_cast<int>(K), ld = std::max(nn, 1);
  DeviceBuffer<T> A(dev, A_host.size()), tau(dev, std::max<std::size_t>(tau_host.size(), 1));
  DeviceBuffer<T> C(dev, static_cast<std::size_t>(n * K));
  DeviceBuffer<int> info(dev, 1);
  MGBLAS_CHECK_CUDA(cudaMemcpy(A.data(), A_host.data(), A_host.size() * sizeof(T),
                               cudaMemcpyHostToDevice));
  if (!tau_host.empty())
    MGBLAS_CHECK_CUDA(cudaMemcpy(tau.data(), tau_host.data(), tau_host.size() * sizeof(T),
                                 cudaMemcpyHostToDevice));
  cusolverDnHandle_t h = nullptr;
  CHECK_CUSOLVER(cusolverDnCreate(&h));
  CHECK_CUSOLVER(cusolverDnSetStream(h, dev.stream()));
  const Fill u = uplo == Uplo::Lower ? CUBLAS_FILL_MODE_LOWER : CUBLAS_FILL_MODE_UPPER;
  const COp t = op == Op::N ? CUBLAS_OP_N : (is_complex_v<T> ? CUBLAS_OP_C : CUBLAS_OP_T);
  const int lw = work_size(h, CUBLAS_SIDE_LEFT, u, t, nn, kk, A.data(), ld, tau.data(), C.data(), ld);
  DeviceBuffer<T> work(dev, static_cast<std::size_t>(std::max(lw, 1)));
  const double secs = event_median(
      dev, niter,
      [&] { fill_matrix(dev, C.data(), ld, n, K, is_complex_v<T> ? 2 : 1, sizeof(R) == 8, seed_c); },
      [&] {
        mtr(h, CUBLAS_SIDE_LEFT, u, t, nn, kk, A.data(), ld, tau.data(), C.data(), ld, work.data(),
            lw, info.data());
      });
  C_out.resize(static_cast<std::size_t>(n * K));
  MGBLAS_CHECK_CUDA(cudaMemcpy(C_out.data(), C.data(), C_out.size() * sizeof(T),
                               cudaMemcpyDeviceToHost));
  cusolverDnDestroy(h);
  return secs;
}

template <Scalar T>
int run_type(const std::shared_ptr<Context>& ctx, const Options& o, const std::vector<int64_t>& sizes) {
  using R = real_type_t<T>;
  const bool root = ctx->rank() == 0;
  const Op op = op_of(o.trans[0]);
  const int P = ctx->global_num_devices();
  int failures = 0;
  for (int64_t n : sizes)
    for (const std::string& us : o.uplos) {
      const Uplo uplo = us == "U" ? Uplo::Upper : Uplo::Lower;
      const int64_t K = o.k > 0 ? o.k : n, n1 = std::max<int64_t>(n - 1, 0);
      const uint64_t seed = o.seed * 1000003 + static_cast<uint64_t>(n), seed_c = seed + 17;
      DistMatrix<T> A(ctx, BlockCyclic1D(n, n, std::min(o.nb, std::max<int64_t>(n, 1)), P));
      DistMatrix<T> C(ctx, BlockCyclic1D(n, K, std::min(o.cnb, std::max<int64_t>(K, 1)), P));
      std::vector<R> d(n), e(n1);
      std::vector<T> tau(n1);
      fill_dist(A, seed);
      hetrd_mgpu<T>(uplo, A, d.data(), e.data(), tau.data());
      UnmtrOptions opts;
      opts.panel = o.panel;
      std::vector<double> t;
      for (int r = 0; r < o.warmup + o.niter; ++r) {
        fill_dist(C, seed_c);
        ctx->comm().barrier();
        const auto t0 = std::chrono::steady_clock::now();
        unmtr_mgpu<T>(uplo, op, A, tau.data(), C, opts);
        const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
        if (r >= o.warmup) t.push_back(s);
      }
      const double mine = median_of(t);
      double secs = mine;
      MPI_Allreduce(&mine, &secs, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);

      // The reference needs the reduced A on rank 0 (collective: every rank joins).
      const bool want_ref = o.ref && ctx->device(0).is_gpu();
      int ref_here = root && want_ref ? 1 : 0;
      MPI_Bcast(&ref_here, 1, MPI_INT, 0, MPI_COMM_WORLD);
      double ref = 0, diff = -1;
      bool ok = true;
      if (ref_here) {
        std::vector<T> A_host(root ? static_cast<std::size_t>(n * n) : 0);
        A.collect(root ? A_host.data() : nullptr, std::max<int64_t>(1, n), 0);
        const bool check = o.check && n <= o.check_max_n;
        std::vector<T> mg(root && check ? static_cast<std::size_t>(n * K) : 0);
        if (check) C.collect(root ? mg.data() : nullptr, std::max<int64_t>(1, n), 0);
        if (root) {
          std::vector<T> cs;
          ref = cusolver_seconds<T>(ctx->device(0), uplo, op, n, K, A_host, tau, seed_c, o.niter, cs);
          if (check) {
            double num = 0, den = 0;
            for (std::size_t i = 0; i < mg.size(); ++i) {
              num += std::norm(std::complex<double>(mg[i] - cs[i]));
              den += std::norm(std::complex<double>(cs[i]));
            }
            const double eps = std::numeric_limits<R>::epsilon();
            diff = std::sqrt(num) / (std::max(std::sqrt(den), 1e-300) * std::max<double>(n, 1) * eps);
            ok = diff <= o.tol;
          }
        }
      }
      int good = ok ? 1 : 0;
      MPI_Bcast(&good, 1, MPI_INT, 0, MPI_COMM_WORLD);
      if (root) {
        const double nd = static_cast<double>(n);
        const double flops = (is_complex_v<T> ? 4.0 : 1.0) * 2.0 * nd * nd * static_cast<double>(K);
        std::printf("%5s %7lld %7lld %5lld %5lld %4s %5s %5d %5d %10.4f %9.1f %11.4f %8.2f %9.2e  %s\n",
                    std::string(1, precision_letter<T>()).c_str(), static_cast<long long>(n),
                    static_cast<long long>(K), static_cast<long long>(A.layout().nb()),
                    static_cast<long long>(C.layout().nb()), us.c_str(), o.trans.c_str(), P,
                    ctx->nranks(), secs, flops / secs * 1e-9, ref, ref > 0 ? ref / secs : 0.0,
                    diff, good ? "ok" : "FAILED");
        if (!o.csv.empty()) {
          if (FILE* f = std::fopen(o.csv.c_str(), "a")) {
            std::fprintf(f, "%c,%lld,%lld,%lld,%lld,%s,%s,%d,%d,%.6f,%.6f,%.3e\n",
                         precision_letter<T>(), static_cast<long long>(n),
                         static_cast<long long>(K), static_cast<long long>(A.layout().nb()),
                         static_cast<long long>(C.layout().nb()), us.c_str(), o.trans.c_str(), P,
                         ctx->nranks(), secs, ref, diff);
            std::fclose(f);
          }
        }
        std::fflush(stdout);
      }
      failures += good ? 0 : 1;
    }
  return failures;
}

int run(int argc, char** argv, int world_rank) {
  Options o;
  CLI::App app{"mgblas-tester unmtr: distributed application of hetrd's Q against cuSOLVER"};
  app.add_option("-n", o.nlist, "sizes")->delimiter(',');
  app.add_option("-k", o.k, "columns of C (0: n)")->capture_default_str();
  add_type_option(app, o.types);
  add_common_options(app, o, "cuSOLVER's result on the same A, tau and C (rank 0)");
  app.add_option("--uplo", o.uplos, "L, U or both")->delimiter(',')->capture_default_str()
      ->check(CLI::IsMember({"L", "U"}));
  app.add_option("--trans", o.trans, "N (Q C) or C (Q^H C)")->capture_default_str()
      ->check(CLI::IsMember({"N", "C"}));
  app.add_option("--nb", o.nb, "block-column width of A's layout")->capture_default_str();
  app.add_option("--cnb", o.cnb, "block-column width of C's layout")->capture_default_str();
  app.add_option("--panel", o.panel, "UnmtrOptions::panel (0: automatic)")->capture_default_str();
  app.add_option("--check-max-n", o.check_max_n, "largest n checked")->capture_default_str();
  app.add_flag("--ref,!--no-ref", o.ref, "time cuSOLVER on rank 0's first GPU")->capture_default_str();
  if (const int status = parse_on_every_rank(app, argc, argv, world_rank); status >= 0)
    return status;
  if (o.niter < 1) o.niter = 1;
  const std::vector<int64_t> sizes = o.nlist.empty() ? std::vector<int64_t>{4096} : o.nlist;
  return run_on_gpus(
      "mgblas-tester unmtr", argc, argv, world_rank, o,
      "type       n       K    nb   Cnb uplo trans  gpus ranks    time(s)   GFLOP/s "
      "cusolver(s)  speedup      diff  status",
      [&](auto tag, const auto& ctx) { return run_type<decltype(tag)>(ctx, o, sizes); });
}

}  // namespace
}  // namespace mgblas::testers

namespace mgblas::testers {
// `mgblas-tester unmtr` (testers/mgblas_tester.cpp).
int unmtr_main(int argc, char** argv) {
  return mpi_tester_main("mgblas-tester unmtr", argc, argv, run);
}
}  // namespace mgblas::testers
