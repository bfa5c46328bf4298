// SPDX-License-Identifier: BSD-3-Clause
// The scalar arithmetic of a Householder reflector (LAPACK ?larfg's H^H (alpha, x) =
// (beta, 0)) that neither overflows nor underflows, shared by the host and CUDA engines
// of the tridiagonal and bidiagonal panels (private, not installed; host-and-device
// code).
//
// 1. ||x||^2 as three sums (SumSquares): each entry's square goes, by the size of the
//    entry, into a sum of squares scaled down (entries above tbig), unscaled, or scaled
//    up (below tsml), with fixed power-of-two scalings, so that no sum overflows for
//    entries up to the largest finite value, and entries down to the smallest normal
//    keep their full precision (Blue's method, as the reference ?nrm2 does it). The
//    three sums are plain sums: blocks, grids, clusters and devices add them as they
//    added the one sum of squares before, in the same passes (no max pass, no second
//    reduction over the devices).
// 2. ||x|| = unit * 2^exp2 from the three sums (SumSquares::norm), kept with its binary
//    exponent apart so that a norm near the underflow threshold loses no bits.
// 3. beta, tau and 1 / (alpha - beta) (reflector_scalars) after scaling alpha and ||x||
//    by the power of two 2^-E that brings the largest of |Re alpha|, |Im alpha|, ||x||
//    into [1, 2): then sqrt(ar^2 + ai^2 + ||x||^2) is safe (the hypot of ?lapy3), and so
//    are tau = (beta - alpha) / beta and 1 / z = conj(z) / |z|^2 with z = alpha - beta
//    (|z| >= |beta| >= 1 there: ?larfg's ?ladiv), and the results are scaled back by
//    2^E (beta) and 2^-E (1 / (alpha - beta)). This is what ?larfg's loop of rescaling
//    x and alpha by 1 / safmin achieves for a tiny beta, done on the scalars alone: tau
//    and v = x / (alpha - beta) do not depend on the common scale of (alpha, x), so no
//    pass over x is needed. Scaling by a power of two is exact, so on ordinary inputs
//    the results are those of the unscaled formulas, up to the rounding of the sums.
//
// Limits: a column whose entries are all subnormal (below the smallest normal) gets an
// exact tau but 1 / (alpha - beta) may overflow (inf in v); beta itself overflows when
// the true ||(alpha, x)|| exceeds the largest finite value, as in LAPACK. NaN or Inf in
// alpha or x gives NaN or Inf in beta and tau.
#pragma once

#include <cmath>
#include <cstdint>
#include <limits>

#if defined(__CUDACC__)
#define MGBLAS_REFL_HD_ __host__ __device__ __forceinline__
#define MGBLAS_REFL_CONST_ __host__ __device__ constexpr
#else
#define MGBLAS_REFL_HD_ inline
#define MGBLAS_REFL_CONST_ constexpr
#endif

