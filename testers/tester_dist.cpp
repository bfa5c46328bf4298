// SPDX-License-Identifier: BSD-3-Clause
// mgblas-tester dist: checks and times the distributed Level 2 (gemv_mgpu N/T/C, symv_mgpu,
// hemv_mgpu, whole matrices and trailing submatrices) over every GPU of every rank, with
// the host and the NCCL reducers, against mgblas on one GPU (STYLE.md section 9).
//
//   mgblas-tester dist --op gemv,symv --type d,z -n 8192,32768 --reducer host,nccl
//   mpirun -np 2 mgblas-tester dist --op symv --type d -n 32768 --reducer nccl --chunks 1,4
//   MGBLAS_DEVICES=0 mgblas-tester dist ...                      (one GPU)
//
// The matrix is filled on the devices from (seed, global index), so the distributed
// copy and the single-GPU reference hold the same values without a host copy. For each
// (type, operation, n, offset) the reference runs first, on rank 0's first GPU alone: the
// engine's gemv/symv/hemv (_offset) on the whole matrix, matrix resident, timed with CUDA
// events (median of --niter after --warmup); its memory is freed before the
// distributed matrix is made. Then every (nb, reducer, chunks, vectors) combination runs
// the distributed call: one checked call from y0, --warmup untimed, --niter timed calls,
// each timed on the host from call to return (the call ends with the devices
// synchronised and y complete), median per rank, max over ranks. Columns:
//   ranks gpus   MPI ranks, GPUs over all ranks
//   reducer      host or nccl; chunks: the pipeline's chunks (Reducer::pipeline_chunks)
//   vec          device: x and y replicated DistVectors (resident); host: host arrays
//                (one H2D of x and one D2H of y per call); cyclic: gemv N with x, gemv T
//                with y block-cyclic like A's columns (gemv T then needs no reduction)
//   time         milliseconds per call, reduction included
//   GB/s         aggregate, minimum traffic: gemv (m n + m + n) elements, symv/hemv
//                (n (n + 1) / 2 + 2 n) elements, of the submatrix
//   1gpu(ms)     the reference's time; speedup = 1gpu / time; eff = speedup / gpus
//   error        ||y - y_1gpu|| / ((k |alpha| ||S|| ||x|| + |beta| ||y0||) eps), ||S|| the
//                submatrix's Frobenius norm from its distribution (sqrt(entries * reals / 3)
//                for uniform [-1, 1) parts), k the inner dimension; ok when <= --tol
//                (x sqrt(2) for complex)
// Exit status: the number of failed or broken cases (0 without a GPU: exit 77).
#include <cuda_runtime.h>

#include <CLI/CLI.hpp>
#include <algorithm>
#include <chrono>
#include <cmath>
#include <complex>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "core/context.hpp"
#include "core/detail/cuda_check.hpp"
#include "core/memory.hpp"
#include "core/types.hpp"
#include "dist/dist_blas.hpp"
#include "dist/reducer.hpp"
#include "kernels/blas.hpp"
#include "layouts/dist_matrix.hpp"
#include "testers/subcommands.hpp"
#include "testers/tester_common.hpp"
#include "testers/tester_dist_fill.hpp"
#include "testers/tester_ranks.hpp"

