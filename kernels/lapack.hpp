// SPDX-License-Identifier: BSD-3-Clause
// Single-device LAPACK-style entries of mgblas: validate the arguments, then run the
// engine of the queue's device (CUDA or host), with the asynchrony and error rules of
// kernels/blas.hpp (on a GPU queued on q.stream, pointers device memory; on a host
// device run to completion; BadArgument naming the argument before anything is written).
#pragma once

#include <cstdint>

#include "core/device.hpp"
#include "core/types.hpp"

namespace mgblas {

// ---- Tridiagonal eigenvalues (bisection, LAPACK ?stebz with RANGE = 'I') -------------

/// Eigenvalues lambda_il <= ... <= lambda_{iu-1} of the real symmetric tridiagonal matrix
/// T with diagonal d and off-diagonal e (0-based indices, ascending order): the
/// eigenvalues-only step of an eigen-solver after hetrd/sytrd.
///
/// Each eigenvalue is bisected independently from Gershgorin's interval with Sturm counts
/// (negative pivots of the LDL^T factorization of T - x I, tiny pivots replaced by
/// -pivmin, pivmin = safe_min * max(1, max e_j^2)) until its interval is at most
/// 2 eps max(|lo|, |hi|) + pivmin wide; the midpoint is returned. The error is of order
/// n eps ||T|| (the counts are exact for a nearby matrix), as for LAPACK ?sterf / ?stebz.
/// Independent per index: on a GPU one thread per eigenvalue, on the host one OpenMP
/// iteration per eigenvalue.
///
/// @tparam T        the scalar of the matrix T came from; the data are real_type_t<T> and
///                  the complex instances compute what the real ones do.
/// @param[in] q     the device (and stream) to run on.
/// @param[in] n     order of T, >= 0.
/// @param[in] d     n diagonal entries (memory of q's device); may be null when il = iu.
/// @param[in] e     n - 1 off-diagonal entries (memory of q's device); may be null when
///                  il = iu or n <= 1.
/// @param[in] il    first index wanted, 0 <= il <= iu.
/// @param[in] iu    one past the last index wanted, il <= iu <= n (il = 0, iu = n: all).
/// @param[out] w    iu - il values, w[i - il] = lambda_i; may be null when il = iu.
///
/// Quick return: nothing is read or written when il = iu (n = 0 included).
/// Preconditions not checked: max e_j^2 and |d_i| + 2 max|e_j| finite (scale T first
/// otherwise); NaN input gives unspecified values but the call ends.
/// Cost: about (p + 2) n (iu - il) Sturm steps of 1 division each, p the mantissa bits
/// (24 or 53); more for eigenvalues far smaller than ||T|| (relative tolerance).
template <Scalar T>
void tridiag_eigenvalues(const Queue& q, int64_t n, const real_type_t<T>* d,
                         const real_type_t<T>* e, int64_t il, int64_t iu, real_type_t<T>* w);

}  // namespace mgblas
