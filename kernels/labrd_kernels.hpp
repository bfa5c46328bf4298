// SPDX-License-Identifier: BSD-3-Clause
// The per-device steps of the bidiagonal reduction's panel (LAPACK's DLABRD / ZLABRD) on
// the device's own copies: everything of a column except the two large matrix-vector
// products (A^H v and A u, the engines' gemv) and the all-reduce between devices. The
// distributed driver (dist/lapack/gebrd_mgpu.cpp) runs them on every device; a column
// is two column launches, one row launch and one finish launch besides the products, and
// no step waits for the host.
//
// Names (the driver's; all column-major):
//   P   the panel's copy, rows from the reflector's first row; column j is being reduced
//   X   the panel's X (rows as P), Y the panel's Y and Ut = U^H the panel's row
//       reflectors, both with one row per local column of A (ld ldy)
//   row the current row of A on this device's columns, stride lda
// The fused row step (labrd_fused) replaces "A^H v, the row step, A u" by one read of
// A's columns: see its declaration.
// Scalars read or written (beta, tau, the row's sums) are device memory. Every device
// computes the same bits from the same inputs (fixed summation order), which the driver
// relies on: each forms the panel's column reflectors itself.
#pragma once

#include <cstddef>
#include <cstdint>

#include "kernels/detail/dispatch.hpp"
#include "kernels/kernel_declaration.hpp"

namespace mgblas::kernels {
/// Scratch bytes per device the steps need (counters, block partial sums and the fused
/// step's per-slice shares of A r).
inline constexpr std::size_t kLabrdWorkBytes = std::size_t{16} << 20;
/// Widest panel the steps take (a column's corrections reach 2 x 64 - 1 products).
inline constexpr int64_t kLabrdMaxPanel = 64;

/// Where the row step puts its results, and the finish step reads them after the sum over
/// the devices: offsets into one buffer `sums` for a row with m1 entries of A u below it,
/// jy columns of Y and ju of Ut in its corrections.
struct LabrdSums {
  int64_t m1 = 0, jy = 0, ju = 0;
  MGBLAS_HD int64_t z() const { return 0; }                    ///< A u's share (written by the gemv)
  MGBLAS_HD int64_t q1() const { return m1; }                  ///< Y^H r (jy)
  MGBLAS_HD int64_t q2() const { return m1 + jy; }             ///< U r (ju)
  /// |r|^2 as the three sums of kernels/detail/safe_reflector.hpp (small, medium, big
  /// entries; real parts of kSumSquares entries), added over the devices like the rest.
  MGBLAS_HD int64_t ss() const { return q2() + ju; }
  MGBLAS_HD int64_t alpha() const { return ss() + kSumSquares; }  ///< the head entry (its owner only)
  MGBLAS_HD int64_t a1() const { return alpha() + 1; }         ///< the head column below the row (m1)
  MGBLAS_HD int64_t y1() const { return a1() + m1; }           ///< conj(Y(head, 0:jy))
  MGBLAS_HD int64_t u1() const { return y1() + jy; }           ///< U(0:ju, head)
  MGBLAS_HD int64_t size() const { return u1() + ju; }
  /// Largest size() for m rows and panels of kb columns.
  static int64_t capacity(int64_t m, int64_t kb) { return 2 * m + 4 * kb + 1 + kSumSquares; }
  static constexpr int64_t kSumSquares = 3;
};
}  // namespace mgblas::kernels

// Column j of the panel, rows [0, mr) of P (column j at P + j ldp, a = that column):
//   a -= P(:, 0:j) ycoef[0:j] + X(:, 0:jx) ucoef[0:jx]       (the panel's earlier steps)
//   H = I - tau v v^H with H^H a = (beta, 0): *beta_out, *tau_out, a = v (a(0) = 1)
//   s[0:j] = P(:, 0:j)^H v, s[j:j+jx] = X(:, 0:jx)^H v        (Y's corrections)
// (LAPACK ?larfg's scalars with its safeguards: kernels/detail/safe_reflector.hpp.)
#define MGBLAS_DECLARE_LABRD_COLUMN_KERNEL(T)                                                   \
  void labrd_column(const Device& dev, cudaStream_t stream, int64_t mr, int64_t j, int64_t jx,  \
                    T* P, int64_t ldp, const T* X, int64_t ldx, const T* ycoef,                 \
                    const T* ucoef, real_type_t<T>* beta_out, T* tau_out, T* s, void* work)

