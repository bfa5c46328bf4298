// SPDX-License-Identifier: BSD-3-Clause
// mgblas-tune: one tuner, a sub-command per engine (level2, tsgemm, batched), each
// writing a table in the shared schema of kernels/cuda/common/tuning_table.hpp. This
// header: what the sub-commands share.
#pragma once

#include <CLI/CLI.hpp>
#include <cstdint>
#include <functional>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace mgblas::testers::tune {

using json = nlohmann::json;

/// What main runs once a sub-command's options are parsed (argument: the command line).
using Runner = std::function<int(const std::string&)>;

/// The sub-commands: each registers its options on `app` and, when chosen, sets `run`.
void add_level2(CLI::App& app, Runner& run);
void add_tsgemm(CLI::App& app, Runner& run);
void add_batched(CLI::App& app, Runner& run);

/// The options of the sub-commands that time the engine against cuBLAS (level2, tsgemm).
struct TimingOptions {
  std::vector<std::string> types{"s", "d", "c", "z"};
  std::vector<std::string> ops;
  int niter = 10, warmup = 2;
  std::string out;
  uint64_t seed = 1;
};
/// Registers --type, --ops (described by ops_help), --niter, --warmup, --out, --seed.
void add_timing_options(CLI::App& c, TimingOptions& o, const std::string& ops_help);

/// An empty table of `engine` for `arch` ("sm_90") with the schema's header fields:
/// source (measured or model), device, command, commit (of the build), date, note.
json new_table(const std::string& engine, const std::string& arch, bool measured,
               const std::string& device, const std::string& command, const std::string& note);

/// Puts the entries of the table file `path` (same engine and architecture) that `table`
/// does not have (same op, precision and class) before table's own.
void merge_entries(json& table, const std::string& path);

/// Writes the table (JSON) and says so on stdout.
void write_table(const json& table, const std::string& path);

/// "2026-11-22 18:31 UTC".
std::string now_string();

}  // namespace mgblas::testers::tune
