// SPDX-License-Identifier: BSD-3-Clause
// mgblas-tester blas: checks and times mgblas's own level-2 kernels (GEMV N/T/C, SYMV/HEMV
// L/U, whole matrices and submatrices) against cuBLAS on the same device data, in the
// MAGMA / nccl-tests manner (STYLE.md section 9).
//
//   mgblas-tester blas --op gemv,symv --type s,d,c,z --range 8192:32768:8192
//   mgblas-tester blas --op gemv --trans N --type d --parent 16384 --offset 0,1,17,33
//   mgblas-tester blas --op symv --type d -n 4096 --sweep          (every compiled tuning set)
//
// At start it measures the device's copy bandwidth (cudaMemcpyAsync device to device,
// bytes read + written, median of 20). Each case fills A, x, y with uniform [-1, 1)
// values on the device, checks mgblas against cuBLAS once, then times both with CUDA
// events: `--warmup` untimed calls, then the median of `--niter` timed calls. When A is
// smaller than 3x the L2 cache, the calls rotate over copies of A so that every call
// reads A from device memory. Columns:
//   time      median milliseconds of the public call (mgblas::gemv_offset, symv_offset,
//             hemv_offset: what the dispatcher runs, cuBLAS included); with --sweep,
//             of each tuning set forced, one row each
//   GFLOP/s   2mn (real) or 8mn (complex) flops; SYMV/HEMV 2n^2 / 8n^2
//   GB/s      bytes of A only: m n elements (GEMV), n (n + 1) / 2 (SYMV/HEMV)
//   %copy     GB/s over the measured copy bandwidth
//   cuBLAS    the same for cuBLAS on the same submatrix (SYMV: also atomics mode)
//   speedup   cuBLAS time / mgblas time
//   error     ||y_mgblas - y_cublas|| / ((k |alpha| ||A|| ||x|| + |beta| ||y0||) eps),
//             ||A|| over the parent's storage (>= the submatrix's, so a looser bound)
//   status    ok when error <= --tol (x sqrt(2) for complex)
//   engine    what the dispatcher would run for this call, and why
// Exit status: the number of failed checks.
#include <cublas_v2.h>
#include <cuda_runtime.h>

#include <CLI/CLI.hpp>
#include <algorithm>
#include <cmath>
#include <complex>
#include <cstdio>
#include <fstream>
#include <limits>
#include <memory>
#include <string>
#include <vector>

#include "core/detail/cuda_check.hpp"
#include "core/device.hpp"
#include "core/memory.hpp"
#include "core/types.hpp"
#include "kernels/blas.hpp"
#include "kernels/cuda/common/cublas.hpp"
#include "kernels/cuda/level2/gemv.hpp"
#include "kernels/cuda/level2/symv.hpp"
#include "kernels/cuda/level2/level2_dispatch.hpp"
#include "testers/subcommands.hpp"
#include "testers/tester_common.hpp"

