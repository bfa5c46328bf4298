// SPDX-License-Identifier: BSD-3-Clause
// mgblas-tester svd: the distributed singular value decomposition (gesvd_mgpu: gebrd_mgpu,
// B's singular values and vectors on each rank's first device, unmbr_mgpu) over the
// devices of every rank against cusolverDnXgesvd and cusolverDnXgesvdp on rank 0's first
// GPU, on the same matrix in the same run.
//
//   mpirun -np R mgblas-tester svd -n 4096,8192 [--aspect 1,8,0.5] --type d,z
//          [--vectors none,all,0.1] [--stages one,two,auto] [--band 32] [--qr-ratio 1.6]
//          [--nb 256] [--repeat 3] [--warmup 1] [--check]
//          [--check-max-n 2048] [--gesvd-max-n 8192] [--no-ref] [--backend auto|cuda|host]
//          [--csv FILE]
//
// The matrix: m = round(aspect n) rows, entry (i, j) a function of (seed, i + j m) only
// (tester_dist_fill). --vectors: none (singular values only), all (the thin U and V, k =
// min(m, n) columns each), or a fraction f in (0, 1]: the ceil(f k) largest triplets.
// cuSOLVER: Xgesvd with jobu = jobvt = 'N' (none) or 'S' (thin vectors; it has no subset),
// only for m >= n and m <= --gesvd-max-n (it takes 56 s at n = 16384 with vectors);
// Xgesvdp with jobz N or V, econ = 1. Columns: mgblas(s) the median over --repeat calls
// after --warmup untimed ones (A refilled before each, untimed; devices synchronised; max
// over ranks); qr, reduce, bidiag, backtr: GesvdProfile's phases of the same calls (qr: A = Q R
// first, when m >= --qr-ratio n, GesvdOptions::qr_ratio; chase: the two-stage path's
// band-to-bidiagonal chase, part of reduce); --stages: GesvdOptions::stages of each row
// (one, two or auto; a comma list runs each, cuSOLVER once per matrix), --band its
// GesvdOptions::band; gesvd(s),
// gesvdp(s): cuSOLVER's medians (CUDA events, the same warm-up and count); ratios
// cuSOLVER / mgblas. With --check and max(m, n) <= --check-max-n, on rank 0 in double
// precision from the gathered A, U and V:
//   resid = ||A V - U S||_1 / (max(m, n) ||A||_1 eps), orthU/V = ||I - X^H X||_1 / (rows eps);
// sv = max_i |s_i - s_ref,i| / (max(m, n) s_ref,0 eps), s_ref cuSOLVER Xgesvdp's when it
// ran, else LAPACK ?gesdd in double. ok: all measured under 3 tol (--tol, 10: 30).
// Without a GPU it runs on host devices and the cuSOLVER columns read "-".
#include <cusolverDn.h>
#include <mpi.h>

#include <array>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <limits>
#include <map>
#include <string>
#include <tuple>
#include <type_traits>
#include <vector>

#include "core/context.hpp"
#include "dist/lapack/gesvd_mgpu.hpp"
#include "tests/lapack/svd_check.hpp"
#include "testers/subcommands.hpp"
#include "testers/tester_mpi_lapack.hpp"

