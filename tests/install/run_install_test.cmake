# SPDX-License-Identifier: BSD-3-Clause
# Script run by the install_consumer test (cmake -P).
function(run_step what)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "${what} failed (${rc}):\n${out}\n${err}")
  endif()
  message(STATUS "${what}: ok")
  set(last_output "${out}" PARENT_SCOPE)
endfunction()

file(REMOVE_RECURSE ${WORK_DIR})
set(prefix ${WORK_DIR}/prefix)
run_step("install" ${CMAKE_COMMAND} --install ${BUILD_DIR} --prefix ${prefix})
# The installed include directory holds mgblas/ only, and under it no engine internals.
file(GLOB top RELATIVE ${prefix}/include ${prefix}/include/*)
if(NOT top STREQUAL "mgblas")
  message(FATAL_ERROR "installed include directory holds '${top}', expected mgblas only")
endif()
file(GLOB_RECURSE headers RELATIVE ${prefix}/include/mgblas ${prefix}/include/mgblas/*)
foreach(h IN LISTS headers)
  if(h MATCHES "(^|/)(detail|cuda)/")
    message(FATAL_ERROR "installed header ${h}: an engine internal")
  endif()
endforeach()
list(LENGTH headers n)
message(STATUS "installed headers: ${n} under include/mgblas")
set(extra "")
if(CUDA_COMPILER)
  list(APPEND extra -DCMAKE_CUDA_COMPILER=${CUDA_COMPILER})
endif()
run_step("configure consumer" ${CMAKE_COMMAND} -S ${CONSUMER_DIR} -B ${WORK_DIR}/build
         -G ${GENERATOR} -DCMAKE_PREFIX_PATH=${prefix} ${extra})
run_step("build consumer" ${CMAKE_COMMAND} --build ${WORK_DIR}/build)
run_step("run C++ consumer" ${WORK_DIR}/build/consumer_cpp)
message(STATUS "${last_output}")
run_step("run C consumer" ${WORK_DIR}/build/consumer_c)
message(STATUS "${last_output}")
# A project with the C language alone.
run_step("configure C-only consumer" ${CMAKE_COMMAND} -S ${CONSUMER_DIR}_c_only
         -B ${WORK_DIR}/build_c_only -G ${GENERATOR} -DCMAKE_PREFIX_PATH=${prefix})
run_step("build C-only consumer" ${CMAKE_COMMAND} --build ${WORK_DIR}/build_c_only)
run_step("run C-only consumer" ${WORK_DIR}/build_c_only/consumer_c_only)
message(STATUS "${last_output}")
# A Fortran project (use mgblas), where mgblas was built with its Fortran module.
if(Fortran_COMPILER)
  run_step("configure Fortran consumer" ${CMAKE_COMMAND} -S ${CONSUMER_DIR}_fortran
           -B ${WORK_DIR}/build_fortran -G ${GENERATOR} -DCMAKE_PREFIX_PATH=${prefix}
           -DCMAKE_Fortran_COMPILER=${Fortran_COMPILER})
  run_step("build Fortran consumer" ${CMAKE_COMMAND} --build ${WORK_DIR}/build_fortran)
  run_step("run Fortran consumer" ${WORK_DIR}/build_fortran/consumer_fortran)
  message(STATUS "${last_output}")
endif()

# The same C consumer built without CMake, from pkg-config's flags with the C compiler
# alone, as a Makefile user would write it: `cc main.c $(pkg-config --cflags --libs
# mgblas)`; a static build also through the --static form.
find_program(PKG_CONFIG_EXECUTABLE pkg-config)
if(PKG_CONFIG_EXECUTABLE)
  set(ENV{PKG_CONFIG_PATH} "${prefix}/lib/pkgconfig")
  set(forms plain)
  if(NOT SHARED)
    list(APPEND forms static)
  endif()
  foreach(form IN LISTS forms)
    set(static_flag "")
    if(form STREQUAL "static")
      set(static_flag --static)
    endif()
    run_step("pkg-config (${form})" ${PKG_CONFIG_EXECUTABLE} --cflags --libs ${static_flag} mgblas)
    separate_arguments(flags UNIX_COMMAND "${last_output}")
    # Plain C99 without a warning: here the header is an -I path, not a system one.
    run_step("compile C consumer (pkg-config, ${form})" ${C_COMPILER} -std=c99 -pedantic-errors
             -Wall -Wextra -Werror -c ${CONSUMER_DIR}/main.c -o ${WORK_DIR}/main_pc.o ${flags})
    run_step("link C consumer (pkg-config, ${form})" ${C_COMPILER} ${WORK_DIR}/main_pc.o
             -o ${WORK_DIR}/consumer_c_pc_${form} ${flags})
    run_step("run C consumer (pkg-config, ${form})" ${WORK_DIR}/consumer_c_pc_${form})
    message(STATUS "${last_output}")
  endforeach()
else()
  message(STATUS "pkg-config not found: the pkg-config consumer is not tried")
endif()
