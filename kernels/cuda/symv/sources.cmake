# SPDX-License-Identifier: BSD-3-Clause
# mgblas's SYMV/HEMV kernels, one instance file per precision of MGBLAS_PRECISIONS
# (included by kernels/cuda/CMakeLists.txt).
foreach(_p IN LISTS MGBLAS_ENABLED_PRECISIONS)
  list(APPEND MGBLAS_CUDA_SOURCES ${CMAKE_CURRENT_LIST_DIR}/symv_${_p}.cu)
endforeach()
