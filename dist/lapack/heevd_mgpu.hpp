// SPDX-License-Identifier: BSD-3-Clause
// The Hermitian (real: symmetric) eigen-solver with eigenvectors over every device of
// every rank, LAPACK's ?heevd / ?syevd (with ?syevr's subsets) on a BlockCyclic1D
// DistMatrix:
//   1. hetrd_mgpu reduces A to tridiagonal T = Q^H A Q (d, e, tau on every rank), or the
//      two-stage reduction does (HeevdOptions::stages), Q = Q1 Q2 kept as stage one's
//      reflectors in A and the chase's on every device;
//   2. the eigenpairs of T: without vectors, bisection over every device
//      (tridiag_eigenvalues_mgpu); with vectors (tridiag_eigenvectors_mgpu below), every
//      rank's first device computes the range's window of them (kernels/lapack.hpp
//      tridiag_eigenvectors: on a GPU divide and conquer with the merges as GEMMs and
//      only the window's columns at the last merge; on a host device LAPACK ?stedc), and
//      each device of the rank copies its columns;
//   3. unmtr_mgpu turns them into eigenvectors of A: Z := Q Z, on Z's own columns (two
//      stages: band_to_tridiag_apply_q on each device's columns, then Q1 the same way).
// Measured on one H200 (bench/results/h200-heevd.md): 1.24x cusolverDnXsyevd with all
// vectors at n = 16384, 1.30x at 32768, where the one-stage reduction is 75% of the time.
#pragma once

#include <cstdint>
#include <optional>
#include <type_traits>
#include <vector>

#include "core/types.hpp"
#include "dist/lapack/hetrd_mgpu.hpp"
#include "dist/lapack/unmtr_mgpu.hpp"
#include "layouts/dist_matrix.hpp"

namespace mgblas {

/// Which eigenpairs an eigen-solver computes (LAPACK's RANGE, SciPy's subset_by_*).
struct EigenRange {
  enum class Kind : char { All = 'A', Index = 'I', Value = 'V' };
  Kind kind = Kind::All;
  /// Index: the eigenvalues il..iu of the ascending order, 0-based and inclusive,
  /// 0 <= il <= iu < n.
  int64_t il = 0, iu = -1;
  /// Value: the eigenvalues in the half-open interval (vl, vu], vl < vu (may be empty).
  double vl = 0, vu = 0;

