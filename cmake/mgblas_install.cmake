# SPDX-License-Identifier: BSD-3-Clause
# Install the libraries, the headers (mirroring the source tree under include/mgblas)
# and a package config so that find_package(mgblas) gives mgblas::mgblas.
include(CMakePackageConfigHelpers)
get_property(_targets GLOBAL PROPERTY MGBLAS_EXPORTED_TARGETS)
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
