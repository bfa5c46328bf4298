// SPDX-License-Identifier: BSD-3-Clause
// A C API context on host devices for the C API tests, destroyed at scope exit, so a
// failed ASSERT leaves nothing behind; `dev` is its first device.
#pragma once

#include <gtest/gtest.h>

#include <mgblas/mgblas.h>

namespace mgblas::testing::dist {

struct CHostContext {
  mgblas_context_t ctx = nullptr;
  mgblas_device_t dev = nullptr;
  explicit CHostContext(int devices = 2) {
    EXPECT_EQ(mgblas_context_create_ex(MGBLAS_BACKEND_HOST, devices, &ctx), MGBLAS_SUCCESS)
        << mgblas_last_error();
    EXPECT_EQ(mgblas_context_device(ctx, 0, &dev), MGBLAS_SUCCESS);
  }
  ~CHostContext() { mgblas_context_destroy(ctx); }
  CHostContext(const CHostContext&) = delete;
  CHostContext& operator=(const CHostContext&) = delete;
};

}  // namespace mgblas::testing::dist
