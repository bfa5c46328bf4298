// SPDX-License-Identifier: BSD-3-Clause
// The merge step of tridiagonal divide and conquer (private, not installed): the
// eigenpairs of D + rho z z^T, D = diag(d) ascending, rho > 0, ||z|| = 1, the design of
// LAPACK's ?laed2 (deflation), ?laed4 (the secular equation) and ?laed3 (Gu and
// Eisenstat's vectors). The CUDA engine's tridiag_eigenvectors (kernels/stedc_kernels.hpp)
// deflates on the host (O(m) data, sequential) and solves the rest on the GPU with the
// host-and-device functions here; tests/kernels/test_rank_one_merge.cpp runs the same
// functions on the host, so CI checks the arithmetic without a GPU.
//
// Conventions: a merge of order m has k undeflated pairs with poles dk[0..k) strictly
// ascending and weights zk (nonzero); root j lies in (dk[j], dk[j+1]) (j < k - 1) or
// (dk[k-1], dk[k-1] + rho]. A root is stored as an origin o (the nearer pole) and an
// offset tau, lambda_j = dk[o] + tau, so that dk[r] - lambda_j = (dk[r] - dk[o]) - tau is
// computed without cancellation: the differences of Gu and Eisenstat's formula are then
// accurate and the vectors orthogonal to working precision however close the roots are.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <vector>

#if defined(__CUDACC__)
#define MGBLAS_MERGE_HD_ __host__ __device__
#else
#define MGBLAS_MERGE_HD_
#endif

namespace mgblas::kernels::detail {

// ---- deflation (host) ---------------------------------------------------------------

/// A plane rotation of two basis vectors of a merge, p and q (merge-local indices):
/// b_p' = c b_p + s b_q, b_q' = c b_q - s b_p (LAPACK's ?rot on the columns of Q).
template <typename R>
struct MergeRotation {
  int64_t p, q;
  R c, s;
};

/// What deflation leaves of one merge: the k pairs still to solve and the m - k found.
template <typename R>
struct MergePlan {
  R rho = R(0);                     ///< of the normalised problem (||z|| = 1)
  std::vector<int64_t> kept;        ///< merge-local basis index of each undeflated pair
  std::vector<R> dk, zk;            ///< their poles (strictly ascending) and weights
  std::vector<int64_t> dropped;     ///< merge-local basis index of each deflated pair
  std::vector<R> dropped_value;     ///< its eigenvalue
  std::vector<MergeRotation<R>> rotations;  ///< in the order they act on the basis