namespace mgblas::testers {
namespace {

namespace l2 = kernels::cuda::level2;

struct Options : CommonOptions {
  std::vector<std::string> ops{"gemv", "symv"};
  std::vector<std::string> trans{"N", "T"};
  std::vector<std::string> uplos{"L", "U"};
  std::string range;
  std::vector<int64_t> nlist;
  std::vector<std::string> dims;
  std::vector<int64_t> offsets{0};
  int64_t parent = 0;
  bool sweep = false;
  bool symmetric = false;
  int64_t split = 0;
};

struct Shape {
  int64_t m, n;
};

// ---- counts (flops and the minimum traffic of A) -------------------------------------

template <Scalar T> double flops_mv(int64_t m, int64_t n) {
  return (is_complex_v<T> ? 8.0 : 2.0) * static_cast<double>(m) * static_cast<double>(n);
}
template <Scalar T> double bytes_gemv(int64_t m, int64_t n) {
  return static_cast<double>(m) * static_cast<double>(n) * sizeof(T);
}
template <Scalar T> double bytes_symv(int64_t n) {
  return static_cast<double>(n) * static_cast<double>(n + 1) / 2.0 * sizeof(T);
}

// ---- output ----------------------------------------------------------------------------

struct Row {
  char type;
  std::string op, uplo;
  int64_t m, n, off;
  double ms, gflops, gbs, pct, cublas_gbs, speedup, cublas_atomics_gbs, error;
  bool ok;
  std::string engine;
};

class Report {
 public:
  Report(double copy_bw, const std::string& csv) : copy_bw_(copy_bw) {
    if (!csv.empty()) {
      csv_.open(csv);
      csv_ << "type,op,uplo,m,n,offset,time_ms,gflops,gbs,pct_copy_bw,cublas_gbs,speedup,"
              "cublas_atomics_gbs,error,status,engine\n";
    }
  }
  void header() const {
    std::printf("%-4s %-5s %-4s %8s %8s %6s %10s %9s %8s %6s %8s %7s %8s %9s %-6s %s\n", "type",
                "op", "uplo", "m", "n", "offset", "time", "GFLOP/s", "GB/s", "%copy", "cuBLAS",
                "speedup", "cuBLAS-a", "error", "status", "engine");
    std::printf("%-4s %-5s %-4s %8s %8s %6s %10s %9s %8s %6s %8s %7s %8s %9s %-6s %s\n", "", "",
                "", "", "", "", "(ms)", "", "(A)", "", "GB/s", "", "GB/s", "", "", "");
  }
  void add(const Row& r) {
    const std::string atom = r.cublas_atomics_gbs > 0 ? format("%.1f", r.cublas_atomics_gbs) : "-";
    const std::string err = r.error >= 0 ? format("%.2e", r.error) : "-";
    std::printf("%-4c %-5s %-4s %8lld %8lld %6lld %10.4f %9.1f %8.1f %6.1f %8.1f %7.3f %8s %9s %-6s %s\n",
                r.type, r.op.c_str(), r.uplo.c_str(), static_cast<long long>(r.m),
                static_cast<long long>(r.n), static_cast<long long>(r.off), r.ms, r.gflops, r.gbs,
                r.pct, r.cublas_gbs, r.speedup, atom.c_str(), err.c_str(),
                r.ok ? "ok" : "FAILED", r.engine.c_str());
    std::fflush(stdout);
    if (csv_.is_open())
      csv_ << r.type << ',' << r.op << ',' << r.uplo << ',' << r.m << ',' << r.n << ',' << r.off
           << ',' << r.ms << ',' << r.gflops << ',' << r.gbs << ',' << r.pct << ','
           << r.cublas_gbs << ',' << r.speedup << ',' << r.cublas_atomics_gbs << ',' << r.error
           << ',' << (r.ok ? "ok" : "FAILED") << ",\"" << r.engine << "\"\n";
    if (!r.ok) ++failures_;
  }
  int failures() const { return failures_; }
  double copy_bw() const { return copy_bw_; }

