// SPDX-License-Identifier: BSD-3-Clause
// The CUDA context of the distributed GPU tests: made once on first use (collective over
// the ranks), released at the end of the run, before MPI_Finalize. NVLink multicast stays
// off on the lent machines (shared/DEVICE.md) however the test is started; an explicit
// NCCL_NVLS_ENABLE wins. Include from one translation unit per test binary: it registers a
// gtest environment.
#pragma once

#include <gtest/gtest.h>

#include <cstdlib>
#include <memory>

#include "core/context.hpp"

namespace mgblas::testing::dist {

class GpuContext : public ::testing::Environment {
 public:
  static std::shared_ptr<Context>& get() {
    static std::shared_ptr<Context> ctx;
    if (!ctx) {
      ::setenv("NCCL_NVLS_ENABLE", "0", /*overwrite=*/0);
      ContextOptions opts;
      opts.backend = BackendChoice::Cuda;
      ctx = Context::create(opts);
    }
    return ctx;
  }
  void TearDown() override { get().reset(); }
};
[[maybe_unused]] inline ::testing::Environment* const gpu_context =
    ::testing::AddGlobalTestEnvironment(new GpuContext);

}  // namespace mgblas::testing::dist
