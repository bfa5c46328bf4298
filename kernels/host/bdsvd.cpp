// SPDX-License-Identifier: BSD-3-Clause
// Host engine of the bidiagonal SVD (kernels/bdsvd_kernels.hpp): LAPACK's ?bdsdc with
// COMPQ = 'I' and the window's columns copied out (the host engine's rule of calling
// the CPU library); with MGBLAS_BDSVD=tgk the CUDA engine's Golub-Kahan algorithm
// (kernels/detail/bdsvd_tgk.hpp) on this engine's kernels, so that it runs without a GPU.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <utility>
#include <cstdlib>
#include <string_view>
#include <type_traits>
#include <vector>

#include "core/error.hpp"
#include "kernels/bdsvd_kernels.hpp"
#include "kernels/detail/bdsvd_tgk.hpp"
#include "kernels/gemm_kernels.hpp"
#include "kernels/host/detail/cblas.hpp"
#include "kernels/larfb_kernels.hpp"
#include "kernels/stebz_kernels.hpp"
#include "kernels/stedc_kernels.hpp"
#include "kernels/sy2sb_kernels.hpp"

namespace mgblas::kernels::host {
namespace {

// MGBLAS_BDSVD (docs/environment.md): unset, empty or "bdsdc": LAPACK; "tgk": the CUDA
// engine's algorithm. Read at every call so tests can switch between calls.
bool use_tgk() {
  const char* v = std::getenv("MGBLAS_BDSVD");
  if (v == nullptr || *v == '\0' || std::string_view(v) == "bdsdc") return false;
  if (std::string_view(v) == "tgk") return true;
  MGBLAS_THROW(BadArgument, "environment variable MGBLAS_BDSVD = '", v,
               "' must be 'bdsdc' or 'tgk'");
}

MGBLAS_BDSVD_TGK_OPS(HostKernels, host)
struct HostOps : HostKernels {
  static void wait(const Device&, cudaStream_t) {}
};

template <Scalar T>
void svd_bdsdc(Uplo uplo, int64_t n, const real_type_t<T>* d, const real_type_t<T>* e,
               int64_t il, int64_t iu, real_type_t<T>* s, T* U, int64_t ldu, T* V, int64_t ldv) {
  using R = real_type_t<T>;
  const auto ln = static_cast<lapack_int>(detail::to_blas_int("bidiag_svd", "n", n));
  const bool vectors = iu > il;
  const auto un = static_cast<std::size_t>(n);
  std::vector<R> ee(un, R(0)), u(vectors ? un * un : 1), vt(vectors ? un * un : 1);
  std::copy_n(d, n, s);
  std::copy_n(e, n - 1, ee.begin());
  const char compq = vectors ? 'I' : 'N';
  const lapack_int ld = vectors ? ln : 1;
  const char lu = uplo == Uplo::Upper ? 'U' : 'L';
  lapack_int info;
  if constexpr (std::is_same_v<R, float>)
    info = LAPACKE_sbdsdc(LAPACK_COL_MAJOR, lu, compq, ln, s, ee.data(), u.data(), ld, vt.data(),
                          ld, nullptr, nullptr);
  else
    info = LAPACKE_dbdsdc(LAPACK_COL_MAJOR, lu, compq, ln, s, ee.data(), u.data(), ld, vt.data(),
                          ld, nullptr, nullptr);
  if (info != 0) MGBLAS_THROW(Error, "bidiag_svd: LAPACK ?bdsdc returned info ", info);
  for (int64_t j = il; j < iu; ++j)
    for (int64_t i = 0; i < n; ++i) {
      U[i + (j - il) * ldu] = T(u[static_cast<std::size_t>(i + j * n)]);
      V[i + (j - il) * ldv] = T(vt[static_cast<std::size_t>(j + i * n)]);  // V = VT^T
    }
}

}  // namespace

#define MGBLAS_HOST_BDSVD_(T)                                                                \
  MGBLAS_DECLARE_BDSVD_KERNEL(T) {                                                           \
    if (use_tgk())                                                                           \
      kernels::detail::bidiag_svd_tgk<HostOps, T>(dev, stream, uplo, n, d, e, il, iu, s, U,  \
                                                  ldu, V, ldv);                               \
    else                                                                                     \
      svd_bdsdc<T>(uplo, n, d, e, il, iu, s, U, ldu, V, ldv);                                \
  }                                                                                          \
  MGBLAS_DECLARE_TGK_SPLIT_KERNEL(T) {                                                       \
    const real_type_t<T> r2 = std::sqrt(real_type_t<T>(2));                                  \
    for (int64_t c = 0; c < k; ++c)                                                          \
      for (int64_t i = 0; i < n; ++i) {                                                      \
        X[i + (k - 1 - c) * ldx] = r2 * Z[2 * i + c * ldz];                                  \
        Y[i + (k - 1 - c) * ldy] = r2 * Z[2 * i + 1 + c * ldz];                              \
      }                                                                                      \
  }                                                                                          \
  MGBLAS_DECLARE_BDSVD_STORE_KERNEL(T) {                                                     \
    for (int64_t j = 0; j < k; ++j)                                                          \
      for (int64_t i = 0; i < n; ++i) out[i + j * ldo] = T(Q[i + j * ldq]);                  \
  }
MGBLAS_FOR_EACH_SCALAR(MGBLAS_HOST_BDSVD_)
#undef MGBLAS_HOST_BDSVD_

}  // namespace mgblas::kernels::host
