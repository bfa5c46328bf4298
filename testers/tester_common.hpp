// SPDX-License-Identifier: BSD-3-Clause
// What the testers share (STYLE.md section 9): the options every tester has, the '#'
// header lines, median-of-n timing with CUDA events, the copy-bandwidth probe, cuBLAS
// norms for the checks and the error bound. Kept in one place so that the testers time,
// check and print alike; each tester keeps its own columns and CSV.
#pragma once

#include <cublas_v2.h>
#include <cuda_runtime.h>

#include <CLI/CLI.hpp>
#include <algorithm>
#include <array>
#include <cmath>
#include <complex>
#include <cstdint>
#include <cstdio>
#include <exception>
#include <limits>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "core/detail/cuda_check.hpp"
#include "core/device.hpp"
#include "core/types.hpp"
#include "testers/tester_fill.hpp"

namespace mgblas::testers {

/// Exit status of a tester that finds no GPU: the tests' SKIP_RETURN_CODE.
inline constexpr int kSkipped = 77;

// ---- options ---------------------------------------------------------------------------

/// One string per letter: the --type values of the letters, e.g. {"d", "z"} of "dz".
inline std::vector<std::string> precision_list(std::string_view letters) {
  std::vector<std::string> out;
  for (char c : letters) out.emplace_back(1, c);
  return out;
}

/// Options of every tester, MAGMA's names; a tester's Options derives from this and may
/// change the defaults in its constructor.
struct CommonOptions {
  std::vector<std::string> types = precision_list(enabled_precision_letters());
  int niter = 20;
  int warmup = 3;
  bool check = true;
  double tol = 10.0;
  uint64_t seed = 1;
  std::string csv;
};

inline void add_type_option(CLI::App& app, std::vector<std::string>& types) {
  app.add_option("--type", types, "precisions: s, d, c, z")->delimiter(',')->capture_default_str();
}

/// --niter, --warmup, -c/--check, --tol, --seed, --csv; `check_what` ends the help of
/// --check ("check against ..."), `csv_note` that of --csv.
inline void add_common_options(CLI::App& app, CommonOptions& o, const std::string& check_what,
                               const std::string& csv_note = "") {
  app.add_option("--niter", o.niter, "timed calls (median)")->capture_default_str();
  app.add_option("--warmup", o.warmup, "untimed calls first")->capture_default_str();
  app.add_flag("-c,--check,!--no-check", o.check, "check against " + check_what)
      ->capture_default_str();
  app.add_option("--tol", o.tol, "error tolerance (x sqrt(2) for complex)")->capture_default_str();
  app.add_option("--seed", o.seed, "random seed")->capture_default_str();
  app.add_option("--csv", o.csv, "also write the rows to this CSV file" + csv_note);
}

/// Sizes of --range start:stop[:step].
std::vector<int64_t> parse_range(const std::string& range);

/// Op of a letter N, T or C (anything else is C).
inline Op op_of(char c) { return c == 'N' ? Op::N : c == 'T' ? Op::T : Op::C; }

/// f(T{}) for the precision letter t (s, d, c, z); NotCompiled for a precision outside
/// MGBLAS_PRECISIONS.
template <typename F>
void for_type(const std::string& t, F&& f) {
  if (t.size() != 1) throw std::invalid_argument("unknown --type " + t);
  visit_scalar(t[0], [&](auto tag) { f(typename decltype(tag)::type{}); }, "--type");
}

// ---- header and main -------------------------------------------------------------------

/// argv joined by spaces, for the "# command:" line.
std::string command_line(int argc, char** argv);
/// "# mgblas <version> <tester>; <CUDA versions>; cuBLAS <version>" (no newline).
std::string version_line(const char* tester);
/// "# device 0: <name>, sm_XY, <n> SMs, L2 <l2> MiB, <mem> GiB" (no newline).
std::string device_line(const cudaDeviceProp& prop);

/// GPU 0, made current, and its properties; without a GPU it prints the usual '#' line
/// and returns nullptr (the tester then exits with kSkipped).
std::unique_ptr<Device> open_gpu0(cudaDeviceProp& prop);

/// main() of a single-process tester: run's status, or 255 after printing what it threw.
inline int guarded_main(const char* tester, int (*run)(int, char**), int argc, char** argv) {
  try {
    return run(argc, argv);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "%s: %s\n", tester, e.what());
    return 255;
  }
}

/// v printed with the printf format f.
std::string format(const char* f, double v);

// ---- timing ----------------------------------------------------------------------------

/// Median of the values (the mean of the two middle ones for an even count; 0 for none).
template <typename V>
double median_of(std::vector<V> t) {
  if (t.empty()) return 0;
  std::sort(t.begin(), t.end());
  const std::size_t n = t.size();
  return n % 2 ? t[n / 2] : 0.5 * (t[n / 2 - 1] + t[n / 2]);
}

/// Median milliseconds of `niter` calls of call(rep) after `warmup` untimed ones
/// (rep counts all calls, so callers can rotate operands), each call bracketed by its own
/// pair of events on `stream`: the events are all read after the last call, so the
/// timed calls run back to back.
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
  return median_of(std::move(t));
}

