// SPDX-License-Identifier: BSD-3-Clause
// The contexts of the distributed tests that run on host devices (CI, no GPU): 1, 2 and
// 3 host devices per rank, made once (Context::create is collective, so every rank must
// make them in the same order) and released at the end of the run, before
// MPI_Finalize. Include from one translation unit per test binary: it registers a
// gtest environment.
#pragma once

#include <gtest/gtest.h>

#include <memory>
#include <vector>

#include "core/context.hpp"

namespace mgblas::testing::dist {

class HostContexts : public ::testing::Environment {
 public:
  static std::vector<std::shared_ptr<Context>>& all() {
    static std::vector<std::shared_ptr<Context>> contexts;
    if (contexts.empty()) {
      for (int devices = 1; devices <= 3; ++devices) {
        ContextOptions opts;
        opts.backend = BackendChoice::Host;
        opts.host_devices = devices;
        opts.bind = false;
        contexts.push_back(Context::create(opts));
      }
    }
    return contexts;
  }
  void TearDown() override { all().clear(); }
};
inline ::testing::Environment* const host_contexts =
    ::testing::AddGlobalTestEnvironment(new HostContexts);

}  // namespace mgblas::testing::dist
