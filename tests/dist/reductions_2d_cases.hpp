// SPDX-License-Identifier: BSD-3-Clause
// Checked runs of hetrd_2d and gebrd_2d on a context, shared by the host
// (test_reductions_2d) and GPU (test_reductions_2d_gpu) tests: every rank cuts its local
// arrays of one random matrix (the same seed on every rank) by BlockCyclic2D's own index
// functions, calls the entry, and the result is compared with the _mgpu reduction of the
// same matrix in a BlockCyclic1D DistMatrix of the devices' nb the entry picks (the same
// arithmetic, so equal up to the reducer's summation order), the local arrays gathered
// through import_2d + collect (tested on their own). The factorization is also checked
// against its definition (tests/lapack/{tridiag,bidiag}_check.hpp). Another blocking
// (another panel width) would agree only up to the reduction's forward error, which in
// single precision can be large: where a reflector's alpha is within rounding of 0, the
// two runs may pick opposite signs for beta (LAPACK's convention, beta = -sign(alpha)
// ||x||) and everything after it differs. On GPUs the same blocking is no shield either:
// their column sums use atomics, in varying order, and in single precision one such
// flip appeared in 2 of 4 runs of n = 1100 on 2 H200s (float, 1 rank x 2 GPUs; the
// factorization checks passed). So the comparison with the _mgpu run binds in double
// precision, and in single precision on host devices (whose sums have a fixed order);
// the definition's checks bind everywhere. test_scalapack_2d compares other blockings,
// ScaLAPACK's, in double precision.
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "core/context.hpp"
#include "dist/lapack/detail/entry_2d.hpp"
#include "dist/lapack/gebrd_2d.hpp"
#include "dist/lapack/hetrd_2d.hpp"
#include "layouts/block_cyclic_2d.hpp"
#include "tests/dist/dist_test_helpers.hpp"
#include "tests/dist/heevd_2d_cases.hpp"
#include "tests/dist/redistribute_2d_cases.hpp"
#include "tests/lapack/bidiag_check.hpp"
#include "tests/lapack/tridiag_check.hpp"

