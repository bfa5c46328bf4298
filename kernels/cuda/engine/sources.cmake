# SPDX-License-Identifier: BSD-3-Clause
# Entry points of the CUDA engine and its own small kernels (beta scaling, the simple
# variable-size batched GEMM); included by kernels/cuda/CMakeLists.txt.
list(APPEND MGBLAS_CUDA_SOURCES
  ${CMAKE_CURRENT_LIST_DIR}/level2.cu
  ${CMAKE_CURRENT_LIST_DIR}/level3.cu
  ${CMAKE_CURRENT_LIST_DIR}/batched.cu
  ${CMAKE_CURRENT_LIST_DIR}/scale.cu
  ${CMAKE_CURRENT_LIST_DIR}/gemm_vbatched.cu)
