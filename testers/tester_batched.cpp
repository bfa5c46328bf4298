// SPDX-License-Identifier: BSD-3-Clause
// mgblas-tester batched: checks and times mgblas's batched small GEMM engine against cuBLAS on
// the same device data, in the MAGMA / nccl-tests manner (STYLE.md section 9).
//
//   mgblas-tester batched --iface strided,array --type s,d,c,z --range 2:64 --smallk --batch 100000
//   mgblas-tester batched --iface variable --type s,d,c,z --vmax 32,128 --dist uniform,gaussian
//   mgblas-tester batched --iface strided --type d -n 4,16 --kernel small_4x4x4_t2x2:32
//
// At start it measures the device's read bandwidth (float4 streaming loads over 2 GiB,
// median of 10). Each case fills A, B, C with uniform [-1, 1) values on the device,
// checks mgblas against the reference once, then times both with CUDA events:
// `--warmup` untimed calls, then the median of `--niter` timed calls; when the operands
// are smaller than 3x the L2 the calls rotate over copies of them, so that every call
// reads from device memory. Storage is compact (ld = rows, stride = matrix size).
// References: strided  cublas<t>gemmStridedBatched;  array  cublas<t>gemmBatched;
//   variable  cublas<t>gemmGroupedBatched (s, d: cuBLAS has no complex grouped GEMM;
//             entries grouped by equal shape) and a stream loop of cublas<t>gemm (timed
//             on the first --loop-max entries and scaled to the batch; the check of c, z
//             runs the loop over every entry).
// Columns:
//   shape     m x n x k, or for variable sizes u<max> (uniform in [1, max]^3) or
//             g<max> (Gaussian, mean max/2, deviation max/6, clamped to [1, max])
//   time      median milliseconds of mgblas (the dispatcher's kernel, or --kernel)
//   GFLOP/s   2mnk (real) or 8mnk (complex) flops per entry
//   GB/s      minimum traffic: A and B read, C read when beta != 0, C written
//   %read     GB/s over the measured read bandwidth
//   ref       the reference's time; speedup = ref time / mgblas time
//   loop      the stream loop's time (variable); its speedup
//   error     ||C_mgblas - C_ref||_F / ((k |alpha| ||A||_F ||B||_F + |beta| ||C0||_F) eps)
//             over the whole batch (k: the largest inner dimension)
//   status    ok when error <= --tol (x sqrt(2) for complex)
//   kernel    what the dispatcher ran, and why
// Exit status: the number of failed checks.
#include <cublas_v2.h>
#include <cuda_runtime.h>

#include <CLI/CLI.hpp>
#include <algorithm>
#include <cmath>
#include <complex>
#include <cstdio>
#include <fstream>
#include <map>
#include <memory>
#include <numeric>
#include <optional>
#include <random>
#include <sstream>
#include <string>
#include <tuple>
#include <vector>

#include "core/detail/cuda_check.hpp"
#include "core/device.hpp"
#include "core/memory.hpp"
#include "core/types.hpp"
#include "kernels/blas.hpp"
#include "kernels/cuda/batched/batched.hpp"
#include "kernels/cuda/common/cublas.hpp"
#include "kernels/cuda/tsgemm/tsgemm_model.hpp"
#include "testers/subcommands.hpp"
#include "testers/tester_common.hpp"

