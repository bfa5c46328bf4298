# SPDX-License-Identifier: BSD-3-Clause
# The CUDA engine's band-to-tridiagonal bulge chase (kernels/sb2st_kernels.hpp) and the
# application of its Q2 (one instance file per precision of MGBLAS_PRECISIONS); included
# by kernels/cuda/CMakeLists.txt.
list(APPEND MGBLAS_CUDA_SOURCES ${CMAKE_CURRENT_LIST_DIR}/sb2st.cu)
foreach(_p IN LISTS MGBLAS_ENABLED_PRECISIONS)
  list(APPEND MGBLAS_CUDA_SOURCES ${CMAKE_CURRENT_LIST_DIR}/apply_q_${_p}.cu)
endforeach()
