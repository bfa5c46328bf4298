// SPDX-License-Identifier: BSD-3-Clause
// The CUDA engine of a build without CUDA: every kernels::cuda function exists, so
// callers dispatch without #ifdef, and raises NotCompiled naming itself.
#include "core/error.hpp"
#include "cuda_stub_headers.inc"

namespace mgblas::kernels::cuda {
namespace {

[[noreturn]] void not_compiled(const char* func) {
  throw NotCompiled(__FILE__, __LINE__, func, "mgblas was built without CUDA");
}

}  // namespace

// Defines the functions of one declaration macro; __func__ is the kernel's name.
#define MGBLAS_CUDA_STUB_(T, DECLARE) \
  DECLARE(T) { not_compiled(__func__); }
#define MGBLAS_CUDA_STUBS_(DECLARE) MGBLAS_FOR_EACH_SCALAR(MGBLAS_CUDA_STUB_, DECLARE)

// Every declaration of kernels/*_kernels.hpp (api/generate.py lists them at configure
// time), so a new kernel needs no line here.
#include "cuda_stubs.inc"

#undef MGBLAS_CUDA_STUBS_
#undef MGBLAS_CUDA_STUB_

}  // namespace mgblas::kernels::cuda
