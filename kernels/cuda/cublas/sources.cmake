# SPDX-License-Identifier: BSD-3-Clause
# Precision-generic cuBLAS wrappers (included by kernels/cuda/CMakeLists.txt).
list(APPEND MGBLAS_CUDA_SOURCES ${CMAKE_CURRENT_LIST_DIR}/cublas.cu)
