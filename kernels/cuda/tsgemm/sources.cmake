# SPDX-License-Identifier: BSD-3-Clause
# mgblas's tall-and-skinny GEMM engine (TSM2R, TSM2L, the A^H B k-split) with its
# performance model: one instance file per precision of MGBLAS_PRECISIONS (included by
# kernels/cuda/CMakeLists.txt).
foreach(_p IN LISTS MGBLAS_ENABLED_PRECISIONS)
  list(APPEND MGBLAS_CUDA_SOURCES ${CMAKE_CURRENT_LIST_DIR}/tsgemm_${_p}.cu)
endforeach()
list(APPEND MGBLAS_CUDA_SOURCES
  ${CMAKE_CURRENT_LIST_DIR}/tsgemm_probe.cu
  ${CMAKE_CURRENT_LIST_DIR}/tsgemm_model.cpp)
# The dispatcher's tables (tables/<arch>.json, built in by common/sources.cmake).
list(APPEND MGBLAS_CUDA_SOURCES ${CMAKE_CURRENT_LIST_DIR}/tsgemm_dispatch.cpp)
