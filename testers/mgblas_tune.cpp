// SPDX-License-Identifier: BSD-3-Clause
// mgblas-tune: the tuner of mgblas's CUDA engines, a sub-command per engine; each writes
// the tuning table of the GPU's architecture in the shared schema
// (kernels/cuda/common/tuning_table.hpp), ready for kernels/cuda/<engine>/tables/ or
// for MGBLAS_TUNING_TABLE:
//
//   mgblas-tune level2  --type s,d,c,z --out level2_sm_90.json       GEMV, SYMV/HEMV
//   mgblas-tune tsgemm  --type s,d,c,z --out tsgemm_sm_90.json       tall-skinny GEMM
//   mgblas-tune batched --type s,d,c,z --sizes 1:64 --out batched_sm_90.json
//
// `mgblas-tune <engine> --help` lists each one's options; the batched tuner's method is
// in mgblas_tune_batched.cpp, the others' in theirs.
#include "testers/mgblas_tune.hpp"

#include <ctime>
#include <fstream>
#include <set>
#include <stdexcept>
#include <tuple>

#include "testers/tester_common.hpp"

#ifndef MGBLAS_TUNE_COMMIT
#define MGBLAS_TUNE_COMMIT "unknown"
#endif

namespace mgblas::testers::tune {

json new_table(const std::string& engine, const std::string& arch, bool measured,
               const std::string& device, const std::string& command, const std::string& note) {
  return {{"format", "mgblas-tuning/1"}, {"engine", engine},   {"arch", arch},
          {"source", measured ? "measured" : "model"},        {"device", device},
          {"command", command},          {"commit", MGBLAS_TUNE_COMMIT},
          {"date", now_string()},        {"note", note},      {"entries", json::array()}};
}

void add_timing_options(CLI::App& c, TimingOptions& o, const std::string& ops_help) {
  add_type_option(c, o.types);
  c.add_option("--ops", o.ops, ops_help)->delimiter(',')->capture_default_str();
  c.add_option("--niter", o.niter, "timed calls (median)")->capture_default_str();
  c.add_option("--warmup", o.warmup, "untimed calls first")->capture_default_str();
  c.add_option("--out", o.out, "table to write (JSON)")->capture_default_str();
  c.add_option("--seed", o.seed, "random seed")->capture_default_str();
}

void merge_entries(json& table, const std::string& path) {
  std::ifstream in(path);
  if (!in) throw std::runtime_error("cannot read --merge " + path);
  const json base = json::parse(in);
  // Strings compared as strings (GCC 13 finds string != json ambiguous in C++20).
  if (base.value("format", "") != "mgblas-tuning/1" ||
      base.value("engine", "") != table["engine"].get<std::string>() ||
      base.value("arch", "") != table["arch"].get<std::string>())
    throw std::runtime_error("--merge " + path + ": not an mgblas-tuning/1 table of engine " +
                             table["engine"].get<std::string>() + " for " +
                             table["arch"].get<std::string>());
  using Key = std::tuple<std::string, std::string, std::string>;
  const auto key = [](const json& e) {
    return Key{e.value("op", ""), e.value("precision", ""), e.value("class", "")};
  };
  std::set<Key> fresh;
  for (const json& e : table["entries"]) fresh.insert(key(e));
  json merged = json::array();
  for (const json& e : base["entries"])
    if (!fresh.count(key(e))) merged.push_back(e);
  for (const json& e : table["entries"]) merged.push_back(e);
  table["entries"] = merged;
}

void write_table(const json& table, const std::string& path) {
  std::ofstream out(path);
  out << table.dump(1) << "\n";
  if (!out) throw std::runtime_error("cannot write " + path);
  std::printf("# wrote %s (%s %s, %zu entries)\n", path.c_str(),
              table["engine"].get<std::string>().c_str(), table["arch"].get<std::string>().c_str(),
              table["entries"].size());
}

std::string now_string() {
  const std::time_t t = std::time(nullptr);
  char b[64];
  std::strftime(b, sizeof b, "%Y-%m-%d %H:%M UTC", std::gmtime(&t));
  return b;
}

namespace {

int run(int argc, char** argv) {
  CLI::App app{"mgblas-tune: the tuner of mgblas's CUDA engines; each sub-command writes the "
               "tuning table of the GPU's architecture (kernels/cuda/<engine>/tables/)"};
  app.require_subcommand(1);
  Runner runner;
  add_level2(app, runner);
  add_tsgemm(app, runner);
  add_batched(app, runner);
  CLI11_PARSE(app, argc, argv);
  return runner(command_line(argc, argv));
}

}  // namespace
}  // namespace mgblas::testers::tune

int main(int argc, char** argv) {
  return mgblas::testers::guarded_main("mgblas-tune", mgblas::testers::tune::run, argc, argv);
}
