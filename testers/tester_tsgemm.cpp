// SPDX-License-Identifier: BSD-3-Clause
// mgblas-tester tsgemm: checks and times mgblas's tall-and-skinny GEMM (TSM2R, TSM2L, the A^H B
// k-split) against cublas<t>gemm on the same device data, in the MAGMA / nccl-tests
// manner (STYLE.md section 9), and the row-tiled multi-GPU form.
//
//   mgblas-tester tsgemm --grid r,l --type s,d,c,z              the paper's grid on GPU 0
//   mgblas-tester tsgemm --dim 4194304x16x16 --type d --sweep   every compiled tuning set
//   mgblas-tester tsgemm --opA C --dim 16x16x16777216 --type z  A^H B (m x n x k)
//   mgblas-tester tsgemm --ngpu 1,2,4 --type d                  row-tiled scaling (TSM2L m = 2^26)
//   mgblas-tester tsgemm --entry hemm --dim 16384x32x16384 --type s  the engine's hemm (m = k)
//
// At start it measures the read bandwidth of GPU 0 (float4 streaming reads of 2 GiB,
// median of 10) and gives it to the performance model. Grids (--grid):
//   r  TSM2R: m = k in {10240, 16384, 20480, 30720}, n in {2, 4, 8, 16, 32}
//   l  TSM2L: m in {2^20, 2^22, 2^24}, k = n in {4, 8, 16, 32}
//   t  A^H B: k in {2^20, 2^24}, m = n in {4, 8, 16, 32} (op(A) = T real, C complex)
// Each case fills A, B, C with uniform [-1, 1) values on the device, checks mgblas
// against cuBLAS once (random complex alpha, beta), then times both with CUDA events
// on C = A op(B) (alpha = 1, beta = --beta, default 0): --warmup untimed calls, then the
// median of --niter calls. When A is smaller than 3x the L2 cache the calls rotate over
// copies of A and C so every call reads A from device memory. Columns:
//   time     median ms of mgblas (the dispatcher's choice, or each tuning set: --sweep)
//   GB/s     (A + B + C) elements x size / time: each operand counted once
//   %read    GB/s over the measured read bandwidth
//   cuBLAS   the same for cublas<t>gemm; speedup = cuBLAS time / mgblas time
//   model    the performance model's prediction for the launch (us, GB/s, bound)
//   error    ||C_mgblas - C_cublas||_F / ((k |alpha| ||A|| ||B|| + |beta| ||C0||) eps)
//   engine   what ran (tsgemm_choice), its registers / spill bytes / blocks per SM
// Exit status: the number of failed checks.
#include <cublas_v2.h>
#include <cuda_runtime.h>

#include <CLI/CLI.hpp>
#include <algorithm>
#include <chrono>
#include <cmath>
#include <complex>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <limits>
#include <map>
#include <memory>
#include <string>
#include <type_traits>
#include <vector>

#include "core/context.hpp"
#include "core/detail/cuda_check.hpp"
#include "core/device.hpp"
#include "core/error.hpp"
#include "core/memory.hpp"
#include "core/types.hpp"
#include "dist/reducer.hpp"
#include "dist/tsgemm_mgpu.hpp"
#include "kernels/cuda/common/cublas.hpp"
#include "kernels/cuda/gemm/skinny.hpp"
#include "kernels/cuda/tsgemm/tsgemm.hpp"
#include "kernels/cuda/tsgemm/tsgemm_tuning.hpp"
#include "kernels/gemm_kernels.hpp"
#include "testers/subcommands.hpp"
#include "testers/tester_common.hpp"

