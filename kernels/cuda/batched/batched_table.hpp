// SPDX-License-Identifier: BSD-3-Clause
// The batched GEMM engine's view of the tuning tables (private; schema, loader and the
// env override in common/tuning_table.hpp): entries keyed by architecture, precision,
// op pair and size class, naming a kernel instance (or cublas, generic) and its
// entries per block. Defined in batched_dispatch.cpp.
#pragma once

#include <optional>
#include <string>

namespace mgblas::kernels::cuda::batched::detail {

struct TableEntry {
  std::string kernel;
  int entries_per_block = 0;
  std::string origin;  ///< "builtin batched/sm_90.json" or the env path
};

/// The entry for (arch "sm_90", prec, ops "NN", class) by the tables' one rule
/// (common/table_match.hpp): the first entry of that class naming ops or "*", in the
/// tables of that architecture (the env's first), then of any architecture ("*").
/// BadArgument naming the file and field for a malformed table.
std::optional<TableEntry> table_lookup(const std::string& arch, char prec, const std::string& ops,
                                       const std::string& size_class);

}  // namespace mgblas::kernels::cuda::batched::detail
