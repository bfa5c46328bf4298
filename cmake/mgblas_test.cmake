# SPDX-License-Identifier: BSD-3-Clause
# mgblas_add_test(<name> SOURCES ... [LABELS ...] [GPU] [MPI RANKS n...] [LIBS ...])
#
# One GoogleTest executable, registered with CTest:
# - GPU: the binary exits with 77 when no GPU is visible, which CTest reports as
#   skipped (SKIP_RETURN_CODE), never as passed; label "gpu" is added.
# - MPI: one CTest test per rank count, run under the mpiexec FindMPI found; label
#   "mpi" is added. The main initialises MPI and reduces the verdict over ranks. Runs
#   on 3 or more ranks set MGBLAS_TEST_SMALL=1 (the reductions' small cases only).
# Every test runs with MGBLAS_VERIFY_INPUTS=1: collective calls also compare digests
# of their replicated inputs across ranks.
find_package(GTest REQUIRED)

set(MGBLAS_MPIEXEC_PREFLAGS "" CACHE STRING "Extra flags for mpiexec in tests")
if(MGBLAS_ENABLE_MPI AND NOT MGBLAS_MPIEXEC_PREFLAGS)
  execute_process(COMMAND ${MPIEXEC_EXECUTABLE} --version OUTPUT_VARIABLE _mpi_ver ERROR_QUIET)
  if(_mpi_ver MATCHES "Open MPI|OpenRTE")
    # Small CI machines have fewer cores than ranks, and CI runs as root.
    set(MGBLAS_MPIEXEC_PREFLAGS --oversubscribe --allow-run-as-root --bind-to none
        CACHE STRING "Extra flags for mpiexec in tests" FORCE)
  endif()
endif()

function(mgblas_add_test name)
  cmake_parse_arguments(T "GPU;MPI" "" "SOURCES;LABELS;RANKS;LIBS" ${ARGN})
  add_executable(${name} ${T_SOURCES})
  set(_main mgblas_test_main)
  if(T_MPI)
    set(_main ${_main}_mpi)
  endif()
  if(T_GPU)
    set(_main ${_main}_gpu)
  endif()
  target_link_libraries(${name} PRIVATE mgblas::mgblas mgblas_testing ${_main} ${T_LIBS})
  set(_labels ${T_LABELS})
  if(T_GPU)
    list(APPEND _labels gpu)
  endif()
  if(T_MPI)
    if(NOT MGBLAS_ENABLE_MPI)
      return()
    endif()
    list(APPEND _labels mpi)
    if(NOT T_RANKS)
      set(T_RANKS 2)
    endif()
    foreach(np ${T_RANKS})
      add_test(NAME ${name}_np${np}
               COMMAND ${MPIEXEC_EXECUTABLE} ${MPIEXEC_NUMPROC_FLAG} ${np} ${MGBLAS_MPIEXEC_PREFLAGS}
                       ${MPIEXEC_PREFLAGS} $<TARGET_FILE:${name}> ${MPIEXEC_POSTFLAGS})
      set(_env "OMPI_MCA_btl_vader_single_copy_mechanism=none;OMPI_MCA_rmaps_base_oversubscribe=1;MGBLAS_VERIFY_INPUTS=1")
      # On 3 or more ranks the reductions' tests take their cases of at most 64 rows and
      # columns (MGBLAS_TEST_SMALL, tests/dist/scaled_matrices.hpp): what those ranks add
      # is the uneven split (devices and ranks with no columns), which the small cases
      # reach; the large cases run on 1 and 2 ranks. On CI's two cores a 3-rank run of
      # the large cases took up to 160 s.
      if(np GREATER_EQUAL 3)
        list(APPEND _env "MGBLAS_TEST_SMALL=1")
      endif()
      set_tests_properties(${name}_np${np} PROPERTIES LABELS "${_labels}" SKIP_RETURN_CODE 77
        PROCESSORS ${np} TIMEOUT 900 ENVIRONMENT "${_env}")
    endforeach()
  else()
    add_test(NAME ${name} COMMAND ${name})
    set_tests_properties(${name} PROPERTIES LABELS "${_labels}" SKIP_RETURN_CODE 77 TIMEOUT 900
      ENVIRONMENT "MGBLAS_VERIFY_INPUTS=1")
  endif()
  if(T_GPU)
    # GPU tests share the GPUs: keep them from running concurrently.
    get_property(_tests DIRECTORY PROPERTY TESTS)
    foreach(t ${_tests})
      if(t MATCHES "^${name}(_np[0-9]+)?$")
        set_tests_properties(${t} PROPERTIES RESOURCE_LOCK gpu)
      endif()
    endforeach()
  endif()
endfunction()
