// SPDX-License-Identifier: BSD-3-Clause
// tester_blas: checks and times mgblas's own level-2 kernels (GEMV N/T/C, SYMV/HEMV
// L/U, whole matrices and submatrices) against cuBLAS on the same device data, in the
// MAGMA / nccl-tests manner (STYLE.md section 9).
//
//   tester_blas --op gemv,symv --type s,d,c,z --range 8192:32768:8192
//   tester_blas --op gemv --trans N --type d --parent 16384 --offset 0,1,17,33
//   tester_blas --op symv --type d -n 4096 --sweep          (every compiled tuning set)
//
// At start it measures the device's copy bandwidth (cudaMemcpyAsync device to device,
// bytes read + written, median of 20). Each case fills A, x, y with uniform [-1, 1)
// values on the device, checks mgblas against cuBLAS once, then times both with CUDA
// events: `--warmup` untimed calls, then the median of `--niter` timed calls. When A is
// smaller than 3x the L2 cache, the calls rotate over copies of A so that every call
// reads A from device memory. Columns:
//   time      median milliseconds of mgblas's kernel (the dispatcher's tuning set)
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
#include <cstdlib>
#include <fstream>
#include <limits>
#include <memory>
#include <string>
#include <vector>

#include "core/config.hpp"
#include "core/detail/cuda_check.hpp"
#include "core/detail/cuda_runtime.hpp"
#include "core/device.hpp"
#include "core/memory.hpp"
#include "core/types.hpp"
#include "kernels/cuda/cublas/cublas.hpp"
#include "kernels/cuda/gemv/gemv.hpp"
#include "kernels/cuda/symv/symv.hpp"
#include "kernels/cuda/tuning/level2_dispatch.hpp"
#include "tests/testers/tester_fill.hpp"

