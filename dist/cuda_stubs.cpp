// SPDX-License-Identifier: BSD-3-Clause
// Build without CUDA: dist's CUDA kernels exist but say they were not compiled. They are
// only reached for GPU devices, which such a build never has.
#include "core/error.hpp"
#include "dist/detail/dist_kernels.hpp"

namespace mgblas::detail::cuda {
namespace {
[[noreturn]] void not_compiled(const char* what) {
  MGBLAS_THROW(NotCompiled, what, ": mgblas was built without CUDA (MGBLAS_ENABLE_CUDA=OFF)");
}
}  // namespace

template <Scalar T>
void finish_sum(cudaStream_t, int64_t, const T*, T, T*) {
  not_compiled("finish_sum");
}
template <Scalar T>
void gather_columns(cudaStream_t, const BlockCyclic1D&, int, int64_t, int64_t, const T*, int64_t,
                    T*) {
  not_compiled("gather_columns");
}
template <Scalar T>
void scatter_columns(cudaStream_t, const BlockCyclic1D&, int, int64_t, int64_t, const T*, int64_t,
                     T*) {
  not_compiled("scatter_columns");
}
template <Scalar T>
void unpack_columns(cudaStream_t, const BlockCyclic1D&, int64_t, const T*, int64_t, T, T*) {
  not_compiled("unpack_columns");
}
template <Scalar T>
void symv_block_cyclic(cudaStream_t, Uplo, bool, const BlockCyclic1D&, int, const T*, int64_t,
                       int64_t, int64_t, int64_t, T, const T*, T*, bool) {
  not_compiled("symv_block_cyclic");
}

MGBLAS_FOR_EACH_SCALAR(MGBLAS_DIST_KERNELS_INSTANTIATE)

}  // namespace mgblas::detail::cuda
