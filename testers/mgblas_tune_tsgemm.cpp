// SPDX-License-Identifier: BSD-3-Clause
// `mgblas-tune tsgemm`: the tall-skinny GEMM table of the GPU's architecture. For every
// precision, kernel and class of the small dimension (--smalls: n for TSM2R, k = n for
// TSM2L, m = n for A^H B), one shape (TSM2R: m = k = --mk; TSM2L: m = --rows; A^H B:
// k = --rows) timed with cuBLAS and with the model's choice of mgblas's tuning set
// (median of --niter after --warmup calls). The entry: cublas_fraction, cuBLAS's rate
// as a fraction of the measured read bandwidth (A, B and C counted once), which the
// dispatcher holds against the model's prediction; choice "cublas" where cuBLAS was
// measured faster than the model's choice, else "model"; speedup = cuBLAS time / mgblas
// time. The stories behind the shipped table: bench/results/h200-tuning.md.
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include "core/device.hpp"
#include "core/memory.hpp"
#include "core/types.hpp"
#include "kernels/cuda/tsgemm/tsgemm.hpp"
#include "kernels/cuda/tsgemm/tsgemm_model.hpp"
#include "testers/mgblas_tune.hpp"
#include "testers/tester_common.hpp"

namespace mgblas::testers::tune {
namespace {

namespace ts = kernels::cuda::tsm2;

struct Options : TimingOptions {
  Options() {
    ops = {"tsm2r", "tsm2l", "tsmttsm"};
    out = "tsgemm.json";
  }
  std::vector<int64_t> smalls{4, 8, 16, 32};
  int64_t rows = int64_t{1} << 22, mk = 8192;
};

struct Shape {
  Op opA;
  int64_t m, n, k;
  ts::Engine engine;
};

Shape shape_of(const Options& o, const std::string& op, int64_t s) {
  if (op == "tsm2r") return {Op::N, o.mk, s, o.mk, ts::Engine::Tsm2r};
  if (op == "tsm2l") return {Op::N, o.rows, s, s, ts::Engine::Tsm2l};
  return {Op::T, s, s, o.rows, ts::Engine::Tsmttsm};
}

struct Timing {
  double cublas_ms = 0, mgblas_ms = 0;
  std::string mgblas_label;
};

template <Scalar T>
Timing time_one(const Device& dev, const Options& o, const Shape& s) {
  const int64_t lda = s.opA == Op::N ? s.m : s.k, ldb = s.k, ldc = s.m;
  DeviceBuffer<T> A(dev, static_cast<std::size_t>(s.m * s.k)),
      B(dev, static_cast<std::size_t>(s.k * s.n)), C(dev, static_cast<std::size_t>(s.m * s.n));
  fill(dev, A.data(), s.m * s.k, o.seed);
  fill(dev, B.data(), s.k * s.n, o.seed + 1);
  fill(dev, C.data(), s.m * s.n, o.seed + 2);
  const T alpha = scalar<T>(1, 0), beta = scalar<T>(0, 0);
  cudaStream_t st = dev.stream();
  auto call = [&](ts::Params p) {
    return [&, p](int) {
      ts::tsgemm<T>(dev.cublas(), st, s.opA, Op::N, s.m, s.n, s.k, alpha, A.data(), lda,
                    B.data(), ldb, beta, C.data(), ldc, p);
    };
  };
  Timing t;
  t.cublas_ms = median_ms(st, o.warmup, o.niter, call({.engine = ts::Engine::Cublas}));
  // The kernel's own engine with the model's tuning set (no cuBLAS rule applied).
  const ts::Params model{.engine = s.engine};
  t.mgblas_ms = median_ms(st, o.warmup, o.niter, call(model));
  t.mgblas_label = ts::choose<T>(s.opA, Op::N, s.m, s.n, s.k, A.data(), lda, B.data(), ldb,
                                 C.data(), ldc, true, model)
                       .label;
  return t;
}

int run(const Options& o, const std::string& cmd) {
  for (const auto& op : o.ops)
    if (op != "tsm2r" && op != "tsm2l" && op != "tsmttsm")
      throw std::invalid_argument("--ops wants tsm2r, tsm2l, tsmttsm: " + op);
  std::vector<int64_t> smalls = o.smalls;
  std::sort(smalls.begin(), smalls.end());
  if (smalls.empty() || smalls.front() < 1 || smalls.back() > 32)
    throw std::invalid_argument("--smalls wants sizes in 1..32");
  cudaDeviceProp prop{};
  const auto dev = open_gpu0(prop);
  if (!dev) return kSkipped;
  const double bw = ts::measure_read_bandwidth(dev->stream());
  ts::set_read_bandwidth(bw);
  const std::string arch = "sm_" + std::to_string(prop.major * 10 + prop.minor);
  std::printf("%s\n%s\n# command: %s\n# read bandwidth %.1f GB/s\n",
              version_line("mgblas-tune tsgemm").c_str(), device_line(prop).c_str(), cmd.c_str(),
              bw);
  json t = new_table("tsgemm", arch, true, prop.name, cmd,
                     "cublas_fraction: cuBLAS's rate over the measured read bandwidth (A, B, C "
                     "once); choice cublas where it was measured faster than the model's "
                     "choice. speedup = cuBLAS time / mgblas time.");
  std::printf("%-4s %-8s %6s %12s %12s %8s %8s %s\n", "type", "op", "small", "cublas(ms)",
              "mgblas(ms)", "frac", "speedup", "mgblas set");
  for (const auto& ty : o.types)
    for_type(ty, [&](auto tag) {
      using T = decltype(tag);
      const std::string prec(1, precision_letter<T>());
      for (const auto& op : o.ops)
        for (std::size_t i = 0; i < smalls.size(); ++i) {
          const Shape s = shape_of(o, op, smalls[i]);
          const Timing r = time_one<T>(*dev, o, s);
          const double bytes = sizeof(T) * (static_cast<double>(s.m) * s.n +
                                             static_cast<double>(s.k) * s.m +
                                             static_cast<double>(s.k) * s.n);
          const double frac = std::min(1.0, bytes / (r.cublas_ms * 1e6) / bw);
          const double speedup = r.cublas_ms / r.mgblas_ms;
          const bool last = i + 1 == smalls.size();
          json e = {{"op", op},
                    {"precision", prec},
                    {"class", last ? "small>" + std::to_string(i ? smalls[i - 1] : 0)
                                   : "small<=" + std::to_string(smalls[i])},
                    {"choice", speedup < 1.0 ? "cublas" : "model"},
                    {"cublas_fraction", frac},
                    {"speedup", speedup},
                    {"cublas_ms", r.cublas_ms},
                    {"mgblas_ms", r.mgblas_ms},
                    {"mgblas_set", r.mgblas_label},
                    {"shape", std::to_string(s.m) + "x" + std::to_string(s.n) + "x" +
                                  std::to_string(s.k)}};
          if (!last) e["max_small"] = smalls[i];
          t["entries"].push_back(e);
          std::printf("%-4s %-8s %6lld %12.4f %12.4f %8.3f %8.3f %s\n", prec.c_str(), op.c_str(),
                      static_cast<long long>(smalls[i]), r.cublas_ms, r.mgblas_ms, frac, speedup,
                      r.mgblas_label.c_str());
          std::fflush(stdout);
        }
    });
  write_table(t, o.out);
  return 0;
}

}  // namespace

void add_tsgemm(CLI::App& app, Runner& run_it) {
  auto o = std::make_shared<Options>();
  CLI::App* c = app.add_subcommand("tsgemm", "tune the tall-skinny GEMM engine (where cuBLAS "
                                              "runs instead of the model's tuning set)");
  add_timing_options(*c, *o, "kernels: tsm2r, tsm2l, tsmttsm (A^H B)");
  c->add_option("--smalls", o->smalls, "classes of the small dimension (<= 32)")
      ->delimiter(',')->capture_default_str();
  c->add_option("--rows", o->rows, "the tall dimension of TSM2L (m) and A^H B (k)")
      ->capture_default_str();
  c->add_option("--mk", o->mk, "m = k of the TSM2R shapes")->capture_default_str();
  c->callback([o, &run_it] { run_it = [o](const std::string& cmd) { return run(*o, cmd); }; });
}

}  // namespace mgblas::testers::tune
