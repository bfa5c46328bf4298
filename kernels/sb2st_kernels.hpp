// SPDX-License-Identifier: BSD-3-Clause
// Stage two of the two-stage tridiagonal reduction (issue 33): a Hermitian (real:
// symmetric) band matrix of half-bandwidth b reduced to real symmetric tridiagonal form by
// bulge chasing, T = Q2^H A Q2, the reflectors of Q2 kept for the back-transformation.
//
// The chase. Sweep s (0 <= s <= n - 2) removes column s below the subdiagonal; it is a
// chain of tasks k = 0, 1, ..., T_s - 1 on the rows R_k = [r_k, r_k + m_k),
// r_k = s + 1 + k b, m_k = min(b, n - r_k):
//   task 0:   H_0 from A(R_0, s) (A(r_0, s) = beta real, the rest of the column 0), then
//             A(R_0, R_0) := H_0^H A(R_0, R_0) H_0;
//   task k>0: the block A(R_k, R_{k-1}) := A(R_k, R_{k-1}) H_{k-1} (the bulge), H_k from
//             its first column (the bulge's first column to zero but its first row; the
//             identity when m_k = 1), H_k^H applied to the block's other columns, then
//             A(R_k, R_k) := H_k^H A(R_k, R_k) H_k.
// Every H = I - tau v v^H with v(0) = 1, LAPACK ?larfg's convention (H^H x = beta e_1,
// beta real). In a complex sweep task 0 is a phase even when m_0 = 1, so every
// subdiagonal entry leaves real and no separate phase vector is needed; the identity
// reflectors are stored as v = e_1, tau = 0.
// Tasks of one sweep run in order; task (s, k) may run once task (s - 1, k + 1) has
// finished (or sweep s - 1 has): every entry a task reads or writes lies in its rows R_k
// (lower storage), and the tasks (s - 1, k') still running, k' >= k + 2, have rows from
// r_k + b on. Of task (s - 1, k + 1)'s rows, starting at r_k + b - 1, task (s, k) shares
// only the first (its own last row), so it may start as soon as (s - 1, k + 1) has
// written that row (B(0, :) and D(0, 0)) and reads no more of it. That is the schedule
// the CUDA engine pipelines.
//
// Fill: the bulge reaches 2b - 1 below the diagonal inside a task and 2b - 2 between
// tasks, so the chase works on a band of leading dimension 2b (band2tri_work_ld), b taken
// as min(b, n - 1) here and below. With ldab >= 2b it chases in AB itself; otherwise the
// engine allocates the work band (n 2b elements) and copies AB into it.
//
// Host engine: the chase in plain C++ (LAPACK's ?sytrd_sb2st does not return its
// vectors). CUDA engine: one persistent kernel, a thread block per sweep at a time
// (kernels/cuda/sb2st/); unlike most CUDA kernels it waits for its stream before it
// returns (it frees its work band and progress counters). Preconditions (checked by the
// public entry, kernels/lapack.hpp band_to_tridiag): n >= 0, b >= 1, ldab >= b + 1; AB, d,
// e, V2, tau2 memory of `dev`.
#pragma once

#include <algorithm>
#include <cstdint>

#include "kernels/kernel_declaration.hpp"

namespace mgblas {

// ---- The layout of the reflectors (host and device code alike) ------------------------

/// T_s, the number of tasks of sweep s (0 for s > n - 2): tasks k with r_k <= n - 1; for
/// b = 1 only the phase (task 0) and its right application (task 1).
constexpr int64_t band2tri_tasks(int64_t n, int64_t b, int64_t s) {
  if (s > n - 2) return 0;
  const int64_t t = (n - 2 - s) / b + 1;
  return b == 1 ? std::min<int64_t>(t, 2) : t;
}

/// The tau2 stride between sweeps: T_0, the most tasks of a sweep (0 for n <= 1).
constexpr int64_t band2tri_tau2_stride(int64_t n, int64_t b) { return band2tri_tasks(n, b, 0); }

/// tau2 holds (n - 1) x band2tri_tau2_stride entries (0 for n <= 1): tau of task (s, k)
/// at tau2[s * stride + k]; the entries k >= T_s are 0.
constexpr int64_t band2tri_tau2_size(int64_t n, int64_t b) {
  return n > 1 ? (n - 1) * band2tri_tau2_stride(n, b) : 0;
}

/// Where sweep s's reflectors begin in V2: column s of the strictly lower triangle of an
/// n x n matrix, packed by columns (n - 1 - s entries, rows s + 1 .. n - 1).
constexpr int64_t band2tri_v2_sweep_offset(int64_t n, int64_t s) {
  return s * (n - 1) - s * (s - 1) / 2;
}

/// The reflector of task (s, k): v(i) = V2[band2tri_v2_offset(n, b, s, k) + i] for
/// 0 <= i < m_k = min(b, n - 1 - s - k b), v(0) = 1 stored; it acts on rows
/// s + 1 + k b + i. The sweep's tasks tile rows s + 1 .. n - 1; entries of the rows past
/// its last task (b = 1 only) are not written.
constexpr int64_t band2tri_v2_offset(int64_t n, int64_t b, int64_t s, int64_t k) {
  return band2tri_v2_sweep_offset(n, s) + k * b;
}

/// V2 holds n (n - 1) / 2 entries (0 for n <= 1).
constexpr int64_t band2tri_v2_size(int64_t n) { return n > 1 ? n * (n - 1) / 2 : 0; }

/// The leading dimension of the band the chase works on (the bulge's room): 2b.
constexpr int64_t band2tri_work_ld(int64_t b) { return 2 * b; }

}  // namespace mgblas

