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

// ---- Tridiagonal eigenpairs (divide and conquer, LAPACK ?stedc with COMPZ = 'I') -----

/// The eigenpairs il..iu-1 of the real symmetric tridiagonal matrix T with diagonal d and
/// off-diagonal e: w[i] = lambda_i ascending for all n, column i - il of Z the unit
/// eigenvector of lambda_i (real; zero imaginary parts for a complex T). A window costs
/// less than all vectors on a GPU: the last merge's product, the largest, makes only
/// its columns. On a GPU, Cuppen's divide and conquer with
/// every merge on the device (deflation decided on the host, secular equations one
/// thread per root, Gu and Eisenstat's vectors, the merges' products as cuBLAS GEMMs);
/// on a host device, LAPACK ?stedc. Residual and orthogonality O(n eps) like ?stedc's.
///
/// @param[in] q     the device (and stream) to run on.
/// @param[in] n     order of T, >= 0.
/// @param[in] d     n diagonal entries, HOST memory; finite.
/// @param[in] e     n - 1 off-diagonal entries, HOST memory; finite; may be null when n <= 1.
/// @param[in] il    first eigenvector wanted, 0 <= il <= iu.
/// @param[in] iu    one past the last, il <= iu <= n (0, n: all).
/// @param[out] w    all n eigenvalues, HOST memory.
/// @param[out] Z    n x (iu - il) eigenvectors (memory of q's device), leading dimension
///                  ldz; may be null when il = iu.
/// @param[in] ldz   >= max(1, n).
///
/// Unlike the other entries it has finished on return on every device (the GPU engine
/// waits for q.stream twice per level of its merge tree). Workspace: 3 n^2 reals on the
/// GPU (2 n^2 when T is real and the window is all of Z), allocated per call.
template <Scalar T>
void tridiag_eigenvectors(const Queue& q, int64_t n, const real_type_t<T>* d,
                          const real_type_t<T>* e, int64_t il, int64_t iu, real_type_t<T>* w,
                          T* Z, int64_t ldz);

}  // namespace mgblas