namespace mgblas::testers {
namespace {

namespace l2 = kernels::cuda::level2;

struct Options {
  std::vector<std::string> ops{"gemv", "symv"};
  std::vector<std::string> types{"s", "d", "c", "z"};
  std::vector<std::string> trans{"N", "T"};
  std::vector<std::string> uplos{"L", "U"};
  std::string range;
  std::vector<int64_t> nlist;
  std::vector<std::string> dims;
  std::vector<int64_t> offsets{0};
  int64_t parent = 0;
  int niter = 20;
  int warmup = 3;
  bool check = true;
  double tol = 10.0;
  uint64_t seed = 1;
  std::string csv;
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

// ---- cuBLAS norms (64-bit API: a parent matrix may exceed 2^31 elements) --------------

double nrm2(cublasHandle_t h, int64_t n, const float* x) {
  float r = 0;
  MGBLAS_CHECK_CUBLAS(cublasSnrm2_64(h, n, x, 1, &r));
  return r;
}
double nrm2(cublasHandle_t h, int64_t n, const double* x) {
  double r = 0;
  MGBLAS_CHECK_CUBLAS(cublasDnrm2_64(h, n, x, 1, &r));
  return r;
}
double nrm2(cublasHandle_t h, int64_t n, const scomplex* x) {
  float r = 0;
  MGBLAS_CHECK_CUBLAS(cublasScnrm2_64(h, n, reinterpret_cast<const cuComplex*>(x), 1, &r));
  return r;
}
double nrm2(cublasHandle_t h, int64_t n, const zcomplex* x) {
  double r = 0;
  MGBLAS_CHECK_CUBLAS(
      cublasDznrm2_64(h, n, reinterpret_cast<const cuDoubleComplex*>(x), 1, &r));
  return r;
}

// ---- timing ----------------------------------------------------------------------------

/// Median milliseconds of `niter` calls of call(rep) after `warmup` untimed ones, each
/// call bracketed by its own pair of events on `stream`.
template <typename F>
double median_ms(cudaStream_t stream, int warmup, int niter, F&& call) {
  for (int r = 0; r < warmup; ++r) call(r);
  std::vector<cudaEvent_t> ev(2 * static_cast<std::size_t>(niter));
  for (auto& e : ev) MGBLAS_CHECK_CUDA(cudaEventCreate(&e));
  for (int r = 0; r < niter; ++r) {
    MGBLAS_CHECK_CUDA(cudaEventRecord(ev[2 * r], stream));
    call(warmup + r);
    MGBLAS_CHECK_CUDA(cudaEventRecord(ev[2 * r + 1], stream));
  }
  MGBLAS_CHECK_CUDA(cudaEventSynchronize(ev.back()));
  std::vector<float> t(static_cast<std::size_t>(niter));
  for (int r = 0; r < niter; ++r)
    MGBLAS_CHECK_CUDA(cudaEventElapsedTime(&t[r], ev[2 * r], ev[2 * r + 1]));
  for (auto& e : ev) MGBLAS_CHECK_CUDA(cudaEventDestroy(e));
  std::sort(t.begin(), t.end());
  return niter % 2 ? t[niter / 2] : 0.5 * (t[niter / 2 - 1] + t[niter / 2]);
}

/// Device-to-device copy bandwidth, bytes read + written, GB/s.
double copy_bandwidth(const Device& dev) {
  const std::size_t bytes = std::size_t{1} << 31;  // 2 GiB each way: far beyond the L2
  DeviceBuffer<char> a(dev, bytes), b(dev, bytes);
  fill_uniform(dev.stream(), a.data(), static_cast<int64_t>(bytes / 4), false, 7);
  const double ms = median_ms(dev.stream(), 3, 20, [&](int) {
    MGBLAS_CHECK_CUDA(cudaMemcpyAsync(b.data(), a.data(), bytes, cudaMemcpyDeviceToDevice,
                                      dev.stream()));
  });
  return 2.0 * static_cast<double>(bytes) / (ms * 1e6);
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
    const std::string atom = r.cublas_atomics_gbs > 0 ? fmt(r.cublas_atomics_gbs, "%.1f") : "-";
    const std::string err = r.error >= 0 ? fmt(r.error, "%.2e") : "-";
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
  static std::string fmt(double v, const char* f) {
    char b[64];
    std::snprintf(b, sizeof b, f, v);
    return b;
  }
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
    copies = bytes > 0 ? std::clamp<int64_t>(static_cast<int64_t>(std::ceil(3.0 * l2_bytes / bytes)),
                                             1, 64)
                       : 1;
    constexpr int kReals = is_complex_v<T> ? 2 : 1;
    constexpr bool kDouble = sizeof(real_type_t<T>) == 8;
    A = DeviceBuffer<T>(dev, static_cast<std::size_t>(std::max<int64_t>(1, lda * cols * copies)));
    x = DeviceBuffer<T>(dev, static_cast<std::size_t>(std::max<int64_t>(1, len_x)));
    y0 = DeviceBuffer<T>(dev, static_cast<std::size_t>(std::max<int64_t>(1, len_y)));
    y = DeviceBuffer<T>(dev, static_cast<std::size_t>(std::max<int64_t>(1, len_y)));
    fill_uniform(dev.stream(), A.data(), kReals * static_cast<int64_t>(A.size()), kDouble, seed);
    fill_uniform(dev.stream(), x.data(), kReals * static_cast<int64_t>(x.size()), kDouble,
                 seed + 1);
    fill_uniform(dev.stream(), y0.data(), kReals * static_cast<int64_t>(y0.size()), kDouble,
                 seed + 2);
  }
  const T* parent(int rep) const { return A.data() + (rep % copies) * lda * cols; }
};

template <Scalar T>
std::vector<T> download(const Device& dev, const DeviceBuffer<T>& d, int64_t n) {
  std::vector<T> h(static_cast<std::size_t>(std::max<int64_t>(n, 0)));
  copy_vector(dev, n, d.data(), h.data());
  return h;
}

template <Scalar T>
double vec_norm(const std::vector<T>& v) {
  double s = 0;
  for (const T& e : v) s += std::norm(std::complex<double>(e));
  return std::sqrt(s);
}

template <Scalar T>
T scalar(double re, double im) {
  if constexpr (is_complex_v<T>) return T(static_cast<real_type_t<T>>(re), static_cast<real_type_t<T>>(im));
  else return static_cast<T>(re);
}

//  +--------------------------------------------------------------------------+
//  |  err = ||y_mgblas - y_cublas|| / ((k |alpha| ||A|| ||x|| + |beta| ||y0||)  |
//  |                                    * eps)                                |
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
  const double normx = vec_norm(download(dev, op.x, len_x));
  const double normy0 = vec_norm(download(dev, op.y0, len_y));
  const double eps = std::numeric_limits<real_type_t<T>>::epsilon();
  const double denom =
      (static_cast<double>(std::max<int64_t>(k, 1)) * std::abs(alpha) * normA * normx +
       std::abs(beta) * normy0) *
      eps;
  if (std::isnan(d)) return std::numeric_limits<double>::infinity();
  return denom > 0 ? d / denom : d / eps;
}

struct Context {
  const Device* dev;
  const Options* opt;
  Report* report;
  std::size_t l2_bytes;
  uint64_t seed;
};

template <Scalar T>
void run_gemv(Context& cx, Op op, Shape s, int64_t off) {
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
    kernels::cuda::cublas::gemv<T>(dev.cublas(), st, op, m, n, alpha, sub(rep), d.lda,
                                   d.x.data(), 1, beta, d.y.data(), 1);
  };
  double err = -1;
  if (o.check) {
    DeviceBuffer<T> y_cb(dev, d.y.size());
    copy_vector(dev, static_cast<int64_t>(d.y.size()), d.y0.data(), d.y.data());
    copy_vector(dev, static_cast<int64_t>(d.y.size()), d.y0.data(), y_cb.data());
    mg(choice.variant)(0);
    kernels::cuda::cublas::gemv<T>(dev.cublas(), st, op, m, n, alpha, sub(0), d.lda, d.x.data(),
                                   1, beta, y_cb.data(), 1);
    err = check_error(dev, d, d.y, y_cb, len_x, len_y, len_x, alpha, beta, 1.0);
  }
  const double tol = o.tol * (is_complex_v<T> ? std::sqrt(2.0) : 1.0);
  const double t_cb = median_ms(st, o.warmup, o.niter, cb);
  const double bytes = bytes_gemv<T>(m, n), flops = flops_mv<T>(m, n);
  std::vector<int> variants{choice.variant};
  if (o.sweep) {
    variants.clear();
    for (int v = 0; v < l2::gemv_variant_count<T>(op); ++v) variants.push_back(v);
  }
  for (int v : variants) {
    const double t = median_ms(st, o.warmup, o.niter, mg(v));
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
void run_symv(Context& cx, Uplo uplo, int64_t n, int64_t off) {
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
      kernels::cuda::cublas::hemv<T>(dev.cublas(), st, uplo, n, alpha, sub(rep), d.lda,
                                     d.x.data(), 1, beta, y, 1);
    else
      kernels::cuda::cublas::symv<T>(dev.cublas(), st, uplo, n, alpha, sub(rep), d.lda,
                                     d.x.data(), 1, beta, y, 1);
  };
  double err = -1;
  if (o.check) {
    DeviceBuffer<T> y_cb(dev, d.y.size());
    copy_vector(dev, n, d.y0.data(), d.y.data());
    copy_vector(dev, n, d.y0.data(), y_cb.data());
    mg(choice.variant)(0);
    cb_into(0, y_cb.data());
    // ||A|| of the symmetric matrix <= sqrt(2) ||stored triangle|| <= sqrt(2) ||parent||.
    err = check_error(dev, d, d.y, y_cb, n, n, n, alpha, beta, std::sqrt(2.0));
  }
  const double tol = o.tol * (is_complex_v<T> ? std::sqrt(2.0) : 1.0);
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
    const double t = median_ms(st, o.warmup, o.niter, mg(v));
    const std::string engine = o.sweep ? l2::symv_variant_name<T>(uplo, herm, v)
                                       : std::string(l2::chosen_engine(choice));
    cx.report->add({precision_letter<T>(), herm ? "hemv" : "symv", to_string(uplo), n, n, off, t,
                    flops / (t * 1e6), bytes / (t * 1e6),
                    100.0 * bytes / (t * 1e6) / cx.report->copy_bw(), bytes / (t_cb * 1e6),
                    t_cb / t, bytes / (t_cba * 1e6), err, err <= tol, engine});
  }
}

