// SPDX-License-Identifier: BSD-3-Clause
// Distributed rank-2k update of a block-cyclic matrix, the trailing update of the
// two-sided reductions (hetrd_mgpu, and later gebrd and band reductions) as a routine of
// its own:
//   her2k_mgpu: C = alpha A B^H + conj(alpha) B A^H + beta C   (real T: syr2k)
//   syr2k_mgpu: C = alpha A B^T + alpha B A^T + beta C         (complex symmetric)
// on the `uplo` triangle of C (n x n, BlockCyclic1D over every device of every rank), A and
// B n x k and replicated: every rank passes the same host arrays, every device receives a
// copy and updates its own block columns (no reduction: the result stays distributed).
#pragma once

#include <cstdint>

#include "core/types.hpp"
#include "layouts/dist_matrix.hpp"

namespace mgblas {

/// C = alpha A B^H + conj(alpha) B A^H + beta C on the `uplo` triangle of C.
///
/// @param[in] uplo      Lower or Upper: the triangle updated; the other one is not touched.
/// @param[in] alpha     scalar.
/// @param[in] A, B      n x k host arrays (column-major, lda, ldb >= max(1, n)), the same on
///                      every rank; may be null when k == 0 or n == 0.
/// @param[in] beta      real scalar (its imaginary part is ignored for complex T); beta == 0
///                      does not read C.
/// @param[in,out] C     n x n DistMatrix, any nb.
/// Collective over C's context: a bad argument on any rank raises on every rank before C
/// is written. Flops: 2 n^2 k (real), 8 n^2 k (complex).
template <Scalar T>
void her2k_mgpu(Uplo uplo, int64_t k, std::type_identity_t<T> alpha,
                const std::type_identity_t<T>* A, int64_t lda, const std::type_identity_t<T>* B,
                int64_t ldb, real_type_t<T> beta, DistMatrix<T>& C);

/// C = alpha A B^T + alpha B A^T + beta C on the `uplo` triangle of C (for real T the same
/// as her2k_mgpu). Arguments as her2k_mgpu, beta of type T.
template <Scalar T>
void syr2k_mgpu(Uplo uplo, int64_t k, std::type_identity_t<T> alpha,
                const std::type_identity_t<T>* A, int64_t lda, const std::type_identity_t<T>* B,
                int64_t ldb, std::type_identity_t<T> beta, DistMatrix<T>& C);

}  // namespace mgblas
