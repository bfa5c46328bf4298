// SPDX-License-Identifier: BSD-3-Clause
// Tuning tables of the batched GEMM engine (private): JSON written by
// `mgblas-tune batched`, keyed by architecture, precision, op pair and size class.
//
//   {
//     "format": "mgblas-batched-table/1",
//     "tables": {
//       "sm_90": {
//         "source": "measured" | "model", "device": "...", "command": "...", "note": "...",
//         "d": { "NN": { "4x4x4": { "kernel": "small_4x4x4_t2x2", "entries_per_block": 32,
//                                   "time_us": 7.1, "model_us": 9.0, "cublas_us": 230.5 },
//                        ... },
//                "*":  { ... }                      <- any op pair without an own entry
//         }, "s": ..., "c": ..., "z": ...
//       }
//     }
//   }
//
// Sources, later ones overriding earlier ones entry by entry: the tables built into the
// library from kernels/cuda/batched/tables/*.json (also installed under
// share/mgblas/tables), then the files named by env MGBLAS_BATCHED_TABLE (a path, or
// several separated by ':'). A file that cannot be read or parsed is skipped and
// reported by table_sources().
#pragma once

#include <optional>
#include <string>

namespace mgblas::kernels::cuda::batched::detail {

struct TableEntry {
  std::string kernel;
  int entries_per_block = 0;
  std::string origin;  ///< "builtin sm_90.json" or the env path
};

/// The entry for (arch "sm_90", prec, ops "NN", class), trying ops "*" second.
std::optional<TableEntry> table_lookup(const std::string& arch, char prec, const std::string& ops,
                                       const std::string& size_class);

/// "builtin: sm_80.json sm_90.json; env: /path (3 archs)" style summary.
std::string table_summary();
void table_reload();

/// The tables built into the library (generated from tables/*.json by CMake).
struct BuiltinTable {
  const char* name;
  const char* json;
};
extern const BuiltinTable kBuiltinTables[];
extern const int kBuiltinTableCount;

}  // namespace mgblas::kernels::cuda::batched::detail
