// SPDX-License-Identifier: BSD-3-Clause
// The per-device steps of applying a block of Householder reflectors in compact-WY form,
// H(0) H(1) ... H(b-1) = I - V T V^H (LAPACK's ?larft + ?larfb, forward, columnwise),
// for the distributed application of a reduction's Q (dist/lapack/unmtr_mgpu.cpp). The
// products with the vectors (W = V^H C, C -= V W) are plain gemms (kernels/blas.hpp);
// what is declared here is the part no BLAS routine covers.
//
// V is m x b, column-major (leading dimension ldv), unit lower trapezoidal with its unit
// diagonal and the zeros above it stored explicitly: V(j, j) = 1, V(0:j, j) = 0.
#pragma once

#include <cstdint>

#include "kernels/detail/dispatch.hpp"
#include "kernels/kernel_declaration.hpp"

namespace mgblas::kernels {
/// Widest block of reflectors larft takes (the CUDA engine's recurrence runs in one
/// thread block with one thread per row of T).
inline constexpr int64_t kLarftMaxBlock = 128;
}  // namespace mgblas::kernels

// V = the reflectors as LAPACK stores them below a reduction's subdiagonal, made
// explicit: for i < m, j < b: V(i, j) = A(i, j) if i > j, 1 if i == j, 0 if i < j.
// A (leading dimension lda) is only read strictly below its diagonal; b <= m.
#define MGBLAS_DECLARE_LARFB_FORM_V_KERNEL(T)                                              \
  void larfb_form_v(const Device& dev, cudaStream_t stream, int64_t m, int64_t b,         \
                    const T* A, int64_t lda, T* V, int64_t ldv)

// The b x b upper triangular factor Tm of H(0) ... H(b-1) = I - V Tm V^H, H(j) = I -
// tau[j] v_j v_j^H (forward, columnwise): Tm(j, j) = tau[j], Tm(0:j, j) = -tau[j]
// Tm(0:j, 0:j) V^H v_j; the strict lower triangle of Tm is set to zero, so that Tm can
// enter a gemm. V as above (explicit), 1 <= b <= kLarftMaxBlock, b <= m; tau: b
// entries in memory of dev; ldt >= b.
#define MGBLAS_DECLARE_LARFT_KERNEL(T)                                                     \
  void larft(const Device& dev, cudaStream_t stream, int64_t m, int64_t b, const T* V,    \
             int64_t ldv, const T* tau, T* Tm, int64_t ldt)

MGBLAS_DECLARE_FOR_BACKENDS(MGBLAS_DECLARE_LARFB_FORM_V_KERNEL)
MGBLAS_DECLARE_FOR_BACKENDS(MGBLAS_DECLARE_LARFT_KERNEL)

// The steps on the engine of a queue's device (arguments as above, not validated: the
// driver has checked them).
namespace mgblas::kernels {
template <Scalar T>
void larfb_form_v(const Queue& q, int64_t m, int64_t b, const T* A, int64_t lda, T* V,
                  int64_t ldv) {
  MGBLAS_DISPATCH(q, larfb_form_v, m, b, A, lda, V, ldv);
}
template <Scalar T>
void larft(const Queue& q, int64_t m, int64_t b, const T* V, int64_t ldv, const T* tau, T* Tm,
           int64_t ldt) {
  MGBLAS_DISPATCH(q, larft, m, b, V, ldv, tau, Tm, ldt);
}
}  // namespace mgblas::kernels
