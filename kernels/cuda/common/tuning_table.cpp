// SPDX-License-Identifier: BSD-3-Clause
// Loading the tuning tables (see tuning_table.hpp): the built-in documents, then the
// files of MGBLAS_TUNING_TABLE (and MGBLAS_BATCHED_TABLE); every document checked
// against the schema, errors naming the file and the field.
#include "kernels/cuda/common/tuning_table.hpp"

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "core/error.hpp"
#include "core/types.hpp"

namespace mgblas::kernels::cuda::common {
namespace {

using nlohmann::json;

constexpr const char* kFormat = "mgblas-tuning/1";
constexpr const char* kBatchedFormat = "mgblas-batched-table/1";  // the older batched files

[[noreturn]] void bad(const std::string& origin, const std::string& field, const std::string& what) {
  MGBLAS_THROW(BadArgument, "tuning table ", origin, ": field '", field, "' ", what);
}

std::string text_field(const json& o, const std::string& key, const std::string& origin,
                       const std::string& path, bool required) {
  if (!o.contains(key)) {
    if (required) bad(origin, path + key, "is missing");
    return "";
  }
  if (!o[key].is_string()) bad(origin, path + key, "must be a string");
  return o[key].get<std::string>();
}

/// A precision letter (core/types.hpp's list) or '*'.
bool is_precision(const std::string& p) {
  if (p == "*") return true;
  if (p.size() != 1) return false;
  try {
    data_type_of_letter(p[0]);
    return true;
  } catch (const BadArgument&) {
    return false;
  }
}

Entry entry_of(const json& e, const std::string& origin, const std::string& path) {
  if (!e.is_object()) bad(origin, path, "must be an object");
  Entry out;
  out.where = origin + ": " + path;
  out.op = text_field(e, "op", origin, path + ".", true);
  const std::string prec = text_field(e, "precision", origin, path + ".", true);
  if (!is_precision(prec)) bad(origin, path + ".precision", "must be one of s, d, c, z, *");
  out.precision = prec[0];
  out.size_class = text_field(e, "class", origin, path + ".", true);
  out.choice = text_field(e, "choice", origin, path + ".", true);
  out.label = text_field(e, "label", origin, path + ".", false);
  if (e.contains("variant")) {
    if (!e["variant"].is_number_integer() || e["variant"].get<int64_t>() < 0)
      bad(origin, path + ".variant", "must be an integer >= 0");
    out.variant = e["variant"].get<int>();
  }
  for (const auto& [key, v] : e.items())
    if (v.is_number() && key != "variant") out.numbers[key] = v.get<double>();
  return out;
}

/// The older batched format: tables -> arch -> precision -> op pair -> class -> entry.
std::vector<Table> from_batched_format(const json& doc, const std::string& origin) {
  if (!doc.contains("tables") || !doc["tables"].is_object())
    bad(origin, "tables", "must be an object (format " + std::string(kBatchedFormat) + ")");
  std::vector<Table> out;
  for (const auto& [arch, per_arch] : doc["tables"].items()) {
    if (!per_arch.is_object()) continue;
    Table t;
    t.engine = "batched";
    t.arch = arch;
    t.origin = origin;
    t.source = per_arch.value("source", "");
    t.command = per_arch.value("command", "");
    for (const auto& [prec, per_prec] : per_arch.items()) {
      if (prec == "*" || !is_precision(prec) || !per_prec.is_object())
        continue;  // metadata keys ("source", "command", ...)
      for (const auto& [ops, per_ops] : per_prec.items()) {
        if (!per_ops.is_object()) continue;
        for (const auto& [cls, e] : per_ops.items()) {
          const std::string path = "tables." + arch + "." + prec + "." + ops + "." + cls;
          if (!e.is_object() || !e.contains("kernel") || !e["kernel"].is_string())
            bad(origin, path + ".kernel", "is missing or not a string");
          json entry = e;
          entry["op"] = ops;
          entry["precision"] = prec;
          entry["class"] = cls;
          entry["choice"] = e["kernel"];
          if (entry.contains("source") && !entry["source"].is_string()) entry.erase("source");
          t.entries.push_back(entry_of(entry, origin, path));
        }
      }
    }
    out.push_back(std::move(t));
  }
  return out;
}

std::vector<Table> parse(const std::string& text, const std::string& origin) {
  json doc;
  try {
    doc = json::parse(text);
  } catch (const json::parse_error& e) {
    MGBLAS_THROW(BadArgument, "tuning table ", origin, ": not JSON (", e.what(), ")");
  }
  if (!doc.is_object()) bad(origin, "(document)", "must be a JSON object");
  const std::string format = text_field(doc, "format", origin, "", true);
  if (format == kBatchedFormat) return from_batched_format(doc, origin);
  if (format != kFormat) bad(origin, "format", "must be \"" + std::string(kFormat) + "\", not \"" + format + "\"");
  Table t;
  t.origin = origin;
  t.engine = text_field(doc, "engine", origin, "", true);
  if (t.engine != "level2" && t.engine != "tsgemm" && t.engine != "batched")
    bad(origin, "engine", "must be level2, tsgemm or batched, not \"" + t.engine + "\"");
  t.arch = text_field(doc, "arch", origin, "", true);
  if (t.arch != "*" && t.arch.rfind("sm_", 0) != 0)
    bad(origin, "arch", "must be \"sm_<major><minor>\" or \"*\", not \"" + t.arch + "\"");
  t.source = text_field(doc, "source", origin, "", false);
  t.command = text_field(doc, "command", origin, "", false);
  t.commit = text_field(doc, "commit", origin, "", false);
  if (!doc.contains("entries") || !doc["entries"].is_array())
    bad(origin, "entries", "is missing or not an array");
  const json& entries = doc["entries"];
  for (std::size_t i = 0; i < entries.size(); ++i)
    t.entries.push_back(entry_of(entries[i], origin, "entries[" + std::to_string(i) + "]"));
  return {std::move(t)};
}

std::string read_file(const std::string& path, const char* env) {
  std::ifstream in(path);
  if (!in) MGBLAS_THROW(BadArgument, "tuning table ", path, " (from ", env, "): cannot read the file");
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

/// The files of one env variable: paths separated by ':', a directory meaning its *.json.
void add_env(TableSet& set, const char* env, std::ostringstream& summary) {
  const char* value = std::getenv(env);
  if (!value || !*value) return;
  summary << "; env " << env << ":";
  std::stringstream paths(value);
  std::string path;
  while (std::getline(paths, path, ':')) {
    if (path.empty()) continue;
    std::vector<std::string> files{path};
    if (std::filesystem::is_directory(path)) {
      files.clear();
      for (const auto& f : std::filesystem::directory_iterator(path))
        if (f.path().extension() == ".json") files.push_back(f.path().string());
      std::sort(files.begin(), files.end());
    }
    for (const std::string& file : files) {
      std::size_t n = 0;
      for (Table& t : parse(read_file(file, env), file)) {
        n += t.entries.size();
        set.tables.push_back(std::move(t));
      }
      summary << ' ' << file << " (" << n << ")";
    }
  }
}

TableSet load() {
  TableSet set;
  std::ostringstream summary;
  summary << "builtin:";
  for (int i = 0; i < kBuiltinTableCount; ++i) {
    std::size_t n = 0;
    for (Table& t : parse(kBuiltinTables[i].json, std::string("builtin ") + kBuiltinTables[i].name)) {
      n += t.entries.size();
      set.tables.push_back(std::move(t));
    }
    summary << ' ' << kBuiltinTables[i].name << " (" << n << ")";
  }
  add_env(set, "MGBLAS_TUNING_TABLE", summary);
  add_env(set, "MGBLAS_BATCHED_TABLE", summary);
  set.summary = summary.str();
  return set;
}

std::mutex g_mutex;
std::atomic<const TableSet*> g_tables{nullptr};

}  // namespace

const TableSet& tables() {
  if (const TableSet* t = g_tables.load(std::memory_order_acquire)) return *t;
  std::lock_guard lock(g_mutex);
  const TableSet* t = g_tables.load(std::memory_order_acquire);
  if (!t) {
    t = new TableSet(load());  // never freed: labels point into it (reload keeps it)
    g_tables.store(t, std::memory_order_release);
  }
  return *t;
}

void reload() {
  std::lock_guard lock(g_mutex);
  g_tables.store(nullptr, std::memory_order_release);
}

double number(const Entry& e, const std::string& field, double fallback) {
  const auto it = e.numbers.find(field);
  return it == e.numbers.end() ? fallback : it->second;
}

double required_number(const Entry& e, const std::string& field) {
  const auto it = e.numbers.find(field);
  if (it == e.numbers.end())
    MGBLAS_THROW(BadArgument, "tuning table ", e.where, ": field '", field,
                 "' is missing or not a number");
  return it->second;
}

std::string arch_name(int cc) { return "sm_" + std::to_string(cc); }

}  // namespace mgblas::kernels::cuda::common