  static EigenRange all() { return {}; }
  static EigenRange index(int64_t il, int64_t iu) { return {Kind::Index, il, iu, 0, 0}; }
  static EigenRange value(double vl, double vu) { return {Kind::Value, 0, -1, vl, vu}; }
  /// The k smallest eigenvalues (k >= 1).
  static EigenRange smallest(int64_t k) { return index(0, k - 1); }
  /// The k largest of an n x n matrix (1 <= k <= n).
  static EigenRange largest(int64_t k, int64_t n) { return index(n - k, n - 1); }
};

/// Where heevd_mgpu's time goes, seconds of wall time on this rank (filled when
/// HeevdOptions::profile points at one; each phase ends with the devices synchronised,
/// which every phase does anyway).
struct HeevdProfile {
  double reduction = 0;       ///< hetrd_mgpu (or hetrd_2stage_mgpu)
  double tridiagonal = 0;     ///< the eigenpairs of T (with vectors: their solve and the copy to Z)
  double to_devices = 0;      ///< of which the copy of T's vectors to the devices
  double back_transform = 0;  ///< unmtr_mgpu (0 without vectors)
  double total = 0;           ///< the whole call
};

/// Tuning of heevd_mgpu's steps.
struct HeevdOptions {
  HetrdOptions reduction;       ///< passed to hetrd_mgpu (its profile pointer too)
  UnmtrOptions back_transform;  ///< passed to unmtr_mgpu
  /// One- or two-stage reduction (hetrd_2stage_mgpu, with `reduction`'s band), Auto by
  /// detail::two_stage_pays (on GPUs without vectors from n = 4096 on one GPU, 8192 on
  /// more; with them in double from n = 8192 on one GPU, 16384 P on P >= 2 GPUs in all).
  /// With vectors the two-stage path keeps both stages' Q and applies Q2
  /// (band_to_tridiag_apply_q on every device's columns of Z), then Q1.
  Stages stages = Stages::Auto;
  HeevdProfile* profile = nullptr;
};

/// Eigenvalues and, when Z is given, eigenvectors of the n x n Hermitian A (real T:
/// symmetric) whose `uplo` triangle is stored: A Z = Z diag(w).
///
/// @param[in] uplo     the triangle of A that is read.
/// @param[in,out] A    n x n on the devices of its context (BlockCyclic1D, any nb). On
///                     return it holds hetrd_mgpu's reduction (as LAPACK's ?syevd, A is
///                     destroyed).
/// @param[out] w       host memory, room for n values (every rank): the m selected
///                     eigenvalues, ascending, on every rank.
/// @param[out] Z       nullptr for eigenvalues only; else n x K on A's context with its
///                     own BlockCyclic1D over the K columns (any nb, any first device),
///                     K >= n for Kind::All and Kind::Value, K >= iu - il + 1 for
///                     Kind::Index. Columns 0..m-1 receive the orthonormal eigenvectors
///                     (column j belongs to w[j]); columns m..K-1 are not touched.
/// @param[in] range    which eigenpairs (EigenRange); the cost of the vectors' steps is
///                     proportional to m.
/// @param[in] opts     the steps' tuning and an optional HeevdProfile.
/// @return m, the number of eigenvalues selected (n for All, iu - il + 1 for Index).
///
/// Collective over the ranks of A's context; every rank passes the same arguments.
/// Errors, on every rank (the others RemoteError), before w or Z is written:
/// BadArgument for uplo, a null w (n > 0), a range kind, il/iu outside 0 <= il <= iu < n,
/// vl >= vu or a NaN bound, Z on another context; DimensionMismatch for a non-square A, Z
/// with other than n rows or too few columns. A NaN or infinity in A's `uplo` triangle is
/// a BadArgument naming A, found in T after the reduction (A is then overwritten, w and Z
/// are not). Accuracy: LAPACK's, ||A Z - Z diag(w)|| and ||I - Z^H Z|| of order
/// n eps ||A|| and n eps (the tests hold them under 30 of those units).
template <Scalar T>
int64_t heevd_mgpu(Uplo uplo, DistMatrix<T>& A, real_type_t<T>* w, DistMatrix<T>* Z,
                   const EigenRange& range = {}, const HeevdOptions& opts = {});

/// heevd_mgpu returning its results: w (m values, every rank) and, when `vectors`, Z as
/// a new n x m DistMatrix on A's context with A's column block size nb and first device.
template <Scalar T>
struct Eigensystem {
  std::vector<real_type_t<T>> w;
  std::optional<DistMatrix<T>> Z;  ///< with vectors only
};
template <Scalar T>
Eigensystem<T> heevd_mgpu(Uplo uplo, DistMatrix<T>& A, bool vectors, const EigenRange& range = {},
                          const HeevdOptions& opts = {});

/// The real symmetric name of heevd_mgpu (LAPACK ?syevd), for float and double.
template <Scalar T>
  requires(!is_complex_v<T>)
int64_t syevd_mgpu(Uplo uplo, DistMatrix<T>& A, std::type_identity_t<T>* w, DistMatrix<T>* Z,
                   const EigenRange& range = {}, const HeevdOptions& opts = {}) {
  return heevd_mgpu<T>(uplo, A, w, Z, range, opts);
}

/// Eigenpairs of the real symmetric tridiagonal T (d: n, e: n - 1 entries, host memory,
/// the same on every rank): the m selected eigenvalues into w (host, room for n, every
/// rank) and their eigenvectors into columns 0..m-1 of Z (n x K as in heevd_mgpu; a
/// complex Z receives real vectors). Every rank's first device computes the range's
/// vectors (divide and conquer on a GPU, LAPACK ?stedc on a host device) and the rank's
/// devices copy their columns from it. Returns m. Collective; errors as heevd_mgpu's, and a
/// NaN or infinity in d or e is a BadArgument naming it.
template <Scalar T>
int64_t tridiag_eigenvectors_mgpu(int64_t n, const real_type_t<T>* d, const real_type_t<T>* e,
                                  real_type_t<T>* w, DistMatrix<T>& Z,
                                  const EigenRange& range = {});

}  // namespace mgblas
