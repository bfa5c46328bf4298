// SPDX-License-Identifier: BSD-3-Clause
// mgblas-tester band2tri: the band-to-tridiagonal bulge chase (kernels/lapack.hpp
// band_to_tridiag, stage two of the two-stage reduction) on GPU 0 against LAPACK's
// ?sytrd_sb2st / ?hetrd_hb2st (STAGE1 = 'N', VECT = 'N', lower) on the host CPU of the same
// machine, on the same band.
//
//   mgblas-tester band2tri -n 8192,32768 -b 64 --type d,z [--niter 3] [--warmup 1]
//          [--vectors] [--lapack-max-n 8192] [--check-max-n 4096] [--csv FILE]
//          [--apply-q [--apply-q-shapes default,generic,64x4]]
//
// The band: entries uniform on [-1, 1] (real diagonal), drawn on the host from --seed.
// gpu(s): median of --niter calls after --warmup (CUDA events; the call allocates its work
// band and waits for its kernels, both inside the time; AB is left as it was, since
// ldab = b + 1 makes the engine chase in its own work band). --vectors keeps V2/tau2
// (n (n - 1) / 2 + (n - 1) ((n - 2) / b + 1) elements more). lapack(s): one call (after
// none untimed: it is seconds) where n <= --lapack-max-n, else "-". With n <= --check-max-n:
// eig = max_i |lambda_i(T_gpu) - lambda_i(T_ref)| / (n ||A||_1 eps), both by ?sterf, T_ref
// LAPACK's (or, without it, the host engine's) tridiagonal; ok when eig <= --tol.
//
// --apply-q (implies --vectors): after the chase, band_to_tridiag_apply_q (Op::N) on an
// n x n C (random columns, a block of 64 repeated), median of --niter calls after
// --warmup, and cuBLAS's gemm n x n x n (C C into another n x n) on the same GPU, same
// precision, same run; one '#' line per kernel shape of --apply-q-shapes (values of
// MGBLAS_SB2ST_APPLY_Q, "default" for unset): seconds, TFLOP/s on the nominal 2 n^3 (real)
// or 8 n^3 (complex) flops of both, their ratio. With n <= --check-max-n also
// qerr = ||C_gpu - C_host||_1 / (n ||C0||_1 eps) on 16 random columns against the host
// engine (ok when <= --tol). The CSV rows gain the default shape's columns apply_q_s,
// gemm_s, apply_q_tflops, gemm_tflops, ratio, qerr (their header only in a new file).
#include <cuda_runtime.h>
#include <lapacke.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <complex>
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <random>
#include <string>
#include <type_traits>
#include <vector>

#include "core/memory.hpp"
#include "kernels/blas.hpp"
#include "kernels/lapack.hpp"
#include "kernels/sb2st_kernels.hpp"
#include "testers/subcommands.hpp"
#include "testers/tester_common.hpp"

// LAPACK's stage two (LAPACKE does not wrap it); the hidden lengths of the three
// character arguments last, as gfortran passes them.
extern "C" {
void ssytrd_sb2st_(const char*, const char*, const char*, const int*, const int*, float*,
                   const int*, float*, float*, float*, const int*, float*, const int*, int*,
                   std::size_t, std::size_t, std::size_t);
void dsytrd_sb2st_(const char*, const char*, const char*, const int*, const int*, double*,
                   const int*, double*, double*, double*, const int*, double*, const int*, int*,
                   std::size_t, std::size_t, std::size_t);
void chetrd_hb2st_(const char*, const char*, const char*, const int*, const int*,
                   std::complex<float>*, const int*, float*, float*, std::complex<float>*,
                   const int*, std::complex<float>*, const int*, int*, std::size_t, std::size_t,
                   std::size_t);
void zhetrd_hb2st_(const char*, const char*, const char*, const int*, const int*,
                   std::complex<double>*, const int*, double*, double*, std::complex<double>*,
                   const int*, std::complex<double>*, const int*, int*, std::size_t, std::size_t,
                   std::size_t);
}

