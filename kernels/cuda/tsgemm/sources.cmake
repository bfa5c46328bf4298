# SPDX-License-Identifier: BSD-3-Clause
# mgblas's tall-and-skinny GEMM engine (TSM2R, TSM2L, the A^H B k-split) with its
# performance model: one instance file per precision (included by
# kernels/cuda/CMakeLists.txt).
list(APPEND MGBLAS_CUDA_SOURCES
  ${CMAKE_CURRENT_LIST_DIR}/tsgemm_s.cu
  ${CMAKE_CURRENT_LIST_DIR}/tsgemm_d.cu
  ${CMAKE_CURRENT_LIST_DIR}/tsgemm_c.cu
  ${CMAKE_CURRENT_LIST_DIR}/tsgemm_z.cu
  ${CMAKE_CURRENT_LIST_DIR}/tsgemm_probe.cu
  ${CMAKE_CURRENT_LIST_DIR}/tsgemm_model.cpp)
