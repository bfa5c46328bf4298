// SPDX-License-Identifier: BSD-3-Clause
// The bidiagonal SVD through the Golub-Kahan (TGK) form (kernels/bdsvd_kernels.hpp), the
// CUDA engine's algorithm, written once over the engine-level kernels so that the host
// engine runs it too (MGBLAS_BDSVD=tgk) and tests check it without a GPU (private).
//
// B upper: the 2n x 2n symmetric tridiagonal T with zero diagonal and off-diagonal
// (d0, e0, d1, e1, ..., d_{n-1}) has eigenvalues +-s_i, the eigenvector of +s_i being
// (v0, u0, v1, u1, ...) / sqrt(2). B lower is the transpose of the upper B with the same
// d, e: the same T, U and V swapped. The divide and conquer gives the window's top
// eigenvectors (ascending), split into the halves X (even rows) and Y (odd rows).
//
// Why the halves need care: an eigenvector of +s_i carries components of the one of -s_j
// of about eps ||B|| / (s_i + s_j), which add u_j to u_i and -v_j to v_i, so the halves
// lose orthogonality by that much between small singular values, and near s_i = 0 a
// computed eigenvector can be almost pure u or pure v (a zero half). Where the window
// holds a singular value below kTgkWeak ||B||, the weak columns of each half (s below
// that) are replaced by the Q of a Householder QR taken in descending order of s (signs
// fixed by R's diagonal): the correction of column i is its overlap with the columns
// j < i (s_j >= s_i), so it moves the residual B v_i - s_i u_i by about
// s_i eps ||B|| / (s_i + s_j) <= eps ||B||, and Householder's Q stays orthonormal where a
// half is (near) zero. There Q's column is orthogonal to all previous columns, i.e. in
// the span of the singular vectors of the smallest singular values when the previous
// columns are all the larger ones: a window that starts past 0 and reaches a singular
// value below sqrt(eps) ||B|| is therefore computed from column 0 (the extra columns
// discarded).
//
// The strong columns (s >= kTgkWeak ||B||) are kept as they are: their overlaps are at
// most eps ||B|| / s_j, about 10 eps. Only the weak ones are made orthogonal to them, by
// projection, QR, projection again (a column the QR made up where a half was zero points
// anywhere) and a second QR (tgk_orthonormalize_weak): for a random B, where a few
// percent of s are weak, two thin QRs and four thin products instead of a full QR.
//
// No splitting of B at small entries: the divide and conquer deflates them itself, and
// the exact zeros (an odd TGK block's zero eigenvalue: a pure-u or pure-v vector) are
// what the QR above repairs.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <random>
#include <vector>

#include "core/memory.hpp"
#include "core/types.hpp"
#include "kernels/larfb_kernels.hpp"

// The engine-level kernels the algorithm calls (its Ops parameter), as a struct `Name`
// stamped into the namespace of `engine` (host or cuda), which derives its Ops from it
// and adds its own wait(dev, stream): the one list of the steps, for both engines.
#define MGBLAS_BDSVD_TGK_OPS(Name, engine)                                                 \
  struct Name {                                                                            \
    template <typename R>                                                                  \
    static void eigenvalues(const Device& dev, cudaStream_t stream, int64_t n, const R* d, \
                            const R* e, int64_t il, int64_t iu, R* w) {                    \
      tridiag_eigenvalues<R>(dev, stream, n, d, e, il, iu, w);                             \
    }                                                                                      \
    template <typename R>                                                                  \
    static void eigenvectors(const Device& dev, cudaStream_t stream, int64_t n, const R* d, \
                             const R* e, int64_t il, int64_t iu, R* w, R* Z, int64_t ldz) { \
      tridiag_eigenvectors<R>(dev, stream, n, d, e, il, iu, w, Z, ldz);                    \
    }                                                                                      \
    template <typename R>                                                                  \
    static void split(const Device& dev, cudaStream_t stream, int64_t n, int64_t k,        \
                      const R* Z, int64_t ldz, R* X, int64_t ldx, R* Y, int64_t ldy) {     \
      tgk_split<R>(dev, stream, n, k, Z, ldz, X, ldx, Y, ldy);                             \
    }                                                                                      \
    template <Scalar T>                                                                    \
    static void store(const Device& dev, cudaStream_t stream, int64_t n, int64_t k,        \
                      const real_type_t<T>* Q, int64_t ldq, T* out, int64_t ldo) {         \
      bdsvd_store<T>(dev, stream, n, k, Q, ldq, out, ldo);                                 \
    }                                                                                      \
    template <typename... A>                                                               \
    static void gemm(A&&... a) {                                                           \
      ::mgblas::kernels::engine::gemm(std::forward<A>(a)...);                              \
    }                                                                                      \
    template <typename... A>                                                               \
    static void geqrf(A&&... a) {                                                          \
      ::mgblas::kernels::engine::geqrf(std::forward<A>(a)...);                             \
    }                                                                                      \
    template <typename... A>                                                               \
    static void larfb_form_v(A&&... a) {                                                   \
      ::mgblas::kernels::engine::larfb_form_v(std::forward<A>(a)...);                      \
    }                                                                                      \
    template <typename... A>                                                               \
    static void larft(A&&... a) {                                                          \
      ::mgblas::kernels::engine::larft(std::forward<A>(a)...);                             \
    }                                                                                      \
  };

