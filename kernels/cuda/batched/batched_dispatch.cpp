// SPDX-License-Identifier: BSD-3-Clause
// The batched GEMM dispatcher: instance registry, size classes, the model, the choice
// (forced > table > model > fallback) and the three calls.
#include <cuda_runtime.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <climits>
#include <complex>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <mutex>
#include <tuple>

#include "core/detail/cuda_check.hpp"
#include "core/error.hpp"
#include "kernels/cuda/batched/batched.hpp"
#include "kernels/cuda/batched/batched_registry.hpp"
#include "kernels/cuda/batched/batched_scalar.cuh"
#include "kernels/cuda/batched/batched_table.hpp"
#include "kernels/cuda/common/cublas.hpp"
#include "kernels/cuda/common/launchers.hpp"
#include "kernels/cuda/common/table_match.hpp"
#include "kernels/cuda/common/tuning_table.hpp"

namespace mgblas::kernels::cuda::batched {

const char* to_string(Interface i) {
  switch (i) {
    case Interface::Strided: return "strided";
    case Interface::PointerArray: return "array";
    case Interface::Variable: return "variable";
  }
  return "?";
}

const char* to_string(Family f) {
  switch (f) {
    case Family::Small: return "small";
    case Family::SmallBounded: return "small-bounded";
    case Family::Tiled: return "tiled";
    case Family::Generic: return "generic";
    case Family::Cublas: return "cublas";
  }
  return "?";
}

std::string Choice::label() const {
  std::string s = kernel;
  if (entries_per_block > 0) s += " E=" + std::to_string(entries_per_block);
  return s + " [" + source + "]";
}

namespace detail {
namespace {

// The registry's slot of a precision; NotCompiled for one this build lacks (its
// instance files are not compiled).
int prec_index(char prec) {
  const DataType t = data_type_of_letter(prec, "batched precision");
  if (!precision_enabled(t)) mgblas::detail::throw_precision_not_compiled(t, "batched GEMM");
  return static_cast<int>(t);
}

std::atomic<int64_t> g_max_blocks{0};

// ---- the tables (matched by common/table_match.hpp's one rule), compiled once per set ---

struct Rules {
  common::TableMatcher matcher;
  std::vector<TableEntry> by_id;  ///< per matcher rule id
};

/// Keyed by class name ("8x8x8"); op pairs "NN" or "*"; no bounds.
Rules compile(const common::TableSet& set) {
  Rules out{common::TableMatcher(set, "batched", {}, true), {}};
  for (const common::MatchRule& m : out.matcher.rules()) {
    const common::Entry& e = *m.entry;
    const double epb = common::number(e, "entries_per_block", 0);
    if (epb < 0 || epb > 1024)
      MGBLAS_THROW(BadArgument, "tuning table ", e.where,
                   ": field 'entries_per_block' must be 0..1024, not ", epb);
    out.by_id.push_back(TableEntry{e.choice, static_cast<int>(epb), m.table->origin});
  }
  return out;
}

}  // namespace

std::optional<TableEntry> table_lookup(const std::string& arch, char prec, const std::string& ops,
                                       const std::string& size_class) {
  const Rules& rules = common::compiled<Rules, compile>();
  const int cc = arch.rfind("sm_", 0) == 0 ? std::atoi(arch.c_str() + 3) : -1;
  const common::MatchRule* m = rules.matcher.find(cc, ops, "", prec, {}, size_class);
  if (!m) return std::nullopt;
  return rules.by_id[m->id];
}

const std::vector<InstanceEntry>& registry(char prec) {
  static std::array<std::vector<InstanceEntry>, 4> regs;
  static std::array<std::once_flag, 4> once;
  const int i = prec_index(prec);
  std::call_once(once[i], [&] {
#define MGBLAS_BATCHED_REGISTER_(p, T) \
    if (prec == #p[0]) MGBLAS_BATCHED_ADD_PARTS_(p, regs[i]);
    MGBLAS_FOR_EACH_PRECISION(MGBLAS_BATCHED_REGISTER_)
#undef MGBLAS_BATCHED_REGISTER_
  });
  return regs[i];
}

const InstanceEntry* find_entry(char prec, const std::string& name) {
  for (const InstanceEntry& e : registry(prec))
    if (e.info.name == name) return &e;
  return nullptr;
}

int64_t max_blocks_per_launch() {
  const int64_t v = g_max_blocks.load(std::memory_order_relaxed);
  return v > 0 ? v : int64_t{INT_MAX};  // gridDim.x limit, 2^31 - 1
}

}  // namespace detail

void set_max_blocks_per_launch(int64_t blocks) {
  detail::g_max_blocks.store(blocks > 0 ? blocks : 0, std::memory_order_relaxed);
}

const std::vector<InstanceInfo>& instances(char prec) {
  static std::array<std::vector<InstanceInfo>, 4> infos;
  static std::array<std::once_flag, 4> once;
  const int i = detail::prec_index(prec);
  std::call_once(once[i], [&] {
    for (const auto& e : detail::registry(prec)) infos[i].push_back(e.info);
  });
  return infos[i];
}

const InstanceInfo* find_instance(char prec, const std::string& name) {
  for (const InstanceInfo& i : instances(prec))
    if (i.name == name) return &i;
  return nullptr;
}

KernelAttributes attributes(char prec, const std::string& name, bool alpha_one_beta_zero) {
  const detail::InstanceEntry* e = detail::find_entry(prec, name);
  if (!e) MGBLAS_THROW(BadArgument, "batched kernel '", name, "' is not built for ", prec);
  const int policy = alpha_one_beta_zero && e->attributes[1] ? 1 : 0;
  return e->attributes[policy]();
}

// ---- classes and applicability -------------------------------------------------------

namespace {

constexpr int kBuckets[] = {2, 4, 8, 16, 32, 48, 64, 96, 128};

std::string bucket(int64_t v) {
  for (int b : kBuckets)
    if (v <= b) return std::to_string(b);
  return "big";
}

/// The shapes with compile-time instances in the full list (batched_tuning.hpp); the
/// classes do not depend on what this build compiled.
bool exact_shape(int64_t m, int64_t n, int64_t k) {
  if (m == n && n == k) return m >= 1 && m <= 32;
  const bool mn = m == n && (m == 8 || m == 16 || m == 32);
  return mn && (k == 8 || k == 16 || k == 32);
}

bool fits_int(int64_t v) { return v >= 0 && v <= INT_MAX; }

bool cublas_applicable(const Problem& p) {
  return p.iface != Interface::Variable && fits_int(p.m) && fits_int(p.n) && fits_int(p.k);
}

int64_t ceil_div(int64_t a, int64_t b) { return (a + b - 1) / b; }

}  // namespace

std::string op_pair(Op opA, Op opB) { return std::string(to_string(opA)) + to_string(opB); }

std::string size_class(const Problem& p) {
  const bool var = p.iface == Interface::Variable;
  if (!var && exact_shape(p.m, p.n, p.k))
    return std::to_string(p.m) + "x" + std::to_string(p.n) + "x" + std::to_string(p.k);
  return std::string(var ? "v" : "") + "mn" + bucket(std::max(p.m, p.n)) + "k" + bucket(p.k);
}

bool applicable(const InstanceInfo& inst, const Problem& p) {
  switch (inst.family) {
    case Family::Small:
      return p.iface != Interface::Variable && p.m == inst.m && p.n == inst.n && p.k == inst.k;
    case Family::SmallBounded:
      return p.m <= inst.m && p.n <= inst.n && p.k <= inst.k;
    case Family::Tiled: {
      const int64_t tm = ceil_div(p.m, inst.m), tn = ceil_div(p.n, inst.n);
      return tm <= INT_MAX && tn <= INT_MAX && tm * tn <= INT_MAX;
    }
    default: return false;
  }
}

std::vector<int> feasible_entries_per_block(const InstanceInfo& inst) {
  std::vector<int> out;
  if (inst.family != Family::Small && inst.family != Family::SmallBounded) return {0};
  for (int e = 1; e * inst.threads_per_entry <= inst.max_threads; e *= 2)
    if (static_cast<int64_t>(e) * inst.shared_bytes <= 48 * 1024) out.push_back(e);
  return out;
}

// ---- the model -----------------------------------------------------------------------

namespace {

/// E of a small instance: about 256 threads per block and at most 24 KiB of shared
/// memory (so that eight or more blocks fit a multiprocessor), a power of two.
int model_entries(const InstanceInfo& inst) {
  if (inst.family != Family::Small && inst.family != Family::SmallBounded) return 0;
  const int threads = std::min(256, inst.max_threads);
  int e = 1;
  while (2 * e * inst.threads_per_entry <= threads && 2 * e * inst.shared_bytes <= 24 * 1024)
    e *= 2;
  return e;
}

/// Thread tile the model prefers for a small problem whose largest C dimension is s:
/// one thread per entry up to 3 (enough loads in flight per thread), 2x2 up to 12,
/// 4x4 beyond (a quarter of the shared-memory reads per FMA).
int model_tile(int64_t s) { return s <= 3 ? static_cast<int>(s) : (s <= 12 ? 2 : 4); }

const InstanceInfo* model_instance(char prec, const Problem& p) {
  const auto& all = instances(prec);
  const bool var = p.iface == Interface::Variable;
  const int64_t mn = std::max(p.m, p.n), big = std::max(mn, p.k);
  const InstanceInfo* best = nullptr;
  if (!var && exact_shape(p.m, p.n, p.k)) {
    const int tile = model_tile(mn);
    for (const auto& i : all)
      if (i.family == Family::Small && applicable(i, p) && (!best || i.tm == tile)) best = &i;
    if (best) return best;
  }
  if (big <= 32) {
    // The smallest bound that holds the problem; there the preferred tile.
    for (const auto& i : all)
      if (i.family == Family::SmallBounded && applicable(i, p) && (!best || i.m < best->m))
        best = &i;
    if (best) {
      const int bound = best->m, tile = bound <= 4 ? 4 : (bound <= 8 ? 2 : 4);
      for (const auto& i : all)
        if (i.family == Family::SmallBounded && i.m == bound && applicable(i, p) && i.tm == tile)
          best = &i;
      return best;
    }
  }
  if (!var && big > 128 && cublas_applicable(p)) return nullptr;  // cuBLAS
  const int tile = mn <= 24 ? 16 : (mn <= 48 ? 32 : 64);
  for (const auto& i : all)
    if (i.family == Family::Tiled && applicable(i, p) &&
        (!best || (i.m == tile && i.n == tile && (best->m != tile || best->n != tile))))
      best = &i;
  return best;
}

Choice fallback_choice(const Problem& p, const std::string& why) {
  if (p.iface == Interface::Variable) return {Family::Generic, "generic", 0, why};
  return {Family::Cublas, "cublas", 0, why};
}

Choice model_choice_impl(char prec, const Problem& p) {
  const InstanceInfo* inst = model_instance(prec, p);
  if (!inst) {
    if (p.iface != Interface::Variable && cublas_applicable(p))
      return {Family::Cublas, "cublas", 0, "model"};
    return fallback_choice(p, "fallback: no instance applies");
  }
  return {inst->family, inst->name, model_entries(*inst), "model"};
}

// ---- per-thread state and the current device's architecture ---------------------------

thread_local std::optional<Forced> t_forced;
thread_local Choice t_last;

std::string current_arch() {
  constexpr int kMaxDevices = 64;
  static std::array<std::atomic<int>, kMaxDevices> cc{};
  int dev = 0;
  MGBLAS_CHECK_CUDA(cudaGetDevice(&dev));
  int v = dev >= 0 && dev < kMaxDevices ? cc[dev].load(std::memory_order_relaxed) : 0;
  if (v == 0) {
    int major = 0, minor = 0;
    MGBLAS_CHECK_CUDA(cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, dev));
    MGBLAS_CHECK_CUDA(cudaDeviceGetAttribute(&minor, cudaDevAttrComputeCapabilityMinor, dev));
    v = major * 10 + minor;
    if (dev >= 0 && dev < kMaxDevices) cc[dev].store(v, std::memory_order_relaxed);
  }
  return "sm_" + std::to_string(v);
}

/// The choice naming `kernel` with `entries` for p, or why it cannot run p.
std::optional<Choice> resolve(char prec, const Problem& p, const std::string& kernel, int entries,
                              const std::string& source, std::string& why) {
  if (kernel == "cublas") {
    if (cublas_applicable(p)) return Choice{Family::Cublas, kernel, 0, source};
    why = "cublas cannot run this call (variable size or sizes beyond int)";
    return std::nullopt;
  }
  if (kernel == "generic") {
    if (p.iface == Interface::Variable) return Choice{Family::Generic, kernel, 0, source};
    why = "generic is the variable-size kernel";
    return std::nullopt;
  }
  const InstanceInfo* inst = find_instance(prec, kernel);
  if (!inst) {
    why = kernel + " is not built in this configuration";
    return std::nullopt;
  }
  if (!applicable(*inst, p)) {
    why = kernel + " cannot run these sizes";
    return std::nullopt;
  }
  int e = 0;
  if (inst->family == Family::Small || inst->family == Family::SmallBounded) {
    e = entries > 0 ? entries : model_entries(*inst);
    const bool fits = e * inst->threads_per_entry <= inst->max_threads &&
                      static_cast<int64_t>(e) * inst->shared_bytes <= 48 * 1024;
    if (!fits) {
      why = kernel + " cannot take E=" + std::to_string(e);
      return std::nullopt;
    }
  }
  return Choice{inst->family, inst->name, e, source};
}

}  // namespace

template <Scalar T>
Choice model_choice(const Problem& p) {
  return model_choice_impl(precision_letter<T>(), p);
}

template <Scalar T>
Choice choose(const Problem& p) {
  const char prec = precision_letter<T>();
  std::string why;
  if (t_forced) {
    auto c = resolve(prec, p, t_forced->kernel, t_forced->entries_per_block, "forced", why);
    if (!c) MGBLAS_THROW(BadArgument, "forced batched kernel: ", why);
    return *c;
  }
  const std::string arch = current_arch();
  const std::string cls = size_class(p), ops = op_pair(p.opA, p.opB);
  if (const auto te = detail::table_lookup(arch, prec, ops, cls)) {
    const std::string source = "table " + arch + " " + std::string(1, prec) + " " + ops + " " +
                               cls + " (" + te->origin + ")";
    if (auto c = resolve(prec, p, te->kernel, te->entries_per_block, source, why)) return *c;
    Choice m = model_choice_impl(prec, p);
    m.source = "model (table: " + why + ")";
    return m;
  }
  return model_choice_impl(prec, p);
}

Choice last_choice() { return t_last; }
void set_forced(std::optional<Forced> f) { t_forced = std::move(f); }
std::optional<Forced> forced() { return t_forced; }
std::string table_sources() { return common::tables().summary; }
void reload_tables() { common::reload(); }

// ---- the calls -------------------------------------------------------------------------

namespace {

// The API's scalars and arrays as the kernels' device types (common/device_scalar.cuh).
template <typename T> using dev_t = common::device_t<T>;
using common::device_ptr;
using common::device_ptr_array;
using common::to_device;

template <Scalar T>
dev::BatchArgs<dev_t<T>> base_args(Op opA, Op opB, int64_t m, int64_t n, int64_t k, T alpha,
                                   T beta, int64_t batch) {
  dev::BatchArgs<dev_t<T>> a;
  a.m = m;
  a.n = n;
  a.k = k;
  a.batch = batch;
  a.alpha = to_device(alpha);
  a.beta = to_device(beta);
  a.trans_a = opA != Op::N;
  a.conj_a = opA == Op::C && is_complex_v<T>;
  a.trans_b = opB != Op::N;
  a.conj_b = opB == Op::C && is_complex_v<T>;
  a.beta_zero = beta == T(0);
  return a;
}

template <Scalar T>
void launch(const Choice& c, const dev::BatchArgs<dev_t<T>>& args, bool a1b0, cudaStream_t stream) {
  const detail::InstanceEntry* e = detail::find_entry(precision_letter<T>(), c.kernel);
  if (!e) MGBLAS_THROW(BadArgument, "batched kernel '", c.kernel, "' is not built");
  const int policy = a1b0 && e->launch[dev::kAlphaOneBetaZero] ? dev::kAlphaOneBetaZero
                                                               : dev::kGeneral;
  e->launch[policy](&args, c.entries_per_block, stream);
}

Choice record(Choice c) {
  t_last = c;
  return c;
}

}  // namespace

template <Scalar T>
void gemm_strided(const Device& dev, cudaStream_t stream, Op opA, Op opB, int64_t m, int64_t n,
                  int64_t k, T alpha, const T* A, int64_t lda, int64_t strideA, const T* B,
                  int64_t ldb, int64_t strideB, T beta, T* C, int64_t ldc, int64_t strideC,
                  int64_t batch) {
  if (batch <= 0 || m <= 0 || n <= 0) return;
  dev.make_current();
  if (k == 0 || alpha == T(0)) {
    record({Family::Generic, "scale", 0, "k = 0 or alpha = 0: C = beta C"});
    return common::scale(stream, m, n, beta, C, 1, ldc, strideC, batch);
  }
  const Problem p{Interface::Strided, precision_letter<T>(), opA, opB, m, n, k, batch,
                  alpha == T(1) && beta == T(0)};
  const Choice c = record(choose<T>(p));
  if (c.family == Family::Cublas) {
    for (int64_t off = 0; off < batch; off += INT_MAX) {
      const int64_t count = std::min<int64_t>(INT_MAX, batch - off);
      common::cublas::gemm_batched_strided(dev.cublas(), stream, opA, opB, m, n, k, alpha,
                                   A + off * strideA, lda, strideA, B + off * strideB, ldb,
                                   strideB, beta, C + off * strideC, ldc, strideC, count);
    }
    return;
  }
  auto args = base_args(opA, opB, m, n, k, alpha, beta, batch);
  args.a.ptr = device_ptr(A);
  args.a.stride = strideA;
  args.a.ld = lda;
  args.b.ptr = device_ptr(B);
  args.b.stride = strideB;
  args.b.ld = ldb;
  args.c.ptr = device_ptr(C);
  args.c.stride = strideC;
  args.c.ld = ldc;
  launch<T>(c, args, p.alpha_one_beta_zero, stream);
}

template <Scalar T>
void gemm_pointer_array(const Device& dev, cudaStream_t stream, Op opA, Op opB, int64_t m,
                        int64_t n, int64_t k, T alpha, const T* const* Aarray, int64_t lda,
                        const T* const* Barray, int64_t ldb, T beta, T* const* Carray,
                        int64_t ldc, int64_t batch) {
  if (batch <= 0 || m <= 0 || n <= 0) return;
  dev.make_current();
  if (k == 0 || alpha == T(0)) {
    record({Family::Generic, "scale", 0, "k = 0 or alpha = 0: C = beta C"});
    return common::scale_batched(stream, m, n, beta, Carray, ldc, batch);
  }
  const Problem p{Interface::PointerArray, precision_letter<T>(), opA, opB, m, n, k, batch,
                  alpha == T(1) && beta == T(0)};
  const Choice c = record(choose<T>(p));
  if (c.family == Family::Cublas) {
    for (int64_t off = 0; off < batch; off += INT_MAX) {
      const int64_t count = std::min<int64_t>(INT_MAX, batch - off);
      common::cublas::gemm_batched(dev.cublas(), stream, opA, opB, m, n, k, alpha, Aarray + off, lda,
                           Barray + off, ldb, beta, Carray + off, ldc, count);
    }
    return;
  }
  auto args = base_args(opA, opB, m, n, k, alpha, beta, batch);
  args.a.array = device_ptr_array(Aarray);
  args.a.ld = lda;
  args.b.array = device_ptr_array(Barray);
  args.b.ld = ldb;
  args.c.array = device_ptr_array(Carray);
  args.c.ld = ldc;
  launch<T>(c, args, p.alpha_one_beta_zero, stream);
}

template <Scalar T>
void gemm_variable(const Device& dev, cudaStream_t stream, Op opA, Op opB, const int64_t* m,
                   const int64_t* n, const int64_t* k, T alpha, const T* const* Aarray,
                   const int64_t* lda, const T* const* Barray, const int64_t* ldb, T beta,
                   T* const* Carray, const int64_t* ldc, int64_t batch, int64_t max_m,
                   int64_t max_n, int64_t max_k) {
  if (batch <= 0 || max_m <= 0 || max_n <= 0) return;
  dev.make_current();
  const Problem p{Interface::Variable, precision_letter<T>(), opA, opB, max_m, max_n, max_k,
                  batch, alpha == T(1) && beta == T(0)};
  // Without products only C is scaled, and A, B, k may not be read (alpha == 0 must not
  // propagate NaN from A or B): the generic kernel's beta-only mode.
  const Choice c = record(max_k == 0 || alpha == T(0)
                              ? Choice{Family::Generic, "generic", 0, "k = 0 or alpha = 0: C = beta C"}
                              : choose<T>(p));
  if (c.family == Family::Generic) {
    gemm_vbatched_tiled(stream, opA, opB, m, n, k, alpha, Aarray, lda, Barray, ldb,
                                      beta, Carray, ldc, batch, max_m, max_n, max_k);
    return;
  }
  auto args = base_args(opA, opB, max_m, max_n, max_k, alpha, beta, batch);
  args.m_array = m;
  args.n_array = n;
  args.k_array = k;
  args.a.array = device_ptr_array(Aarray);
  args.a.ld_array = lda;
  args.b.array = device_ptr_array(Barray);
  args.b.ld_array = ldb;
  args.c.array = device_ptr_array(Carray);
  args.c.ld_array = ldc;
  launch<T>(c, args, p.alpha_one_beta_zero, stream);
}

#define MGBLAS_BATCHED_INSTANTIATE_(T)                                                         \
  template Choice choose<T>(const Problem&);                                                   \
  template Choice model_choice<T>(const Problem&);                                             \
  template void gemm_strided<T>(const Device&, cudaStream_t, Op, Op, int64_t, int64_t, int64_t, \
                                T, const T*, int64_t, int64_t, const T*, int64_t, int64_t, T,  \
                                T*, int64_t, int64_t, int64_t);                                \
  template void gemm_pointer_array<T>(const Device&, cudaStream_t, Op, Op, int64_t, int64_t,   \
                                      int64_t, T, const T* const*, int64_t, const T* const*,   \
                                      int64_t, T, T* const*, int64_t, int64_t);                \
  template void gemm_variable<T>(const Device&, cudaStream_t, Op, Op, const int64_t*,          \
                                 const int64_t*, const int64_t*, T, const T* const*,           \
                                 const int64_t*, const T* const*, const int64_t*, T,           \
                                 T* const*, const int64_t*, int64_t, int64_t, int64_t, int64_t);
MGBLAS_FOR_EACH_SCALAR(MGBLAS_BATCHED_INSTANTIATE_)
#undef MGBLAS_BATCHED_INSTANTIATE_

}  // namespace mgblas::kernels::cuda::batched