namespace mgblas::testers {
namespace {

namespace bt = kernels::cuda::batched;
namespace cb = kernels::cuda::common::cublas;

struct Options : CommonOptions {
  Options() {
    niter = 10;
    warmup = 2;
  }
  std::vector<std::string> ifaces{"strided", "array", "variable"};
  std::vector<std::string> ops{"NN"};
  std::string range;
  std::vector<int64_t> nlist;
  std::vector<std::string> dims;
  bool smallk = false;
  std::vector<int64_t> batches{100000};
  std::vector<int64_t> vmax{32, 128};
  std::vector<std::string> dists{"uniform", "gaussian"};
  int64_t vbatch = 10000;
  int64_t loop_max = 20000;
  std::string scalars = "general";
  std::string kernel;
  std::string md;
};

// ---- counts ---------------------------------------------------------------------------

template <Scalar T> double flops(int64_t m, int64_t n, int64_t k) {
  return (is_complex_v<T> ? 8.0 : 2.0) * static_cast<double>(m) * static_cast<double>(n) *
         static_cast<double>(k);
}
/// Minimum traffic of one entry: A and B read, C read when beta != 0, C written.
template <Scalar T> double bytes(int64_t m, int64_t n, int64_t k, bool read_c) {
  return static_cast<double>(m * k + k * n + m * n * (read_c ? 2 : 1)) * sizeof(T);
}

// ---- cuBLAS helpers ----------------------------------------------------------------------

cublasOperation_t cu_op(Op op, bool complex) {
  return op == Op::N ? CUBLAS_OP_N : (op == Op::T || !complex ? CUBLAS_OP_T : CUBLAS_OP_C);
}

/// cuBLAS's grouped batched GEMM (real types only: cuBLAS has none for complex).
template <typename R>
void grouped(cublasHandle_t h, const std::vector<cublasOperation_t>& ta,
             const std::vector<cublasOperation_t>& tb, const std::vector<int>& m,
             const std::vector<int>& n, const std::vector<int>& k, const std::vector<R>& alpha,
             const R* const* A, const std::vector<int>& lda, const R* const* B,
             const std::vector<int>& ldb, const std::vector<R>& beta, R* const* C,
             const std::vector<int>& ldc, const std::vector<int>& size) {
  const auto call = [&](auto gemm) {
    MGBLAS_CHECK_CUBLAS(gemm(h, ta.data(), tb.data(), m.data(), n.data(), k.data(), alpha.data(),
                             A, lda.data(), B, ldb.data(), beta.data(), C, ldc.data(),
                             static_cast<int>(size.size()), size.data()));
  };
  if constexpr (std::is_same_v<R, float>) call(cublasSgemmGroupedBatched);
  else call(cublasDgemmGroupedBatched);
}

// ---- report ---------------------------------------------------------------------------

struct Row {
  std::string iface;
  char type;
  std::string ops, shape;
  int64_t batch;
  double ms, gflops, gbs, pct, ref_ms, speedup, loop_ms, loop_speedup, error;
  std::string ref;
  bool ok;
  std::string kernel;
};

/// v in format f, or "-" where there is no value (0).
std::string fmt(double v, const char* f) { return v > 0 ? format(f, v) : "-"; }

class Report {
 public:
  Report(double read_bw, const Options& o, const std::vector<std::string>& header)
      : read_bw_(read_bw), header_(header) {
    if (!o.csv.empty()) {
      csv_.open(o.csv);
      csv_ << "iface,type,ops,shape,batch,time_ms,gflops,gbs,pct_read_bw,ref,ref_ms,speedup,"
              "loop_ms,loop_speedup,error,status,kernel\n";
    }
    if (!o.md.empty()) md_.open(o.md);
  }
  void print_header() {
    std::printf("%-8s %-4s %-3s %-10s %7s %9s %9s %8s %6s %-8s %9s %7s %9s %7s %9s %-6s %s\n",
                "iface", "type", "ops", "shape", "batch", "time", "GFLOP/s", "GB/s", "%read",
                "ref", "ref", "speedup", "loop", "speedup", "error", "status", "kernel");
    std::printf("%-8s %-4s %-3s %-10s %7s %9s %9s %8s %6s %-8s %9s %7s %9s %7s %9s %-6s %s\n", "",
                "", "", "", "", "(ms)", "", "", "", "", "(ms)", "", "(ms)", "", "", "", "");
    if (md_.is_open()) {
      for (const auto& h : header_) md_ << h << "  \n";
      md_ << "\n| iface | type | ops | shape | batch | time (ms) | GFLOP/s | GB/s | % read BW | "
             "ref | ref (ms) | speedup | loop (ms) | loop speedup | error | status | kernel |\n"
             "|---|---|---|---|---:|---:|---:|---:|---:|---|---:|---:|---:|---:|---:|---|---|\n";
    }
  }
  void add(const Row& r) {
    char err_text[32] = "-";
    if (r.error >= 0) std::snprintf(err_text, sizeof err_text, "%.2e", r.error);
    const std::string err = err_text;
    std::printf("%-8s %-4c %-3s %-10s %7lld %9.4f %9.1f %8.1f %6.1f %-8s %9s %7s %9s %7s %9s %-6s %s\n",
                r.iface.c_str(), r.type, r.ops.c_str(), r.shape.c_str(),
                static_cast<long long>(r.batch), r.ms, r.gflops, r.gbs, r.pct, r.ref.c_str(),
                fmt(r.ref_ms, "%.4f").c_str(), fmt(r.speedup, "%.2f").c_str(),
                fmt(r.loop_ms, "%.3f").c_str(), fmt(r.loop_speedup, "%.2f").c_str(), err.c_str(),
                r.ok ? "ok" : "FAILED", r.kernel.c_str());
    std::fflush(stdout);
    if (csv_.is_open())
      csv_ << r.iface << ',' << r.type << ',' << r.ops << ',' << r.shape << ',' << r.batch << ','
           << r.ms << ',' << r.gflops << ',' << r.gbs << ',' << r.pct << ',' << r.ref << ','
           << r.ref_ms << ',' << r.speedup << ',' << r.loop_ms << ',' << r.loop_speedup << ','
           << r.error << ',' << (r.ok ? "ok" : "FAILED") << ",\"" << r.kernel << "\"\n";
    if (md_.is_open())
      md_ << "| " << r.iface << " | " << r.type << " | " << r.ops << " | " << r.shape << " | "
          << r.batch << " | " << fmt(r.ms, "%.4f") << " | " << fmt(r.gflops, "%.1f") << " | "
          << fmt(r.gbs, "%.1f") << " | " << fmt(r.pct, "%.1f") << " | " << r.ref << " | "
          << fmt(r.ref_ms, "%.4f") << " | " << fmt(r.speedup, "%.2f") << " | "
          << fmt(r.loop_ms, "%.3f") << " | " << fmt(r.loop_speedup, "%.2f") << " | " << err
          << " | " << (r.ok ? "ok" : "FAILED") << " | " << r.kernel << " |\n";
    if (!r.ok) ++failures_;
  }
  void footer() {
    std::printf("# %d failed check(s)\n", failures_);
    if (md_.is_open()) md_ << "\n" << failures_ << " failed check(s)\n";
  }
  int failures() const { return failures_; }
  double read_bw() const { return read_bw_; }

