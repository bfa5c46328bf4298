// SPDX-License-Identifier: BSD-3-Clause
// Host batched GEMM: BLAS has no batched routine, so each kernel is an OpenMP loop
// over the entries, one CBLAS ?gemm per entry (detail::gemm_entry).
//
// Everything that can be wrong with an entry (null pointer, leading dimension, size
// beyond max_*) is checked before the loop: an error must be raised before anything is
// written, and an exception must not leave an OpenMP region.
#include <algorithm>
#include <cstdint>
#include <limits>

#include "kernels/batched_kernels.hpp"
#include "kernels/host/detail/cblas.hpp"

namespace mgblas::kernels::host {
namespace {

using detail::blas_int;
using detail::to_blas_int;

// Entries run side by side only while OpenBLAS would run each on a single thread (its
// GEMM_MULTITHREAD_THRESHOLD, 4 * 65536 = m * n * k); bigger entries get OpenBLAS's own
// threads, and running those concurrently would oversubscribe the cores. Below a total
// volume of 2^14 the whole batch takes about as long as waking the thread team.
constexpr double kMaxEntryVolumeForBatchParallel = 4.0 * 65536.0;
constexpr double kMinBatchVolumeForBatchParallel = 16384.0;

bool parallel_over_batch(int64_t batch, int64_t m, int64_t n, int64_t k) {
  const double volume = static_cast<double>(m) * static_cast<double>(n) * static_cast<double>(k);
  return batch > 1 && volume <= kMaxEntryVolumeForBatchParallel &&
         volume * static_cast<double>(batch) >= kMinBatchVolumeForBatchParallel;
}

// Entry i of a strided operand; the base may be null when the operand is never read.
template <typename P>
P strided_entry(P base, int64_t i, int64_t stride) {
  return base ? base + i * stride : base;
}

// Per-entry checks name the entry: "argument 'lda[3]' = 2: must be ...".
#define MGBLAS_CHECK_ENTRY_(cond, func, name, i, value, ...)                                 \
  do {                                                                                       \
    if (!(cond))                                                                             \
      throw BadArgument(__FILE__, __LINE__, func,                                            \
                        ::mgblas::detail::concat("argument '", name, "[", i, "]' = ", value, \
                                                 ": must be ", __VA_ARGS__));                \
  } while (0)
#define MGBLAS_CHECK_ENTRY_PTR_(ptr, func, name, i)                                     \
  do {                                                                                  \
    if ((ptr) == nullptr)                                                               \
      throw BadArgument(__FILE__, __LINE__, func,                                       \
                        ::mgblas::detail::concat("argument '", name, "[", i,            \
                                                 "]' is a null pointer but must be "    \
                                                 "readable/writable for these sizes")); \
  } while (0)

constexpr int64_t kMaxBlasInt = std::numeric_limits<blas_int>::max();

template <Scalar T>
void gemm_batched_strided_host(Op opA, Op opB, int64_t m, int64_t n, int64_t k, T alpha, const T* A,
                               int64_t lda, int64_t strideA, const T* B, int64_t ldb,
                               int64_t strideB, T beta, T* C, int64_t ldc, int64_t strideC,
                               int64_t batch) {
  constexpr const char* kFunc = "gemm_batched_strided";
  const auto bm = to_blas_int(kFunc, "m", m);
  const auto bn = to_blas_int(kFunc, "n", n);
  const auto bk = to_blas_int(kFunc, "k", k);
  const auto blda = to_blas_int(kFunc, "lda", lda);
  const auto bldb = to_blas_int(kFunc, "ldb", ldb);
  const auto bldc = to_blas_int(kFunc, "ldc", ldc);
  if (batch == 0 || bm == 0 || bn == 0) return;
#pragma omp parallel for schedule(static) if (parallel_over_batch(batch, m, n, k))
  for (int64_t i = 0; i < batch; ++i)
    detail::gemm_entry(opA, opB, bm, bn, bk, alpha, strided_entry(A, i, strideA), blda,
                       strided_entry(B, i, strideB), bldb, beta, strided_entry(C, i, strideC),
                       bldc);
}

template <Scalar T>
void gemm_batched_host(Op opA, Op opB, int64_t m, int64_t n, int64_t k, T alpha,
                       const T* const* Aarray, int64_t lda, const T* const* Barray, int64_t ldb,
                       T beta, T* const* Carray, int64_t ldc, int64_t batch) {
  constexpr const char* kFunc = "gemm_batched";
  const auto bm = to_blas_int(kFunc, "m", m);
  const auto bn = to_blas_int(kFunc, "n", n);
  const auto bk = to_blas_int(kFunc, "k", k);
  const auto blda = to_blas_int(kFunc, "lda", lda);
  const auto bldb = to_blas_int(kFunc, "ldb", ldb);
  const auto bldc = to_blas_int(kFunc, "ldc", ldc);
  if (batch == 0 || bm == 0 || bn == 0) return;
  for (int64_t i = 0; i < batch; ++i) {
    MGBLAS_CHECK_ENTRY_PTR_(Carray[i], kFunc, "Carray", i);
    if (bk > 0) {
      MGBLAS_CHECK_ENTRY_PTR_(Aarray[i], kFunc, "Aarray", i);
      MGBLAS_CHECK_ENTRY_PTR_(Barray[i], kFunc, "Barray", i);
    }
  }
#pragma omp parallel for schedule(static) if (parallel_over_batch(batch, m, n, k))
  for (int64_t i = 0; i < batch; ++i) {
    // The A and B arrays may be null when k == 0 (nothing to read).
    const bool reads_ab = bk > 0;
    detail::gemm_entry(opA, opB, bm, bn, bk, alpha, reads_ab ? Aarray[i] : nullptr, blda,
                       reads_ab ? Barray[i] : nullptr, bldb, beta, Carray[i], bldc);
  }
}

// One entry's leading dimension: at least max(1, rows), at most the BLAS integer.
void check_entry_ld(const char* func, const char* name, int64_t i, int64_t ld, int64_t rows,
                    const char* rows_name) {
  MGBLAS_CHECK_ENTRY_(ld >= std::max<int64_t>(1, rows), func, name, i, ld, ">= max(1, ", rows_name,
                      "[", i, "]) = ", std::max<int64_t>(1, rows));
  MGBLAS_CHECK_ENTRY_(ld <= kMaxBlasInt, func, name, i, ld, "<= ", kMaxBlasInt,
                      ": the host engine limits it to the 32-bit CBLAS integer");
}

template <Scalar T>
void gemm_vbatched_host(Op opA, Op opB, const int64_t* m, const int64_t* n, const int64_t* k,
                        T alpha, const T* const* Aarray, const int64_t* lda, const T* const* Barray,
                        const int64_t* ldb, T beta, T* const* Carray, const int64_t* ldc,
                        int64_t batch, int64_t max_m, int64_t max_n, int64_t max_k) {
  constexpr const char* kFunc = "gemm_vbatched";
  // The bounds narrow once; every entry is checked against them below.
  to_blas_int(kFunc, "max_m", max_m);
  to_blas_int(kFunc, "max_n", max_n);
  to_blas_int(kFunc, "max_k", max_k);
  if (batch == 0 || max_m == 0 || max_n == 0) return;
  for (int64_t i = 0; i < batch; ++i) {
    MGBLAS_CHECK_ENTRY_(m[i] >= 0 && m[i] <= max_m, kFunc, "m", i, m[i], "in [0, max_m = ", max_m,
                        "]");
    MGBLAS_CHECK_ENTRY_(n[i] >= 0 && n[i] <= max_n, kFunc, "n", i, n[i], "in [0, max_n = ", max_n,
                        "]");
    MGBLAS_CHECK_ENTRY_(k[i] >= 0 && k[i] <= max_k, kFunc, "k", i, k[i], "in [0, max_k = ", max_k,
                        "]");
    if (m[i] == 0 || n[i] == 0) continue;
    check_entry_ld(kFunc, "ldc", i, ldc[i], m[i], "m");
    MGBLAS_CHECK_ENTRY_PTR_(Carray[i], kFunc, "Carray", i);
    if (k[i] == 0) continue;
    if (opA == Op::N)
      check_entry_ld(kFunc, "lda", i, lda[i], m[i], "m");
    else
      check_entry_ld(kFunc, "lda", i, lda[i], k[i], "k");
    if (opB == Op::N)
      check_entry_ld(kFunc, "ldb", i, ldb[i], k[i], "k");
    else
      check_entry_ld(kFunc, "ldb", i, ldb[i], n[i], "n");
    MGBLAS_CHECK_ENTRY_PTR_(Aarray[i], kFunc, "Aarray", i);
    MGBLAS_CHECK_ENTRY_PTR_(Barray[i], kFunc, "Barray", i);
  }
  // Sizes vary: dynamic scheduling keeps one large entry from holding up a thread's share.
#pragma omp parallel for schedule(dynamic) if (parallel_over_batch(batch, max_m, max_n, max_k))
  for (int64_t i = 0; i < batch; ++i) {
    if (m[i] == 0 || n[i] == 0) continue;
    // The A, B and lda, ldb arrays may be null when every k is 0 (max_k == 0).
    const bool reads_ab = k[i] > 0;
    const auto blda = reads_ab ? static_cast<blas_int>(lda[i]) : 1;
    const auto bldb = reads_ab ? static_cast<blas_int>(ldb[i]) : 1;
    detail::gemm_entry(opA, opB, static_cast<blas_int>(m[i]), static_cast<blas_int>(n[i]),
                       static_cast<blas_int>(k[i]), alpha, reads_ab ? Aarray[i] : nullptr, blda,
                       reads_ab ? Barray[i] : nullptr, bldb, beta, Carray[i],
                       static_cast<blas_int>(ldc[i]));
  }
}

#undef MGBLAS_CHECK_ENTRY_
#undef MGBLAS_CHECK_ENTRY_PTR_

}  // namespace

#define MGBLAS_HOST_BATCHED_(T)                                                                    \
  MGBLAS_DECLARE_GEMM_BATCHED_STRIDED_KERNEL(T) {                                                  \
    gemm_batched_strided_host(opA, opB, m, n, k, alpha, A, lda, strideA, B, ldb, strideB, beta, C, \
                              ldc, strideC, batch);                                                \
  }                                                                                                \
  MGBLAS_DECLARE_GEMM_BATCHED_KERNEL(T) {                                                          \
    gemm_batched_host(opA, opB, m, n, k, alpha, Aarray, lda, Barray, ldb, beta, Carray, ldc,       \
                      batch);                                                                      \
  }                                                                                                \
  MGBLAS_DECLARE_GEMM_VBATCHED_KERNEL(T) {                                                         \
    gemm_vbatched_host(opA, opB, m, n, k, alpha, Aarray, lda, Barray, ldb, beta, Carray, ldc,      \
                       batch, max_m, max_n, max_k);                                                \
  }
MGBLAS_FOR_EACH_SCALAR(MGBLAS_HOST_BATCHED_)
#undef MGBLAS_HOST_BATCHED_

}  // namespace mgblas::kernels::host