namespace mgblas::testers {
namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

struct Options : CommonOptions {
  std::vector<int64_t> n{4096};
  std::vector<int64_t> b{64};
  int64_t lapack_max_n = 8192, check_max_n = 4096;
  bool vectors = false, apply_q = false;
  std::vector<std::string> apply_q_shapes{"default"};
  Options() {
    niter = 3;
    warmup = 1;
    types = {"d"};
  }
};

template <Scalar T>
int lapack_sb2st(int n, int kd, T* ab, int ldab, real_type_t<T>* d, real_type_t<T>* e) {
  const char stage = 'N', vect = 'N', uplo = 'L';
  int info = 0, lhous = -1, lwork = -1;
  T q_hous, q_work;
  const auto call = [&](T* hous, int lh, T* work, int lw) {
    if constexpr (std::is_same_v<T, float>)
      ssytrd_sb2st_(&stage, &vect, &uplo, &n, &kd, ab, &ldab, d, e, hous, &lh, work, &lw, &info, 1,
                    1, 1);
    else if constexpr (std::is_same_v<T, double>)
      dsytrd_sb2st_(&stage, &vect, &uplo, &n, &kd, ab, &ldab, d, e, hous, &lh, work, &lw, &info, 1,
                    1, 1);
    else if constexpr (std::is_same_v<T, std::complex<float>>)
      chetrd_hb2st_(&stage, &vect, &uplo, &n, &kd, ab, &ldab, d, e, hous, &lh, work, &lw, &info, 1,
                    1, 1);
    else
      zhetrd_hb2st_(&stage, &vect, &uplo, &n, &kd, ab, &ldab, d, e, hous, &lh, work, &lw, &info, 1,
                    1, 1);
  };
  call(&q_hous, lhous, &q_work, lwork);
  if (info != 0) return info;
  std::vector<T> hous(static_cast<std::size_t>(std::max(1.0, double(std::real(q_hous))))),
      work(static_cast<std::size_t>(std::max(1.0, double(std::real(q_work)))));
  call(hous.data(), static_cast<int>(hous.size()), work.data(), static_cast<int>(work.size()));
  return info;
}

template <typename R>
std::vector<R> sterf(std::vector<R> d, std::vector<R> e) {
  if (d.empty()) return d;
  e.resize(d.size());
  if constexpr (std::is_same_v<R, float>)
    LAPACKE_ssterf(static_cast<lapack_int>(d.size()), d.data(), e.data());
  else
    LAPACKE_dsterf(static_cast<lapack_int>(d.size()), d.data(), e.data());
  return d;
}

/// What --apply-q measured for one kernel shape.
struct ApplyQTimes {
  double apply_s = kNaN, gemm_s = kNaN, err = kNaN;
};

/// MGBLAS_SB2ST_APPLY_Q set to `shape` ("default": unset) until the end of the scope.
class ShapeEnv {
 public:
  explicit ShapeEnv(const std::string& shape) {
    if (shape == "default")
      unsetenv("MGBLAS_SB2ST_APPLY_Q");
    else
      setenv("MGBLAS_SB2ST_APPLY_Q", shape.c_str(), 1);
  }
  ~ShapeEnv() { unsetenv("MGBLAS_SB2ST_APPLY_Q"); }
  ShapeEnv(const ShapeEnv&) = delete;
  ShapeEnv& operator=(const ShapeEnv&) = delete;
};

/// --apply-q for one case: the Q2 application (per shape) and the gemm, timed on gpu;
/// the check against the host engine where n <= --check-max-n. dv, dt: the chase's V2, tau2.
template <Scalar T>
std::vector<ApplyQTimes> time_apply_q(const Device& gpu, const Options& o, int64_t n, int64_t b,
                                      const T* dv, const T* dt, std::mt19937_64& rng) {
  using R = real_type_t<T>;
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  const auto random = [&] {
    if constexpr (is_complex_v<T>)
      return T(R(u(rng)), R(u(rng)));
    else
      return T(u(rng));
  };
  // C: 64 random columns, copied over the rest on the GPU (drawing n^2 values on the host
  // would take longer than the run; the flops do not depend on the values).
  const int64_t block = std::min<int64_t>(64, n);
  std::vector<T> h(static_cast<std::size_t>(n * block));
  for (auto& x : h) x = random();
  DeviceBuffer<T> dc(gpu, static_cast<std::size_t>(n * n)),
      dg(gpu, static_cast<std::size_t>(n * n));
  copy_vector(gpu, n * block, h.data(), dc.data());
  for (int64_t j = block; j < n; j += block)
    MGBLAS_CHECK_CUDA(cudaMemcpy(dc.data() + j * n, dc.data(),
                                 static_cast<std::size_t>(n * std::min(block, n - j)) * sizeof(T),
                                 cudaMemcpyDeviceToDevice));
  std::vector<ApplyQTimes> out;
  double gemm_s = kNaN;
  for (const std::string& shape : o.apply_q_shapes) {
    const ShapeEnv env(shape);
    ApplyQTimes t;
    try {
      t.apply_s = median_ms(gpu.stream(), o.warmup, o.niter, [&](int) {
                    band_to_tridiag_apply_q<T>(gpu, Op::N, n, b, dv, dt, n, dc.data(), n);
                  }) / 1e3;
    } catch (const BadArgument& e) {  // a shape this build lacks: its line says so
      std::printf("# apply_q shape=%s: %s\n", shape.c_str(), e.what());
      out.push_back(t);
      continue;
    }
    if (std::isnan(gemm_s))
      gemm_s = median_ms(gpu.stream(), o.warmup, o.niter, [&](int) {
                 gemm<T>(gpu, Op::N, Op::N, n, n, n, T(1), dc.data(), n, dc.data(), n, T(0),
                         dg.data(), n);
               }) / 1e3;
    t.gemm_s = gemm_s;
    if (n <= o.check_max_n) {
      //  ||C_gpu - C_host||_1 / (n ||C0||_1 eps) on 16 columns, the host engine on the
      //  same V2, tau2 (copied back).
      const int64_t m = std::min<int64_t>(16, n);
      std::vector<T> c0(static_cast<std::size_t>(n * m));
      for (auto& x : c0) x = random();
      std::vector<T> ch = c0, cg(c0.size()), v2(static_cast<std::size_t>(band2tri_v2_size(n))),
          t2(static_cast<std::size_t>(band2tri_tau2_size(n, b)));
      copy_vector(gpu, static_cast<int64_t>(v2.size()), dv, v2.data());
      copy_vector(gpu, static_cast<int64_t>(t2.size()), dt, t2.data());
      DeviceBuffer<T> dcc(gpu, c0.size());
      copy_vector(gpu, static_cast<int64_t>(c0.size()), c0.data(), dcc.data());
      band_to_tridiag_apply_q<T>(gpu, Op::N, n, b, dv, dt, m, dcc.data(), n);
      copy_vector(gpu, static_cast<int64_t>(c0.size()), dcc.data(), cg.data());
      const auto host = Device::make_host(0);
      band_to_tridiag_apply_q<T>(*host, Op::N, n, b, v2.data(), t2.data(), m, ch.data(), n);
      double diff = 0, norm = 0;
      for (int64_t j = 0; j < m; ++j) {
        double dj = 0, nj = 0;
        for (int64_t i = 0; i < n; ++i) {
          dj += std::abs(cg[i + j * n] - ch[i + j * n]);
          nj += std::abs(c0[i + j * n]);
        }
        diff = std::max(diff, dj);
        norm = std::max(norm, nj);
      }
      t.err = diff / (double(n) * norm * std::numeric_limits<R>::epsilon());
    }
    out.push_back(t);
  }
  return out;
}

template <Scalar T>
int run_case(const Device& gpu, const Options& o, int64_t n, int64_t b, std::FILE* csv) {
  using R = real_type_t<T>;
  const int64_t ld = b + 1;
  std::mt19937_64 rng(o.seed + static_cast<uint64_t>(n * 131 + b));
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  std::vector<T> ab(static_cast<std::size_t>(ld * n), T(0));
  for (int64_t j = 0; j < n; ++j)
    for (int64_t i = 0; i <= b && j + i < n; ++i) {
      T v;
      if constexpr (is_complex_v<T>)
        v = T(R(u(rng)), i == 0 ? R(0) : R(u(rng)));
      else
        v = T(u(rng));
      ab[i + j * ld] = v;
    }
  double norm1 = 0;
  {
    std::vector<double> col(static_cast<std::size_t>(n), 0.0);
    for (int64_t j = 0; j < n; ++j)
      for (int64_t i = 0; i <= b && j + i < n; ++i) {
        col[j] += std::abs(ab[i + j * ld]);
        if (i > 0) col[j + i] += std::abs(ab[i + j * ld]);
      }
    for (double c : col) norm1 = std::max(norm1, c);
  }
  DeviceBuffer<T> dab(gpu, ab.size()), dv(gpu, o.vectors ? band2tri_v2_size(n) : 0),
      dt(gpu, o.vectors ? band2tri_tau2_size(n, b) : 0);  // --apply-q sets vectors
  DeviceBuffer<R> dd(gpu, static_cast<std::size_t>(n)),
      de(gpu, static_cast<std::size_t>(std::max<int64_t>(n - 1, 1)));
  copy_vector(gpu, static_cast<int64_t>(ab.size()), ab.data(), dab.data());
  const double ms = median_ms(gpu.stream(), o.warmup, o.niter, [&](int) {
    band_to_tridiag<T>(gpu, n, b, dab.data(), ld, dd.data(), de.data(),
                       o.vectors ? dv.data() : nullptr, o.vectors ? dt.data() : nullptr);
  });
  std::vector<R> d(static_cast<std::size_t>(n)),
      e(static_cast<std::size_t>(std::max<int64_t>(n - 1, 0)));
  copy_vector(gpu, n, dd.data(), d.data());
  copy_vector(gpu, n - 1, de.data(), e.data());

  double lapack_s = kNaN;
  std::vector<R> dl, el;
  if (n <= o.lapack_max_n) {
    std::vector<T> abl = ab;
    dl.resize(static_cast<std::size_t>(n));
    el.resize(static_cast<std::size_t>(std::max<int64_t>(n - 1, 1)));
    const auto t0 = std::chrono::steady_clock::now();
    const int info = lapack_sb2st<T>(static_cast<int>(n), static_cast<int>(b), abl.data(),
                                     static_cast<int>(ld), dl.data(), el.data());
    lapack_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    if (info != 0) std::fprintf(stderr, "# LAPACK ?sytrd_sb2st info %d\n", info);
    el.resize(static_cast<std::size_t>(std::max<int64_t>(n - 1, 0)));
  }
  double eig = kNaN;
  if (n <= o.check_max_n) {
    if (dl.empty()) {  // the host engine's tridiagonal as the reference
      const auto host = Device::make_host(0);
      std::vector<T> abh = ab;
      dl.resize(static_cast<std::size_t>(n));
      el.resize(static_cast<std::size_t>(std::max<int64_t>(n - 1, 0)));
      band_to_tridiag<T>(*host, n, b, abh.data(), ld, dl.data(), el.data(), nullptr, nullptr);
    }
    const auto wg = sterf(d, e), wr = sterf(dl, el);
    double worst = 0;
    for (int64_t i = 0; i < n; ++i)
      worst = std::max(worst, std::abs(double(wg[i]) - double(wr[i])));
    eig = worst / (double(n) * std::numeric_limits<R>::epsilon() * norm1);
  }
  std::vector<ApplyQTimes> q;
  if (o.apply_q) q = time_apply_q<T>(gpu, o, n, b, dv.data(), dt.data(), rng);
  bool ok = !(eig > o.tol);  // NaN (not checked) passes
  for (const auto& t : q) ok = ok && !(t.err > o.tol);
  const double gpu_s = ms / 1e3;
  std::printf("%4c %7lld %4lld %7s %10.4f %10s %8s %10s  %s\n", precision_letter<T>(),
              static_cast<long long>(n), static_cast<long long>(b), o.vectors ? "V" : "N", gpu_s,
              std::isnan(lapack_s) ? "-" : format("%.4f", lapack_s).c_str(),
              std::isnan(lapack_s) ? "-" : format("%.1f", lapack_s / gpu_s).c_str(),
              std::isnan(eig) ? "-" : format("%.3g", eig).c_str(), ok ? "ok" : "FAILED");
  // Nominal flops of both: 2 n^3 real, 8 n^3 complex (the Q2 application's reflectors
  // alone; kernels/lapack.hpp).
  const double flops = (is_complex_v<T> ? 8.0 : 2.0) * double(n) * double(n) * double(n);
  for (std::size_t i = 0; i < q.size(); ++i)
    if (!std::isnan(q[i].apply_s))
      std::printf(
          "# apply_q %c n=%lld b=%lld shape=%s: %.4f s %.2f TF/s; gemm %.4f s %.2f TF/s; "
          "ratio %.3f; qerr %s\n",
          precision_letter<T>(), static_cast<long long>(n), static_cast<long long>(b),
          o.apply_q_shapes[i].c_str(), q[i].apply_s, flops / q[i].apply_s / 1e12, q[i].gemm_s,
          flops / q[i].gemm_s / 1e12, q[i].gemm_s / q[i].apply_s,
          std::isnan(q[i].err) ? "-" : format("%.3g", q[i].err).c_str());
  std::fflush(stdout);
  if (csv) {
    std::fprintf(csv, "%c,%lld,%lld,%d,%.6f,%.6f,%.4g,%s", precision_letter<T>(),
                 static_cast<long long>(n), static_cast<long long>(b), o.vectors ? 1 : 0, gpu_s,
                 lapack_s, eig, ok ? "ok" : "FAILED");
    if (!q.empty())
      std::fprintf(csv, ",%.6f,%.6f,%.3f,%.3f,%.4f,%.4g", q[0].apply_s, q[0].gemm_s,
                   flops / q[0].apply_s / 1e12, flops / q[0].gemm_s / 1e12,
                   q[0].gemm_s / q[0].apply_s, q[0].err);
    std::fprintf(csv, "\n");
  }
  return ok ? 0 : 1;
}

int run(int argc, char** argv) {
  Options o;
  CLI::App app{"band-to-tridiagonal bulge chase on GPU 0 vs LAPACK ?sytrd_sb2st on the CPU"};
  add_type_option(app, o.types);
  add_common_options(app, o, "the eigenvalues of LAPACK's (or the host engine's) tridiagonal");
  app.add_option("-n", o.n, "orders")->delimiter(',')->capture_default_str();
  app.add_option("-b", o.b, "half-bandwidths")->delimiter(',')->capture_default_str();
  app.add_flag("--vectors", o.vectors, "keep the reflectors (V2, tau2)");
  app.add_flag("--apply-q", o.apply_q,
               "also time band_to_tridiag_apply_q on n x n (and cuBLAS gemm n^3); sets --vectors");
  app.add_option("--apply-q-shapes", o.apply_q_shapes,
                 "MGBLAS_SB2ST_APPLY_Q values to time --apply-q with (default: unset)")
      ->delimiter(',')
      ->capture_default_str();
  app.add_option("--lapack-max-n", o.lapack_max_n, "largest n LAPACK runs at")
      ->capture_default_str();
  app.add_option("--check-max-n", o.check_max_n, "largest n checked")->capture_default_str();
  CLI11_PARSE(app, argc, argv);
  if (o.apply_q) o.vectors = true;
  cudaDeviceProp prop{};
  const auto gpu = open_gpu0(prop);
  if (!gpu) return kSkipped;
  std::printf("%s\n%s\n# command: %s\n", version_line("band2tri").c_str(),
              device_line(prop).c_str(), command_line(argc, argv).c_str());
  std::printf("# type       n    b  refls     gpu(s)  lapack(s)  speedup        eig  status\n");
  std::FILE* csv = o.csv.empty() ? nullptr : std::fopen(o.csv.c_str(), "a");
  if (csv && std::ftell(csv) == 0)
    std::fprintf(csv, "type,n,b,vectors,gpu_s,lapack_s,eig,status%s\n",
                 o.apply_q ? ",apply_q_s,gemm_s,apply_q_tflops,gemm_tflops,ratio,qerr" : "");
  int failures = 0;
  for (const auto& t : o.types)
    for (int64_t b : o.b)
      for (int64_t n : o.n)
        for_type(t, [&](auto tag) { failures += run_case<decltype(tag)>(*gpu, o, n, b, csv); });
  if (csv) std::fclose(csv);
  std::printf("# %d failure(s)\n", failures);
  return failures;
}

}  // namespace

int band2tri_main(int argc, char** argv) {
  return guarded_main("mgblas-tester band2tri", run, argc, argv);
}

}  // namespace mgblas::testers
