// SPDX-License-Identifier: BSD-3-Clause
// Level-2 dispatcher: for one GEMV or SYMV/HEMV call, mgblas's kernel (which tuning
// set) or cuBLAS, from the tuning table of the device's architecture
// (level2/tables/<arch>.json, schema in common/tuning_table.hpp), the model default
// where no entry matches. Never silent: every choice carries a label that testers and
// logs print (chosen_engine).
#pragma once

#include <cstdint>

#include "core/device.hpp"
#include "core/types.hpp"

namespace mgblas::kernels::cuda::level2 {

enum class Engine : unsigned char { Mgblas, Cublas };

struct Choice {
  Engine engine = Engine::Mgblas;
  int variant = 0;            ///< tuning-set index when engine == Mgblas
  const char* label = "";     ///< static text: engine, variant and the rule that chose it
};

/// Table operations: GEMV N, GEMV T (covers C), SYMV (covers HEMV).
enum class Kind : unsigned char { GemvN, GemvT, Symv };

/// The table's choice for one shape on compute capability cc (90 = sm_90), host only:
/// the first matching entry by the tables' one rule (common/table_match.hpp: the tables
/// for that architecture, those of MGBLAS_TUNING_TABLE first, then those for any
/// architecture "*"), else the model default (mgblas's set 0). prec: 's', 'd', 'c', 'z';
/// uplo: 'L', 'U' (Symv) or '*' (GEMV); the shape as min(m, n) and max(m, n) (n, n for
/// Symv); built_variants: the tuning sets this build has of the operation (entries marked
/// "if_built" naming one beyond them are skipped).
Choice decide(int cc, char prec, Kind kind, char uplo, int64_t min_dim, int64_t max_dim,
              int built_variants);

/// The choice's label, e.g. "mgblas v0 [sm90 d gemvN n>=8192]" or "cublas [...]".
inline const char* chosen_engine(const Choice& c) noexcept { return c.label; }

/// Choice for y = alpha * op(A) * x + beta * y on an m x n (sub)matrix whose first
/// element is A (leading dimension lda), on the current device.
template <Scalar T>
Choice choose_gemv(Op op, int64_t m, int64_t n, const T* A, int64_t lda, const T* x,
                   int64_t incx, const T* y, int64_t incy);

/// Choice for symv (hermitian = false) or hemv on an n x n (sub)matrix.
template <Scalar T>
Choice choose_symv(Uplo uplo, bool hermitian, int64_t n, const T* A, int64_t lda, const T* x,
                   int64_t incx, const T* y, int64_t incy);

/// Multiprocessors and compute capability (major * 10 + minor) of the current
/// device, read once per device and cached.
int multiprocessor_count();
int compute_capability();

#define MGBLAS_LEVEL2_DISPATCH_DECLARE_(PREFIX, T)                                            \
  PREFIX template Choice choose_gemv<T>(Op, int64_t, int64_t, const T*, int64_t, const T*,    \
                                        int64_t, const T*, int64_t);                          \
  PREFIX template Choice choose_symv<T>(Uplo, bool, int64_t, const T*, int64_t, const T*,     \
                                        int64_t, const T*, int64_t);
#define MGBLAS_LEVEL2_DISPATCH_EXTERN_(T) MGBLAS_LEVEL2_DISPATCH_DECLARE_(extern, T)
MGBLAS_FOR_EACH_SCALAR(MGBLAS_LEVEL2_DISPATCH_EXTERN_)
#undef MGBLAS_LEVEL2_DISPATCH_EXTERN_

}  // namespace mgblas::kernels::cuda::level2
