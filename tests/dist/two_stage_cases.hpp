// SPDX-License-Identifier: BSD-3-Clause
// Checked runs of the two-stage reduction on a context, shared by the host
// (test_hetrd_2stage_mgpu) and GPU (test_hetrd_2stage_gpu) tests.
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "core/context.hpp"
#include "dist/lapack/heevd_mgpu.hpp"
#include "dist/lapack/hetrd_2stage_mgpu.hpp"
#include "tests/dist/dist_test_helpers.hpp"
#include "tests/dist/scaled_matrices.hpp"
#include "tests/lapack/band_check.hpp"

namespace mgblas::testing::dist {

// Reduces a fresh random matrix (its `uplo` triangle, scaled as `scale` says) to band form
// on ctx and checks A = Q1 B Q1^H, Q1's orthogonality, B's eigenvalues, the returned band
// and the other triangle's poison; the verdict is reduced over the ranks.
// The n x n matrix with rows and columns in reverse order (J A J).
template <Scalar T>
std::vector<T> reversed(int64_t n, const std::vector<T>& A) {
  std::vector<T> R(A.size());
  for (int64_t j = 0; j < n; ++j)
    for (int64_t i = 0; i < n; ++i) R[i + j * n] = A[(n - 1 - i) + (n - 1 - j) * n];
  return R;
}

template <Scalar T>
bool band_reduce_and_check(const std::shared_ptr<Context>& ctx, int64_t n, int64_t nb,
                           int64_t band, Uplo uplo = Uplo::Lower, const MatrixScale& scale = {}) {
  if (skipped_in_small_mode(n, n)) return true;
  if (std::getenv("MGBLAS_TEST_VERBOSE"))
    std::fprintf(stderr, "[rank %d] band case n %lld nb %lld band %lld scale %s\n", ctx->rank(),
                 static_cast<long long>(n), static_cast<long long>(nb),
                 static_cast<long long>(band), scale.name.c_str());
  std::mt19937_64 rng(::mgblas::testing::test_seed() +
                      static_cast<uint64_t>(n * 1000003 + nb * 101 + band));
  std::vector<T> A = lapack::random_hermitian<T>(n, rng, /*poison=*/true, uplo);
  apply_scale<T>(A, n, n, scale, /*hermitian=*/true);
  ctx->comm().bcast(A.data(), A.size() * sizeof(T), 0);
  DistMatrix<T> dA(ctx, BlockCyclic1D(n, n, nb, ctx->global_num_devices()));
  dA.distribute(A.data(), std::max<int64_t>(1, n), 0);
  const int64_t ntau = std::max<int64_t>(0, n - band), ldab = band + 2;
  std::vector<T> tau(ntau, T(-7)), AB(static_cast<std::size_t>(ldab * n), T(-7));
  hetrd_band_mgpu<T>(uplo, dA, band, tau.data(), AB.data(), ldab);
  std::vector<T> out(A.size());
  dA.collect(out.data(), std::max<int64_t>(1, n), -1);
  bool untouched = true;  // the other triangle keeps its NaN poison, AB's spare row its -7
  for (int64_t j = 0; j < n; ++j) {
    for (int64_t i = 0; i < n; ++i)
      if (lapack::opposite(uplo, i, j))
        untouched = untouched && ::mgblas::testing::is_nan(out[i + j * n]);
    untouched = untouched && AB[(band + 1) + j * ldab] == T(-7);
  }
  // Upper: the lower steps on J A J (dist/lapack/hetrd_2stage_mgpu.hpp), so the lower
  // check on the reversed input and output; AB is B's band, read from A's upper band.
  lapack::BandErrors err;
  if (uplo == Uplo::Lower) {
    err = lapack::check_band<T>(n, band, A, out, tau, AB, ldab);
  } else {
    err = lapack::check_band<T>(n, band, reversed(n, A), reversed(n, out), tau, {}, 0);
    for (int64_t c = 0; c < n; ++c)
      for (int64_t r = std::max<int64_t>(0, c - band); r <= c; ++r) {
        const T v = r == c ? T(std::real(out[r + c * n])) : conj(out[r + c * n]);
        err.band_copy = err.band_copy && AB[(c - r) + r * ldab] == v;
      }
  }
  const double tol = 30;
  const bool ok = untouched && err.lapack_ok && err.band_copy && err.residual <= tol &&
                  err.orthogonal <= tol && err.eigenvalues <= tol;
  return everywhere(*ctx, ok,
                    ::testing::PrintToString(std::vector<double>{
                        double(n), double(nb), double(band), err.residual, err.orthogonal,
                        err.eigenvalues, double(err.band_copy), double(untouched),
                        double(err.lapack_ok)}) +
                        " (n, nb, band, residual, orthogonality, eigenvalues, band copy, "
                        "untouched, lapack ok) on " +
                        std::to_string(ctx->num_devices()) + " devices per rank, uplo " +
                        to_string(uplo) + ", matrix " + scale.name);
}

/// Whether v holds the same bits on every rank as on rank 0.
template <typename R>
bool same_on_all_ranks(const Context& ctx, const std::vector<R>& v) {
  std::vector<R> root(v);
  ctx.comm().bcast(root.data(), root.size() * sizeof(R), 0);
  return std::memcmp(root.data(), v.data(), v.size() * sizeof(R)) == 0;
}

/// The two-stage eigenvalue path on a fresh matrix (random, or with the spectrum `kind`
/// when given), its `uplo` triangle stored and the other NaN: T from hetrd_2stage_mgpu
/// (eigenvalues by LAPACK ?sterf) and heevd_mgpu with Stages::Two, no vectors, both
/// against LAPACK's eigenvalues of A, max |w - w_lapack| / (n ||A||_1 eps) <= 30; d, e
/// and w alike on every rank.
template <Scalar T>
bool two_stage_case(const std::shared_ptr<Context>& ctx, Uplo uplo, int64_t n, int64_t nb,
                    int64_t band, const lapack::Spectrum* kind = nullptr) {
  using R = real_type_t<T>;
  if (skipped_in_small_mode(n, n)) return true;
  std::mt19937_64 rng(::mgblas::testing::test_seed() +
                      static_cast<uint64_t>(n * 7919 + nb * 31 + band) + (kind ? 3 : 0));
  std::vector<T> A = kind ? lapack::matrix_with_spectrum<T>(lapack::make_spectrum<R>(*kind, n, rng), rng)
                          : lapack::random_hermitian<T>(n, rng, /*poison=*/false, uplo);
  ctx->comm().bcast(A.data(), A.size() * sizeof(T), 0);
  std::vector<T> poisoned = A;
  for (int64_t j = 0; j < n; ++j)
    for (int64_t i = 0; i < n; ++i)
      if (lapack::opposite(uplo, i, j)) poisoned[i + j * n] = nan_value<T>();
  std::vector<R> ref;
  lapack::eigenvalues<T>(n, lapack::full_from(uplo, n, poisoned), ref);
  const double scale = static_cast<double>(std::max<int64_t>(n, 1)) *
                       std::max(lapack::norm1(n, lapack::full_from(uplo, n, poisoned)), 1e-300) *
                       eps<T>();
  const auto worst = [&](const std::vector<R>& w) {
    double most = 0;
    for (int64_t i = 0; i < n; ++i) most = std::max(most, std::abs(double(w[i]) - double(ref[i])));
    return most / scale;
  };
  // hetrd_2stage_mgpu: T's eigenvalues.
  DistMatrix<T> dA(ctx, BlockCyclic1D(n, n, nb, ctx->global_num_devices()));
  dA.distribute(poisoned.data(), std::max<int64_t>(1, n), 0);
  std::vector<R> d(static_cast<std::size_t>(n), R(-7)), e(static_cast<std::size_t>(n), R(-7));
  HetrdOptions ro;
  ro.band = band;
  hetrd_2stage_mgpu<T>(uplo, dA, d.data(), e.data(), ro);
  std::vector<R> dt = d;
  const bool sterf_ok = lapack::sterf<R>(n, dt, e) == 0;
  const double err_t = worst(dt);
  const bool same_t = same_on_all_ranks(*ctx, d) && same_on_all_ranks(*ctx, e);
  // heevd_mgpu, values only, two stages.
  DistMatrix<T> dB(ctx, BlockCyclic1D(n, n, nb, ctx->global_num_devices()));
  dB.distribute(poisoned.data(), std::max<int64_t>(1, n), 0);
  std::vector<R> w(static_cast<std::size_t>(std::max<int64_t>(n, 1)), R(-7));
  HeevdOptions opts;
  opts.stages = Stages::Two;
  opts.reduction.band = band;
  const int64_t m = heevd_mgpu<T>(uplo, dB, w.data(), nullptr, EigenRange::all(), opts);
  w.resize(static_cast<std::size_t>(n));
  const double err_w = worst(w);
  const bool ok = sterf_ok && same_t && m == n && err_t <= 30 && err_w <= 30 &&
                  std::is_sorted(w.begin(), w.end());
  return everywhere(*ctx, ok,
                    ::mgblas::detail::concat("two-stage uplo ", static_cast<char>(uplo), " n=", n,
                                             " nb=", nb, " band=", band, " spectrum ",
                                             kind ? static_cast<int>(*kind) : -1, ": T's error ",
                                             err_t, ", heevd's ", err_w, ", m ", m,
                                             same_t ? "" : ", T differs between ranks"));
}

}  // namespace mgblas::testing::dist
