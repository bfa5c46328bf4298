// SPDX-License-Identifier: BSD-3-Clause
// What the example drivers share around their own work (header-only, examples only): the
// layout options of the command line and its parse on every rank, the '#' lines that
// open a report, the timing of a collective step (max over ranks) and the precision loop
// with its footer. Uses CLI11 (every example links CLI11::CLI11).
#pragma once

#include <CLI/CLI.hpp>
#include <mgblas/mgblas.hpp>

#include "example_main.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

namespace mgblas::examples {

/// --nb (block column width of the BlockCyclic1D layout) and --type (precisions, comma
/// separated: s,d,c,z), with their defaults shown in --help.
inline void add_layout_options(CLI::App& app, int64_t& nb, std::vector<std::string>& types) {
  app.add_option("--nb", nb, "block column width of the layout")
      ->capture_default_str()
      ->check(CLI::PositiveNumber);
  app.add_option("--type", types, "precisions, comma separated: s,d,c,z")
      ->delimiter(',')
      ->capture_default_str()
      ->check(CLI::IsMember({"s", "d", "c", "z"}));
}

/// Parses the command line on every rank (all ranks get the same line). Returns nothing
/// to go on, or the exit status after --help or a bad line, which only rank 0 prints.
inline std::optional<int> parse_all_ranks(CLI::App& app, int argc, char** argv,
                                          int world_rank) {
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& ex) {
    std::ostringstream sink;
    return world_rank == 0 ? app.exit(ex) : app.exit(ex, sink, sink);
  }
  return std::nullopt;
}

/// On rank 0: "# mgblas <version> -- <title>", the command line, and the back-end,
/// ranks, devices and reducer of `reducer`'s context.
inline void print_banner(const Reducer& reducer, const char* title, int argc, char** argv) {
  const Context& ctx = reducer.context();
  if (ctx.rank() != 0) return;
  std::string cmd;
  for (int i = 0; i < argc; ++i) cmd += (i ? " " : "") + std::string(argv[i]);
  std::printf("# mgblas %s -- %s\n", MGBLAS_VERSION_STRING, title);
  std::printf("# command: %s\n", cmd.c_str());
  std::printf("# back-end %s, %d ranks, %d devices (%d on rank 0), reducer %s\n",
              to_string(ctx.backend()), ctx.nranks(), ctx.global_num_devices(),
              ctx.num_devices(), reducer.description().c_str());
  std::fflush(stdout);
}

/// Runs the collective step f() on every rank after a barrier; returns its wall time in
/// milliseconds, the max over ranks (the same on every rank).
template <typename F>
double timed_max_ms(const Communicator& comm, F&& f) {
  comm.barrier();
  const auto t0 = std::chrono::steady_clock::now();
  f();
  const auto t1 = std::chrono::steady_clock::now();
  const int64_t ns = std::chrono::duration_cast<std::chrono::nanoseconds>(t1 - t0).count();
  return static_cast<double>(comm.allreduce_max(ns)) * 1e-6;
}

/// Rank 0's verdict (decided there, against LAPACK) on every rank, so that every rank
/// reports and exits alike.
inline bool share_verdict(const Communicator& comm, bool ok_on_rank0) {
  int verdict = ok_on_rank0 ? 1 : 0;
  comm.bcast(&verdict, sizeof verdict, 0);
  return verdict == 1;
}

/// max_i |a_i - b_i| over n entries, or with `magnitudes` max_i ||a_i| - |b_i||: results
/// that agree up to the signs of their entries (a reflector may flip them).
template <typename R>
double max_diff(int64_t n, const R* a, const R* b, bool magnitudes = false) {
  double most = 0;
  for (int64_t i = 0; i < n; ++i) {
    const double x = static_cast<double>(a[i]), y = static_cast<double>(b[i]);
    most = std::max(most, magnitudes ? std::abs(std::abs(x) - std::abs(y)) : std::abs(x - y));
  }
  return most;
}

/// for_each_type with a case per precision: f(TypeTag<T>{}) returns the case's verdict,
/// the same on every rank. Prints "# <cases> cases, <failed> failed" on rank 0 and
/// returns the exit status: 0 when every case passed, else 1.
template <typename F>
int run_cases(const Context& ctx, const std::vector<std::string>& types, F&& f) {
  int cases = 0, failed = 0;
  for_each_type(types, [&](auto tag) {
    ++cases;
    failed += f(tag) ? 0 : 1;
  });
  if (ctx.rank() == 0) std::printf("# %d cases, %d failed\n", cases, failed);
  return failed == 0 ? 0 : 1;
}

}  // namespace mgblas::examples
