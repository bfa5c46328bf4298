# SPDX-License-Identifier: BSD-3-Clause
# The CUDA engine's band-to-tridiagonal bulge chase (kernels/sb2st_kernels.hpp); included by
# kernels/cuda/CMakeLists.txt.
list(APPEND MGBLAS_CUDA_SOURCES ${CMAKE_CURRENT_LIST_DIR}/sb2st.cu)
