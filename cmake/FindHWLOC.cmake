# SPDX-License-Identifier: BSD-3-Clause
# Finds hwloc (pkg-config first, then a plain search). Defines HWLOC_FOUND and HWLOC::hwloc.
include(FindPackageHandleStandardArgs)
find_package(PkgConfig QUIET)
if(PKG_CONFIG_FOUND)
  pkg_check_modules(PC_HWLOC QUIET hwloc)
endif()
find_path(HWLOC_INCLUDE_DIR hwloc.h HINTS ${HWLOC_ROOT} $ENV{HWLOC_ROOT} ${PC_HWLOC_INCLUDE_DIRS}
          PATH_SUFFIXES include)
find_library(HWLOC_LIBRARY hwloc HINTS ${HWLOC_ROOT} $ENV{HWLOC_ROOT} ${PC_HWLOC_LIBRARY_DIRS}
             PATH_SUFFIXES lib lib64)
set(HWLOC_VERSION "${PC_HWLOC_VERSION}")
find_package_handle_standard_args(HWLOC REQUIRED_VARS HWLOC_LIBRARY HWLOC_INCLUDE_DIR
                                  VERSION_VAR HWLOC_VERSION)
if(HWLOC_FOUND AND NOT TARGET HWLOC::hwloc)
  add_library(HWLOC::hwloc UNKNOWN IMPORTED)
  set_target_properties(HWLOC::hwloc PROPERTIES IMPORTED_LOCATION "${HWLOC_LIBRARY}"
                        INTERFACE_INCLUDE_DIRECTORIES "${HWLOC_INCLUDE_DIR}")
endif()
mark_as_advanced(HWLOC_INCLUDE_DIR HWLOC_LIBRARY)
