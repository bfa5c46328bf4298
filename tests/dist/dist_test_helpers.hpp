// SPDX-License-Identifier: BSD-3-Clause
// Pieces every distributed test uses (tests/dist/test_*.cpp): the single-device host
// reference, verdicts reduced over ranks, "raises this error" for the bad-argument
// cases, and the typed-test scalars and names of the kernel tests. One copy, so that
// all ranks of every test agree on what a verdict is.
#pragma once

#include <gtest/gtest.h>

#include <exception>
#include <memory>
#include <string>

#include "core/context.hpp"
#include "core/device.hpp"
#include <mgblas/mgblas.h>
#include "tests/kernels/host_test_helpers.hpp"
#include "tests/testing/testing.hpp"

namespace mgblas::testing::dist {

/// The device the reference results are computed on: the single-device host engine.
inline const Device& reference_device() {
  static const std::unique_ptr<Device> dev = Device::make_host(0);
  return *dev;
}

/// Reduces a rank's verdict over all ranks; the failing ranks say why.
inline bool everywhere(const Context& ctx, bool ok, const std::string& why) {
  if (!ok) ADD_FAILURE() << "[rank " << ctx.rank() << "] " << why;
  return ctx.comm().all_ok(ok);
}

/// A collective call with a bad argument: `call` must raise on every rank (the error where
/// the bad value was passed, RemoteError elsewhere) with `name` in the message, and
/// `untouched()` (the outputs as they were) must hold on every rank after it.
template <typename Call, typename Untouched>
void expect_raised_everywhere(const Context& ctx, Call&& call, const char* name,
                              const std::string& why, Untouched&& untouched) {
  bool named = false, raised = false;
  try {
    call();
  } catch (const Error& e) {  // RemoteError included
    raised = true;
    named = std::string(e.what()).find(name) != std::string::npos;
  }
  EXPECT_TRUE(everywhere(ctx, raised && named, why + ": not raised naming " + name));
  EXPECT_TRUE(everywhere(ctx, untouched(), why + ": outputs touched"));
}

/// A collective C entry's status after rank 0 alone passed a bad `what`: an error on
/// every rank, rank 0's last error naming `what`, and (`untouched`) the outputs as they
/// were.
inline bool c_error_everywhere(const Context& ctx, int status, const char* what, bool untouched) {
  const std::string msg = mgblas_last_error();
  const bool named = ctx.rank() != 0 || msg.find(what) != std::string::npos;
  return everywhere(ctx, status != 0 && named && untouched,
                    std::string("rank 0's bad ") + what + ": status " + std::to_string(status) +
                        ", '" + msg + "', outputs " + (untouched ? "untouched" : "written"));
}

/// Whether f raises Error; any other exception is a failure of its own.
template <typename Error, typename F>
bool raises(F&& f) {
  try {
    f();
  } catch (const Error&) {
    return true;
  } catch (const std::exception& e) {
    ADD_FAILURE() << "unexpected exception: " << e.what();
    return false;
  }
  return false;
}

}  // namespace mgblas::testing::dist
