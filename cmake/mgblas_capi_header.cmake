# SPDX-License-Identifier: BSD-3-Clause
# Runs the operation manifest's generator (api/generate.py) at configure time and
# writes <mgblas/mgblas.h>: include/mgblas/mgblas.h.in with the operations' declarations
# (generated/api/c_entries.h, every precision's name written out so that the installed
# header can be read and grepped). The same run writes the C entry points
# (capi/c_entries.cpp includes them), the Python extension's bindings and the surface
# test's list. The C API always declares all four precisions: a name outside
# MGBLAS_PRECISIONS still links and returns MGBLAS_ERROR_NOT_COMPILED.
find_package(Python3 REQUIRED COMPONENTS Interpreter)
set(MGBLAS_API_DIR ${MGBLAS_GENERATED_DIR}/api)
execute_process(COMMAND ${Python3_EXECUTABLE} ${PROJECT_SOURCE_DIR}/api/generate.py
                        --out ${MGBLAS_API_DIR}
                RESULT_VARIABLE _gen_rc OUTPUT_VARIABLE _gen_out ERROR_VARIABLE _gen_out)
if(NOT _gen_rc EQUAL 0)
  message(FATAL_ERROR "api/generate.py failed:\n${_gen_out}")
endif()
file(READ ${MGBLAS_API_DIR}/c_entries.h MGBLAS_C_ENTRIES)
configure_file(${PROJECT_SOURCE_DIR}/include/mgblas/mgblas.h.in
               ${MGBLAS_GENERATED_DIR}/mgblas/mgblas.h @ONLY)
set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS
             ${PROJECT_SOURCE_DIR}/api/operations.py ${PROJECT_SOURCE_DIR}/api/generate.py)
