// SPDX-License-Identifier: BSD-3-Clause
// mgblas-tester redistribute: ScaLAPACK's 2-D block-cyclic layout to and from a
// DistMatrix on the GPUs of every rank (DistMatrix::import_2d / export_2d), against the
// route a user has without it (the whole matrix through rank 0: collect, then
// distribute from the root), and against the solvers it feeds.
//
//   mpirun -np R mgblas-tester redistribute -n 8192,32768 --type d [--mb 64]
//          [--grid 2x2] [--nb 256] [--niter 5] [--hetrd] [--heevd] [--no-root]
//
// Each rank fills its 2-D local array (entry (i, j) a function of (seed, i + j n)), then
// import_2d and export_2d are timed (median over --niter, max over ranks, barrier
// before each); GB/s counts the matrix's bytes once. root(s): collect to rank 0 plus
// distribute from it, the gather route. hetrd(s): one hetrd_mgpu call on the imported
// matrix (--hetrd). --heevd: heevd_2d with all eigenvectors on the same local arrays
// (Z under A's descriptor), one warm-up and one timed call, its profile printed as a '#'
// line: the redistribution in, the solve, the redistribution out. The check: the exported local arrays equal the filled ones, entry for
// entry (diff = entries that differ, summed over ranks).
#include <mpi.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <string>

#include "core/context.hpp"
#include "dist/lapack/heevd_2d.hpp"
#include "dist/lapack/hetrd_mgpu.hpp"
#include "layouts/block_cyclic_2d.hpp"
#include "layouts/dist_matrix.hpp"
#include "testers/subcommands.hpp"
#include "testers/tester_common.hpp"
#include "testers/tester_dist_fill.hpp"
#include "testers/tester_mpi_lapack.hpp"

