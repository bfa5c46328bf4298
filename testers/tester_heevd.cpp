// SPDX-License-Identifier: BSD-3-Clause
// mgblas-tester heevd: the distributed Hermitian eigen-solver with eigenvectors (heevd_mgpu:
// hetrd_mgpu, T's vectors by divide and conquer on each rank's first device, unmtr_mgpu)
// over the devices of every rank against cusolverDnXsyevd on rank 0's first GPU, on the
// same matrix in the same run.
//
//   mpirun -np R mgblas-tester heevd -n 4096,8192 --type d,z [--vectors all,0.1,none] [--uplo L,U]
//          [--stages auto,one,two] [--band 0] [--nb 256] [--panel 0] [--repeat 3]
//          [--warmup 1] [--check-max-n 2048] [--no-ref] [--backend auto|cuda|host] [--csv FILE]
//
// The matrix: entry (i, j) of A is a function of (seed, i + j n) only (tester_dist_fill),
// as in mgblas-tester hetrd; only the `uplo` triangle is read, the diagonal's imaginary
// parts are taken as zero. --vectors: all, or a fraction f in (0, 1]: the k = ceil(f n)
// smallest eigenpairs (EigenRange::smallest(k)); cuSOLVER always computes all n. none: all
// eigenvalues and no vectors (Z null, as the eigenvalues-only solvers call it).
// --stages: HeevdOptions::stages (auto, one, two), --band the two-stage band (0: auto);
// cuSOLVER runs once per type, n and triangle, its figures repeated on the other rows.
// Columns: m, the eigenpairs computed; mgblas(s) the median over --repeat (= --niter)
// calls after --warmup untimed ones (A refilled, untimed, before each; the devices
// synchronised at the end; max over ranks); reduce, tridiag, backtr: HeevdProfile's phases
// of the same calls (medians, max over ranks); cusolV(s), cusolN(s): cusolverDnXsyevd with
// jobz V and N (the 64-bit API, CUDA events, the same warm-up and count); x_cusol =
// cusolV / mgblas (cusolN / mgblas for --vectors none). With --check and n <=
// --check-max-n, on rank 0 in double precision from the gathered A (collected before the
// calls) and Z (DistMatrix::collect):
//   resid = ||A Z - Z diag(w)||_1 / (n ||A||_1 eps),  orth = ||I - Z^H Z||_1 / (n eps)
//   (with vectors);
// eig = max_i |w_i - w_ref,i| / (n ||A||_2 eps), ||A||_2 = max |w_ref|, w_ref from cuSOLVER
// (jobz N) when it ran, else (--check) LAPACK ?syevd / ?heevd in double on the gathered A.
// ok: resid, orth <= 3 tol and eig <= 10 tol (--tol, 10: 30 and 100), of those measured,
// and m = k. Without a GPU (--backend host, or auto with none visible) it runs on host
// devices (MGBLAS_HOST_DEVICES per rank) and the cuSOLVER columns read "-".
#include <cusolverDn.h>
#include <mpi.h>

#include <array>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <limits>
#include <map>
#include <optional>
#include <utility>
#include <string>
#include <type_traits>
#include <vector>

#include "core/context.hpp"
#include "dist/lapack/heevd_mgpu.hpp"
#include "tests/lapack/tridiag_check.hpp"
#include "testers/subcommands.hpp"
#include "testers/tester_mpi_lapack.hpp"

