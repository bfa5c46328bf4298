# SPDX-License-Identifier: BSD-3-Clause
# MGBLAS_SANITIZE: a comma-separated list of GCC/Clang sanitizers (e.g.
# "address,undefined") applied to every C and C++ target of this project (libraries,
# tests, examples); CUDA device code is not instrumented. Meant for a separate host-only
# debugging build (.ci/sanitize.sh), not for installed packages.
#
# Findings abort the process: -fno-sanitize-recover=all makes every UBSan check fatal
# (UBSan's default is to print and go on), so a finding fails the test that hit it.
set(MGBLAS_SANITIZE "" CACHE STRING
    "Sanitizers for C/C++ code, comma-separated (e.g. address,undefined); empty: none")

if(MGBLAS_SANITIZE)
  if(NOT CMAKE_CXX_COMPILER_ID MATCHES "GNU|Clang")
    message(FATAL_ERROR "MGBLAS_SANITIZE needs GCC or Clang (have ${CMAKE_CXX_COMPILER_ID})")
  endif()
  set(_mgblas_san_flags
    -fsanitize=${MGBLAS_SANITIZE}
    -fno-sanitize-recover=all
    -fno-omit-frame-pointer)
  message(STATUS "mgblas: sanitizers ${MGBLAS_SANITIZE} on C/C++ code")
  add_compile_options("$<$<COMPILE_LANGUAGE:C,CXX>:${_mgblas_san_flags}>")
  # Every host link step needs the sanitizer run-time (not nvcc's device link step).
  string(REPLACE "," "$<COMMA>" _mgblas_san_list "${MGBLAS_SANITIZE}")
  add_link_options("$<HOST_LINK:-fsanitize=${_mgblas_san_list}>")
  unset(_mgblas_san_list)
  unset(_mgblas_san_flags)
endif()