#define MGBLAS_SB2ST_KERNEL_PARAMS_(T)                                                   \
  (const Device& dev, cudaStream_t stream, int64_t n, int64_t b, T* AB, int64_t ldab,    \
   real_type_t<T>* d, real_type_t<T>* e, T* V2, T* tau2)

#define MGBLAS_DECLARE_SB2ST_KERNEL(T) \
  template <>                          \
  void band_to_tridiag<T> MGBLAS_SB2ST_KERNEL_PARAMS_(T)

namespace mgblas::kernels::host {
template <Scalar T>
void band_to_tridiag MGBLAS_SB2ST_KERNEL_PARAMS_(T);
}  // namespace mgblas::kernels::host
namespace mgblas::kernels::cuda {
template <Scalar T>
void band_to_tridiag MGBLAS_SB2ST_KERNEL_PARAMS_(T);
}  // namespace mgblas::kernels::cuda

MGBLAS_DECLARE_FOR_BACKENDS(MGBLAS_DECLARE_SB2ST_KERNEL)

// ---- Q2 applied to a block of vectors (the back-transformation of stage two) -----------
//
// C := op(Q2) C for Q2 = prod_s prod_k H(s, k) (s, then k, ascending) as band_to_tridiag
// returns it in V2, tau2 (the layout above), C n x m (leading dimension ldc). H(s, k) acts
// on rows s + 1 + k b .. s + k b + b; reflectors of one sweep touch disjoint rows, and
// H(s', k') with s' > s shares rows with H(s, k) only if k' <= k (k' in {k - 1, k} when
// s' < s + b). So for any run of consecutive sweeps s0 .. s0 + L - 1, applying for k = 0,
// 1, ...: H(s0 + L - 1, k), ..., H(s0, k) reorders Q2's product only across commuting
// pairs. With L = nbs that is the block form G(g, k) = H(s0, k) ... H(s0 + nbs - 1, k) =
// I - V T V^H (V (b + nbs - 1) x nbs, column j starting j rows down) and
// Q2 = prod_g [G(g, K) ... G(g, 1) G(g, 0)]: Q2 C applies the last group first and, within
// a group, k = 0 first; op C the reverse order with T^H. (For nbs = b the blocks G(g, k)
// with equal k + (G - 1 - g), G groups, touch disjoint rows.) Host engine: one reflector
// at a time, sweeps from the last (op C: the first). CUDA engine (kernels/cuda/sb2st/
// apply_q.cuh): windows of L sweeps, each column's window rows in registers, reflector
// by reflector; in double with b <= 32 the blocks G(g, k) with nbs = 32 on tensor cores
// (apply_q_mma.cuh). It waits for its stream before it returns (it frees its packed steps).
// Preconditions (checked by kernels/lapack.hpp band_to_tridiag_apply_q): n >= 0,
// b >= 1, m >= 0, ldc >= max(1, n); V2, tau2, C memory of `dev`.
#define MGBLAS_SB2ST_APPLY_Q_KERNEL_PARAMS_(T)                                           \
  (const Device& dev, cudaStream_t stream, Op op, int64_t n, int64_t b, const T* V2,     \
   const T* tau2, int64_t m, T* C, int64_t ldc)

#define MGBLAS_DECLARE_SB2ST_APPLY_Q_KERNEL(T) \
  template <>                                  \
  void band_to_tridiag_apply_q<T> MGBLAS_SB2ST_APPLY_Q_KERNEL_PARAMS_(T)

namespace mgblas::kernels::host {
template <Scalar T>
void band_to_tridiag_apply_q MGBLAS_SB2ST_APPLY_Q_KERNEL_PARAMS_(T);
}  // namespace mgblas::kernels::host
namespace mgblas::kernels::cuda {
template <Scalar T>
void band_to_tridiag_apply_q MGBLAS_SB2ST_APPLY_Q_KERNEL_PARAMS_(T);
}  // namespace mgblas::kernels::cuda

MGBLAS_DECLARE_FOR_BACKENDS(MGBLAS_DECLARE_SB2ST_APPLY_Q_KERNEL)
