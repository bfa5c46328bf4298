// SPDX-License-Identifier: BSD-3-Clause
// mgblas-tester allreduce: times the library's own per-column collective, the in-place sum
// all-reduce of one vector per device over every device of every rank
// (detail::DeviceCollectives::allreduce_sum, which hetrd_mgpu and gebrd_mgpu call once per
// column), over a geometric list of message sizes, and fits t = alpha + bytes / beta to
// the times: the collective's latency and bandwidth of issue 15's cost model.
//
//   mgblas-tester allreduce                               (d, 8 B .. 256 MiB, nccl then host)
//   MGBLAS_DEVICES=0,1,2,3 mgblas-tester allreduce --transport nccl --csv ar.csv   (1 rank x 4)
//   mpirun -np 4 mgblas-tester allreduce --transport nccl                         (4 ranks x 1)
//   mgblas-tester allreduce --sizes 8,64K,1M --type d,z
//
// A message of `bytes` is bytes / element size elements (at least one) on every device,
// summed in place. With --check (the default), device g first holds x_g from
// (seed + g, index), and one call must leave sum_g x_g on every device; the buffers are
// then zeroed for the timed calls. Columns:
//   ranks gpus   MPI ranks, devices over all ranks (G)
//   transport    nccl (queued on each device's stream) or host (staged through pinned
//                host memory and MPI), as DeviceCollectives resolves --transport
//   bytes count  the message per device, in bytes and elements
//   time         microseconds per call, median of --niter calls after --warmup: before
//                each call every device is synchronised and the ranks meet at a barrier,
//                then the call is timed on the host until wait() returns (every local
//                device done); the largest of the ranks' medians
//   algbw busbw  bytes / time, GB/s; busbw = algbw * 2 (G - 1) / G (nccl-tests' bus
//                bandwidth of an all-reduce; '-' for one device)
//   queued       microseconds per call of --niter calls queued back to back and one
//                wait(), as a reduction's column loop issues them (host staging returns
//                when done, so there it is about `time`); the largest over the ranks
//   error        sqrt(mean over devices of ||y_d - s||^2) / ((G - 1) eps ||a||), s the
//                exact sum of the x_g, a = sum_g |x_g|; ok when <= --tol (x sqrt(2) for
//                complex)
// With one device in all there is nothing to sum and the library returns at once: the
// times are the call's and wait()'s overhead.
// After each (type, transport) a '#' line gives the fit of t = alpha + bytes / beta to
// `time` and to `queued`: least squares on the relative residuals t_fit / t - 1 (weights
// 1 / t^2), so that 8 B and 256 MiB weigh alike, over the sizes whose status is ok;
// alpha in us, beta in GB/s, and the largest |t_fit / t - 1|.
// Exit status: the number of failed or broken cases (no GPU: 77, the tests' skip code).
#include <CLI/CLI.hpp>
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <memory>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "core/context.hpp"
#include "core/memory.hpp"
#include "core/types.hpp"
#include "dist/detail/device_collectives.hpp"
#include "dist/nccl_comm.hpp"
#include "dist/reducer.hpp"
#include "testers/subcommands.hpp"
#include "testers/tester_common.hpp"
#include "testers/tester_dist_fill.hpp"
#include "testers/tester_ranks.hpp"