namespace mgblas::testers {
namespace {

struct Options : CommonOptions {
  Options() {
    types = {"d"};
    niter = 10;
  }
  std::vector<std::string> ops{"gemv", "symv"};
  std::vector<std::string> trans{"N", "T"};
  std::vector<std::string> uplos{"L"};
  std::vector<int64_t> nlist;
  std::string range;
  std::vector<int64_t> nbs{256};
  std::vector<int64_t> offsets{0};
  std::vector<std::string> reducers{"host", "nccl"};
  std::vector<int> chunks{1};
  std::vector<std::string> vectors{"device"};
  bool ref = true;
  std::string symv_path;
  std::string backend = "cuda";
};

template <Scalar T>
std::vector<T> host_vector(int64_t n, uint64_t seed) {
  std::vector<T> v(static_cast<std::size_t>(n));
  for (int64_t i = 0; i < n; ++i) {
    if constexpr (is_complex_v<T>)
      v[i] = T(static_cast<real_type_t<T>>(dist_value(seed, 2 * i)),
               static_cast<real_type_t<T>>(dist_value(seed, 2 * i + 1)));
    else
      v[i] = static_cast<T>(dist_value(seed, i));
  }
  return v;
}

// ---- one operation ---------------------------------------------------------------------

struct OpSpec {
  char kind;  // 'G' gemv, 'S' symv, 'H' hemv
  Op op = Op::N;
  Uplo uplo = Uplo::Lower;
  std::string name() const {
    return kind == 'G' ? std::string("gemv") : kind == 'S' ? "symv" : "hemv";
  }
  std::string variant() const { return kind == 'G' ? to_string(op) : to_string(uplo); }
};

// Submatrix sizes of a square n x n parent at offset off (both row and column).
struct Sub {
  int64_t m, n;  // rows and columns of the submatrix
  int64_t len_x(const OpSpec& s) const { return s.kind != 'G' || s.op == Op::N ? n : m; }
  int64_t len_y(const OpSpec& s) const { return s.kind != 'G' || s.op == Op::N ? m : n; }
};

template <Scalar T>
double traffic_bytes(const OpSpec& s, const Sub& sub) {
  const double m = static_cast<double>(sub.m), n = static_cast<double>(sub.n);
  const double elems = s.kind == 'G' ? m * n + m + n : n * (n + 1) / 2 + 2 * n;
  return elems * sizeof(T);
}

/// The engine on one device: the reference product on the parent (n x n, ld) at offset.
template <Scalar T>
void engine_call(const Queue& q, const OpSpec& s, int64_t n, int64_t off, T alpha, const T* A,
                 int64_t ld, const T* x, T beta, T* y) {
  const int64_t k = n - off;
  if (s.kind == 'G')
    gemv_offset(q, s.op, k, k, alpha, A, ld, off, off, x, 1, beta, y, 1);
  else if (s.kind == 'S')
    symv_offset(q, s.uplo, k, alpha, A, ld, off, x, 1, beta, y, 1);
  else
    hemv_offset(q, s.uplo, k, alpha, A, ld, off, x, 1, beta, y, 1);
}

struct Reference {
  double ms = std::numeric_limits<double>::quiet_NaN();
  bool ok = false;  // the reference ran (rank 0's verdict, broadcast)
  std::vector<char> y_bytes;  // rank 0: its result
};

/// Median milliseconds of niter calls on dev after warmup untimed ones: CUDA events on a
/// GPU's stream, the host clock on a host device (whose calls run to completion).
template <typename F>
double median_ms_on(const Device& dev, int warmup, int niter, F&& call) {
  if (dev.is_gpu()) return median_ms(dev.stream(), warmup, niter, [&](int) { call(); });
  for (int r = 0; r < warmup; ++r) call();
  std::vector<double> t(static_cast<std::size_t>(niter));
  for (auto& v : t) {
    const auto t0 = std::chrono::steady_clock::now();
    call();
    v = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
  }
  return median_of(std::move(t));
}

template <Scalar T>
Reference reference(Context& ctx, const Options& o, const OpSpec& s, int64_t n, int64_t off,
                    T alpha, T beta, const std::vector<T>& x, const std::vector<T>& y0) {
  Reference ref;
  if (!o.ref && !o.check) return ref;
  double ms = std::numeric_limits<double>::quiet_NaN();
  int ok = 0;
  if (ctx.rank() == 0) {
    try {
      const Device& dev = ctx.device(0);
      dev.make_current();
      const int64_t ld = BlockCyclic1D::padded_ld(n, sizeof(T));
      DeviceBuffer<T> A(dev, static_cast<std::size_t>(ld * n)), dx(dev, x.size()),
          dy(dev, y0.size());
      fill_matrix(dev, A.data(), ld, n, n, is_complex_v<T> ? 2 : 1, sizeof(real_type_t<T>) == 8,
                  o.seed);
      copy_vector(dev, static_cast<int64_t>(x.size()), x.data(), dx.data());
      copy_vector(dev, static_cast<int64_t>(y0.size()), y0.data(), dy.data());
      const Queue q(dev);
      engine_call(q, s, n, off, alpha, A.data(), ld, dx.data(), beta, dy.data());
      std::vector<T> y(y0.size());
      copy_vector(dev, static_cast<int64_t>(y.size()), dy.data(), y.data());
      ref.y_bytes.resize(y.size() * sizeof(T));
      std::memcpy(ref.y_bytes.data(), y.data(), ref.y_bytes.size());
      if (o.ref)
        ms = median_ms_on(dev, o.warmup, o.niter, [&] {
          engine_call(q, s, n, off, alpha, A.data(), ld, dx.data(), beta, dy.data());
        });
      ok = 1;
    } catch (const std::exception& e) {
      std::fprintf(stderr, "# reference failed: %s\n", e.what());
    }
  }
  ctx.comm().bcast(&ms, sizeof ms, 0);
  ctx.comm().bcast(&ok, sizeof ok, 0);
  ref.ms = ms;
  ref.ok = ok == 1;
  return ref;
}

// ---- output ----------------------------------------------------------------------------

struct Row {
  char type;
  std::string op, variant;
  int64_t n, nb, off;
  int ranks, gpus;
  std::string reducer;
  int chunks;
  std::string vec;
  double ms, gbs, ref_ms, speedup, eff, error;
  std::string status;
};

class Report : public RanksReport {
 public:
  Report(bool root, const std::string& csv)
      : RanksReport(root, csv,
                    "type,op,variant,n,nb,offset,ranks,gpus,reducer,chunks,vectors,time_ms,gbs,"
                    "ref_1gpu_ms,speedup,efficiency,error,status") {}
  void header() const {
    if (!root_) return;
    std::printf("%-4s %-4s %-3s %7s %5s %6s %5s %4s %-7s %6s %-6s %10s %9s %9s %7s %6s %9s %s\n",
                "type", "op", "var", "n", "nb", "offset", "ranks", "gpus", "reducer", "chunks",
                "vec", "time", "GB/s", "1gpu", "speedup", "eff", "error", "status");
    std::printf("%-4s %-4s %-3s %7s %5s %6s %5s %4s %-7s %6s %-6s %10s %9s %9s %7s %6s %9s %s\n",
                "", "", "", "", "", "", "", "", "", "", "", "(ms)", "(aggr.)", "(ms)", "", "", "",
                "");
    std::fflush(stdout);
  }
  void add(const Row& r) {
    if (!count(r.status)) return;
    std::printf("%-4c %-4s %-3s %7lld %5lld %6lld %5d %4d %-7s %6d %-6s %10s %9s %9s %7s %6s %9s %s\n",
                r.type, r.op.c_str(), r.variant.c_str(), static_cast<long long>(r.n),
                static_cast<long long>(r.nb), static_cast<long long>(r.off), r.ranks, r.gpus,
                r.reducer.c_str(), r.chunks, r.vec.c_str(), num(r.ms, "%.4f").c_str(),
                num(r.gbs, "%.1f").c_str(), num(r.ref_ms, "%.4f").c_str(),
                num(r.speedup, "%.3f").c_str(), num(r.eff, "%.3f").c_str(),
                num(r.error, "%.2e").c_str(), r.status.c_str());
    std::fflush(stdout);
    if (csv_.is_open())
      csv_ << r.type << ',' << r.op << ',' << r.variant << ',' << r.n << ',' << r.nb << ','
           << r.off << ',' << r.ranks << ',' << r.gpus << ',' << r.reducer << ',' << r.chunks
           << ',' << r.vec << ',' << r.ms << ',' << r.gbs << ',' << r.ref_ms << ',' << r.speedup
           << ',' << r.eff << ',' << r.error << ',' << r.status << '\n';
  }
};

// ---- one distributed case ----------------------------------------------------------

struct RunSpec {
  OpSpec op;
  int64_t n, nb, off;
  std::string vec;
};

/// Runs one distributed configuration: returns the row (same verdict on every rank).
template <Scalar T>
Row run_dist(Reducer& red, const DistMatrix<T>& A, const Options& o, const RunSpec& rs, T alpha,
             T beta, const std::vector<T>& x, const std::vector<T>& y0, const Reference& ref) {
  Context& ctx = red.context();
  const Communicator& comm = ctx.comm();
  const OpSpec& s = rs.op;
  const Sub sub{rs.n - rs.off, rs.n - rs.off};
  Row row{precision_letter<T>(), s.name(), s.variant(), rs.n, rs.nb, rs.off, ctx.nranks(),
          ctx.global_num_devices(), to_string(red.kind()), red.pipeline_chunks(), rs.vec,
          std::numeric_limits<double>::quiet_NaN(), 0, ref.ms, 0, 0,
          std::numeric_limits<double>::quiet_NaN(), "ok"};
  const BlockCyclic1D columns(1, rs.n, rs.nb, ctx.global_num_devices());
  const bool cyclic = rs.vec == "cyclic";
  const bool cyclic_x = cyclic && s.op == Op::N, cyclic_y = cyclic && s.op != Op::N;

  // Operands in the asked form (a block-cyclic vector is full length; its entries before
  // the offset are zeros here, never read or written by the call).
  std::unique_ptr<DistVector<T>> dx, dy;
  std::vector<T> y_host = y0;
  const auto full = [&](const std::vector<T>& v) {
    std::vector<T> f(static_cast<std::size_t>(rs.n), T(0));
    std::copy(v.begin(), v.end(), f.begin() + rs.off);
    return f;
  };
  all_or_nothing(comm, "mgblas-tester dist operands", [&] {
    if (rs.vec == "host") return;
    dx = cyclic_x ? std::make_unique<DistVector<T>>(red.context_ptr(), columns)
                  : std::make_unique<DistVector<T>>(red.context_ptr(), static_cast<int64_t>(x.size()));
    dy = cyclic_y ? std::make_unique<DistVector<T>>(red.context_ptr(), columns)
                  : std::make_unique<DistVector<T>>(red.context_ptr(), static_cast<int64_t>(y0.size()));
  });
  const auto reset_y = [&] {
    if (!dy) y_host = y0;
    else if (cyclic_y) dy->distribute_replicated(full(y0).data());
    else dy->distribute_replicated(y0.data());
  };
  if (dx) dx->distribute_replicated(cyclic_x ? full(x).data() : x.data());
  reset_y();

  const auto call = [&] {
    if (!dx) {
      if (s.kind == 'G')
        gemv_mgpu_offset(red, s.op, alpha, A, rs.off, rs.off, x.data(), beta, y_host.data());
      else if (s.kind == 'S')
        symv_mgpu_offset(red, s.uplo, alpha, A, rs.off, x.data(), beta, y_host.data());
      else
        hemv_mgpu_offset(red, s.uplo, alpha, A, rs.off, x.data(), beta, y_host.data());
    } else {
      if (s.kind == 'G')
        gemv_mgpu_offset(red, s.op, alpha, A, rs.off, rs.off, *dx, beta, *dy);
      else if (s.kind == 'S')
        symv_mgpu_offset(red, s.uplo, alpha, A, rs.off, *dx, beta, *dy);
      else
        hemv_mgpu_offset(red, s.uplo, alpha, A, rs.off, *dx, beta, *dy);
    }
  };

  // The checked call, from y0.
  call();
  const int64_t len_y = sub.len_y(s);
  std::vector<T> y(static_cast<std::size_t>(len_y));
  if (!dy) {
    y = y_host;
  } else if (cyclic_y) {
    std::vector<T> f(static_cast<std::size_t>(rs.n));
    dy->collect(ctx.rank() == 0 ? f.data() : nullptr, 0);
    std::copy(f.begin() + rs.off, f.end(), y.begin());
  } else if (ctx.rank() == 0) {
    copy_vector(ctx.device(0), len_y, dy->local(0), y.data());
  }
  double err = std::numeric_limits<double>::quiet_NaN();
  if (o.check && ref.ok && ctx.rank() == 0) {
    //  +----------------------------------------------------------------------------+
    //  |  err = ||y - y_1gpu|| / ((k |alpha| ||S||_F ||x|| + |beta| ||y0||) eps)      |
    //  |  ||S||_F^2 ~ entries * reals / 3 (uniform [-1, 1) parts; symv/hemv: the     |
    //  |  full square, which the stored triangle stands for)                         |
    //  +----------------------------------------------------------------------------+
    const T* yr = reinterpret_cast<const T*>(ref.y_bytes.data());
    double d = 0;
    for (int64_t i = 0; i < len_y; ++i) d += std::norm(std::complex<double>(y[i] - yr[i]));
    d = std::sqrt(d);
    const double reals = is_complex_v<T> ? 2.0 : 1.0;
    const double normS = std::sqrt(static_cast<double>(sub.m) * sub.n * reals / 3.0);
    const double k = static_cast<double>(sub.len_x(s));
    err = relative_error(d, k, alpha, normS, host_norm(x), beta, host_norm(y0));
  }
  comm.bcast(&err, sizeof err, 0);
  row.error = err;
  const double tol = tolerance<T>(o.tol);
  if (std::isfinite(err) && err > tol) row.status = "FAILED";
  if (std::isinf(err)) row.status = "FAILED";

  // Timed calls.
  for (int r = 0; r < o.warmup; ++r) call();
  comm.barrier();
  std::vector<int64_t> ns(static_cast<std::size_t>(std::max(1, o.niter)));
  for (auto& t : ns) {
    const auto t0 = std::chrono::steady_clock::now();
    call();
    t = std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now() - t0)
            .count();
  }
  std::sort(ns.begin(), ns.end());
  const int64_t median = ns[ns.size() / 2];
  row.ms = static_cast<double>(comm.allreduce_max(median)) * 1e-6;
  row.gbs = traffic_bytes<T>(s, sub) / (row.ms * 1e6);
  if (std::isfinite(ref.ms) && row.ms > 0) {
    row.speedup = ref.ms / row.ms;
    row.eff = row.speedup / row.gpus;
  } else {
    row.speedup = row.eff = std::numeric_limits<double>::quiet_NaN();
  }
  return row;
}

struct ReducerSpec {
  std::unique_ptr<Reducer> red;
};

template <Scalar T>
void run_type(const std::shared_ptr<Context>& ctx, const Options& o, std::vector<ReducerSpec>& reds,
              const std::vector<int64_t>& sizes, Report& report) {
  const Communicator& comm = ctx->comm();
  std::vector<OpSpec> specs;
  for (const auto& op : o.ops) {
    if (op == "gemv") {
      for (const auto& t : o.trans) specs.push_back({'G', t == "N" ? Op::N : t == "T" ? Op::T : Op::C});
    } else if (op == "symv" || op == "hemv") {
      for (const auto& u : o.uplos)
        specs.push_back({op == "symv" ? 'S' : 'H', Op::N, u == "U" ? Uplo::Upper : Uplo::Lower});
    } else {
      throw std::invalid_argument("unknown --op " + op);
    }
  }
  const T alpha = scalar<T>(0.75, 0.5), beta = scalar<T>(-0.5, 0.25);
  for (int64_t n : sizes)
    for (const OpSpec& s : specs)
      for (int64_t off : o.offsets) {
        if (off < 0 || off >= n) continue;
        const Sub sub{n - off, n - off};
        const auto x = host_vector<T>(sub.len_x(s), o.seed + 1);
        const auto y0 = host_vector<T>(sub.len_y(s), o.seed + 2);
        const Reference ref = reference<T>(*ctx, o, s, n, off, alpha, beta, x, y0);
        for (int64_t nb : o.nbs) {
          std::unique_ptr<DistMatrix<T>> A;
          const BlockCyclic1D L(n, n, nb, ctx->global_num_devices());
          bool made = true;
          try {
            all_or_nothing(comm, "mgblas-tester dist matrix", [&] {
              A = std::make_unique<DistMatrix<T>>(ctx, L);
              for (int d = 0; d < ctx->num_devices(); ++d) {
                const Device& dev = ctx->device(d);
                dev.make_current();
                fill_block_cyclic(dev, A->local(d), A->ld(), L, ctx->device_offset() + d,
                                  is_complex_v<T> ? 2 : 1, sizeof(real_type_t<T>) == 8, o.seed);
              }
              ctx->synchronize();
            });
          } catch (const std::exception& e) {
            if (ctx->rank() == 0) std::printf("# n=%lld nb=%lld: no matrix: %s\n",
                                              static_cast<long long>(n), static_cast<long long>(nb), e.what());
            made = false;
          }
          for (auto& rspec : reds)
            for (const auto& vec : o.vectors) {
              if (!made) break;
              if (vec == "cyclic" && s.kind != 'G') continue;
              Row row;
              try {
                row = run_dist<T>(*rspec.red, *A, o, {s, n, nb, off, vec}, alpha, beta, x, y0, ref);
              } catch (const std::exception& e) {
                if (ctx->rank() == 0) std::printf("# error: %s\n", e.what());
                row = Row{precision_letter<T>(), s.name(), s.variant(), n, nb, off, ctx->nranks(),
                          ctx->global_num_devices(), to_string(rspec.red->kind()),
                          rspec.red->pipeline_chunks(), vec,
                          std::numeric_limits<double>::quiet_NaN(), 0, ref.ms, 0, 0,
                          std::numeric_limits<double>::quiet_NaN(), "ERROR"};
              }
              report.add(row);
            }
        }
      }
}

int run(int argc, char** argv, int world_rank) {
  Options o;
  CLI::App app{
      "mgblas-tester dist: check and time distributed gemv/symv/hemv against mgblas on 1 GPU"};
  app.add_option("--op", o.ops, "operations: gemv, symv, hemv")->delimiter(',')->capture_default_str();
  add_type_option(app, o.types);
  app.add_option("--trans", o.trans, "gemv ops: N, T, C")->delimiter(',')->capture_default_str();
  app.add_option("--uplo", o.uplos, "symv/hemv triangles: L, U")->delimiter(',')->capture_default_str();
  app.add_option("-n,--n", o.nlist, "matrix orders, comma list")->delimiter(',');
  app.add_option("--range", o.range, "matrix orders start:stop:step");
  app.add_option("--nb", o.nbs, "block column widths of the layout, comma list")
      ->delimiter(',')
      ->capture_default_str();
  app.add_option("--offset", o.offsets, "submatrix offsets (trailing A(off:n, off:n)), comma list")
      ->delimiter(',')
      ->capture_default_str();
  app.add_option("--reducer", o.reducers, "reducers: host, nccl")->delimiter(',')->capture_default_str();
  app.add_option("--chunks", o.chunks, "pipeline chunks of the NCCL reducer, comma list")
      ->delimiter(',')
      ->capture_default_str();
  app.add_option("--vectors", o.vectors, "device (replicated DistVectors), host, cyclic")
      ->delimiter(',')
      ->capture_default_str();
  add_common_options(app, o, "the 1-GPU engine", " (rank 0)");
  app.add_flag("--ref,!--no-ref", o.ref, "time the 1-GPU engine for the speedup")->capture_default_str();
  app.add_option("--symv-path", o.symv_path, "kernel or engine (sets MGBLAS_DIST_SYMV)");
  add_backend_option(app, o.backend);
  if (const int status = parse_on_every_rank(app, argc, argv, world_rank); status >= 0)
    return status;
  if (o.niter < 1) o.niter = 1;
  if (!o.symv_path.empty()) ::setenv("MGBLAS_DIST_SYMV", o.symv_path.c_str(), 1);

  const auto ctx = open_context(o.backend, world_rank);
  if (!ctx) return kSkipped;
  const bool root = ctx->rank() == 0;

  std::vector<int64_t> sizes = o.nlist;
  if (!o.range.empty())
    for (int64_t v : parse_range(o.range)) sizes.push_back(v);
  if (sizes.empty()) sizes = {8192};

  // Reducers: every asked kind, NCCL once per chunk count (the host reducer's copies are
  // not overlapped with anything, so it runs unchunked only).
  std::vector<ReducerSpec> reds;
  std::string nccl_text = "not used";
  for (const auto& r : o.reducers) {
    if (r == "host") {
      reds.push_back({make_reducer(ctx, ReducerKind::Host)});
    } else if (r == "nccl") {
      for (int c : o.chunks) {
        try {
          auto red = make_reducer(ctx, ReducerKind::Nccl);
          red->set_pipeline_chunks(c);
          nccl_text = red->description();
          reds.push_back({std::move(red)});
        } catch (const std::exception& e) {
          nccl_text = std::string("unavailable: ") + e.what();
          break;
        }
      }
    } else {
      throw std::invalid_argument("unknown --reducer " + r);
    }
  }

  print_ranks_header(*ctx, "mgblas-tester dist",
                     {"reducer nccl: " + nccl_text, env_setting("MGBLAS_DIST_SYMV", "(kernel)") +
                                                        " " + env_setting("NCCL_NVLS_ENABLE")},
                     argc, argv,
                     "distributed, median of " + std::to_string(o.niter) +
                         " host-timed calls after " + std::to_string(o.warmup) +
                         " warm-up, max over ranks; 1gpu: engine on rank 0's first GPU, CUDA "
                         "events, median");
  Report report(root, o.csv);
  report.header();
  for (const auto& t : o.types)
    for_type(t, [&](auto tag) { run_type<decltype(tag)>(ctx, o, reds, sizes, report); });
  return report.close();
}

}  // namespace
}  // namespace mgblas::testers

namespace mgblas::testers {
// `mgblas-tester dist` (testers/mgblas_tester.cpp).
int dist_main(int argc, char** argv) {
  return mpi_tester_main("mgblas-tester dist", argc, argv, run);
}
}  // namespace mgblas::testers
