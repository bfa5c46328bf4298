// SPDX-License-Identifier: BSD-3-Clause
// Level-2 dispatcher: table lookup plus the conditions under which mgblas's kernels
// cannot run (operands not aligned to their element type) or cuBLAS cannot (sizes past
// its 32-bit int). Every tuning rule is in the tables (tables/<arch>.json, any.json).
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
#include "kernels/cuda/level2/gemv.hpp"
#include "kernels/cuda/level2/symv.hpp"
#include "kernels/cuda/common/table_match.hpp"
#include "kernels/cuda/common/tuning_table.hpp"

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

// ---- the tables (one matching rule for every engine: common/table_match.hpp) ----------

/// A compiled entry: what the choice is.
struct Rule {
  Engine engine;
  int variant;
  bool if_built;  ///< skipped where its tuning set is not built ("if_built": 1)
  const char* label;
};

struct Rules {
  common::TableMatcher matcher;
  std::vector<Rule> by_id;                           ///< per matcher rule id
  std::vector<std::unique_ptr<std::string>> labels;  ///< made-up labels (stable)
};

/// The level-2 shape dimensions: min(m, n), max(m, n) and m n (bounds max_min_dim,
/// max_dim, min_elements).
const std::vector<std::string> kDims{"min_dim", "dim", "elements"};

Rule rule_of(const common::Entry& e, Rules& out) {
  if (e.op != "gemvN" && e.op != "gemvT" && e.op != "symv" && e.op != "symvL" && e.op != "symvU")
    MGBLAS_THROW(BadArgument, "tuning table ", e.where, ": field 'op' must be gemvN, gemvT, "
                 "symv, symvL or symvU, not \"", e.op, "\"");
  Rule r{};
  if (e.choice == "mgblas") r.engine = Engine::Mgblas;
  else if (e.choice == "cublas") r.engine = Engine::Cublas;
  else
    MGBLAS_THROW(BadArgument, "tuning table ", e.where,
                 ": field 'choice' must be mgblas or cublas, not \"", e.choice, "\"");
  r.variant = e.variant < 0 ? 0 : e.variant;
  r.if_built = common::number(e, "if_built", 0) != 0;
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

Rules compile(const common::TableSet& set) {
  Rules out{common::TableMatcher(set, "level2", kDims, false), {}, {}};
  for (const common::MatchRule& m : out.matcher.rules()) out.by_id.push_back(rule_of(*m.entry, out));
  return out;
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

Choice decide(int cc, char prec, Kind kind, char uplo, int64_t min_dim, int64_t max_dim,
              int built_variants) {
  const Rules& rules = common::compiled<Rules, compile>();
  const char* op = kind == Kind::GemvN ? "gemvN" : kind == Kind::GemvT ? "gemvT"
                   : uplo == 'L'       ? "symvL" : "symvU";
  const int64_t dims[] = {min_dim, max_dim, min_dim * max_dim};
  const common::MatchRule* m = rules.matcher.find(
      cc, op, kind == Kind::Symv ? "symv" : "", prec, dims, {}, [&](const common::MatchRule& r) {
        const Rule& rule = rules.by_id[r.id];
        return !rule.if_built || rule.engine != Engine::Mgblas || rule.variant < built_variants;
      });
  if (!m) return model_default(kind);
  const Rule& r = rules.by_id[m->id];
  return {r.engine, r.variant, r.label};
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
  return built(decide(compute_capability(), precision_letter<T>(),
                      op == Op::N ? Kind::GemvN : Kind::GemvT, '*', std::min(m, n), std::max(m, n),
                      gemv_variant_count<T>(op)),
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
                      uplo == Uplo::Lower ? 'L' : 'U', n, n, symv_variant_count<T>()),
               symv_variant_count<T>());
}

#define MGBLAS_LEVEL2_DISPATCH_INSTANTIATE_(T) MGBLAS_LEVEL2_DISPATCH_DECLARE_(, T)
MGBLAS_FOR_EACH_SCALAR(MGBLAS_LEVEL2_DISPATCH_INSTANTIATE_)
#undef MGBLAS_LEVEL2_DISPATCH_INSTANTIATE_

}  // namespace mgblas::kernels::cuda::level2