namespace mgblas::testers {
namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

struct Options : LapackOptions {
  int64_t nb = 256, check_max_n = 2048, gesvd_max_n = 8192;
  double qr_ratio = 1.6;
  std::vector<double> aspects{1.0};
  std::vector<std::string> vectors{"none"};
  std::vector<std::string> stages{"auto"};
  int64_t band = 0;
  int64_t qr_panel = 0;
  bool ref = true;
  std::string backend = "auto";
};

// The fraction of a --vectors value: 0 for none, 1 for all, else the number in (0, 1];
// NaN when it is none of those.
double vectors_fraction(const std::string& spec) {
  if (spec == "none") return 0.0;
  if (spec == "all") return 1.0;
  try {
    std::size_t used = 0;
    const double f = std::stod(spec, &used);
    return used == spec.size() && f > 0 && f <= 1 ? f : kNaN;
  } catch (const std::exception&) {
    return kNaN;
  }
}

template <Scalar T>
using wide_t = std::conditional_t<is_complex_v<T>, zcomplex, double>;

template <Scalar T>
cudaDataType cuda_type() {
  return std::is_same_v<T, float>      ? CUDA_R_32F
         : std::is_same_v<T, double>   ? CUDA_R_64F
         : std::is_same_v<T, scomplex> ? CUDA_C_32F
                                       : CUDA_C_64F;
}

/// cusolverDnXgesvd (jobu = jobvt = 'N' or 'S') or cusolverDnXgesvdp (jobz N or V, econ)
/// on dev for the m x n matrix of (seed, index): median seconds (CUDA events) of `niter`
/// calls after `warmup`, refilled before each; the singular values of the last into s.
template <Scalar T>
double cusolver_seconds(const Device& dev, bool polar, bool vectors, int64_t m, int64_t n,
                        uint64_t seed, int warmup, int niter, std::vector<real_type_t<T>>& s) {
  using R = real_type_t<T>;
  dev.make_current();
  const int64_t k = std::min(m, n), lda = std::max<int64_t>(m, 1);
  const cudaDataType ta = cuda_type<T>(), ts = cuda_type<R>();
  DeviceBuffer<T> A(dev, static_cast<std::size_t>(std::max<int64_t>(m * n, 1)));
  DeviceBuffer<R> S(dev, static_cast<std::size_t>(std::max<int64_t>(k, 1)));
  // Xgesvdp uses U and V as workspace even without vectors (it fails with execution
  // failed on 1-element buffers), so it always gets them whole.
  const bool whole = vectors || polar;
  DeviceBuffer<T> U(dev, whole ? static_cast<std::size_t>(m * k) : 1);
  DeviceBuffer<T> V(dev, whole ? static_cast<std::size_t>(n * k) : 1);
  DeviceBuffer<int> info(dev, 1);
  cusolverDnHandle_t h = nullptr;
  cusolverDnParams_t params = nullptr;
  CHECK_CUSOLVER(cusolverDnCreate(&h));
  CHECK_CUSOLVER(cusolverDnSetStream(h, dev.stream()));
  CHECK_CUSOLVER(cusolverDnCreateParams(&params));
  const signed char job = vectors ? 'S' : 'N';
  const cusolverEigMode_t jobz = vectors ? CUSOLVER_EIG_MODE_VECTOR : CUSOLVER_EIG_MODE_NOVECTOR;
  const int64_t ldu = std::max<int64_t>(m, 1), ldv = polar ? std::max<int64_t>(n, 1)
                                                           : std::max<int64_t>(k, 1);
  std::size_t dev_bytes = 0, host_bytes = 0;
  if (polar)
    CHECK_CUSOLVER(cusolverDnXgesvdp_bufferSize(h, params, jobz, 1, m, n, ta, A.data(), lda, ts,
                                                S.data(), ta, U.data(), ldu, ta, V.data(), ldv, ta,
                                                &dev_bytes, &host_bytes));
  else
    CHECK_CUSOLVER(cusolverDnXgesvd_bufferSize(h, params, job, job, m, n, ta, A.data(), lda, ts,
                                               S.data(), ta, U.data(), ldu, ta, V.data(), ldv, ta,
                                               &dev_bytes, &host_bytes));
  DeviceBuffer<std::byte> dwork(dev, std::max<std::size_t>(dev_bytes, 1));
  std::vector<std::byte> hwork(std::max<std::size_t>(host_bytes, 1));
  const auto refill = [&] {
    fill_matrix(dev, A.data(), lda, m, n, is_complex_v<T> ? 2 : 1, sizeof(R) == 8, seed);
  };
  const auto call = [&] {
    if (polar) {
      double err_sigma = 0;
      CHECK_CUSOLVER(cusolverDnXgesvdp(h, params, jobz, 1, m, n, ta, A.data(), lda, ts, S.data(),
                                       ta, U.data(), ldu, ta, V.data(), ldv, ta, dwork.data(),
                                       dev_bytes, hwork.data(), host_bytes, info.data(),
                                       &err_sigma));
    } else {
      CHECK_CUSOLVER(cusolverDnXgesvd(h, params, job, job, m, n, ta, A.data(), lda, ts, S.data(),
                                      ta, U.data(), ldu, ta, V.data(), ldv, ta, dwork.data(),
                                      dev_bytes, hwork.data(), host_bytes, info.data()));
    }
  };
  for (int r = 0; r < warmup; ++r) {
    refill();
    call();
  }
  const double secs = event_median(dev, niter, refill, call);
  int host_info = 0;
  s.resize(static_cast<std::size_t>(k));
  MGBLAS_CHECK_CUDA(cudaMemcpy(&host_info, info.data(), sizeof(int), cudaMemcpyDeviceToHost));
  MGBLAS_CHECK_CUDA(cudaMemcpy(s.data(), S.data(), s.size() * sizeof(R), cudaMemcpyDeviceToHost));
  cusolverDnDestroyParams(params);
  cusolverDnDestroy(h);
  if (host_info != 0)
    throw std::runtime_error(std::string(polar ? "cusolverDnXgesvdp" : "cusolverDnXgesvd") +
                             ": info = " + std::to_string(host_info));
  return secs;
}

// cuSOLVER's figures for one matrix and vector choice, kept across the --stages rows.
struct Reference {
  double gesvd = kNaN, gesvdp = kNaN;
  std::vector<double> s;  // Xgesvdp's values (empty when it failed)
};
using ReferenceCache = std::map<std::tuple<char, int64_t, int64_t, bool>, Reference>;

Stages stages_of(const std::string& v) {
  return v == "one" ? Stages::One : v == "two" ? Stages::Two : Stages::Auto;
}

struct Row {
  char type;
  int64_t m, n, nb;
  std::string vectors;
  int ranks, devices;
  int64_t nvec;
  double secs, qr, reduction, bidiagonal, back_transform, gesvd, gesvdp, resid, orth_u, orth_v, sv;
  std::string s_ref, status;
  std::string stages = "auto";
  double chase = kNaN;
};

class Report : public RanksReport {
 public:
  Report(bool root, const std::string& csv, double qr_ratio, int64_t band)
      : RanksReport(root, csv,
                    "type,m,n,nb,vectors,ranks,devices,nvec,t_mgblas,reduction,bidiagonal,"
                    "back_transform,t_gesvd,t_gesvdp,ratio_gesvd,ratio_gesvdp,residual,orth_u,"
                    "orth_v,sv_error,s_ref,status,qr,qr_ratio,stages,band,chase",
                    /*append=*/true),
        qr_ratio_(qr_ratio), band_(band) {}
  void header() const {
    if (!root_) return;
    std::printf("%-4s %6s %6s %4s %7s %5s %5s %4s %6s %10s %7s %9s %7s %9s %9s %10s %10s %7s %7s %8s %8s %8s %8s %s\n",
                "type", "m", "n", "nb", "vectors", "stage", "ranks", "devs", "nvec", "mgblas(s)", "qr(s)", "reduce(s)", "chase",
                "bidiag", "backtr", "gesvd(s)", "gesvdp(s)", "x_gesvd", "x_gesvdp", "resid",
                "orthU", "orthV", "sv", "status");
    std::fflush(stdout);
  }
  void add(const Row& r) {
    if (!count(r.status)) return;
    const double x1 = r.gesvd / r.secs, x2 = r.gesvdp / r.secs;
    std::printf("%-4c %6lld %6lld %4lld %7s %5s %5d %4d %6lld %10s %7s %9s %7s %9s %9s %10s %10s %7s %7s %8s %8s %8s %8s %s\n",
                r.type, static_cast<long long>(r.m), static_cast<long long>(r.n),
                static_cast<long long>(r.nb), r.vectors.c_str(), r.stages.c_str(), r.ranks, r.devices,
                static_cast<long long>(r.nvec), num(r.secs, "%.4f").c_str(),
                num(r.qr, "%.4f").c_str(), num(r.reduction, "%.4f").c_str(), num(r.chase, "%.4f").c_str(),
                num(r.bidiagonal, "%.4f").c_str(),
                num(r.back_transform, "%.4f").c_str(), num(r.gesvd, "%.4f").c_str(),
                num(r.gesvdp, "%.4f").c_str(), num(x1, "%.2f").c_str(), num(x2, "%.2f").c_str(),
                num(r.resid, "%.1e").c_str(), num(r.orth_u, "%.1e").c_str(),
                num(r.orth_v, "%.1e").c_str(), num(r.sv, "%.1e").c_str(), r.status.c_str());
    std::fflush(stdout);
    if (csv_.is_open())
      csv_ << r.type << ',' << r.m << ',' << r.n << ',' << r.nb << ',' << r.vectors << ','
           << r.ranks << ',' << r.devices << ',' << r.nvec << ',' << r.secs << ','
           << r.reduction << ',' << r.bidiagonal << ',' << r.back_transform << ',' << r.gesvd
           << ',' << r.gesvdp << ',' << x1 << ',' << x2 << ',' << r.resid << ',' << r.orth_u
           << ',' << r.orth_v << ',' << r.sv << ',' << r.s_ref << ',' << r.status << ',' << r.qr
           << ',' << qr_ratio_ << ',' << r.stages << ',' << band_ << ',' << r.chase << '\n';
  }

