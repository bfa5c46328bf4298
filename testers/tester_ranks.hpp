// SPDX-License-Identifier: BSD-3-Clause
// What the sub-commands that run over ranks share (mgblas-tester dist, allreduce and, through
// tester_mpi_lapack.hpp, hetrd and gebrd): main() between MPI_Init and
// MPI_Finalize, the parse of a CLI11 command line on every rank, the context on the
// asked backend, the '#' header and the rows' table and CSV, printed by rank 0. Without
// MPI (MGBLAS_HAVE_MPI 0) there is one rank and main() just runs.
#pragma once

#include <CLI/CLI.hpp>
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <filesystem>
#include <fstream>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "core/config.hpp"
#include "core/context.hpp"
#include "core/detail/cuda_runtime.hpp"
#include "testers/tester_common.hpp"

#if MGBLAS_HAVE_MPI
#include <mpi.h>
#endif

namespace mgblas::testers {

/// Parses the command line on every rank; a status to exit with after --help or a bad
/// line (printed by rank 0 only), else -1.
inline int parse_on_every_rank(CLI::App& app, int argc, char** argv, int world_rank) {
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    std::ostringstream sink;
    return world_rank == 0 ? app.exit(e) : app.exit(e, sink, sink);
  }
  return -1;
}

/// The MPI library's name and version (up to its first comma), "none" without MPI.
inline std::string mpi_version() {
#if MGBLAS_HAVE_MPI
  char text[MPI_MAX_LIBRARY_VERSION_STRING];
  int len = 0;
  MPI_Get_library_version(text, &len);
  std::string v(text, static_cast<std::size_t>(len));
  return v.substr(0, v.find_first_of(",\n"));
#else
  return "none";
#endif
}

/// --backend: cuda, or host devices, to try a tester without a GPU; with `with_auto`, also
/// auto (the library's choice), for a tester that runs on either.
inline void add_backend_option(CLI::App& app, std::string& backend, bool with_auto = false) {
  std::vector<std::string> kinds{"cuda", "host"};
  if (with_auto) kinds.insert(kinds.begin(), "auto");
  app.add_option("--backend", backend,
                 std::string(with_auto ? "auto: CUDA when a GPU is visible, else host devices "
                                         "(MGBLAS_BACKEND overrides); " : "") +
                     "cuda, or host: host devices (MGBLAS_HOST_DEVICES per rank), to try the "
                     "tester without a GPU")
      ->capture_default_str()
      ->check(CLI::IsMember(kinds));
}

/// The context over every rank on `backend` (cuda, host, or auto: ContextOptions' automatic
/// choice); nullptr, after the "no GPU" line on rank 0, when it is cuda and no GPU is
/// visible (the tester then exits kSkipped).
inline std::shared_ptr<Context> open_context(const std::string& backend, int world_rank) {
  const bool cuda = backend == "cuda";
  if (cuda && cuda_device_count() == 0) {
    if (world_rank == 0) std::printf("# no CUDA GPU visible: nothing to test\n");
    return nullptr;
  }
  ContextOptions copts;
  copts.backend = cuda ? BackendChoice::Cuda
                  : backend == "auto" ? BackendChoice::Auto
                                      : BackendChoice::Host;
  return Context::create(copts);
}

/// "NAME=value" of an environment variable, "NAME=<unset>" when it is not set.
inline std::string env_setting(const char* name, const char* unset = "(unset)") {
  const char* v = std::getenv(name);
  return std::string(name) + "=" + (v ? v : unset);
}

/// The '#' header of a tester over ranks, printed by rank 0 (every rank calls it, for the
/// binding report): mgblas, CUDA and MPI; rank 0's first device and the device counts;
/// `lines` ("# " before each); the command line; where each rank's devices are; `times`,
/// how the tester times ("# times: " before it).
inline void print_ranks_header(const Context& ctx, const char* tester,
                               const std::vector<std::string>& lines, int argc, char** argv,
                               const std::string& times) {
  const std::string binding = ctx.binding_report();
  if (ctx.rank() != 0) return;
  std::printf("# mgblas %s %s; %s; MPI: %s\n", MGBLAS_VERSION_STRING, tester,
              detail::cuda_version_string().c_str(), mpi_version().c_str());
  std::printf("# %s (rank 0 device 0), %d ranks, %d devices in all, %d on rank 0\n",
              ctx.device(0).product_name().c_str(), ctx.nranks(), ctx.global_num_devices(),
              ctx.num_devices());
  for (const auto& line : lines) std::printf("# %s\n", line.c_str());
  std::printf("# command: %s\n", command_line(argc, argv).c_str());
  std::printf("# binding:\n");
  std::istringstream in(binding);
  for (std::string line; std::getline(in, line);) std::printf("#   %s\n", line.c_str());
  std::printf("# times: %s\n", times.c_str());
}

/// The rows of a tester over ranks: rank 0 prints them and writes them to the CSV; every
/// rank counts those whose status is not "ok" (the verdicts agree over the ranks). A
/// tester's report derives from it with its own columns.
class RanksReport {
 public:
  /// `columns`: the CSV's header line; no file when `csv` is empty. With `append`, rows go
  /// after those already in the file (the header only into an empty or new file), so that
  /// several runs of a bench script fill one CSV.
  RanksReport(bool root, const std::string& csv, const char* columns, bool append = false)
      : root_(root) {
    if (root_ && !csv.empty()) {
      std::error_code ec;
      const auto size = std::filesystem::file_size(csv, ec);  // ec: no such file
      const bool fresh = !append || ec || size == 0;
      csv_.open(csv, append ? std::ios::app : std::ios::out);
      if (fresh) csv_ << columns << '\n';
    }
  }
  int failures() const { return failures_; }
  /// The last line, "# <n> failed or broken case(s)" (rank 0); the tester's exit status.
  int close() const {
    if (root_) std::printf("# %d failed or broken case(s)\n", failures_);
    return failures_;
  }

 protected:
  /// Counts a row of this status; whether this rank prints it.
  bool count(const std::string& status) {
    if (status != "ok") ++failures_;
    return root_;
  }
  /// v with the printf format f, or "-" when it is not finite.
  static std::string num(double v, const char* f) {
    return std::isfinite(v) ? format(f, v) : std::string("-");
  }

  bool root_;
  std::ofstream csv_;

 private:
  int failures_ = 0;
};

/// main() of a tester over ranks: run(argc, argv, world_rank) between MPI_Init and
/// MPI_Finalize (mgblas objects made in run die before MPI_Finalize); an exception
/// aborts every rank. The status is capped at 255.
template <typename Run>
int mpi_tester_main(const char* name, int argc, char** argv, Run&& run) {
  int world_rank = 0;
#if MGBLAS_HAVE_MPI
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &world_rank);
#endif
  int status = 0;
  try {
    status = run(argc, argv, world_rank);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "[rank %d] %s: %s\n", world_rank, name, e.what());
#if MGBLAS_HAVE_MPI
    MPI_Abort(MPI_COMM_WORLD, 255);
#endif
    return 255;
  }
#if MGBLAS_HAVE_MPI
  MPI_Finalize();
#endif
  return std::min(status, 255);
}

}  // namespace mgblas::testers
