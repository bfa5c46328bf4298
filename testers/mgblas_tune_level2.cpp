// SPDX-License-Identifier: BSD-3-Clause
// `mgblas-tune level2`: the level-2 table (GEMV N, GEMV T, SYMV/HEMV per triangle) of
// the GPU's architecture. For every precision, operation and size n of --sizes (square
// operands, rotated over copies up to 3x the L2 so that every call reads device memory,
// as tester_blas times them): cuBLAS and every compiled tuning set of mgblas's kernel,
// median of --niter after --warmup calls. One entry per size, in increasing order
// (the dispatcher takes the first match): class n <= size (the largest: any n), the
// faster of cuBLAS and mgblas's best set, the speedup cuBLAS time / best set time.
// Shapes below --min-dim are left to cuBLAS (the shipped sm_90 table does so below 64,
// where nothing was measured). The stories behind the shipped table:
// bench/results/h200-tuning.md.
#include <cuda_runtime.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include "core/detail/cuda_check.hpp"
#include "core/device.hpp"
#include "core/memory.hpp"
#include "core/types.hpp"
#include "kernels/cuda/common/cublas.hpp"
#include "kernels/cuda/level2/gemv.hpp"
#include "kernels/cuda/level2/symv.hpp"
#include "testers/mgblas_tune.hpp"
#include "testers/tester_common.hpp"