namespace mgblas::testers {
namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

struct Options : CommonOptions {
  Options() { types = {"d"}; }
  std::vector<std::string> sizes;
  std::string sweep = "8:256M:2";
  std::vector<std::string> transports{"nccl", "host"};
  std::string backend = "cuda";
};

// ---- message sizes ---------------------------------------------------------------------

/// Bytes of "<n>[K|M|G]" (powers of 1024).
int64_t parse_bytes(const std::string& s) {
  char* end = nullptr;
  const long long v = std::strtoll(s.c_str(), &end, 10);
  const std::string suffix(end);
  const int64_t unit = suffix.empty() ? 1
                       : suffix == "K" || suffix == "k" ? int64_t{1} << 10
                       : suffix == "M" || suffix == "m" ? int64_t{1} << 20
                       : suffix == "G" || suffix == "g" ? int64_t{1} << 30
                                                        : 0;
  if (end == s.c_str() || unit == 0 || v <= 0)
    throw std::invalid_argument("message size '" + s +
                                "': a positive number of bytes, optionally with K, M or G");
  return static_cast<int64_t>(v) * unit;
}

/// --sizes if given, else the --sweep START:STOP[:FACTOR] (START, START x FACTOR, ...,
/// up to STOP).
std::vector<int64_t> message_sizes(const Options& o) {
  std::vector<int64_t> out;
  for (const auto& s : o.sizes) out.push_back(parse_bytes(s));
  if (!out.empty()) return out;
  std::vector<std::string> parts;
  std::istringstream in(o.sweep);
  for (std::string p; std::getline(in, p, ':');) parts.push_back(p);
  if (parts.size() < 2 || parts.size() > 3)
    throw std::invalid_argument("--sweep wants START:STOP[:FACTOR]");
  const int64_t start = parse_bytes(parts[0]), stop = parse_bytes(parts[1]);
  const int64_t factor = parts.size() == 3 ? std::stoll(parts[2]) : 2;
  if (factor < 2) throw std::invalid_argument("--sweep: FACTOR must be 2 or more");
  for (int64_t b = start; b <= stop; b *= factor) out.push_back(b);
  return out;
}

// ---- the fit ---------------------------------------------------------------------------

struct Fit {
  double alpha_us = kNaN, beta_gbs = kNaN, max_dev = kNaN;
};

//  +--------------------------------------------------------------------------+
//  |  t = alpha + s bytes, min sum_i ((alpha + s x_i) / t_i - 1)^2:           |
//  |  weighted least squares, w_i = 1 / t_i^2; beta = 1 / s                   |
//  +--------------------------------------------------------------------------+
Fit fit_alpha_beta(const std::vector<double>& bytes, const std::vector<double>& us) {
  double sw = 0, sx = 0, sy = 0, sxx = 0, sxy = 0;
  int k = 0;
  for (std::size_t i = 0; i < bytes.size(); ++i) {
    const double t = us[i], x = bytes[i];
    if (!(t > 0) || !std::isfinite(t)) continue;
    const double w = 1 / (t * t);
    sw += w, sx += w * x, sy += w * t, sxx += w * x * x, sxy += w * x * t;
    ++k;
  }
  Fit f;
  const double det = sw * sxx - sx * sx;
  if (k < 2 || !(det > 0)) return f;
  const double slope = (sw * sxy - sx * sy) / det;  // us per byte
  f.alpha_us = (sy - slope * sx) / sw;
  f.beta_gbs = slope > 0 ? 1e-3 / slope : std::numeric_limits<double>::infinity();
  f.max_dev = 0;
  for (std::size_t i = 0; i < bytes.size(); ++i)
    if (us[i] > 0 && std::isfinite(us[i]))
      f.max_dev = std::max(f.max_dev, std::abs((f.alpha_us + slope * bytes[i]) / us[i] - 1));
  return f;
}

// ---- output ----------------------------------------------------------------------------

struct Row {
  char type;
  std::string transport;
  int ranks, gpus;
  int64_t bytes, count;
  double time_us = kNaN, algbw = kNaN, busbw = kNaN, queued_us = kNaN, error = kNaN;
  std::string status = "ok";
};

class Report : public RanksReport {
 public:
  Report(bool root, const std::string& csv)
      : RanksReport(root, csv,
                    "type,transport,ranks,gpus,bytes,count,time_us,algbw_gbs,busbw_gbs,queued_us,"
                    "error,status") {}
  void header() const {
    if (!root_) return;
    std::printf("%-4s %-9s %5s %4s %10s %9s %10s %8s %8s %10s %9s %s\n", "type", "transport",
                "ranks", "gpus", "bytes", "count", "time", "algbw", "busbw", "queued", "error",
                "status");
    std::printf("%-4s %-9s %5s %4s %10s %9s %10s %8s %8s %10s %9s %s\n", "", "", "", "", "", "",
                "(us)", "(GB/s)", "(GB/s)", "(us)", "", "");
    std::fflush(stdout);
  }
  void add(const Row& r) {
    if (!count(r.status)) return;
    std::printf("%-4c %-9s %5d %4d %10lld %9lld %10s %8s %8s %10s %9s %s\n", r.type,
                r.transport.c_str(), r.ranks, r.gpus, static_cast<long long>(r.bytes),
                static_cast<long long>(r.count), num(r.time_us, "%.2f").c_str(),
                num(r.algbw, "%.2f").c_str(), num(r.busbw, "%.2f").c_str(),
                num(r.queued_us, "%.2f").c_str(), num(r.error, "%.2e").c_str(), r.status.c_str());
    std::fflush(stdout);
    if (csv_.is_open())
      csv_ << r.type << ',' << r.transport << ',' << r.ranks << ',' << r.gpus << ',' << r.bytes
           << ',' << r.count << ',' << r.time_us << ',' << r.algbw << ',' << r.busbw << ','
           << r.queued_us << ',' << r.error << ',' << r.status << '\n';
  }
  /// The '#' line of the fit of one (type, transport) over its rows.
  void fit(const std::vector<Row>& rows) const {
    if (!root_ || rows.empty()) return;
    std::vector<double> x, t, q;
    for (const Row& r : rows) {
      x.push_back(static_cast<double>(r.bytes));
      t.push_back(r.time_us);
      q.push_back(r.queued_us);
    }
    const Row& r = rows.front();
    std::printf("# fit %c %s, %d rank(s), %d device(s), %zu sizes: t = alpha + bytes / beta\n",
                r.type, r.transport.c_str(), r.ranks, r.gpus, rows.size());
    for (const auto& [label, ys] : {std::pair{"time", &t}, std::pair{"queued", &q}}) {
      const Fit f = fit_alpha_beta(x, *ys);
      if (r.gpus == 1) {
        std::printf("#   %-6s alpha = %.2f us (one device: nothing to sum, no beta)\n", label,
                    f.alpha_us);
        continue;
      }
      std::printf("#   %-6s alpha = %.2f us, beta = %.2f GB/s, max |fit / measured - 1| = %.0f %%\n",
                  label, f.alpha_us, f.beta_gbs, 100 * f.max_dev);
    }
    std::fflush(stdout);
  }
};

// ---- one message size ------------------------------------------------------------------

/// Fills device g with x_g, sums once, returns the error of the sum (same on every rank).
template <Scalar T>
double check_sum(Context& ctx, detail::DeviceCollectives& coll, const std::vector<T*>& bufs,
                 int64_t count, uint64_t seed) {
  using R = real_type_t<T>;
  const int reals = is_complex_v<T> ? 2 : 1;
  const int G = ctx.global_num_devices();
  for (int d = 0; d < ctx.num_devices(); ++d)
    fill_matrix(ctx.device(d), bufs[d], count, count, 1, reals, sizeof(R) == 8,
                seed + static_cast<uint64_t>(ctx.device_offset() + d));
  ctx.synchronize();
  coll.allreduce_sum<T>(bufs, count);
  coll.wait();
  // The exact sum of the stored (rounded) x_g, and ||sum_g |x_g| ||.
  const int64_t n = count * reals;
  std::vector<double> s(static_cast<std::size_t>(n));
  double a2 = 0;
  for (int64_t k = 0; k < n; ++k) {
    double sum = 0, mag = 0;
    for (int g = 0; g < G; ++g) {
      const double v = static_cast<R>(dist_value(seed + static_cast<uint64_t>(g), k));
      sum += v;
      mag += std::abs(v);
    }
    s[k] = sum;
    a2 += mag * mag;
  }
  double d2 = 0;
  std::vector<R> y(static_cast<std::size_t>(n));
  for (int d = 0; d < ctx.num_devices(); ++d) {
    const Device& dev = ctx.device(d);
    dev.make_current();
    copy_vector(dev, count, bufs[d], reinterpret_cast<T*>(y.data()));
    for (int64_t k = 0; k < n; ++k) d2 += (y[k] - s[k]) * (y[k] - s[k]);
  }
  ctx.comm().allreduce_sum(&d2, 1);
  const double eps = std::numeric_limits<R>::epsilon();
  const double denom = std::max(G - 1, 1) * eps * std::sqrt(a2);
  const double rms = std::sqrt(d2 / G);
  if (std::isnan(rms)) return std::numeric_limits<double>::infinity();
  return denom > 0 ? rms / denom : rms / eps;
}

/// Largest over the ranks of each rank's value, microseconds from nanoseconds.
double max_over_ranks_us(const Communicator& comm, double ns) {
  return static_cast<double>(comm.allreduce_max(std::llround(ns))) * 1e-3;
}

template <Scalar T>
void time_size(Context& ctx, detail::DeviceCollectives& coll, const std::vector<T*>& bufs,
               const Options& o, Row& row) {
  const Communicator& comm = ctx.comm();
  const int64_t count = row.count;
  if (o.check) {
    row.error = check_sum<T>(ctx, coll, bufs, count, o.seed);
    if (!(row.error <= tolerance<T>(o.tol))) row.status = "FAILED";
  }
  for (int d = 0; d < ctx.num_devices(); ++d)
    memset_bytes(ctx.device(d), bufs[d], 0, static_cast<std::size_t>(count) * sizeof(T));
  ctx.synchronize();
  for (int r = 0; r < o.warmup; ++r) {
    coll.allreduce_sum<T>(bufs, count);
    coll.wait();
  }
  using clock = std::chrono::steady_clock;
  const auto ns_since = [](clock::time_point t0) {
    return std::chrono::duration<double, std::nano>(clock::now() - t0).count();
  };
  // One call at a time, from synchronised devices and ranks.
  std::vector<double> ns(static_cast<std::size_t>(o.niter));
  for (auto& t : ns) {
    ctx.synchronize();
    comm.barrier();
    const auto t0 = clock::now();
    coll.allreduce_sum<T>(bufs, count);
    coll.wait();
    t = ns_since(t0);
  }
  row.time_us = max_over_ranks_us(comm, median_of(std::move(ns)));
  // Back to back, one wait at the end.
  ctx.synchronize();
  comm.barrier();
  const auto t0 = clock::now();
  for (int r = 0; r < o.niter; ++r) coll.allreduce_sum<T>(bufs, count);
  coll.wait();
  row.queued_us = max_over_ranks_us(comm, ns_since(t0) / o.niter);
  const double bytes = static_cast<double>(count) * sizeof(T);
  row.algbw = bytes / (row.time_us * 1e3);
  const int G = row.gpus;
  row.busbw = G > 1 ? row.algbw * 2.0 * (G - 1) / G : kNaN;
}

// ---- one (type, transport) -------------------------------------------------------------

template <Scalar T>
void run_transport(const std::shared_ptr<Context>& ctx, const Options& o, ReducerKind kind,
                   const std::vector<int64_t>& sizes, Report& report) {
  const Communicator& comm = ctx->comm();
  std::unique_ptr<detail::DeviceCollectives> coll;
  try {
    coll = std::make_unique<detail::DeviceCollectives>(*ctx, kind);
  } catch (const std::exception& e) {
    if (ctx->rank() == 0)
      std::printf("# transport %s: unavailable: %s\n", to_string(kind), e.what());
    return;
  }
  const std::string transport = coll->uses_nccl() ? "nccl" : "host";
  const auto count_of = [](int64_t bytes) {
    return std::max<int64_t>(1, bytes / static_cast<int64_t>(sizeof(T)));
  };
  int64_t max_count = 0;
  for (int64_t b : sizes) max_count = std::max(max_count, count_of(b));
  std::vector<DeviceBuffer<T>> mem;
  std::vector<T*> bufs;
  all_or_nothing(comm, "mgblas-tester allreduce buffers", [&] {
    for (int d = 0; d < ctx->num_devices(); ++d) {
      mem.emplace_back(ctx->device(d), static_cast<std::size_t>(max_count));
      bufs.push_back(mem.back().data());
    }
  });
  std::vector<Row> rows;
  for (int64_t b : sizes) {
    const int64_t count = count_of(b);
    Row row{precision_letter<T>(), transport, ctx->nranks(), ctx->global_num_devices(),
            count * static_cast<int64_t>(sizeof(T)), count};
    try {
      time_size<T>(*ctx, *coll, bufs, o, row);
    } catch (const std::exception& e) {
      if (ctx->rank() == 0) std::printf("# error: %s\n", e.what());
      row.status = "ERROR";
    }
    report.add(row);
    if (row.status == "ok") rows.push_back(row);
  }
  report.fit(rows);
}

ReducerKind kind_of(const std::string& t) {
  if (t == "nccl") return ReducerKind::Nccl;
  if (t == "host") return ReducerKind::Host;
  if (t == "auto") return ReducerKind::Auto;
  throw std::invalid_argument("unknown --transport " + t);
}

int run(int argc, char** argv, int world_rank) {
  Options o;
  CLI::App app{
      "mgblas-tester allreduce: time the library's per-column all-reduce and fit alpha-beta"};
  add_type_option(app, o.types);
  app.add_option("-s,--sizes", o.sizes,
                 "message sizes per device in bytes, K, M or G suffix (powers of 1024), comma "
                 "list; replaces --sweep")
      ->delimiter(',');
  app.add_option("--sweep", o.sweep, "geometric sizes START:STOP[:FACTOR], bytes as in --sizes")
      ->capture_default_str();
  app.add_option("--transport", o.transports, "nccl, host, auto (as ReducerKind)")
      ->delimiter(',')
      ->capture_default_str();
  add_common_options(app, o, "the exact sum", " (rank 0)");
  add_backend_option(app, o.backend);
  if (const int status = parse_on_every_rank(app, argc, argv, world_rank); status >= 0)
    return status;
  if (o.niter < 1) o.niter = 1;
  const std::vector<int64_t> sizes = message_sizes(o);
  std::vector<ReducerKind> kinds;
  for (const auto& t : o.transports) kinds.push_back(kind_of(t));

  const auto ctx = open_context(o.backend, world_rank);
  if (!ctx) return kSkipped;
  const bool root = ctx->rank() == 0;
  // NCCL's version and reach, when a transport may use it (made here once, collectively,
  // and kept with the context for the collectives).
  std::string nccl_text = NcclCommunicator::available() ? "not used" : "not built";
  const bool wants_nccl = std::any_of(kinds.begin(), kinds.end(),
                                      [](ReducerKind k) { return k != ReducerKind::Host; });
  if (NcclCommunicator::available() && wants_nccl && o.backend == "cuda") {
    try {
      nccl_text = NcclCommunicator::of(*ctx)->description();
    } catch (const std::exception& e) {
      nccl_text = std::string("unavailable: ") + e.what();
    }
  }
  print_ranks_header(*ctx, "mgblas-tester allreduce",
                     {"NCCL: " + nccl_text, env_setting("NCCL_NVLS_ENABLE"),
                      "collective: detail::DeviceCollectives::allreduce_sum, in place"},
                     argc, argv,
                     "host clock, median of " + std::to_string(o.niter) + " calls after " +
                         std::to_string(o.warmup) +
                         " warm-up, devices synchronised and ranks at a barrier before each; "
                         "queued: " + std::to_string(o.niter) +
                         " calls back to back, one wait; max over ranks");
  Report report(root, o.csv);
  report.header();
  for (const auto& t : o.types)
    for_type(t, [&](auto tag) {
      for (ReducerKind k : kinds) run_transport<decltype(tag)>(ctx, o, k, sizes, report);
    });
  return report.close();
}

}  // namespace
}  // namespace mgblas::testers

namespace mgblas::testers {
// `mgblas-tester allreduce` (testers/mgblas_tester.cpp).
int allreduce_main(int argc, char** argv) {
  return mpi_tester_main("mgblas-tester allreduce", argc, argv, run);
}
}  // namespace mgblas::testers
