// SPDX-License-Identifier: BSD-3-Clause
// Host engine of the band-to-tridiagonal bulge chase (kernels/sb2st_kernels.hpp): the
// tasks in the order of the math, one sweep after the other, in plain loops (no CPU
// library returns the reflectors of this chase). The oracle of the CUDA engine, whose
// tasks do the same arithmetic in another order of summation.
#include <algorithm>
#include <complex>
#include <cstdint>
#include <vector>

#include "core/types.hpp"
#include "kernels/detail/safe_reflector.hpp"
#include "kernels/host/detail/conj.hpp"
#include "kernels/sb2st_kernels.hpp"

namespace mgblas::kernels::host {
namespace {

using detail::conj_of;

// The chase on the work band W (lower storage, leading dimension ldw >= 2b).
template <Scalar T>
class Chase {
 public:
  using R = real_type_t<T>;
  Chase(int64_t n, int64_t b, T* W, int64_t ldw, T* V2, T* tau2)
      : n_(n), b_(b), W_(W), ldw_(ldw), V2_(V2), tau2_(tau2),
        B_(static_cast<std::size_t>(b * b)), D_(static_cast<std::size_t>(b * b)),
        v_(static_cast<std::size_t>(b)), vprev_(static_cast<std::size_t>(b)),
        y_(static_cast<std::size_t>(b)) {}

  void sweep(int64_t s) {
    const int64_t tasks = band2tri_tasks(n_, b_, s);
    for (int64_t k = 0; k < tasks; ++k) task(s, k);
  }

 private:
  // A(i, j), i >= j, in the work band.
  T& at(int64_t i, int64_t j) { return W_[(i - j) + j * ldw_]; }

  void task(int64_t s, int64_t k) {
    const int64_t r = s + 1 + k * b_, m = std::min(b_, n_ - r);
    const int64_t c = k == 0 ? s : r - b_, mc = k == 0 ? 1 : b_;
    // The block A(R_k, c .. c + mc) in B (m x mc, leading dimension b).
    for (int64_t j = 0; j < mc; ++j)
      for (int64_t i = 0; i < m; ++i) B_[i + j * b_] = at(r + i, c + j);
    if (k > 0) {  // B := B H_{k-1}
      for (int64_t i = 0; i < m; ++i) {
        T u = T(0);
        for (int64_t j = 0; j < mc; ++j) u += B_[i + j * b_] * vprev_[j];
        u *= tau_prev_;
        for (int64_t j = 0; j < mc; ++j) B_[i + j * b_] -= u * conj_of(vprev_[j]);
      }
    }
    // H_k from B(:, 0); the identity for a length-1 reflector but the complex phase of
    // task 0.
    T tau = T(0);
    std::fill(v_.begin(), v_.end(), T(0));
    v_[0] = T(1);
    if (m > 1 || (k == 0 && is_complex_v<T>)) {
      detail::SumSquares<R> ss = detail::SumSquares<R>::zero();
      for (int64_t i = 1; i < m; ++i) ss.add(std::real(B_[i]), std::imag(B_[i]));
      R beta, tr, ti, sr, si;
      detail::reflector_scalars<R>(std::real(B_[0]), std::imag(B_[0]), ss.norm(), beta, tr, ti,
                                   sr, si);
      if constexpr (is_complex_v<T>) {
        tau = T(tr, ti);
        const T scale(sr, si);
        for (int64_t i = 1; i < m; ++i) v_[i] = B_[i] * scale;
      } else {
        tau = tr;
        for (int64_t i = 1; i < m; ++i) v_[i] = B_[i] * sr;
      }
      B_[0] = T(beta);
      for (int64_t i = 1; i < m; ++i) B_[i] = T(0);
    }
    // B(:, 1:) := H^H B(:, 1:)
    if (tau != T(0))
      for (int64_t j = 1; j < mc; ++j) {
        T t = T(0);
        for (int64_t i = 0; i < m; ++i) t += conj_of(v_[i]) * B_[i + j * b_];
        t *= conj_of(tau);
        for (int64_t i = 0; i < m; ++i) B_[i + j * b_] -= v_[i] * t;
      }
    for (int64_t j = 0; j < mc; ++j)
      for (int64_t i = 0; i < m; ++i) at(r + i, c + j) = B_[i + j * b_];
    if (tau != T(0)) two_sided(r, m, tau);
    if (V2_ != nullptr) {
      std::copy_n(v_.data(), m, V2_ + band2tri_v2_offset(n_, b_, s, k));
      tau2_[s * band2tri_tau2_stride(n_, b_) + k] = tau;
    }
    std::swap(v_, vprev_);
    tau_prev_ = tau;
  }

