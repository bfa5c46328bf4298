// SPDX-License-Identifier: BSD-3-Clause
// One checked run of gebrd_mgpu on a context, shared by the host (test_gebrd_mgpu) and
// GPU (test_gebrd_gpu) tests.
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string>
#include <vector>

#include "core/context.hpp"
#include "dist/lapack/gebrd_mgpu.hpp"
#include "tests/dist/dist_test_helpers.hpp"
#include "tests/dist/scaled_matrices.hpp"
#include "tests/lapack/bidiag_check.hpp"

namespace mgblas::testing::dist {

// Reduces the m x n matrix A (the same on every rank) on ctx and checks the result; the
// verdict is reduced over the ranks.
template <Scalar T>
bool gebrd_and_check(const std::shared_ptr<Context>& ctx, const std::vector<T>& A, int64_t m,
                     int64_t n, int64_t nb, int64_t panel, bool device_outputs,
                     double tol = 30, bool one_pass = false, const std::string& what = "") {
  using R = real_type_t<T>;
  if (skipped_in_small_mode(m, n)) return true;  // MGBLAS_TEST_SMALL (scaled_matrices.hpp)
  if (std::getenv("MGBLAS_TEST_VERBOSE"))  // which case a crash happened in
    std::fprintf(stderr, "[rank %d] gebrd case m %lld n %lld nb %lld panel %lld one pass %d\n",
                 ctx->rank(), static_cast<long long>(m), static_cast<long long>(n),
                 static_cast<long long>(nb), static_cast<long long>(panel), int(one_pass));
  DistMatrix<T> dA(ctx, BlockCyclic1D(m, n, nb, ctx->global_num_devices()));
  dA.distribute(A.data(), std::max<int64_t>(1, m), 0);
  const int64_t k = std::min(m, n), k1 = std::max<int64_t>(0, k - 1);
  std::vector<R> d(k, R(-7)), e(k1, R(-7));
  std::vector<T> tauq(k, T(-7)), taup(k, T(-7));
  GebrdOptions opts;
  opts.panel = panel;
  opts.set_pass(one_pass ? GebrdPass::One : GebrdPass::Two);  // One: however small the column
  if (device_outputs) {
    DistVector<R> dd(ctx, k), ed(ctx, k1);
    DistVector<T> qd(ctx, k), pd(ctx, k);
    gebrd_mgpu<T>(dA, dd, ed, qd, pd, opts);
    dd.collect(d.data(), -1);
    ed.collect(e.data(), -1);
    qd.collect(tauq.data(), -1);
    pd.collect(taup.data(), -1);
  } else {
    gebrd_mgpu<T>(dA, d.data(), e.data(), tauq.data(), taup.data(), opts);
  }
  std::vector<T> out(A.size());
  dA.collect(out.data(), std::max<int64_t>(1, m), -1);
  const lapack::BidiagErrors err = lapack::check_bidiagonal<T>(m, n, A, out, d, e, tauq, taup);
  const bool ok = err.lapack_ok && err.residual <= tol && err.orth_q <= tol &&
                  err.orth_p <= tol && err.singular <= tol;
  return everywhere(*ctx, ok,
                    ::testing::PrintToString(std::vector<double>{
                        double(m), double(n), double(nb), double(panel), err.residual,
                        err.orth_q, err.orth_p, err.singular, double(err.lapack_ok)}) +
                        " (m, n, nb, panel, residual, orth Q, orth P, singular values, lapack "
                        "ok) on " + std::to_string(ctx->num_devices()) + " devices per rank, " +
                        (one_pass ? "one pass" : "two passes") + (what.empty() ? "" : ", " + what));
}

// The same on a fresh random matrix, drawn from the test's seed and the case, scaled as
// `scale` says.
template <Scalar T>
bool gebrd_random_case(const std::shared_ptr<Context>& ctx, int64_t m, int64_t n, int64_t nb,
                       int64_t panel, bool device_outputs, bool one_pass = false,
                       const MatrixScale& scale = {}) {
  if (skipped_in_small_mode(m, n)) return true;
  std::mt19937_64 rng(::mgblas::testing::test_seed() +
                      static_cast<uint64_t>(m * 1000003 + n * 7919 + nb * 101 + panel));
  std::vector<T> A = lapack::random_general<T>(m, n, rng);
  apply_scale<T>(A, m, n, scale, /*hermitian=*/false);
  ctx->comm().bcast(A.data(), A.size() * sizeof(T), 0);  // every rank the same matrix
  return gebrd_and_check<T>(ctx, A, m, n, nb, panel, device_outputs, 30, one_pass,
                            "matrix " + scale.name);
}

///  +-------------------------------------------------------------------------------+
///  |  A NaN or infinity in A (issue 32) shows in the outputs: d, e, tauq or taup     |
///  |  holds a NaN or infinity on every rank; the call neither raises nor hangs.      |
///  +-------------------------------------------------------------------------------+
template <Scalar T>
bool gebrd_nonfinite_shows(const std::shared_ptr<Context>& ctx, int64_t m, int64_t n,
                           int64_t nb, real_type_t<T> value, int64_t i, int64_t j) {
  using R = real_type_t<T>;
  if (skipped_in_small_mode(m, n)) return true;
  std::mt19937_64 rng(::mgblas::testing::test_seed() + static_cast<uint64_t>(m * 31 + n * 17 + i * 7 + j));
  std::vector<T> A = lapack::random_general<T>(m, n, rng);
  A[i + j * m] = T(value);
  ctx->comm().bcast(A.data(), A.size() * sizeof(T), 0);
  DistMatrix<T> dA(ctx, BlockCyclic1D(m, n, nb, ctx->global_num_devices()));
  dA.distribute(A.data(), m, 0);
  const int64_t k = std::min(m, n);
  std::vector<R> d(k, R(-7)), e(k - 1, R(-7));
  std::vector<T> tauq(k, T(-7)), taup(k, T(-7));
  bool shows = false;
  std::string why;
  try {
    gebrd_mgpu<T>(dA, d.data(), e.data(), tauq.data(), taup.data());
    shows = any_nonfinite(d, e, tauq, taup);
  } catch (const std::exception& err) {
    why = err.what();
  }
  return everywhere(*ctx, shows,
                    "gebrd_mgpu, " + std::to_string(m) + " x " + std::to_string(n) + ", A(" +
                        std::to_string(i) + ", " + std::to_string(j) + ") = " +
                        std::to_string(value) + ": all outputs finite " + why);
}

}  // namespace mgblas::testing::dist
