// SPDX-License-Identifier: BSD-3-Clause
// Batched GEMM over every device of every rank: C_i = alpha op(A_i) op(B_i) + beta C_i,
// i < batch, the entries split into contiguous ranges, one per global device, each
// device running its share with the single-device entries of kernels/blas.hpp (the
// batched engine of its back-end). Entries are independent: there is no reduction.
//
// Three forms:
// - gemm_batched_strided_mgpu: the whole batch in host memory on every rank (strided,
//   the "second leading dimension" interface). Host devices compute in place on their
//   share; a GPU packs its share of A, B (and C when beta != 0) compactly into pinned
//   staging, copies it in, runs one strided call and copies C back. On return C holds
//   every entry on every rank (each rank broadcasts the entries its devices computed).
// - gemm_vbatched_mgpu: the same for variable sizes: host arrays of sizes, leading
//   dimensions and host pointers; shares balanced by work (m n max(k, 1) per entry)
//   rather than by count.
// - gemm_batched_strided_mgpu_local: the data already on the devices: local device d
//   holds its share (batch_share(batch, P, global index of d)) at A[d], B[d], C[d] in
//   its own memory, strided as given; each device runs one call; nothing moves.
//
// Rules common to all forms (as the other drivers of dist/):
// - Collective over the ranks of the context: every rank calls with the same op pair,
//   sizes, strides, batch and scalars (agreed before anything runs: a rank that
//   disagrees raises DimensionMismatch everywhere; an invalid argument on one rank
//   raises there and RemoteError on the others, before anything is written).
// - beta == 0 never reads C (NaN in C does not propagate); gaps between strided entries
//   and leading-dimension padding are never written.
// - On return every device of the calling rank is synchronised.
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <type_traits>
#include <vector>

#include "core/context.hpp"
#include "core/types.hpp"
#include "layouts/batch_split.hpp"

namespace mgblas {

/// Strided batched gemm over all devices of the context (see the file comment).
/// @param[in] A, B      host arrays of the whole batch: entry i at A + i * strideA
///                      (strides may be 0: one shared operand); lda >= rows of A as
///                      stored, likewise ldb.
/// @param[in,out] C     host array, entry i at C + i * strideC, strideC >= ldc * n when
///                      batch > 1; on return complete on every rank.
/// Flops: 2 m n k batch (real), 8 m n k batch (complex).
template <Scalar T>
void gemm_batched_strided_mgpu(const std::shared_ptr<Context>& ctx, Op opA, Op opB, int64_t m,
                               int64_t n, int64_t k, std::type_identity_t<T> alpha, const T* A,
                               int64_t lda, int64_t strideA, const T* B, int64_t ldb,
                               int64_t strideB, std::type_identity_t<T> beta, T* C, int64_t ldc,
                               int64_t strideC, int64_t batch);

/// Variable-size batched gemm over all devices (see the file comment): per-entry sizes,
/// leading dimensions and pointers in host memory, the same on every rank (the pointers
/// are the rank's own). Entries with a zero m or n are skipped; k = 0 scales C by beta.
template <Scalar T>
void gemm_vbatched_mgpu(const std::shared_ptr<Context>& ctx, Op opA, Op opB, const int64_t* m,
                        const int64_t* n, const int64_t* k, std::type_identity_t<T> alpha,
                        const T* const* Aarray, const int64_t* lda, const T* const* Barray,
                        const int64_t* ldb, std::type_identity_t<T> beta, T* const* Carray,
                        const int64_t* ldc, int64_t batch);

/// Strided batched gemm on data already split over the devices: A[d], B[d], C[d] (one
/// per local device, memory of that device) hold entry 0 of device d's share
/// batch_share(batch, P, g), g its global index; strides and leading dimensions as in
/// gemm_batched_strided. A device whose share is empty may pass null.
template <Scalar T>
void gemm_batched_strided_mgpu_local(const std::shared_ptr<Context>& ctx, Op opA, Op opB,
                                     int64_t m, int64_t n, int64_t k,
                                     std::type_identity_t<T> alpha, std::span<const T* const> A,
                                     int64_t lda, int64_t strideA, std::span<const T* const> B,
                                     int64_t ldb, int64_t strideB, std::type_identity_t<T> beta,
                                     std::span<T* const> C, int64_t ldc, int64_t strideC,
                                     int64_t batch);

}  // namespace mgblas