namespace mgblas::kernels::detail {

/// Windows holding a singular value below kTgkWeak ||B||_max are re-orthogonalized.
inline constexpr double kTgkWeak = 0.1;
/// Block size of the explicit Q (<= kLarftMaxBlock).
inline constexpr int64_t kTgkQBlock = 64;
/// Rounds of projection and QR after the first (tgk_orthonormalize_weak).
inline constexpr int kTgkRounds = 3;

/// Eigenvalues il..iu-1 (ascending) of the TGK matrix of order m with off-diagonal off,
/// into w (host).
template <class Ops, typename R>
void tgk_eigenvalues(const Device& dev, cudaStream_t stream, int64_t m, const std::vector<R>& off,
                     int64_t il, int64_t iu, R* w) {
  DeviceBuffer<R> dd(dev, static_cast<std::size_t>(m)), de(dev, static_cast<std::size_t>(m - 1)),
      dw(dev, static_cast<std::size_t>(iu - il));
  memset_bytes(dev, dd.data(), 0, static_cast<std::size_t>(m) * sizeof(R));
  copy_vector(dev, m - 1, off.data(), de.data());
  Ops::template eigenvalues<R>(dev, stream, m, dd.data(), de.data(), il, iu, dw.data());
  Ops::wait(dev, stream);
  copy_vector(dev, iu - il, dw.data(), w);
}

/// C = Q D for the Householder QR A = Q R of the n x k matrix A (leading dimension n,
/// destroyed), D = sign(diag(R)) (+1 for a zero): Q formed backwards from [D; 0] by
/// blocks of reflectors in compact WY form (LAPACK's ?orgqr). Returns |diag(R)|.
template <class Ops, typename R>
std::vector<R> tgk_orthonormalize(const Device& dev, cudaStream_t stream, int64_t n, int64_t k,
                                  R* A, R* C) {
  const int64_t nb = std::min(kTgkQBlock, k);
  const auto un = static_cast<std::size_t>(n), uk = static_cast<std::size_t>(k),
             unb = static_cast<std::size_t>(nb);
  DeviceBuffer<R> tau(dev, uk), Vb(dev, un * unb), Tb(dev, unb * unb), W(dev, unb * uk),
      W2(dev, unb * uk);
  Ops::geqrf(dev, stream, n, k, A, n, tau.data());
  Ops::wait(dev, stream);
  std::vector<R> sign(uk);
  copy_2d(dev, sign.data(), sizeof(R), A, (un + 1) * sizeof(R), sizeof(R), uk);
  std::vector<R> rdiag(uk);
  for (std::size_t j = 0; j < uk; ++j) {
    rdiag[j] = std::abs(sign[j]);
    sign[j] = sign[j] < R(0) ? R(-1) : R(1);
  }
  memset_bytes(dev, C, 0, un * uk * sizeof(R));
  copy_2d(dev, C, (un + 1) * sizeof(R), sign.data(), sizeof(R), sizeof(R), uk);
  for (int64_t b0 = ((k - 1) / nb) * nb; b0 >= 0; b0 -= nb) {
    const int64_t bw = std::min(nb, k - b0), rows = n - b0, cols = k - b0;
    R* Cb = C + b0 + b0 * n;
    Ops::larfb_form_v(dev, stream, Direction::Forward, rows, bw, A + b0 + b0 * n, n, Vb.data(),
                      rows);
    Ops::larft(dev, stream, Direction::Forward, rows, bw, Vb.data(), rows, tau.data() + b0,
               Tb.data(), nb);
    // C(b0:, b0:) = (I - Vb Tb Vb^T) C(b0:, b0:)
    Ops::gemm(dev, stream, Op::T, Op::N, bw, cols, rows, R(1), Vb.data(), rows, Cb, n, R(0),
              W.data(), nb);
    Ops::gemm(dev, stream, Op::N, Op::N, bw, cols, bw, R(1), Tb.data(), nb, W.data(), nb, R(0),
              W2.data(), nb);
    Ops::gemm(dev, stream, Op::N, Op::N, rows, cols, bw, R(-1), Vb.data(), rows, W2.data(), nb,
              R(1), Cb, n);
  }
  Ops::wait(dev, stream);  // before the work buffers are freed
  return rdiag;
}

/// A2 -= Q1 (Q1^T A2) for the n x k1 Q1 with orthonormal columns and the n x k2 A2 (both
/// leading dimension n); W holds k1 x k2.
template <class Ops, typename R>
void tgk_project_out(const Device& dev, cudaStream_t stream, int64_t n, int64_t k1, int64_t k2,
                     const R* Q1, R* A2, R* W) {
  Ops::gemm(dev, stream, Op::T, Op::N, k1, k2, n, R(1), Q1, n, A2, n, R(0), W, k1);
  Ops::gemm(dev, stream, Op::N, Op::N, n, k2, k1, R(-1), Q1, n, W, k1, R(1), A2, n);
}

/// C = the n x k matrix A (leading dimension n, destroyed) with its columns k1.. made
/// orthonormal and orthogonal to its first k1 columns, which are (close to) orthonormal
/// already and copied as they are; all columns by tgk_orthonormalize when k1 = 0.
///
/// The weak columns A2 are projected off the strong ones C1 and orthonormalized by a
/// Householder QR, which is all a random B needs. Where the QR shrank a column (|R_jj| <
/// 1/2), normalizing may have enlarged what was left of C1 in it, so the block is
/// projected and orthonormalized again until no column shrinks (a second round leaves
/// R close to I). A column with nothing left (|R_jj| <= sqrt(eps): a half that was zero,
/// or lay in span(C1)) was made up by the QR, orthogonal to the previous weak columns but
/// not to C1; it is replaced by a random vector (fixed seed) before the next round, which
/// has a part outside span(C1) with probability one and is projected twice.
template <class Ops, typename R>
void tgk_orthonormalize_weak(const Device& dev, cudaStream_t stream, int64_t n, int64_t k,
                             int64_t k1, R* A, R* C) {
  if (k1 == 0) {
    tgk_orthonormalize<Ops>(dev, stream, n, k, A, C);
    return;
  }
  const int64_t k2 = k - k1;
  Ops::wait(dev, stream);  // copy_matrix is not ordered on the stream: C may still be read
  copy_matrix(dev, n, k1, A, n, C, n);
  if (k2 == 0) return;
  R *A2 = A + k1 * n, *C2 = C + k1 * n;
  DeviceBuffer<R> W(dev, static_cast<std::size_t>(k1) * static_cast<std::size_t>(k2));
  tgk_project_out<Ops>(dev, stream, n, k1, k2, C, A2, W.data());
  std::vector<R> rdiag = tgk_orthonormalize<Ops>(dev, stream, n, k2, A2, C2);
  const R nothing_left = std::sqrt(std::numeric_limits<R>::epsilon());
  std::mt19937_64 rng(20261130);
  std::normal_distribution<double> gauss;
  std::vector<R> column(static_cast<std::size_t>(n));
  for (int round = 0; round < kTgkRounds; ++round) {
    bool made_up = false, shrank = false;
    for (int64_t j = 0; j < k2; ++j) {
      const R r = rdiag[static_cast<std::size_t>(j)];
      shrank = shrank || !(r >= R(0.5));
      if (r > nothing_left) continue;
      made_up = true;
      for (R& v : column) v = static_cast<R>(gauss(rng) / std::sqrt(double(n)));
      copy_vector(dev, n, column.data(), C2 + j * n);
    }
    if (!shrank) return;
    for (int pass = 0; pass < (made_up ? 2 : 1); ++pass)
      tgk_project_out<Ops>(dev, stream, n, k1, k2, C, C2, W.data());
    Ops::wait(dev, stream);  // copy_matrix is not ordered on the stream
    copy_matrix(dev, n, k2, C2, n, A2, n);
    rdiag = tgk_orthonormalize<Ops>(dev, stream, n, k2, A2, C2);
  }
}

/// The bidiagonal SVD of kernels/bdsvd_kernels.hpp (arguments validated, n >= 1) on the
/// engine whose kernels Ops forwards to: static eigenvalues<R>, eigenvectors<R>,
/// split<R>, store<T>, gemm, geqrf, larfb_form_v, larft (the engine's kernels) and
/// wait(dev, stream), which returns once the stream's work is done.
template <class Ops, Scalar T>
void bidiag_svd_tgk(const Device& dev, cudaStream_t stream, Uplo uplo, int64_t n,
                    const real_type_t<T>* d, const real_type_t<T>* e, int64_t il, int64_t iu,
                    real_type_t<T>* s, T* U, int64_t ldu, T* V, int64_t ldv) {
  using R = real_type_t<T>;
  const int64_t m = 2 * n;
  std::vector<R> diag(static_cast<std::size_t>(m), R(0)), off(static_cast<std::size_t>(m - 1));
  R bmax = R(0);
  for (int64_t i = 0; i < n; ++i) {
    off[static_cast<std::size_t>(2 * i)] = d[i];
    if (i + 1 < n) off[static_cast<std::size_t>(2 * i + 1)] = e[i];
  }
  for (R v : off) bmax = std::max(bmax, std::abs(v));

  if (il == iu) {  // values only: bisection for the top n eigenvalues
    std::vector<R> w(static_cast<std::size_t>(n));
    tgk_eigenvalues<Ops>(dev, stream, m, off, n, m, w.data());
    for (int64_t j = 0; j < n; ++j) s[j] = std::max(w[static_cast<std::size_t>(n - 1 - j)], R(0));
    return;
  }
  int64_t lo = il;  // first column computed
  if (il > 0 && bmax > R(0)) {
    R last;  // s[iu - 1], the window's smallest
    tgk_eigenvalues<Ops>(dev, stream, m, off, m - iu, m - iu + 1, &last);
    if (last < std::sqrt(std::numeric_limits<R>::epsilon()) * bmax) lo = 0;
  }
  const int64_t k = iu - lo;
  const auto nk = static_cast<std::size_t>(n) * static_cast<std::size_t>(k);
  DeviceBuffer<R> X(dev, nk), Y(dev, nk);
  {
    DeviceBuffer<R> Z(dev, 2 * nk);
    std::vector<R> w(static_cast<std::size_t>(m));
    Ops::template eigenvectors<R>(dev, stream, m, diag.data(), off.data(), m - iu, m - lo,
                                  w.data(), Z.data(), m);
    for (int64_t j = 0; j < n; ++j) s[j] = std::max(w[static_cast<std::size_t>(m - 1 - j)], R(0));
    Ops::template split<R>(dev, stream, n, k, Z.data(), m, X.data(), n, Y.data(), n);
    Ops::wait(dev, stream);
  }
  R* Uh = uplo == Uplo::Upper ? Y.data() : X.data();
  R* Vh = uplo == Uplo::Upper ? X.data() : Y.data();
  const int64_t cnt = iu - il, off0 = (il - lo) * n;
  const auto weak = [&](int64_t j) {
    return bmax == R(0) || static_cast<double>(s[j]) < kTgkWeak * static_cast<double>(bmax);
  };
  if (weak(iu - 1)) {
    int64_t k1 = 0;  // the strong columns, kept (s descending)
    while (k1 < k && !weak(lo + k1)) ++k1;
    DeviceBuffer<R> C(dev, nk);
    tgk_orthonormalize_weak<Ops>(dev, stream, n, k, k1, Uh, C.data());
    Ops::template store<T>(dev, stream, n, cnt, C.data() + off0, n, U, ldu);
    tgk_orthonormalize_weak<Ops>(dev, stream, n, k, k1, Vh, C.data());
    Ops::template store<T>(dev, stream, n, cnt, C.data() + off0, n, V, ldv);
  } else {
    Ops::template store<T>(dev, stream, n, cnt, Uh + off0, n, U, ldu);
    Ops::template store<T>(dev, stream, n, cnt, Vh + off0, n, V, ldv);
  }
  Ops::wait(dev, stream);
}

}  // namespace mgblas::kernels::detail
