// SPDX-License-Identifier: BSD-3-Clause
#include "core/error.hpp"
#include "core/types.hpp"

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

namespace detail {

void throw_precision_not_compiled(DataType t, const char* what) {
  throw NotCompiled(__FILE__, __LINE__, what,
                    concat(what, ": precision '", precision_letter(t),
                           "' is not compiled in this build of mgblas (MGBLAS_PRECISIONS = ",
                           enabled_precisions(), ")"));
}

void throw_unknown_precision(char letter, const char* what) {
  throw BadArgument(__FILE__, __LINE__, what,
                    concat(what, " '", letter, "': must be one of s, d, c, z (this build has ",
                           enabled_precisions(), ")"));
}

}  // namespace detail

}  // namespace mgblas
