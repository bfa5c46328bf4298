// SPDX-License-Identifier: BSD-3-Clause
// Level-2 dispatcher: table lookup plus the conditions under which mgblas's kernels
// cannot run (operands not aligned to their element type) or cuBLAS cannot (sizes past
// its 32-bit int).
#include "kernels/cuda/level2/level2_dispatch.hpp"

#include <cuda_runtime.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <climits>
#include <complex>
#include <limits>
#include <memory>
#include <string>
#include <vector>

#include "core/detail/cuda_check.hpp"
#include "kernels/cuda/gemv/gemv.hpp"
#include "kernels/cuda/symv/symv.hpp"
#include "kernels/cuda/tuning/tuning_table.hpp"

namespace mgblas::kernels::cuda::level2 {
namespace {

constexpr int kMaxDevices = 64;

struct CachedInfo {
  std::atomic<int> sms{0};
  std::atomic<int> cc{0};
};
std::array<CachedInfo, kMaxDevices> g_info;

const CachedInfo& current_info() {
  int dev = 0;
  MGBLAS_CHECK_CUDA(cudaGetDevice(&dev));
  if (dev < 0 || dev >= kMaxDevices)
    MGBLAS_THROW(NotImplemented, "device ordinal ", dev, " beyond ", kMaxDevices);
  CachedInfo& info = g_info[static_cast<std::size_t>(dev)];
  if (info.sms.load(std::memory_order_acquire) == 0) {
    int sms = 0, major = 0, minor = 0;
    MGBLAS_CHECK_CUDA(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev));
    MGBLAS_CHECK_CUDA(cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, dev));
    MGBLAS_CHECK_CUDA(cudaDeviceGetAttribute(&minor, cudaDevAttrComputeCapabilityMinor, dev));
    info.cc.store(major * 10 + minor, std::memory_order_relaxed);
    info.sms.store(sms, std::memory_order_release);
  }
  return info;
}

/// mgblas's kernels read A, x and y as their device element type: each pointer must
/// be aligned to it (8 bytes for std::complex<float>, 16 for std::complex<double>).
template <Scalar T>
bool element_aligned(const T* p) {
  constexpr std::size_t align = is_complex_v<T> ? 2 * sizeof(real_type_t<T>) : sizeof(T);
  return reinterpret_cast<uintptr_t>(p) % align == 0;
}

bool beyond_int(int64_t v) { return v > INT_MAX; }

// ---- the tables, compiled once per loaded set -------------------------------------------

struct Rule {
  char prec;           ///< 's', 'd', 'c', 'z'; '*' matches any
  Kind kind;
  char uplo;           ///< Symv: 'L' or 'U'; '*' matches any (and every GEMV)
  int64_t max_min_dim; ///< applies when min(m, n) <= this
  int64_t max_dim;     ///< ... and max(m, n) <= this
  Engine engine;
  int variant;
  const char* label;
};

struct Rules {
  std::vector<std::pair<int, std::vector<Rule>>> per_cc;  ///< first match wins
  std::vector<Rule> any_arch;                              ///< tables with arch "*"
  std::vector<std::unique_ptr<std::string>> labels;        ///< made-up labels (stable)
};

constexpr int64_t kAny = std::numeric_limits<int64_t>::max();

Rule rule_of(const tuning::Entry& e, Rules& out) {
  Rule r{};
  if (e.op == "gemvN") r.kind = Kind::GemvN, r.uplo = '*';
  else if (e.op == "gemvT") r.kind = Kind::GemvT, r.uplo = '*';
  else if (e.op == "symv") r.kind = Kind::Symv, r.uplo = '*';
  else if (e.op == "symvL" || e.op == "symvU") r.kind = Kind::Symv, r.uplo = e.op[4];
  else
    MGBLAS_THROW(BadArgument, "tuning table ", e.where, ": field 'op' must be gemvN, gemvT, "
                 "symv, symvL or symvU, not \"", e.op, "\"");
  if (e.choice == "mgblas") r.engine = Engine::Mgblas;
  else if (e.choice == "cublas") r.engine = Engine::Cublas;
  else
    MGBLAS_THROW(BadArgument, "tuning table ", e.where,
                 ": field 'choice' must be mgblas or cublas, not \"", e.choice, "\"");
  r.prec = e.precision;
  const double max_min_dim = tuning::number(e, "max_min_dim", -1);
  const double max_dim = tuning::number(e, "max_dim", -1);
  r.max_min_dim = max_min_dim < 0 ? kAny : static_cast<int64_t>(max_min_dim);
  r.max_dim = max_dim < 0 ? kAny : static_cast<int64_t>(max_dim);
  r.variant = e.variant < 0 ? 0 : e.variant;
  if (e.label.empty()) {
    out.labels.push_back(std::make_unique<std::string>(
        e.choice + (r.engine == Engine::Mgblas ? " v" + std::to_string(r.variant) : "") +
        " [" + e.where + "]"));
    r.label = out.labels.back()->c_str();
  } else {
    r.label = e.label.c_str();  // the TableSet lives on (tuning_table.hpp)
  }
  return r;
}