namespace mgblas::testers {
namespace {

namespace ts = kernels::cuda::tsm2;

struct Options : CommonOptions {
  std::vector<std::string> grids{"r", "l"};
  std::vector<std::string> dims;
  std::string opA = "N", opB = "N";
  std::vector<int> ngpu;
  double beta = 0.0;
  std::string md;
  bool sweep = false;
  std::string entry = "tsgemm";  // or "hemm": the engine's hemm, lower (skinny.cu in float)
};

struct Case {
  Op opA, opB;
  int64_t m, n, k;
  std::string group;  // "tsm2r", "tsm2l", "ahb", "custom"
};

Op to_op(const std::string& s) {
  if (s == "N" || s == "n") return Op::N;
  if (s == "T" || s == "t") return Op::T;
  if (s == "C" || s == "c") return Op::C;
  throw std::invalid_argument("op must be N, T or C, not " + s);
}

// ---- output ----------------------------------------------------------------------------

struct Row {
  char type = '?';
  std::string opA, opB, group;
  int64_t m = 0, n = 0, k = 0;
  int ngpu = 1;
  double ms = 0, gbs = 0, pct = 0, cb_ms = 0, cb_gbs = 0, cb_pct = 0, speedup = 0;
  double model_us = 0, model_gbs = 0;
  std::string bound = "-";
  double error = -1;
  std::string status = "ok";
  std::string engine;
  int regs = 0, spill = 0, blocks_per_sm = 0;
  int64_t split = 0;
};

class Report {
 public:
  Report(double read_bw, const Options& o, const std::string& header) : bw_(read_bw) {
    if (!o.csv.empty()) {
      csv_.open(o.csv);
      csv_ << "type,opA,opB,group,m,n,k,ngpu,time_ms,gbs,pct_read_bw,cublas_ms,cublas_gbs,"
              "cublas_pct_read_bw,speedup,model_us,model_gbs,model_bound,error,status,engine,"
              "regs,spill_bytes,blocks_per_sm,split\n";
    }
    if (!o.md.empty()) {
      md_.open(o.md);
      md_ << "```\n" << header << "```\n\n"
          << "| type | op | m | n | k | GPUs | time (ms) | GB/s | % read | cuBLAS ms | cuBLAS GB/s "
             "| cuBLAS % read | speedup | model us | model GB/s | bound | error | status | "
             "engine | regs/spill/blk |\n"
          << "|";
      for (int col = 0; col < 20; ++col) md_ << "---|";
      md_ << "\n";
    }
  }
  void header() const {
    std::printf("%-4s %-3s %10s %5s %10s %4s %9s %8s %6s %9s %8s %6s %7s %9s %8s %-7s %9s %-6s %s\n",
                "type", "op", "m", "n", "k", "gpu", "time", "GB/s", "%read", "cuBLAS", "GB/s",
                "%read", "speedup", "model", "GB/s", "bound", "error", "status", "engine");
    std::printf("%-4s %-3s %10s %5s %10s %4s %9s %8s %6s %9s %8s %6s %7s %9s %8s %-7s %9s %-6s %s\n",
                "", "", "", "", "", "", "(ms)", "(A+B+C)", "", "(ms)", "", "", "", "(us)", "",
                "", "", "", "(regs/spill/blocks per SM)");
  }
  void add(const Row& r) {
    const std::string op = r.opA + r.opB;
    const std::string err = r.error >= 0 ? format("%.2e", r.error) : "-";
    const std::string eng = r.engine + (r.regs > 0 ? " (" + std::to_string(r.regs) + "/" +
                                                         std::to_string(r.spill) + "/" +
                                                         std::to_string(r.blocks_per_sm) + ")"
                                                   : "") +
                            (r.split > 1 ? " split " + std::to_string(r.split) : "");
    std::printf("%-4c %-3s %10lld %5lld %10lld %4d %9.4f %8.1f %6.1f %9.4f %8.1f %6.1f %7.3f %9.1f "
                "%8.1f %-7s %9s %-6s %s\n",
                r.type, op.c_str(), static_cast<long long>(r.m), static_cast<long long>(r.n),
                static_cast<long long>(r.k), r.ngpu, r.ms, r.gbs, r.pct, r.cb_ms, r.cb_gbs,
                r.cb_pct, r.speedup, r.model_us, r.model_gbs, r.bound.c_str(), err.c_str(),
                r.status.c_str(), eng.c_str());
    std::fflush(stdout);
    if (csv_.is_open())
      csv_ << r.type << ',' << r.opA << ',' << r.opB << ',' << r.group << ',' << r.m << ','
           << r.n << ',' << r.k << ',' << r.ngpu << ',' << r.ms << ',' << r.gbs << ',' << r.pct
           << ',' << r.cb_ms << ',' << r.cb_gbs << ',' << r.cb_pct << ',' << r.speedup << ','
           << r.model_us << ',' << r.model_gbs << ',' << r.bound << ',' << r.error << ','
           << r.status << ",\"" << r.engine << "\"," << r.regs << ',' << r.spill << ','
           << r.blocks_per_sm << ',' << r.split << '\n';
    if (md_.is_open())
      md_ << "| " << r.type << " | " << op << " | " << r.m << " | " << r.n << " | " << r.k
          << " | " << r.ngpu << " | " << format("%.4f", r.ms) << " | " << format("%.0f", r.gbs)
          << " | " << format("%.1f", r.pct) << " | " << format("%.4f", r.cb_ms) << " | "
          << format("%.0f", r.cb_gbs) << " | " << format("%.1f", r.cb_pct) << " | "
          << format("%.3f", r.speedup) << " | " << format("%.1f", r.model_us) << " | "
          << format("%.0f", r.model_gbs) << " | " << r.bound
          << " | " << err << " | " << r.status << " | " << r.engine
          << (r.split > 1 ? " split " + std::to_string(r.split) : "") << " | " << r.regs << "/"
          << r.spill << "/" << r.blocks_per_sm << " |\n";
    if (r.status == "FAILED") ++failures_;
    rows_.push_back(r);
  }

