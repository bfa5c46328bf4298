# SPDX-License-Identifier: BSD-3-Clause
# Generates <mgblas/mgblas.h>: include/mgblas/mgblas.h.in with every precision's entries
# written out by name (so the installed header can be read and grepped), stamped from
# include/mgblas/mgblas_entries.h.in for s, d, c, z and mgblas_real_entries.h.in for s,
# d. The C API always declares all four precisions: a name outside MGBLAS_PRECISIONS
# still links and returns MGBLAS_ERROR_NOT_COMPILED, so one C program builds against
# any build.
set(_capi_dir ${PROJECT_SOURCE_DIR}/include/mgblas)
file(READ ${_capi_dir}/mgblas_entries.h.in _all_template)
file(READ ${_capi_dir}/mgblas_real_entries.h.in _real_template)
set(MGBLAS_C_ENTRIES "")
set(MGBLAS_C_FOR_EACH_PRECISION "")
# letter, C scalar type, its real type, the name of the tridiagonal reduction
foreach(_row "s;float;float;sytrd" "d;double;double;sytrd"
             "c;mgblas_complex_float;float;hetrd" "z;mgblas_complex_double;double;hetrd")
  list(GET _row 0 p)
  list(GET _row 1 T)
  list(GET _row 2 R)
  list(GET _row 3 trd)
  string(CONFIGURE "${_all_template}" _entries @ONLY)
  string(APPEND MGBLAS_C_ENTRIES "${_entries}\n")
  if(T STREQUAL R)
    string(CONFIGURE "${_real_template}" _entries @ONLY)
    string(APPEND MGBLAS_C_ENTRIES "${_entries}\n")
  endif()
  string(APPEND MGBLAS_C_FOR_EACH_PRECISION " X(${p}, ${T})")
endforeach()
string(STRIP "${MGBLAS_C_FOR_EACH_PRECISION}" MGBLAS_C_FOR_EACH_PRECISION)
configure_file(${_capi_dir}/mgblas.h.in ${MGBLAS_GENERATED_DIR}/mgblas/mgblas.h @ONLY)
set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS
             ${_capi_dir}/mgblas_entries.h.in ${_capi_dir}/mgblas_real_entries.h.in)