namespace mgblas::testers {
namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

struct Options : LapackOptions {
  int64_t nb = 256, panel = 0, check_max_n = 2048;
  std::vector<std::string> uplos{"L"};
  std::vector<std::string> vectors{"all"};
  std::vector<std::string> stages{"auto"};
  int64_t band = 0;
  bool ref = true;
  std::string backend = "auto";
};

// The fraction of a --vectors value: 1 for "all", 0 for "none", else the number
// (0 < f <= 1); NaN when it is none of these.
double vectors_fraction(const std::string& spec) {
  if (spec == "all") return 1.0;
  if (spec == "none") return 0.0;
  try {
    std::size_t used = 0;
    const double f = std::stod(spec, &used);
    return used == spec.size() && f > 0 && f <= 1 ? f : kNaN;
  } catch (const std::exception&) {
    return kNaN;
  }
}

// Eigenvalues asked for by --vectors `spec` of an n x n matrix: k = ceil(f n), at least 1;
// n for all and none.
int64_t vectors_count(const std::string& spec, int64_t n) {
  if (spec == "all" || spec == "none") return n;
  const auto k = static_cast<int64_t>(std::ceil(vectors_fraction(spec) * static_cast<double>(n)));
  return std::clamp<int64_t>(k, std::min<int64_t>(n, 1), n);
}

// ---- the check, on rank 0 --------------------------------------------------------------

// The double-precision type of T's kind.
template <Scalar T>
using wide_t = std::conditional_t<is_complex_v<T>, zcomplex, double>;

struct EigenErrors {
  double residual = kNaN;    // ||A Z - Z diag(w)||_1 / (n ||A||_1 eps)
  double orthogonal = kNaN;  // ||I - Z^H Z||_1 / (n eps)
};

///  +-------------------------------------------------------------------------+
///  |  residual   = || A Z - Z diag(w) ||_1 / (n ||A||_1 eps)                  |
///  |  orthogonal = || I - Z^H Z ||_1 / (n eps),  eps of T                     |
///  +-------------------------------------------------------------------------+
/// In double precision (the host BLAS's gemm); F: the full n x n Hermitian A (double), Z:
/// n x m, w: m values.
template <Scalar T>
EigenErrors check_eigenpairs(int64_t n, int64_t m, const std::vector<wide_t<T>>& F,
                             const std::vector<T>& Z, const std::vector<real_type_t<T>>& w) {
  using W = wide_t<T>;
  namespace hb = mgblas::kernels::host::detail;
  namespace tl = mgblas::testing::lapack;
  EigenErrors out;
  if (n == 0 || m == 0) return out;
  const double ep = mgblas::testing::eps<T>(), nd = static_cast<double>(n);
  const std::vector<W> Zw(Z.begin(), Z.begin() + n * m);
  std::vector<W> Rm(Zw);  // Z diag(w), then A Z - Z diag(w)
  for (int64_t j = 0; j < m; ++j)
    for (int64_t i = 0; i < n; ++i) Rm[i + j * n] *= static_cast<double>(w[j]);
  const auto bn = static_cast<hb::blas_int>(n), bm = static_cast<hb::blas_int>(m);
  hb::gemm(CblasNoTrans, CblasNoTrans, bn, bm, bn, W(1), F.data(), bn, Zw.data(), bn, W(-1),
           Rm.data(), bn);
  out.residual = tl::norm1(n, m, Rm) / (nd * std::max(tl::norm1(n, F), 1e-300) * ep);
  std::vector<W> G(static_cast<std::size_t>(m * m), W(0));
  for (int64_t j = 0; j < m; ++j) G[j + j * m] = W(1);
  hb::gemm(CblasConjTrans, CblasNoTrans, bm, bm, bn, W(-1), Zw.data(), bn, Zw.data(), bn, W(1),
           G.data(), bm);
  out.orthogonal = tl::norm1(m, m, G) / (nd * ep);
  return out;
}

/// max_i |w_i - ref_i| / (n ||A||_2 eps) over the m computed values, ||A||_2 = max |ref|.
template <Scalar T>
double eigenvalue_error(int64_t n, int64_t m, const std::vector<real_type_t<T>>& w,
                        const std::vector<double>& ref) {
  double big = 0, worst = 0;
  for (double r : ref) big = std::max(big, std::abs(r));
  for (int64_t i = 0; i < m; ++i) {
    const double d = std::abs(static_cast<double>(w[i]) - ref[i]);
    worst = std::isnan(d) ? kNaN : std::max(worst, d);  // a NaN stays
    if (std::isnan(worst)) break;
  }
  return worst / (static_cast<double>(n) * std::max(big, 1e-300) * mgblas::testing::eps<T>());
}

// ---- the rows ---------------------------------------------------------------------------

struct Row {
  char type;
  int64_t n, nb;
  std::string uplo, vectors, stages;
  int ranks, devices;
  int64_t m;
  double secs, reduction, tridiagonal, back_transform, cusolver_v, cusolver_n, resid, orth, eig;
  std::string w_ref, status;
};

class Report : public RanksReport {
 public:
  Report(bool root, const std::string& csv)
      : RanksReport(root, csv,
                    "type,n,nb,uplo,vectors,ranks,devices,m,t_mgblas,reduction,tridiagonal,"
                    "back_transform,t_cusolver_V,t_cusolver_N,ratio,residual,orthogonality,"
                    "eig_error,w_ref,status,stages",
                    /*append=*/true) {}
  void header() const {
    if (!root_) return;
    std::printf("%-4s %7s %5s %4s %7s %6s %5s %4s %7s %10s %9s %9s %9s %10s %10s %8s %9s %9s %9s %s\n",
                "type", "n", "nb", "uplo", "vectors", "stages", "ranks", "devs", "m", "mgblas(s)",
                "reduce(s)", "tridiag", "backtr", "cusolV(s)", "cusolN(s)", "x_cusol", "resid",
                "orth", "eig", "status");
    std::fflush(stdout);
  }
  void add(const Row& r) {
    if (!count(r.status)) return;
    const double ratio = (r.vectors == "none" ? r.cusolver_n : r.cusolver_v) / r.secs;
    std::printf("%-4c %7lld %5lld %4s %7s %6s %5d %4d %7lld %10s %9s %9s %9s %10s %10s %8s %9s %9s %9s %s\n",
                r.type, static_cast<long long>(r.n), static_cast<long long>(r.nb), r.uplo.c_str(),
                r.vectors.c_str(), r.stages.c_str(), r.ranks, r.devices, static_cast<long long>(r.m),
                num(r.secs, "%.4f").c_str(), num(r.reduction, "%.4f").c_str(),
                num(r.tridiagonal, "%.4f").c_str(), num(r.back_transform, "%.4f").c_str(),
                num(r.cusolver_v, "%.4f").c_str(), num(r.cusolver_n, "%.4f").c_str(),
                num(ratio, "%.2f").c_str(), num(r.resid, "%.2e").c_str(),
                num(r.orth, "%.2e").c_str(), num(r.eig, "%.2e").c_str(), r.status.c_str());
    std::fflush(stdout);
    if (csv_.is_open())
      csv_ << r.type << ',' << r.n << ',' << r.nb << ',' << r.uplo << ',' << r.vectors << ','
           << r.ranks << ',' << r.devices << ',' << r.m << ',' << r.secs << ',' << r.reduction
           << ',' << r.tridiagonal << ',' << r.back_transform << ',' << r.cusolver_v << ','
           << r.cusolver_n << ',' << ratio << ',' << r.resid << ',' << r.orth << ',' << r.eig
           << ',' << r.w_ref << ',' << r.status << ',' << r.stages << '\n';
  }
};

// ---- one case ---------------------------------------------------------------------------

/// heevd_mgpu on n, uplo and --vectors `vec`, timed and checked; cuSOLVER on rank 0's first
/// GPU when there is one. The row's verdict is rank 0's, on every rank.
template <Scalar T>
Row run_case(const std::shared_ptr<Context>& ctx, const Options& o, int64_t n,
             const std::string& uplo_name, const std::string& vec, const std::string& stages) {
  using R = real_type_t<T>;
  using W = wide_t<T>;
  const bool root = ctx->rank() == 0;
  const Uplo uplo = uplo_name == "U" ? Uplo::Upper : Uplo::Lower;
  const uint64_t seed = o.seed * 1000003 + static_cast<uint64_t>(n);
  const int P = ctx->global_num_devices();
  const int64_t k = vectors_count(vec, n);
  const bool vectors = vec != "none";
  const EigenRange range = k == n ? EigenRange::all() : EigenRange::smallest(k);
  const bool check = o.check && n <= o.check_max_n;
  Row row{precision_letter<T>(), n, std::min(o.nb, std::max<int64_t>(n, 1)), uplo_name, vec,
          stages, ctx->nranks(), P, 0, kNaN, kNaN, kNaN, kNaN, kNaN, kNaN, kNaN, kNaN, kNaN, "-", "ok"};

  // mgblas, in a scope of its own: its matrices are freed before cuSOLVER's are made.
  std::vector<R> w(static_cast<std::size_t>(std::max<int64_t>(n, 1)));
  std::vector<T> A0, Zh;  // rank 0, with the check: A before the calls, Z after the last
  {
    DistMatrix<T> A(ctx, BlockCyclic1D(n, n, row.nb, P));
    std::optional<DistMatrix<T>> Z;
    if (vectors) Z.emplace(ctx, BlockCyclic1D(n, k, std::min(o.nb, std::max<int64_t>(k, 1)), P));
    if (check) {
      A0.resize(root ? static_cast<std::size_t>(n * n) : 0);
      fill_dist(A, seed);
      A.collect(root ? A0.data() : nullptr, std::max<int64_t>(1, n), 0);
    }
    HeevdProfile prof;
    HeevdOptions opts;
    opts.reduction.panel = o.panel;
    opts.reduction.band = o.band;
    opts.stages = stages == "one" ? Stages::One : stages == "two" ? Stages::Two : Stages::Auto;
    opts.profile = &prof;
    std::array<std::vector<double>, 4> t;  // total, reduction, tridiagonal, back-transform
    for (int r = 0; r < o.warmup + o.niter; ++r) {
      fill_dist(A, seed);
      prof = {};
      ctx->comm().barrier();
      const auto t0 = std::chrono::steady_clock::now();
      row.m = heevd_mgpu<T>(uplo, A, w.data(), vectors ? &*Z : nullptr, range, opts);
      ctx->synchronize();
      const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
      if (r < o.warmup) continue;
      t[0].push_back(s);
      t[1].push_back(prof.reduction);
      t[2].push_back(prof.tridiagonal);
      t[3].push_back(prof.back_transform);
    }
    // The slowest rank's medians.
    std::array<double, 4> mine{}, most{};
    for (std::size_t i = 0; i < t.size(); ++i) mine[i] = median_of(t[i]);
    MPI_Allreduce(mine.data(), most.data(), 4, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
    row.secs = most[0];
    row.reduction = most[1];
    row.tridiagonal = most[2];
    row.back_transform = most[3];
    if (check && vectors) {
      Zh.resize(root ? static_cast<std::size_t>(n * std::max<int64_t>(k, 1)) : 0);
      Z->collect(root ? Zh.data() : nullptr, std::max<int64_t>(1, n), 0);
    }
  }

  int ok = 1;
  if (root) {
    // cuSOLVER once per type, n and triangle (the rows of other --stages and --vectors
    // repeat its figures).
    struct Reference {
      double v = kNaN, n = kNaN;
      std::vector<R> w;
    };
    static std::map<std::pair<int64_t, std::string>, Reference> done;
    std::vector<R> w_cusolver;
    if (o.ref && ctx->device(0).is_gpu()) {
      auto [it, fresh] = done.try_emplace({n, uplo_name});
      Reference& ref = it->second;
      if (fresh) {
        std::vector<R> w_v;
        ref.v = syevd_seconds<T>(ctx->device(0), CUSOLVER_EIG_MODE_VECTOR, uplo, n, seed,
                                 o.warmup, o.niter, w_v);
        ref.n = syevd_seconds<T>(ctx->device(0), CUSOLVER_EIG_MODE_NOVECTOR, uplo, n, seed,
                                 o.warmup, o.niter, ref.w);
      }
      row.cusolver_v = ref.v;
      row.cusolver_n = ref.n;
      w_cusolver = ref.w;
    }
    std::vector<double> w_ref(w_cusolver.begin(), w_cusolver.end());
    if (!w_ref.empty()) row.w_ref = "cusolver";
    if (check && n > 0) {
      // The Hermitian A of the `uplo` triangle, real diagonal, in double precision.
      std::vector<W> F(A0.begin(), A0.end());
      F = testing::lapack::full_from(uplo, n, F);
      for (int64_t i = 0; i < n; ++i) F[i + i * n] = std::real(F[i + i * n]);
      if (vectors) {
        const EigenErrors err = check_eigenpairs<T>(n, std::min(row.m, k), F, Zh, w);
        row.resid = err.residual;
        row.orth = err.orthogonal;
        ok = ok && row.resid <= 3 * o.tol && row.orth <= 3 * o.tol;
      }
      if (w_ref.empty()) {
        if (testing::lapack::eigenvalues<W>(n, F, w_ref) != 0) w_ref.assign(n, kNaN);
        row.w_ref = "lapack";
      }
    }
    if (!w_ref.empty()) {
      row.eig = eigenvalue_error<T>(n, row.m, w, w_ref);
      ok = ok && row.eig <= 10 * o.tol;
    }
    ok = ok && row.m == k;
  }
  MPI_Bcast(&ok, 1, MPI_INT, 0, MPI_COMM_WORLD);
  row.status = ok ? "ok" : "FAILED";
  return row;
}

int run(int argc, char** argv, int world_rank) {
  Options o;
  CLI::App app{"mgblas-tester heevd: distributed Hermitian eigen-solver with vectors against "
               "cusolverDnXsyevd"};
  app.add_option("-n", o.nlist, "sizes")->delimiter(',');
  add_type_option(app, o.types);
  add_common_options(app, o,
                     "the definition (||A Z - Z diag(w)||, ||I - Z^H Z||, rank 0, double; "
                     "bound 3 tol) and the eigenvalues against cuSOLVER's or LAPACK's (10 tol)",
                     " (appended; the header line into a new file)");
  app.add_option("--repeat", o.niter, "the same as --niter: timed calls (median)");
  app.add_option("--vectors", o.vectors,
                 "all, a fraction f in (0, 1] (the ceil(f n) smallest eigenpairs), or none "
                 "(eigenvalues only); comma list")
      ->delimiter(',')
      ->capture_default_str()
      ->check([](const std::string& s) {
        return std::isnan(vectors_fraction(s)) ? "'" + s + "': all, none or a number in (0, 1]"
                                               : std::string();
      });
  app.add_option("--uplo", o.uplos, "triangles: L, U")
      ->delimiter(',')
      ->capture_default_str()
      ->check(CLI::IsMember({"L", "U"}));
  app.add_option("--stages", o.stages, "HeevdOptions::stages: auto, one, two; comma list")
      ->delimiter(',')
      ->capture_default_str()
      ->check(CLI::IsMember({"auto", "one", "two"}));
  app.add_option("--band", o.band, "HetrdOptions::band of the two-stage path (0: automatic)")
      ->capture_default_str();
  app.add_option("--nb", o.nb, "block-column width of A's and Z's layouts")->capture_default_str();
  app.add_option("--panel", o.panel, "HetrdOptions::panel of the reduction (0: automatic)")
      ->capture_default_str();
  app.add_option("--check-max-n", o.check_max_n, "largest n checked")->capture_default_str();
  app.add_flag("--ref,!--no-ref", o.ref, "time cuSOLVER on rank 0's first GPU")->capture_default_str();
  add_backend_option(app, o.backend, /*with_auto=*/true);
  // A bench script's EXTRA options may repeat its own: the last one wins.
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
      : gpu  ? "cusolverDnXsyevd (64-bit API) on rank 0's first GPU, CUDA events, median of " +
                  std::to_string(o.niter) + " after " + std::to_string(o.warmup) + " warm-up"
             : std::string("none (no GPU: host devices)");
  print_ranks_header(*ctx, "mgblas-tester heevd",
                     {"reference: " + reference, env_setting("NCCL_NVLS_ENABLE") + " " +
                                                     env_setting("MGBLAS_HOST_DEVICES") + " " +
                                                     env_setting("OMP_NUM_THREADS")},
                     argc, argv,
                     "mgblas: median of " + std::to_string(o.niter) + " host-timed calls after " +
                         std::to_string(o.warmup) +
                         " warm-up, devices synchronised, max over ranks; phases: HeevdProfile "
                         "of the same calls (medians)");
  Report report(ctx->rank() == 0, o.csv);
  report.header();
  for (const auto& t : o.types)
    for_type(t, [&](auto tag) {
      using T = decltype(tag);
      for (int64_t n : o.nlist)
        for (const auto& uplo : o.uplos)
          for (const auto& vec : o.vectors)
            for (const auto& st : o.stages) report.add(run_case<T>(ctx, o, n, uplo, vec, st));
    });
  return report.close();
}

}  // namespace
}  // namespace mgblas::testers

namespace mgblas::testers {
// `mgblas-tester heevd` (testers/mgblas_tester.cpp).
int heevd_main(int argc, char** argv) {
  return mpi_tester_main("mgblas-tester heevd", argc, argv, run);
}
}  // namespace mgblas::testers
