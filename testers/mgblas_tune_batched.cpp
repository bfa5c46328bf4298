// SPDX-License-Identifier: BSD-3-Clause
// `mgblas-tune batched`: the autotuner of the batched GEMM engine (MAGMA's batched-GEMM
// tuning process, ../shared/papers/batched-vbatched-gemm-autotuning.txt, over mgblas's
// compiled instances).
//
//   mgblas-tune batched --type s,d,c,z --sizes 2:64 --out table.json
//   mgblas-tune batched --type d --sizes 2:32 --ops NN,TN --iface strided --csv all.csv
//   mgblas-tune batched --model-only --arch sm_90 --type s,d,c,z --sizes 1:128 --out sm_90.json
//
// For every size class in --sizes (the exact shapes 1..32 and m = n in {8, 16, 32} with
// k in {8, 16, 32}; the buckets 48, 64, 96, 128 square and with k in {8, 16, 32}; and,
// with --iface variable, variable sizes uniform in [1, B]^3 for B in {8, 16, 32, 64,
// 128}), precision and op pair:
//  1. search space: every compiled instance that can run the class, times every
//     entries-per-block E (small family: powers of two); pruned by
//     hard constraints  threads <= the kernel's maxThreadsPerBlock and the launch bound,
//                       registers x threads <= regsPerBlock (cudaFuncGetAttributes),
//                       shared memory <= sharedMemPerBlock;
//     soft constraints  (batched-friendly, off with --no-soft) 32 <= threads <= 512,
//                       two blocks fit one multiprocessor (shared memory, registers),
//                       at least one block per multiprocessor in the grid;
//     plus cuBLAS (fixed sizes) or the generic kernel (variable sizes), and the model's
//     own choice whatever the constraints say;
//  2. empirical search: each candidate timed on the current GPU (CUDA events, median of
//     --niter after --warmup calls) on a batch whose operands are three times the L2
//     (at least 10000 entries), compact storage, general alpha and beta;
//  3. the winner goes into the table of the device's architecture (the shared schema,
//     kernels/cuda/common/tuning_table.hpp), one entry per precision, op pair and size
//     class, with its time, the model's time, cuBLAS's and the speedup over cuBLAS; the
//     first op pair tuned also becomes the "*" entry (every op pair without its own). A
//     summary per precision and op pair says on how many classes the tuned choice beats
//     the model default (by more than 1 %) and the distribution of model time / tuned time.
// --merge FILE starts from an existing table of the same architecture (its entries the
// run does not tune are kept); --model-only writes the model's choices without a GPU
// (the default tables shipped in kernels/cuda/batched/tables/ until a measured one
// replaces them).
#include <cuda_runtime.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <complex>
#include <cstdio>
#include <ctime>
#include <fstream>
#include <map>
#include <random>
#include <string>
#include <vector>

#include "core/config.hpp"
#include "core/detail/cuda_check.hpp"
#include "core/detail/cuda_runtime.hpp"
#include "core/device.hpp"
#include "core/memory.hpp"
#include "core/types.hpp"
#include "kernels/blas.hpp"
#include "kernels/cuda/batched/batched.hpp"
#include "testers/mgblas_tune.hpp"
#include "testers/tester_common.hpp"

