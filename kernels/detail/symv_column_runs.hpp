// SPDX-License-Identifier: BSD-3-Clause
// SYMV/HEMV over a device's columns with an engine's own symv and gemv (private): the
// host engine's symv_columns, and the "engine" form of the CUDA one (per-device entry
// symv_columns, SymvColumns::Engine), which call it with their own products.
#pragma once

#include <cstdint>

#include "core/types.hpp"
#include "layouts/local_columns.hpp"

namespace mgblas::kernels::detail {

/// For each run of `cols` contiguous in the global matrix (global [c0, c0 + w), local
/// [jl, jl + w)): diag(c0, jl, w) for the product with the run's diagonal block, then,
/// where the stored triangle has rows beside the block (h > 0 rows from r0: below for
/// Lower, above for Upper), panel(r0, h, jl, c0, w) for the panel's product as itself
/// (rows r0.., reading x at the run) and mirrored (the run's rows, reading x at r0..),
/// so every stored entry is read once.
template <typename Diag, typename Panel>
void symv_column_runs(Uplo uplo, int64_t n, int64_t off, const LocalColumns& cols, Diag&& diag,
                      Panel&& panel) {
  const bool lower = uplo == Uplo::Lower;
  for_each_column_run(cols, [&](int64_t jl, int64_t c0, int64_t w) {
    diag(c0, jl, w);
    const int64_t r0 = lower ? c0 + w : off;
    const int64_t h = lower ? n - c0 - w : c0 - off;
    if (h > 0) panel(r0, h, jl, c0, w);
  });
}

}  // namespace mgblas::kernels::detail
