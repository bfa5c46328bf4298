# SPDX-License-Identifier: BSD-3-Clause
# Runs a program whose collective times out (abort_on_timeout: 2 ranks, one stalls;
# abort_on_nccl_timeout: 1 rank, an NCCL wait that cannot finish) and checks that the
# job ended quickly with mgblas's timeout abort code, the timeout's message printed
# first: stderr must contain each '|'-separated part of EXPECT. A program that exits 77 (no GPU) is
# reported as skipped (the test's SKIP_REGULAR_EXPRESSION matches what is printed).
#   cmake -DMPIEXEC=... -DNP_FLAG=-n -DNP=2 -DPREFLAGS="..." -DPROGRAM=... -DMODE=env|option
#         -DCODE=124 "-DEXPECT=...|..." -P run_abort_on_timeout.cmake
separate_arguments(_pre UNIX_COMMAND "${PREFLAGS}")
string(TIMESTAMP _start "%s")
execute_process(
  COMMAND ${MPIEXEC} ${NP_FLAG} ${NP} ${_pre} ${PROGRAM} ${MODE}
  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err TIMEOUT 45)
string(TIMESTAMP _end "%s")
math(EXPR _seconds "${_end} - ${_start}")
message(STATUS "exit status '${rc}' after ${_seconds} s\nstdout:\n${out}\nstderr:\n${err}")
if(rc STREQUAL "77")
  message(STATUS "mgblas-test-skipped: the program found nothing to test on (no GPU)")
  return()
endif()
if(NOT rc STREQUAL "${CODE}")
  message(FATAL_ERROR "expected exit status ${CODE} (MPI_Abort after the timeout), got '${rc}'")
endif()
if(_seconds GREATER 30)
  message(FATAL_ERROR "the job took ${_seconds} s to end; the stalled rank was not ended")
endif()
string(REPLACE "|" ";" _expect "${EXPECT}")
foreach(_part "mgblas: Timeout:" "MGBLAS_ABORT_ON_TIMEOUT is set: calling MPI_Abort" ${_expect})
  string(FIND "${err}" "${_part}" _at)
  if(_at EQUAL -1)
    message(FATAL_ERROR "stderr does not say '${_part}'")
  endif()
endforeach()
string(FIND "${err}" "FAIL:" _fail)
if(NOT _fail EQUAL -1)
  message(FATAL_ERROR "the program reported a failure")
endif()
