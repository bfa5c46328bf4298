// SPDX-License-Identifier: BSD-3-Clause
// Single-device LAPACK-style entries of mgblas: validate the arguments, then run the
// engine of the queue's device (CUDA or host), with the asynchrony and error rules of
// kernels/blas.hpp (on a GPU queued on q.stream, pointers device memory; on a host
// device run to completion; BadArgument naming the argument before anything is written).
#pragma once

#include <cstdint>

#include "core/device.hpp"
#include "core/types.hpp"

namespace mgblas {

// ---- Tridiagonal eigenvalues (bisection, LAPACK ?stebz with RANGE = 'I') -------------

/// Eigenvalues lambda_il <= ... <= lambda_{iu-1} of the real symmetric tridiagonal matrix
/// T with diagonal d and off-diagonal e (0-based indices, ascending order): the
/// eigenvalues-only step of an eigen-solver after hetrd/sytrd.
///
/// Each eigenvalue is bisected independently from Gershgorin's interval with Sturm counts
/// (negative pivots of the LDL^T factorization of T - x I, tiny pivots replaced by
/// -pivmin, pivmin = safe_min * max(1, max e_j^2)) until its interval is at most
/// 2 eps max(|lo|, |hi|) + pivmin wide; the midpoint is returned. The error is of order
/// n eps ||T|| (the counts are exact for a nearby matrix), as for LAPACK ?sterf / ?stebz.
/// Independent per index: on a GPU one thread per eigenvalue, on the host one OpenMP
/// iteration per eigenvalue.
///
/// @tparam T        the scalar of the matrix T came from; the data are real_type_t<T> and
///                  the complex instances compute what the real ones do.
/// @param[in] q     the device (and stream) to run on.
/// @param[in] n     order of T, >= 0.
/// @param[in] d     n diagonal entries (memory of q's device); may be null when il = iu.
/// @param[in] e     n - 1 off-diagonal entries (memory of q's device); may be null when
///                  il = iu or n <= 1.
/// @param[in] il    first index wanted, 0 <= il <= iu.
/// @param[in] iu    one past the last index wanted, il <= iu <= n (il = 0, iu = n: all).
/// @param[out] w    iu - il values, w[i - il] = lambda_i; may be null when il = iu.
///
/// Quick return: nothing is read or written when il = iu (n = 0 included).
/// Preconditions not checked: max e_j^2 and |d_i| + 2 max|e_j| finite (scale T first
/// otherwise); NaN input gives unspecified values but the call ends.
/// Cost: about (p + 2) n (iu - il) Sturm steps of 1 division each, p the mantissa bits
/// (24 or 53); more for eigenvalues far smaller than ||T|| (relative tolerance).
template <Scalar T>
void tridiag_eigenvalues(const Queue& q, int64_t n, const real_type_t<T>* d,
                         const real_type_t<T>* e, int64_t il, int64_t iu, real_type_t<T>* w);

// ---- Tridiagonal eigenpairs (divide and conquer, LAPACK ?stedc with COMPZ = 'I') -----

/// The eigenpairs il..iu-1 of the real symmetric tridiagonal matrix T with diagonal d and
/// off-diagonal e: w[i] = lambda_i ascending for all n, column i - il of Z the unit
/// eigenvector of lambda_i (real; zero imaginary parts for a complex T). A window costs
/// less than all vectors on a GPU: the last merge's product, the largest, makes only
/// its columns. On a GPU, Cuppen's divide and conquer with
/// every merge on the device (deflation decided on the host, secular equations one
/// thread per root, Gu and Eisenstat's vectors, the merges' products as cuBLAS GEMMs);
/// on a host device, LAPACK ?stedc. Residual and orthogonality O(n eps) like ?stedc's.
///
/// @param[in] q     the device (and stream) to run on.
/// @param[in] n     order of T, >= 0.
/// @param[in] d     n diagonal entries, HOST memory; finite.
/// @param[in] e     n - 1 off-diagonal entries, HOST memory; finite; may be null when n <= 1.
/// @param[in] il    first eigenvector wanted, 0 <= il <= iu.
/// @param[in] iu    one past the last, il <= iu <= n (0, n: all).
/// @param[out] w    all n eigenvalues, HOST memory.
/// @param[out] Z    n x (iu - il) eigenvectors (memory of q's device), leading dimension
///                  ldz; may be null when il = iu.
/// @param[in] ldz   >= max(1, n).
///
/// Unlike the other entries it has finished on return on every device (the GPU engine
/// waits for q.stream twice per level of its merge tree). Workspace: 3 n^2 reals on the
/// GPU (2 n^2 when T is real and the window is all of Z), allocated per call.
template <Scalar T>
void tridiag_eigenvectors(const Queue& q, int64_t n, const real_type_t<T>* d,
                          const real_type_t<T>* e, int64_t il, int64_t iu, real_type_t<T>* w,
                          T* Z, int64_t ldz);

// ---- Bidiagonal SVD (LAPACK ?bdsdc with COMPQ = 'I', and a window of its vectors) ----

/// The singular values of the real n x n bidiagonal matrix B with diagonal d and
/// off-diagonal e, all n of them in s descending, and the singular vectors of s[il..iu):
/// B V = U diag(s[il..iu)), column j - il of U and V the left and right vectors of s[j]
/// (real; zero imaginary parts for a complex T). The vectors step of an SVD after gebrd.
/// On a GPU, the Golub-Kahan form: the 2n x 2n tridiagonal with zero diagonal and
/// off-diagonal (d0, e0, d1, e1, ...), whose eigenvalues are +-s_j, through the divide and
/// conquer of tridiag_eigenvectors (the window only), the halves' columns of singular
/// values below ||B|| / 10 re-orthogonalized (projected off the others, Householder QR;
/// kernels/detail/bdsvd_tgk.hpp says why that keeps the residual); on a host
/// device, LAPACK ?bdsdc (MGBLAS_BDSVD=tgk: the GPU's algorithm on the host). Residual
/// ||B V - U S|| and orthogonality O(n eps ||B||) and O(n eps), singular values within
/// O(n eps ||B||).
///
/// @param[in] q     the device (and stream) to run on.
/// @param[in] uplo  Uplo::Upper: B(i, i+1) = e[i]; Uplo::Lower: B(i+1, i) = e[i].
/// @param[in] n     order of B, >= 0.
/// @param[in] d     n diagonal entries, HOST memory; finite.
/// @param[in] e     n - 1 off-diagonal entries, HOST memory; finite; may be null when n <= 1.
/// @param[in] il    first singular vector pair wanted (0: of the largest), 0 <= il <= iu.
/// @param[in] iu    one past the last, il <= iu <= n (0, n: all; il = iu: values only).
/// @param[out] s    all n singular values, descending, HOST memory.
/// @param[out] U    n x (iu - il) left singular vectors (memory of q's device), leading
///                  dimension ldu; may be null when il = iu.
/// @param[in] ldu   >= max(1, n).
/// @param[out] V    n x (iu - il) right singular vectors (memory of q's device), leading
///                  dimension ldv; may be null when il = iu.
/// @param[in] ldv   >= max(1, n).
///
/// Like tridiag_eigenvectors it has finished on return on every device. Quick return:
/// nothing is read or written when n = 0. Workspace on a GPU: 2n x k reals for the
/// eigenvectors, then 3 n x k, k = iu - il (k = iu where the window starts past 0 and
/// reaches a singular value below sqrt(eps) ||B||), allocated per call.
template <Scalar T>
void bidiag_svd(const Queue& q, Uplo uplo, int64_t n, const real_type_t<T>* d,
                const real_type_t<T>* e, int64_t il, int64_t iu, real_type_t<T>* s, T* U,
                int64_t ldu, T* V, int64_t ldv);

// ---- Band to tridiagonal (stage two of the two-stage reduction, bulge chasing) -------

/// Reduces the Hermitian (real: symmetric) band matrix A of order n and half-bandwidth b
/// to real symmetric tridiagonal form T = Q2^H A Q2 by bulge chasing (kernels/
/// sb2st_kernels.hpp describes the sweeps and tasks): d = diag(T), e = subdiag(T), and
/// Q2 = prod over the sweeps s = 0 .. n-2 and their tasks k = 0 .. T_s - 1, in that
/// order, of H(s, k) = I - tau2(s, k) v(s, k) v(s, k)^H. A complex T comes out real
/// through the reflectors themselves (each sweep's first one makes its subdiagonal entry
/// real, a phase when it has length 1), so no separate phase vector is returned.
/// On a GPU one persistent kernel pipelines the sweeps over the thread blocks (task
/// (s, k) starts once task (s - 1, k + 1) is done), the band read through L2; on a
/// host device the same tasks in order, in plain loops. On a GPU it has finished on
/// return (it frees its work band and counters); b <= 64 was measured (H200, double:
/// 1.33 s at n = 32768, b = 64), larger b needs 2 b (b + 1) elements of shared memory per
/// block and raises NotImplemented beyond the device's limit (227 KiB on an H200: b up to
/// 119 in double, 83 in complex double, by that arithmetic; not measured).
///
/// @param[in] q        the device (and stream) to run on.
/// @param[in] n        order of A, >= 0.
/// @param[in] b        half-bandwidth, >= 1; b >= n is allowed (A is then full, one
///                     task per sweep).
/// @param[in,out] AB   A in LAPACK's lower band storage, AB[(i - j) + j ldab] = A(i, j)
///                     for j <= i <= min(n - 1, j + b) (memory of q's device); the
///                     imaginary parts of the diagonal are ignored. Workspace: its
///                     contents on return are unspecified. With ldab >= 2 min(b, n - 1)
///                     the chase runs in AB itself (rows past b are overwritten);
///                     otherwise a work band of 2 min(b, n - 1) n elements is allocated
///                     per call.
/// @param[in] ldab     >= b + 1 (on b as given, also when b >= n).
/// @param[out] d       n real diagonal entries of T (memory of q's device).
/// @param[out] e       n - 1 real subdiagonal entries of T (memory of q's device); may
///                     be null when n <= 1.
/// @param[out] V2      the reflectors, band2tri_v2_size(n) = n (n - 1) / 2 entries, or
///                     null when they are not wanted: v(s, k)(i) =
///                     V2[band2tri_v2_offset(n, b, s, k) + i] =
///                     V2[s (n - 1) - s (s - 1) / 2 + k b + i], 0 <= i < min(b, n - 1 -
///                     s - k b), v(s, k)(0) = 1 stored, acting on rows s + 1 + k b + i
///                     (column s of the strictly lower triangle packed by columns).
/// @param[out] tau2    band2tri_tau2_size(n, b) = (n - 1) T_0 entries, T_0 =
///                     band2tri_tau2_stride(n, b) = (n - 2) / b + 1 (at most 2 for b = 1):
///                     tau2(s, k) = tau2[s T_0 + k], 0 for the tasks k >= T_s that do not
///                     exist; ignored (may be null) when V2 is null.
///
/// Quick return: nothing is read or written when n = 0; n = 1 writes d[0] only.
/// Cost: about 10 b^2 flops per task and n^2 / (2b) tasks, i.e. 5 n^2 b flops (4x
/// that in complex arithmetic), on a band that is read and written once per task.
template <Scalar T>
void band_to_tridiag(const Queue& q, int64_t n, int64_t b, T* AB, int64_t ldab,
                     real_type_t<T>* d, real_type_t<T>* e, T* V2, T* tau2);

/// C := op(Q2) C with the Q2 of band_to_tridiag(n, b, ...) given by its reflectors V2 and
/// tau2 (the layout of band_to_tridiag's V2 and tau2 arguments): the back-transformation
/// of stage two, which turns eigenvectors of T into those of the band matrix (Q2 C), or
/// the reverse (Q2^H C). The reflectors may be applied in windows of consecutive sweeps
/// (kernels/sb2st_kernels.hpp says in what order). The CUDA engine, in double with bands
/// <= 32, applies each window's blocks I - V T V^H on FP64 tensor cores
/// (kernels/cuda/sb2st/apply_q_mma.cuh); otherwise it streams C through registers once per
/// window of 16 to 64 sweeps (kernels/cuda/sb2st/apply_q_tuning.hpp), reflector by
/// reflector. Either way it waits for q's stream before it returns.
///
/// @param[in] q       the device (and stream) to run on.
/// @param[in] op      Op::N: C = Q2 C; Op::C: C = Q2^H C (real T: Op::T is Op::C).
/// @param[in] n       order of the band matrix, >= 0.
/// @param[in] b       the half-bandwidth band_to_tridiag was called with, >= 1.
/// @param[in] V2      band2tri_v2_size(n) entries (memory of q's device).
/// @param[in] tau2    band2tri_tau2_size(n, b) entries (memory of q's device).
/// @param[in] m       the number of columns of C, >= 0.
/// @param[in,out] C   n x m (memory of q's device), leading dimension ldc.
/// @param[in] ldc     >= max(1, n).
///
/// Quick return: nothing is read or written when n <= 1 or m = 0.
/// Flops: about 2 n^2 m (real; complex arithmetic 4x: 8 n^2 m real flops), what the
/// reflectors themselves cost and what both engines do.
template <Scalar T>
void band_to_tridiag_apply_q(const Queue& q, Op op, int64_t n, int64_t b, const T* V2,
                             const T* tau2, int64_t m, T* C, int64_t ldc);

// ---- Band to bidiagonal (stage two of the two-stage SVD, bulge chasing) --------------

/// Reduces the upper-banded matrix B of order n with b superdiagonals to real upper
/// bidiagonal form Q2^H B P2 = bidiag(d, e) by bulge chasing (kernels/gb2bd_kernels.hpp
/// describes the sweeps and tasks): d = diag, e = superdiagonal, and Q2 = prod over the
/// sweeps s = 0 .. n-2 and their tasks k, in that order, of H(s, k) = I - tauQ(s, k)
/// vQ(s, k) vQ(s, k)^H, P2 likewise of G(s, k) with vP, tauP: B = Q2 bidiag(d, e) P2^H.
/// Both sets of reflectors are in the layout of band_to_tridiag's V2 and tau2, so
/// band_to_tridiag_apply_q(q, op, n, b, VQ, tauQ, ...) applies op(Q2) and the same with
/// VP, tauP applies op(P2) (the back-transformations of the singular vectors). A complex
/// bidiagonal comes out real through the reflectors themselves (each sweep's first pair
/// makes e(s) and d(s + 1) real, phases when they have length 1).
/// On a GPU one persistent kernel pipelines the sweeps over the thread blocks (task
/// (s, k) starts once task (s - 1, k + 1) is done, and reads the one entry it shares with
/// task (s - 1, k + 2) once that task has written it), the band read through L2; on a host
/// device the same tasks in order, in plain loops. On a GPU it has finished on return (it
/// frees its work band and counters); it needs (3 b + 4) b elements of shared memory per
/// block and raises NotImplemented beyond the device's limit or for b > 128 (227 KiB on an
/// H200: b up to 128 in float, 97 in double and complex float, 68 in complex double, by
/// that arithmetic), before anything is written. On an H200, d, b = 32: 0.113 s at
/// n = 8192 (bench/results/h200-svd-overlap.md).
///
/// @param[in] q        the device (and stream) to run on.
/// @param[in] n        order of B, >= 0.
/// @param[in] b        the number of superdiagonals, >= 1; b >= n is allowed (B is then a
///                     full upper triangle, one task per sweep); the chase takes
///                     min(b, n - 1), and so does band_to_tridiag_apply_q.
/// @param[in] AB       B in LAPACK's upper band storage, AB[(b + i - j) + j ldab] = B(i, j)
///                     for max(0, j - b) <= i <= j (memory of q's device); read only.
///                     For complex T the imaginary part of B(0, 0) is ignored: no
///                     reflector touches row 0 from the left, so B(0, 0) must be real
///                     (stage one leaves it so). A work band of 3 min(b, n - 1) n elements
///                     is allocated per call.
/// @param[in] ldab     >= b + 1 (on b as given, also when b >= n).
/// @param[out] d       n real diagonal entries (memory of q's device).
/// @param[out] e       n - 1 real superdiagonal entries (memory of q's device); may be
///                     null when n <= 1.
/// @param[out] VQ      Q2's reflectors, band2tri_v2_size(n) = n (n - 1) / 2 entries, or
///                     null when no reflectors are wanted (VP, tauQ, tauP are then not
///                     written either): band_to_tridiag's V2 layout, v(s, k)(i) =
///                     VQ[band2tri_v2_offset(n, b, s, k) + i], v(0) = 1 stored, acting on
///                     rows s + 1 + k b + i.
/// @param[out] tauQ    band2tri_tau2_size(n, b) entries (band_to_tridiag's tau2 layout);
///                     0 for the slots of no task; ignored (may be null) when VQ is null.
/// @param[out] VP      P2's reflectors, the layout of VQ (acting on columns of B, i.e.
///                     rows of P2); ignored (may be null) when VQ is null.
/// @param[out] tauP    band2tri_tau2_size(n, b) entries; ignored (may be null) when VQ is
///                     null.
///
/// Quick return: nothing is read or written when n = 0; n = 1 writes d[0] = Re B(0, 0)
/// only. Cost: about 16 b^2 flops per task and n^2 / (2b) tasks, i.e. 8 n^2 b flops (4x
/// that in complex arithmetic), on a band that is read and written once per task.
template <Scalar T>
void band_to_bidiag(const Queue& q, int64_t n, int64_t b, const T* AB, int64_t ldab,
                    real_type_t<T>* d, real_type_t<T>* e, T* VQ, T* tauQ, T* VP, T* tauP);

}  // namespace mgblas