 private:
  double qr_ratio_;  // GesvdOptions::qr_ratio of every row
  int64_t band_;     // GesvdOptions::band of every row
};

/// gesvd_mgpu on m x n and --vectors `vec`, timed and checked; cuSOLVER on rank 0's first
/// GPU when there is one. The row's verdict is rank 0's, on every rank.
template <Scalar T>
Row run_case(const std::shared_ptr<Context>& ctx, const Options& o, int64_t m, int64_t n,
             const std::string& vec, const std::string& stage, ReferenceCache& refs) {
  using R = real_type_t<T>;
  using W = wide_t<T>;
  const bool root = ctx->rank() == 0;
  const uint64_t seed = o.seed * 1000003 + static_cast<uint64_t>(n * 7 + m);
  const int P = ctx->global_num_devices();
  const int64_t k = std::min(m, n);
  const double f = vectors_fraction(vec);
  const int64_t nvec =
      f == 0 ? 0 : std::clamp<int64_t>(static_cast<int64_t>(std::ceil(f * double(k))), std::min<int64_t>(k, 1), k);
  const bool check = o.check && std::max(m, n) <= o.check_max_n;
  Row row{precision_letter<T>(), m, n, std::min(o.nb, std::max<int64_t>(n, 1)), vec,
          ctx->nranks(), P, nvec, kNaN, kNaN, kNaN, kNaN, kNaN, kNaN, kNaN, kNaN, kNaN, kNaN, kNaN,
          "-", "ok", stage};

  std::vector<R> s(static_cast<std::size_t>(std::max<int64_t>(k, 1)));
  std::vector<T> A0, Uh, Vh;  // rank 0, with the check
  {
    DistMatrix<T> A(ctx, BlockCyclic1D(m, n, row.nb, P));
    const int64_t vnb = std::min(o.nb, std::max<int64_t>(nvec, 1));
    DistMatrix<T> U(ctx, BlockCyclic1D(m, nvec, vnb, P));
    DistMatrix<T> V(ctx, BlockCyclic1D(n, nvec, vnb, P));
    if (check) {
      A0.resize(root ? static_cast<std::size_t>(m * n) : 0);
      fill_dist(A, seed);
      A.collect(root ? A0.data() : nullptr, std::max<int64_t>(1, m), 0);
    }
    GesvdProfile prof;
    GesvdOptions opts;
    opts.profile = &prof;
    opts.qr_ratio = o.qr_ratio;
    opts.stages = stages_of(stage);
    opts.band = o.band;
    opts.qr.panel = o.qr_panel;
    std::array<std::vector<double>, 6> t;  // total, reduction, bidiagonal, back-transform, qr, chase
    for (int r = 0; r < o.warmup + o.niter; ++r) {
      fill_dist(A, seed);
      prof = {};
      ctx->comm().barrier();
      const auto t0 = std::chrono::steady_clock::now();
      gesvd_mgpu<T>(A, s.data(), nvec > 0 ? &U : nullptr, nvec > 0 ? &V : nullptr, nvec, opts);
      ctx->synchronize();
      const double sec = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
      if (r < o.warmup) continue;
      t[0].push_back(sec);
      t[1].push_back(prof.reduction);
      t[2].push_back(prof.bidiagonal);
      t[3].push_back(prof.back_transform);
      t[4].push_back(prof.qr);
      t[5].push_back(prof.chase);
    }
    std::array<double, 6> mine{}, most{};
    for (std::size_t i = 0; i < t.size(); ++i) mine[i] = median_of(t[i]);
    MPI_Allreduce(mine.data(), most.data(), 6, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
    row.secs = most[0];
    row.reduction = most[1];
    row.bidiagonal = most[2];
    row.back_transform = most[3];
    row.qr = most[4];
    row.chase = most[5];
    if (prof.chase > 0) {
      // One more call, profiled: stage one's phases (devices synchronised at each).
      GebrdProfile stage_one;
      GesvdOptions popts = opts;
      popts.reduction.profile = &stage_one;
      fill_dist(A, seed);
      gesvd_mgpu<T>(A, s.data(), nvec > 0 ? &U : nullptr, nvec > 0 ? &V : nullptr, nvec, popts);
      ctx->synchronize();
      if (root)
        std::printf("# %c %lld x %lld %s two-stage, stage one (profiled call): panels %.4f s, "
                    "products %.4f s, update %.4f s, comm %.4f s\n",
                    precision_letter<T>(), static_cast<long long>(m), static_cast<long long>(n),
                    vec.c_str(), stage_one.panel, stage_one.products, stage_one.update,
                    stage_one.comm);
    }
    if (check && nvec > 0) {
      Uh.resize(root ? static_cast<std::size_t>(m * nvec) : 0);
      Vh.resize(root ? static_cast<std::size_t>(n * nvec) : 0);
      U.collect(root ? Uh.data() : nullptr, std::max<int64_t>(1, m), 0);
      V.collect(root ? Vh.data() : nullptr, std::max<int64_t>(1, n), 0);
    }
  }

  int ok = 1;
  if (root) {
    std::vector<double> s_ref;
    const auto key = std::make_tuple(precision_letter<T>(), m, n, nvec > 0);
    if (const auto hit = refs.find(key); hit != refs.end()) {
      row.gesvd = hit->second.gesvd;
      row.gesvdp = hit->second.gesvdp;
      s_ref = hit->second.s;
    } else if (o.ref && ctx->device(0).is_gpu() && k > 0) {
      std::vector<R> s_cusolver;
      // A cuSOLVER failure leaves its column empty ("-") instead of ending the run.
      const auto timed = [&](bool polar, std::vector<R>& s_out) {
        try {
          return cusolver_seconds<T>(ctx->device(0), polar, nvec > 0, m, n, seed, o.warmup,
                                     o.niter, s_out);
        } catch (const std::exception& e) {
          std::printf("# %s\n", e.what());
          s_out.clear();
          return kNaN;
        }
      };
      std::vector<R> unused;
      if (m >= n && m <= o.gesvd_max_n) row.gesvd = timed(false, unused);
      row.gesvdp = timed(true, s_cusolver);
      s_ref.assign(s_cusolver.begin(), s_cusolver.end());
      refs[key] = Reference{row.gesvd, row.gesvdp, s_ref};
    }
    if (!s_ref.empty()) row.s_ref = "gesvdp";
    const double ep = testing::eps<T>();
    s.resize(static_cast<std::size_t>(k));
    if (check && k > 0) {
      const std::vector<W> Aw(A0.begin(), A0.end());
      if (nvec > 0) {
        const std::vector<W> Uw(Uh.begin(), Uh.end()), Vw(Vh.begin(), Vh.end());
        const std::vector<double> sw(s.begin(), s.end());
        const auto err = testing::lapack::check_svd<W>(m, n, Aw, Uw, nvec, Vw, nvec, sw, ep);
        row.resid = err.residual;
        row.orth_u = err.orth_u;
        row.orth_v = err.orth_v;
        ok = ok && row.resid <= 3 * o.tol && row.orth_u <= 3 * o.tol && row.orth_v <= 3 * o.tol;
      }
      if (s_ref.empty()) {
        std::vector<double> sl;
        if (testing::lapack::singular_values<W>(m, n, Aw, sl) != 0) sl.assign(k, kNaN);
        s_ref = sl;
        row.s_ref = "lapack";
      }
    }
    if (!s_ref.empty()) {
      row.sv = testing::lapack::singular_value_error<R>(m, n, s, s_ref, ep);
      ok = ok && row.sv <= 3 * o.tol;
    }
  }
  MPI_Bcast(&ok, 1, MPI_INT, 0, MPI_COMM_WORLD);
  row.status = ok ? "ok" : "FAILED";
  return row;
}

int run(int argc, char** argv, int world_rank) {
  Options o;
  CLI::App app{"mgblas-tester svd: distributed SVD against cusolverDnXgesvd and Xgesvdp"};
  app.add_option("-n", o.nlist, "columns n")->delimiter(',');
  app.add_option("--aspect", o.aspects, "m / n: rows m = round(aspect n); comma list")
      ->delimiter(',')
      ->capture_default_str();
  add_type_option(app, o.types);
  add_common_options(app, o,
                     "the definition (||A V - U S||, ||I - U^H U||, ||I - V^H V||, rank 0, "
                     "double; bound 3 tol) and the singular values against cuSOLVER's or "
                     "LAPACK's (3 tol)",
                     " (appended; the header line into a new file)");
  app.add_option("--repeat", o.niter, "the same as --niter: timed calls (median)");
  app.add_option("--vectors", o.vectors,
                 "none, all (thin U and V), or a fraction f in (0, 1]: the ceil(f k) largest "
                 "triplets; comma list")
      ->delimiter(',')
      ->capture_default_str()
      ->check([](const std::string& v) {
        return std::isnan(vectors_fraction(v)) ? "'" + v + "': none, all or a number in (0, 1]"
                                               : std::string();
      });
  app.add_option("--qr-ratio", o.qr_ratio,
                 "GesvdOptions::qr_ratio: A = Q R first when m >= ratio n (0: whenever m >= n; "
                 "inf: never)")
      ->capture_default_str();
  app.add_option("--qr-panel", o.qr_panel,
                 "GeqrfOptions::panel of the QR first (0: automatic; a divisor of --nb)")
      ->capture_default_str();
  app.add_option("--stages", o.stages,
                 "GesvdOptions::stages: one, two or auto; comma list (cuSOLVER once per matrix)")
      ->delimiter(',')
      ->capture_default_str()
      ->check(CLI::IsMember({"one", "two", "auto"}));
  app.add_option("--band", o.band,
                 "GesvdOptions::band of the two-stage path (0: automatic; a divisor of --nb)")
      ->capture_default_str();
  app.add_option("--nb", o.nb, "block-column width of A's, U's and V's layouts")
      ->capture_default_str();
  app.add_option("--check-max-n", o.check_max_n, "largest max(m, n) checked")->capture_default_str();
  app.add_option("--gesvd-max-n", o.gesvd_max_n, "largest m timed with cusolverDnXgesvd")
      ->capture_default_str();
  app.add_flag("--ref,!--no-ref", o.ref, "time cuSOLVER on rank 0's first GPU")->capture_default_str();
  add_backend_option(app, o.backend, /*with_auto=*/true);
  for (const char* name : {"--niter", "--repeat", "--warmup", "--nb", "--check-max-n"})
    app.get_option(name)->multi_option_policy(CLI::MultiOptionPolicy::TakeLast);
  if (const int status = parse_on_every_rank(app, argc, argv, world_rank); status >= 0)
    return status;
  if (o.niter < 1) o.niter = 1;
  if (o.warmup < 0) o.warmup = 0;
  if (o.nlist.empty()) o.nlist = {4096};

  const auto ctx = open_context(o.backend, world_rank);
  if (!ctx) return kSkipped;
  const bool gpu = ctx->device(0).is_gpu();
  const std::string reference =
      !o.ref ? std::string("off (--no-ref)")
      : gpu  ? "cusolverDnXgesvd (m >= n, m <= " + std::to_string(o.gesvd_max_n) +
                  ") and Xgesvdp (econ) on rank 0's first GPU, CUDA events, median of " +
                  std::to_string(o.niter) + " after " + std::to_string(o.warmup) + " warm-up"
             : std::string("none (no GPU: host devices)");
  print_ranks_header(*ctx, "mgblas-tester svd",
                     {"reference: " + reference, env_setting("NCCL_NVLS_ENABLE") + " " +
                                                     env_setting("MGBLAS_HOST_DEVICES") + " " +
                                                     env_setting("OMP_NUM_THREADS")},
                     argc, argv,
                     "mgblas: median of " + std::to_string(o.niter) + " host-timed calls after " +
                         std::to_string(o.warmup) +
                         " warm-up, devices synchronised, max over ranks; phases: GesvdProfile "
                         "of the same calls (medians)");
  Report report(ctx->rank() == 0, o.csv, o.qr_ratio, o.band);
  ReferenceCache refs;
  report.header();
  for (const auto& t : o.types)
    for_type(t, [&](auto tag) {
      using T = decltype(tag);
      for (int64_t n : o.nlist)
        for (double aspect : o.aspects) {
          const auto m = static_cast<int64_t>(std::llround(aspect * static_cast<double>(n)));
          for (const auto& vec : o.vectors)
            for (const auto& stage : o.stages)
              report.add(run_case<T>(ctx, o, m, n, vec, stage, refs));
        }
    });
  return report.close();
}

}  // namespace
}  // namespace mgblas::testers

namespace mgblas::testers {
// `mgblas-tester svd` (testers/mgblas_tester.cpp).
int svd_main(int argc, char** argv) {
  return mpi_tester_main("mgblas-tester svd", argc, argv, run);
}
}  // namespace mgblas::testers
