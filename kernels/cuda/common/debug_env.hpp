// SPDX-License-Identifier: BSD-3-Clause
// The CUDA kernels' debug overrides (private), read from the environment in this one
// place (debug_env.cpp) and listed in docs/environment.md. They exist for tests and
// comparisons, not for tuning: none of them is in a tuning table. Each is read at every
// call, so a test may set and unset one between calls.
#pragma once

#include <cstdint>
#include <optional>

namespace mgblas::kernels::cuda::common {

/// MGBLAS_LATRD_STEP_BLOCKS: the latrd step's grid capped at this many blocks (the
/// caller clamps it to [1, its limit]), so that small panels run the loops over several
/// tiles per block; the integer value (atoi) where set, nullopt where not.
std::optional<int> latrd_step_blocks_override();

/// MGBLAS_LATRD_NO_COOP: set (any value): the latrd step runs as separate launches
/// instead of the cooperative one, for comparison.
bool latrd_no_coop_override();

/// MGBLAS_PANEL_QR_CUSOLVER: set (any value): the engine's geqrf runs on cuSOLVER even
/// where its one-kernel panel QR (kernels/cuda/sy2sb/panel_qr.cuh) fits, for comparison.
bool panel_qr_cusolver_override();

/// MGBLAS_PANEL_QR_SLAB: the fewest rows a block of the one-kernel panel QR takes (its
/// grid is then at most m / this many blocks, and one per SM), for comparisons; nullopt
/// where unset or empty, BadArgument unless in [1, 65536].
std::optional<int64_t> panel_qr_slab_override();

/// MGBLAS_STEBZ_POINTS: points per eigenvalue of the bisection (1, 2, 4, 8, 16 or 32;
/// BadArgument otherwise); nullopt where unset or empty.
std::optional<int> stebz_points_override();

/// MGBLAS_STEBZ_SLICE: whether the GPU bisection slices the spectrum first ("1") or not
/// ("0"; BadArgument otherwise); nullopt where unset or empty (kernels/cuda/stebz/stebz.cu
/// decides by the number of eigenvalues).
std::optional<bool> stebz_slice_override();

/// MGBLAS_STEBZ_DC: whether the CUDA engine's tridiag_eigenvalues takes a window of more
/// than half the spectrum from the divide and conquer without vectors ("1") or bisects
/// ("0"; BadArgument otherwise); nullopt where unset or empty (kernels/cuda/stebz/stebz.cu
/// decides by the number of eigenvalues).
std::optional<bool> stebz_dc_override();

/// MGBLAS_SYMM_SKINNY: "0" sends the symmetric (float) and Hermitian (complex float)
/// products with 17-32 columns back to cuBLAS's SSYMM / CHEMM, "1" keeps them on
/// kernels/cuda/gemm/skinny.cu (BadArgument otherwise); nullopt where unset or empty (the
/// kernels).
std::optional<bool> symm_skinny_override();

/// MGBLAS_STEDC_TRACE: set (any value): the divide and conquer waits for the GPU after
/// each step of each level and prints the steps' times to stderr, for measurements.
bool stedc_trace();

/// MGBLAS_SB2ST_APPLY_Q: the kernel of the CUDA engine's Q2 application
/// (kernels/cuda/sb2st/apply_q.cuh), for comparisons: "generic" (one warp per column,
/// every band), "mma" (blocks on FP64 tensor cores, apply_q_mma.cuh: double, bands <= 32),
/// "mma-ring" (the same with the tile in shared memory also at band 32) or
/// "<sweeps>x<lanes>[x<group>]" (the built register shape of those numbers with the smallest band
/// serving the call's; BadArgument at the call where none does). nullopt where unset or empty;
/// BadArgument for any other value.
struct ApplyQChoice {
  bool generic = false;
  bool mma = false;
  bool ring = false;                     ///< mma-ring
  int sweeps = 0, lanes = 0, group = 0;  ///< group 0: any
};
std::optional<ApplyQChoice> sb2st_apply_q_override();

/// MGBLAS_SB2ST_APPLY_Q_PACK_BYTES: the cap on the packed reflectors of one call of the
/// Q2 application (one window is packed whatever the cap), so that tests run several
/// chunks on small matrices; nullopt where unset or empty, BadArgument unless > 0.
std::optional<int64_t> sb2st_apply_q_pack_bytes_override();

}  // namespace mgblas::kernels::cuda::common