namespace mgblas::testing::dist {

// The largest entry-wise difference of x and y (lengths equal), NaN when any is NaN.
template <typename T>
double max_diff(const std::vector<T>& x, const std::vector<T>& y) {
  double out = 0;
  for (std::size_t i = 0; i < x.size(); ++i) {
    const double v = std::abs(x[i] - y[i]);
    if (std::isnan(v)) return v;
    out = std::max(out, v);
  }
  return out;
}

// Whether the rows past LOCr of this rank's local array still hold `pad`.
template <typename T>
bool padding_untouched(const BlockCyclic2D& D, int rank, const std::vector<T>& a, int64_t lda,
                       T pad) {
  const int pr = D.prow_of(rank);
  if (pr < 0) return true;
  const int64_t locr = D.local_rows(pr);
  for (std::size_t k = 0; k < a.size(); ++k)
    if (static_cast<int64_t>(k) % lda >= locr && !(a[k] == pad)) return false;
  return true;
}

//  +-------------------------------------------------------------------------------+
//  |  tol = 30 n eps max(1, ||A||_1)                                                 |
//  |  max |d - d_mgpu|, |e - e_mgpu|, |tau - tau_mgpu| <= tol (hetrd_mgpu with the  |
//  |  devices' nb and panel of hetrd_2d)                                            |
//  |  max |a's uplo triangle (gathered) - hetrd_mgpu's A| <= tol                     |
//  |  (these two where same_run_binds: not single precision on GPUs)                 |
//  |  a's other triangle still NaN, its padding rows still the pad                   |
//  |  ||A - Q T Q^H||_1 / (n ||A||_1 eps), ||I - Q^H Q||_1 / (n eps), T's            |
//  |  eigenvalues against A's: each <= 20 (hetrd_mgpu's test thresholds)             |
//  +-------------------------------------------------------------------------------+
// Whether the comparison with the _mgpu run of the same blocking binds (see the top).
template <Scalar T>
bool same_run_binds(const Context& ctx) {
  return sizeof(real_type_t<T>) == 8 || ctx.backend() != Backend::Cuda;
}

template <Scalar T>
bool hetrd_2d_case(const std::shared_ptr<Context>& ctx, const BlockCyclic2D& Da, Uplo uplo,
                   const std::string& name, const Hetrd2DOptions& base = {}) {
  using R = real_type_t<T>;
  const int me = ctx->rank();
  const int64_t n = Da.m(), n1 = std::max<int64_t>(0, n - 1);
  std::mt19937_64 rng(test_seed() + static_cast<uint64_t>(n * 7919 + Da.mb() * 31 +
                                                          Da.nprow() * 7 + Da.npcol()));
  std::vector<T> A = lapack::random_hermitian<T>(n, rng, /*poison=*/false, uplo);
  ctx->comm().bcast(A.data(), A.size() * sizeof(T), 0);  // every rank the same matrix
  std::vector<T> Ah = A;  // the other triangle NaN: only `uplo` may be read
  for (int64_t j = 0; j < n; ++j)
    for (int64_t i = 0; i < n; ++i)
      if (lapack::opposite(uplo, i, j)) Ah[i + j * n] = nan_value<T>();
  const int64_t lda = local_ld(Da, me, 2);
  const T pad = T(-5);
  std::vector<T> a = cut_2d(Da, me, Ah, lda, pad);
  std::vector<R> d(static_cast<std::size_t>(n), R(-7)), e(static_cast<std::size_t>(n1), R(-7));
  std::vector<T> tau(static_cast<std::size_t>(n1), T(-7));
  Hetrd2DProfile prof;
  Hetrd2DOptions opts = base;
  opts.profile = &prof;
  const bool in_grid = Da.prow_of(me) >= 0;
  hetrd_2d<T>(ctx, uplo, Da, in_grid ? a.data() : nullptr, lda, d.data(), e.data(), tau.data(),
              opts);

  // The reference: hetrd_mgpu on the same matrix in the devices' 1-D layout.
  const int P = ctx->global_num_devices();
  const int64_t nb_ref = ::mgblas::detail::devices_nb(base.nb, n, P);
  std::vector<R> dr(d.size()), er(e.size());
  std::vector<T> taur(tau.size());
  std::vector<T> Aref(A.size());
  if (n > 0) {
    DistMatrix<T> dA(ctx, BlockCyclic1D(n, n, nb_ref, P));
    dA.distribute(Ah.data(), n, 0);
    hetrd_mgpu<T>(uplo, dA, dr.data(), er.data(), taur.data(), base.hetrd);
    dA.collect(Aref.data(), n, -1);
  }
  const std::vector<T> out = gather_2d(ctx, Da, a, lda);

  const double tol = 30.0 * double(std::max<int64_t>(n, 1)) * eps<T>() *
                     std::max(1.0, lapack::norm1(n, A));
  double diff_a = 0;
  bool other_nan = true;
  for (int64_t j = 0; j < n; ++j)
    for (int64_t i = 0; i < n; ++i) {
      if (lapack::opposite(uplo, i, j)) {
        other_nan = other_nan && is_nan(out[i + j * n]);
      } else {
        const double v = std::abs(out[i + j * n] - Aref[i + j * n]);
        diff_a = std::isnan(v) ? v : std::max(diff_a, v);
      }
    }
  const double diff_v = std::max({max_diff(d, dr), max_diff(e, er), max_diff(tau, taur)});
  const lapack::TridiagErrors err = lapack::check_tridiagonal<T>(uplo, n, A, out, d, e, tau);
  const bool padded = padding_untouched(Da, me, a, lda, pad);
  const bool same = (diff_v <= tol && diff_a <= tol) || !same_run_binds<T>(*ctx);
  const bool ok = same && other_nan && padded && err.lapack_ok &&
                  err.residual <= 20 && err.orthogonal <= 20 && err.eigenvalues <= 20 &&
                  (n == 0 || prof.total >= prof.reduce);
  return everywhere(*ctx, ok,
                    ::mgblas::detail::concat(
                        name, " hetrd_2d n=", n, " uplo ", static_cast<char>(uplo),
                        ": |d,e,tau - hetrd_mgpu's| = ", diff_v, ", |a - hetrd_mgpu's A| = ",
                        diff_a, " (tol ", tol, "), other triangle NaN ", other_nan,
                        ", padding untouched ", padded, ", residual ", err.residual,
                        ", orthogonality ", err.orthogonal, ", eigenvalues ", err.eigenvalues,
                        ", lapack ok ", err.lapack_ok));
}

//  +-------------------------------------------------------------------------------+
//  |  tol = 30 max(m, n) eps max(1, ||A||_1)                                         |
//  |  max |d, e, tauq, taup - gebrd_mgpu's| <= tol, max |a (gathered) - its A| <= tol|
//  |  (gebrd_mgpu with the devices' nb and panel of gebrd_2d; where same_run_binds)  |
//  |  a's padding rows still the pad                                                 |
//  |  ||A - Q B P^H||_1 / (max(m, n) ||A||_1 eps), ||I - Q^H Q||_1 / (m eps),        |
//  |  ||I - P^H P||_1 / (n eps), B's singular values against A's: each <= 20        |
//  +-------------------------------------------------------------------------------+
template <Scalar T>
bool gebrd_2d_case(const std::shared_ptr<Context>& ctx, const BlockCyclic2D& Da,
                   const std::string& name, const Gebrd2DOptions& base = {}) {
  using R = real_type_t<T>;
  const int me = ctx->rank();
  const int64_t m = Da.m(), n = Da.n(), k = std::min(m, n), k1 = std::max<int64_t>(0, k - 1);
  std::mt19937_64 rng(test_seed() + static_cast<uint64_t>(m * 7919 + n * 613 + Da.mb() * 31 +
                                                          Da.nprow() * 7 + Da.npcol()));
  std::vector<T> A = lapack::random_general<T>(m, n, rng);
  ctx->comm().bcast(A.data(), A.size() * sizeof(T), 0);
  const int64_t lda = local_ld(Da, me, 1);
  const T pad = T(-5);
  std::vector<T> a = cut_2d(Da, me, A, lda, pad);
  std::vector<R> d(static_cast<std::size_t>(k), R(-7)), e(static_cast<std::size_t>(k1), R(-7));
  std::vector<T> tauq(static_cast<std::size_t>(k), T(-7)), taup(tauq);
  Gebrd2DProfile prof;
  Gebrd2DOptions opts = base;
  opts.profile = &prof;
  const bool in_grid = Da.prow_of(me) >= 0;
  gebrd_2d<T>(ctx, Da, in_grid ? a.data() : nullptr, lda, d.data(), e.data(), tauq.data(),
              taup.data(), opts);

  const int P = ctx->global_num_devices();
  const int64_t nb_ref = ::mgblas::detail::devices_nb(base.nb, n, P);
  std::vector<R> dr(d.size()), er(e.size());
  std::vector<T> tqr(tauq.size()), tpr(taup.size());
  std::vector<T> Aref(A.size());
  if (k > 0) {
    DistMatrix<T> dA(ctx, BlockCyclic1D(m, n, nb_ref, P));
    dA.distribute(A.data(), m, 0);
    gebrd_mgpu<T>(dA, dr.data(), er.data(), tqr.data(), tpr.data(), base.gebrd);
    dA.collect(Aref.data(), m, -1);
  } else {
    Aref = A;  // nothing to reduce: a is left as it was
  }
  const std::vector<T> out = gather_2d(ctx, Da, a, lda);

  const double tol = 30.0 * double(std::max<int64_t>({m, n, 1})) * eps<T>() *
                     std::max(1.0, lapack::norm1(m, n, A));
  const double diff_v =
      std::max({max_diff(d, dr), max_diff(e, er), max_diff(tauq, tqr), max_diff(taup, tpr)});
  const double diff_a = max_diff(out, Aref);
  const bool padded = padding_untouched(Da, me, a, lda, pad);
  lapack::BidiagErrors err;
  if (k > 0) err = lapack::check_bidiagonal<T>(m, n, A, out, d, e, tauq, taup);
  const bool same = (diff_v <= tol && diff_a <= tol) || !same_run_binds<T>(*ctx);
  const bool ok = same && padded && err.lapack_ok &&
                  err.residual <= 20 && err.orth_q <= 20 && err.orth_p <= 20 &&
                  err.singular <= 20 && (k == 0 || prof.total >= prof.reduce);
  return everywhere(*ctx, ok,
                    ::mgblas::detail::concat(
                        name, " gebrd_2d ", m, " x ", n, ": |d,e,tauq,taup - gebrd_mgpu's| = ",
                        diff_v, ", |a - gebrd_mgpu's A| = ", diff_a, " (tol ", tol,
                        "), padding untouched ", padded, ", residual ", err.residual,
                        ", orth Q ", err.orth_q, ", orth P ", err.orth_p, ", singular values ",
                        err.singular, ", lapack ok ", err.lapack_ok));
}

}  // namespace mgblas::testing::dist