namespace mgblas::testers::tune {
namespace {

namespace bt = kernels::cuda::batched;

struct Options {
  std::vector<std::string> types{"d"};
  std::string sizes = "2:64";
  std::vector<std::string> ops{"NN"};
  std::vector<std::string> ifaces{"strided", "variable"};
  std::string out = "batched.json";
  std::string merge, csv, arch;
  int niter = 10, warmup = 2;
  int64_t batch = 0;
  bool model_only = false, no_soft = false;
  double budget = 0;
  uint64_t seed = 1;
};

struct ClassSpec {
  bt::Interface iface;
  int64_t m, n, k;
  std::string cls;
};

std::vector<ClassSpec> classes_of(int64_t lo, int64_t hi, const std::vector<std::string>& ifaces) {
  std::vector<ClassSpec> out;
  auto add = [&](bt::Interface i, int64_t m, int64_t n, int64_t k) {
    const bt::Problem p{i, 'd', Op::N, Op::N, m, n, k, 1, false};
    out.push_back({i, m, n, k, bt::size_class(p)});
  };
  const auto has = [&](const char* s) { return std::find(ifaces.begin(), ifaces.end(), s) != ifaces.end(); };
  const auto in = [&](int64_t v) { return v >= lo && v <= hi; };
  if (has("strided")) {
    for (int64_t s = std::max<int64_t>(1, lo); s <= std::min<int64_t>(hi, 32); ++s) add(bt::Interface::Strided, s, s, s);
    for (int64_t mn : {8, 16, 32})
      for (int64_t k : {8, 16, 32})
        if (in(mn) && k != mn) add(bt::Interface::Strided, mn, mn, k);
    for (int64_t b : {48, 64, 96, 128})
      if (in(b)) {
        add(bt::Interface::Strided, b, b, b);
        for (int64_t k : {8, 16, 32}) add(bt::Interface::Strided, b, b, k);
      }
  }
  if (has("variable"))
    for (int64_t b : {8, 16, 32, 64, 128})
      if (in(b)) add(bt::Interface::Variable, b, b, b);
  return out;
}

struct Candidate {
  std::string kernel;
  int entries = 0;
  std::string why_soft;  // non-empty: pruned by a soft constraint (kept only for the model)
};

struct DeviceLimits {
  int sms = 0, regs_per_block = 0, regs_per_sm = 0, l2 = 0;
  std::size_t smem_per_block = 0, smem_per_sm = 0;
};

/// Step 1: the search space of problem p.
template <Scalar T>
std::vector<Candidate> search_space(const bt::Problem& p, const DeviceLimits& lim, bool soft,
                                    int& pruned_hard, int& pruned_soft) {
  const char prec = precision_letter<T>();
  std::vector<Candidate> out;
  for (const bt::InstanceInfo& inst : bt::instances(prec)) {
    if (!bt::applicable(inst, p)) continue;
    const bt::KernelAttributes at = bt::attributes(prec, inst.name, false);
    const bool small = inst.family == bt::Family::Small || inst.family == bt::Family::SmallBounded;
    for (int e : bt::feasible_entries_per_block(inst)) {
      const int threads = small ? e * inst.threads_per_entry : inst.threads_per_entry;
      const std::size_t smem = small ? static_cast<std::size_t>(e) * inst.shared_bytes
                                     : static_cast<std::size_t>(at.static_shared_bytes);
      if (threads > at.max_threads_per_block || threads > inst.max_threads ||
          static_cast<int64_t>(at.registers) * threads > lim.regs_per_block ||
          smem > lim.smem_per_block) {
        ++pruned_hard;
        continue;
      }
      std::string why;
      if (threads < 32 || threads > 512) why = "threads";
      else if (2 * smem > lim.smem_per_sm) why = "smem/SM";
      else if (2 * static_cast<int64_t>(at.registers) * threads > lim.regs_per_sm) why = "regs/SM";
      else if (small && (p.batch + e - 1) / e < lim.sms) why = "blocks";
      if (!why.empty()) ++pruned_soft;
      if (!why.empty() && soft) {
        out.push_back({inst.name, e, why});  // kept aside: timed only if it is the model's
        continue;
      }
      out.push_back({inst.name, e, ""});
    }
  }
  if (p.iface == bt::Interface::Variable) out.push_back({"generic", 0, ""});
  else out.push_back({"cublas", 0, ""});
  return out;
}

struct Result {
  std::string kernel;
  int entries = 0;
  double us = 0, model_us = 0, cublas_us = 0;
  std::string model_kernel;
  int model_entries = 0, timed = 0, pruned_hard = 0, pruned_soft = 0;
};

/// Steps 1-2 for one class, precision and op pair.
template <Scalar T>
Result tune_class(const Device& dev, const Options& o, const DeviceLimits& lim, const ClassSpec& c,
                  Op opA, Op opB, std::ofstream& csv) {
  const char prec = precision_letter<T>();
  const bool var = c.iface == bt::Interface::Variable;
  std::mt19937_64 rng(o.seed + c.m * 131 + c.k);
  // Entries: variable sizes uniform in [1, max]^3, fixed sizes the class's shape.
  const int64_t probe = 4096;
  std::uniform_int_distribution<int64_t> size(1, c.m);
  double bytes_per_entry = 0;
  std::vector<int64_t> pm, pn, pk;
  for (int64_t i = 0; i < (var ? probe : 1); ++i) {
    const int64_t m = var ? size(rng) : c.m, n = var ? size(rng) : c.n, k = var ? size(rng) : c.k;
    pm.push_back(m);
    pn.push_back(n);
    pk.push_back(k);
    bytes_per_entry += static_cast<double>(m * k + k * n + m * n) * sizeof(T);
  }
  bytes_per_entry /= static_cast<double>(pm.size());
  int64_t batch = o.batch;
  if (batch <= 0)
    batch = std::clamp<int64_t>(static_cast<int64_t>(std::ceil(3.0 * lim.l2 / bytes_per_entry)),
                                10000, 1000000);
  batch = std::min<int64_t>(batch, static_cast<int64_t>(4e9 / bytes_per_entry));
  const PackedBatch P = pack_batch(batch, opA, opB, [&](int64_t) {
    if (!var) return std::array{c.m, c.n, c.k};
    return std::array{size(rng), size(rng), size(rng)};
  });
  const auto &m = P.m, &n = P.n, &k = P.k, &lda = P.lda, &ldb = P.ldb;
  const auto &a_off = P.a_off, &b_off = P.b_off, &c_off = P.c_off;
  const int64_t a_len = P.a_len, b_len = P.b_len, c_len = P.c_len;
  DeviceBuffer<T> A(dev, a_len), B(dev, b_len), C(dev, c_len);
  fill(dev, A.data(), a_len, o.seed + 1);
  fill(dev, B.data(), b_len, o.seed + 2);
  fill(dev, C.data(), c_len, o.seed + 3);
  const int64_t max_m = *std::max_element(m.begin(), m.end());
  const int64_t max_n = *std::max_element(n.begin(), n.end());
  const int64_t max_k = *std::max_element(k.begin(), k.end());
  DeviceBuffer<int64_t> dsz;
  DeviceBuffer<const T*> dab;
  DeviceBuffer<T*> dc;
  if (var) {
    const std::vector<int64_t> sz = P.sizes();
    std::vector<const T*> ab(2 * batch);
    std::vector<T*> cc(batch);
    for (int64_t i = 0; i < batch; ++i) {
      ab[i] = A.data() + a_off[i];
      ab[batch + i] = B.data() + b_off[i];
      cc[i] = C.data() + c_off[i];
    }
    dsz = DeviceBuffer<int64_t>(dev, sz.size());
    dab = DeviceBuffer<const T*>(dev, ab.size());
    dc = DeviceBuffer<T*>(dev, cc.size());
    copy_vector(dev, static_cast<int64_t>(sz.size()), sz.data(), dsz.data());
    copy_vector(dev, static_cast<int64_t>(ab.size()), ab.data(), dab.data());
    copy_vector(dev, static_cast<int64_t>(cc.size()), cc.data(), dc.data());
  }
  const T alpha = scalar<T>(0.75, 0.5), beta = scalar<T>(-0.5, 0.25);
  const Queue q(dev);
  auto call = [&] {
    if (var) {
      const int64_t* s = dsz.data();
      gemm_vbatched<T>(q, opA, opB, s, s + batch, s + 2 * batch, alpha, dab.data(), s + 3 * batch,
                       dab.data() + batch, s + 4 * batch, beta, dc.data(), s + 5 * batch, batch,
                       max_m, max_n, max_k);
    } else {
      gemm_batched_strided<T>(q, opA, opB, c.m, c.n, c.k, alpha, A.data(), lda[0], c.m * c.k,
                              B.data(), ldb[0], c.k * c.n, beta, C.data(), c.m, c.m * c.n, batch);
    }
  };
  const bt::Problem p{c.iface, prec, opA, opB, var ? max_m : c.m, var ? max_n : c.n,
                      var ? max_k : c.k, batch, false};
  Result r;
  const bt::Choice model = bt::model_choice<T>(p);
  r.model_kernel = model.kernel;
  r.model_entries = model.entries_per_block;
  const auto cands = search_space<T>(p, lim, !o.no_soft, r.pruned_hard, r.pruned_soft);
  double best = INFINITY;
  const double bytes = bytes_per_entry * static_cast<double>(batch);  // A, B, C read + C written
  for (const Candidate& cd : cands) {
    const bool is_model = cd.kernel == model.kernel &&
                          (cd.entries == model.entries_per_block || model.entries_per_block == 0);
    if (!cd.why_soft.empty() && !is_model) continue;
    double ms = INFINITY;
    std::string err;
    try {
      const bt::ScopedForce force({cd.kernel, cd.entries});
      ms = median_ms(dev.stream(), o.warmup, o.niter, [&](int) { call(); });
    } catch (const std::exception& e) {
      err = e.what();
    }
    ++r.timed;
    const double us = ms * 1e3;
    if (csv.is_open())
      csv << prec << ',' << to_string(opA) << to_string(opB) << ',' << c.cls << ',' << c.m << ','
          << c.n << ',' << c.k << ',' << batch << ',' << cd.kernel << ',' << cd.entries << ','
          << us << ',' << (bytes + static_cast<double>(c_len) * sizeof(T)) / (ms * 1e6) << ','
          << (is_model ? "model" : "") << ',' << cd.why_soft << ",\"" << err << "\"\n";
    if (is_model) r.model_us = us;
    if (cd.kernel == "cublas") r.cublas_us = us;
    if (us < best) {
      best = us;
      r.kernel = cd.kernel;
      r.entries = cd.entries;
    }
  }
  r.us = best;
  return r;
}

int run(const Options& o_in, const std::string& cmd);

}  // namespace

void add_batched(CLI::App& app, std::function<int(const std::string&)>& run_it) {
  auto o = std::make_shared<Options>();
  CLI::App* b = app.add_subcommand("batched", "tune the batched small GEMM engine");
  add_type_option(*b, o->types);
  b->add_option("--sizes", o->sizes, "size range lo:hi of the classes")->capture_default_str();
  b->add_option("--ops", o->ops, "op pairs (NN, NT, ..., or all); the first also fills \"*\"")
      ->delimiter(',')->capture_default_str();
  b->add_option("--iface", o->ifaces, "strided (also serves pointer arrays), variable")
      ->delimiter(',')->capture_default_str();
  b->add_option("--out", o->out, "table to write (JSON)")->capture_default_str();
  b->add_option("--merge", o->merge, "start from this table (JSON)");
  b->add_option("--csv", o->csv, "every timed candidate as CSV");
  b->add_option("--niter", o->niter, "timed calls per candidate (median)")->capture_default_str();
  b->add_option("--warmup", o->warmup, "untimed calls first")->capture_default_str();
  b->add_option("--batch", o->batch, "entries per call (0: operands of 3x the L2, >= 10000)")
      ->capture_default_str();
  b->add_flag("--no-soft", o->no_soft, "time candidates pruned by the soft constraints too");
  b->add_option("--time-budget", o->budget, "stop after this many seconds (0: none)");
  b->add_flag("--model-only", o->model_only, "write the model's choices, no GPU needed");
  b->add_option("--arch", o->arch, "architecture key with --model-only (sm_90, sm_80)");
  b->add_option("--seed", o->seed, "random seed")->capture_default_str();
  b->callback([o, &run_it] { run_it = [o](const std::string& cmd) { return run(*o, cmd); }; });
}

namespace {

int run(const Options& o_in, const std::string& cmd) {
  Options o = o_in;
  if (o.ops.size() == 1 && o.ops[0] == "all")
    o.ops = {"NN", "NT", "NC", "TN", "TT", "TC", "CN", "CT", "CC"};
  for (const auto& x : o.ops)
    if (x.size() != 2 || std::string("NTC").find(x[0]) == std::string::npos ||
        std::string("NTC").find(x[1]) == std::string::npos)
      throw std::invalid_argument("--ops wants pairs of N, T, C: " + x);
  long long lo = 0, hi = 0;
  if (std::sscanf(o.sizes.c_str(), "%lld:%lld", &lo, &hi) != 2 || lo < 1 || hi < lo)
    throw std::invalid_argument("--sizes wants lo:hi with 1 <= lo <= hi");
  const auto classes = classes_of(lo, hi, o.ifaces);

  std::unique_ptr<Device> dev;
  DeviceLimits lim;
  std::string arch = o.arch, device_name = "model";
  if (!o.model_only) {
    if (cuda_device_count() == 0) {
      std::printf("# no CUDA GPU visible: nothing to tune (--model-only works without one)\n");
      return kSkipped;
    }
    dev = Device::make_cuda(0, 0);
    dev->make_current();
    cudaDeviceProp prop{};
    MGBLAS_CHECK_CUDA(cudaGetDeviceProperties(&prop, 0));
    lim.sms = prop.multiProcessorCount;
    lim.regs_per_block = prop.regsPerBlock;
    lim.regs_per_sm = prop.regsPerMultiprocessor;
    lim.smem_per_block = prop.sharedMemPerBlock;
    lim.smem_per_sm = prop.sharedMemPerMultiprocessor;
    lim.l2 = prop.l2CacheSize;
    arch = "sm_" + std::to_string(prop.major * 10 + prop.minor);
    device_name = prop.name;
    std::printf("# mgblas %s mgblas-tune; %s; device %s (%s), %d SMs, L2 %.0f MiB\n",
                MGBLAS_VERSION_STRING, detail::cuda_version_string().c_str(), prop.name,
                arch.c_str(), lim.sms, lim.l2 / 1048576.0);
  } else if (arch.empty()) {
    throw std::invalid_argument("--model-only needs --arch (sm_90, sm_80, ...)");
  }
  std::printf("# command: %s\n# %zu size classes per precision and op pair\n", cmd.c_str(),
              classes.size());
  json t = new_table("batched", arch, !o.model_only, device_name, cmd,
                     o.model_only
                         ? "Model defaults, not measured: the dispatcher's model choice per "
                           "class. Replace with a table measured on the device (mgblas-tune "
                           "batched ...)."
                         : "Measured: the fastest candidate per class on this device. speedup "
                           "= cublas_us / time_us.");
  std::ofstream csv;
  if (!o.csv.empty()) {
    csv.open(o.csv);
    csv << "type,ops,class,m,n,k,batch,kernel,entries_per_block,time_us,gbs,model,soft,error\n";
  }
  const auto start = std::chrono::steady_clock::now();
  bool out_of_time = false;
  std::printf("%-4s %-3s %-10s %-26s %4s %10s %10s %10s %8s %8s\n", "type", "ops", "class",
              "tuned", "E", "time(us)", "model(us)", "ref(us)", "model/t", "ref/t");
  for (const auto& ty : o.types)
    for_type(ty, [&](auto tag) {
      using T = decltype(tag);
      const char prec = precision_letter<T>();
      for (std::size_t oi = 0; oi < o.ops.size(); ++oi) {
        const Op opA = op_of(o.ops[oi][0]), opB = op_of(o.ops[oi][1]);
        std::vector<double> ratios;
        int beats = 0, done = 0;
        for (const ClassSpec& c : classes) {
          if (o.budget > 0 &&
              std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count() >
                  o.budget) {
            out_of_time = true;
            break;
          }
          json entry;
          if (o.model_only) {
            const bt::Problem p{c.iface, prec, opA, opB, c.m, c.n, c.k, 100000, false};
            const bt::Choice ch = bt::model_choice<T>(p);
            entry = {{"choice", ch.kernel}, {"entries_per_block", ch.entries_per_block},
                     {"source", "model"}};
            std::printf("%-4c %-3s %-10s %-26s %4d %10s %10s %10s %8s %8s\n", prec,
                        o.ops[oi].c_str(), c.cls.c_str(), ch.kernel.c_str(), ch.entries_per_block,
                        "-", "-", "-", "-", "-");
          } else {
            const Result r = tune_class<T>(*dev, o, lim, c, opA, opB, csv);
            if (!std::isfinite(r.us)) continue;
            entry = {{"choice", r.kernel},       {"entries_per_block", r.entries},
                     {"time_us", r.us},          {"model_kernel", r.model_kernel},
                     {"model_entries", r.model_entries}, {"model_us", r.model_us},
                     {"cublas_us", r.cublas_us}, {"timed", r.timed},
                     {"pruned_hard", r.pruned_hard}, {"pruned_soft", r.pruned_soft}};
            if (r.cublas_us > 0) entry["speedup"] = r.cublas_us / r.us;
            const double ratio = r.model_us > 0 ? r.model_us / r.us : 1.0;
            ratios.push_back(ratio);
            if (ratio > 1.01) ++beats;
            std::printf("%-4c %-3s %-10s %-26s %4d %10.2f %10.2f %10.2f %8.3f %8.3f\n", prec,
                        o.ops[oi].c_str(), c.cls.c_str(), r.kernel.c_str(), r.entries, r.us,
                        r.model_us, r.cublas_us, ratio, r.cublas_us > 0 ? r.cublas_us / r.us : 0.0);
            std::fflush(stdout);
          }
          ++done;
          // The model does not depend on the op pair: its table needs the "*" entries only.
          auto add = [&](const std::string& ops) {
            json e = {{"op", ops}, {"precision", std::string(1, prec)}, {"class", c.cls}};
            e.update(entry);
            t["entries"].push_back(e);
          };
          if (!o.model_only || oi > 0) add(o.ops[oi]);
          if (oi == 0) add("*");
        }
        if (!o.model_only && !ratios.empty()) {
          std::sort(ratios.begin(), ratios.end());
          const auto q = [&](double f) {
            return ratios[static_cast<std::size_t>(f * static_cast<double>(ratios.size() - 1))];
          };
          json s = {{"classes", done}, {"tuned_beats_model", beats},
                    {"fraction", static_cast<double>(beats) / static_cast<double>(ratios.size())},
                    {"model_over_tuned_min", q(0.0)}, {"model_over_tuned_p25", q(0.25)},
                    {"model_over_tuned_median", q(0.5)}, {"model_over_tuned_p75", q(0.75)},
                    {"model_over_tuned_max", q(1.0)}};
          t["summary"][std::string(1, prec)][o.ops[oi]] = s;
          std::printf("# summary %c %s: tuned beats the model default (> 1%%) on %d of %zu "
                      "classes (%.0f%%); model/tuned time min %.3f p25 %.3f median %.3f p75 "
                      "%.3f max %.3f\n",
                      prec, o.ops[oi].c_str(), beats, ratios.size(),
                      100.0 * beats / static_cast<double>(ratios.size()), q(0.0), q(0.25),
                      q(0.5), q(0.75), q(1.0));
        }
        if (out_of_time) break;
      }
    });
  if (out_of_time) std::printf("# time budget of %.0f s spent: the table is partial\n", o.budget);
  if (!o.merge.empty()) merge_entries(t, o.merge);
  write_table(t, o.out);
  return 0;
}

}  // namespace
}  // namespace mgblas::testers::tune
