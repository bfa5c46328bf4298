# SPDX-License-Identifier: BSD-3-Clause
# The column kernels of the multi-device drivers (kernels/column_kernels.hpp): final
# sums, gathers and scatters at a device's columns, SYMV/HEMV over a device's columns.
list(APPEND MGBLAS_CUDA_SOURCES ${CMAKE_CURRENT_LIST_DIR}/columns.cu)
