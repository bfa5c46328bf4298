# SPDX-License-Identifier: BSD-3-Clause
# Finds the CPU BLAS of the host engine: OpenBLAS (CBLAS interface) and LAPACKE.
# Defines CBLAS_FOUND and the imported targets CBLAS::cblas and CBLAS::lapacke.
include(FindPackageHandleStandardArgs)
find_path(CBLAS_INCLUDE_DIR cblas.h PATH_SUFFIXES openblas include/openblas)
find_library(CBLAS_LIBRARY NAMES openblas openblas64 cblas)
find_path(LAPACKE_INCLUDE_DIR lapacke.h PATH_SUFFIXES openblas include/openblas)
find_library(LAPACKE_LIBRARY NAMES lapacke)
# LAPACK itself, for the routines LAPACKE does not wrap (c/zsymv). OpenBLAS has them too,
# but a reference BLAS given as CBLAS_LIBRARY (.ci/sanitize.sh) does not; liblapacke
# loads liblapack anyway, so naming it on the link line adds no library at run time.
find_library(LAPACK_LIBRARY NAMES lapack)
find_package_handle_standard_args(CBLAS REQUIRED_VARS CBLAS_LIBRARY CBLAS_INCLUDE_DIR
                                  LAPACKE_LIBRARY LAPACKE_INCLUDE_DIR)
if(CBLAS_FOUND AND NOT TARGET CBLAS::cblas)
  add_library(CBLAS::cblas UNKNOWN IMPORTED)
  set_target_properties(CBLAS::cblas PROPERTIES IMPORTED_LOCATION "${CBLAS_LIBRARY}"
                        INTERFACE_INCLUDE_DIRECTORIES "${CBLAS_INCLUDE_DIR}")
  set(_cblas_lapacke_deps CBLAS::cblas)
  if(LAPACK_LIBRARY)
    list(APPEND _cblas_lapacke_deps "${LAPACK_LIBRARY}")
  endif()
  add_library(CBLAS::lapacke UNKNOWN IMPORTED)
  set_target_properties(CBLAS::lapacke PROPERTIES IMPORTED_LOCATION "${LAPACKE_LIBRARY}"
                        INTERFACE_INCLUDE_DIRECTORIES "${LAPACKE_INCLUDE_DIR}"
                        INTERFACE_LINK_LIBRARIES "${_cblas_lapacke_deps}")
endif()
mark_as_advanced(CBLAS_INCLUDE_DIR CBLAS_LIBRARY LAPACKE_INCLUDE_DIR LAPACKE_LIBRARY
                 LAPACK_LIBRARY)