Rules compile(const tuning::TableSet& set) {
  Rules out;
  // Later tables (the env's) go first: their entries win where they match.
  for (auto t = set.tables.rbegin(); t != set.tables.rend(); ++t) {
    if (t->engine != "level2") continue;
    std::vector<Rule>* rules = &out.any_arch;
    if (t->arch != "*") {
      const int cc = std::stoi(t->arch.substr(3));
      auto it = std::find_if(out.per_cc.begin(), out.per_cc.end(),
                             [&](const auto& p) { return p.first == cc; });
      if (it == out.per_cc.end()) it = out.per_cc.insert(out.per_cc.end(), {cc, {}});
      rules = &it->second;
    }
    for (const tuning::Entry& e : t->entries) rules->push_back(rule_of(e, out));
  }
  return out;
}

const Rule* first_match(const std::vector<Rule>& rules, char prec, Kind kind, char uplo,
                        int64_t min_dim, int64_t max_dim) {
  for (const Rule& r : rules)
    if ((r.prec == '*' || r.prec == prec) && r.kind == kind && (r.uplo == '*' || r.uplo == uplo) &&
        min_dim <= r.max_min_dim && max_dim <= r.max_dim)
      return &r;
  return nullptr;
}

/// The model: mgblas's kernels read the stored elements once, 16 bytes per load; set 0.
Choice model_default(Kind kind) {
  switch (kind) {
    case Kind::GemvN: return {Engine::Mgblas, 0, "mgblas v0 [default gemvN]"};
    case Kind::GemvT: return {Engine::Mgblas, 0, "mgblas v0 [default gemvT]"};
    case Kind::Symv: break;
  }
  return {Engine::Mgblas, 0, "mgblas v0 [default symv]"};
}

/// A rule may name a tuning set that the narrow CI instance list does not build.
Choice built(Choice c, int count) {
  if (c.engine == Engine::Mgblas && c.variant >= count)
    return {Engine::Mgblas, 0, "mgblas v0 [the table's tuning set is not built: MGBLAS_INSTANCES=ci]"};
  return c;
}

}  // namespace

Choice decide(int cc, char prec, Kind kind, char uplo, int64_t min_dim, int64_t max_dim) {
  const Rules& rules = tuning::compiled<Rules, compile>();
  const Rule* r = nullptr;
  for (const auto& [rule_cc, list] : rules.per_cc)
    if (rule_cc == cc) {
      r = first_match(list, prec, kind, uplo, min_dim, max_dim);
      break;
    }
  if (!r) r = first_match(rules.any_arch, prec, kind, uplo, min_dim, max_dim);
  if (!r) return model_default(kind);
  return {r->engine, r->variant, r->label};
}

int multiprocessor_count() { return current_info().sms.load(std::memory_order_acquire); }
int compute_capability() {
  const CachedInfo& info = current_info();
  return info.cc.load(std::memory_order_relaxed);
}

template <Scalar T>
Choice choose_gemv(Op op, int64_t m, int64_t n, const T* A, int64_t lda, const T* x,
                   int64_t incx, const T* y, int64_t incy) {
  if (beyond_int(m) || beyond_int(n) || beyond_int(lda) || beyond_int(incx) || beyond_int(incy))
    return {Engine::Mgblas, 0, "mgblas v0 [sizes beyond cuBLAS's int]"};
  if (!element_aligned(A) || !element_aligned(x) || !element_aligned(y))
    return {Engine::Cublas, 0, "cublas [operand not aligned to its element type]"};
  // cuBLAS's transposed GEMV runs at half speed once the matrix holds 2^31 elements or
  // more (H200, 2026-11-22: d 65536 x 65536 17.3 ms against 7.6 ms for op N; the same on
  // 65536 x 32768, not on 65536 x 16384): mgblas's set 1 there.
  if (op != Op::N && m * n >= (int64_t{1} << 31) && gemv_variant_count<T>(op) > 1)
    return {Engine::Mgblas, 1, "mgblas v1 [gemvT, m n >= 2^31: cuBLAS at half speed there]"};
  return built(decide(compute_capability(), precision_letter<T>(),
                      op == Op::N ? Kind::GemvN : Kind::GemvT, '*', std::min(m, n), std::max(m, n)),
               gemv_variant_count<T>(op));
}

template <Scalar T>
Choice choose_symv(Uplo uplo, bool hermitian, int64_t n, const T* A, int64_t lda, const T* x,
                   int64_t incx, const T* y, int64_t incy) {
  if (beyond_int(n) || beyond_int(lda) || beyond_int(incx) || beyond_int(incy))
    return {Engine::Mgblas, 0, "mgblas v0 [sizes beyond cuBLAS's int]"};
  if (!element_aligned(A) || !element_aligned(x) || !element_aligned(y))
    return {Engine::Cublas, 0, "cublas [operand not aligned to its element type]"};
  return built(decide(compute_capability(), precision_letter<T>(), Kind::Symv,
                      uplo == Uplo::Lower ? 'L' : 'U', n, n),
               symv_variant_count<T>());
}

#define MGBLAS_LEVEL2_DISPATCH_INSTANTIATE_(T) MGBLAS_LEVEL2_DISPATCH_DECLARE_(, T)
MGBLAS_FOR_EACH_SCALAR(MGBLAS_LEVEL2_DISPATCH_INSTANTIATE_)
#undef MGBLAS_LEVEL2_DISPATCH_INSTANTIATE_

}  // namespace mgblas::kernels::cuda::level2
