// SPDX-License-Identifier: BSD-3-Clause
// The CUDA engine of a build without CUDA: every kernels::cuda function exists, so
// callers dispatch without #ifdef, and raises NotCompiled naming itself.
#include "core/error.hpp"
#include "kernels/batched_kernels.hpp"
#include "kernels/gemm_kernels.hpp"
#include "kernels/gemv_kernels.hpp"
#include "kernels/labrd_kernels.hpp"
#include "kernels/larfb_kernels.hpp"
#include "kernels/latrd_kernels.hpp"
#include "kernels/stebz_kernels.hpp"
#include "kernels/symv_kernels.hpp"

namespace mgblas::kernels::cuda {
namespace {

[[noreturn]] void not_compiled(const char* func) {
  throw NotCompiled(__FILE__, __LINE__, func, "mgblas was built without CUDA");
}

}  // namespace

// Defines the functions of one declaration macro; __func__ is the kernel's name.
#define MGBLAS_CUDA_STUB_(DECLARE, T) \
  DECLARE(T) { not_compiled(__func__); }
#define MGBLAS_CUDA_STUBS_(DECLARE)               \
  MGBLAS_CUDA_STUB_(DECLARE, float)               \
  MGBLAS_CUDA_STUB_(DECLARE, double)              \
  MGBLAS_CUDA_STUB_(DECLARE, std::complex<float>) \
  MGBLAS_CUDA_STUB_(DECLARE, std::complex<double>)

MGBLAS_CUDA_STUBS_(MGBLAS_DECLARE_GEMV_KERNEL)
MGBLAS_CUDA_STUBS_(MGBLAS_DECLARE_GEMV_OFFSET_KERNEL)
MGBLAS_CUDA_STUBS_(MGBLAS_DECLARE_SYMV_KERNEL)
MGBLAS_CUDA_STUBS_(MGBLAS_DECLARE_HEMV_KERNEL)
MGBLAS_CUDA_STUBS_(MGBLAS_DECLARE_SYMV_OFFSET_KERNEL)
MGBLAS_CUDA_STUBS_(MGBLAS_DECLARE_HEMV_OFFSET_KERNEL)
MGBLAS_CUDA_STUBS_(MGBLAS_DECLARE_GEMM_KERNEL)
MGBLAS_CUDA_STUBS_(MGBLAS_DECLARE_TSGEMM_KERNEL)
MGBLAS_CUDA_STUBS_(MGBLAS_DECLARE_GEMM_BATCHED_STRIDED_KERNEL)
MGBLAS_CUDA_STUBS_(MGBLAS_DECLARE_GEMM_BATCHED_KERNEL)
MGBLAS_CUDA_STUBS_(MGBLAS_DECLARE_GEMM_VBATCHED_KERNEL)
MGBLAS_CUDA_STUBS_(MGBLAS_DECLARE_RANK2K_KERNEL)
MGBLAS_CUDA_STUBS_(MGBLAS_DECLARE_LATRD_REFLECTOR_KERNEL)
MGBLAS_CUDA_STUBS_(MGBLAS_DECLARE_LATRD_FINISH_KERNEL)
MGBLAS_CUDA_STUBS_(MGBLAS_DECLARE_LATRD_STEP_KERNEL)
MGBLAS_CUDA_STUBS_(MGBLAS_DECLARE_LATRD_STORE_KERNEL)
MGBLAS_CUDA_STUBS_(MGBLAS_DECLARE_LATRD_REVERSE_KERNEL)
MGBLAS_CUDA_STUBS_(MGBLAS_DECLARE_STEBZ_KERNEL)
MGBLAS_CUDA_STUBS_(MGBLAS_DECLARE_LABRD_COLUMN_KERNEL)
MGBLAS_CUDA_STUBS_(MGBLAS_DECLARE_LABRD_ROW_KERNEL)
MGBLAS_CUDA_STUBS_(MGBLAS_DECLARE_LABRD_FINISH_KERNEL)
MGBLAS_CUDA_STUBS_(MGBLAS_DECLARE_LABRD_STORE_KERNEL)
MGBLAS_CUDA_STUBS_(MGBLAS_DECLARE_LABRD_PUT_KERNEL)
MGBLAS_CUDA_STUBS_(MGBLAS_DECLARE_LARFB_FORM_V_KERNEL)
MGBLAS_CUDA_STUBS_(MGBLAS_DECLARE_LARFT_KERNEL)

#undef MGBLAS_CUDA_STUBS_
#undef MGBLAS_CUDA_STUB_

}  // namespace mgblas::kernels::cuda
