// SPDX-License-Identifier: BSD-3-Clause
// Loading and looking up the batched GEMM tuning tables (see batched_table.hpp).
#include "kernels/cuda/batched/batched_table.hpp"

#include <cstdlib>
#include <fstream>
#include <map>
#include <memory>
#include <mutex>
#include <nlohmann/json.hpp>
#include <sstream>
#include <tuple>

namespace mgblas::kernels::cuda::batched::detail {
namespace {

using Key = std::tuple<std::string, char, std::string, std::string>;  // arch, prec, ops, class

struct Tables {
  std::map<Key, TableEntry> entries;
  std::string summary;
};

/// Adds the entries of one JSON document; returns how many, or throws on a malformed
/// document (nothing is added then).
int merge(Tables& tables, const std::string& text, const std::string& origin) {
  const nlohmann::json doc = nlohmann::json::parse(text);
  if (!doc.is_object() || doc.value("format", "") != "mgblas-batched-table/1" ||
      !doc.contains("tables") || !doc["tables"].is_object())
    throw std::runtime_error("not an mgblas-batched-table/1 document");
  std::map<Key, TableEntry> add;
  for (const auto& [arch, per_arch] : doc["tables"].items()) {
    if (!per_arch.is_object()) continue;
    for (const auto& [prec, per_prec] : per_arch.items()) {
      if (prec.size() != 1 || std::string("sdcz").find(prec[0]) == std::string::npos ||
          !per_prec.is_object())
        continue;  // metadata keys ("source", "command", ...)
      for (const auto& [ops, per_ops] : per_prec.items()) {
        if (!per_ops.is_object()) continue;
        for (const auto& [cls, e] : per_ops.items()) {
          if (!e.is_object() || !e.contains("kernel") || !e["kernel"].is_string())
            throw std::runtime_error("entry " + arch + "/" + prec + "/" + ops + "/" + cls +
                                     " has no \"kernel\" string");
          TableEntry te;
          te.kernel = e["kernel"].get<std::string>();
          te.entries_per_block = e.value("entries_per_block", 0);
          te.origin = origin;
          add[{arch, prec[0], ops, cls}] = te;
        }
      }
    }
  }
  for (auto& [k, v] : add) tables.entries[k] = v;
  return static_cast<int>(add.size());
}

Tables load() {
  Tables t;
  std::ostringstream summary;
  summary << "builtin:";
  for (int i = 0; i < kBuiltinTableCount; ++i) {
    try {
      const int n = merge(t, kBuiltinTables[i].json, std::string("builtin ") + kBuiltinTables[i].name);
      summary << ' ' << kBuiltinTables[i].name << " (" << n << ")";
    } catch (const std::exception& e) {
      summary << ' ' << kBuiltinTables[i].name << " (skipped: " << e.what() << ")";
    }
  }
  if (const char* env = std::getenv("MGBLAS_BATCHED_TABLE"); env && *env) {
    summary << "; env MGBLAS_BATCHED_TABLE:";
    std::stringstream paths(env);
    std::string path;
    while (std::getline(paths, path, ':')) {
      if (path.empty()) continue;
      std::ifstream in(path);
      std::stringstream text;
      text << in.rdbuf();
      try {
        if (!in) throw std::runtime_error("cannot read the file");
        const int n = merge(t, text.str(), path);
        summary << ' ' << path << " (" << n << ")";
      } catch (const std::exception& e) {
        summary << ' ' << path << " (skipped: " << e.what() << ")";
      }
    }
  }
  t.summary = summary.str();
  return t;
}

std::mutex g_mutex;
std::shared_ptr<const Tables> g_tables;

// A snapshot: a reload on another thread does not pull the tables from under a lookup.
std::shared_ptr<const Tables> tables() {
  std::lock_guard lock(g_mutex);
  if (!g_tables) g_tables = std::make_shared<const Tables>(load());
  return g_tables;
}

}  // namespace

std::optional<TableEntry> table_lookup(const std::string& arch, char prec, const std::string& ops,
                                       const std::string& size_class) {
  const auto t = tables();
  for (const std::string& o : {ops, std::string("*")}) {
    const auto it = t->entries.find({arch, prec, o, size_class});
    if (it != t->entries.end()) return it->second;
  }
  return std::nullopt;
}

std::string table_summary() { return tables()->summary; }

void table_reload() {
  std::lock_guard lock(g_mutex);
  g_tables.reset();
}

}  // namespace mgblas::kernels::cuda::batched::detail
