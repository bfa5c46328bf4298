// SPDX-License-Identifier: BSD-3-Clause
// The per-device steps of the dense-to-band reduction, stage one of the two-stage
// tridiagonal reduction (dist/lapack/hetrd_band_mgpu.cpp; LAPACK's ?sytrd_sy2sb): the
// QR factorisation of a panel, which lies in one device's columns, and the copy of a
// device's share of the band into LAPACK's band storage, which the bulge chase reads.
// The products of the trailing update are gemm, hemm and rank2k (kernels/gemm_kernels.hpp);
// over several devices, where a device's columns are blocks nb wide, the product A22 V
// also takes the two below, which cover all of a device's blocks in one launch each.
#pragma once

#include "kernels/detail/dispatch.hpp"
#include "kernels/kernel_declaration.hpp"
#include "layouts/local_columns.hpp"

// QR of the m x n panel A (leading dimension lda), LAPACK's ?geqrf: R on and above the
// diagonal, below it the reflectors' vectors (unit first entry not stored), tau[0 ..
// min(m, n)) their scalars, A(0:m, j) -> H(j)^H ... applied in order H(0), H(1), ....
// Host engine: LAPACKE ?geqrf. CUDA engine: one cooperative kernel that keeps the panel in
// shared memory (n <= 64 and a slab of rows per SM fits: kernels/cuda/sy2sb/panel_qr.cuh),
// else a blocked loop of that kernel's 32-column panels (16 in complex double) with gemm
// updates, else (where even such a panel does not fit) cuSOLVER cusolverDnXgeqrf;
// workspaces allocated on `stream` (stream-ordered).
#define MGBLAS_DECLARE_GEQRF_KERNEL(T)                                                     \
  void geqrf(const Device& dev, cudaStream_t stream, int64_t m, int64_t n, T* A,          \
             int64_t lda, T* tau)

// geqrf and the compact-WY form of its Q in one step, what a panel of stage one needs:
// A and tau as geqrf; V (m x kq, kq = min(m, n), leading dimension ldv) the reflectors
// made explicit as larfb_form_v makes them (Forward) and Tm (kq x kq, ldt >= kq) their
// triangular factor as larft forms it (Forward): Q = H(0) ... H(kq-1) = I - V Tm V^H.
// n <= kLarftMaxBlock; V must not overlap A. CUDA engine: the one cooperative kernel of
// geqrf forms V and Tm on the way where it takes the panel (Tm's dot products V^H v_j
// in the same sums as the column's own, on the threads the column leaves idle), else
// geqrf, larfb_form_v and larft. Host engine: those three.
#define MGBLAS_DECLARE_GEQRF_WY_KERNEL(T)                                                  \
  void geqrf_wy(const Device& dev, cudaStream_t stream, int64_t m, int64_t n, T* A,       \
                int64_t lda, T* tau, T* V, int64_t ldv, T* Tm, int64_t ldt)

// The device's share of the band of half-width b of the n x n Hermitian (real:
// symmetric) matrix whose `uplo` triangle its columns `cols` hold (local storage A,
// leading dimension ld), written in LAPACK's lower band storage AB (leading dimension
// ldab >= b + 1): for each of the device's global columns c,
//   Lower: AB[(r - c) + c ldab] = A(r, c)        for c <= r <= min(n - 1, c + b);
//   Upper: AB[(c - r) + r ldab] = conj(A(r, c))  for max(0, c - b) <= r <= c.
// The diagonal goes in as its real part (a Hermitian diagonal is real by definition).
// Entries of AB the device's columns do not reach are untouched, so the devices' shares
// of a zeroed AB add up to the whole band.
#define MGBLAS_DECLARE_PACK_BAND_KERNEL(T)                                                 \
  void pack_band(const Device& dev, cudaStream_t stream, Uplo uplo, int64_t n, int64_t b,  \
                 const LocalColumns& cols, const T* A, int64_t ld, T* AB, int64_t ldab)