/// Copies of the operands to rotate through so that every timed call reads from device
/// memory: enough for 3x the L2 (`bytes` per copy), at most `max_copies`.
inline int64_t rotation_copies(std::size_t l2_bytes, double bytes, int64_t max_copies) {
  if (!(bytes > 0)) return 1;
  return std::clamp<int64_t>(static_cast<int64_t>(std::ceil(3.0 * l2_bytes / bytes)), 1,
                             max_copies);
}

/// A variable-size batch with its operands packed one after another, each with the
/// smallest leading dimension: sizes, leading dimensions, offsets and total lengths.
struct PackedBatch {
  std::vector<int64_t> m, n, k, lda, ldb, ldc, a_off, b_off, c_off;
  int64_t a_len = 0, b_len = 0, c_len = 0;
  /// m, n, k, lda, ldb, ldc back to back: gemm_vbatched's size arrays in one buffer.
  std::vector<int64_t> sizes() const {
    std::vector<int64_t> s;
    for (const auto* v : {&m, &n, &k, &lda, &ldb, &ldc}) s.insert(s.end(), v->begin(), v->end());
    return s;
  }
};

/// Packs `batch` entries of sizes dims(i) = {m, n, k}, called in entry order.
template <typename Dims>
PackedBatch pack_batch(int64_t batch, Op opA, Op opB, Dims&& dims) {
  PackedBatch b;
  for (int64_t i = 0; i < batch; ++i) {
    const std::array<int64_t, 3> d = dims(i);
    b.m.push_back(d[0]);
    b.n.push_back(d[1]);
    b.k.push_back(d[2]);
    b.lda.push_back(opA == Op::N ? d[0] : d[2]);
    b.ldb.push_back(opB == Op::N ? d[2] : d[1]);
    b.ldc.push_back(d[0]);
    b.a_off.push_back(b.a_len);
    b.b_off.push_back(b.b_len);
    b.c_off.push_back(b.c_len);
    b.a_len += d[0] * d[2];
    b.b_len += d[2] * d[1];
    b.c_len += d[0] * d[1];
  }
  return b;
}

/// Device-to-device copy bandwidth, bytes read + written, GB/s (cudaMemcpyAsync of 2 GiB,
/// median of 20 after 3 warm-up copies).
double copy_bandwidth(const Device& dev);

/// What a single-GPU case runs with.
template <class Options, class Report>
struct TesterEnv {
  const Device* dev;
  const Options* opt;
  Report* report;
  std::size_t l2_bytes;
  uint64_t seed;
};

// ---- operands and checks ---------------------------------------------------------------

/// re + i im as T (im dropped for real T).
template <Scalar T>
T scalar(double re, double im) {
  using R = real_type_t<T>;
  if constexpr (is_complex_v<T>) return T(static_cast<R>(re), static_cast<R>(im));
  else return static_cast<T>(re);
}

/// `count` elements of T at p (device memory), real and imaginary parts uniform on
/// [-1, 1), queued on st.
template <Scalar T>
void fill(cudaStream_t st, T* p, int64_t count, uint64_t seed) {
  constexpr int kReals = is_complex_v<T> ? 2 : 1;
  fill_uniform(st, p, kReals * count, sizeof(real_type_t<T>) == 8, seed);
}
template <Scalar T>
void fill(const Device& dev, T* p, int64_t count, uint64_t seed) {
  fill(dev.stream(), p, count, seed);
}

/// Euclidean norm of a host vector.
template <Scalar T>
double host_norm(const std::vector<T>& v) {
  double s = 0;
  for (const T& e : v) s += std::norm(std::complex<double>(e));
  return std::sqrt(s);
}

// cuBLAS on the handle's stream; the 64-bit API, as operands may exceed 2^31 elements.
double nrm2(cublasHandle_t h, int64_t n, const float* x);
double nrm2(cublasHandle_t h, int64_t n, const double* x);
double nrm2(cublasHandle_t h, int64_t n, const scomplex* x);
double nrm2(cublasHandle_t h, int64_t n, const zcomplex* x);
/// y -= x (n elements).
void subtract(cublasHandle_t h, int64_t n, const float* x, float* y);
void subtract(cublasHandle_t h, int64_t n, const double* x, double* y);
void subtract(cublasHandle_t h, int64_t n, const scomplex* x, scomplex* y);
void subtract(cublasHandle_t h, int64_t n, const zcomplex* x, zcomplex* y);

//  +--------------------------------------------------------------------------+
//  |  err = d / ((k |alpha| ||A|| ||B|| + |beta| ||C0||) eps),                  |
//  |  d = ||C - C_ref|| (STYLE.md section 8): both results carry O(k eps)     |
//  |  errors of their own; a NaN d is an infinite error                       |
//  +--------------------------------------------------------------------------+
template <Scalar T>
double relative_error(double d, double k, T alpha, double norm_a, double norm_b, T beta,
                      double norm_c0) {
  const double eps = std::numeric_limits<real_type_t<T>>::epsilon();
  const double denom =
      (std::max(k, 1.0) * std::abs(alpha) * norm_a * norm_b + std::abs(beta) * norm_c0) * eps;
  if (std::isnan(d)) return std::numeric_limits<double>::infinity();
  return denom > 0 ? d / denom : d / eps;
}

/// --tol for T: x sqrt(2) for complex (STYLE.md section 8).
template <Scalar T>
double tolerance(double tol) {
  return tol * (is_complex_v<T> ? std::sqrt(2.0) : 1.0);
}

}  // namespace mgblas::testers