  void clear() {  // empty, its storage kept for the next merge
    rho = R(0);
    kept.clear();
    dk.clear();
    zk.clear();
    dropped.clear();
    dropped_value.clear();
    rotations.clear();
  }
};

/// deflate_merge's scratch, kept by a caller that deflates many merges (a level of the
/// divide and conquer has up to n / 2) so that they allocate nothing once it has grown.
template <typename R>
struct DeflateScratch {
  std::vector<R> d, z;
  std::vector<int64_t> order, merged;
};

/// Deflation of the merge of two blocks: d[0..n1) and d[n1..m) are each ascending (the
/// blocks' eigenvalues), z the rows of the blocks' eigenvectors that meet the coupling
/// (any norm; 0 only if the whole merge deflates), rho >= 0 the coupling. A weight with
/// rho |z_i| <= tol deflates pair i (its eigenvalue is d_i, its vector the basis vector
/// itself); two poles closer than tol / |c s| are rotated so that one weight vanishes (the
/// rotations are returned, for the caller to apply to the basis). tol = 8 eps
/// max(max|d|, max|z|) of the normalised problem, as in ?laed2.
/// Writes `plan` (cleared first) and uses `scratch`; the overload below returns a new plan.
template <typename R>
void deflate_merge(int64_t m, int64_t n1, const R* d_in, const R* z_in, R rho, MergePlan<R>& plan,
                   DeflateScratch<R>& scratch) {
  plan.clear();
  std::vector<R>& d = scratch.d;
  std::vector<R>& z = scratch.z;
  d.assign(d_in, d_in + m);
  z.assign(z_in, z_in + m);
  R norm2 = R(0);
  for (R v : z) norm2 += v * v;
  plan.rho = rho * norm2;
  if (norm2 > R(0)) {
    const R inv = R(1) / std::sqrt(norm2);
    for (R& v : z) v *= inv;
  }
  // The two ascending halves merged into one ascending order.
  std::vector<int64_t>& order = scratch.order;
  order.resize(static_cast<std::size_t>(m));
  for (int64_t i = 0; i < m; ++i) order[static_cast<std::size_t>(i)] = i;
  {
    std::vector<int64_t>& merged = scratch.merged;
    merged.resize(static_cast<std::size_t>(m));
    std::merge(order.begin(), order.begin() + n1, order.begin() + n1, order.end(),
               merged.begin(), [&](int64_t a, int64_t b) { return d[a] < d[b]; });
    order.swap(merged);
  }
  R dmax = R(0), zmax = R(0);
  for (int64_t i = 0; i < m; ++i) {
    dmax = std::max(dmax, std::abs(d[i]));
    zmax = std::max(zmax, std::abs(z[i]));
  }
  const R tol = R(8) * std::numeric_limits<R>::epsilon() * std::max(dmax, zmax);
  const auto drop = [&](int64_t i, R value) {
    plan.dropped.push_back(i);
    plan.dropped_value.push_back(value);
  };
  const auto keep = [&](int64_t i) {
    plan.kept.push_back(i);
    plan.dk.push_back(d[i]);
    plan.zk.push_back(z[i]);
  };
  if (!(plan.rho * zmax > tol)) {  // the coupling is negligible: D is the answer
    for (int64_t i : order) drop(i, d[i]);
    return;
  }
  int64_t pending = -1;  // the last undeflated pole, not yet known to stay
  for (int64_t i : order) {
    if (plan.rho * std::abs(z[i]) <= tol) {
      drop(i, d[i]);
      continue;
    }
    if (pending < 0) {
      pending = i;
      continue;
    }
    // Rotate b_pending and b_i so that pending's weight vanishes; the coupling this
    // leaves between them is (d_i - d_pending) c s.
    const R a = z[pending], b = z[i];
    const R tau = std::hypot(a, b);
    const R c = b / tau, s = -a / tau;
    if (std::abs((d[i] - d[pending]) * c * s) <= tol) {
      const R dp = d[pending] * c * c + d[i] * s * s;
      const R di = d[pending] * s * s + d[i] * c * c;
      plan.rotations.push_back({pending, i, c, s});
      z[i] = tau;
      z[pending] = R(0);
      d[i] = di;
      drop(pending, dp);
    } else {
      keep(pending);
    }
    pending = i;
  }
  if (pending >= 0) keep(pending);
}

template <typename R>
MergePlan<R> deflate_merge(int64_t m, int64_t n1, const R* d_in, const R* z_in, R rho) {
  MergePlan<R> plan;
  DeflateScratch<R> scratch;
  deflate_merge(m, n1, d_in, z_in, rho, plan, scratch);
  return plan;
}

// ---- the secular equation (host and device) -----------------------------------------

template <typename R>
struct FloatBits;
template <>
struct FloatBits<float> {
  using U = uint32_t;
};
template <>
struct FloatBits<double> {
  using U = uint64_t;
};

template <typename R>
MGBLAS_MERGE_HD_ inline typename FloatBits<R>::U to_bits(R x) {
  typename FloatBits<R>::U u;
  std::memcpy(&u, &x, sizeof u);
  return u;
}
template <typename R>
MGBLAS_MERGE_HD_ inline R from_bits(typename FloatBits<R>::U u) {
  R x;
  std::memcpy(&x, &u, sizeof x);
  return x;
}

/// Four sums taken in one pass (`sum4`): the secular equation's values and slopes.
template <typename R>
struct Sum4 {
  R a = R(0), b = R(0), c = R(0), d = R(0);
  MGBLAS_MERGE_HD_ Sum4& operator+=(const Sum4& o) {
    a += o.a;
    b += o.b;
    c += o.c;
    d += o.d;
    return *this;
  }
};

/// How the functions below reduce over a merge's k indices: reduce(k, f) returns the sum
/// (or, for `product`, the product; for `sum4`, four sums at once) of f(j), j = 0 .. k-1.
/// The host and the tests loop on one thread (SerialReduce); the CUDA engine splits the
/// indices over a warp's lanes and combines them with CUB, every lane receiving the result.
struct SerialReduce {
  template <typename F>
  MGBLAS_MERGE_HD_ auto sum(int64_t k, F f) const -> decltype(f(int64_t{0})) {
    decltype(f(int64_t{0})) s(0);
    for (int64_t j = 0; j < k; ++j) s += f(j);
    return s;
  }
  template <typename F>
  MGBLAS_MERGE_HD_ auto sum4(int64_t k, F f) const -> decltype(f(int64_t{0})) {
    decltype(f(int64_t{0})) s{};
    for (int64_t j = 0; j < k; ++j) s += f(j);
    return s;
  }
  template <typename F>
  MGBLAS_MERGE_HD_ auto product(int64_t k, F f) const -> decltype(f(int64_t{0})) {
    decltype(f(int64_t{0})) p(1);
    for (int64_t j = 0; j < k; ++j) p *= f(j);
    return p;
  }
};

/// f(lambda) = 1 + rho sum_j z_j^2 / (d_j - lambda) at lambda = d[o] + tau.
template <typename R, typename Reduce = SerialReduce>
MGBLAS_MERGE_HD_ inline R secular_value(int64_t k, const R* d, const R* z, R rho, int64_t o,
                                        R tau, Reduce reduce = {}) {
  const R origin = d[o];
  return R(1) + rho * reduce.sum(k, [&](int64_t j) { return z[j] * z[j] / ((d[j] - origin) - tau); });
}

/// Root j of the secular equation: *origin and *tau with lambda_j = d[*origin] + *tau;
/// *evaluations (when given) receives how many sums over the k poles it took.
///
/// f increases from -inf to +inf between two poles. The midpoint's sign picks the nearer
/// pole o; the offset t = |tau| is then bracketed by two floating-point numbers lo < hi,
/// f(lo) < 0 <= f(hi) in the direction away from o (positive floats order as their
/// bits). Each step evaluates f and its slope in one pass and tries the root of Bunch,
/// Nielsen and Sorensen's model, which keeps the two nearest poles' terms and replaces
/// each side's other terms by a constant plus a pole term of the same value and slope (as
/// in ?laed4). It converges quadratically, so a root takes a handful of passes where
/// bisecting the bits took 32 (float) or 64 (double). It stops where |f| is below the
/// error of its evaluation, or where lo and hi are neighbours. A model root outside the
/// bracket is moved one float inside it; for a model stuck there, one that is not finite,
/// or after kSecularModelSteps steps, the step bisects the bits, so it always ends.
inline constexpr int kSecularModelSteps = 16;

template <typename R, typename Reduce = SerialReduce>
MGBLAS_MERGE_HD_ inline void secular_root(int64_t k, const R* d, const R* z, R rho, int64_t j,
                                          int64_t* origin, R* tau, Reduce reduce = {},
                                          int* evaluations = nullptr) {
  using U = typename FloatBits<R>::U;
  int count = 0;
  int64_t o = j;
  R sign = R(1);
  // psi, psi' over the poles up to j and phi, phi' over the rest, at lambda = d[o] + x.
  const auto at = [&](R x) {
    ++count;
    return reduce.sum4(k, [&](int64_t i) {
      const R g = (d[i] - d[o]) - x, w = z[i] * z[i] / g;
      Sum4<R> v;
      if (i <= j) {
        v.a = w;
        v.b = w / g;
      } else {
        v.c = w;
        v.d = w / g;
      }
      return v;
    });
  };
  const R reach = j < k - 1 ? (d[j + 1] - d[j]) / R(2) : rho;  // f(d[k-1] + rho) >= 0
  Sum4<R> v = at(reach);  // the midpoint between the poles, or d[k-1] + rho
  if (j < k - 1 && R(1) / rho + v.a + v.c < R(0)) {
    o = j + 1;
    sign = R(-1);
  }
  // h(t) = sign (1 / rho + psi + phi) at lambda = d[o] + sign t goes from -inf (t -> 0)
  // to >= 0 at t = reach; a and b are the poles below and above the root (b only for
  // j < k - 1), as offsets from d[o] (one of them 0).
  const R a = d[j] - d[o], b = j < k - 1 ? d[j + 1] - d[o] : R(0);
  const auto h_of = [&](const Sum4<R>& s) { return sign * (R(1) / rho + s.a + s.c); };
  // |h| below the error of its evaluation: the root to working precision (?laed4's test;
  // psi < 0 < phi, so phi - psi sums the terms' magnitudes).
  const auto at_root = [&](const Sum4<R>& s, R h) {
    return (h < R(0) ? -h : h) <=
           R(8) * std::numeric_limits<R>::epsilon() * (R(1) / rho + s.c - s.a);
  };
  U lo = 0, hi = to_bits(reach);
  if (hi == 0) hi = 1;
  R t = from_bits<R>(hi), hlo = R(0), hhi = h_of(v), h = hhi;
  bool nudged = false, found = false;
  for (int step = 0; hi - lo > 1; ++step) {
    if (at_root(v, h)) {
      found = true;
      break;
    }
    // The model's root x: c + Q / (a - x) + S / (b - x) = 0.
    const R x0 = sign * t, ga = a - x0, gb = b - x0;
    const R Q = ga * ga * v.b, S = j < k - 1 ? gb * gb * v.d : R(0);
    const R c = R(1) / rho + (v.a - Q / ga) + (j < k - 1 ? v.c - S / gb : v.c);
    R x;
    if (j < k - 1) {  // c x^2 - B x + C = 0 (a b = 0), the root between a and b
      const R B = c * (a + b) + Q + S, C = Q * b + S * a;
      const R root = std::sqrt(B * B - R(4) * c * C);
      const R big = B >= R(0) ? B + root : B - root;
      const R x1 = big / (R(2) * c), x2 = R(2) * C / big;
      const R low = a < b ? a : b, high = a < b ? b : a;
      x = x1 > low && x1 < high ? x1 : x2;
    } else {
      x = a + Q / c;
    }
    const R tn = sign * x;
    U mid = lo + (hi - lo) / 2;
    if (step < kSecularModelSteps && tn > R(0) && tn <= from_bits<R>(hi)) {
      const U m = to_bits(tn);
      const bool inside = m > lo && m < hi;
      if (inside || !nudged) mid = inside ? m : m <= lo ? lo + 1 : hi - 1;
      nudged = !inside;  // two nudges running: the model is stuck, bisect
    }
    t = from_bits<R>(mid);
    v = at(sign * t);
    h = h_of(v);
    if (h < R(0)) {
      lo = mid;
      hlo = h;
    } else {
      hi = mid;
      hhi = h;
    }
  }
  if (!found) {  // neighbours: the one with the smaller |h|
    t = from_bits<R>(hi);
    if (lo > 0 && (hlo < R(0) ? -hlo : hlo) < (hhi < R(0) ? -hhi : hhi)) t = from_bits<R>(lo);
  }
  *origin = o;
  *tau = sign * t;
  if (evaluations) *evaluations = count;
}

/// d[r] - lambda_j for the root (o, tau), without cancellation.
template <typename R>
MGBLAS_MERGE_HD_ inline R pole_gap(const R* d, int64_t r, int64_t o, R tau) {
  return (d[r] - d[o]) - tau;
}

/// Gu and Eisenstat's weight for row r: the z-hat for which the computed roots are the
/// exact eigenvalues of D + rho zhat zhat^T, with the sign of z[r]. The product pairs each
/// root with a pole so that every factor lies in (0, 1] except the last (no overflow).
template <typename R, typename Reduce = SerialReduce>
MGBLAS_MERGE_HD_ inline R gu_eisenstat_weight(int64_t k, const R* d, const R* z, R rho,
                                              const int64_t* origin, const R* tau, int64_t r,
                                              Reduce reduce = {}) {
  const R p = reduce.product(k, [&](int64_t j) {
    const R gap = pole_gap(d, r, origin[j], tau[j]);  // d_r - lambda_j
    if (j == k - 1) return -gap / rho;
    return j < r ? gap / (d[r] - d[j]) : -gap / (d[j + 1] - d[r]);
  });
  const R w = p > R(0) ? std::sqrt(p) : R(0);
  return z[r] < R(0) ? -w : w;
}

/// 1 / ||u_j||, u_j(r) = zhat[r] / (d[r] - lambda_j): the scale of eigenvector j.
template <typename R, typename Reduce = SerialReduce>
MGBLAS_MERGE_HD_ inline R vector_inverse_norm(int64_t k, const R* d, const R* zhat, int64_t o,
                                              R tau, Reduce reduce = {}) {
  const R sum = reduce.sum(k, [&](int64_t r) {
    const R u = zhat[r] / pole_gap(d, r, o, tau);
    return u * u;
  });
  return R(1) / std::sqrt(sum);
}

}  // namespace mgblas::kernels::detail
