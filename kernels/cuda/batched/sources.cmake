# SPDX-License-Identifier: BSD-3-Clause
# The batched small GEMM engine (included by kernels/cuda/CMakeLists.txt):
# - kernel instances: batched_instances.cu.in configured into one file per precision
#   of MGBLAS_PRECISIONS and part (batched_<prec>_<part>.cu in the build tree), so that
#   a precision's instances compile on several cores; the lists are in batched_tuning.hpp;
# - the engine entries (batched.cu) and the simple variable-size kernel (gemm_vbatched.cu);
# - the dispatcher; its tuning tables tables/<arch>.json are built into the library
#   and installed by common/sources.cmake (one loader and schema for every engine).
set(_batched_dir ${CMAKE_CURRENT_LIST_DIR})
set(_batched_gen ${CMAKE_CURRENT_BINARY_DIR}/batched)

# The instance file names the scalar by letter (MGBLAS_BATCHED_SCALAR_<letter> in
# batched_registry.hpp), so the letter -> type map stays in core/types.hpp.
foreach(MGBLAS_BATCHED_PREC IN LISTS MGBLAS_ENABLED_PRECISIONS)
  # Three parts: kInstanceParts in batched_registry.hpp.
  foreach(MGBLAS_BATCHED_PART 0 1 2)
    set(_file ${_batched_gen}/batched_${MGBLAS_BATCHED_PREC}_${MGBLAS_BATCHED_PART}.cu)
    configure_file(${_batched_dir}/batched_instances.cu.in ${_file} @ONLY)
    list(APPEND MGBLAS_CUDA_SOURCES ${_file})
  endforeach()
endforeach()

list(APPEND MGBLAS_CUDA_SOURCES
  ${_batched_dir}/batched_dispatch.cpp
  ${_batched_dir}/batched.cu
  ${_batched_dir}/gemm_vbatched.cu)
