# SPDX-License-Identifier: BSD-3-Clause
# The CUDA engine's bidiagonal SVD (kernels/bdsvd_kernels.hpp); included by
# kernels/cuda/CMakeLists.txt.
list(APPEND MGBLAS_CUDA_SOURCES ${CMAKE_CURRENT_LIST_DIR}/bdsvd.cu)
