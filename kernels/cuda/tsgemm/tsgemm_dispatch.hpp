// SPDX-License-Identifier: BSD-3-Clause
// The tall-skinny GEMM engine's tuning tables (private; schema and loader in
// common/tuning_table.hpp, shipped tables in tsgemm/tables/): per kernel, precision and
// class of the small dimension, whether cuBLAS runs outright (measured faster than the
// model's choice) or the fraction of the read bandwidth cuBLAS reaches there, which the
// dispatcher (choose in tsgemm_launch.cuh) holds against the model's best tuning set.
#pragma once

#include <cstdint>

#include "kernels/cuda/tsgemm/tsgemm.hpp"

namespace mgblas::kernels::cuda::tsm2 {

struct CublasRule {
  bool found = false;         ///< a table has an entry for this class
  bool cublas = false;        ///< cuBLAS outright (measured faster than the model's choice)
  double fraction = 0;        ///< cuBLAS's share of the read bandwidth; 0: not known
};

/// The rule for kernel e (Tsm2r, Tsm2l, Tsmttsm) and precision prec ('s', 'd', 'c', 'z')
/// whose small dimension (n for TSM2R, max(k, n) for TSM2L, max(m, n) for A^H B) is
/// `small`, on compute capability cc: the first entry by the tables' one rule
/// (common/table_match.hpp; bound max_small), so a table's classes go in ascending
/// max_small; none: found == false (the model alone). Host only: the tests call it
/// without a GPU.
CublasRule cublas_rule(int cc, char prec, Engine e, int64_t small);

}  // namespace mgblas::kernels::cuda::tsm2
