# SPDX-License-Identifier: BSD-3-Clause
# mgblas's GEMV kernels (one instance file per precision) and the level-2 dispatcher
# shared with symv/ (included by kernels/cuda/CMakeLists.txt).
list(APPEND MGBLAS_CUDA_SOURCES
  ${CMAKE_CURRENT_LIST_DIR}/gemv_s.cu
  ${CMAKE_CURRENT_LIST_DIR}/gemv_d.cu
  ${CMAKE_CURRENT_LIST_DIR}/gemv_c.cu
  ${CMAKE_CURRENT_LIST_DIR}/gemv_z.cu
  ${CMAKE_CURRENT_LIST_DIR}/../tuning/level2_dispatch.cpp)
