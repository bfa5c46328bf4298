// SPDX-License-Identifier: BSD-3-Clause
// Eigenvectors of a real symmetric tridiagonal matrix by MRRR (LAPACK's ?stemr), cut at
// the seam that lets a distributed caller share the work:
//   mrrr_root    (?larre) splits T, picks one root representation L D L^T per block and
//                approximates the wanted eigenvalues: O(n) data, computed once;
//   mrrr_vectors (?larrv with DOL:DOU) computes a contiguous range of those eigenpairs
//                from the root. Caution: ranges computed by different calls run in
//                ?larrv's subset mode and are NOT as orthogonal to each other as one
//                call's vectors (250-830 n eps against under 15 on reduced graded and
//                clustered matrices of order 120), so heevd_mgpu makes one call for all.
// Host code on the CPU LAPACK, whatever the devices are; the vectors of T are real for
// every precision (T of a Hermitian reduction is real).
#pragma once

#include <cstdint>
#include <vector>

namespace mgblas::kernels::host {

/// Which eigenpairs: all, the index range [il, iu] (0-based, inclusive), or those in the
/// half-open value interval (vl, vu] (LAPACK's RANGE 'A', 'I', 'V').
enum class MrrrRange : char { All = 'A', Index = 'I', Value = 'V' };

/// What ?larre leaves for ?larrv, plus the scaling ?stemr applies. Plain data: a
/// distributed caller broadcasts it from one rank so every rank works from the same root.
template <typename R>
struct MrrrRoot {
  int64_t n = 0;       ///< order of T
  int64_t m = 0;       ///< eigenpairs found (the wanted ones)
  R scale = 1;         ///< T was multiplied by scale before ?larre
  R wl = 0, wu = 0;    ///< ?larre's bounds on the wanted spectrum (scaled)
  R pivmin = 0;        ///< ?larre's pivot threshold
  std::vector<R> d;    ///< n: the D of each block's root representation
  std::vector<R> l;    ///< n: the L of each block; l[isplit[b] - 1] is block b's shift
  std::vector<R> w, werr, wgap;  ///< m: shifted eigenvalue approximations, errors, gaps
  std::vector<R> gers;           ///< 2 n: Gerschgorin intervals
  std::vector<int> isplit;       ///< block ends, 1-based, one per block
  std::vector<int> iblock;       ///< m: the block of each eigenpair, 1-based
  std::vector<int> indexw;       ///< m: the index of each eigenpair inside its block
  /// n <= 2: ?stemr's own closed forms are not reachable through ?larre/?larrv, so the
  /// root then holds the wanted eigenpairs themselves (LAPACK ?stev), n x m.
  std::vector<R> small_z, small_w;

  /// The eigenvalue of eigenpair i (in the root's order) as ?larre approximated it, in
  /// T's scale: the key that orders the pairs ascending across blocks.
  R approx(int64_t i) const;
};

/// Every eigenpair of T (n x n vectors z, ascending values w) by LAPACK's divide and
/// conquer (?stedc): the fallback where MRRR fails.
template <typename R>
void stedc_all(const char* what, int64_t n, const R* d, const R* e, R* z, R* w);

/// ?larrv's minimum relative gap between root-level clusters (?stemr's MINRGP: 1e-3 in
/// double, 3e-3 in single precision); a caller that groups pairs by cluster uses it too.
template <typename R>
constexpr R mrrr_min_relative_gap() {
  return sizeof(R) == 4 ? R(3e-3) : R(1e-3);
}

/// ?larre on T (d, e: n and n - 1 entries; not modified). Throws mgblas::Error naming
/// `what` when LAPACK reports failure. The pairs are ordered by block, ascending inside
/// each block: sort by approx() for the global order.
template <typename R>
MrrrRoot<R> mrrr_root(const char* what, MrrrRange range, int64_t n, const R* d, const R* e,
                      R vl, R vu, int64_t il, int64_t iu);

/// Eigenpairs [first, first + count) of the root's order: their vectors into the n x count
/// array z (leading dimension ldz >= n) and their eigenvalues (of T, unscaled) into w.
/// Returns ?larrv's info: non-zero when MRRR found no representation for a child inside
/// a tight cluster (LAPACK's ?syevr then falls back to another method; so do callers).
/// Thread-safe: each call works on its own copies of the root's arrays.
template <typename R>
int mrrr_vectors(const char* what, const MrrrRoot<R>& root, int64_t first, int64_t count,
                  R* z, int64_t ldz, R* w);

}  // namespace mgblas::kernels::host
