// SPDX-License-Identifier: BSD-3-Clause
/// @file
/// Distributed tall-and-skinny GEMM over row tiles: tsgemm_mgpu in its two forms, on
/// RowTiledMatrix<T> (layouts/row_tiled_matrix.hpp: a matrix whose rows a RowTiling
/// deals out to every device of every rank).
///
///   rows     C = alpha * A * op(B) + beta * C: A (m x k) and C (m x n) row-tiled alike,
///            B (k x n, small) replicated. Each device multiplies its own rows with the
///            single-device tsgemm (TSM2R / TSM2L on a GPU): no communication at all.
///   k-split  C = alpha * op(A) * B + beta * C, op = T or C: A (k x m) and B (k x n)
///            row-tiled alike along k, C (m x n, small) replicated on the host of every
///            rank. Each device computes op(A_local) * B_local, an m x n partial (the
///            single-device A^H B kernel on a GPU), and the Reducer sums the partials of
///            all devices of all ranks as one vector of m n elements and applies beta.
///
/// Common rules (as for the Level-2 drivers in dist/dist_blas.hpp):
/// - Collective over the ranks of the context: every rank calls with the same ops,
///   sizes, tiling and scalars. Arguments are validated on every rank first; a bad
///   argument raises on every rank (BadArgument / DimensionMismatch where found,
///   RemoteError elsewhere) before anything is written; ranks that disagree on the
///   call raise DimensionMismatch.
/// - Three call forms: with a Reducer (its context; reuse one reducer across calls to
///   keep its per-device workspaces, which also hold B on each GPU), with a context,
///   and without (A's context, a reducer from make_reducer).
/// - Quick returns: m = 0 or n = 0 returns; k = 0 or alpha = 0 makes C = beta * C;
///   beta = 0 never reads C (NaN in C does not propagate).
/// - On return the devices are synchronised and C is complete.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "core/context.hpp"
#include "core/memory.hpp"
#include "core/types.hpp"
#include "dist/dist_blas.hpp"
#include "dist/reducer.hpp"
#include "layouts/row_tiled_matrix.hpp"
#include "layouts/row_tiling.hpp"

namespace mgblas {

/// Rows form: C = alpha * A * op(B) + beta * C.
///
/// @param[in,out] reducer  its context is the call's (A and C must live on it); its
///                         workspace holds B on each GPU.
/// @param[in] opB    N, T or C: op(B) is k x n.
/// @param[in] A      m x k, row-tiled over the context's devices.
/// @param[in] B      host, k x n (opB = N, ldb >= max(1, k)) or n x k (ldb >= max(1, n)),
///                   the same on every rank; may be null when k = 0 or alpha = 0.
/// @param[in,out] C  m x n, the same tiling as A (else DimensionMismatch).
/// Flops: 2mnk (real), 8mnk (complex), spread over the devices with their rows.
template <Scalar T>
void tsgemm_mgpu(Reducer& reducer, Op opB, same_as_a_t<T> alpha, const RowTiledMatrix<T>& A,
                 const same_as_a_t<T>* B, int64_t ldb, same_as_a_t<T> beta, RowTiledMatrix<T>& C);
/// The rows form on `ctx`.
template <Scalar T>
void tsgemm_mgpu(const std::shared_ptr<Context>& ctx, Op opB, same_as_a_t<T> alpha,
                 const RowTiledMatrix<T>& A, const same_as_a_t<T>* B, int64_t ldb,
                 same_as_a_t<T> beta, RowTiledMatrix<T>& C);
/// The rows form on A's context.
template <Scalar T>
void tsgemm_mgpu(Op opB, same_as_a_t<T> alpha, const RowTiledMatrix<T>& A, const same_as_a_t<T>* B,
                 int64_t ldb, same_as_a_t<T> beta, RowTiledMatrix<T>& C);

/// k-split form: C = alpha * op(A) * B + beta * C with op = T or C (N is a BadArgument).
///
/// @param[in,out] reducer  sums the m x n partials (NCCL or host, by its kind).
/// @param[in] A      k x m, row-tiled over the context's devices (k = A.m(), m = A.n()).
/// @param[in] B      k x n, the same tiling as A.
/// @param[in,out] C  host, m x n, ldc >= max(1, m), the same on every rank; on return
///                   the full result on every rank.
/// Flops: 2mnk (real), 8mnk (complex); plus an m n reduction over all devices.
template <Scalar T>
void tsgemm_mgpu(Reducer& reducer, Op opA, same_as_a_t<T> alpha, const RowTiledMatrix<T>& A,
                 const RowTiledMatrix<T>& B, same_as_a_t<T> beta, same_as_a_t<T>* C, int64_t ldc);
/// The k-split form on `ctx`.
template <Scalar T>
void tsgemm_mgpu(const std::shared_ptr<Context>& ctx, Op opA, same_as_a_t<T> alpha,
                 const RowTiledMatrix<T>& A, const RowTiledMatrix<T>& B, same_as_a_t<T> beta,
                 same_as_a_t<T>* C, int64_t ldc);
/// The k-split form on A's context.
template <Scalar T>
void tsgemm_mgpu(Op opA, same_as_a_t<T> alpha, const RowTiledMatrix<T>& A,
                 const RowTiledMatrix<T>& B, same_as_a_t<T> beta, same_as_a_t<T>* C, int64_t ldc);

}  // namespace mgblas
