// SPDX-License-Identifier: BSD-3-Clause
// Host engine of the dense-to-band steps (kernels/sy2sb_kernels.hpp): LAPACKE ?geqrf for
// a panel's QR (and this engine's larfb_form_v and larft for its WY form), plain loops for
// the band's copy and the blocks' copies, the engine's hemm per diagonal block.
#include <algorithm>
#include <vector>

#include "kernels/gemm_kernels.hpp"
#include "kernels/host/detail/cblas.hpp"
#include "kernels/larfb_kernels.hpp"
#include "kernels/sy2sb_kernels.hpp"

namespace mgblas::kernels::host {
namespace {

template <Scalar T>
void geqrf_host(int64_t m, int64_t n, T* A, int64_t lda, T* tau) {
  if (m == 0 || n == 0) return;
  const auto bm = static_cast<lapack_int>(detail::to_blas_int("geqrf", "m", m));
  const auto bn = static_cast<lapack_int>(detail::to_blas_int("geqrf", "n", n));
  const auto blda = static_cast<lapack_int>(detail::to_blas_int("geqrf", "lda", lda));
  // The _work entry: LAPACKE's plain one refuses a NaN in A (info -4), where a reduction
  // lets it spread into its outputs as documented.
  const auto call = detail::by_precision<T>(LAPACKE_sgeqrf_work, LAPACKE_dgeqrf_work,
                                            LAPACKE_cgeqrf_work, LAPACKE_zgeqrf_work);
  T query{};
  lapack_int info = call(LAPACK_COL_MAJOR, bm, bn, A, blda, tau, &query, -1);
  if (info == 0) {
    std::vector<T> work(static_cast<std::size_t>(std::max<double>(1.0, std::real(query))));
    info = call(LAPACK_COL_MAJOR, bm, bn, A, blda, tau, work.data(),
                static_cast<lapack_int>(work.size()));
  }
  if (info != 0) MGBLAS_THROW(Error, "geqrf: LAPACK ?geqrf returned info ", info);
}

template <Scalar T>
void pack_band_host(Uplo uplo, int64_t n, int64_t b, const LocalColumns& cols, const T* A,
                    int64_t ld, T* AB, int64_t ldab) {
  for (int64_t jl = cols.local_begin; jl < cols.local_end; ++jl) {
    const int64_t c = cols.global_col(jl);
    const T* col = A + jl * ld;
    AB[c * ldab] = T(std::real(col[c]));
    if (uplo == Uplo::Lower) {
      for (int64_t r = c + 1; r <= std::min(n - 1, c + b); ++r) AB[(r - c) + c * ldab] = col[r];
    } else {
      for (int64_t r = std::max<int64_t>(0, c - b); r < c; ++r)
        AB[(c - r) + r * ldab] = conj(col[r]);
    }
  }
}

template <Scalar T>
void add_blocks_host(int64_t count, int64_t rows, int64_t cols, const T* A, int64_t lda,
                     int64_t strideA, T beta, T* B, int64_t ldb, int64_t strideB) {
  for (int64_t i = 0; i < count; ++i)
    for (int64_t c = 0; c < cols; ++c) {
      const T* a = A + i * strideA + c * lda;
      T* b = B + i * strideB + c * ldb;
      for (int64_t r = 0; r < rows; ++r) b[r] = beta == T(0) ? a[r] : a[r] + beta * b[r];
    }
}

}  // namespace

#define MGBLAS_HOST_SY2SB_(T)                                                                \
  MGBLAS_DECLARE_GEQRF_KERNEL(T) { geqrf_host<T>(m, n, A, lda, tau); }                       \
  MGBLAS_DECLARE_GEQRF_WY_KERNEL(T) {                                                         \
    geqrf_host<T>(m, n, A, lda, tau);                                                         \
    const int64_t kq = std::min(m, n);                                                        \
    if (kq == 0) return;                                                                      \
    larfb_form_v(dev, stream, Direction::Forward, m, kq, A, lda, V, ldv);                     \
    larft(dev, stream, Direction::Forward, m, kq, V, ldv, tau, Tm, ldt);                      \
  }                                                                                           \
  MGBLAS_DECLARE_PACK_BAND_KERNEL(T) { pack_band_host<T>(uplo, n, b, cols, A, ld, AB, ldab); } \
  MGBLAS_DECLARE_HEMM_DIAGONAL_BLOCKS_KERNEL(T) {                                             \
    for (int64_t i = 0; i < count; ++i)                                                       \
      hemm(dev, stream, /*herm=*/true, uplo, nb, k, T(1), A + i * strideA, ld,                \
           V + i * strideV, ldv, T(1), Y + i * strideY, ldy);                                 \
  }                                                                                           \
  MGBLAS_DECLARE_ADD_BLOCKS_KERNEL(T) {                                                       \
    add_blocks_host<T>(count, rows, cols, A, lda, strideA, beta, B, ldb, strideB);            \
  }
MGBLAS_FOR_EACH_SCALAR(MGBLAS_HOST_SY2SB_)
#undef MGBLAS_HOST_SY2SB_

}  // namespace mgblas::kernels::host
