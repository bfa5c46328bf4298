// SPDX-License-Identifier: BSD-3-Clause
// conj_of: the complex conjugate for complex T, the value itself for real T, for the host
// engine's plain loops (the bulge chases).
#pragma once

#include <complex>

#include "core/types.hpp"

namespace mgblas::kernels::detail {

template <typename T>
T conj_of(T v) {
  if constexpr (is_complex_v<T>) return std::conj(v);
  else return v;
}

}  // namespace mgblas::kernels::detail