template <typename F>
void for_type(const std::string& t, F&& f) {
  if (t == "s") f(float{});
  else if (t == "d") f(double{});
  else if (t == "c") f(scomplex{});
  else if (t == "z") f(zcomplex{});
  else throw std::invalid_argument("unknown --type " + t);
}

std::vector<Shape> shapes_of(const Options& o) {
  std::vector<Shape> s;
  if (!o.range.empty()) {
    long long a = 0, b = 0, c = 1;
    if (std::sscanf(o.range.c_str(), "%lld:%lld:%lld", &a, &b, &c) < 2 || c <= 0)
      throw std::invalid_argument("--range wants start:stop[:step]");
    for (long long v = a; v <= b; v += c) s.push_back({v, v});
  }
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
  CLI::App app{"tester_blas: check and time mgblas's level-2 kernels against cuBLAS"};
  app.add_option("--op", o.ops, "operations: gemv, symv (symv means hemv for c, z)")
      ->delimiter(',')
      ->capture_default_str();
  app.add_option("--type", o.types, "precisions: s, d, c, z")->delimiter(',')->capture_default_str();
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
  app.add_option("--niter", o.niter, "timed calls (median)")->capture_default_str();
  app.add_option("--warmup", o.warmup, "untimed calls first")->capture_default_str();
  app.add_flag("-c,--check,!--no-check", o.check, "check against cuBLAS")->capture_default_str();
  app.add_option("--tol", o.tol, "error tolerance (x sqrt(2) for complex)")->capture_default_str();
  app.add_option("--seed", o.seed, "random seed")->capture_default_str();
  app.add_option("--csv", o.csv, "also write the rows to this CSV file");
  app.add_flag("--sweep", o.sweep, "time every compiled tuning set, not the dispatcher's");
  app.add_flag("--symmetric", o.symmetric, "complex symv: complex-symmetric instead of hemv");
  app.add_option("--split", o.split, "force the grid split (0: tuning policy)")->capture_default_str();
  CLI11_PARSE(app, argc, argv);
  if (o.niter < 1) o.niter = 1;

  if (cuda_device_count() == 0) {
    std::printf("# no CUDA GPU visible: nothing to test\n");
    return 77;
  }
  auto dev = Device::make_cuda(0, 0);
  dev->make_current();
  cudaDeviceProp prop{};
  MGBLAS_CHECK_CUDA(cudaGetDeviceProperties(&prop, 0));
  std::string cmd;
  for (int i = 0; i < argc; ++i) cmd += std::string(i ? " " : "") + argv[i];
  std::printf("# mgblas %s tester_blas; %s; cuBLAS %d\n", MGBLAS_VERSION_STRING,
              detail::cuda_version_string().c_str(), CUBLAS_VERSION);
  std::printf("# device 0: %s, sm_%d%d, %d SMs, L2 %.0f MiB, %.1f GiB\n", prop.name, prop.major,
              prop.minor, prop.multiProcessorCount, prop.l2CacheSize / 1048576.0,
              prop.totalGlobalMem / 1073741824.0);
  std::printf("# command: %s\n", cmd.c_str());
  const double bw = copy_bandwidth(*dev);
  std::printf("# copy bandwidth: %.1f GB/s (cudaMemcpyAsync device to device, 2 GiB, read + "
              "write, median of 20)\n",
              bw);
  std::printf("# times: median of %d after %d warm-up calls; A rotated over copies up to 3x L2\n",
              o.niter, o.warmup);
  Report report(bw, o.csv);
  report.header();
  Context cx{dev.get(), &o, &report, static_cast<std::size_t>(prop.l2CacheSize), o.seed};

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

int main(int argc, char** argv) {
  try {
    return mgblas::testers::run(argc, argv);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "tester_blas: %s\n", e.what());
    return 255;
  }
}
