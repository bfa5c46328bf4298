// SPDX-License-Identifier: BSD-3-Clause
// Device helpers of tester_batched and mgblas-tune.
#pragma once

#include "core/device.hpp"

namespace mgblas::testers {

/// Read-only streaming bandwidth of the current device in GB/s (float4 loads over
/// 2 GiB, median of `repeats` after two warm-up runs): the ceiling the batched kernels'
/// minimum traffic is compared with.
double read_bandwidth(cudaStream_t stream, int repeats = 10);

}  // namespace mgblas::testers
