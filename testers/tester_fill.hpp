// SPDX-License-Identifier: BSD-3-Clause
// Device-side random fill for the tester.
#pragma once

#include <cstdint>

#include "core/device.hpp"

namespace mgblas::testers {

/// `reals` float or double values at p (device memory), uniform on [-1, 1), from
/// (seed, index); queued on stream.
void fill_uniform(cudaStream_t stream, void* p, int64_t reals, bool is_double, uint64_t seed);

}  // namespace mgblas::testers
