// SPDX-License-Identifier: BSD-3-Clause
// The job that must end (issue 32, item 6): on 2 ranks of host devices, the last rank
// stalls while the others enter a collective with a 2 s deadline and the abort option on.
// The others must print the timeout and call MPI_Abort, ending the whole job (the
// stalled rank included) with kTimeoutAbortCode; run_abort_on_timeout.cmake checks that.
//   abort_on_timeout env     MGBLAS_ABORT_ON_TIMEOUT=1 asks for it
//   abort_on_timeout option  ContextOptions::abort_on_timeout = 1 asks for it
// Any other ending is a failure this program reports on stderr.
#include <mpi.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <string>

#include "core/context.hpp"
#include "core/error.hpp"

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  const std::string mode = argc > 1 ? argv[1] : "";
  if (mode != "env" && mode != "option") {
    std::fprintf(stderr, "usage: %s env|option\n", argv[0]);
    MPI_Finalize();
    return 2;
  }
  setenv("MGBLAS_COMM_TIMEOUT", "2", 1);
  if (mode == "env") setenv("MGBLAS_ABORT_ON_TIMEOUT", "1", 1);
  mgblas::ContextOptions opts;
  opts.backend = mgblas::BackendChoice::Host;
  opts.host_devices = 1;
  opts.bind = false;
  if (mode == "option") opts.abort_on_timeout = 1;
  const auto ctx = mgblas::Context::create(opts);
  if (ctx->nranks() < 2) {
    std::fprintf(stderr, "FAIL: needs at least 2 ranks\n");
    MPI_Finalize();
    return 2;
  }
  if (ctx->rank() == ctx->nranks() - 1) {
    // Stalls well past the others' deadline; MPI_Abort on another rank must end it.
    sleep(60);
    std::fprintf(stderr, "FAIL: rank %d was not ended by the others' MPI_Abort\n", ctx->rank());
  } else {
    try {
      ctx->comm().barrier();
      std::fprintf(stderr, "FAIL: rank %d: the barrier returned\n", ctx->rank());
    } catch (const mgblas::Timeout& e) {
      std::fprintf(stderr, "FAIL: rank %d raised Timeout instead of aborting: %s\n", ctx->rank(),
                   e.what());
    }
  }
  return 0;  // without MPI_Finalize: a rank that got here must not wait for the others
}
