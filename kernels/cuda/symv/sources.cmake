# SPDX-License-Identifier: BSD-3-Clause
# mgblas's SYMV/HEMV kernels, one instance file per precision (included by
# kernels/cuda/CMakeLists.txt).
list(APPEND MGBLAS_CUDA_SOURCES
  ${CMAKE_CURRENT_LIST_DIR}/symv_s.cu
  ${CMAKE_CURRENT_LIST_DIR}/symv_d.cu
  ${CMAKE_CURRENT_LIST_DIR}/symv_c.cu
  ${CMAKE_CURRENT_LIST_DIR}/symv_z.cu)
