// SPDX-License-Identifier: BSD-3-Clause
// The one matching rule of the tuning tables (private), used by the level-2, tall-skinny
// and batched dispatchers alike. An engine asks with (compute capability, op, precision,
// its shape dimensions, and a class name where it keys by name); the answer is
//
//   the FIRST entry, in this order: the tables of the device's architecture ("sm_90"),
//   later-loaded first (the files of MGBLAS_TUNING_TABLE before the built-in ones), each
//   in file order; then the tables for any architecture ("*") in the same order;
//
// whose
//   - op equals the query's op, or its family (level 2: "symv" for symvL and symvU), or "*";
//   - precision equals the query's, or is '*';
//   - class equals the query's class name, where the engine keys by name (batched: "8x8x8");
//   - bounds hold: for each dimension d the engine names, a number max_<d> (d <= it) and
//     min_<d> (d >= it) where the entry has them (level 2: max_min_dim, max_dim,
//     min_elements; tsgemm: max_small);
//   - and the engine's own acceptance test passes (level 2 skips an entry marked
//     "if_built": 1 whose tuning set this build lacks).
//
// No entry matches: the engine's documented fallback (level 2: mgblas's set 0; tsgemm: the
// model alone; batched: the model). Entries are compiled once per loaded table set.
#pragma once

#include <cstdint>
#include <limits>
#include <span>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

#include "kernels/cuda/common/tuning_table.hpp"

namespace mgblas::kernels::cuda::common {

struct MatchRule {
  const Entry* entry;  ///< lives as long as the TableSet (never freed)
  const Table* table;  ///< the table holding it
  std::size_t id;      ///< index in rules(): engines keep their payloads by it
  std::vector<std::pair<int64_t, int64_t>> bounds;  ///< per dimension: [min, max]
};

class TableMatcher {
 public:
  /// The entries of `engine` in `set`, with the bounds of the dimensions `dims` (field
  /// names max_<d>, min_<d>); by_class: the class field is matched by name.
  TableMatcher(const TableSet& set, const std::string& engine, std::vector<std::string> dims,
               bool by_class);

  /// Every rule, in no particular order of priority (for the engines' payloads).
  const std::vector<MatchRule>& rules() const { return rules_; }

  /// The first matching rule (see the file comment), or nullptr. dims in the order given
  /// to the constructor; family: a second op name that also matches ("" for none).
  template <typename Accept>
  const MatchRule* find(int cc, std::string_view op, std::string_view family, char prec,
                        std::span<const int64_t> dims, std::string_view size_class,
                        Accept&& accept) const {
    for (const Tier* tier : {tier_of(cc), &any_arch_}) {
      if (!tier) continue;
      const std::vector<std::size_t>* order = &tier->order;
      if (by_class_) {
        const auto it = tier->by_class.find(std::string(size_class));
        if (it == tier->by_class.end()) continue;
        order = &it->second;
      }
      for (std::size_t i : *order) {
        const MatchRule& r = rules_[i];
        const Entry& e = *r.entry;
        if (e.op != op && e.op != "*" && (family.empty() || e.op != family)) continue;
        if (e.precision != '*' && e.precision != prec) continue;
        bool inside = true;
        for (std::size_t d = 0; d < dims.size() && inside; ++d)
          inside = dims[d] >= r.bounds[d].first && dims[d] <= r.bounds[d].second;
        if (inside && accept(r)) return &r;
      }
    }
    return nullptr;
  }
  const MatchRule* find(int cc, std::string_view op, std::string_view family, char prec,
                        std::span<const int64_t> dims, std::string_view size_class = {}) const {
    return find(cc, op, family, prec, dims, size_class, [](const MatchRule&) { return true; });
  }

 private:
  struct Tier {
    std::vector<std::size_t> order;  ///< rule indices, priority order
    std::unordered_map<std::string, std::vector<std::size_t>> by_class;
  };
  const Tier* tier_of(int cc) const;

  std::vector<MatchRule> rules_;
  std::vector<std::pair<int, Tier>> per_cc_;
  Tier any_arch_;
  bool by_class_;
};

}  // namespace mgblas::kernels::cuda::common
