// SPDX-License-Identifier: BSD-3-Clause
// Wall time per phase of a reduction (private to dist/lapack): charges the time since the
// last mark to one member of a profile struct, after waiting for the devices. Without a
// profile every call is a no-op, so an unprofiled reduction keeps its overlap.
#pragma once

#include <chrono>

#include "core/context.hpp"

namespace mgblas::detail {

/// Seconds of wall time since t0 (the drivers' per-phase profiles).
inline double seconds_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

template <typename Profile>
class PhaseClock {
 public:
  PhaseClock(const Context& ctx, Profile* profile) : ctx_(ctx), profile_(profile) {}
  void charge(double Profile::*phase) {
    if (!profile_) return;
    ctx_.synchronize();
    const auto now = std::chrono::steady_clock::now();
    profile_->*phase += std::chrono::duration<double>(now - last_).count();
    last_ = now;
  }
  /// Starts the first phase now (after the set-up).
  void restart() {
    if (!profile_) return;
    ctx_.synchronize();
    last_ = std::chrono::steady_clock::now();
  }

 private:
  const Context& ctx_;
  Profile* profile_;
  std::chrono::steady_clock::time_point last_ = std::chrono::steady_clock::now();
};

}  // namespace mgblas::detail
