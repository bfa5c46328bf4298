// SPDX-License-Identifier: BSD-3-Clause
// Host engine of the band-to-bidiagonal bulge chase (kernels/gb2bd_kernels.hpp): the tasks
// in the order of the math, one sweep after the other, in plain loops on the work band (no
// CPU library returns the reflectors of this chase). The oracle of the CUDA engine, whose
// tasks do the same arithmetic in another order of summation.
#include <algorithm>
#include <cmath>
#include <complex>
#include <cstdint>
#include <vector>

#include "core/types.hpp"
#include "kernels/detail/safe_reflector.hpp"
#include "kernels/host/detail/conj.hpp"
#include "kernels/gb2bd_kernels.hpp"

namespace mgblas::kernels::host {
namespace {

using detail::conj_of;

// The chase on the work band W (kl = b - 1, ku = 2b - 1, leading dimension 3b).
template <Scalar T>
class Chase {
 public:
  using R = real_type_t<T>;
  Chase(int64_t n, int64_t b, T* W, T* VQ, T* tauQ, T* VP, T* tauP)
      : n_(n), b_(b), ku_(band2bd_work_ku(b)), ldw_(band2bd_work_ld(b)), W_(W), VQ_(VQ),
        tauQ_(tauQ), VP_(VP), tauP_(tauP), x_(static_cast<std::size_t>(b)),
        vp_(static_cast<std::size_t>(b)), vq_(static_cast<std::size_t>(b)) {}

  void sweep(int64_t s) {
    for (int64_t k = 0; k < band2bd_tasks(n_, b_, s); ++k) task(s, k);
  }

 private:
  T& at(int64_t i, int64_t j) { return W_[(ku_ + i - j) + j * ldw_]; }

  // The reflector H = I - tau v v^H with H^H x = (beta, 0, ..., 0) for x = x_[0 .. m),
  // into v (v(0) = 1); the identity (tau = 0) unless `generate`. Returns tau; beta in
  // `beta`.
  T reflector(int64_t m, bool generate, std::vector<T>& v, T& beta) {
    std::fill(v.begin(), v.end(), T(0));
    v[0] = T(1);
    beta = x_[0];
    if (!generate) return T(0);
    detail::SumSquares<R> ss = detail::SumSquares<R>::zero();
    for (int64_t i = 1; i < m; ++i) ss.add(std::real(x_[i]), std::imag(x_[i]));
    R bt, tr, ti, sr, si;
    int E = 0;
    // v = (2^-E x) / ((alpha - beta) 2^-E): finite even where the band's trailing entries
    // have decayed below the smallest normal (1 / (alpha - beta) alone would overflow).
    detail::reflector_scalars_split<R>(std::real(x_[0]), std::imag(x_[0]), ss.norm(), bt, tr, ti,
                                       sr, si, E);
    beta = T(bt);
    if constexpr (is_complex_v<T>) {
      const T scale(sr, si);
      for (int64_t i = 1; i < m; ++i)
        v[i] = T(std::ldexp(std::real(x_[i]), -E), std::ldexp(std::imag(x_[i]), -E)) * scale;
      return T(tr, ti);
    } else {
      for (int64_t i = 1; i < m; ++i) v[i] = std::ldexp(x_[i], -E) * sr;
      return tr;
    }
  }

