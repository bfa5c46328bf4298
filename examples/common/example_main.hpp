// SPDX-License-Identifier: BSD-3-Clause
// What every example's main() does around its own work (header-only, examples only):
// start and end MPI when the library was built with it, report an exception with the
// rank it happened on, and end the whole job after one, since the other ranks may be
// waiting in a collective; plus the loop over the precisions named on the command line.
#pragma once

#include <mgblas/mgblas.hpp>

#include <cstdio>
#include <exception>
#include <string>
#include <string_view>
#include <vector>

#if MGBLAS_HAVE_MPI
#include <mpi.h>
#endif

namespace mgblas::examples {

/// Runs body(argc, argv, world_rank) between MPI_Init and MPI_Finalize; returns its exit
/// status, or 2 after printing an exception (MPI_Abort with MPI). Every mgblas object
/// the body makes is gone when it returns, i.e. before MPI_Finalize.
template <typename Body>
int run_main(const char* name, int argc, char** argv, Body&& body) {
  int world_rank = 0;
#if MGBLAS_HAVE_MPI
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &world_rank);
#endif
  int status = 0;
  try {
    status = body(argc, argv, world_rank);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "[rank %d] %s: %s\n", world_rank, name, e.what());
#if MGBLAS_HAVE_MPI
    // mgblas raises its collective errors on every rank; anything else may leave peers
    // waiting, so end the whole job.
    MPI_Abort(MPI_COMM_WORLD, 2);
#endif
    return 2;
  }
#if MGBLAS_HAVE_MPI
  MPI_Finalize();
#endif
  return status;
}

template <typename T>
struct TypeTag {
  using type = T;
};

/// f(TypeTag<T>{}) for each precision letter s, d, c, z in `types`, in that order;
/// NotCompiled for a precision outside this build's MGBLAS_PRECISIONS.
template <typename F>
void for_each_type(const std::vector<std::string>& types, F&& f) {
  for (const auto& t : types)
    if (t.size() == 1)
      visit_scalar(t[0], [&](auto tag) { f(TypeTag<typename decltype(tag)::type>{}); }, "--type");
}

/// The default of --type: the letters of `wanted` this build has.
inline std::vector<std::string> default_types(std::string_view wanted) {
  std::vector<std::string> out;
  for (char c : enabled_of(wanted)) out.emplace_back(1, c);
  return out;
}

}  // namespace mgblas::examples