namespace mgblas::kernels::detail {

// ---- math on float and double, the same name on host and device ---------------------
template <typename R> MGBLAS_REFL_HD_ R refl_sqrt(R x) {
#if defined(__CUDA_ARCH__)
  if constexpr (sizeof(R) == 4) return sqrtf(x);
  else return ::sqrt(x);
#else
  return std::sqrt(x);
#endif
}
template <typename R> MGBLAS_REFL_HD_ R refl_abs(R x) {
#if defined(__CUDA_ARCH__)
  if constexpr (sizeof(R) == 4) return fabsf(x);
  else return ::fabs(x);
#else
  return std::fabs(x);
#endif
}
template <typename R> MGBLAS_REFL_HD_ R refl_ldexp(R x, int e) {
#if defined(__CUDA_ARCH__)
  if constexpr (sizeof(R) == 4) return ldexpf(x, e);
  else return ::ldexp(x, e);
#else
  return std::ldexp(x, e);
#endif
}
/// The binary exponent of a finite nonzero x: x = m 2^e with 1 <= |m| < 2.
template <typename R> MGBLAS_REFL_HD_ int refl_ilogb(R x) {
#if defined(__CUDA_ARCH__)
  if constexpr (sizeof(R) == 4) return ilogbf(x);
  else return ::ilogb(x);
#else
  return std::ilogb(x);
#endif
}
template <typename R> MGBLAS_REFL_HD_ bool refl_finite(R x) {
#if defined(__CUDA_ARCH__)
  return isfinite(x);
#else
  return std::isfinite(x);
#endif
}
template <typename R> MGBLAS_REFL_HD_ R refl_copysign(R x, R s) {
#if defined(__CUDA_ARCH__)
  if constexpr (sizeof(R) == 4) return copysignf(x, s);
  else return ::copysign(x, s);
#else
  return std::copysign(x, s);
#endif
}

// ---- the three-sum norm ---------------------------------------------------------------
MGBLAS_REFL_CONST_ int refl_floor_half(int k) { return k >= 0 ? k / 2 : -((-k + 1) / 2); }
MGBLAS_REFL_CONST_ int refl_ceil_half(int k) { return -refl_floor_half(-k); }
template <typename R> MGBLAS_REFL_CONST_ R refl_pow2(int k) {
  R r = 1;
  for (; k > 0; --k) r *= 2;
  for (; k < 0; ++k) r /= 2;
  return r;
}

/// The thresholds and scalings of the three sums for R (t digits, exponents of normal
/// numbers in [emin - 1, emax - 1] in std::numeric_limits' convention):
///   entries below tsml = 2^ceil((emin - 1) / 2) are scaled up by ssml = 2^-floor((emin - t) / 2),
///   entries above tbig = 2^floor((emax - t + 1) / 2) are scaled down by sbig = 2^-ceil((emax + t - 1) / 2);
/// double: 2^-511, 2^537, 2^486, 2^-538; float: 2^-63, 2^75, 2^52, 2^-76.
template <typename R> struct NormConstants {
  static constexpr int t = std::numeric_limits<R>::digits;
  static constexpr int emin = std::numeric_limits<R>::min_exponent;
  static constexpr int emax = std::numeric_limits<R>::max_exponent;
  static constexpr int sml_exp = -refl_floor_half(emin - t);  // ssml = 2^sml_exp
  static constexpr int big_exp = -refl_ceil_half(emax + t - 1);  // sbig = 2^big_exp
  static constexpr R tsml = refl_pow2<R>(refl_ceil_half(emin - 1));
  static constexpr R tbig = refl_pow2<R>(refl_floor_half(emax - t + 1));
  static constexpr R ssml = refl_pow2<R>(sml_exp);
  static constexpr R sbig = refl_pow2<R>(big_exp);
};

/// ||x|| = unit * 2^exp2.
template <typename R> struct ScaledNorm {
  R unit;
  int exp2;
};

/// Sums of squares of real numbers (the real and imaginary parts of complex entries), in
/// three ranges; a plain aggregate, added with operator+ (block and device sums).
template <typename R> struct SumSquares {
  R sml, med, big;

  static MGBLAS_REFL_HD_ SumSquares zero() { return {R(0), R(0), R(0)}; }

  /// x^2 into its range's sum. A NaN goes into med (the norm is then NaN), an Inf into big.
  MGBLAS_REFL_HD_ void add(R x) {
    using C = NormConstants<R>;
    const R a = refl_abs(x);
    if (a > C::tbig) {
      const R y = a * C::sbig;
      big += y * y;
    } else if (a < C::tsml) {
      const R y = a * C::ssml;
      sml += y * y;
    } else {
      med += a * a;
    }
  }
  MGBLAS_REFL_HD_ void add(R re, R im) {
    add(re);
    add(im);
  }

  MGBLAS_REFL_HD_ SumSquares operator+(const SumSquares& o) const {
    return {sml + o.sml, med + o.med, big + o.big};
  }

  /// The norm the sums stand for. Where big sums are present the small ones are below
  /// the rounding of the result and med joins scaled down (twice, so that its scaling
  /// does not underflow before the sum is formed); small and medium sums combine as a
  /// hypot of their square roots; a NaN in any sum is a NaN norm.
  MGBLAS_REFL_HD_ ScaledNorm<R> norm() const {
    using C = NormConstants<R>;
    if (!(med == med) || !(sml == sml) || !(big == big)) return {med + sml + big, 0};
    if (big > R(0)) return {refl_sqrt(big + (med * C::sbig) * C::sbig), -C::big_exp};
    if (sml > R(0)) {
      if (med > R(0)) {
        const R a = refl_sqrt(med);
        const R b = refl_ldexp(refl_sqrt(sml), -C::sml_exp);
        const R hi = a < b ? b : a, lo = a < b ? a : b;
        const R q = lo / hi;
        return {hi * refl_sqrt(R(1) + q * q), 0};
      }
      return {refl_sqrt(sml), -C::sml_exp};
    }
    return {refl_sqrt(med), 0};
  }
};

/// The reflector's scalars of ?larfg (see the top of the file) with 1 / (alpha - beta)
/// split as 2^-scale_exp (sc_re, sc_im): v = (2^-scale_exp x) (sc_re, sc_im) stays finite
/// where alpha and x are all subnormal, for a caller that can scale x itself (the bulge
/// chases, whose reflectors have a few entries each; their trailing entries can decay
/// below the smallest normal). H = I (tau = 0, beta = alpha, scale 1, exponent 0) when
/// x = 0 and alpha is real.
template <typename R>
MGBLAS_REFL_HD_ void reflector_scalars_split(R ar, R ai, ScaledNorm<R> xn, R& beta, R& tau_re,
                                             R& tau_im, R& sc_re, R& sc_im, int& scale_exp) {
  scale_exp = 0;
  if (xn.unit == R(0) && ai == R(0)) {
    beta = ar;
    tau_re = tau_im = sc_im = R(0);
    sc_re = R(1);
    return;
  }
  // E: the largest binary exponent of |ar|, |ai| and ||x|| (0 where one is not finite:
  // the plain formulas then carry the NaN or Inf into beta and tau).
  int E = 0;
  if (refl_finite(ar) && refl_finite(ai) && refl_finite(xn.unit)) {
    bool any = false;
    const auto take = [&](int e) {
      E = any && E > e ? E : e;
      any = true;
    };
    if (ar != R(0)) take(refl_ilogb(ar));
    if (ai != R(0)) take(refl_ilogb(ai));
    if (xn.unit != R(0)) take(refl_ilogb(xn.unit) + xn.exp2);
  }
  const R a = refl_ldexp(ar, -E), b = refl_ldexp(ai, -E), x = refl_ldexp(xn.unit, xn.exp2 - E);
  // The largest of a, b, x is in [1, 2): the squares neither overflow nor lose the result.
  const R bs = -refl_copysign(refl_sqrt(a * a + b * b + x * x), ar);
  tau_re = (bs - a) / bs;
  tau_im = -b / bs;
  // 1 / z = conj(z) / |z|^2, z = alpha - beta scaled, |Re z| = |a| + |bs| >= 1.
  const R zr = a - bs, zi = b, z2 = zr * zr + zi * zi;
  sc_re = zr / z2;
  sc_im = -zi / z2;
  scale_exp = E;
  beta = refl_ldexp(bs, E);
}

/// The reflector's scalars of ?larfg (see the top of the file): from alpha = (ar, ai) and
/// ||x||, beta, tau = (tau_re, tau_im) and 1 / (alpha - beta) = (sc_re, sc_im). H = I
/// (tau = 0, beta = alpha, scale 1) when x = 0 and alpha is real.
template <typename R>
MGBLAS_REFL_HD_ void reflector_scalars(R ar, R ai, ScaledNorm<R> xn, R& beta, R& tau_re,
                                       R& tau_im, R& sc_re, R& sc_im) {
  int E = 0;
  reflector_scalars_split(ar, ai, xn, beta, tau_re, tau_im, sc_re, sc_im, E);
  sc_re = refl_ldexp(sc_re, -E);
  sc_im = refl_ldexp(sc_im, -E);
}

}  // namespace mgblas::kernels::detail
