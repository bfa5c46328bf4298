// SPDX-License-Identifier: BSD-3-Clause
// MGBLAS_CHECK_MPI: turns an MPI error code (communicators use MPI_ERRORS_RETURN)
// into an MpiError naming the call, the rank and MPI's own text.
#pragma once

#include <mpi.h>

#include "core/error.hpp"

namespace mgblas::detail {
inline std::string mpi_error_text(int code) {
  char text[MPI_MAX_ERROR_STRING] = {};
  int len = 0;
  if (MPI_Error_string(code, text, &len) != MPI_SUCCESS) return "unknown MPI error";
  return std::string(text, len);
}
inline int world_rank_or_minus_one() noexcept {
  int init = 0, fin = 0, r = -1;
  MPI_Initialized(&init);
  MPI_Finalized(&fin);
  if (init && !fin) MPI_Comm_rank(MPI_COMM_WORLD, &r);
  return r;
}
}  // namespace mgblas::detail

#define MGBLAS_CHECK_MPI(expr)                                                            \
  do {                                                                                    \
    const int mgblas_mpi_ = (expr);                                                       \
    if (mgblas_mpi_ != MPI_SUCCESS)                                                       \
      throw ::mgblas::MpiError(__FILE__, __LINE__, __func__,                              \
                               ::mgblas::detail::concat(#expr, " failed on rank ",        \
                                   ::mgblas::detail::world_rank_or_minus_one(), ": ",     \
                                   ::mgblas::detail::mpi_error_text(mgblas_mpi_)),        \
                               mgblas_mpi_);                                              \
  } while (0)
