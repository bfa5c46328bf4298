// SPDX-License-Identifier: BSD-3-Clause
// Host engine of the tridiagonal reduction's panel steps (kernels/latrd_kernels.hpp) and
// of the rank-2k update: CBLAS products and LAPACKE ?larfg, in the order of DLATRD.
#include <complex>
#include <vector>

#include "kernels/gemm_kernels.hpp"
#include "kernels/host/detail/cblas.hpp"
#include "kernels/latrd_kernels.hpp"

namespace mgblas::kernels::host {
namespace {

using detail::blas_int;
using detail::to_blas_int;

// y = alpha op(A) x + y over the CBLAS overloads, sizes narrowed.
template <Scalar T>
void gemv_acc(Op op, int64_t m, int64_t n, T alpha, const T* A, int64_t lda, const T* x, T* y) {
  if (m <= 0 || n <= 0) return;
  detail::gemv(detail::to_cblas<T>(op), to_blas_int("latrd", "m", m),
               to_blas_int("latrd", "n", n), alpha, A, to_blas_int("latrd", "ldp", lda), x, 1,
               T(1), y, 1);
}

template <Scalar T>
void larfg(int64_t n, T* alpha, T* x, T* tau) {
  const lapack_int ln = static_cast<lapack_int>(to_blas_int("latrd", "m", n));
  if constexpr (std::is_same_v<T, float>) LAPACKE_slarfg(ln, alpha, x, 1, tau);
  else if constexpr (std::is_same_v<T, double>) LAPACKE_dlarfg(ln, alpha, x, 1, tau);
  else if constexpr (std::is_same_v<T, scomplex>) LAPACKE_clarfg(ln, alpha, x, 1, tau);
  else LAPACKE_zlarfg(ln, alpha, x, 1, tau);
}

template <Scalar T>
void reflector(bool herm, int64_t m, int64_t j, T* Pn, int64_t ldp, const T* W, int64_t ldw,
               real_type_t<T>* d, real_type_t<T>* e, T* tau, T* t, T* p, int64_t p_len) {
  T* a = Pn + j + j * ldp;
  if (herm) a[0] = std::real(a[0]);
  if (j > 0) {
    // a -= V(j:m, 0:j) conj(W(j, 0:j)) + W(j:m, 0:j) conj(V(j, 0:j)): the rows of W and V
    // at j, conjugated, as contiguous vectors.
    std::vector<T> wj(j), vj(j);
    for (int64_t l = 0; l < j; ++l) {
      wj[l] = conj(W[j + l * ldw]);
      vj[l] = conj(Pn[j + l * ldp]);
    }
    gemv_acc(Op::N, m - j, j, T(-1), Pn + j, ldp, wj.data(), a);
    gemv_acc(Op::N, m - j, j, T(-1), W + j, ldw, vj.data(), a);
    if (herm) a[0] = std::real(a[0]);
  }
  d[j] = std::real(a[0]);
  if (j + 1 < m) {
    T beta = a[1];
    larfg<T>(m - j - 1, &beta, a + 2, tau + j);
    e[j] = std::real(beta);
    a[1] = T(1);
    const T* v = a + 1;
    for (int64_t l = 0; l < 2 * j; ++l) t[l] = T(0);
    gemv_acc(Op::C, m - j - 1, j, T(1), W + j + 1, ldw, v, t);
    gemv_acc(Op::C, m - j - 1, j, T(1), Pn + j + 1, ldp, v, t + j);
  }
  for (int64_t i = 0; i < p_len; ++i) p[i] = T(0);
}

template <Scalar T>
void finish(int64_t m, int64_t j, const T* Pn, int64_t ldp, T* W, int64_t ldw, const T* tau,
            const T* t, const T* p) {
  const int64_t len = m - j - 1;
  if (len <= 0) return;
  const T* v = Pn + j + 1 + j * ldp;
  T* w = W + j + 1 + j * ldw;
  const blas_int blen = to_blas_int("latrd", "m", len);
  detail::copy(blen, p, 1, w, 1);
  gemv_acc(Op::N, len, j, T(-1), Pn + j + 1, ldp, t, w);
  gemv_acc(Op::N, len, j, T(-1), W + j + 1, ldw, t + j, w);
  const T tj = tau[j];
  T dot(0);  // w^H v after scaling w by tau
  for (int64_t i = 0; i < len; ++i) {
    w[i] *= tj;
    dot += conj(w[i]) * v[i];
  }
  const T alpha = real_type_t<T>(-0.5) * tj * dot;
  detail::axpy(blen, alpha, v, 1, w, 1);
}

template <Scalar T>
void store(int64_t m, int64_t b, const T* Pn, int64_t ldp, const real_type_t<T>* e, T* A,
           int64_t lda) {
  detail::lacpy('L', to_blas_int("latrd", "m", m), to_blas_int("latrd", "b", b), Pn,
                to_blas_int("latrd", "ldp", ldp), A, to_blas_int("latrd", "lda", lda));
  for (int64_t j = 0; j < b && j + 1 < m; ++j) A[j + 1 + j * lda] = e[j];
}

template <Scalar T>
void reverse(int64_t m, int64_t n, const T* src, int64_t lds, T* dst, int64_t ldd) {
  for (int64_t j = 0; j < n; ++j)
    for (int64_t i = 0; i < m; ++i) dst[i + j * ldd] = src[(m - 1 - i) + (n - 1 - j) * lds];
}

template <Scalar T>
void rank2k_host(bool herm, Uplo uplo, int64_t n, int64_t k, T alpha, const T* A, int64_t lda,
                 const T* B, int64_t ldb, T beta, T* C, int64_t ldc) {
  if (n <= 0) return;
  const blas_int bn = to_blas_int("rank2k", "n", n), bk = to_blas_int("rank2k", "k", k);
  const blas_int blda = to_blas_int("rank2k", "lda", lda);
  const blas_int bldb = to_blas_int("rank2k", "ldb", ldb);
  const blas_int bldc = to_blas_int("rank2k", "ldc", ldc);
  const CBLAS_UPLO u = detail::to_cblas(uplo);
  if (beta == T(0)) {
    // BLAS may read C when beta == 0; zero the triangle so NaN cannot leak.
    for (int64_t j = 0; j < n; ++j)
      for (int64_t i = uplo == Uplo::Lower ? j : 0; i < (uplo == Uplo::Lower ? n : j + 1); ++i)
        C[i + j * ldc] = T(0);
  }
  if constexpr (std::is_same_v<T, float>) {
    cblas_ssyr2k(CblasColMajor, u, CblasNoTrans, bn, bk, alpha, A, blda, B, bldb, beta, C, bldc);
  } else if constexpr (std::is_same_v<T, double>) {
    cblas_dsyr2k(CblasColMajor, u, CblasNoTrans, bn, bk, alpha, A, blda, B, bldb, beta, C, bldc);
  } else {
    if (herm) {
      const real_type_t<T> rb = std::real(beta);
      if constexpr (std::is_same_v<T, scomplex>)
        cblas_cher2k(CblasColMajor, u, CblasNoTrans, bn, bk, &alpha, A, blda, B, bldb, rb, C, bldc);
      else
        cblas_zher2k(CblasColMajor, u, CblasNoTrans, bn, bk, &alpha, A, blda, B, bldb, rb, C, bldc);
    } else {
      if constexpr (std::is_same_v<T, scomplex>)
        cblas_csyr2k(CblasColMajor, u, CblasNoTrans, bn, bk, &alpha, A, blda, B, bldb, &beta, C, bldc);
      else
        cblas_zsyr2k(CblasColMajor, u, CblasNoTrans, bn, bk, &alpha, A, blda, B, bldb, &beta, C, bldc);
    }
  }
}

}  // namespace

#define MGBLAS_HOST_LATRD_(T)                                                               \
  MGBLAS_DECLARE_LATRD_REFLECTOR_KERNEL(T) {                                                \
    reflector<T>(herm, m, j, Pn, ldp, W, ldw, d, e, tau, t, p, p_len);                      \
  }                                                                                         \
  MGBLAS_DECLARE_LATRD_FINISH_KERNEL(T) { finish<T>(m, j, Pn, ldp, W, ldw, tau, t, p); }    \
  MGBLAS_DECLARE_LATRD_STEP_KERNEL(T) {                                                     \
    if (finish && j > 0) ::mgblas::kernels::host::finish<T>(m, j - 1, Pn, ldp, W, ldw, tau, t, p); \
    if (reflect) reflector<T>(herm, m, j, Pn, ldp, W, ldw, d, e, tau, t, acc, acc_len);   \
  }                                                                                         \
  MGBLAS_DECLARE_LATRD_STORE_KERNEL(T) { store<T>(m, b, Pn, ldp, e, A, lda); }              \
  MGBLAS_DECLARE_LATRD_REVERSE_KERNEL(T) { reverse<T>(m, n, src, lds, dst, ldd); }           \
  MGBLAS_DECLARE_RANK2K_KERNEL(T) {                                                         \
    rank2k_host<T>(herm, uplo, n, k, alpha, A, lda, B, ldb, beta, C, ldc);                  \
  }
MGBLAS_FOR_EACH_SCALAR(MGBLAS_HOST_LATRD_)
#undef MGBLAS_HOST_LATRD_

}  // namespace mgblas::kernels::host
