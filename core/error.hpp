// SPDX-License-Identifier: BSD-3-Clause
// The exception hierarchy of mgblas and the macros that raise it.
//
// Every error carries its message (what(): the failing call or argument, its value and
// the rule, for the user), where it was raised (where(): file, line and function, a
// debugging detail kept out of the message), and the raw code of the library that
// failed. The C API maps each class to a status code (see include/mgblas/mgblas.h).
#pragma once

#include <sstream>
#include <stdexcept>
#include <string>

namespace mgblas {

class Error : public std::runtime_error {
 public:
  Error(const char* file, int line, const char* func, const std::string& what, int code = 0);
  const char* file() const noexcept { return file_; }
  int line() const noexcept { return line_; }
  const char* function() const noexcept { return func_; }
  /// "file.cpp:123 (function)": where the error was raised, for bug reports.
  std::string where() const;
  /// Raw code of the failing library call (cudaError_t, cublasStatus_t, ncclResult_t,
  /// MPI error class); 0 where there is none.
  int code() const noexcept { return code_; }

 private:
  const char* file_;
  int line_;
  const char* func_;
  int code_;
};

#define MGBLAS_DEFINE_ERROR(Name)                                          \
  class Name : public Error {                                              \
   public:                                                                 \
    using Error::Error;                                                    \
  };

MGBLAS_DEFINE_ERROR(CudaError)
MGBLAS_DEFINE_ERROR(CublasError)
MGBLAS_DEFINE_ERROR(NcclError)
MGBLAS_DEFINE_ERROR(MpiError)
MGBLAS_DEFINE_ERROR(HwlocError)
/// An argument is out of its domain (negative size, ld < m, null pointer, ...).
MGBLAS_DEFINE_ERROR(BadArgument)
/// Operands disagree (layouts of A and the context, vector lengths, ...).
MGBLAS_DEFINE_ERROR(DimensionMismatch)
/// The feature exists but this build lacks it (CUDA, MPI, NCCL off).
MGBLAS_DEFINE_ERROR(NotCompiled)
/// The combination of options is not implemented.
MGBLAS_DEFINE_ERROR(NotImplemented)
/// Another rank or device failed; raised on the ranks that did not fail themselves.
MGBLAS_DEFINE_ERROR(RemoteError)
/// An allocation failed (the message names the bytes and the device).
MGBLAS_DEFINE_ERROR(AllocationError)
/// The other ranks did not join a collective in time (MGBLAS_COMM_TIMEOUT).
MGBLAS_DEFINE_ERROR(Timeout)
#undef MGBLAS_DEFINE_ERROR

namespace detail {
template <typename... Args>
std::string concat(const Args&... args) {
  std::ostringstream os;
  (os << ... << args);
  return os.str();
}
}  // namespace detail

}  // namespace mgblas

/// Raise ErrorType with a message assembled from the remaining arguments.
#define MGBLAS_THROW(ErrorType, ...) \
  throw ErrorType(__FILE__, __LINE__, __func__, ::mgblas::detail::concat(__VA_ARGS__))

/// Argument check at a public entry: names the argument, its value and the rule.
///   MGBLAS_CHECK_ARG(lda >= std::max<int64_t>(1, m), "lda", lda, ">= max(1, m) = ", max(1,m));
#define MGBLAS_CHECK_ARG(cond, name, value, ...)                                        \
  do {                                                                                  \
    if (!(cond))                                                                        \
      MGBLAS_THROW(::mgblas::BadArgument, "argument '", name, "' = ", value, ": must be ", \
                   __VA_ARGS__);                                                        \
  } while (0)

/// Argument check for pointers: null is only allowed when nothing is read or written.
#define MGBLAS_CHECK_PTR(ptr, name, needed)                                             \
  do {                                                                                  \
    if ((needed) && (ptr) == nullptr)                                                   \
      MGBLAS_THROW(::mgblas::BadArgument, "argument '", name,                           \
                   "' is a null pointer but must be readable/writable for these sizes"); \
  } while (0)
