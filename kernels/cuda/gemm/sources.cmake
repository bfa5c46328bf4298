# SPDX-License-Identifier: BSD-3-Clause
# The level-3 entries of the CUDA engine (gemm, tsgemm, the rank-2k update): cuBLAS, the
# float product with 17-32 columns (skinny.cu), or the tall-skinny engine of tsgemm/
# (included by kernels/cuda/CMakeLists.txt).
list(APPEND MGBLAS_CUDA_SOURCES ${CMAKE_CURRENT_LIST_DIR}/gemm.cu ${CMAKE_CURRENT_LIST_DIR}/skinny.cu)
