// SPDX-License-Identifier: BSD-3-Clause
// The per-device steps of the dense-to-band reduction, stage one of the two-stage
// tridiagonal reduction (dist/lapack/hetrd_band_mgpu.cpp; LAPACK's ?sytrd_sy2sb): the
// QR factorisation of a panel, which lies in one device's columns, and the copy of a
// device's share of the band into LAPACK's band storage, which the bulge chase reads.
// The products of the trailing update are gemm, hemm and rank2k (kernels/gemm_kernels.hpp).
#pragma once

#include "kernels/detail/dispatch.hpp"
#include "kernels/kernel_declaration.hpp"
#include "layouts/local_columns.hpp"

// QR of the m x n panel A (leading dimension lda), LAPACK's ?geqrf: R on and above the
// diagonal, below it the reflectors' vectors (unit first entry not stored), tau[0 ..
// min(m, n)) their scalars, A(0:m, j) -> H(j)^H ... applied in order H(0), H(1), ....
// Host engine: LAPACKE ?geqrf. CUDA engine: cuSOLVER cusolverDnXgeqrf, its workspace
// allocated on `stream` (stream-ordered) per call.
#define MGBLAS_DECLARE_GEQRF_KERNEL(T)                                                     \
  void geqrf(const Device& dev, cudaStream_t stream, int64_t m, int64_t n, T* A,          \
             int64_t lda, T* tau)

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

MGBLAS_DECLARE_FOR_BACKENDS(MGBLAS_DECLARE_GEQRF_KERNEL)
MGBLAS_DECLARE_FOR_BACKENDS(MGBLAS_DECLARE_PACK_BAND_KERNEL)

// The steps on the engine of a queue's device (arguments as above, not validated: the
// driver has checked them).
namespace mgblas::kernels {
template <Scalar T>
void geqrf(const Queue& q, int64_t m, int64_t n, T* A, int64_t lda, T* tau) {
  MGBLAS_DISPATCH(q, geqrf, m, n, A, lda, tau);
}
template <Scalar T>
void pack_band(const Queue& q, Uplo uplo, int64_t n, int64_t b, const LocalColumns& cols,
               const T* A, int64_t ld, T* AB, int64_t ldab) {
  MGBLAS_DISPATCH(q, pack_band, uplo, n, b, cols, A, ld, AB, ldab);
}
}  // namespace mgblas::kernels
