// SPDX-License-Identifier: BSD-3-Clause
// One checked run of hetrd_mgpu on a context, shared by the host (test_hetrd_mgpu) and
// GPU (test_hetrd_gpu) tests.
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string>
#include <vector>

#include "core/context.hpp"
#include "dist/lapack/hetrd_mgpu.hpp"
#include "tests/dist/dist_test_helpers.hpp"
#include "tests/dist/scaled_matrices.hpp"
#include "tests/lapack/tridiag_check.hpp"

namespace mgblas::testing::dist {

// Reduces a fresh random matrix (scaled as `scale` says) on ctx and checks the
// factorization; the verdict is reduced over the ranks. MGBLAS_TEST_SMALL: cases with
// n > 64 pass without running (scaled_matrices.hpp).
template <Scalar T>
bool reduce_and_check(const std::shared_ptr<Context>& ctx, int64_t n, int64_t nb, int64_t panel,
                      bool device_outputs, ReducerKind transport = ReducerKind::Auto,
                      Uplo uplo = Uplo::Lower, const MatrixScale& scale = {}) {
  using R = real_type_t<T>;
  if (skipped_in_small_mode(n, n)) return true;
  if (std::getenv("MGBLAS_TEST_VERBOSE"))  // which case a crash happened in
    std::fprintf(stderr, "[rank %d] hetrd case n %lld nb %lld panel %lld uplo %s scale %s\n",
                 ctx->rank(), static_cast<long long>(n), static_cast<long long>(nb),
                 static_cast<long long>(panel), to_string(uplo), scale.name.c_str());
  // The test's seed, varied per case so that every size draws its own matrix.
  std::mt19937_64 rng(::mgblas::testing::test_seed() + static_cast<uint64_t>(n * 1000003 + nb * 101 + panel));
  std::vector<T> A = lapack::random_hermitian<T>(n, rng, /*poison=*/true, uplo);
  apply_scale<T>(A, n, n, scale, /*hermitian=*/true);
  ctx->comm().bcast(A.data(), A.size() * sizeof(T), 0);  // every rank the same matrix
  DistMatrix<T> dA(ctx, BlockCyclic1D(n, n, nb, ctx->global_num_devices()));
  dA.distribute(A.data(), std::max<int64_t>(1, n), 0);
  const int64_t n1 = std::max<int64_t>(0, n - 1);
  std::vector<R> d(n, R(-7)), e(n1, R(-7));
  std::vector<T> tau(n1, T(-7));
  HetrdOptions opts;
  opts.panel = panel;
  opts.transport = transport;
  if (device_outputs) {
    DistVector<R> dd(ctx, n), ed(ctx, n1);
    DistVector<T> td(ctx, n1);
    hetrd_mgpu<T>(uplo, dA, dd, ed, td, opts);
    dd.collect(d.data(), -1);
    ed.collect(e.data(), -1);
    td.collect(tau.data(), -1);
  } else {
    hetrd_mgpu<T>(uplo, dA, d.data(), e.data(), tau.data(), opts);
  }
  std::vector<T> out(A.size());
  dA.collect(out.data(), std::max<int64_t>(1, n), -1);

  bool untouched = true;  // the other triangle keeps its NaN poison
  for (int64_t j = 0; j < n; ++j)
    for (int64_t i = 0; i < n; ++i)
      if (lapack::opposite(uplo, i, j))
        untouched = untouched && ::mgblas::testing::is_nan(out[i + j * n]);
  const lapack::TridiagErrors err = lapack::check_tridiagonal<T>(uplo, n, A, out, d, e, tau);
  const double tol = 20;
  const bool ok = untouched && err.lapack_ok && err.residual <= tol && err.orthogonal <= tol &&
                  err.eigenvalues <= tol;
  return everywhere(*ctx, ok,
                        ::testing::PrintToString(std::vector<double>{
                            double(n), double(nb), double(panel), err.residual, err.orthogonal,
                            err.eigenvalues, double(untouched), double(err.lapack_ok)}) +
                            " (n, nb, panel, residual, orthogonality, eigenvalues, upper "
                            "untouched, lapack ok) on " +
                            std::to_string(ctx->num_devices()) + " devices per rank, uplo " +
                            to_string(uplo) + ", matrix " + scale.name);
}

///  +-------------------------------------------------------------------------------+
///  |  A NaN or infinity in the read triangle (issue 32) shows in the outputs: d, e   |
///  |  or tau holds a NaN or infinity on every rank; the call neither raises nor      |
///  |  hangs. value goes to A(i, j) and its mirror (uplo's triangle is the one read). |
///  +-------------------------------------------------------------------------------+
template <Scalar T>
bool nonfinite_shows(const std::shared_ptr<Context>& ctx, Uplo uplo, int64_t n, int64_t nb,
                     real_type_t<T> value, int64_t i, int64_t j) {
  using R = real_type_t<T>;
  if (skipped_in_small_mode(n, n)) return true;
  std::mt19937_64 rng(::mgblas::testing::test_seed() + static_cast<uint64_t>(n * 31 + i * 7 + j));
  std::vector<T> A = lapack::random_hermitian<T>(n, rng, /*poison=*/false, uplo);
  A[i + j * n] = A[j + i * n] = T(value);
  ctx->comm().bcast(A.data(), A.size() * sizeof(T), 0);
  DistMatrix<T> dA(ctx, BlockCyclic1D(n, n, nb, ctx->global_num_devices()));
  dA.distribute(A.data(), n, 0);
  std::vector<R> d(n, R(-7)), e(n - 1, R(-7));
  std::vector<T> tau(n - 1, T(-7));
  bool shows = false;
  std::string why;
  try {
    hetrd_mgpu<T>(uplo, dA, d.data(), e.data(), tau.data());
    shows = any_nonfinite(d, e, tau);
  } catch (const std::exception& err) {
    why = err.what();
  }
  return everywhere(*ctx, shows,
                    "hetrd_mgpu, uplo " + std::string(to_string(uplo)) + ", n " +
                        std::to_string(n) + ", A(" + std::to_string(i) + ", " +
                        std::to_string(j) + ") = " + std::to_string(value) +
                        ": all outputs finite " + why);
}

}  // namespace mgblas::testing::dist
