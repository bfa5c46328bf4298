// SPDX-License-Identifier: BSD-3-Clause
// The tuning tables of the CUDA engines (private): one schema and one loader for the
// level-2, tall-skinny and batched GEMM dispatchers. A table is one JSON document per
// engine and architecture, written by `mgblas-tune <engine>`:
//
//   { "format": "mgblas-tuning/1", "engine": "level2" | "tsgemm" | "batched",
//     "arch": "sm_90" ("*": every architecture without a table of its own),
//     "source": "measured" | "model", "device": "...", "command": "...",
//     "commit": "...", "date": "...", "note": "...",
//     "entries": [ { "op": "gemvN", "precision": "d" ('*': any), "class": "n<=1024",
//                    "choice": "mgblas" | "cublas" | a kernel name,
//                    "variant": 1, "speedup": 1.43 or "1.05-1.45x", "label": "...",
//                    ...numbers the engine reads (max_dim, entries_per_block, ...) } ] }
//
// Sources, later ones overriding earlier ones (how: each engine's dispatcher says): the
// tables built into the library (kernels/cuda/<engine>/tables/<arch>.json, embedded at
// build time, also installed under share/mgblas/tables/<engine>), then the files named by
// env MGBLAS_TUNING_TABLE (a file or a directory of *.json, several separated by ':';
// MGBLAS_BATCHED_TABLE is read too, after it, as the batched engine's older name). A
// file in the batched engine's older format (mgblas-batched-table/1) is read as well.
// A table that cannot be read or does not follow the schema is an error (BadArgument)
// naming the file and the field, raised by the first dispatch that needs the tables.
#pragma once

#include <atomic>
#include <cstdint>
#include <map>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

namespace mgblas::kernels::cuda::common {

struct Entry {
  std::string op;          ///< engine's operation key: "gemvN", "symvL", "tsm2r", "NN", "*"
  char precision = '*';    ///< 's', 'd', 'c', 'z' or '*'
  std::string size_class;  ///< engine's shape class
  std::string choice;      ///< "mgblas", "cublas", "model" or a kernel name
  int variant = -1;        ///< tuning set of the mgblas kernel; -1 when none is named
  std::string label;       ///< what testers print for this choice (the rule and its speedup)
  std::map<std::string, double> numbers;  ///< every other numeric field
  std::string where;       ///< "<origin>: entries[<i>]", for errors
};

struct Table {
  std::string engine, arch, source, command, commit;
  std::string origin;  ///< "builtin level2/sm_90.json" or the file's path
  std::vector<Entry> entries;
};

struct TableSet {
  std::vector<Table> tables;  ///< built-in first, then the env files in their order
  std::string summary;        ///< "builtin: level2/sm_90.json (19) ...; env ...: /path (3)"
};

/// The current tables (loaded on first use; BadArgument for a malformed one). The
/// returned object lives until the end of the program: reload() leaves it in place, so
/// labels pointing into it stay valid.
const TableSet& tables();
/// Drops the loaded tables; the next tables() reads the built-in ones and the env anew.
void reload();

/// The number `field` of an entry, or `fallback` where it has none.
double number(const Entry& e, const std::string& field, double fallback);
/// The number `field` of an entry; BadArgument naming the table and the field without it.
double required_number(const Entry& e, const std::string& field);

/// "sm_90" for compute capability 90.
std::string arch_name(int cc);

/// An engine's tables compiled into its own lookup structure C (by `compile`) once per
/// loaded TableSet: a lookup costs two atomic loads; compiled objects are never freed
/// (labels point into them).
template <typename C, C (*kCompile)(const TableSet&)>
const C& compiled() {
  struct Cached {
    const TableSet* from;
    C value;
  };
  static std::atomic<const Cached*> cache{nullptr};
  static std::mutex mutex;
  const TableSet& t = tables();
  const Cached* c = cache.load(std::memory_order_acquire);
  if (c && c->from == &t) return c->value;
  std::lock_guard lock(mutex);
  c = cache.load(std::memory_order_acquire);
  if (!c || c->from != &t) {
    c = new Cached{&t, kCompile(t)};  // never freed: see above
    cache.store(c, std::memory_order_release);
  }
  return c->value;
}

/// The tables built into the library (generated from kernels/cuda/*/tables/*.json).
struct BuiltinTable {
  const char* name;  ///< "<engine>/<arch>.json"
  const char* json;
};
extern const BuiltinTable kBuiltinTables[];
extern const int kBuiltinTableCount;

}  // namespace mgblas::kernels::cuda::common
