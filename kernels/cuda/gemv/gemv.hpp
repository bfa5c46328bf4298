// SPDX-License-Identifier: BSD-3-Clause
// Transitional: the level-2 kernels moved to kernels/cuda/level2/gemv.hpp. Kept only
// for tests/testers/, which includes this path; remove once the testers include the
// new one.
#pragma once

#include "kernels/cuda/level2/gemv.hpp"
