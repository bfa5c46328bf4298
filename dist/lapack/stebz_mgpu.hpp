// SPDX-License-Identifier: BSD-3-Clause
// Eigenvalues of a real symmetric tridiagonal matrix over every device of every rank:
// the eigenvalues-only step of an eigen-solver after hetrd_mgpu / sytrd_mgpu (LAPACK's
// ?stebz with RANGE = 'I' on index slices; ?sterf gives the same values).
//
// Bisection makes every eigenvalue independent of the others, so the index range [0, n)
// is split evenly over the global device list (RowTiling, tile 1): each device computes
// its slice with the single-device tridiag_eigenvalues (kernels/lapack.hpp) on its own
// copy of d and e, and the slices meet on every rank in one host all-reduce of n values
// (each value is non-zero on one rank only, so the sum is exact).
#pragma once

#include <cstdint>
#include <type_traits>
#include <vector>

#include "core/context.hpp"
#include "core/types.hpp"

namespace mgblas {

/// All n eigenvalues of the symmetric tridiagonal T (diagonal d, off-diagonal e),
/// ascending, on every rank: w[i] = lambda_i.
///
/// @param[in,out] ctx  the devices (GPUs or host devices) of every rank that share the
///                     work: global device g computes the indices
///                     [RowTiling(n, P).row_begin(g), row_end(g)), P = ctx.global_num_devices().
/// @param[in] n        order of T, >= 0, the same on every rank.
/// @param[in] d        n diagonal entries, host memory, the same on every rank.
/// @param[in] e        n - 1 off-diagonal entries, host memory, the same on every rank
///                     (may be null when n <= 1).
/// @param[out] w       n values, host memory; every rank receives all of them.
///
/// Collective over the ranks of ctx. Arguments are checked on every rank and agreed on:
/// a bad argument on one rank raises BadArgument there and RemoteError on the others;
/// ranks passing different n raise DimensionMismatch everywhere; a device failure on one
/// rank raises on every rank (no rank is left in the final all-reduce). A NaN or
/// infinite entry of d or e is a BadArgument naming it (bisection would hide it in finite
/// values); the scan reads each entry once on the host. Accuracy and
/// cost as kernels/lapack.hpp's tridiag_eigenvalues, divided over the devices. w is
/// sorted after the slices are joined, so it is ascending even where devices of different
/// kinds round a cluster differently. Quick return for n = 0 (after the agreement).
template <Scalar T>
void tridiag_eigenvalues_mgpu(Context& ctx, int64_t n, const real_type_t<T>* d,
                              const real_type_t<T>* e, real_type_t<T>* w);

/// The convenience an eigen-solver calls with the output of hetrd_mgpu / sytrd_mgpu in
/// host vectors: returns the d.size() eigenvalues, ascending, on every rank. e must hold
/// at least max(0, d.size() - 1) entries (checked inside the agreement: DimensionMismatch
/// on the rank that passes fewer, RemoteError on the others). R is float or double.
template <typename R>
  requires(std::is_same_v<R, float> || std::is_same_v<R, double>)
std::vector<R> tridiag_eigenvalues_mgpu(Context& ctx, const std::vector<R>& d,
                                        const std::vector<R>& e);

namespace detail {

/// tridiag_eigenvalues_mgpu for the ascending positions first .. last - 1 only (0 <= first
/// <= last <= n) into w[0 .. last - first), errors raised as the entry `what`: gesvd_mgpu
/// wants the upper half of the Golub-Kahan matrix's spectrum, its singular values.
template <Scalar T>
void tridiag_eigenvalues_mgpu(Context& ctx, const char* what, int64_t n,
                              const real_type_t<T>* d, const real_type_t<T>* e, int64_t first,
                              int64_t last, real_type_t<T>* w);

}  // namespace detail
}  // namespace mgblas
