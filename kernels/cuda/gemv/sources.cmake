# SPDX-License-Identifier: BSD-3-Clause
# mgblas's GEMV kernels (one instance file per precision of MGBLAS_PRECISIONS; the
# level-2 dispatcher shared with symv/ is in level2/), included by kernels/cuda/CMakeLists.txt.
foreach(_p IN LISTS MGBLAS_ENABLED_PRECISIONS)
  list(APPEND MGBLAS_CUDA_SOURCES ${CMAKE_CURRENT_LIST_DIR}/gemv_${_p}.cu)
endforeach()
