// SPDX-License-Identifier: BSD-3-Clause
// LAPACKE with std::complex as its complex types, so that the examples' oracle calls take
// the library's scalars (scomplex, zcomplex) directly. Include it instead of <lapacke.h>,
// before anything else includes that header.
#pragma once

#include <complex>

#define lapack_complex_float std::complex<float>
#define lapack_complex_double std::complex<double>
#include <lapacke.h>