// The row step over nq local columns (Y, Ut rows and `row` entries from the first of
// them), in order:
//  1. when fix >= 0, Y's column `fix` (raw A^H v from the gemv) finished:
//     Y(q, fix) = *tau_y (Y(q, fix) - Y(q, 0:fix) s[0:fix] - Ut(q, 0:jxf) s[fix:fix+jxf]);
//  2. when S.jy + S.ju >= 0 (a row to update; nq may be 0): r_q = conj(row_q)
//     - Y(q, 0:jy) conj(vrow[l ldv]) - Ut(q, 0:ju) conj(xrow[l ldxr]); row_q = r_q (the
//     row is kept conjugated until the finish step);
//     then, over the columns q >= head (1 when this device owns the head column, which is
//     then its first, else 0): sums[q1] = Y^H r, sums[q2] = Ut^H r, sums[ss] = |r|^2;
//     the head's owner also writes sums[alpha] = r_0, sums[a1] = a1[0:m1], sums[y1] =
//     conj(Y(0, 0:jy)), sums[u1] = conj(Ut(0, 0:ju)); the others zeros there.
// sums[z] is left to the gemv. `do_row` false: step 1 only.
#define MGBLAS_DECLARE_LABRD_ROW_KERNEL(T)                                                      \
  void labrd_row(const Device& dev, cudaStream_t stream, int64_t nq, T* Y, T* Ut, int64_t ldy,  \
                 int64_t fix, int64_t jxf, const T* s, const T* tau_y, bool do_row,             \
                 mgblas::kernels::LabrdSums S, const T* vrow, int64_t ldv, const T* xrow,        \
                 int64_t ldxr, T* row, int64_t lda, bool owns_head, const T* a1, T* sums,       \
                 void* work)

// After the sum of the devices' `sums`: G = I - tau u u^H from (alpha, |r|^2):
// *beta_out, *tau_out; coef[0:jy] = y1, coef[jy0:jy0+ju+1] = (u1, 1) (the next column's
// update coefficients, jy0 = the panel's width + 1); the panel's column of X,
//   x = tau (a1 + sc z - P(:, 0:jy) (y1 + sc q1) - X(:, 0:ju) (u1 + sc q2)),  sc = 1/(alpha - beta)
// over m1 rows (P, X from the row below the current one); and this device's nq row
// entries: u_q = 1 for the head (its owner), sc r_q beyond it; Ut(q, j) = u_q, row_q =
// conj(u_q) (the row as LAPACK stores it). `head` null when this device does not own it.
#define MGBLAS_DECLARE_LABRD_FINISH_KERNEL(T)                                                   \
  void labrd_finish(const Device& dev, cudaStream_t stream, mgblas::kernels::LabrdSums S,       \
                    const T* sums, real_type_t<T>* beta_out, T* tau_out, T* coef, int64_t jy0,  \
                    const T* P, int64_t ldp, T* X, int64_t ldx, T* x, int64_t nq, bool owns_head, \
                    T* row, int64_t lda, T* ut_col)

// The row step with both of its large products, in one read of the nq local columns of
// A(c:c+md, :) (md = S.m1 + 1 rows from the row c being updated; `row` = A(c, first of
// them), stride lda; the Y column finished is fix = S.jy - 1, with the Ut columns of
// S.ju):
//   1. Y(q, fix) = *tau_y (A(c:c+md, q)^H v - Y(q, 0:fix) s[0:fix] - Ut(q, 0:ju) s[fix:])
//      (v: md entries, the column reflector whose product this is);
//   2. the row's update, its sums and the head's entries exactly as labrd_row step 2;
//   3. sums[z] = A(c+1:c+md, q0:nq) r (q0 = 1 when this device owns the head column),
//      which labrd_row leaves to a separate gemv.
// Each column of A is read once for A^H v and A r together: r_q needs only column q's
// own A^H v. The CUDA engine splits a column's rows over a cluster of blocks that stage
// them in shared memory, sums its dot across the cluster, and applies r_q from the same
// stage; where it cannot (no clusters before sm_90, md beyond what a cluster holds, or
// lda x sizeof(T) not a multiple of 16 bytes), it runs the gemv, labrd_row and gemv steps
// instead. Needs S.jy >= 1. The CUDA engine's copies start on 16-byte boundaries, so it
// also reads (and ignores) the up to 3 entries just above `row` in each column: A's
// columns must start on 16-byte boundaries (a DistMatrix's start on 128).
#define MGBLAS_DECLARE_LABRD_FUSED_KERNEL(T)                                                    \
  void labrd_fused(const Device& dev, cudaStream_t stream, int64_t nq, const T* v, T* Y,        \
                   const T* Ut, int64_t ldy, const T* s, const T* tau_y,                        \
                   mgblas::kernels::LabrdSums S, const T* vrow, int64_t ldv, const T* xrow,     \
                   int64_t ldxr, T* row, int64_t lda, bool owns_head, T* sums, void* work)