  // A(R, R) := H^H A(R, R) H on the Hermitian diagonal block at rows r .. r + m:
  // y = A v, w = tau y - (|tau|^2 / 2) (v^H y) v, A -= v w^H + w v^H.
  void two_sided(int64_t r, int64_t m, T tau) {
    for (int64_t j = 0; j < m; ++j)
      for (int64_t i = j; i < m; ++i) {
        const T a = at(r + i, r + j);
        D_[i + j * b_] = i == j ? T(std::real(a)) : a;
        D_[j + i * b_] = conj_of(a);
      }
    T vy = T(0);
    for (int64_t i = 0; i < m; ++i) {
      T y = T(0);
      for (int64_t j = 0; j < m; ++j) y += D_[i + j * b_] * v_[j];
      y_[i] = y;
      vy += conj_of(v_[i]) * y;
    }
    const R half = R(0.5) * std::norm(tau) * std::real(vy);
    for (int64_t i = 0; i < m; ++i) y_[i] = tau * y_[i] - half * v_[i];  // w
    for (int64_t j = 0; j < m; ++j) {
      at(r + j, r + j) = T(std::real(D_[j + j * b_]) - R(2) * std::real(v_[j] * conj_of(y_[j])));
      for (int64_t i = j + 1; i < m; ++i)
        at(r + i, r + j) = D_[i + j * b_] - v_[i] * conj_of(y_[j]) - y_[i] * conj_of(v_[j]);
    }
  }

  int64_t n_, b_;
  T* W_;
  int64_t ldw_;
  T* V2_;
  T* tau2_;
  std::vector<T> B_, D_, v_, vprev_, y_;
  T tau_prev_ = T(0);
};

template <Scalar T>
void chase(int64_t n, int64_t b, T* AB, int64_t ldab, real_type_t<T>* d, real_type_t<T>* e,
           T* V2, T* tau2) {
  if (n == 0) return;
  // b >= n - 1 is a full matrix: the layout (one task per sweep) is that of b = n - 1.
  const int64_t be = std::max<int64_t>(1, std::min(b, n - 1)), ldw = band2tri_work_ld(be);
  std::vector<T> work;
  T* W = AB;
  int64_t ld = ldab;
  if (ldab < ldw) {
    work.assign(static_cast<std::size_t>(ldw * n), T(0));
    W = work.data();
    ld = ldw;
  }
  for (int64_t j = 0; j < n; ++j) {
    for (int64_t o = 0; o < ldw; ++o) {
      const T a = o <= be && j + o < n ? AB[o + j * ldab] : T(0);
      W[o + j * ld] = o == 0 ? T(std::real(a)) : a;  // a Hermitian diagonal is real
    }
  }
  if (tau2 != nullptr && V2 != nullptr)
    std::fill_n(tau2, band2tri_tau2_size(n, be), T(0));
  Chase<T> ch(n, be, W, ld, V2, tau2);
  for (int64_t s = 0; s + 1 < n; ++s) ch.sweep(s);
  for (int64_t j = 0; j < n; ++j) d[j] = std::real(W[j * ld]);
  for (int64_t j = 0; j + 1 < n; ++j) e[j] = std::real(W[1 + j * ld]);
}

// C := op(Q2) C one reflector at a time: Q2 C takes the sweeps from the last to the
// first, Q2^H C from the first (a sweep's reflectors touch disjoint rows, so their order
// within it does not matter).
template <Scalar T>
void apply_q(Op op, int64_t n, int64_t b, const T* V2, const T* tau2, int64_t m, T* C,
             int64_t ldc) {
  const int64_t be = std::max<int64_t>(1, std::min(b, n - 1)), stride = band2tri_tau2_stride(n, be);
  const bool forward = op != Op::N;
  for (int64_t step = 0; step + 1 < n; ++step) {
    const int64_t s = forward ? step : n - 2 - step;
    for (int64_t k = 0; k < band2tri_tasks(n, be, s); ++k) {
      const T tau = forward ? conj_of(tau2[s * stride + k]) : tau2[s * stride + k];
      if (tau == T(0)) continue;
      const int64_t r = s + 1 + k * be, len = std::min(be, n - r);
      const T* v = V2 + band2tri_v2_offset(n, be, s, k);
      for (int64_t j = 0; j < m; ++j) {  // c := c - tau v (v^H c)
        T* c = C + r + j * ldc;
        T w = T(0);
        for (int64_t i = 0; i < len; ++i) w += conj_of(v[i]) * c[i];
        w *= tau;
        for (int64_t i = 0; i < len; ++i) c[i] -= v[i] * w;
      }
    }
  }
}

}  // namespace

#define MGBLAS_HOST_SB2ST_APPLY_Q_(T)                   \
  MGBLAS_DECLARE_SB2ST_APPLY_Q_KERNEL(T) {               \
    apply_q<T>(op, n, b, V2, tau2, m, C, ldc);           \
  }
MGBLAS_FOR_EACH_SCALAR(MGBLAS_HOST_SB2ST_APPLY_Q_)
#undef MGBLAS_HOST_SB2ST_APPLY_Q_

#define MGBLAS_HOST_SB2ST_(T) \
  MGBLAS_DECLARE_SB2ST_KERNEL(T) { chase<T>(n, b, AB, ldab, d, e, V2, tau2); }
MGBLAS_FOR_EACH_SCALAR(MGBLAS_HOST_SB2ST_)
#undef MGBLAS_HOST_SB2ST_

}  // namespace mgblas::kernels::host
