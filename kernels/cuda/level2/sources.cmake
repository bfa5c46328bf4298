# SPDX-License-Identifier: BSD-3-Clause
# The level-2 dispatcher (GEMV, SYMV/HEMV: mgblas's kernel and tuning set, or cuBLAS)
# and its tables tables/<arch>.json (built in by tuning/sources.cmake); included by
# kernels/cuda/CMakeLists.txt.
list(APPEND MGBLAS_CUDA_SOURCES ${CMAKE_CURRENT_LIST_DIR}/level2_dispatch.cpp)
