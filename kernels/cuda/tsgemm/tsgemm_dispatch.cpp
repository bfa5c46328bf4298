// SPDX-License-Identifier: BSD-3-Clause
// The tall-skinny GEMM tables compiled once per loaded set (see tsgemm_dispatch.hpp), matched
// by the tables' one rule (common/table_match.hpp);
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
#include "kernels/cuda/common/table_match.hpp"
#include "kernels/cuda/common/tuning_table.hpp"

namespace mgblas::kernels::cuda::tsm2 {
namespace {

struct Rules {
  common::TableMatcher matcher;
  std::vector<CublasRule> by_id;  ///< per matcher rule id
};

const char* op_name(Engine e) {
  return e == Engine::Tsm2r ? "tsm2r" : e == Engine::Tsm2l ? "tsm2l" : "tsmttsm";
}

CublasRule rule_of(const common::Entry& e) {
  if (e.op != "tsm2r" && e.op != "tsm2l" && e.op != "tsmttsm")
    MGBLAS_THROW(BadArgument, "tuning table ", e.where,
                 ": field 'op' must be tsm2r, tsm2l or tsmttsm, not \"", e.op, "\"");
  if (e.choice != "cublas" && e.choice != "model")
    MGBLAS_THROW(BadArgument, "tuning table ", e.where,
                 ": field 'choice' must be cublas or model, not \"", e.choice, "\"");
  const CublasRule r{true, e.choice == "cublas", common::number(e, "cublas_fraction", 0)};
  if (r.fraction < 0 || r.fraction > 1)
    MGBLAS_THROW(BadArgument, "tuning table ", e.where,
                 ": field 'cublas_fraction' must be in [0, 1], not ", r.fraction);
  return r;
}

/// The small dimension is the one bound (max_small).
Rules compile(const common::TableSet& set) {
  Rules out{common::TableMatcher(set, "tsgemm", {"small"}, false), {}};
  for (const common::MatchRule& m : out.matcher.rules()) out.by_id.push_back(rule_of(*m.entry));
  return out;
}

}  // namespace

CublasRule cublas_rule(int cc, char prec, Engine e, int64_t small) {
  data_type_of_letter(prec, "tsgemm precision");  // BadArgument for a wrong letter
  const Rules& rules = common::compiled<Rules, compile>();
  const int64_t dims[] = {small};
  const common::MatchRule* m = rules.matcher.find(cc, op_name(e), "", prec, dims);
  return m ? rules.by_id[m->id] : CublasRule{};
}

}  // namespace mgblas::kernels::cuda::tsm2
