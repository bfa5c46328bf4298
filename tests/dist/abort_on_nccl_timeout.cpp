// SPDX-License-Identifier: BSD-3-Clause
// The job that must end when an NCCL wait times out (issue 32, item 6), on one rank and
// one GPU: the NCCL communicator's stream is held by a host function that sleeps well
// past MGBLAS_NCCL_TIMEOUT = 2 s, and the context asks for the abort
// (ContextOptions::abort_on_timeout). NcclCommunicator::wait must print the timeout and
// call MPI_Abort with kTimeoutAbortCode; run_abort_on_timeout.cmake checks that. Exits
// 77 (skipped) without a GPU.
#include <cuda_runtime.h>
#include <mpi.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>

#include "core/context.hpp"
#include "core/error.hpp"
#include "dist/nccl_comm.hpp"

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int gpus = 0;
  if (cudaGetDeviceCount(&gpus) != cudaSuccess || gpus == 0) {
    std::fprintf(stderr, "mgblas-test-skipped: no GPU\n");
    MPI_Finalize();
    return 77;
  }
  setenv("MGBLAS_NCCL_TIMEOUT", "2", 1);
  mgblas::ContextOptions opts;
  opts.backend = mgblas::BackendChoice::Cuda;
  opts.gpus = {0};
  opts.bind = false;
  opts.abort_on_timeout = 1;
  const auto ctx = mgblas::Context::create(opts);
  const auto nccl = mgblas::NcclCommunicator::of(*ctx);
  cudaStream_t stream = nccl->stream(0);
  // Work that never finishes within the limit, as a peer that never joins would leave it.
  cudaLaunchHostFunc(stream, [](void*) { sleep(20); }, nullptr);
  try {
    nccl->wait({stream});
    std::fprintf(stderr, "FAIL: the wait returned\n");
  } catch (const mgblas::Error& e) {
    std::fprintf(stderr, "FAIL: raised instead of aborting: %s\n", e.what());
  }
  return 0;  // without MPI_Finalize: getting here is the failure the runner reports
}
