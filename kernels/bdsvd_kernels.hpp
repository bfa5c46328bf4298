// SPDX-License-Identifier: BSD-3-Clause
// The SVD of a real n x n bidiagonal matrix B (kernels/lapack.hpp bidiag_svd): diagonal
// d[0..n), off-diagonal e[0..n-1) above (Uplo::Upper, B(i, i+1) = e[i]) or below
// (Uplo::Lower, B(i+1, i) = e[i]) the diagonal. The kernel writes all n singular values
// s descending and, for il <= j < iu, column j - il of U and of V (n x (iu - il),
// leading dimensions ldu, ldv) = the left and right singular vectors of s[j], B V = U S.
// The vectors are real; a complex T gets them with zero imaginary parts.
// Host engine: LAPACK ?bdsdc, or (MGBLAS_BDSVD=tgk) the CUDA engine's algorithm on the
// host. CUDA engine: the Golub-Kahan form through the divide and conquer
// (kernels/detail/bdsvd_tgk.hpp). d, e and s are HOST memory for both engines; U and V
// memory of `dev`. Both engines have finished on return. Preconditions (checked by the
// public entry): n >= 1; d and e finite; 0 <= il <= iu <= n; ldu, ldv >= n.
//
// Two steps of the Golub-Kahan algorithm, declared for both engines so that the
// algorithm runs on either (R = real_type_t<T>; the real instances are the ones used):
//   tgk_split: Z (2n x k, leading dimension ldz) holds eigenvectors of the Golub-Kahan
//     tridiagonal in ascending order of their eigenvalues, z = (x_0, y_0, x_1, y_1, ...);
//     column c goes to column k-1-c (descending order) of X = sqrt(2) (x_i) and
//     Y = sqrt(2) (y_i) (n x k, leading dimensions ldx, ldy).
//   bdsvd_store: out(0:n, 0:k) = Q(0:n, 0:k) (leading dimensions ldo, ldq), widened to T.
#pragma once

#include "kernels/kernel_declaration.hpp"

#define MGBLAS_BDSVD_KERNEL_PARAMS_(T)                                                       \
  (const Device& dev, cudaStream_t stream, Uplo uplo, int64_t n, const real_type_t<T>* d,   \
   const real_type_t<T>* e, int64_t il, int64_t iu, real_type_t<T>* s, T* U, int64_t ldu,   \
   T* V, int64_t ldv)
#define MGBLAS_TGK_SPLIT_KERNEL_PARAMS_(T)                                                   \
  (const Device& dev, cudaStream_t stream, int64_t n, int64_t k, const real_type_t<T>* Z,   \
   int64_t ldz, real_type_t<T>* X, int64_t ldx, real_type_t<T>* Y, int64_t ldy)
#define MGBLAS_BDSVD_STORE_KERNEL_PARAMS_(T)                                                 \
  (const Device& dev, cudaStream_t stream, int64_t n, int64_t k, const real_type_t<T>* Q,   \
   int64_t ldq, T* out, int64_t ldo)

#define MGBLAS_DECLARE_BDSVD_KERNEL(T) \
  template <>                          \
  void bidiag_svd<T> MGBLAS_BDSVD_KERNEL_PARAMS_(T)
#define MGBLAS_DECLARE_TGK_SPLIT_KERNEL(T) \
  template <>                              \
  void tgk_split<T> MGBLAS_TGK_SPLIT_KERNEL_PARAMS_(T)
#define MGBLAS_DECLARE_BDSVD_STORE_KERNEL(T) \
  template <>                                \
  void bdsvd_store<T> MGBLAS_BDSVD_STORE_KERNEL_PARAMS_(T)

namespace mgblas::kernels::host {
template <Scalar T>
void bidiag_svd MGBLAS_BDSVD_KERNEL_PARAMS_(T);
template <Scalar T>
void tgk_split MGBLAS_TGK_SPLIT_KERNEL_PARAMS_(T);
template <Scalar T>
void bdsvd_store MGBLAS_BDSVD_STORE_KERNEL_PARAMS_(T);
}  // namespace mgblas::kernels::host
namespace mgblas::kernels::cuda {
template <Scalar T>
void bidiag_svd MGBLAS_BDSVD_KERNEL_PARAMS_(T);
template <Scalar T>
void tgk_split MGBLAS_TGK_SPLIT_KERNEL_PARAMS_(T);
template <Scalar T>
void bdsvd_store MGBLAS_BDSVD_STORE_KERNEL_PARAMS_(T);
}  // namespace mgblas::kernels::cuda

MGBLAS_DECLARE_FOR_BACKENDS(MGBLAS_DECLARE_BDSVD_KERNEL)
MGBLAS_DECLARE_FOR_BACKENDS(MGBLAS_DECLARE_TGK_SPLIT_KERNEL)
MGBLAS_DECLARE_FOR_BACKENDS(MGBLAS_DECLARE_BDSVD_STORE_KERNEL)
