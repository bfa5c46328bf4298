# SPDX-License-Identifier: BSD-3-Clause
# The level-2 engine (included by kernels/cuda/CMakeLists.txt): mgblas's GEMV and
# SYMV/HEMV kernels (one instance file per precision of MGBLAS_PRECISIONS), the
# dispatcher choosing them or cuBLAS from tables/<arch>.json (built in by
# common/sources.cmake), and the engine entries gemv, symv, hemv and their offset forms.
foreach(_p IN LISTS MGBLAS_ENABLED_PRECISIONS)
  list(APPEND MGBLAS_CUDA_SOURCES
    ${CMAKE_CURRENT_LIST_DIR}/gemv_${_p}.cu
    ${CMAKE_CURRENT_LIST_DIR}/symv_${_p}.cu)
endforeach()
list(APPEND MGBLAS_CUDA_SOURCES
  ${CMAKE_CURRENT_LIST_DIR}/level2_dispatch.cpp
  ${CMAKE_CURRENT_LIST_DIR}/level2.cu)
