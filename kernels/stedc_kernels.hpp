// SPDX-License-Identifier: BSD-3-Clause
// All eigenpairs of a real symmetric tridiagonal matrix (the vectors step of an
// eigen-solver, LAPACK's ?stedc with COMPZ = 'I').
//
// T (n x n) has diagonal d[0..n) and off-diagonal e[0..n-1); the kernel writes w[i] =
// lambda_i ascending and column i of Z (n x n, leading dimension ldz) = its unit
// eigenvector. The vectors are real; a complex T gets them with zero imaginary parts.
// Host engine: LAPACK ?stedc. CUDA engine: divide and conquer with every merge on the
// GPU (kernels/cuda/stedc/, the arithmetic in kernels/detail/rank_one_merge.hpp).
// d, e and w are HOST memory for both engines (the CUDA engine decides each level's
// deflation on the host); Z is memory of `dev`. Unlike the other kernels, the CUDA
// engine waits for its stream (once per level of the merge tree) and has finished on
// return. Preconditions (checked by the public entry): n >= 0, ldz >= max(1, n); d and e
// finite.
#pragma once

#include "kernels/kernel_declaration.hpp"

#define MGBLAS_STEDC_KERNEL_PARAMS_(T)                                                       \
  (const Device& dev, cudaStream_t stream, int64_t n, const real_type_t<T>* d,              \
   const real_type_t<T>* e, real_type_t<T>* w, T* Z, int64_t ldz)

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
