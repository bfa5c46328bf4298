// SPDX-License-Identifier: BSD-3-Clause
#include "core/error.hpp"

#include <cstring>

namespace mgblas {

namespace {
// Keep messages short: the file name, not the build machine's absolute path.
const char* basename_of(const char* path) {
  const char* slash = std::strrchr(path, '/');
  return slash ? slash + 1 : path;
}
}  // namespace

Error::Error(const char* file, int line, const char* func, const std::string& what, int code)
    : std::runtime_error(what),
      file_(file),
      line_(line),
      func_(func),
      code_(code) {}

std::string Error::where() const {
  return detail::concat(basename_of(file_), ":", line_, " (", func_, ")");
}

}  // namespace mgblas
