// SPDX-License-Identifier: BSD-3-Clause
// One checked run of hetrd_band_mgpu on a context, shared by the host
// (test_hetrd_band_mgpu) and GPU (test_hetrd_band_gpu) tests.
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string>
#include <vector>

#include "core/context.hpp"
#include "dist/lapack/hetrd_band_mgpu.hpp"
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
  // Upper: the lower steps on J A J (dist/lapack/hetrd_band_mgpu.hpp), so the lower
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

}  // namespace mgblas::testing::dist
