# SPDX-License-Identifier: BSD-3-Clause
# The CUDA engine's LAPACK-style steps (panel of the tridiagonal reduction, ...);
# included by kernels/cuda/CMakeLists.txt.
list(APPEND MGBLAS_CUDA_SOURCES
  ${CMAKE_CURRENT_LIST_DIR}/latrd.cu)
list(APPEND MGBLAS_CUDA_SOURCES ${CMAKE_CURRENT_LIST_DIR}/stebz.cu)
list(APPEND MGBLAS_CUDA_SOURCES ${CMAKE_CURRENT_LIST_DIR}/larfb.cu)
list(APPEND MGBLAS_CUDA_SOURCES ${CMAKE_CURRENT_LIST_DIR}/labrd.cu)
list(APPEND MGBLAS_CUDA_SOURCES ${CMAKE_CURRENT_LIST_DIR}/labrd_fused.cu)