  void task(int64_t s, int64_t k) {
    const int64_t c = s + 1 + k * b_, m = std::min(b_, n_ - c), r = k == 0 ? s : c - b_;
    // A complex task 0 is a phase even of length 1: it makes e(s) and d(s + 1) real.
    const bool generate = m > 1 || (k == 0 && is_complex_v<T>);

    // (a) G from row r over the columns c .. c + m: A(r, C) G = (beta, 0, ...), G built
    // from the conjugated row; then rows r + 1 .. c + m - 1 times G.
    for (int64_t j = 0; j < m; ++j) x_[j] = conj_of(at(r, c + j));
    T beta;
    const T tau_p = reflector(m, generate, vp_, beta);
    if (tau_p != T(0)) {
      at(r, c) = beta;
      for (int64_t j = 1; j < m; ++j) at(r, c + j) = T(0);
      for (int64_t i = r + 1; i < c + m; ++i) {  // a := a - tau (a v) v^H
        T w = T(0);
        for (int64_t j = 0; j < m; ++j) w += at(i, c + j) * vp_[j];
        w *= tau_p;
        for (int64_t j = 0; j < m; ++j) at(i, c + j) -= w * conj_of(vp_[j]);
      }
    }

    // (b) H from column c over the rows c .. c + m: H^H A(C, c) = (beta, 0, ...); then
    // H^H times the columns c + 1 .. c + m + b - 1 of those rows (the bulge).
    for (int64_t i = 0; i < m; ++i) x_[i] = at(c + i, c);
    const T tau_q = reflector(m, generate, vq_, beta);
    if (tau_q != T(0)) {
      at(c, c) = beta;
      for (int64_t i = 1; i < m; ++i) at(c + i, c) = T(0);
      const T ctau = conj_of(tau_q);
      for (int64_t j = c + 1; j < std::min(n_, c + m + b_); ++j) {  // a := a - v tau^* (v^H a)
        T t = T(0);
        for (int64_t i = 0; i < m; ++i) t += conj_of(vq_[i]) * at(c + i, j);
        t *= ctau;
        for (int64_t i = 0; i < m; ++i) at(c + i, j) -= vq_[i] * t;
      }
    }

    if (VQ_ != nullptr) {
      const int64_t off = band2tri_v2_offset(n_, b_, s, k), slot = s * band2tri_tau2_stride(n_, b_) + k;
      std::copy_n(vq_.data(), m, VQ_ + off);
      std::copy_n(vp_.data(), m, VP_ + off);
      tauQ_[slot] = tau_q;
      tauP_[slot] = tau_p;
    }
  }

  int64_t n_, b_, ku_, ldw_;
  T* W_;
  T* VQ_;
  T* tauQ_;
  T* VP_;
  T* tauP_;
  std::vector<T> x_, vp_, vq_;
};

template <Scalar T>
void chase(int64_t n, int64_t b, const T* AB, int64_t ldab, real_type_t<T>* d, real_type_t<T>* e,
           T* VQ, T* tauQ, T* VP, T* tauP) {
  if (n == 0) return;
  // b >= n - 1 is a full upper triangle: the layout (one task per sweep) is that of b = n - 1.
  const int64_t be = std::max<int64_t>(1, std::min(b, n - 1)), ku = band2bd_work_ku(be),
                ldw = band2bd_work_ld(be);
  std::vector<T> W(static_cast<std::size_t>(ldw * n), T(0));
  for (int64_t j = 0; j < n; ++j)
    for (int64_t o = -std::min(be, j); o <= 0; ++o)  // row j + o of column j
      W[(ku + o) + j * ldw] = AB[(b + o) + j * ldab];
  W[ku] = T(std::real(W[ku]));  // B(0, 0) is taken as real (no reflector makes it so)
  if (VQ != nullptr) {
    std::fill_n(tauQ, band2tri_tau2_size(n, be), T(0));
    std::fill_n(tauP, band2tri_tau2_size(n, be), T(0));
    // The layout's slots that no task fills (b = 1: k = 1, a reflector of length 1) hold
    // the identity.
    for (int64_t s = 0; s + 1 < n; ++s)
      for (int64_t k = band2bd_tasks(n, be, s); k < band2tri_tasks(n, be, s); ++k)
        VQ[band2tri_v2_offset(n, be, s, k)] = VP[band2tri_v2_offset(n, be, s, k)] = T(1);
  }
  Chase<T> ch(n, be, W.data(), VQ, tauQ, VP, tauP);
  for (int64_t s = 0; s + 1 < n; ++s) ch.sweep(s);
  for (int64_t j = 0; j < n; ++j) d[j] = std::real(W[ku + j * ldw]);
  for (int64_t j = 0; j + 1 < n; ++j) e[j] = std::real(W[(ku - 1) + (j + 1) * ldw]);
}

}  // namespace

#define MGBLAS_HOST_GB2BD_(T)                                            \
  MGBLAS_DECLARE_GB2BD_KERNEL(T) {                                       \
    chase<T>(n, b, AB, ldab, d, e, VQ, tauQ, VP, tauP);                  \
  }
MGBLAS_FOR_EACH_SCALAR(MGBLAS_HOST_GB2BD_)
#undef MGBLAS_HOST_GB2BD_

}  // namespace mgblas::kernels::host
