// SPDX-License-Identifier: BSD-3-Clause
// The tuning tables' one matching rule (see table_match.hpp): the rules in priority order.
#include "kernels/cuda/common/table_match.hpp"

#include <algorithm>

namespace mgblas::kernels::cuda::common {

TableMatcher::TableMatcher(const TableSet& set, const std::string& engine,
                           std::vector<std::string> dims, bool by_class)
    : by_class_(by_class) {
  constexpr int64_t kMax = std::numeric_limits<int64_t>::max();
  // Later tables (the env's) go first: their entries win where they match.
  for (auto t = set.tables.rbegin(); t != set.tables.rend(); ++t) {
    if (t->engine != engine) continue;
    Tier* tier = &any_arch_;
    if (t->arch != "*") {
      const int cc = std::stoi(t->arch.substr(3));
      auto it = std::find_if(per_cc_.begin(), per_cc_.end(),
                             [&](const auto& p) { return p.first == cc; });
      if (it == per_cc_.end()) it = per_cc_.insert(per_cc_.end(), {cc, Tier{}});
      tier = &it->second;
    }
    for (const Entry& e : t->entries) {
      MatchRule r{&e, &*t, rules_.size(), {}};
      for (const std::string& d : dims) {
        // A negative bound means none (the tables' older convention).
        const double lo = number(e, "min_" + d, -1), hi = number(e, "max_" + d, -1);
        r.bounds.emplace_back(lo < 0 ? int64_t{0} : static_cast<int64_t>(lo),
                              hi < 0 ? kMax : static_cast<int64_t>(hi));
      }
      tier->order.push_back(r.id);
      if (by_class_) tier->by_class[e.size_class].push_back(r.id);
      rules_.push_back(std::move(r));
    }
  }
}

const TableMatcher::Tier* TableMatcher::tier_of(int cc) const {
  for (const auto& [c, tier] : per_cc_)
    if (c == cc) return &tier;
  return nullptr;
}

}  // namespace mgblas::kernels::cuda::common
