// SPDX-License-Identifier: BSD-3-Clause
// mgblas-tester band2tri: the band-to-tridiagonal bulge chase (kernels/lapack.hpp
// band_to_tridiag, stage two of the two-stage reduction) on GPU 0 against LAPACK's
// ?sytrd_sb2st / ?hetrd_hb2st (STAGE1 = 'N', VECT = 'N', lower) on the host CPU of the same
// machine, on the same band.
//
//   mgblas-tester band2tri -n 8192,32768 -b 64 --type d,z [--niter 3] [--warmup 1]
//          [--vectors] [--lapack-max-n 8192] [--check-max-n 4096] [--csv FILE]
//
// The band: entries uniform on [-1, 1] (real diagonal), drawn on the host from --seed.
// gpu(s): median of --niter calls after --warmup (CUDA events; the call allocates its work
// band and waits for its kernels, both inside the time; AB is left as it was, since
// ldab = b + 1 makes the engine chase in its own work band). --vectors keeps V2/tau2
// (n (n - 1) / 2 + (n - 1) ((n - 2) / b + 1) elements more). lapack(s): one call (after
// none untimed: it is seconds) where n <= --lapack-max-n, else "-". With n <= --check-max-n:
// eig = max_i |lambda_i(T_gpu) - lambda_i(T_ref)| / (n ||A||_1 eps), both by ?sterf, T_ref
// LAPACK's (or, without it, the host engine's) tridiagonal; ok when eig <= --tol.
#include <cuda_runtime.h>
#include <lapacke.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <complex>
#include <cstdio>
#include <limits>
#include <random>
#include <string>
#include <type_traits>
#include <vector>

#include "core/memory.hpp"
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
  bool vectors = false;
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
      dt(gpu, o.vectors ? band2tri_tau2_size(n, b) : 0);
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
  const bool ok = !(eig > o.tol);  // NaN (not checked) passes
  const double gpu_s = ms / 1e3;
  std::printf("%4c %7lld %4lld %7s %10.4f %10s %8s %10s  %s\n", precision_letter<T>(),
              static_cast<long long>(n), static_cast<long long>(b), o.vectors ? "V" : "N", gpu_s,
              std::isnan(lapack_s) ? "-" : format("%.4f", lapack_s).c_str(),
              std::isnan(lapack_s) ? "-" : format("%.1f", lapack_s / gpu_s).c_str(),
              std::isnan(eig) ? "-" : format("%.3g", eig).c_str(), ok ? "ok" : "FAILED");
  std::fflush(stdout);
  if (csv)
    std::fprintf(csv, "%c,%lld,%lld,%d,%.6f,%.6f,%.4g,%s\n", precision_letter<T>(),
                 static_cast<long long>(n), static_cast<long long>(b), o.vectors ? 1 : 0, gpu_s,
                 lapack_s, eig, ok ? "ok" : "FAILED");
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
  app.add_option("--lapack-max-n", o.lapack_max_n, "largest n LAPACK runs at")
      ->capture_default_str();
  app.add_option("--check-max-n", o.check_max_n, "largest n checked")->capture_default_str();
  CLI11_PARSE(app, argc, argv);
  cudaDeviceProp prop{};
  const auto gpu = open_gpu0(prop);
  if (!gpu) return kSkipped;
  std::printf("%s\n%s\n# command: %s\n", version_line("band2tri").c_str(),
              device_line(prop).c_str(), command_line(argc, argv).c_str());
  std::printf("# type       n    b  refls     gpu(s)  lapack(s)  speedup        eig  status\n");
  std::FILE* csv = o.csv.empty() ? nullptr : std::fopen(o.csv.c_str(), "a");
  if (csv && std::ftell(csv) == 0)
    std::fprintf(csv, "type,n,b,vectors,gpu_s,lapack_s,eig,status\n");
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
