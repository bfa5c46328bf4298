# SPDX-License-Identifier: BSD-3-Clause
# The CUDA engine's labrd kernels (kernels/labrd_kernels.hpp): the column and row steps
# and the fused row step; included by kernels/cuda/CMakeLists.txt.
list(APPEND MGBLAS_CUDA_SOURCES
  ${CMAKE_CURRENT_LIST_DIR}/labrd.cu
  ${CMAKE_CURRENT_LIST_DIR}/labrd_fused.cu)