 private:
  double read_bw_;
  std::vector<std::string> header_;
  std::ofstream csv_, md_;
  int failures_ = 0;
};

using Env = TesterEnv<Options, Report>;

template <Scalar T>
void scalars_of(const Options& o, T& alpha, T& beta) {
  alpha = o.scalars == "a1b0" ? T(1) : scalar<T>(0.75, 0.5);
  beta = o.scalars == "general" ? scalar<T>(-0.5, 0.25) : T(0);
}

//  +--------------------------------------------------------------------------------+
//  |  err = ||C - C_ref||_F / ((k |alpha| ||A||_F ||B||_F + |beta| ||C0||_F) eps)   |
//  |  over the whole batch (sum_i ||A_i|| ||B_i|| <= ||A||_F ||B||_F); both results   |
//  |  carry O(k eps) errors of their own; passes when err <= tol (x sqrt(2) complex) |
//  +--------------------------------------------------------------------------------+
template <Scalar T>
double batch_error(const Device& dev, int64_t len_c, T* C, T* C_ref, int64_t len_a, const T* A,
                   int64_t len_b, const T* B, const T* C0, int64_t k, T alpha, T beta) {
  cublasHandle_t h = dev.cublas();
  MGBLAS_CHECK_CUBLAS(cublasSetStream(h, dev.stream()));
  subtract(h, len_c, C, C_ref);
  const double d = nrm2(h, len_c, C_ref);
  return relative_error(d, static_cast<double>(k), alpha, nrm2(h, len_a, A), nrm2(h, len_b, B),
                        beta, nrm2(h, len_c, C0));
}

/// Forces --kernel name[:entries_per_block], when given, for as long as `force` lives.
void force_kernel(std::optional<bt::ScopedForce>& force, const std::string& spec) {
  if (spec.empty()) return;
  const auto colon = spec.find(':');
  force.emplace(bt::Forced{spec.substr(0, colon),
                           colon == std::string::npos ? 0 : std::stoi(spec.substr(colon + 1))});
}

/// Free device memory, for skipping cases that do not fit.
std::size_t free_memory() {
  std::size_t f = 0, t = 0;
  MGBLAS_CHECK_CUDA(cudaMemGetInfo(&f, &t));
  return f;
}

// ---- fixed sizes: strided and pointer arrays -------------------------------------------

template <Scalar T>
void run_fixed(Env& env, bool array, Op opA, Op opB, int64_t m, int64_t n, int64_t k,
               int64_t batch) {
  const Device& dev = *env.dev;
  const Options& o = *env.opt;
  cudaStream_t st = dev.stream();
  const int64_t ea = m * k, eb = k * n, ec = m * n;
  const double set_bytes = static_cast<double>(batch * (ea + eb + ec)) * sizeof(T);
  const int64_t copies = rotation_copies(env.l2_bytes, set_bytes, 32);
  const double need = set_bytes * copies + 2.0 * static_cast<double>(batch * ec) * sizeof(T);
  const std::string shape = std::to_string(m) + "x" + std::to_string(n) + "x" + std::to_string(k);
  const std::string ops = std::string(to_string(opA)) + to_string(opB);
  if (need > 0.85 * static_cast<double>(free_memory())) {
    std::printf("# skipped %s %c %s batch %lld: %.1f GB do not fit\n", array ? "array" : "strided",
                precision_letter<T>(), shape.c_str(), static_cast<long long>(batch), need / 1e9);
    return;
  }
  DeviceBuffer<T> A(dev, copies * batch * ea), B(dev, copies * batch * eb),
      C(dev, copies * batch * ec), C0(dev, batch * ec), Cref(dev, batch * ec);
  fill(dev, A.data(), copies * batch * ea, env.seed++);
  fill(dev, B.data(), copies * batch * eb, env.seed++);
  fill(dev, C.data(), copies * batch * ec, env.seed++);
  fill(dev, C0.data(), batch * ec, env.seed++);
  DeviceBuffer<const T*> pa, pb;
  DeviceBuffer<T*> pc;
  if (array) {
    std::vector<const T*> ha(copies * batch), hb(copies * batch);
    std::vector<T*> hc(copies * batch);
    for (int64_t i = 0; i < copies * batch; ++i) {
      ha[i] = A.data() + i * ea;
      hb[i] = B.data() + i * eb;
      hc[i] = C.data() + i * ec;
    }
    pa = DeviceBuffer<const T*>(dev, ha.size());
    pb = DeviceBuffer<const T*>(dev, hb.size());
    pc = DeviceBuffer<T*>(dev, hc.size());
    copy_vector(dev, static_cast<int64_t>(ha.size()), ha.data(), pa.data());
    copy_vector(dev, static_cast<int64_t>(hb.size()), hb.data(), pb.data());
    copy_vector(dev, static_cast<int64_t>(hc.size()), hc.data(), pc.data());
  }
  const int64_t lda = std::max<int64_t>(1, opA == Op::N ? m : k);
  const int64_t ldb = std::max<int64_t>(1, opB == Op::N ? k : n);
  T alpha, beta;
  scalars_of(o, alpha, beta);
  const Queue q(dev);
  auto mg = [&](int rep) {
    const int64_t r = rep % copies;
    if (array)
      gemm_batched<T>(q, opA, opB, m, n, k, alpha, pa.data() + r * batch, lda, pb.data() + r * batch,
                      ldb, beta, pc.data() + r * batch, m, batch);
    else
      gemm_batched_strided<T>(q, opA, opB, m, n, k, alpha, A.data() + r * batch * ea, lda, ea,
                              B.data() + r * batch * eb, ldb, eb, beta, C.data() + r * batch * ec,
                              m, ec, batch);
  };
  auto ref = [&](int rep) {
    const int64_t r = rep % copies;
    if (array)
      cb::gemm_batched<T>(dev.cublas(), st, opA, opB, m, n, k, alpha, pa.data() + r * batch, lda,
                          pb.data() + r * batch, ldb, beta, pc.data() + r * batch, m, batch);
    else
      cb::gemm_batched_strided<T>(dev.cublas(), st, opA, opB, m, n, k, alpha,
                                  A.data() + r * batch * ea, lda, ea, B.data() + r * batch * eb,
                                  ldb, eb, beta, C.data() + r * batch * ec, m, ec, batch);
  };
  std::optional<bt::ScopedForce> force;
  force_kernel(force, o.kernel);
  double err = -1;
  std::string kernel;
  if (o.check) {
    // C (copy 0) and C_ref start from C0; mgblas into C, cuBLAS into C_ref.
    copy_vector(dev, batch * ec, C0.data(), C.data());
    copy_vector(dev, batch * ec, C0.data(), Cref.data());
    mg(0);
    kernel = bt::last_choice().label();
    cb::gemm_batched_strided<T>(dev.cublas(), st, opA, opB, m, n, k, alpha, A.data(), lda, ea,
                                B.data(), ldb, eb, beta, Cref.data(), m, ec, batch);
    err = batch_error(dev, batch * ec, C.data(), Cref.data(), batch * ea, A.data(), batch * eb,
                      B.data(), C0.data(), k, alpha, beta);
  }
  const double t_ref = median_ms(st, o.warmup, o.niter, ref);
  const double t = median_ms(st, o.warmup, o.niter, mg);
  if (kernel.empty()) kernel = bt::last_choice().label();
  const double fl = flops<T>(m, n, k) * batch, by = bytes<T>(m, n, k, beta != T(0)) * batch;
  const double tol = tolerance<T>(o.tol);
  env.report->add({array ? "array" : "strided", precision_letter<T>(), ops, shape, batch, t,
                   fl / (t * 1e6), by / (t * 1e6), 100.0 * by / (t * 1e6) / env.report->read_bw(),
                   t_ref, t_ref / t, 0, 0, err, array ? "cuBLAS-b" : "cuBLAS-sb",
                   !o.check || err <= tol, kernel});
}

// ---- variable sizes -----------------------------------------------------------------------

template <Scalar T>
void run_variable(Env& env, Op opA, Op opB, int64_t vmax, bool gaussian, int64_t batch) {
  const Device& dev = *env.dev;
  const Options& o = *env.opt;
  cudaStream_t st = dev.stream();
  std::mt19937_64 rng(env.seed++);
  std::uniform_int_distribution<int64_t> uniform(1, vmax);
  std::normal_distribution<double> normal(vmax / 2.0, vmax / 6.0);
  const auto draw = [&] {
    if (!gaussian) return uniform(rng);
    return std::clamp<int64_t>(std::llround(normal(rng)), 1, vmax);
  };
  const PackedBatch P =
      pack_batch(batch, opA, opB, [&](int64_t) { return std::array{draw(), draw(), draw()}; });
  const auto &m = P.m, &n = P.n, &k = P.k, &lda = P.lda, &ldb = P.ldb, &ldc = P.ldc;
  const auto &ao = P.a_off, &bo = P.b_off, &co = P.c_off;
  const int64_t la = P.a_len, lb = P.b_len, lc = P.c_len;
  double fl = 0, by_rw = 0;
  T alpha, beta;
  scalars_of(o, alpha, beta);
  for (int64_t i = 0; i < batch; ++i) {
    fl += flops<T>(m[i], n[i], k[i]);
    by_rw += bytes<T>(m[i], n[i], k[i], beta != T(0));
  }
  const double set_bytes = static_cast<double>(la + lb + lc) * sizeof(T);
  const int64_t copies = rotation_copies(env.l2_bytes, set_bytes, 32);
  const std::string shape = std::string(gaussian ? "g" : "u") + std::to_string(vmax);
  const std::string ops = std::string(to_string(opA)) + to_string(opB);
  if (set_bytes * copies + 2 * lc * sizeof(T) > 0.85 * static_cast<double>(free_memory())) {
    std::printf("# skipped variable %c %s: does not fit\n", precision_letter<T>(), shape.c_str());
    return;
  }
  DeviceBuffer<T> A(dev, copies * la), B(dev, copies * lb), C(dev, copies * lc), C0(dev, lc),
      Cref(dev, lc);
  fill(dev, A.data(), copies * la, env.seed++);
  fill(dev, B.data(), copies * lb, env.seed++);
  fill(dev, C.data(), copies * lc, env.seed++);
  fill(dev, C0.data(), lc, env.seed++);
  // Pointer arrays per copy; sizes once.
  std::vector<const T*> ha(copies * batch), hb(copies * batch);
  std::vector<T*> hc(copies * batch);
  for (int64_t r = 0; r < copies; ++r)
    for (int64_t i = 0; i < batch; ++i) {
      ha[r * batch + i] = A.data() + r * la + ao[i];
      hb[r * batch + i] = B.data() + r * lb + bo[i];
      hc[r * batch + i] = C.data() + r * lc + co[i];
    }
  DeviceBuffer<const T*> pa(dev, ha.size()), pb(dev, hb.size());
  DeviceBuffer<T*> pc(dev, hc.size());
  copy_vector(dev, static_cast<int64_t>(ha.size()), ha.data(), pa.data());
  copy_vector(dev, static_cast<int64_t>(hb.size()), hb.data(), pb.data());
  copy_vector(dev, static_cast<int64_t>(hc.size()), hc.data(), pc.data());
  const std::vector<int64_t> sizes = P.sizes();
  DeviceBuffer<int64_t> ds(dev, sizes.size());
  copy_vector(dev, static_cast<int64_t>(sizes.size()), sizes.data(), ds.data());
  const int64_t mm = *std::max_element(m.begin(), m.end()), mn = *std::max_element(n.begin(), n.end());
  const int64_t mk = *std::max_element(k.begin(), k.end());
  const Queue q(dev);
  auto mg = [&](int rep) {
    const int64_t r = rep % copies;
    const int64_t* s = ds.data();
    gemm_vbatched<T>(q, opA, opB, s, s + batch, s + 2 * batch, alpha, pa.data() + r * batch,
                     s + 3 * batch, pb.data() + r * batch, s + 4 * batch, beta,
                     pc.data() + r * batch, s + 5 * batch, batch, mm, mn, mk);
  };
  // cuBLAS grouped: entries sorted by shape, one group per shape, pointer arrays in
  // group order (per copy).
  std::vector<int64_t> order(batch);
  std::iota(order.begin(), order.end(), 0);
  std::sort(order.begin(), order.end(), [&](int64_t a, int64_t b) {
    return std::tie(m[a], n[a], k[a]) < std::tie(m[b], n[b], k[b]);
  });
  std::vector<cublasOperation_t> gta, gtb;
  std::vector<int> gm, gn, gk, glda, gldb, gldc, gsize;
  std::vector<T> galpha, gbeta;
  for (int64_t j = 0; j < batch; ++j) {
    const int64_t i = order[j];
    if (j == 0 || m[i] != gm.back() || n[i] != gn.back() || k[i] != gk.back()) {
      gta.push_back(cu_op(opA, is_complex_v<T>));
      gtb.push_back(cu_op(opB, is_complex_v<T>));
      gm.push_back(static_cast<int>(m[i]));
      gn.push_back(static_cast<int>(n[i]));
      gk.push_back(static_cast<int>(k[i]));
      glda.push_back(static_cast<int>(lda[i]));
      gldb.push_back(static_cast<int>(ldb[i]));
      gldc.push_back(static_cast<int>(ldc[i]));
      galpha.push_back(alpha);
      gbeta.push_back(beta);
      gsize.push_back(0);
    }
    ++gsize.back();
  }
  std::vector<const T*> ga(copies * batch), gb(copies * batch);
  std::vector<T*> gc(copies * batch);
  for (int64_t r = 0; r < copies; ++r)
    for (int64_t j = 0; j < batch; ++j) {
      ga[r * batch + j] = ha[r * batch + order[j]];
      gb[r * batch + j] = hb[r * batch + order[j]];
      gc[r * batch + j] = hc[r * batch + order[j]];
    }
  DeviceBuffer<const T*> dga(dev, ga.size()), dgb(dev, gb.size());
  DeviceBuffer<T*> dgc(dev, gc.size());
  copy_vector(dev, static_cast<int64_t>(ga.size()), ga.data(), dga.data());
  copy_vector(dev, static_cast<int64_t>(gb.size()), gb.data(), dgb.data());
  copy_vector(dev, static_cast<int64_t>(gc.size()), gc.data(), dgc.data());
  const bool has_grouped = !is_complex_v<T>;
  auto grp = [&](int rep, T* const* cptrs) {
    const int64_t r = rep % copies;
    MGBLAS_CHECK_CUBLAS(cublasSetStream(dev.cublas(), st));
    if constexpr (!is_complex_v<T>) {
      using RT = T;
      grouped(dev.cublas(), gta, gtb, gm, gn, gk, galpha,
              reinterpret_cast<const RT* const*>(dga.data() + r * batch), glda,
              reinterpret_cast<const RT* const*>(dgb.data() + r * batch), gldb, gbeta,
              reinterpret_cast<RT* const*>(cptrs ? cptrs : dgc.data() + r * batch), gldc, gsize);
    }
  };
  // Stream loop of cublas<t>gemm over entries [0, count) of copy r, into C of copy r or
  // into c_base (a buffer laid out like one copy's C).
  auto loop = [&](int64_t r, int64_t count, T* c_base) {
    for (int64_t i = 0; i < count; ++i)
      cb::gemm<T>(dev.cublas(), st, opA, opB, m[i], n[i], k[i], alpha, ha[r * batch + i], lda[i],
                  hb[r * batch + i], ldb[i], beta,
                  c_base ? c_base + co[i] : hc[r * batch + i], ldc[i]);
  };
  std::optional<bt::ScopedForce> force;
  force_kernel(force, o.kernel);
  double err = -1;
  std::string kernel;
  if (o.check) {
    copy_vector(dev, lc, C0.data(), C.data());
    copy_vector(dev, lc, C0.data(), Cref.data());
    mg(0);
    kernel = bt::last_choice().label();
    if (has_grouped) {
      // Grouped into Cref: its pointer arrays rebased from C (copy 0) to Cref.
      std::vector<T*> rc(batch);
      for (int64_t j = 0; j < batch; ++j) rc[j] = Cref.data() + co[order[j]];
      DeviceBuffer<T*> drc(dev, rc.size());
      copy_vector(dev, batch, rc.data(), drc.data());
      grp(0, drc.data());
      dev.synchronize();
    } else {
      loop(0, batch, Cref.data());
    }
    err = batch_error(dev, lc, C.data(), Cref.data(), la, A.data(), lb, B.data(), C0.data(), mk,
                      alpha, beta);
  }
  const double t = median_ms(st, o.warmup, o.niter, mg);
  if (kernel.empty()) kernel = bt::last_choice().label();
  double t_grp = 0;
  if (has_grouped) t_grp = median_ms(st, o.warmup, o.niter, [&](int rep) { grp(rep, nullptr); });
  // The stream loop: one warm-up pass over a few entries, then one timed pass over the
  // first loop_max entries, scaled to the whole batch.
  const int64_t loop_n = std::min(batch, o.loop_max);
  loop(0, std::min<int64_t>(loop_n, 100), nullptr);
  const double t_loop_part = median_ms(st, 0, 1, [&](int) { loop(1 % copies, loop_n, nullptr); });
  const double t_loop = t_loop_part * static_cast<double>(batch) / static_cast<double>(loop_n);
  const double tol = tolerance<T>(o.tol);
  env.report->add({"variable", precision_letter<T>(), ops, shape, batch, t, fl / (t * 1e6),
                   by_rw / (t * 1e6), 100.0 * by_rw / (t * 1e6) / env.report->read_bw(), t_grp,
                   t_grp > 0 ? t_grp / t : 0, t_loop, t_loop / t, err,
                   has_grouped ? "cuBLAS-g" : "-", !o.check || err <= tol, kernel});
}

// ---- driver ---------------------------------------------------------------------------

struct Shape {
  int64_t m, n, k;
};

std::vector<Shape> shapes_of(const Options& o) {
  std::vector<Shape> s;
  std::vector<int64_t> squares = o.nlist;
  if (!o.range.empty())
    for (int64_t v : parse_range(o.range)) squares.push_back(v);
  for (int64_t v : squares) s.push_back({v, v, v});
  if (o.smallk)
    for (int64_t mn : {8, 16, 32, 64})
      if (std::find(squares.begin(), squares.end(), mn) != squares.end() || squares.empty())
        for (int64_t k : {8, 16, 32})
          if (k != mn) s.push_back({mn, mn, k});
  for (const auto& d : o.dims) {
    long long m = 0, n = 0, k = 0;
    if (std::sscanf(d.c_str(), "%lldx%lldx%lld", &m, &n, &k) != 3)
      throw std::invalid_argument("--dim wants MxNxK");
    s.push_back({m, n, k});
  }
  if (s.empty()) s = {{4, 4, 4}, {16, 16, 16}};
  return s;
}

int run(int argc, char** argv) {
  Options o;
  CLI::App app{"mgblas-tester batched: check and time mgblas's batched GEMM engine against cuBLAS"};
  app.add_option("--iface", o.ifaces, "strided, array, variable")->delimiter(',')->capture_default_str();
  add_type_option(app, o.types);
  app.add_option("--ops", o.ops, "op pairs: NN, NT, ..., CC")->delimiter(',')->capture_default_str();
  app.add_option("--range", o.range, "square sizes start:stop[:step]");
  app.add_option("-n,--n", o.nlist, "square sizes, comma list")->delimiter(',');
  app.add_option("--dim", o.dims, "shapes MxNxK, comma list")->delimiter(',');
  app.add_flag("--smallk", o.smallk, "add m = n in {8, 16, 32, 64} (of the sizes) with k in {8, 16, 32}");
  app.add_option("--batch", o.batches, "batch counts (fixed sizes)")->delimiter(',')->capture_default_str();
  app.add_option("--vmax", o.vmax, "variable sizes: maxima")->delimiter(',')->capture_default_str();
  app.add_option("--dist", o.dists, "variable sizes: uniform, gaussian")->delimiter(',')->capture_default_str();
  app.add_option("--vbatch", o.vbatch, "variable sizes: batch count")->capture_default_str();
  app.add_option("--loop-max", o.loop_max, "entries the stream loop is timed on")->capture_default_str();
  app.add_option("--scalars", o.scalars, "general (alpha, beta != 0), beta0, a1b0 (alpha 1, beta 0)")
      ->capture_default_str();
  app.add_option("--kernel", o.kernel, "force a kernel: name[:entries_per_block]");
  add_common_options(app, o, "the reference");
  app.add_option("--md", o.md, "also write a markdown table (with the command line)");
  CLI11_PARSE(app, argc, argv);
  if (o.niter < 1) o.niter = 1;
  if (o.scalars != "general" && o.scalars != "beta0" && o.scalars != "a1b0")
    throw std::invalid_argument("--scalars wants general, beta0 or a1b0");

  cudaDeviceProp prop{};
  const auto dev = open_gpu0(prop);
  if (!dev) return kSkipped;
  std::vector<std::string> header;
  auto line = [&](const std::string& s) {
    header.push_back(s);
    std::printf("%s\n", s.c_str());
  };
  line(version_line("mgblas-tester batched"));
  line(device_line(prop));
  line("# command: " + command_line(argc, argv));
  // The library's probe, the one mgblas-tester tsgemm's model is calibrated with.
  const double bw = kernels::cuda::tsm2::measure_read_bandwidth(dev->stream());
  char b[512];
  std::snprintf(b, sizeof b, "# read bandwidth: %.1f GB/s (float4 loads over 2 GiB, median of 10)", bw);
  line(b);
  line("# tables: " + bt::table_sources());
  std::snprintf(b, sizeof b,
                "# times: median of %d after %d warm-up calls; operands rotated over copies up "
                "to 3x L2; scalars %s; stream loop timed on %lld entries and scaled",
                o.niter, o.warmup, o.scalars.c_str(), static_cast<long long>(o.loop_max));
  line(b);
  Report report(bw, o, header);
  report.print_header();
  Env env{dev.get(), &o, &report, static_cast<std::size_t>(prop.l2CacheSize), o.seed};
  const auto shapes = shapes_of(o);
  for (const auto& iface : o.ifaces)
    for (const auto& t : o.types)
      for_type(t, [&](auto tag) {
        using T = decltype(tag);
        for (const auto& ops : o.ops) {
          if (ops.size() != 2) throw std::invalid_argument("--ops wants pairs such as NN");
          const Op a = op_of(ops[0]), bb = op_of(ops[1]);
          if (iface == "variable") {
            for (int64_t vm : o.vmax)
              for (const auto& d : o.dists) run_variable<T>(env, a, bb, vm, d == "gaussian", o.vbatch);
          } else if (iface == "strided" || iface == "array") {
            for (int64_t batch : o.batches)
              for (const Shape& s : shapes) run_fixed<T>(env, iface == "array", a, bb, s.m, s.n, s.k, batch);
          } else {
            throw std::invalid_argument("unknown --iface " + iface);
          }
        }
      });
  report.footer();
  return report.failures();
}

}  // namespace
}  // namespace mgblas::testers

namespace mgblas::testers {
// `mgblas-tester batched` (testers/mgblas_tester.cpp).
int batched_main(int argc, char** argv) {
  return guarded_main("mgblas-tester batched", run, argc, argv);
}
}  // namespace mgblas::testers
