// SPDX-License-Identifier: BSD-3-Clause
// The eigenpairs of a real symmetric tridiagonal matrix (the vectors step of an
// eigen-solver, LAPACK's ?stedc with COMPZ = 'I', and a window of its columns).
//
// T (n x n) has diagonal d[0..n) and off-diagonal e[0..n-1); the kernel writes all n
// eigenvalues w[i] = lambda_i ascending and, for il <= i < iu, column i - il of Z
// (n x (iu - il), leading dimension ldz) = the unit eigenvector of lambda_i. The vectors
// are real; a complex T gets them with zero imaginary parts.
// Host engine: LAPACK ?stedc. CUDA engine: divide and conquer with every merge on the
// GPU (kernels/cuda/stedc/, the arithmetic in kernels/detail/rank_one_merge.hpp).
// d, e and w are HOST memory for both engines (the CUDA engine decides each level's
// deflation on the host); Z is memory of `dev`. Unlike the other kernels, the CUDA
// engine waits for its stream (once per level of the merge tree) and has finished on
// return. Preconditions (checked by the public entry): n >= 0, ldz >= max(1, n); d and e
// finite; 0 <= il <= iu <= n.
#pragma once

#include "kernels/kernel_declaration.hpp"

#define MGBLAS_STEDC_KERNEL_PARAMS_(T)                                                       \
  (const Device& dev, cudaStream_t stream, int64_t n, const real_type_t<T>* d,              \
   const real_type_t<T>* e, int64_t il, int64_t iu, real_type_t<T>* w, T* Z, int64_t ldz)

#define MGBLAS_DECLARE_STEDC_KERNEL(T) \
  template <>                          \
  void tridiag_eigenvectors<T> MGBLAS_STEDC_KERNEL_PARAMS_(T)

namespace mgblas::kernels::host {
template <Scalar T>
void tridiag_eigenvectors MGBLAS_STEDC_KERNEL_PARAMS_(T);
}  // namespace mgblas::kernels::host
namespace mgblas::kernels::cuda {
template <Scalar T>
void tridiag_eigenvectors MGBLAS_STEDC_KERNEL_PARAMS_(T);
}  // namespace mgblas::kernels::cuda

MGBLAS_DECLARE_FOR_BACKENDS(MGBLAS_DECLARE_STEDC_KERNEL)
