// SPDX-License-Identifier: BSD-3-Clause
// Eigenvalues of a real symmetric tridiagonal matrix by bisection with Sturm counts (the
// eigenvalues-only step of an eigen-solver, LAPACK's ?stebz with RANGE = 'I'; ?sterf
// computes the same values by QR/QL iteration and is the tests' oracle).
//
// T (n x n) has diagonal d[0..n) and off-diagonal e[0..n-1); the kernel writes
// w[i - il] = lambda_i, the i-th smallest eigenvalue (0-based, ascending), for i in
// [il, iu). The data are real for every scalar T (a Hermitian matrix reduces to a real
// tridiagonal one), so the complex instances compute exactly what the real ones do.
// Preconditions (checked by the public entry): 0 <= il <= iu <= n; d, e, w memory of
// `dev`; max e^2 and |d| + 2 max|e| finite. The CUDA engine queues its bisection on the
// stream, but takes half or more of a large spectrum from the divide and conquer
// without vectors (kernels/cuda/stebz/stebz.cu), which waits for the stream.
#pragma once

#include "kernels/kernel_declaration.hpp"

// The kernel is a function template specialised per scalar: its parameters are those of
// real_type_t<T>, so float and std::complex<float> would otherwise declare one function.
#define MGBLAS_STEBZ_KERNEL_PARAMS_(T)                                                       \
  (const Device& dev, cudaStream_t stream, int64_t n, const real_type_t<T>* d,              \
   const real_type_t<T>* e, int64_t il, int64_t iu, real_type_t<T>* w)

#define MGBLAS_DECLARE_STEBZ_KERNEL(T) \
  template <>                          \
  void tridiag_eigenvalues<T> MGBLAS_STEBZ_KERNEL_PARAMS_(T)

namespace mgblas::kernels::host {
template <Scalar T>
void tridiag_eigenvalues MGBLAS_STEBZ_KERNEL_PARAMS_(T);
}  // namespace mgblas::kernels::host
namespace mgblas::kernels::cuda {
template <Scalar T>
void tridiag_eigenvalues MGBLAS_STEBZ_KERNEL_PARAMS_(T);
}  // namespace mgblas::kernels::cuda

MGBLAS_DECLARE_FOR_BACKENDS(MGBLAS_DECLARE_STEBZ_KERNEL)
