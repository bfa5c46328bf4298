# SPDX-License-Identifier: BSD-3-Clause
# Install the libraries, the public headers under <prefix>/include/mgblas and a package
# config so that find_package(mgblas) gives mgblas::mgblas.
include(CMakePackageConfigHelpers)
get_property(_targets GLOBAL PROPERTY MGBLAS_EXPORTED_TARGETS)
# Shared libraries find each other in the directory they are installed in.
if(BUILD_SHARED_LIBS)
  set_target_properties(${_targets} PROPERTIES INSTALL_RPATH "$ORIGIN")
endif()
install(TARGETS ${_targets} mgblas EXPORT mgblasTargets
        ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
        LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
        RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
# Every installed library (the C API, the Fortran module where built, and below), for a
# build that installs its libraries alone (.ci/mgblas.sh, python/ci_test.sh).
add_custom_target(mgblas_libraries)
add_dependencies(mgblas_libraries ${_targets})

# The public headers are what include/mgblas/mgblas.hpp and mgblas.h include, followed
# through their quoted includes: nothing else (no engine internals, no detail/) is
# installed. In the tree the headers include each other root-relatively
# ("core/types.hpp"); the installed copies say <mgblas/core/types.hpp> instead, so a
# consumer's include path holds <prefix>/include only and no generic names. The copies
# are rewritten here at configure time (a public header's edit re-runs configure).
set(_public_dir ${PROJECT_BINARY_DIR}/public-include/mgblas)
file(REMOVE_RECURSE ${_public_dir})
set(_pending mgblas/mgblas.hpp mgblas/mgblas.h)
set(_public "")
while(_pending)
  list(POP_FRONT _pending _rel)
  if(_rel IN_LIST _public)
    continue()
  endif()
  list(APPEND _public ${_rel})
  set(_src "")
  foreach(_root ${PROJECT_SOURCE_DIR}/include ${MGBLAS_GENERATED_DIR} ${PROJECT_SOURCE_DIR})
    if(EXISTS ${_root}/${_rel})
      set(_src ${_root}/${_rel})
      break()
    endif()
  endforeach()
  if(NOT _src)
    message(FATAL_ERROR "public header ${_rel}: not found")
  endif()
  if(_rel MATCHES "(^|/)(detail|cuda)/")
    message(FATAL_ERROR "public header ${_rel}: engine internals must not be installed "
                        "(a public header includes it)")
  endif()
  set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS ${_src})
  file(READ ${_src} _text)
  string(REGEX MATCHALL "#[ \t]*include[ \t]+\"[^\"]+\"" _includes "${_text}")
  foreach(_inc IN LISTS _includes)
    string(REGEX REPLACE ".*\"([^\"]+)\"" "\\1" _inc "${_inc}")
    list(APPEND _pending ${_inc})
  endforeach()
  string(REGEX REPLACE "(#[ \t]*include[ \t]+)\"([^\"]+)\"" "\\1<mgblas/\\2>" _text "${_text}")
  string(REGEX REPLACE "^mgblas/" "" _dest ${_rel})
  file(WRITE ${_public_dir}/${_dest} "${_text}")
endwhile()
install(DIRECTORY ${_public_dir} DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})

set(_cmakedir ${CMAKE_INSTALL_LIBDIR}/cmake/mgblas)
set(MGBLAS_STATIC 1)
if(BUILD_SHARED_LIBS)
  set(MGBLAS_STATIC 0)
endif()
install(EXPORT mgblasTargets NAMESPACE mgblas:: DESTINATION ${_cmakedir})
export(EXPORT mgblasTargets NAMESPACE mgblas:: FILE ${PROJECT_BINARY_DIR}/mgblasTargets.cmake)
configure_package_config_file(cmake/mgblasConfig.cmake.in
  ${PROJECT_BINARY_DIR}/mgblasConfig.cmake INSTALL_DESTINATION ${_cmakedir})
write_basic_package_version_file(${PROJECT_BINARY_DIR}/mgblasConfigVersion.cmake
  COMPATIBILITY SameMinorVersion)
install(FILES ${PROJECT_BINARY_DIR}/mgblasConfig.cmake ${PROJECT_BINARY_DIR}/mgblasConfigVersion.cmake
        cmake/FindNCCL.cmake cmake/FindHWLOC.cmake cmake/FindCBLAS.cmake
        DESTINATION ${_cmakedir})

# pkg-config (mgblas.pc) for builds outside CMake: the libraries in link order, then
# what a plain `cc app.c $(pkg-config --cflags --libs mgblas)` needs besides: MPI's
# library (the public headers include mpi.h, and a program calls MPI_Init), and for a
# static build every dependency (no shared library carries them; in Libs, not
# Libs.private, since a static-only install has no other form to link).
set(_pc_libs "")
foreach(_lib mgblas_capi mgblas_dist mgblas_layouts mgblas_kernels mgblas_kernels_host
             mgblas_kernels_cuda mgblas_core)
  if(TARGET ${_lib})
    string(APPEND _pc_libs " -l${_lib}")
  endif()
endforeach()
string(STRIP "${_pc_libs}" MGBLAS_PC_LIBS)
set(MGBLAS_PC_RPATH "")
if(BUILD_SHARED_LIBS)
  set(MGBLAS_PC_RPATH "-Wl,-rpath,\${libdir}")
endif()
set(MGBLAS_PC_CFLAGS "")
foreach(_dir ${MPI_C_INCLUDE_DIRS})
  string(APPEND MGBLAS_PC_CFLAGS " -I${_dir}")
endforeach()
set(_pc_deps_list ${MPI_C_LIBRARIES} ${LAPACKE_LIBRARY} ${CBLAS_LIBRARY})
if(LAPACK_LIBRARY)
  list(APPEND _pc_deps_list ${LAPACK_LIBRARY})
endif()
if(MGBLAS_ENABLE_HWLOC)
  list(APPEND _pc_deps_list ${HWLOC_LIBRARY})
endif()
if(MGBLAS_ENABLE_CUDA)
  if(MGBLAS_ENABLE_NCCL)
    list(APPEND _pc_deps_list ${NCCL_LIBRARY})
  endif()
  list(APPEND _pc_deps_list -L${CUDAToolkit_LIBRARY_DIR} -lcusolver -lcublas -lcudart)
endif()
list(APPEND _pc_deps_list -fopenmp -lpthread -lstdc++ -lm)
if(BUILD_SHARED_LIBS)
  set(_pc_deps_list ${MPI_C_LIBRARIES})
endif()
list(JOIN _pc_deps_list " " _pc_deps)
string(APPEND MGBLAS_PC_LIBS " ${_pc_deps}")
configure_file(cmake/mgblas.pc.in ${PROJECT_BINARY_DIR}/mgblas.pc @ONLY)
install(FILES ${PROJECT_BINARY_DIR}/mgblas.pc DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig)