 private:
  double copy_bw_;
  std::ofstream csv_;
  int failures_ = 0;
};

// ---- one case --------------------------------------------------------------------------

/// Operands of one case on the device: `copies` parent matrices back to back (rotated
/// through when small), x, the pristine y0 and the outputs of both engines.
template <Scalar T>
struct Operands {
  int64_t lda, cols, copies;
  DeviceBuffer<T> A, x, y0, y;
  Operands(const Device& dev, int64_t rows, int64_t cols_, int64_t len_x, int64_t len_y,
           std::size_t l2_bytes, uint64_t seed)
      : cols(cols_) {
    const int64_t per = 128 / static_cast<int64_t>(sizeof(T));  // lda: 128-byte multiple
    lda = std::max<int64_t>(per, (rows + per - 1) / per * per);
    const double bytes = static_cast<double>(lda) * cols * sizeof(T);
    copies = rotation_copies(l2_bytes, bytes, 64);
    A = DeviceBuffer<T>(dev, static_cast<std::size_t>(std::max<int64_t>(1, lda * cols * copies)));
    x = DeviceBuffer<T>(dev, static_cast<std::size_t>(std::max<int64_t>(1, len_x)));
    y0 = DeviceBuffer<T>(dev, static_cast<std::size_t>(std::max<int64_t>(1, len_y)));
    y = DeviceBuffer<T>(dev, static_cast<std::size_t>(std::max<int64_t>(1, len_y)));
    fill(dev, A.data(), static_cast<int64_t>(A.size()), seed);
    fill(dev, x.data(), static_cast<int64_t>(x.size()), seed + 1);
    fill(dev, y0.data(), static_cast<int64_t>(y0.size()), seed + 2);
  }
  const T* parent(int rep) const { return A.data() + (rep % copies) * lda * cols; }
};

template <Scalar T>
std::vector<T> download(const Device& dev, const DeviceBuffer<T>& d, int64_t n) {
  std::vector<T> h(static_cast<std::size_t>(std::max<int64_t>(n, 0)));
  copy_vector(dev, n, d.data(), h.data());
  return h;
}

//  +--------------------------------------------------------------------------+
//  |  err = ||y_mgblas - y_cublas|| / ((k |alpha| ||A|| ||x|| + |beta| ||y0||)  |
//  |                                    * eps)   (relative_error)             |
//  |  both results carry O(k eps) errors of their own; passes when            |
//  |  err <= tol (x sqrt(2) for complex)                                      |
//  +--------------------------------------------------------------------------+
template <Scalar T>
double check_error(const Device& dev, const Operands<T>& op, const DeviceBuffer<T>& y_mg,
                   const DeviceBuffer<T>& y_cb, int64_t len_x, int64_t len_y, int64_t k,
                   T alpha, T beta, double scale_A) {
  const auto a = download(dev, y_mg, len_y);
  const auto b = download(dev, y_cb, len_y);
  double d = 0;
  for (std::size_t i = 0; i < a.size(); ++i) d += std::norm(std::complex<double>(a[i] - b[i]));
  d = std::sqrt(d);
  const double normA =
      scale_A * nrm2(dev.cublas(), op.lda * op.cols, op.parent(0));
  const double normx = host_norm(download(dev, op.x, len_x));
  const double normy0 = host_norm(download(dev, op.y0, len_y));
  return relative_error(d, static_cast<double>(k), alpha, normA, normx, beta, normy0);
}

using Env = TesterEnv<Options, Report>;

template <Scalar T>
void run_gemv(Env& cx, Op op, Shape s, int64_t off) {
  const Device& dev = *cx.dev;
  const Options& o = *cx.opt;
  const int64_t m = s.m, n = s.n;
  const int64_t len_x = op == Op::N ? n : m, len_y = op == Op::N ? m : n;
  Operands<T> d(dev, off + m, off + n, len_x, len_y, cx.l2_bytes, cx.seed++);
  const T alpha = scalar<T>(0.75, 0.5), beta = scalar<T>(-0.5, 0.25);
  cudaStream_t st = dev.stream();
  const auto sub = [&](int rep) { return d.parent(rep) + off + off * d.lda; };
  const auto choice =
      l2::choose_gemv<T>(op, m, n, sub(0), d.lda, d.x.data(), 1, d.y.data(), 1);
  auto mg = [&](int v) {
    return [&, v](int rep) {
      l2::gemv<T>(st, op, m, n, alpha, d.parent(rep), d.lda, off, off, d.x.data(), 1, beta,
                  d.y.data(), 1, {v, o.split});
    };
  };
  auto cb = [&](int rep) {
    kernels::cuda::common::cublas::gemv<T>(dev.cublas(), st, op, m, n, alpha, sub(rep), d.lda,
                                   d.x.data(), 1, beta, d.y.data(), 1);
  };
  // The default row times what a user's call runs: the public entry, through the
  // dispatcher (its argument checks included, cuBLAS where it chose cuBLAS); --sweep
  // rows time each tuning set forced.
  const Queue q(dev, st);
  auto pub = [&](int rep) {
    gemv_offset<T>(q, op, m, n, alpha, d.parent(rep), d.lda, off, off, d.x.data(), 1, beta,
                   d.y.data(), 1);
  };
  double err = -1;
  if (o.check) {
    DeviceBuffer<T> y_cb(dev, d.y.size());
    copy_vector(dev, static_cast<int64_t>(d.y.size()), d.y0.data(), d.y.data());
    copy_vector(dev, static_cast<int64_t>(d.y.size()), d.y0.data(), y_cb.data());
    pub(0);
    kernels::cuda::common::cublas::gemv<T>(dev.cublas(), st, op, m, n, alpha, sub(0), d.lda, d.x.data(),
                                   1, beta, y_cb.data(), 1);
    err = check_error(dev, d, d.y, y_cb, len_x, len_y, len_x, alpha, beta, 1.0);
  }
  const double tol = tolerance<T>(o.tol);
  const double t_cb = median_ms(st, o.warmup, o.niter, cb);
  const double bytes = bytes_gemv<T>(m, n), flops = flops_mv<T>(m, n);
  std::vector<int> variants{choice.variant};
  if (o.sweep) {
    variants.clear();
    for (int v = 0; v < l2::gemv_variant_count<T>(op); ++v) variants.push_back(v);
  }
  for (int v : variants) {
    const double t = o.sweep ? median_ms(st, o.warmup, o.niter, mg(v))
                             : median_ms(st, o.warmup, o.niter, pub);
    const std::string engine =
        o.sweep ? l2::gemv_variant_name<T>(op, v)
                : std::string(l2::chosen_engine(choice));
    cx.report->add({precision_letter<T>(), std::string("gemv") + to_string(op), "-", m, n, off,
                    t, flops / (t * 1e6), bytes / (t * 1e6),
                    100.0 * bytes / (t * 1e6) / cx.report->copy_bw(), bytes / (t_cb * 1e6),
                    t_cb / t, -1.0, err, err <= tol, engine});
  }
}

template <Scalar T>
void run_symv(Env& cx, Uplo uplo, int64_t n, int64_t off) {
  const Device& dev = *cx.dev;
  const Options& o = *cx.opt;
  const bool herm = is_complex_v<T> && !o.symmetric;
  Operands<T> d(dev, off + n, off + n, n, n, cx.l2_bytes, cx.seed++);
  const T alpha = scalar<T>(0.75, 0.5), beta = scalar<T>(-0.5, 0.25);
  cudaStream_t st = dev.stream();
  const auto sub = [&](int rep) { return d.parent(rep) + off + off * d.lda; };
  const auto choice =
      l2::choose_symv<T>(uplo, herm, n, sub(0), d.lda, d.x.data(), 1, d.y.data(), 1);
  auto mg = [&](int v) {
    return [&, v](int rep) {
      l2::symv<T>(st, uplo, herm, n, alpha, d.parent(rep), d.lda, off, d.x.data(), 1, beta,
                  d.y.data(), 1, {v, o.split});
    };
  };
  auto cb_into = [&](int rep, T* y) {
    if (herm)
      kernels::cuda::common::cublas::hemv<T>(dev.cublas(), st, uplo, n, alpha, sub(rep), d.lda,
                                     d.x.data(), 1, beta, y, 1);
    else
      kernels::cuda::common::cublas::symv<T>(dev.cublas(), st, uplo, n, alpha, sub(rep), d.lda,
                                     d.x.data(), 1, beta, y, 1);
  };
  const Queue q(dev, st);  // the public entry, as for gemv above
  auto pub = [&](int rep) {
    if (herm)
      hemv_offset<T>(q, uplo, n, alpha, d.parent(rep), d.lda, off, d.x.data(), 1, beta,
                     d.y.data(), 1);
    else
      symv_offset<T>(q, uplo, n, alpha, d.parent(rep), d.lda, off, d.x.data(), 1, beta,
                     d.y.data(), 1);
  };
  double err = -1;
  if (o.check) {
    DeviceBuffer<T> y_cb(dev, d.y.size());
    copy_vector(dev, n, d.y0.data(), d.y.data());
    copy_vector(dev, n, d.y0.data(), y_cb.data());
    pub(0);
    cb_into(0, y_cb.data());
    // ||A|| of the symmetric matrix <= sqrt(2) ||stored triangle|| <= sqrt(2) ||parent||.
    err = check_error(dev, d, d.y, y_cb, n, n, n, alpha, beta, std::sqrt(2.0));
  }
  const double tol = tolerance<T>(o.tol);
  const double t_cb = median_ms(st, o.warmup, o.niter, [&](int rep) { cb_into(rep, d.y.data()); });
  MGBLAS_CHECK_CUBLAS(cublasSetAtomicsMode(dev.cublas(), CUBLAS_ATOMICS_ALLOWED));
  const double t_cba =
      median_ms(st, o.warmup, o.niter, [&](int rep) { cb_into(rep, d.y.data()); });
  MGBLAS_CHECK_CUBLAS(cublasSetAtomicsMode(dev.cublas(), CUBLAS_ATOMICS_NOT_ALLOWED));
  const double bytes = bytes_symv<T>(n), flops = flops_mv<T>(n, n);
  std::vector<int> variants{choice.variant};
  if (o.sweep) {
    variants.clear();
    for (int v = 0; v < l2::symv_variant_count<T>(); ++v) variants.push_back(v);
  }
  for (int v : variants) {
    const double t = o.sweep ? median_ms(st, o.warmup, o.niter, mg(v))
                             : median_ms(st, o.warmup, o.niter, pub);
    const std::string engine = o.sweep ? l2::symv_variant_name<T>(uplo, herm, v)
                                       : std::string(l2::chosen_engine(choice));
    cx.report->add({precision_letter<T>(), herm ? "hemv" : "symv", to_string(uplo), n, n, off, t,
                    flops / (t * 1e6), bytes / (t * 1e6),
                    100.0 * bytes / (t * 1e6) / cx.report->copy_bw(), bytes / (t_cb * 1e6),
                    t_cb / t, bytes / (t_cba * 1e6), err, err <= tol, engine});
  }
}

std::vector<Shape> shapes_of(const Options& o) {
  std::vector<Shape> s;
  if (!o.range.empty())
    for (int64_t v : parse_range(o.range)) s.push_back({v, v});
  for (int64_t v : o.nlist) s.push_back({v, v});
  for (const auto& d : o.dims) {
    long long m = 0, n = 0;
    if (std::sscanf(d.c_str(), "%lldx%lld", &m, &n) != 2)
      throw std::invalid_argument("--dim wants MxN");
    s.push_back({m, n});
  }
  if (s.empty() && o.parent <= 0) s = {{1024, 1024}, {4096, 4096}};
  return s;
}

int run(int argc, char** argv) {
  Options o;
  CLI::App app{"mgblas-tester blas: check and time mgblas's level-2 kernels against cuBLAS"};
  app.add_option("--op", o.ops, "operations: gemv, symv (symv means hemv for c, z)")
      ->delimiter(',')
      ->capture_default_str();
  add_type_option(app, o.types);
  app.add_option("--trans", o.trans, "gemv ops: N, T, C")->delimiter(',')->capture_default_str();
  app.add_option("--uplo", o.uplos, "symv triangles: L, U")->delimiter(',')->capture_default_str();
  app.add_option("--range", o.range, "square sizes start:stop:step");
  app.add_option("-n,--n", o.nlist, "square sizes, comma list")->delimiter(',');
  app.add_option("--dim", o.dims, "rectangular sizes MxN, comma list")->delimiter(',');
  app.add_option("--offset", o.offsets, "submatrix offsets (rows and columns), comma list")
      ->delimiter(',')
      ->capture_default_str();
  app.add_option("--parent", o.parent,
                 "parent size P: run the (P - offset)^2 submatrix at each offset of a P x P matrix");
  add_common_options(app, o, "cuBLAS");
  app.add_flag("--sweep", o.sweep, "time every compiled tuning set, not the dispatcher's");
  app.add_flag("--symmetric", o.symmetric, "complex symv: complex-symmetric instead of hemv");
  app.add_option("--split", o.split, "force the grid split (0: tuning policy)")->capture_default_str();
  CLI11_PARSE(app, argc, argv);
  if (o.niter < 1) o.niter = 1;

  cudaDeviceProp prop{};
  const auto dev = open_gpu0(prop);
  if (!dev) return kSkipped;
  std::printf("%s\n%s\n# command: %s\n", version_line("mgblas-tester blas").c_str(),
              device_line(prop).c_str(), command_line(argc, argv).c_str());
  const double bw = copy_bandwidth(*dev);
  std::printf("# copy bandwidth: %.1f GB/s (cudaMemcpyAsync device to device, 2 GiB, read + "
              "write, median of 20)\n",
              bw);
  std::printf("# times: median of %d after %d warm-up calls; A rotated over copies up to 3x L2\n",
              o.niter, o.warmup);
  Report report(bw, o.csv);
  report.header();
  Env cx{dev.get(), &o, &report, static_cast<std::size_t>(prop.l2CacheSize), o.seed};

  std::vector<std::pair<Shape, int64_t>> cases;  // shape, offset
  for (int64_t off : o.offsets) {
    if (o.parent > 0) cases.push_back({{o.parent - off, o.parent - off}, off});
    else
      for (Shape s : shapes_of(o)) cases.push_back({s, off});
  }
  for (const auto& op_name : o.ops)
    for (const auto& t : o.types)
      for_type(t, [&](auto tag) {
        using T = decltype(tag);
        for (auto [s, off] : cases) {
          if (op_name == "gemv") {
            for (const auto& tr : o.trans) {
              const Op op = tr == "N" ? Op::N : tr == "T" ? Op::T : Op::C;
              run_gemv<T>(cx, op, s, off);
            }
          } else if (op_name == "symv" || op_name == "hemv") {
            for (const auto& u : o.uplos)
              run_symv<T>(cx, u == "U" ? Uplo::Upper : Uplo::Lower, s.n, off);
          } else {
            throw std::invalid_argument("unknown --op " + op_name);
          }
        }
      });
  std::printf("# %d failed check(s)\n", report.failures());
  return report.failures();
}

}  // namespace
}  // namespace mgblas::testers

namespace mgblas::testers {
// `mgblas-tester blas` (testers/mgblas_tester.cpp).
int blas_main(int argc, char** argv) {
  return guarded_main("mgblas-tester blas", run, argc, argv);
}
}  // namespace mgblas::testers
