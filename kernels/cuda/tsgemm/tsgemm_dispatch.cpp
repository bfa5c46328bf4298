// SPDX-License-Identifier: BSD-3-Clause
// The tall-skinny GEMM tables compiled once per loaded set (see tsgemm_dispatch.hpp);
// the measurements behind the shipped table: bench/results/h200-tsgemm.md.
#include "kernels/cuda/tsgemm/tsgemm_dispatch.hpp"

#include <algorithm>
#include <array>
#include <limits>
#include <string>
#include <utility>
#include <vector>

#include "core/error.hpp"
#include "core/types.hpp"
#include "kernels/cuda/tuning/tuning_table.hpp"

namespace mgblas::kernels::cuda::tsm2 {
namespace {

struct ClassRule {
  int64_t max_small;  ///< applies when the small dimension <= this
  bool cublas;
  double fraction;
};

/// Per precision (DataType order) and kernel (Tsm2r, Tsm2l, Tsmttsm): classes by max_small.
constexpr int kDataTypes = static_cast<int>(DataType::kComplex128) + 1;
using Classes = std::array<std::array<std::vector<ClassRule>, 3>, kDataTypes>;

struct Rules {
  std::vector<std::pair<int, Classes>> per_cc;
  Classes any_arch;
};

int kernel_index(const tuning::Entry& e) {
  if (e.op == "tsm2r") return 0;
  if (e.op == "tsm2l") return 1;
  if (e.op == "tsmttsm") return 2;
  MGBLAS_THROW(BadArgument, "tuning table ", e.where,
               ": field 'op' must be tsm2r, tsm2l or tsmttsm, not \"", e.op, "\"");
}

void add(Classes& classes, const tuning::Entry& e) {
  if (e.choice != "cublas" && e.choice != "model")
    MGBLAS_THROW(BadArgument, "tuning table ", e.where,
                 ": field 'choice' must be cublas or model, not \"", e.choice, "\"");
  const double max_small = tuning::number(e, "max_small", -1);
  const ClassRule r{max_small < 0 ? std::numeric_limits<int64_t>::max()
                                  : static_cast<int64_t>(max_small),
                    e.choice == "cublas", tuning::number(e, "cublas_fraction", 0)};
  if (r.fraction < 0 || r.fraction > 1)
    MGBLAS_THROW(BadArgument, "tuning table ", e.where,
                 ": field 'cublas_fraction' must be in [0, 1], not ", r.fraction);
  const int k = kernel_index(e);
  for (int p = 0; p < kDataTypes; ++p) {
    if (e.precision != '*' && e.precision != precision_letter(static_cast<DataType>(p))) continue;
    auto& list = classes[p][k];
    // One rule per class: a later table's entry replaces an earlier one of the same class.
    const auto same = std::find_if(list.begin(), list.end(),
                                   [&](const ClassRule& c) { return c.max_small == r.max_small; });
    if (same != list.end()) *same = r;
    else list.push_back(r);
    std::sort(list.begin(), list.end(),
              [](const ClassRule& a, const ClassRule& b) { return a.max_small < b.max_small; });
  }
}

Rules compile(const tuning::TableSet& set) {
  Rules out;
  for (const tuning::Table& t : set.tables) {
    if (t.engine != "tsgemm") continue;
    Classes* classes = &out.any_arch;
    if (t.arch != "*") {
      const int cc = std::stoi(t.arch.substr(3));
      auto it = std::find_if(out.per_cc.begin(), out.per_cc.end(),
                             [&](const auto& p) { return p.first == cc; });
      if (it == out.per_cc.end()) it = out.per_cc.insert(out.per_cc.end(), {cc, Classes{}});
      classes = &it->second;
    }
    for (const tuning::Entry& e : t.entries) add(*classes, e);
  }
  return out;
}

const ClassRule* find(const Classes& classes, int p, int k, int64_t small) {
  for (const ClassRule& r : classes[p][k])
    if (small <= r.max_small) return &r;
  return nullptr;
}

}  // namespace

CublasRule cublas_rule(int cc, char prec, Engine e, int64_t small) {
  const int p = static_cast<int>(data_type_of_letter(prec, "tsgemm precision"));
  const int k = e == Engine::Tsm2r ? 0 : e == Engine::Tsm2l ? 1 : 2;
  const Rules& rules = tuning::compiled<Rules, compile>();
  const ClassRule* r = nullptr;
  for (const auto& [rule_cc, classes] : rules.per_cc)
    if (rule_cc == cc) {
      r = find(classes, p, k, small);
      break;
    }
  if (!r) r = find(rules.any_arch, p, k, small);
  if (!r) return {};
  return {true, r->cublas, r->fraction};
}

}  // namespace mgblas::kernels::cuda::tsm2
