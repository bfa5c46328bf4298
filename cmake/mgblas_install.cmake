# SPDX-License-Identifier: BSD-3-Clause
# Install the libraries, the headers (mirroring the source tree under include/mgblas)
# and a package config so that find_package(mgblas) gives mgblas::mgblas.
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
foreach(_dir core layouts kernels dist)
  install(DIRECTORY ${_dir}/ DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/mgblas/${_dir}
          FILES_MATCHING PATTERN "*.hpp" PATTERN "*.h" PATTERN "*.cuh"
          PATTERN "detail" EXCLUDE)
endforeach()
install(DIRECTORY ${MGBLAS_GENERATED_DIR}/ DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/mgblas
        FILES_MATCHING PATTERN "core/*.hpp")
install(FILES ${MGBLAS_GENERATED_DIR}/mgblas/mgblas.hpp ${MGBLAS_GENERATED_DIR}/mgblas/mgblas.h
        DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/mgblas)

set(_cmakedir ${CMAKE_INSTALL_LIBDIR}/cmake/mgblas)
install(EXPORT mgblasTargets NAMESPACE mgblas:: DESTINATION ${_cmakedir})
export(EXPORT mgblasTargets NAMESPACE mgblas:: FILE ${PROJECT_BINARY_DIR}/mgblasTargets.cmake)
configure_package_config_file(cmake/mgblasConfig.cmake.in
  ${PROJECT_BINARY_DIR}/mgblasConfig.cmake INSTALL_DESTINATION ${_cmakedir})
write_basic_package_version_file(${PROJECT_BINARY_DIR}/mgblasConfigVersion.cmake
  COMPATIBILITY SameMinorVersion)
install(FILES ${PROJECT_BINARY_DIR}/mgblasConfig.cmake ${PROJECT_BINARY_DIR}/mgblasConfigVersion.cmake
        cmake/FindNCCL.cmake cmake/FindHWLOC.cmake cmake/FindCBLAS.cmake
        DESTINATION ${_cmakedir})

# pkg-config (mgblas.pc) for builds outside CMake: the libraries in link order, and for
# static builds their dependencies as Libs.private (pkg-config --static).
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
foreach(_dir ${MPI_CXX_INCLUDE_DIRS})
  string(APPEND MGBLAS_PC_CFLAGS " -I${_dir}")
endforeach()
set(_pc_private ${MPI_CXX_LIBRARIES} ${LAPACKE_LIBRARY} ${CBLAS_LIBRARY})
if(LAPACK_LIBRARY)
  list(APPEND _pc_private ${LAPACK_LIBRARY})
endif()
if(MGBLAS_ENABLE_HWLOC)
  list(APPEND _pc_private ${HWLOC_LIBRARY})
endif()
if(MGBLAS_ENABLE_CUDA)
  if(MGBLAS_ENABLE_NCCL)
    list(APPEND _pc_private ${NCCL_LIBRARY})
  endif()
  list(APPEND _pc_private -L${CUDAToolkit_LIBRARY_DIR} -lcublas -lcudart)
endif()
list(APPEND _pc_private -fopenmp -lpthread -lstdc++ -lm)
list(JOIN _pc_private " " MGBLAS_PC_LIBS_PRIVATE)
configure_file(cmake/mgblas.pc.in ${PROJECT_BINARY_DIR}/mgblas.pc @ONLY)
install(FILES ${PROJECT_BINARY_DIR}/mgblas.pc DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig)
