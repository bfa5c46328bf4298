// SPDX-License-Identifier: BSD-3-Clause
// What the reduction testers (tester_hetrd, tester_gebrd) share: their MPI main(), the
// parse of a CLI11 command line on every rank, the refill of a distributed matrix from
// (seed, index), and the timing of a cuSOLVER call with CUDA events.
#pragma once

#include <cusolverDn.h>
#include <mpi.h>

#include <algorithm>
#include <cstdio>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "core/context.hpp"
#include "core/detail/cuda_check.hpp"
#include "layouts/dist_matrix.hpp"
#include "tests/testers/tester_common.hpp"
#include "tests/testers/tester_dist_fill.hpp"

#define CHECK_CUSOLVER(expr)                                                             \
  do {                                                                                   \
    const cusolverStatus_t st_ = (expr);                                                 \
    if (st_ != CUSOLVER_STATUS_SUCCESS)                                                  \
      throw std::runtime_error(std::string(#expr) + " failed: " + std::to_string(st_));  \
  } while (0)

namespace mgblas::testers {

/// Refills A from (seed, index) on every device of this rank and waits for them.
template <Scalar T>
void fill_dist(DistMatrix<T>& A, uint64_t seed) {
  Context& ctx = A.context();
  for (int d = 0; d < ctx.num_devices(); ++d)
    fill_block_cyclic(ctx.device(d), A.local(d), A.ld(), A.layout(), ctx.device_offset() + d,
                      is_complex_v<T> ? 2 : 1, sizeof(real_type_t<T>) == 8, seed);
  ctx.synchronize();
}

/// Median seconds of `niter` calls of call() on dev's stream (CUDA events), refill()
/// before each (untimed).
template <typename Refill, typename Call>
double event_median(const Device& dev, int niter, Refill&& refill, Call&& call) {
  std::vector<double> t;
  for (int r = 0; r < niter; ++r) {
    refill();
    cudaEvent_t a, b;
    MGBLAS_CHECK_CUDA(cudaEventCreate(&a));
    MGBLAS_CHECK_CUDA(cudaEventCreate(&b));
    MGBLAS_CHECK_CUDA(cudaEventRecord(a, dev.stream()));
    call();
    MGBLAS_CHECK_CUDA(cudaEventRecord(b, dev.stream()));
    MGBLAS_CHECK_CUDA(cudaEventSynchronize(b));
    float ms = 0;
    MGBLAS_CHECK_CUDA(cudaEventElapsedTime(&ms, a, b));
    t.push_back(ms * 1e-3);
    cudaEventDestroy(a);
    cudaEventDestroy(b);
  }
  return median_of(t);
}

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

/// main() of an MPI tester: run(argc, argv, world_rank) between MPI_Init and
/// MPI_Finalize; an exception aborts every rank.
template <typename Run>
int mpi_tester_main(const char* name, int argc, char** argv, Run&& run) {
  int world_rank = 0;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &world_rank);
  int status = 0;
  try {
    status = run(argc, argv, world_rank);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "[rank %d] %s: %s\n", world_rank, name, e.what());
    MPI_Abort(MPI_COMM_WORLD, 255);
  }
  MPI_Finalize();
  return std::min(status, 255);
}

}  // namespace mgblas::testers
