# SPDX-License-Identifier: BSD-3-Clause
# Common settings of every mgblas library target: root-relative includes and include/
# (<mgblas/...>) in the build tree, only <prefix>/include after installation (the
# installed headers include each other as <mgblas/...>: cmake/mgblas_install.cmake),
# C++20, warnings kept private.
function(mgblas_configure_target target)
  get_target_property(_type ${target} TYPE)
  if(_type STREQUAL "INTERFACE_LIBRARY")
    set(_scope INTERFACE)
  else()
    set(_scope PUBLIC)
    target_compile_options(${target} PRIVATE
      $<$<COMPILE_LANGUAGE:CXX>:-Wall -Wextra -Wno-unused-parameter>)
  endif()
  target_include_directories(${target} ${_scope}
    $<BUILD_INTERFACE:${PROJECT_SOURCE_DIR}>
    $<BUILD_INTERFACE:${PROJECT_SOURCE_DIR}/include>
    $<BUILD_INTERFACE:${MGBLAS_GENERATED_DIR}>
    $<INSTALL_INTERFACE:${CMAKE_INSTALL_INCLUDEDIR}>)
  target_compile_features(${target} ${_scope} cxx_std_20)
  set_property(GLOBAL APPEND PROPERTY MGBLAS_EXPORTED_TARGETS ${target})
endfunction()

# The --type argument (comma separated) of the precisions in `wanted` that this build
# has (MGBLAS_PRECISIONS), so that tests and examples ask only for compiled precisions;
# empty when none is.
function(mgblas_type_arg out wanted)
  set(_types "")
  foreach(_p IN LISTS wanted)
    if(_p IN_LIST MGBLAS_ENABLED_PRECISIONS)
      list(APPEND _types ${_p})
    endif()
  endforeach()
  string(REPLACE ";" "," _types "${_types}")
  set(${out} "${_types}" PARENT_SCOPE)
endfunction()
