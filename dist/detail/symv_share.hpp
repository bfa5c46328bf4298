// SPDX-License-Identifier: BSD-3-Clause
// One device's share of a distributed SYMV/HEMV (private to dist): the piece of
// symv_mgpu that drivers reuse when they sum the shares themselves (dist/lapack).
#pragma once

#include <cstdint>

#include "core/device.hpp"
#include "core/types.hpp"
#include "layouts/block_cyclic.hpp"

namespace mgblas::detail {

/// y += alpha * S_g x, where S_g is the part of S = A(off:n, off:n) (symmetric, or
/// Hermitian when `herm`; the `uplo` triangle stored) held in the columns [a, b) (off <=
/// a <= b <= n) of global device g, whose local storage is A_local (leading dimension
/// ld). x and y are memory of `dev`, indexed from global row/column off (length n - off);
/// y accumulates (zeros first). With uplo Upper, off = a = 0 and b < n this is the
/// leading b x b submatrix (its stored rows are < b), and only y[0, b) is touched.
/// Every stored entry of g's columns is read once. Queued on dev's stream on a GPU
/// (MGBLAS_DIST_SYMV chooses the kernel as for symv_mgpu), run to completion on a host
/// device.
/// quad, when not null (a scalar in dev's memory), accumulates x^H times what the call
/// adds to y; summed over the devices, x^H (alpha S) x. It takes the SYMV engine's tile
/// kernel whatever MGBLAS_DIST_SYMV says, so L.nb() must then be a multiple of its tile
/// (symv_share_has_quad).
template <Scalar T>
void symv_share(const Device& dev, Uplo uplo, bool herm, T alpha, const BlockCyclic1D& L, int g,
                const T* A_local, int64_t ld, int64_t off, int64_t a, int64_t b, const T* x,
                T* y, T* quad = nullptr);

/// Whether symv_share can form quad for matrices of block width nb (the same answer on
/// every device and rank: it depends on nb and T only).
template <Scalar T>
bool symv_share_has_quad(int64_t nb);

}  // namespace mgblas::detail