  /// Per group and precision: rows, mean % of read bandwidth (mgblas and cuBLAS), the
  /// geometric-mean speedup; printed last, and appended to the markdown file.
  void summary() {
    struct Acc {
      int rows = 0;
      double pct = 0, cb_pct = 0, log_speedup = 0, min_pct = 1e9;
    };
    std::map<std::string, Acc> groups;
    for (const Row& r : rows_) {
      // Sweep rows compare tuning sets: their averages would mean nothing.
      if (r.status != "ok" || r.ms <= 0 || r.group.find("-sweep") != std::string::npos) continue;
      std::string key = r.group + " " + std::string(1, r.type);
      if (r.group.rfind("tsm2r", 0) == 0) key += r.n <= 16 ? " n<=16" : " n=32";
      if (r.group.rfind("tsm2l", 0) == 0) key += r.m >= (int64_t{1} << 22) ? " m>=2^22" : " m<2^22";
      if (r.ngpu > 1 || r.group == "rows") key = "rows " + std::string(1, r.type) + " " +
                                                  std::to_string(r.ngpu) + " GPU";
      Acc& a = groups[key];
      ++a.rows;
      a.pct += r.pct;
      a.cb_pct += r.cb_pct;
      a.min_pct = std::min(a.min_pct, r.pct);
      a.log_speedup += std::log(std::max(r.speedup, 1e-9));
    }
    std::string out = "\n# summary (ok rows; speedup = geometric mean over the group)\n";
    out += "# group                       rows  mean%read  min%read  cuBLAS%read  speedup\n";
    for (const auto& [key, a] : groups)
      out += "# " + key + std::string(key.size() < 28 ? 28 - key.size() : 1, ' ') +
             format("%4.0f", a.rows) + format("  %9.1f", a.pct / a.rows) +
             format("  %8.1f", a.min_pct) + format("  %11.1f", a.cb_pct / a.rows) +
             format("  %7.3f", std::exp(a.log_speedup / a.rows)) + "\n";
    out += "# " + std::to_string(failures_) + " failed check(s)\n";
    std::printf("%s", out.c_str());
    if (md_.is_open()) md_ << "\n```" << out << "```\n";
  }
  int failures() const { return failures_; }
  double bw() const { return bw_; }

