// SPDX-License-Identifier: BSD-3-Clause
// What the reduction testers (mgblas-tester hetrd, gebrd, unmtr, heevd) share: the refill of
// a distributed matrix from (seed, index), the timing of a cuSOLVER call with CUDA events
// and cusolverDnXsyevd's; their MPI main() and parse are tester_ranks.hpp's.
#pragma once

#include <cusolverDn.h>
#include <mpi.h>

#include <algorithm>
#include <cstddef>
#include <cstdio>
#include <cstdlib>
#include <sstream>
#include <stdexcept>
#include <string>
#include <type_traits>
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

/// The defaults of the testers that time a LAPACK-style routine against cuSOLVER (hetrd,
/// gebrd, unmtr, heevd): type d, 3 timed calls after 1 warm-up (a call takes seconds at the
/// sizes measured), and the sizes of -n.
struct LapackOptions : CommonOptions {
  LapackOptions() {
    types = {"d"};
    niter = 3;
    warmup = 1;
  }
  std::vector<int64_t> nlist;
};

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

/// cusolverDnXsyevd (the 64-bit API) with `jobz` (CUSOLVER_EIG_MODE_NOVECTOR or _VECTOR) on
/// dev: median seconds of `niter` calls (CUDA events) after `warmup` untimed ones, the n x n
/// matrix of (seed, index) (tester_dist_fill) refilled, untimed, before each; the
/// eigenvalues of the last call into w. A nonzero info throws.
template <Scalar T>
double syevd_seconds(const Device& dev, cusolverEigMode_t jobz, Uplo uplo, int64_t n,
                     uint64_t seed, int warmup, int niter, std::vector<real_type_t<T>>& w) {
  using R = real_type_t<T>;
  dev.make_current();
  const cudaDataType ta = std::is_same_v<T, float>      ? CUDA_R_32F
                          : std::is_same_v<T, double>   ? CUDA_R_64F
                          : std::is_same_v<T, scomplex> ? CUDA_C_32F
                                                        : CUDA_C_64F;
  const cudaDataType tw = sizeof(R) == 8 ? CUDA_R_64F : CUDA_R_32F;
  DeviceBuffer<T> A(dev, static_cast<std::size_t>(std::max<int64_t>(n * n, 1)));
  DeviceBuffer<R> W(dev, static_cast<std::size_t>(std::max<int64_t>(n, 1)));
  DeviceBuffer<int> info(dev, 1);
  cusolverDnHandle_t h = nullptr;
  cusolverDnParams_t params = nullptr;
  CHECK_CUSOLVER(cusolverDnCreate(&h));
  CHECK_CUSOLVER(cusolverDnSetStream(h, dev.stream()));
  CHECK_CUSOLVER(cusolverDnCreateParams(&params));
  const cublasFillMode_t u = uplo == Uplo::Lower ? CUBLAS_FILL_MODE_LOWER : CUBLAS_FILL_MODE_UPPER;
  const int64_t lda = std::max<int64_t>(n, 1);
  std::size_t dev_bytes = 0, host_bytes = 0;
  CHECK_CUSOLVER(cusolverDnXsyevd_bufferSize(h, params, jobz, u, n, ta, A.data(), lda, tw,
                                             W.data(), ta, &dev_bytes, &host_bytes));
  DeviceBuffer<std::byte> dwork(dev, std::max<std::size_t>(dev_bytes, 1));
  std::vector<std::byte> hwork(std::max<std::size_t>(host_bytes, 1));
  const auto refill = [&] {
    fill_matrix(dev, A.data(), lda, n, n, is_complex_v<T> ? 2 : 1, sizeof(R) == 8, seed);
  };
  const auto call = [&] {
    CHECK_CUSOLVER(cusolverDnXsyevd(h, params, jobz, u, n, ta, A.data(), lda, tw, W.data(), ta,
                                    dwork.data(), dev_bytes, hwork.data(), host_bytes,
                                    info.data()));
  };
  for (int r = 0; r < warmup; ++r) {
    refill();
    call();
  }
  const double secs = event_median(dev, niter, refill, call);
  int host_info = 0;
  w.resize(static_cast<std::size_t>(n));
  MGBLAS_CHECK_CUDA(cudaMemcpy(&host_info, info.data(), sizeof(int), cudaMemcpyDeviceToHost));
  MGBLAS_CHECK_CUDA(cudaMemcpy(w.data(), W.data(), w.size() * sizeof(R), cudaMemcpyDeviceToHost));
  cusolverDnDestroyParams(params);
  cusolverDnDestroy(h);
  if (host_info != 0)
    throw std::runtime_error("cusolverDnXsyevd: info = " + std::to_string(host_info));
  return secs;
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