// The finished panel's column reflectors back into the owner's storage: A(l+1:m, l) =
// P(l+1:m, l) for l < b (the strictly lower trapezoid; the rows above hold the row
// reflectors, which the driver kept in A itself).
#define MGBLAS_DECLARE_LABRD_STORE_KERNEL(T)                                                \
  void labrd_store(const Device& dev, cudaStream_t stream, int64_t m, int64_t b, const T* P,  \
                   int64_t ldp, T* A, int64_t lda)

// dst[i * inc] = src[i] for i < n: d or e onto a diagonal of A (inc = lda + 1).
#define MGBLAS_DECLARE_LABRD_PUT_KERNEL(T)                                                 \
  void labrd_put(const Device& dev, cudaStream_t stream, int64_t n, const real_type_t<T>* src, \
                 T* dst, int64_t inc)

MGBLAS_DECLARE_FOR_BACKENDS(MGBLAS_DECLARE_LABRD_COLUMN_KERNEL)
MGBLAS_DECLARE_FOR_BACKENDS(MGBLAS_DECLARE_LABRD_ROW_KERNEL)
MGBLAS_DECLARE_FOR_BACKENDS(MGBLAS_DECLARE_LABRD_FUSED_KERNEL)
MGBLAS_DECLARE_FOR_BACKENDS(MGBLAS_DECLARE_LABRD_FINISH_KERNEL)
MGBLAS_DECLARE_FOR_BACKENDS(MGBLAS_DECLARE_LABRD_STORE_KERNEL)
MGBLAS_DECLARE_FOR_BACKENDS(MGBLAS_DECLARE_LABRD_PUT_KERNEL)

// The steps on the engine of a queue's device (arguments as above, not validated: the
// driver has checked them).
namespace mgblas::kernels {
template <Scalar T>
void labrd_column(const Queue& q, int64_t mr, int64_t j, int64_t jx, T* P, int64_t ldp,
                  const T* X, int64_t ldx, const T* ycoef, const T* ucoef,
                  real_type_t<T>* beta_out, T* tau_out, T* s, void* work) {
  MGBLAS_DISPATCH(q, labrd_column, mr, j, jx, P, ldp, X, ldx, ycoef, ucoef, beta_out, tau_out, s,
                  work);
}
template <Scalar T>
void labrd_row(const Queue& q, int64_t nq, T* Y, T* Ut, int64_t ldy, int64_t fix, int64_t jxf,
               const T* s, const T* tau_y, bool do_row, LabrdSums S, const T* vrow, int64_t ldv,
               const T* xrow, int64_t ldxr, T* row, int64_t lda, bool owns_head, const T* a1,
               T* sums, void* work) {
  MGBLAS_DISPATCH(q, labrd_row, nq, Y, Ut, ldy, fix, jxf, s, tau_y, do_row, S, vrow, ldv, xrow,
                  ldxr, row, lda, owns_head, a1, sums, work);
}
template <Scalar T>
void labrd_fused(const Queue& q, int64_t nq, const T* v, T* Y, const T* Ut, int64_t ldy,
                 const T* s, const T* tau_y, LabrdSums S, const T* vrow, int64_t ldv,
                 const T* xrow, int64_t ldxr, T* row, int64_t lda, bool owns_head, T* sums,
                 void* work) {
  MGBLAS_DISPATCH(q, labrd_fused, nq, v, Y, Ut, ldy, s, tau_y, S, vrow, ldv, xrow, ldxr, row, lda,
                  owns_head, sums, work);
}
template <Scalar T>
void labrd_finish(const Queue& q, LabrdSums S, const T* sums, real_type_t<T>* beta_out,
                  T* tau_out, T* coef, int64_t jy0, const T* P, int64_t ldp, T* X, int64_t ldx,
                  T* x, int64_t nq, bool owns_head, T* row, int64_t lda, T* ut_col) {
  MGBLAS_DISPATCH(q, labrd_finish, S, sums, beta_out, tau_out, coef, jy0, P, ldp, X, ldx, x, nq,
                  owns_head, row, lda, ut_col);
}
template <Scalar T>
void labrd_store(const Queue& q, int64_t m, int64_t b, const T* P, int64_t ldp, T* A,
                 int64_t lda) {
  if (m > 1 && b > 0) MGBLAS_DISPATCH(q, labrd_store, m, b, P, ldp, A, lda);
}
template <Scalar T>
void labrd_put(const Queue& q, int64_t n, const real_type_t<T>* src, T* dst, int64_t inc) {
  if (n > 0) MGBLAS_DISPATCH(q, labrd_put, n, src, dst, inc);
}
}  // namespace mgblas::kernels