 private:
  double bw_;
  std::ofstream csv_, md_;
  int failures_ = 0;
  std::vector<Row> rows_;
};

// ---- one single-GPU case -----------------------------------------------------------------

using Env = TesterEnv<Options, Report>;

template <Scalar T>
void run_case(Env& env, const Case& c) {
  const Device& dev = *env.dev;
  const Options& o = *env.opt;
  cudaStream_t st = dev.stream();
  cublasHandle_t h = dev.cublas();
  const int64_t m = c.m, n = c.n, k = c.k;
  const int64_t rowsA = c.opA == Op::N ? m : k, colsA = c.opA == Op::N ? k : m;
  const int64_t rowsB = c.opB == Op::N ? k : n, colsB = c.opB == Op::N ? n : k;
  const int64_t lda = std::max<int64_t>(1, rowsA), ldb = std::max<int64_t>(1, rowsB), ldc = m;
  const int64_t elemsA = lda * colsA, elemsB = ldb * colsB, elemsC = m * n;
  Row row;
  row.type = precision_letter<T>();
  row.opA = to_string(c.opA);
  row.opB = to_string(c.opB);
  row.group = c.group;
  row.m = m, row.n = n, row.k = k;

  // Copies of A and C to rotate through when A would stay in the L2 cache.
  const double bytesA = static_cast<double>(elemsA) * sizeof(T);
  const int64_t copies = rotation_copies(env.l2_bytes, bytesA, 64);
  const double need = sizeof(T) * (static_cast<double>(elemsA + elemsC) * copies + elemsB + 2.0 * elemsC);
  std::size_t free_b = 0, total_b = 0;
  MGBLAS_CHECK_CUDA(cudaMemGetInfo(&free_b, &total_b));
  if (need > 0.9 * static_cast<double>(free_b)) {
    row.status = "skip";
    row.engine = "needs " + format("%.1f", need / 1e9) + " GB of device memory";
    env.report->add(row);
    return;
  }
  DeviceBuffer<T> A(dev, static_cast<std::size_t>(elemsA * copies)), B(dev, static_cast<std::size_t>(elemsB));
  DeviceBuffer<T> C(dev, static_cast<std::size_t>(elemsC * copies)), C0(dev, static_cast<std::size_t>(elemsC)),
      Ccb(dev, static_cast<std::size_t>(elemsC));
  fill(st, A.data(), static_cast<int64_t>(A.size()), env.seed++);
  fill(st, B.data(), elemsB, env.seed++);
  fill(st, C0.data(), elemsC, env.seed++);
  auto a_of = [&](int rep) { return A.data() + (rep % copies) * elemsA; };
  auto c_of = [&](int rep) { return C.data() + (rep % copies) * elemsC; };

  const double tol = tolerance<T>(o.tol);
  const T t_alpha = T(1), t_beta = scalar<T>(o.beta, 0.0);
  const ts::Choice auto_choice =
      ts::choose<T>(c.opA, c.opB, m, n, k, A.data(), lda, B.data(), ldb, C.data(), ldc,
                    t_beta == T(0));

  // The kernel whose shapes these are (the dispatcher may still prefer cuBLAS).
  ts::Engine natural = ts::Engine::Cublas;
  if (c.opA == Op::N && n <= ts::kMaxSkinny)
    natural = k <= ts::kMaxK ? ts::Engine::Tsm2l : ts::Engine::Tsm2r;
  else if (c.opA != Op::N && c.opB == Op::N && m <= ts::kMaxSkinny && n <= ts::kMaxSkinny)
    natural = ts::Engine::Tsmttsm;
  // The launches to time: the dispatcher's (and, where it chose cuBLAS over a kernel
  // that covers the shape, that kernel's best set too), or every set of the kernel.
  std::vector<ts::Params> runs{ts::Params{}};
  // The product under test and cuBLAS's: tsgemm with launch parameters p against
  // cublas<t>gemm, or (--entry hemm, m = k) the engine's hemm with A's lower triangle against
  // cublas<t>hemm.
  const bool via_hemm = o.entry == "hemm";
  if (via_hemm && (m != k || c.opA != Op::N || c.opB != Op::N))
    throw std::invalid_argument("--entry hemm takes m = k and op N");
  const auto call = [&](const ts::Params& p, T alpha, const T* A_, T beta, T* C_) {
    if (via_hemm)
      kernels::hemm<T>(dev, /*herm=*/true, Uplo::Lower, m, n, alpha, A_, lda, B.data(), ldb, beta,
                       C_, ldc);
    else
      ts::tsgemm<T>(h, st, c.opA, c.opB, m, n, k, alpha, A_, lda, B.data(), ldb, beta, C_, ldc, p);
  };
  const auto cublas = [&](T alpha, const T* A_, T beta, T* C_) {
    if (via_hemm)
      kernels::cuda::common::cublas::hemm<T>(h, st, /*herm=*/true, Uplo::Lower, m, n, alpha, A_,
                                             lda, B.data(), ldb, beta, C_, ldc);
    else
      kernels::cuda::common::cublas::gemm<T>(h, st, c.opA, c.opB, m, n, k, alpha, A_, lda, B.data(),
                                             ldb, beta, C_, ldc);
  };
  if (via_hemm) {
  } else if (auto_choice.engine == ts::Engine::Cublas && natural != ts::Engine::Cublas)
    runs.push_back({.engine = natural});
  if (o.sweep && !via_hemm && natural != ts::Engine::Cublas) {
    runs.clear();
    for (int v = 0; v < ts::variant_count<T>(natural); ++v)
      runs.push_back({.engine = natural, .variant = v});
  }

  //  +--------------------------------------------------------------------------+
  //  |  err = ||C_mgblas - C_cublas||_F / ((k |alpha| ||A|| ||B|| + |beta| ||C0||) |
  //  |        * eps); both carry O(k eps) errors; passes when err <= tol        |
  //  +--------------------------------------------------------------------------+
  auto check = [&](const ts::Params& p) -> double {
    const T alpha = scalar<T>(0.75, 0.5), beta = scalar<T>(-0.5, 0.25);
    copy_vector(dev, elemsC, C0.data(), C.data());
    copy_vector(dev, elemsC, C0.data(), Ccb.data());
    call(p, alpha, A.data(), beta, C.data());
    cublas(alpha, A.data(), beta, Ccb.data());
    const double nA = nrm2(h, elemsA, A.data()), nB = nrm2(h, elemsB, B.data());
    const double nC0 = nrm2(h, elemsC, C0.data());
    subtract(h, elemsC, C.data(), Ccb.data());
    const double d = nrm2(h, elemsC, Ccb.data());
    return relative_error(d, static_cast<double>(k), alpha, nA, nB, beta, nC0);
  };

  const double bytes = static_cast<double>(elemsA + elemsB + elemsC) * sizeof(T);
  const double t_cb = median_ms(st, o.warmup, o.niter,
                                [&](int rep) { cublas(t_alpha, a_of(rep), t_beta, c_of(rep)); });
  for (const ts::Params& p : runs) {
    Row r = row;
    // Summary groups keep the dispatcher's rows apart from forced-kernel rows.
    if (o.sweep) r.group += "-sweep";
    else if (p.engine != ts::Engine::Auto) r.group += "-kernel";
    ts::Choice ch;
    try {
      ch = ts::choose<T>(c.opA, c.opB, m, n, k, A.data(), lda, B.data(), ldb, C.data(), ldc,
                         t_beta == T(0), p);
    } catch (const BadArgument&) {
      if (o.sweep) continue;  // a tuning set that does not take this shape (n > its n_max)
      throw;
    }
    r.engine = ch.label;
    r.split = ch.engine == ts::Engine::Tsm2l ? 0 : ch.split;
    if (via_hemm) {
      const bool own =
          std::is_same_v<real_type_t<T>, float> && kernels::cuda::skinny::serves_symm(m, n);
      r.engine = own ? "hemm: kernels/cuda/gemm/skinny.cu" : "hemm: cublas";
      r.split = 0;
    } else if (ch.engine != ts::Engine::Cublas) {
      const ts::KernelResources kr = ts::variant_resources<T>(ch.engine, ch.variant);
      r.regs = kr.regs;
      r.spill = kr.local_bytes;
      r.blocks_per_sm = kr.blocks_per_sm;
      r.model_us = ch.prediction.time_us;
      r.model_gbs = bytes / (ch.prediction.time_us * 1e3);
      r.bound = ch.prediction.compute_bound ? "compute" : "memory";
    }
    if (o.check) {
      r.error = check(p);
      if (!(r.error <= tol)) r.status = "FAILED";
    }
    const double t = median_ms(st, o.warmup, o.niter,
                               [&](int rep) { call(p, t_alpha, a_of(rep), t_beta, c_of(rep)); });
    r.ms = t;
    r.gbs = bytes / (t * 1e6);
    r.pct = 100.0 * r.gbs / env.report->bw();
    r.cb_ms = t_cb;
    r.cb_gbs = bytes / (t_cb * 1e6);
    r.cb_pct = 100.0 * r.cb_gbs / env.report->bw();
    r.speedup = t_cb / t;
    env.report->add(r);
  }
}

// ---- row-tiled scaling over GPUs of this process -------------------------------------------

/// Returns the median time (ms); `base_ms` > 0 is the one-GPU time of the same case,
/// for the speedup column.
template <Scalar T>
double run_ngpu(Env& env, const Case& c, int g, double base_ms) {
  const Options& o = *env.opt;
  Row row;
  row.type = precision_letter<T>();
  row.opA = "N";
  row.opB = to_string(c.opB);
  row.group = "rows";
  row.m = c.m, row.n = c.n, row.k = c.k;
  row.ngpu = g;
  ContextOptions copt;
  copt.backend = BackendChoice::Cuda;
  copt.bind = false;
  for (int d = 0; d < g; ++d) copt.gpus.push_back(d);
  auto ctx = Context::create(copt);
  const int64_t m = c.m, n = c.n, k = c.k;
  RowTiledMatrix<T> A(ctx, m, k, 128), C(ctx, m, n, 128);
  std::vector<T> Bh(static_cast<std::size_t>(k * n));
  for (std::size_t i = 0; i < Bh.size(); ++i)
    Bh[i] = scalar<T>(std::sin(0.37 * static_cast<double>(i)), std::cos(0.11 * static_cast<double>(i)));
  for (int d = 0; d < g; ++d) {
    const Device& dev = ctx->device(d);
    dev.make_current();
    if (A.local_m(d) > 0) {
      fill(dev.stream(), A.local(d), A.ld(d) * k, env.seed + d);
      fill(dev.stream(), C.local(d), C.ld(d) * n, env.seed + 100 + d);
    }
  }
  ctx->synchronize();
  auto reducer = make_reducer(ctx);
  const T alpha = T(1), beta = scalar<T>(o.beta, 0.0);
  const int64_t ldb = c.opB == Op::N ? k : n;
  auto call = [&] { tsgemm_mgpu(*reducer, c.opB, alpha, A, Bh.data(), ldb, beta, C); };
  for (int r = 0; r < o.warmup; ++r) call();
  std::vector<double> t;
  for (int r = 0; r < o.niter; ++r) {
    const auto t0 = std::chrono::steady_clock::now();
    call();  // returns with every device synchronised
    t.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count());
  }
  std::sort(t.begin(), t.end());
  row.ms = t[t.size() / 2];
  const double bytes = static_cast<double>(m * k + k * n + m * n) * sizeof(T);
  row.gbs = bytes / (row.ms * 1e6);
  row.pct = 100.0 * row.gbs / (env.report->bw() * g);
  // Check: each device's rows against cuBLAS on the same rows (alpha = 1, beta = 0).
  if (o.check) {
    double d2 = 0, ref2 = 0;
    tsgemm_mgpu(*reducer, c.opB, T(1), A, Bh.data(), ldb, T(0), C);
    for (int d = 0; d < g; ++d) {
      const int64_t lm = A.local_m(d);
      if (lm == 0) continue;
      const Device& dev = ctx->device(d);
      dev.make_current();
      DeviceBuffer<T> Bd(dev, Bh.size()), ref(dev, static_cast<std::size_t>(C.ld(d) * n));
      copy_vector(dev, static_cast<int64_t>(Bh.size()), Bh.data(), Bd.data());
      // The padding rows of C's local block are never written: zero them in both.
      memset_bytes(dev, ref.data(), 0, ref.size() * sizeof(T));
      kernels::cuda::common::cublas::gemm<T>(dev.cublas(), dev.stream(), Op::N, c.opB, lm, n, k, T(1),
                                     A.local(d), A.ld(d), Bd.data(), ldb, T(0), ref.data(), C.ld(d));
      for (int64_t j = 0; j < n && C.ld(d) > lm; ++j)
        memset_bytes(dev, C.local(d) + j * C.ld(d) + lm, 0,
                     static_cast<std::size_t>(C.ld(d) - lm) * sizeof(T));
      const double nr = nrm2(dev.cublas(), C.ld(d) * n, ref.data());
      subtract(dev.cublas(), C.ld(d) * n, C.local(d), ref.data());
      const double dd = nrm2(dev.cublas(), C.ld(d) * n, ref.data());
      d2 += dd * dd;
      ref2 += nr * nr;
    }
    const double eps = std::numeric_limits<real_type_t<T>>::epsilon();
    row.error = std::sqrt(d2) / (std::max(std::sqrt(ref2), 1e-300) * k * eps);
    if (!(row.error <= tolerance<T>(o.tol))) row.status = "FAILED";
  }
  row.speedup = base_ms > 0 ? base_ms / row.ms : 0.0;
  row.engine = std::string("tsgemm_mgpu rows (speedup: over 1 GPU)");
  env.report->add(row);
  return row.ms;
}

std::vector<Case> cases_of(const Options& o, bool complex) {
  std::vector<Case> out;
  if (!o.dims.empty()) {
    for (const auto& d : o.dims) {
      long long m = 0, n = 0, k = 0;
      if (std::sscanf(d.c_str(), "%lldx%lldx%lld", &m, &n, &k) != 3)
        throw std::invalid_argument("--dim wants MxNxK");
      out.push_back({to_op(o.opA), to_op(o.opB), m, n, k, "custom"});
    }
    return out;
  }
  for (const auto& g : o.grids) {
    if (g == "r") {
      for (int64_t mk : {10240, 16384, 20480, 30720})
        for (int64_t n : {2, 4, 8, 16, 32}) out.push_back({Op::N, Op::N, mk, n, mk, "tsm2r"});
    } else if (g == "l") {
      for (int64_t m : {int64_t{1} << 20, int64_t{1} << 22, int64_t{1} << 24})
        for (int64_t kn : {4, 8, 16, 32}) out.push_back({Op::N, Op::N, m, kn, kn, "tsm2l"});
    } else if (g == "t") {
      for (int64_t k : {int64_t{1} << 20, int64_t{1} << 24})
        for (int64_t mn : {4, 8, 16, 32})
          out.push_back({complex ? Op::C : Op::T, Op::N, mn, mn, k, "ahb"});
    } else {
      throw std::invalid_argument("unknown --grid " + g + " (r, l or t)");
    }
  }
  return out;
}

int run(int argc, char** argv) {
  Options o;
  CLI::App app{"mgblas-tester tsgemm: check and time mgblas's tall-and-skinny GEMM against cuBLAS"};
  app.add_option("--grid", o.grids, "shape grids: r (TSM2R), l (TSM2L), t (A^H B)")
      ->delimiter(',')
      ->capture_default_str();
  add_type_option(app, o.types);
  app.add_option("--dim", o.dims, "shapes MxNxK instead of the grids, comma list")->delimiter(',');
  app.add_option("--opA", o.opA, "op(A) for --dim: N, T or C")->capture_default_str();
  app.add_option("--opB", o.opB, "op(B) for --dim and --ngpu: N, T or C")->capture_default_str();
  app.add_option("--ngpu", o.ngpu,
                 "row-tiled scaling over 1..N GPUs of this process (--dim, default "
                 "67108864x16x16), comma list")
      ->delimiter(',');
  add_common_options(app, o, "cuBLAS");
  app.add_option("--beta", o.beta, "beta of the timed calls (alpha = 1)")->capture_default_str();
  app.add_option("--md", o.md, "also write a markdown table (with this header) to this file");
  app.add_flag("--sweep", o.sweep, "time every compiled tuning set of the chosen engine");
  app.add_option("--entry", o.entry,
                 "tsgemm, or hemm: time the CUDA engine's hemm (A's lower triangle, m = k) "
                 "against cublas<t>hemm instead (the 17-32 column kernels of float and complex "
                 "float, kernels/cuda/gemm/skinny.cu, where they serve)")
      ->check(CLI::IsMember({"tsgemm", "hemm"}))
      ->capture_default_str();
  CLI11_PARSE(app, argc, argv);
  if (o.niter < 1) o.niter = 1;

  cudaDeviceProp prop{};
  const auto dev = open_gpu0(prop);
  if (!dev) return kSkipped;
  const double bw = ts::measure_read_bandwidth(dev->stream());
  ts::set_read_bandwidth(bw);
  const ts::DeviceModel& dm = ts::device_model();
  char tail[1024];
  std::snprintf(tail, sizeof tail,
                "# read bandwidth: %.1f GB/s (float4 streaming reads, 2 GiB, median of 10); "
                "theoretical %.1f GB/s\n"
                "# model: SM clock %.2f GHz, memory latency %.0f ns, FP32/FP64 FMA %d/%d per "
                "clock per SM\n"
                "# times: median of %d after %d warm-up calls; timed calls alpha = 1, beta = "
                "%g; A and C rotated over copies up to 3x L2\n",
                bw, dm.peak_bw_gbs, dm.clock_ghz, dm.mem_latency_ns, dm.fma32_per_clk,
                dm.fma64_per_clk, o.niter, o.warmup, o.beta);
  const std::string head = version_line("mgblas-tester tsgemm") + "\n" + device_line(prop) + ", " +
                           std::to_string(cuda_device_count()) + " visible GPU(s)\n# command: " +
                           command_line(argc, argv) + "\n" + tail;
  std::printf("%s", head.c_str());
  Report report(bw, o, head);
  report.header();
  Env env{dev.get(), &o, &report, static_cast<std::size_t>(prop.l2CacheSize), o.seed};

  if (!o.ngpu.empty()) {
    Options big = o;
    if (big.dims.empty()) big.dims = {"67108864x16x16"};
    for (const auto& t : o.types)
      for_type(t, [&](auto tag) {
        using T = decltype(tag);
        for (const Case& c : cases_of(big, is_complex_v<T>)) {
          double base = 0;
          for (int g : o.ngpu) {
            if (g > cuda_device_count()) {
              std::printf("# %d GPUs asked, %d visible: skipped\n", g, cuda_device_count());
              continue;
            }
            try {
              const double ms = run_ngpu<T>(env, c, g, base);
              if (g == 1) base = ms;
            } catch (const std::exception& e) {
              std::printf("# %c m=%lld on %d GPUs: %s\n", precision_letter<T>(),
                          static_cast<long long>(c.m), g, e.what());
            }
          }
        }
      });
  } else {
    for (const auto& t : o.types)
      for_type(t, [&](auto tag) {
        using T = decltype(tag);
        for (const Case& c : cases_of(o, is_complex_v<T>)) {
          try {
            run_case<T>(env, c);
          } catch (const std::exception& e) {
            // One failing case (memory, an unsupported size for cuBLAS) does not end the run.
            Row r;
            r.type = precision_letter<T>();
            r.opA = to_string(c.opA), r.opB = to_string(c.opB), r.group = c.group;
            r.m = c.m, r.n = c.n, r.k = c.k;
            r.status = "FAILED";
            r.engine = e.what();
            report.add(r);
            (void)cudaGetLastError();
          }
        }
      });
  }
  report.summary();
  return report.failures();
}

}  // namespace
}  // namespace mgblas::testers

namespace mgblas::testers {
// `mgblas-tester tsgemm` (testers/mgblas_tester.cpp).
int tsgemm_main(int argc, char** argv) {
  return guarded_main("mgblas-tester tsgemm", run, argc, argv);
}
}  // namespace mgblas::testers
