// SPDX-License-Identifier: BSD-3-Clause
#include "dist/lapack/her2k_mgpu.hpp"

#include <algorithm>
#include <vector>

#include "core/error.hpp"
#include "core/memory.hpp"
#include "dist/detail/mgpu_common.hpp"
#include "dist/lapack/detail/rank2k_columns.hpp"

namespace mgblas {
namespace {

template <Scalar T>
void rank2k_run(const char* what, bool herm, Uplo uplo, int64_t k, T alpha, const T* A,
                int64_t lda, const T* B, int64_t ldb, T beta, DistMatrix<T>& C) {
  Context& ctx = C.context();
  const BlockCyclic1D& L = C.layout();
  const int64_t n = L.n();
  CallRecord rec(what);
  detail::add_matrix_fields(rec, C);
  rec.add("uplo", static_cast<char>(uplo)).add("k", k).add_scalar("alpha", alpha).add_scalar("beta", beta);
  // The factors on each device, stacked [A B A] (detail::stack_rank2k_factors).
  std::vector<DeviceBuffer<T>> S(ctx.num_devices());
  agree(ctx.comm(), rec, [&] {
    detail::check_matrix(ctx, C);
    MGBLAS_CHECK_ARG(uplo == Uplo::Lower || uplo == Uplo::Upper, "uplo",
                     static_cast<int>(static_cast<char>(uplo)), "Uplo::Lower or Uplo::Upper");
    if (L.m() != L.n())
      MGBLAS_THROW(DimensionMismatch, "argument 'C' is ", L.m(), " x ", L.n(), ": ", what,
                   " needs a square matrix");
    MGBLAS_CHECK_ARG(k >= 0, "k", k, ">= 0");
    MGBLAS_CHECK_ARG(lda >= std::max<int64_t>(1, n), "lda", lda, ">= max(1, n) = ",
                     std::max<int64_t>(1, n));
    MGBLAS_CHECK_ARG(ldb >= std::max<int64_t>(1, n), "ldb", ldb, ">= max(1, n) = ",
                     std::max<int64_t>(1, n));
    const bool product = n > 0 && k > 0 && alpha != T(0);
    MGBLAS_CHECK_PTR(A, "A", product);
    MGBLAS_CHECK_PTR(B, "B", product);
    if (!product) return;
    if (ctx.verify_inputs()) {
      // A and B are replicated inputs: every rank must hold the same.
      rec.add_digest("A", hash_matrix(n, k, A, lda));
      rec.add_digest("B", hash_matrix(n, k, B, ldb));
    }
    // The factors on every device (allocated inside the agreement: a failure anywhere
    // raises everywhere).
    for (int d = 0; d < ctx.num_devices(); ++d) {
      const Device& dev = ctx.device(d);
      const int64_t nk = checked_mul(n, k, "n * k");
      S[d] = DeviceBuffer<T>(dev, static_cast<std::size_t>(checked_mul(nk, int64_t{3}, "3 n k")));
      detail::stack_rank2k_factors<T>(dev, n, k, A, lda, B, ldb, S[d].data());
    }
  });
  if (n == 0) return;
  for (int d = 0; d < ctx.num_devices(); ++d) {
    const Device& dev = ctx.device(d);
    const int g = ctx.device_offset() + d;
    if (S[d].data()) {
      detail::rank2k_columns<T>(dev, L, g, C.local(d), C.ld(), herm, uplo, 0, n, k, alpha,
                                S[d].data(), S[d].data() + n * k, 0, n, beta,
                                /*stacked=*/true);
    } else {
      // Nothing to add: beta times the triangle, through the same path with k = 0.
      detail::rank2k_columns<T>(dev, L, g, C.local(d), C.ld(), herm, uplo, 0, n, 0, T(0),
                                nullptr, nullptr, 0, std::max<int64_t>(1, n), beta);
    }
  }
  ctx.synchronize();
}

}  // namespace

template <Scalar T>
void her2k_mgpu(Uplo uplo, int64_t k, std::type_identity_t<T> alpha,
                const std::type_identity_t<T>* A, int64_t lda, const std::type_identity_t<T>* B,
                int64_t ldb, real_type_t<T> beta, DistMatrix<T>& C) {
  rank2k_run<T>("her2k_mgpu", true, uplo, k, alpha, A, lda, B, ldb, T(beta), C);
}

template <Scalar T>
void syr2k_mgpu(Uplo uplo, int64_t k, std::type_identity_t<T> alpha,
                const std::type_identity_t<T>* A, int64_t lda, const std::type_identity_t<T>* B,
                int64_t ldb, std::type_identity_t<T> beta, DistMatrix<T>& C) {
  rank2k_run<T>("syr2k_mgpu", false, uplo, k, alpha, A, lda, B, ldb, beta, C);
}

#define MGBLAS_INSTANTIATE(T)                                                                 \
  template void her2k_mgpu<T>(Uplo, int64_t, T, const T*, int64_t, const T*, int64_t,        \
                              real_type_t<T>, DistMatrix<T>&);                               \
  template void syr2k_mgpu<T>(Uplo, int64_t, T, const T*, int64_t, const T*, int64_t, T,      \
                              DistMatrix<T>&);
MGBLAS_FOR_EACH_SCALAR(MGBLAS_INSTANTIATE)
#undef MGBLAS_INSTANTIATE

}  // namespace mgblas
