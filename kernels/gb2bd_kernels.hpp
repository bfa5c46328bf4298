// SPDX-License-Identifier: BSD-3-Clause
// Stage two of the two-stage bidiagonal reduction (the SVD's): an upper-banded matrix B of
// order n with b superdiagonals reduced to real upper bidiagonal form by bulge chasing,
// Q2^H B P2 = bidiag(d, e), the reflectors of Q2 and P2 kept for the back-transformations.
//
// The chase (b taken as min(b, n - 1) here and below). Sweep s (0 <= s <= n - 2) removes
// row s beyond the superdiagonal; it is a chain of tasks k = 0, 1, ..., T_s - 1 on the
// columns C_k = [c_k, c_k + m_k), c_k = s + 1 + k b, m_k = min(b, n - c_k), and the rows
// r_k (r_0 = s, r_k = c_{k-1} for k >= 1):
//   (a) G_k from row r_k: A(r_k, C_k) G_k = (beta, 0, ..., 0) (?larfg of the conjugated
//       row), then A(r_k + 1 .. c_k + m_k - 1, C_k) := A(...) G_k; for k >= 1 this removes
//       the bulge that task k - 1's left reflector grew in row r_k and fills the block
//       A(C_k, C_k) below its diagonal;
//   (b) H_k from column c_k: H_k^H A(C_k, c_k) = (beta, 0, ..., 0), then
//       A(C_k, c_k + 1 .. min(n, c_k + m_k + b) - 1) := H_k^H A(...), which grows the
//       bulge in row c_k = r_{k+1} out to column c_k + 2b - 1.
// Task 0's betas are e(s) and d(s + 1); d(0) = Re B(0, 0): no reflector touches row 0
// from the left, so for complex T B(0, 0) is taken as real (its imaginary part is ignored;
// stage one leaves it real). Every G, H = I - tau v v^H with v(0) = 1, LAPACK ?larfg's
// convention (beta real); a complex task 0 is a phase when m_0 = 1, so every d and e
// leaves real; the reflectors of length 1 of tasks k >= 1 are the identity (v = e_1,
// tau = 0). For b = 1 every task k >= 1 would be the identity: a sweep is task 0 alone.
// Hence Q2^H B P2 = bidiag(d, e) with Q2 = prod_{s, k} H(s, k) and P2 = prod_{s, k}
// G(s, k), s then k ascending (the order of the chase): the product and the layout of
// band_to_tridiag's Q2 (kernels/sb2st_kernels.hpp), whose V2/tau2 layout (band2tri_*)
// holds them, so band_to_tridiag_apply_q applies Q2 (VQ, tauQ) and P2 (VP, tauP); its
// unused slots (b = 1, k = 1) hold the identity.
//
// Schedule: tasks of one sweep run in order. Task (s, k) reads and writes rows
// [r_k, c_k + b) and columns [c_k, c_k + 2b). Of the tasks of sweep s - 1 from k + 2 on,
// only task k + 2 touches any of these entries, and only one: its head (r, c) =
// (c_k + b - 1, c_k + 2b - 1), the last entry of (s, k)'s left update, which task
// (s - 1, k + 2) reads in (a) and leaves as beta. So task (s, k) may start once task
// (s - 1, k + 1) has finished, and must read that entry after task (s - 1, k + 2) has
// written it; the CUDA engine pipelines that schedule, each task writing its head out
// before the rest of its task. (Checked on a model of the chase, in
// test_band_to_bidiag's ChaseScheduleSharesOneEntry: under this rule the tasks of
// earlier sweeps that may still run share no entry with (s, k) but that one; without the
// head's wait they would.)
//
// Fill: a task's bulge reaches kl = b - 1 below and ku = 2b - 1 above the diagonal (max(b - 2,
// 0) below between tasks), so the chase works on a band of leading dimension
// kl + ku + 1 = 3b (band2bd_work_ld), element (i, j) at W[(ku + i - j) + j ldw]. The
// engines allocate it (n 3b elements) and copy AB in: AB is read only.
//
// Host engine: the chase in plain C++ (LAPACK's ?gbbrd makes another chase, and no CPU
// library returns this one's reflectors). CUDA engine: one persistent kernel, a thread
// block per sweep at a time (kernels/cuda/gb2bd/); unlike most CUDA kernels it waits for
// its stream before it returns (it frees its work band and progress counters).
// Preconditions (checked by the public entry, kernels/lapack.hpp band_to_bidiag): n >= 0,
// b >= 1, ldab >= b + 1; AB, d, e, VQ, tauQ, VP, tauP memory of `dev`.
#pragma once

#include <algorithm>
#include <cstdint>

#include "kernels/kernel_declaration.hpp"
#include "kernels/sb2st_kernels.hpp"  // the reflector layout (band2tri_*) shared with it

namespace mgblas {

/// The tasks the chase runs in sweep s (b >= 1 as the chase takes it): band2tri_tasks but
/// for b = 1, where only task 0 does work (the layout keeps a second, identity, slot).
constexpr int64_t band2bd_tasks(int64_t n, int64_t b, int64_t s) {
  if (s > n - 2) return 0;
  return b == 1 ? 1 : band2tri_tasks(n, b, s);
}

/// The work band's sub- and superdiagonals (kl = b - 1, ku = 2b - 1) and leading
/// dimension kl + ku + 1 = 3b.
constexpr int64_t band2bd_work_ku(int64_t b) { return 2 * b - 1; }
constexpr int64_t band2bd_work_ld(int64_t b) { return 3 * b; }

}  // namespace mgblas

#define MGBLAS_GB2BD_KERNEL_PARAMS_(T)                                                       \
  (const Device& dev, cudaStream_t stream, int64_t n, int64_t b, const T* AB, int64_t ldab,  \
   real_type_t<T>* d, real_type_t<T>* e, T* VQ, T* tauQ, T* VP, T* tauP)

#define MGBLAS_DECLARE_GB2BD_KERNEL(T) \
  template <>                          \
  void band_to_bidiag<T> MGBLAS_GB2BD_KERNEL_PARAMS_(T)

namespace mgblas::kernels::host {
template <Scalar T>
void band_to_bidiag MGBLAS_GB2BD_KERNEL_PARAMS_(T);
}  // namespace mgblas::kernels::host
namespace mgblas::kernels::cuda {
template <Scalar T>
void band_to_bidiag MGBLAS_GB2BD_KERNEL_PARAMS_(T);
}  // namespace mgblas::kernels::cuda

MGBLAS_DECLARE_FOR_BACKENDS(MGBLAS_DECLARE_GB2BD_KERNEL)
