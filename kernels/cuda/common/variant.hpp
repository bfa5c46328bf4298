// SPDX-License-Identifier: BSD-3-Clause
// One generic helper that maps a run-time variant index onto the compile-time entry
// of a constexpr tuning array (STYLE.md section 3: no copied switch per precision).
#pragma once

#include <cstddef>
#include <type_traits>
#include <utility>

#include "core/error.hpp"

namespace mgblas::kernels::cuda::common {

/// Calls f(std::integral_constant<std::size_t, I>{}) for the I == variant among the
/// first kCount entries; BadArgument when variant is out of range.
template <std::size_t kCount, typename F>
void with_variant(int variant, F&& f) {
  bool done = false;
  [&]<std::size_t... I>(std::index_sequence<I...>) {
    ((variant == static_cast<int>(I) ? (f(std::integral_constant<std::size_t, I>{}), done = true)
                                     : false),
     ...);
  }(std::make_index_sequence<kCount>{});
  if (!done)
    MGBLAS_THROW(BadArgument, "kernel variant ", variant, " is not built (", kCount,
                 " built in this configuration)");
}

/// Instance lists: the CI build (MGBLAS_INSTANCES=ci) compiles only the first,
/// default entry of every tuning array so that two cores build it quickly.
#if defined(MGBLAS_INSTANCES_CI)
inline constexpr std::size_t kMaxBuiltVariants = 1;
#else
inline constexpr std::size_t kMaxBuiltVariants = 8;
#endif

template <std::size_t kSize>
inline constexpr std::size_t built_variants = kSize < kMaxBuiltVariants ? kSize : kMaxBuiltVariants;

}  // namespace mgblas::kernels::cuda::common