namespace mgblas::testers::tune {
namespace {

namespace l2 = kernels::cuda::level2;

struct Options : TimingOptions {
  Options() {
    ops = {"gemvN", "gemvT", "symvL", "symvU"};
    niter = 20;  // as tester_blas
    warmup = 3;
    out = "level2.json";
  }
  std::vector<int64_t> sizes{512, 1024, 2048, 4096, 8192, 16384, 32768};
  int64_t min_dim = 64;
};

struct Timing {
  double cublas_ms = 0, best_ms = 0;
  int best_variant = 0;
};

/// cuBLAS and every compiled tuning set on one n x n problem.
template <Scalar T>
Timing time_one(const Device& dev, const Options& o, std::size_t l2_bytes, const std::string& op,
                int64_t n) {
  const int64_t per = 128 / static_cast<int64_t>(sizeof(T));  // lda: 128-byte multiple
  const int64_t lda = (n + per - 1) / per * per;
  const int64_t copies = rotation_copies(l2_bytes, static_cast<double>(lda) * n * sizeof(T), 64);
  DeviceBuffer<T> A(dev, static_cast<std::size_t>(lda * n * copies)), x(dev, n), y(dev, n);
  fill(dev, A.data(), static_cast<int64_t>(A.size()), o.seed);
  fill(dev, x.data(), n, o.seed + 1);
  fill(dev, y.data(), n, o.seed + 2);
  const auto a = [&](int rep) { return A.data() + (rep % copies) * lda * n; };
  const T alpha = scalar<T>(0.75, 0.5), beta = scalar<T>(-0.5, 0.25);
  cudaStream_t st = dev.stream();
  const bool gemv = op.rfind("gemv", 0) == 0;
  const Op trans = op == "gemvN" ? Op::N : Op::T;
  const Uplo uplo = op == "symvU" ? Uplo::Upper : Uplo::Lower;
  const bool herm = is_complex_v<T>;  // SYMV rows of a complex type: HEMV, as hemv's table
  Timing t;
  t.cublas_ms = median_ms(st, o.warmup, o.niter, [&](int rep) {
    if (gemv)
      kernels::cuda::common::cublas::gemv<T>(dev.cublas(), st, trans, n, n, alpha, a(rep), lda, x.data(),
                                     1, beta, y.data(), 1);
    else if (herm)
      kernels::cuda::common::cublas::hemv<T>(dev.cublas(), st, uplo, n, alpha, a(rep), lda, x.data(), 1,
                                     beta, y.data(), 1);
    else
      kernels::cuda::common::cublas::symv<T>(dev.cublas(), st, uplo, n, alpha, a(rep), lda, x.data(), 1,
                                     beta, y.data(), 1);
  });
  const int count = gemv ? l2::gemv_variant_count<T>(trans) : l2::symv_variant_count<T>();
  t.best_ms = INFINITY;
  for (int v = 0; v < count; ++v) {
    const double ms = median_ms(st, o.warmup, o.niter, [&](int rep) {
      if (gemv)
        l2::gemv<T>(st, trans, n, n, alpha, a(rep), lda, 0, 0, x.data(), 1, beta, y.data(), 1,
                    {v, 0});
      else
        l2::symv<T>(st, uplo, herm, n, alpha, a(rep), lda, 0, x.data(), 1, beta, y.data(), 1,
                    {v, 0});
    });
    if (ms < t.best_ms) t.best_ms = ms, t.best_variant = v;
  }
  return t;
}

int run(const Options& o, const std::string& cmd) {
  for (const auto& op : o.ops)
    if (op != "gemvN" && op != "gemvT" && op != "symvL" && op != "symvU")
      throw std::invalid_argument("--ops wants gemvN, gemvT, symvL, symvU: " + op);
  std::vector<int64_t> sizes = o.sizes;
  std::sort(sizes.begin(), sizes.end());
  if (sizes.empty() || sizes.front() < 1) throw std::invalid_argument("--sizes wants sizes >= 1");
  cudaDeviceProp prop{};
  const auto dev = open_gpu0(prop);
  if (!dev) return kSkipped;
  const std::string arch = "sm_" + std::to_string(prop.major * 10 + prop.minor);
  std::printf("%s\n%s\n# command: %s\n", version_line("mgblas-tune level2").c_str(),
              device_line(prop).c_str(), cmd.c_str());
  json t = new_table("level2", arch, true, prop.name, cmd,
                     "First matching entry wins. speedup = cuBLAS time / time of mgblas's best "
                     "tuning set (square operands rotated beyond the L2, medians).");
  for (const auto& op : o.ops)
    if (o.min_dim > 1)
      t["entries"].push_back({{"op", op}, {"precision", "*"},
                              {"class", "min(m,n)<=" + std::to_string(o.min_dim - 1)},
                              {"max_min_dim", o.min_dim - 1}, {"choice", "cublas"}, {"variant", 0},
                              {"label", "cublas [" + arch + " " + op + " skinny: not measured]"}});
  std::printf("%-4s %-6s %8s %12s %12s %8s %s\n", "type", "op", "n", "cublas(ms)", "best(ms)",
              "speedup", "choice");
  for (const auto& ty : o.types)
    for_type(ty, [&](auto tag) {
      using T = decltype(tag);
      const std::string prec(1, precision_letter<T>());
      for (const auto& op : o.ops)
        for (std::size_t i = 0; i < sizes.size(); ++i) {
          const int64_t n = sizes[i];
          const Timing r = time_one<T>(*dev, o, static_cast<std::size_t>(prop.l2CacheSize), op, n);
          const double speedup = r.cublas_ms / r.best_ms;
          const bool mg = speedup > 1.0;
          const bool last = i + 1 == sizes.size();
          const std::string cls = last ? "n>" + std::to_string(i ? sizes[i - 1] : 0)
                                       : "n<=" + std::to_string(n);
          char label[160];
          std::snprintf(label, sizeof label, "%s [%s %s %s %s: %.2fx]",
                        mg ? ("mgblas v" + std::to_string(r.best_variant)).c_str() : "cublas",
                        arch.c_str(), prec.c_str(), op.c_str(), cls.c_str(), speedup);
          json e = {{"op", op},          {"precision", prec},
                    {"class", cls},      {"choice", mg ? "mgblas" : "cublas"},
                    {"variant", r.best_variant}, {"speedup", speedup},
                    {"cublas_ms", r.cublas_ms},  {"mgblas_ms", r.best_ms},
                    {"label", label}};
          if (!last) e["max_dim"] = n;
          t["entries"].push_back(e);
          std::printf("%-4s %-6s %8lld %12.4f %12.4f %8.3f %s\n", prec.c_str(), op.c_str(),
                      static_cast<long long>(n), r.cublas_ms, r.best_ms, speedup, label);
          std::fflush(stdout);
        }
    });
  write_table(t, o.out);
  return 0;
}

}  // namespace

void add_level2(CLI::App& app, Runner& run_it) {
  auto o = std::make_shared<Options>();
  CLI::App* c = app.add_subcommand("level2", "tune GEMV and SYMV/HEMV (mgblas's tuning sets "
                                              "against cuBLAS)");
  add_timing_options(*c, *o, "gemvN, gemvT (covers C), symvL, symvU (HEMV for c, z)");
  c->add_option("--sizes", o->sizes, "sizes n (square operands): one class each")
      ->delimiter(',')->capture_default_str();
  c->add_option("--min-dim", o->min_dim, "shapes with min(m, n) below this go to cuBLAS")
      ->capture_default_str();
  c->callback([o, &run_it] { run_it = [o](const std::string& cmd) { return run(*o, cmd); }; });
}

}  // namespace mgblas::testers::tune