namespace mgblas::testers {
namespace {

struct Options : LapackOptions {
  Options() { niter = 5; }
  int64_t mb = 64, nb = 256;
  std::string grid;  // PxQ; empty: the squarest grid of all ranks
  bool hetrd = false, heevd = false, root = true;
};

// nprow x npcol from "PxQ", or the squarest factorisation of nranks.
std::pair<int, int> grid_of(const std::string& s, int nranks) {
  if (!s.empty()) {
    const auto x = s.find('x');
    if (x == std::string::npos) MGBLAS_THROW(BadArgument, "--grid '", s, "': must be PxQ");
    return {std::stoi(s.substr(0, x)), std::stoi(s.substr(x + 1))};
  }
  int p = 1;
  for (int q = 1; q * q <= nranks; ++q)
    if (nranks % q == 0) p = q;
  return {p, nranks / p};
}

template <typename F>
double max_seconds(const Context& ctx, F&& f) {
  ctx.comm().barrier();
  const auto t0 = std::chrono::steady_clock::now();
  f();
  const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  double m = s;
  MPI_Allreduce(&s, &m, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
  return m;
}

template <Scalar T>
int run_type(const std::shared_ptr<Context>& ctx, const Options& o) {
  using R = real_type_t<T>;
  const int me = ctx->rank(), P = ctx->global_num_devices();
  const auto [nprow, npcol] = grid_of(o.grid, ctx->nranks());
  int failures = 0;
  for (int64_t n : o.nlist) {
    const BlockCyclic2D D(n, n, o.mb, o.mb, nprow, npcol);
    const int pr = D.prow_of(me), pc = D.pcol_of(me);
    const int64_t locr = pr >= 0 ? D.local_rows(pr) : 0, locc = pc >= 0 ? D.local_cols(pc) : 0;
    const int64_t lld = std::max<int64_t>(1, locr);
    std::vector<T> a(static_cast<std::size_t>(lld * locc)), back(a.size());
    constexpr int reals = is_complex_v<T> ? 2 : 1;
    for (int64_t jl = 0; jl < locc; ++jl)
      for (int64_t il = 0; il < locr; ++il) {
        const uint64_t k = static_cast<uint64_t>(D.global_row(pr, il) + D.global_col(pc, jl) * n);
        R* e = reinterpret_cast<R*>(&a[il + jl * lld]);
        for (int p = 0; p < reals; ++p) e[p] = static_cast<R>(dist_value(o.seed, reals * k + p));
      }
    DistMatrix<T> A(ctx, BlockCyclic1D(n, n, std::min(o.nb, std::max<int64_t>(n, 1)), P));
    std::vector<double> ti, te, tr;
    for (int r = 0; r < o.warmup + o.niter; ++r) {
      const double si = max_seconds(*ctx, [&] { A.import_2d(D, pr >= 0 ? a.data() : nullptr, lld); });
      const double se = max_seconds(*ctx, [&] { A.export_2d(D, pr >= 0 ? back.data() : nullptr, lld); });
      if (r >= o.warmup) ti.push_back(si), te.push_back(se);
    }
    int64_t wrong = 0;
    for (std::size_t k = 0; k < a.size(); ++k) wrong += !(a[k] == back[k]);
    int64_t all_wrong = wrong;
    MPI_Allreduce(&wrong, &all_wrong, 1, MPI_INT64_T, MPI_SUM, MPI_COMM_WORLD);
    double root_s = 0;
    if (o.root) {
      std::vector<T> full(me == 0 ? static_cast<std::size_t>(n * n) : 0);
      for (int r = 0; r < std::max(1, o.niter / 2); ++r)
        tr.push_back(max_seconds(*ctx, [&] {
          A.collect(me == 0 ? full.data() : nullptr, std::max<int64_t>(1, n), 0);
          A.distribute(me == 0 ? full.data() : nullptr, std::max<int64_t>(1, n), 0);
        }));
      root_s = median_of(tr);
    }
    double hetrd_s = 0;
    if (o.hetrd) {
      std::vector<R> d(n), e(std::max<int64_t>(n - 1, 1));
      std::vector<T> tau(std::max<int64_t>(n - 1, 1));
      A.import_2d(D, pr >= 0 ? a.data() : nullptr, lld);
      hetrd_s = max_seconds(*ctx, [&] { hetrd_mgpu<T>(Uplo::Lower, A, d.data(), e.data(), tau.data()); });
    }
    if (o.heevd) {
      std::vector<R> w(static_cast<std::size_t>(n));
      std::vector<T> z(a.size());
      Heevd2DProfile prof;
      Heevd2DOptions opts;
      opts.nb = A.layout().nb();
      opts.profile = &prof;
      for (int r = 0; r < 2; ++r)  // a warm-up, then the timed call
        heevd_2d<T>(ctx, Uplo::Lower, D, pr >= 0 ? a.data() : nullptr, lld, w.data(), &D,
                    pr >= 0 ? z.data() : nullptr, lld, {}, opts);
      if (me == 0)
        std::printf("# heevd_2d n %lld, all vectors: import %.4f s, solve %.4f s, export %.4f s, "
                    "total %.4f s (redistribution %.1f%% of it)\n",
                    static_cast<long long>(n), prof.redistribute_in, prof.solve,
                    prof.redistribute_out, prof.total,
                    100 * (prof.redistribute_in + prof.redistribute_out) / prof.total);
    }
    const double imp = median_of(ti), exp = median_of(te);
    const double gb = static_cast<double>(n) * n * sizeof(T) * 1e-9;
    const bool ok = all_wrong == 0;
    if (me == 0) {
      std::printf("%5c %7lld %5lld %5lld %3dx%-3d %5d %5d %10.4f %7.2f %10.4f %7.2f %10.4f %8.2f "
                  "%10.4f %8.3f %7lld  %s\n",
                  precision_letter<T>(), static_cast<long long>(n), static_cast<long long>(o.mb),
                  static_cast<long long>(A.layout().nb()), nprow, npcol, P, ctx->nranks(), imp,
                  gb / imp, exp, gb / exp, root_s, root_s > 0 ? root_s / imp : 0.0, hetrd_s,
                  hetrd_s > 0 ? imp / hetrd_s : 0.0, static_cast<long long>(all_wrong),
                  ok ? "ok" : "FAILED");
      if (!o.csv.empty())
        if (FILE* f = std::fopen(o.csv.c_str(), "a")) {
          std::fprintf(f, "%c,%lld,%lld,%lld,%d,%d,%d,%d,%.6f,%.6f,%.6f,%.6f,%lld\n",
                       precision_letter<T>(), static_cast<long long>(n),
                       static_cast<long long>(o.mb), static_cast<long long>(A.layout().nb()),
                       nprow, npcol, P, ctx->nranks(), imp, exp, root_s, hetrd_s,
                       static_cast<long long>(all_wrong));
          std::fclose(f);
        }
      std::fflush(stdout);
    }
    failures += ok ? 0 : 1;
  }
  return failures;
}

int run(int argc, char** argv, int world_rank) {
  Options o;
  CLI::App app{"mgblas-tester redistribute: ScaLAPACK 2-D block-cyclic to and from a DistMatrix"};
  app.add_option("-n", o.nlist, "sizes")->delimiter(',');
  add_type_option(app, o.types);
  add_common_options(app, o, "the exported local arrays against the imported ones");
  app.add_option("--mb", o.mb, "2-D block size (mb = nb)")->capture_default_str();
  app.add_option("--grid", o.grid, "process grid PxQ (default: squarest of the ranks)");
  app.add_option("--nb", o.nb, "block-column width of the DistMatrix")->capture_default_str();
  app.add_flag("--hetrd,!--no-hetrd", o.hetrd, "time one hetrd_mgpu on the imported matrix")
      ->capture_default_str();
  app.add_flag("--heevd,!--no-heevd", o.heevd,
               "time heevd_2d (all vectors) on the local arrays, with its redistributions")
      ->capture_default_str();
  app.add_flag("--root,!--no-root", o.root, "time the route through rank 0")->capture_default_str();
  if (const int status = parse_on_every_rank(app, argc, argv, world_rank); status >= 0)
    return status;
  if (o.niter < 1) o.niter = 1;
  if (o.nlist.empty()) o.nlist = {4096};
  return run_on_gpus(
      "mgblas-tester redistribute", argc, argv, world_rank, o,
      "type       n    mb    nb grid     gpus ranks  import(s)    GB/s  export(s)    "
      "GB/s    root(s) root/imp   hetrd(s) imp/hetrd    diff  status",
      [&](auto tag, const auto& ctx) { return run_type<decltype(tag)>(ctx, o); });
}

}  // namespace
}  // namespace mgblas::testers

namespace mgblas::testers {
// `mgblas-tester redistribute` (testers/mgblas_tester.cpp).
int redistribute_main(int argc, char** argv) {
  return mpi_tester_main("mgblas-tester redistribute", argc, argv, run);
}
}  // namespace mgblas::testers
