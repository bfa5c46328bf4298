// SPDX-License-Identifier: BSD-3-Clause
// The per-device steps of applying a block of Householder reflectors in compact-WY form
// (LAPACK's ?larft + ?larfb, columnwise), for the distributed application of a
// reduction's Q (dist/lapack/unmtr_mgpu.cpp). The products with the vectors (W = V^H C,
// C -= V W) are plain gemms (kernels/blas.hpp); what is declared here is the part no
// BLAS routine covers.
//
// V is m x b, column-major (leading dimension ldv), with its unit entries and zeros
// stored explicitly, in one of LAPACK's two shapes (b <= m):
//   Forward  (the lower reduction's reflectors): H(0) H(1) ... H(b-1) = I - V T V^H,
//            T upper triangular; V unit lower trapezoidal: V(j, j) = 1, V(0:j, j) = 0.
//   Backward (the upper reduction's): H(b-1) ... H(1) H(0) = I - V T V^H, T lower
//            triangular; column j's unit at row u = m - b + j, V(u, j) = 1,
//            V(u+1:m, j) = 0.
#pragma once

#include <cstdint>

#include "kernels/detail/dispatch.hpp"
#include "kernels/kernel_declaration.hpp"

namespace mgblas::kernels {
/// Widest block of reflectors larft takes (the CUDA engine's recurrence runs in one
/// thread block with one thread per row of T).
inline constexpr int64_t kLarftMaxBlock = 128;
/// The order of a block's reflectors (LAPACK's DIRECT): see the shapes of V above.
enum class Direction : char { Forward = 'F', Backward = 'B' };
}  // namespace mgblas::kernels

// V = the reflectors as LAPACK stores them in a reduction's A, made explicit: for
// i < m, j < b, with u = j (Forward) or m - b + j (Backward): V(i, j) = A(i, j) on the
// stored side of the unit (i > u Forward, i < u Backward), 1 if i == u, 0 otherwise.
// A (leading dimension lda) is only read on the stored side; b <= m.
#define MGBLAS_DECLARE_LARFB_FORM_V_KERNEL(T)                                              \
  void larfb_form_v(const Device& dev, cudaStream_t stream, Direction dir, int64_t m,     \
                    int64_t b, const T* A, int64_t lda, T* V, int64_t ldv)

// The b x b triangular factor Tm of the block, H(j) = I - tau[j] v_j v_j^H:
//   Forward:  Tm(j, j) = tau[j], Tm(0:j, j) = -tau[j] Tm(0:j, 0:j) V(:, 0:j)^H v_j;
//   Backward: Tm(j, j) = tau[j], Tm(j+1:b, j) = -tau[j] Tm(j+1:b, j+1:b) V(:, j+1:b)^H v_j.
// The other strict triangle of Tm is set to zero, so that Tm can enter a gemm. V as
// above (explicit), 1 <= b <= kLarftMaxBlock, b <= m; tau: b entries in memory of dev;
// ldt >= b.
#define MGBLAS_DECLARE_LARFT_KERNEL(T)                                                     \
  void larft(const Device& dev, cudaStream_t stream, Direction dir, int64_t m, int64_t b, \
             const T* V, int64_t ldv, const T* tau, T* Tm, int64_t ldt)

MGBLAS_DECLARE_FOR_BACKENDS(MGBLAS_DECLARE_LARFB_FORM_V_KERNEL)
MGBLAS_DECLARE_FOR_BACKENDS(MGBLAS_DECLARE_LARFT_KERNEL)

// The steps on the engine of a queue's device (arguments as above, not validated: the
// driver has checked them).
namespace mgblas::kernels {
template <Scalar T>
void larfb_form_v(const Queue& q, Direction dir, int64_t m, int64_t b, const T* A, int64_t lda,
                  T* V, int64_t ldv) {
  MGBLAS_DISPATCH(q, larfb_form_v, dir, m, b, A, lda, V, ldv);
}
template <Scalar T>
void larft(const Queue& q, Direction dir, int64_t m, int64_t b, const T* V, int64_t ldv,
           const T* tau, T* Tm, int64_t ldt) {
  MGBLAS_DISPATCH(q, larft, dir, m, b, V, ldv, tau, Tm, ldt);
}
}  // namespace mgblas::kernels