// Y_i += S_i V_i for i < count: S_i the nb x nb Hermitian (real: symmetric) matrix whose
// `uplo` triangle A_i = A + i strideA holds (leading dimension ld; the other triangle is
// not read, the diagonal's imaginary part is taken as zero), V_i = V + i strideV and
// Y_i = Y + i strideY nb x k (leading dimensions ldv, ldy). The Y_i must not overlap.
// The diagonal blocks of a device's columns in stage one's product A22 V.
#define MGBLAS_DECLARE_HEMM_DIAGONAL_BLOCKS_KERNEL(T)                                      \
  void hemm_diagonal_blocks(const Device& dev, cudaStream_t stream, Uplo uplo,             \
                            int64_t count, int64_t nb, int64_t k, const T* A, int64_t ld,  \
                            int64_t strideA, const T* V, int64_t ldv, int64_t strideV,     \
                            T* Y, int64_t ldy, int64_t strideY)

// B_i = A_i + beta B_i for i < count, A_i = A + i strideA and B_i = B + i strideB both
// rows x cols (leading dimensions lda, ldb); beta == 0 does not read B. The B_i must not
// overlap each other or the A_i. Packs a device's row blocks of V (beta = 0) and adds
// results computed packed back into place (beta = 1).
#define MGBLAS_DECLARE_ADD_BLOCKS_KERNEL(T)                                                \
  void add_blocks(const Device& dev, cudaStream_t stream, int64_t count, int64_t rows,     \
                  int64_t cols, const T* A, int64_t lda, int64_t strideA, T beta, T* B,     \
                  int64_t ldb, int64_t strideB)

MGBLAS_DECLARE_FOR_BACKENDS(MGBLAS_DECLARE_GEQRF_KERNEL)
MGBLAS_DECLARE_FOR_BACKENDS(MGBLAS_DECLARE_GEQRF_WY_KERNEL)
MGBLAS_DECLARE_FOR_BACKENDS(MGBLAS_DECLARE_PACK_BAND_KERNEL)
MGBLAS_DECLARE_FOR_BACKENDS(MGBLAS_DECLARE_HEMM_DIAGONAL_BLOCKS_KERNEL)
MGBLAS_DECLARE_FOR_BACKENDS(MGBLAS_DECLARE_ADD_BLOCKS_KERNEL)

// The steps on the engine of a queue's device (arguments as above, not validated: the
// driver has checked them).
namespace mgblas::kernels {
template <Scalar T>
void geqrf(const Queue& q, int64_t m, int64_t n, T* A, int64_t lda, T* tau) {
  MGBLAS_DISPATCH(q, geqrf, m, n, A, lda, tau);
}
template <Scalar T>
void geqrf_wy(const Queue& q, int64_t m, int64_t n, T* A, int64_t lda, T* tau, T* V,
              int64_t ldv, T* Tm, int64_t ldt) {
  MGBLAS_DISPATCH(q, geqrf_wy, m, n, A, lda, tau, V, ldv, Tm, ldt);
}
template <Scalar T>
void pack_band(const Queue& q, Uplo uplo, int64_t n, int64_t b, const LocalColumns& cols,
               const T* A, int64_t ld, T* AB, int64_t ldab) {
  MGBLAS_DISPATCH(q, pack_band, uplo, n, b, cols, A, ld, AB, ldab);
}
template <Scalar T>
void hemm_diagonal_blocks(const Queue& q, Uplo uplo, int64_t count, int64_t nb, int64_t k,
                          const T* A, int64_t ld, int64_t strideA, const T* V, int64_t ldv,
                          int64_t strideV, T* Y, int64_t ldy, int64_t strideY) {
  MGBLAS_DISPATCH(q, hemm_diagonal_blocks, uplo, count, nb, k, A, ld, strideA, V, ldv, strideV,
                  Y, ldy, strideY);
}
template <Scalar T>
void add_blocks(const Queue& q, int64_t count, int64_t rows, int64_t cols, const T* A,
                int64_t lda, int64_t strideA, T beta, T* B, int64_t ldb, int64_t strideB) {
  MGBLAS_DISPATCH(q, add_blocks, count, rows, cols, A, lda, strideA, beta, B, ldb, strideB);
}
}  // namespace mgblas::kernels
