// SPDX-License-Identifier: BSD-3-Clause
// Host engine of the bidiagonal reduction's panel steps (kernels/labrd_kernels.hpp):
// plain loops over host memory in a fixed order, the reference for the CUDA engine
// (LAPACK's ?lacpy for the store).
#include <cmath>
#include <complex>
#include <vector>

#include "kernels/detail/safe_reflector.hpp"
#include "kernels/host/detail/cblas.hpp"
#include "kernels/labrd_kernels.hpp"

namespace mgblas::kernels::host {
namespace {

template <Scalar T>
T cj(T a) {
  if constexpr (is_complex_v<T>) return std::conj(a);
  else return a;
}

template <typename R> using SumSq = ::mgblas::kernels::detail::SumSquares<R>;

// |v|^2 into the three sums of kernels/detail/safe_reflector.hpp.
template <Scalar T>
void add_squares(SumSq<real_type_t<T>>& s, T v) {
  if constexpr (is_complex_v<T>) s.add(v.real(), v.imag());
  else s.add(v);
}

// beta, tau and 1 / (alpha - beta) of ?larfg from alpha and ||x||^2 as three sums, without
// overflow or underflow (kernels/detail/safe_reflector.hpp, the CUDA engine's arithmetic);
// H = I when x = 0 and alpha is real.
template <Scalar T>
void reflector_scalars(T alpha, const SumSq<real_type_t<T>>& s, real_type_t<T>& beta, T& tau,
                       T& scale) {
  using R = real_type_t<T>;
  R tr, ti, sr, si;
  ::mgblas::kernels::detail::reflector_scalars<R>(std::real(alpha), std::imag(alpha), s.norm(), beta, tr, ti, sr, si);
  if constexpr (is_complex_v<T>) {
    tau = T(tr, ti);
    scale = T(sr, si);
  } else {
    tau = tr;
    scale = sr;
  }
}

template <Scalar T>
void column_step(int64_t mr, int64_t j, int64_t jx, T* P, int64_t ldp, const T* X, int64_t ldx,
            const T* ycoef, const T* ucoef, real_type_t<T>* beta_out, T* tau_out, T* s) {
  using R = real_type_t<T>;
  T* a = P + j * ldp;
  for (int64_t r = 0; r < mr; ++r) {
    T u = T(0);
    for (int64_t l = 0; l < j; ++l) u += P[r + l * ldp] * ycoef[l];
    for (int64_t l = 0; l < jx; ++l) u += X[r + l * ldx] * ucoef[l];
    a[r] -= u;
  }
  SumSq<R> ss = SumSq<R>::zero();
  for (int64_t r = 1; r < mr; ++r) add_squares(ss, a[r]);
  R beta;
  T tau, scale;
  reflector_scalars<T>(a[0], ss, beta, tau, scale);
  *beta_out = beta;
  *tau_out = tau;
  a[0] = T(1);
  for (int64_t r = 1; r < mr; ++r) a[r] *= scale;
  for (int64_t l = 0; l < j + jx; ++l) {
    const T* c = l < j ? P + l * ldp : X + (l - j) * ldx;
    T t = T(0);
    for (int64_t r = 0; r < mr; ++r) t += cj(c[r]) * a[r];
    s[l] = t;
  }
}

// The row step's sums against the updated row r (labrd_row step 2's second half).
template <Scalar T>
void row_sums(int64_t nq, const T* Y, const T* Ut, int64_t ldy, LabrdSums S, const T* rw,
              int64_t lda, bool owns_head, const T* a1, T* sums) {
  using R = real_type_t<T>;
  const int64_t q0 = owns_head ? 1 : 0;
  for (int64_t l = 0; l < S.jy; ++l) {
    T t = T(0);
    for (int64_t q = q0; q < nq; ++q) t += cj(Y[q + l * ldy]) * rw[q * lda];
    sums[S.q1() + l] = t;
  }
  for (int64_t l = 0; l < S.ju; ++l) {
    T t = T(0);
    for (int64_t q = q0; q < nq; ++q) t += cj(Ut[q + l * ldy]) * rw[q * lda];
    sums[S.q2() + l] = t;
  }
  SumSq<R> ss = SumSq<R>::zero();
  for (int64_t q = q0; q < nq; ++q) add_squares(ss, rw[q * lda]);
  sums[S.ss()] = T(ss.sml);
  sums[S.ss() + 1] = T(ss.med);
  sums[S.ss() + 2] = T(ss.big);
  sums[S.alpha()] = owns_head ? rw[0] : T(0);
  for (int64_t i = 0; i < S.m1; ++i) sums[S.a1() + i] = owns_head ? a1[i] : T(0);
  for (int64_t l = 0; l < S.jy; ++l) sums[S.y1() + l] = owns_head ? cj(Y[l * ldy]) : T(0);
  for (int64_t l = 0; l < S.ju; ++l) sums[S.u1() + l] = owns_head ? cj(Ut[l * ldy]) : T(0);
}

template <Scalar T>
void row_step(int64_t nq, T* Y, T* Ut, int64_t ldy, int64_t fix, int64_t jxf, const T* s,
         const T* tau_y, bool do_row, LabrdSums S, const T* vrow, int64_t ldv, const T* xrow,
         int64_t ldxr, T* rw, int64_t lda, bool owns_head, const T* a1, T* sums) {
  if (fix >= 0)
    for (int64_t q = 0; q < nq; ++q) {
      T y = Y[q + fix * ldy];
      for (int64_t l = 0; l < fix; ++l) y -= Y[q + l * ldy] * s[l];
      for (int64_t l = 0; l < jxf; ++l) y -= Ut[q + l * ldy] * s[fix + l];
      Y[q + fix * ldy] = *tau_y * y;
    }
  if (!do_row) return;
  for (int64_t q = 0; q < nq; ++q) {
    T r = cj(rw[q * lda]);
    for (int64_t l = 0; l < S.jy; ++l) r -= Y[q + l * ldy] * cj(vrow[l * ldv]);
    for (int64_t l = 0; l < S.ju; ++l) r -= Ut[q + l * ldy] * cj(xrow[l * ldxr]);
    rw[q * lda] = r;
  }
  row_sums<T>(nq, Y, Ut, ldy, S, rw, lda, owns_head, a1, sums);
}

// labrd_fused one column at a time: its A^H v, Y's entry, the row's entry and then the
// column's share of A r, so each column is read once (the loop the CUDA engine runs
// on a cluster of blocks per column tile).
template <Scalar T>
void fused_step(int64_t nq, const T* v, T* Y, const T* Ut, int64_t ldy, const T* s,
                const T* tau_y, LabrdSums S, const T* vrow, int64_t ldv, const T* xrow,
                int64_t ldxr, T* rw, int64_t lda, bool owns_head, T* sums) {
  const int64_t md = S.m1 + 1, fix = S.jy - 1, q0 = owns_head ? 1 : 0;
  T* z = sums + S.z();
  for (int64_t i = 0; i < S.m1; ++i) z[i] = T(0);
  for (int64_t q = 0; q < nq; ++q) {
    T* a = rw + q * lda;
    T y = T(0);
    for (int64_t t = 0; t < md; ++t) y += cj(a[t]) * v[t];
    for (int64_t l = 0; l < fix; ++l) y -= Y[q + l * ldy] * s[l];
    for (int64_t l = 0; l < S.ju; ++l) y -= Ut[q + l * ldy] * s[fix + l];
    Y[q + fix * ldy] = *tau_y * y;
    T r = cj(a[0]);
    for (int64_t l = 0; l < S.jy; ++l) r -= Y[q + l * ldy] * cj(vrow[l * ldv]);
    for (int64_t l = 0; l < S.ju; ++l) r -= Ut[q + l * ldy] * cj(xrow[l * ldxr]);
    a[0] = r;
    if (q >= q0)
      for (int64_t t = 1; t < md; ++t) z[t - 1] += a[t] * r;
  }
  row_sums<T>(nq, Y, Ut, ldy, S, rw, lda, owns_head, owns_head ? rw + 1 : nullptr, sums);
}

template <Scalar T>
void finish_step(LabrdSums S, const T* sums, real_type_t<T>* beta_out, T* tau_out, T* coef,
            int64_t jy0, const T* P, int64_t ldp, T* X, int64_t ldx, T* x, int64_t nq,
            bool owns_head, T* rw, int64_t lda, T* ut_col) {
  real_type_t<T> beta;
  T tau, sc;
  const SumSq<real_type_t<T>> ss{std::real(sums[S.ss()]), std::real(sums[S.ss() + 1]),
                                 std::real(sums[S.ss() + 2])};
  reflector_scalars<T>(sums[S.alpha()], ss, beta, tau, sc);
  *beta_out = beta;
  *tau_out = tau;
  std::vector<T> yu(static_cast<std::size_t>(S.jy)), uu(static_cast<std::size_t>(S.ju));
  for (int64_t l = 0; l < S.jy; ++l) {
    coef[l] = sums[S.y1() + l];
    yu[l] = sums[S.y1() + l] + sc * sums[S.q1() + l];
  }
  for (int64_t l = 0; l < S.ju; ++l) {
    coef[jy0 + l] = sums[S.u1() + l];
    uu[l] = sums[S.u1() + l] + sc * sums[S.q2() + l];
  }
  coef[jy0 + S.ju] = T(1);
  for (int64_t i = 0; i < S.m1; ++i) {
    T v = sums[S.a1() + i] + sc * sums[S.z() + i];
    for (int64_t l = 0; l < S.jy; ++l) v -= P[i + l * ldp] * yu[l];
    for (int64_t l = 0; l < S.ju; ++l) v -= X[i + l * ldx] * uu[l];
    x[i] = tau * v;
  }
  for (int64_t q = 0; q < nq; ++q) {
    const T u = owns_head && q == 0 ? T(1) : sc * rw[q * lda];
    ut_col[q] = u;
    rw[q * lda] = cj(u);
  }
}

// A's strictly lower triangle (rows 1.. of each of the b columns) from P: ?lacpy's lower
// triangle of the matrices one row down.
template <Scalar T>
void store(int64_t m, int64_t b, const T* P, int64_t ldp, T* A, int64_t lda) {
  if (m <= 1) return;
  using detail::to_blas_int;
  detail::lacpy('L', to_blas_int("labrd", "m", m - 1), to_blas_int("labrd", "b", b), P + 1,
                to_blas_int("labrd", "ldp", ldp), A + 1, to_blas_int("labrd", "lda", lda));
}

}  // namespace

#define MGBLAS_HOST_LABRD_(T)                                                              \
  MGBLAS_DECLARE_LABRD_COLUMN_KERNEL(T) {                                                  \
    column_step<T>(mr, j, jx, P, ldp, X, ldx, ycoef, ucoef, beta_out, tau_out, s);              \
  }                                                                                        \
  MGBLAS_DECLARE_LABRD_ROW_KERNEL(T) {                                                     \
    row_step<T>(nq, Y, Ut, ldy, fix, jxf, s, tau_y, do_row, S, vrow, ldv, xrow, ldxr, row, lda, \
           owns_head, a1, sums);                                                           \
  }                                                                                        \
  MGBLAS_DECLARE_LABRD_FUSED_KERNEL(T) {                                                   \
    fused_step<T>(nq, v, Y, Ut, ldy, s, tau_y, S, vrow, ldv, xrow, ldxr, row, lda, owns_head,  \
                  sums);                                                                   \
  }                                                                                        \
  MGBLAS_DECLARE_LABRD_FINISH_KERNEL(T) {                                                  \
    finish_step<T>(S, sums, beta_out, tau_out, coef, jy0, P, ldp, X, ldx, x, nq, owns_head, row, \
              lda, ut_col);                                                                \
  }                                                                                        \
  MGBLAS_DECLARE_LABRD_STORE_KERNEL(T) {                                                   \
    store<T>(m, b, P, ldp, A, lda);                                                        \
  }                                                                                        \
  MGBLAS_DECLARE_LABRD_PUT_KERNEL(T) {                                                     \
    for (int64_t i = 0; i < n; ++i) dst[i * inc] = T(src[i]);                              \
  }
MGBLAS_FOR_EACH_SCALAR(MGBLAS_HOST_LABRD_)
#undef MGBLAS_HOST_LABRD_

}  // namespace mgblas::kernels::host
