// SPDX-License-Identifier: BSD-3-Clause
// mgblas's tall-and-skinny GEMM engine, host side (private to the CUDA engine, its
// tests and testers). Plain C++: no CUDA header is needed to call it.
//
// C = alpha * op(A) * op(B) + beta * C, column-major, C m x n, inner dimension k.
// Three kernels (tsgemm.cuh) and cuBLAS share the shapes:
//   TSM2R    op(A) = A, n <= 32, k > 32: large A (m x k) times a skinny op(B)
//   TSM2L    op(A) = A, n <= 32, k <= 32: tall-skinny A times a small op(B)
//   A^H B    op(A) = A^T or A^H, op(B) = B, m, n <= 32: two tall inputs, the k-split
//            (partial sums per block, then per k range, summed by a second kernel)
//   cuBLAS   every other shape, and operands not aligned to their element type.
// op(B) may be N, T or C for TSM2R and TSM2L (B is staged in shared memory).
// The performance model (tsgemm_model.hpp) picks the kernel's compiled tuning set,
// the k-split and the grid per shape on the current device; `choose` says what it
// picked and why.
#pragma once

#include <cstdint>
#include <string>

#include "core/device.hpp"
#include "core/types.hpp"
#include "kernels/cuda/tsgemm/tsgemm_model.hpp"

namespace mgblas::kernels::cuda::tsm2 {

enum class Engine : unsigned char { Auto, Tsm2r, Tsm2l, Tsmttsm, Cublas };

const char* to_string(Engine e) noexcept;

/// Per-call overrides (tests, tester sweeps); defaults let the dispatcher and the
/// model decide. A forced engine that does not cover the shape is a BadArgument.
struct Params {
  Engine engine = Engine::Auto;
  int variant = -1;     ///< tuning-set index of the engine; -1: the model's choice
  int64_t split = 0;    ///< TSM2R / A^H B: k ranges (1: none, no workspace); 0: model
  int64_t blocks = 0;   ///< TSM2L: grid size (the paper's tile count); 0: model
};

/// What a call runs. `label` is static text: the engine, the tuning set, or for cuBLAS
/// the reason no mgblas kernel covers the shape (tsgemm_choice returns it).
struct Choice {
  Engine engine = Engine::Cublas;
  int variant = -1;
  int64_t split = 1;
  int64_t blocks = 0;
  const char* label = "";
  Prediction prediction;  ///< the model's numbers for the chosen launch (mgblas engines)
};

/// The choice for this call on the current device (params as for tsgemm).
template <Scalar T>
Choice choose(Op opA, Op opB, int64_t m, int64_t n, int64_t k, const T* A, int64_t lda,
              const T* B, int64_t ldb, const T* C, int64_t ldc, bool beta_zero,
              Params params = {});

/// The label of choose(...) with the default parameters, e.g. "tsm2l 256x32x8 opt2"
/// or "cublas (op(A) = T with op(B) = T: no mgblas kernel)".
template <Scalar T>
const char* tsgemm_choice(Op opA, Op opB, int64_t m, int64_t n, int64_t k, const T* A,
                          int64_t lda, const T* B, int64_t ldb, const T* C, int64_t ldc);

/// One line with the choice and the model's prediction, for testers and logs.
std::string describe(const Choice& c);

/// C = alpha * op(A) * op(B) + beta * C on `stream` of the current device (cuBLAS
/// through `handle`, the device's, when chosen). Never waits. Sizes are 64-bit; the
/// mgblas kernels have no 32-bit limit (cuBLAS's int limit applies where it runs).
/// m or n zero: nothing. k zero or alpha zero: C = beta * C. beta zero: C not read.
/// A k-split takes its workspace from a stream-ordered pool of the device (no host
/// synchronisation); when that allocation fails the call runs unsplit.
/// Preconditions (checked by kernels/blas.cpp): sizes >= 0, leading dimensions at
/// least the BLAS minimum, pointers device memory of the current device.
template <Scalar T>
void tsgemm(cublasHandle_t handle, cudaStream_t stream, Op opA, Op opB, int64_t m, int64_t n,
            int64_t k, T alpha, const T* A, int64_t lda, const T* B, int64_t ldb, T beta, T* C,
            int64_t ldc, Params params = {});

/// Compiled tuning sets of an engine (TSM2R, TSM2L, A^H B; 1 each in the CI build).
template <Scalar T> int variant_count(Engine e);
/// "tsm2r 128x16x16" style name of a tuning set ("" when out of range).
template <Scalar T> const char* variant_name(Engine e, int variant);
/// Registers, spills, shared memory and residency of a tuning set's kernel on the
/// current device (what the model is fed; cudaFuncGetAttributes and the occupancy API).
template <Scalar T> KernelResources variant_resources(Engine e, int variant);

#define MGBLAS_TSGEMM_DECLARE_(PREFIX, T)                                                       \
  PREFIX template Choice choose<T>(Op, Op, int64_t, int64_t, int64_t, const T*, int64_t,        \
                                   const T*, int64_t, const T*, int64_t, bool, Params);         \
  PREFIX template const char* tsgemm_choice<T>(Op, Op, int64_t, int64_t, int64_t, const T*,     \
                                               int64_t, const T*, int64_t, const T*, int64_t);  \
  PREFIX template void tsgemm<T>(cublasHandle_t, cudaStream_t, Op, Op, int64_t, int64_t,        \
                                 int64_t, T, const T*, int64_t, const T*, int64_t, T, T*,       \
                                 int64_t, Params);                                              \
  PREFIX template int variant_count<T>(Engine);                                                 \
  PREFIX template const char* variant_name<T>(Engine, int);                                     \
  PREFIX template KernelResources variant_resources<T>(Engine, int);
#define MGBLAS_TSGEMM_EXTERN_(T) MGBLAS_TSGEMM_DECLARE_(extern, T)
MGBLAS_FOR_EACH_SCALAR(MGBLAS_TSGEMM_EXTERN_)
#undef MGBLAS_TSGEMM_EXTERN_

}  // namespace mgblas::kernels::cuda::tsm2
