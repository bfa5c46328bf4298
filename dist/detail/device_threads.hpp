// SPDX-License-Identifier: BSD-3-Clause
// One host thread per local GPU for the per-device loops of the reductions (private to
// dist). A loop that queues many small kernels on each device (stage one of the
// two-stage reduction: a hemm and two gemms per run of columns per panel) is bound by
// the host's launch rate when one thread issues every device's launches: on 4 H200s
// driven by 1 rank the two-stage reduction of n = 32768 took 6.68 s against 2.97 s on 4
// ranks (bench/results/h200x4-twostage.md). Each device's share is independent, and the
// collectives around the loop are queued by the calling thread after the join, so the
// streams see the same order as in the sequential loop.
#pragma once

#include <exception>
#include <future>
#include <vector>

#include "core/context.hpp"

namespace mgblas::detail {

/// here() on this thread while the tasks `others` (already started) run on theirs; every
/// one has ended on return, and the first exception (here()'s, then the others' in order)
/// is rethrown.
template <typename F>
void run_and_join(F&& here, std::vector<std::future<void>>& others) {
  std::exception_ptr first;
  try {
    here();
  } catch (...) {
    first = std::current_exception();
  }
  for (auto& o : others) {
    try {
      o.get();
    } catch (...) {
      if (!first) first = std::current_exception();
    }
  }
  if (first) std::rethrow_exception(first);
}

/// f(dd) for every local device dd of ctx, all finished on return: on a rank with several
/// GPUs one thread per device (f must make its device current), otherwise in order on
/// this thread (host devices compute in their kernels, which would then share the CPU
/// library's threads). The first exception is rethrown after every call has ended.
template <typename F>
void for_each_local_device(const Context& ctx, F&& f) {
  const int nd = ctx.num_devices();
  if (nd == 1 || !ctx.device(0).is_gpu()) {
    for (int dd = 0; dd < nd; ++dd) f(dd);
    return;
  }
  std::vector<std::future<void>> others;
  others.reserve(static_cast<std::size_t>(nd - 1));
  for (int dd = 1; dd < nd; ++dd)
    others.push_back(std::async(std::launch::async, [&f, dd] { f(dd); }));
  run_and_join([&f] { f(0); }, others);
}

}  // namespace mgblas::detail
