// SPDX-License-Identifier: BSD-3-Clause
// What the reduction testers (mgblas-tester hetrd, mgblas-tester gebrd) share: the refill of a
// distributed matrix from (seed, index) and the timing of a cuSOLVER call with CUDA
// events; their MPI main() and parse are tester_ranks.hpp's.
#pragma once

#include <cusolverDn.h>
#include <mpi.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "core/context.hpp"
#include "core/detail/cuda_check.hpp"
#include "layouts/dist_matrix.hpp"
#include "testers/tester_common.hpp"
#include "testers/tester_dist_fill.hpp"
#include "testers/tester_ranks.hpp"

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

/// The lines every reduction tester prints first on rank 0: version, GPUs, command, how
/// times are taken, and the column names (`columns`, after "# ").
inline void print_header(const Context& ctx, const char* tester, int argc, char** argv,
                         const CommonOptions& o, const char* columns) {
  if (ctx.rank() != 0) return;
  const char* nvls = std::getenv("NCCL_NVLS_ENABLE");
  std::printf("%s\n", version_line(tester).c_str());
  std::printf("# %s, %d ranks, %d GPUs in all, %d on rank 0; NCCL_NVLS_ENABLE=%s\n",
              ctx.device(0).product_name().c_str(), ctx.nranks(), ctx.global_num_devices(),
              ctx.num_devices(), nvls ? nvls : "(unset)");
  std::printf("# command: %s\n", command_line(argc, argv).c_str());
  std::printf("# time: median of %d after %d warm-up, max over ranks; cusolver: rank 0 GPU 0, "
              "CUDA events, median of %d\n", o.niter, o.warmup, o.niter);
  std::printf("# %s\n", columns);
}

/// The rest of an MPI tester's run() once its options are parsed: skipped without a GPU,
/// else a CUDA context over every rank, the header, `run_type(tag, ctx)` for each --type
/// (tag: a value of the precision's type) and the failure count.
template <typename RunType>
int run_on_gpus(const char* tester, int argc, char** argv, int world_rank, const CommonOptions& o,
                const char* columns, RunType&& run_type) {
  if (cuda_device_count() == 0) {
    if (world_rank == 0) std::printf("# no CUDA GPU visible: nothing to test\n");
    return kSkipped;
  }
  ContextOptions copts;
  copts.backend = BackendChoice::Cuda;
  const auto ctx = Context::create(copts);
  print_header(*ctx, tester, argc, argv, o, columns);
  int failures = 0;
  for (const auto& t : o.types)
    for_type(t, [&](auto tag) { failures += run_type(tag, ctx); });
  if (ctx->rank() == 0) std::printf("# %d failed case(s)\n", failures);
  return failures;
}

}  // namespace mgblas::testers
