# SPDX-License-Identifier: BSD-3-Clause
# The CUDA engine's band-to-bidiagonal bulge chase (kernels/gb2bd_kernels.hpp; its Q2 and
# P2 are applied by sb2st/'s band_to_tridiag_apply_q); included by
# kernels/cuda/CMakeLists.txt.
list(APPEND MGBLAS_CUDA_SOURCES ${CMAKE_CURRENT_LIST_DIR}/gb2bd.cu)
