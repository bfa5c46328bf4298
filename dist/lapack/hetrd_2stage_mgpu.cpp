// SPDX-License-Identifier: BSD-3-Clause
// hetrd_band_mgpu: dense to band over every device of every rank (see the header for the
// arrangement; LAPACK's ?sytrd_sy2sb is the one-device original).
#include "dist/lapack/hetrd_2stage_mgpu.hpp"

#include <algorithm>
#include <array>
#include <chrono>
#include <complex>
#include <cstdlib>
#include <limits>
#include <memory>
#include <type_traits>
#include <utility>
#include <vector>

#include "core/detail/env.hpp"
#include "core/error.hpp"
#include "core/memory.hpp"
#include "dist/detail/device_collectives.hpp"
#include "dist/detail/device_threads.hpp"
#include "dist/detail/mgpu_common.hpp"
#include "dist/lapack/detail/panel_width.hpp"
#include "dist/lapack/detail/phase_clock.hpp"
#include "dist/lapack/detail/rank2k_columns.hpp"
#include "kernels/batched_kernels.hpp"
#include "kernels/blas.hpp"
#include "kernels/gemm_kernels.hpp"
#include "kernels/lapack.hpp"
#include "kernels/larfb_kernels.hpp"
#include "kernels/latrd_kernels.hpp"
#include "kernels/sb2st_kernels.hpp"
#include "kernels/sy2sb_kernels.hpp"
#include "layouts/block_cyclic.hpp"

namespace mgblas {
namespace {

// One local device's buffers. `panel` is the broadcast's unit, [V (m x kq) | T (b x b) |
// tau (b)]; Y the device's share of A22 V, then the sum; M and MT small products; Tr
// the upper triangle's reversed T; acc the update's pending factors, [V | W] (n x kmax
// each, indexed by A's global row); stack a panel's [V W] and the flushed update's
// [V W V] (the stacked form of detail::rank2k_columns), on the owner first the upper
// triangle's reversed panel; blocks, over several devices, hemm_full_blocks' work.
template <Scalar T>
struct BandSpace {
  DeviceBuffer<T> panel, Y, M, MT, Tr, acc, stack, blocks;
};

// Products of one shape whose operands lie a constant distance apart, added one by one
// (ascending addresses), go to the engine as one strided batched gemm (a lone one as a
// gemm). C = op(A) B + C with A, B and C of leading dimensions lda, ldb, ldc.
template <Scalar T>
class GemmRun {
 public:
  GemmRun(const Device& dev, Op opA, int64_t n, int64_t lda, int64_t ldb, int64_t ldc)
      : dev_(dev), opA_(opA), n_(n), lda_(lda), ldb_(ldb), ldc_(ldc) {}

  /// C (m x n) += op(A) B, inner dimension k.
  void add(int64_t m, int64_t k, const T* A, const T* B, T* C) {
    if (m <= 0 || k <= 0) return;
    if (count_ > 0 && m == m_ && k == k_) {
      const int64_t sa = A - last_a_, sb = B - last_b_, sc = C - last_c_;
      if (count_ == 1 && sa > 0 && sb > 0 && sc > 0) sa_ = sa, sb_ = sb, sc_ = sc;
      if (sa_ > 0 && sa == sa_ && sb == sb_ && sc == sc_) {
        ++count_, last_a_ = A, last_b_ = B, last_c_ = C;
        return;
      }
    }
    flush();
    m_ = m, k_ = k, count_ = 1, a_ = last_a_ = A, b_ = last_b_ = B, c_ = last_c_ = C;
    sa_ = sb_ = sc_ = 0;
  }

  void flush() {
    if (count_ == 1) {
      gemm<T>(dev_, opA_, Op::N, m_, n_, k_, T(1), a_, lda_, b_, ldb_, T(1), c_, ldc_);
    } else if (count_ > 1) {  // the C entries interleave (row blocks): the unchecked entry
      kernels::gemm_batched_strided<T>(dev_, opA_, Op::N, m_, n_, k_, T(1), a_, lda_, sa_, b_,
                                       ldb_, sb_, T(1), c_, ldc_, sc_, count_);
    }
    count_ = 0;
  }

 private:
  const Device& dev_;
  Op opA_;
  int64_t n_, lda_, ldb_, ldc_;
  int64_t m_ = 0, k_ = 0, count_ = 0, sa_ = 0, sb_ = 0, sc_ = 0;
  const T *a_ = nullptr, *b_ = nullptr, *last_a_ = nullptr, *last_b_ = nullptr;
  T *c_ = nullptr, *last_c_ = nullptr;
};

// hemm_columns' form for R >= 2 full blocks of a device (nb wide, P global columns apart;
// the first at global column c00 and local column jl0): per block a hemm and two gemms
// of k (= b) columns give cuBLAS too few tiles, about 20 us each on an H200 whatever
// their size (bench/results/h200-sy2sb-blocks.md), and made 2 GPUs slower than one.
// Here every shape comes once per level of a binary tree over the blocks:
// - block q's far rows (Lower: below its square, Upper: above it) are its gap (the
//   other devices' P - nb rows next to it) and the rows of the blocks beyond; taking
//   the blocks in order away from the diagonal (Lower ascending, Upper descending),
//   each pair of sibling chunks of s blocks contributes one rectangle, the first
//   chunk's columns times the second chunk's rows, so level s has one shape;
// - the gaps, the diagonal squares (one kernel) and the copies go to one call each.
// The rectangles' products need V at the device's columns packed (Vg) and give their
// mirrored part packed (Yo), added to Y at the end; work holds both, 2 R nb k.
template <Scalar T>
void hemm_full_blocks(const Device& dev, Uplo uplo, const T* A_local, int64_t ld, int64_t lo,
                      int64_t hi, int64_t k, const T* V, T* Y, int64_t row0, int64_t ldy,
                      int64_t R, int64_t jl0, int64_t c00, int64_t nb, int64_t P, T* work) {
  const bool lower = uplo == Uplo::Lower;
  const auto v = [&](int64_t r) { return V + (r - row0); };
  const auto y = [&](int64_t r) { return Y + (r - row0); };
  const int64_t W = R * nb;
  T* Vg = work;      // Vg(j - jl0): V at the global row of local column j
  T* Yo = Vg + W * k;
  // Block q of the order away from the diagonal: its global column (beyond the last
  // block: where the next would lie) and, for q < R, its local column.
  const auto c = [&](int64_t q) { return lower ? c00 + q * P : c00 + (R - 1 - q) * P; };
  const auto jl = [&](int64_t q) { return lower ? jl0 + q * nb : jl0 + (R - 1 - q) * nb; };
  const auto clip = [&](int64_t a, int64_t b) {
    return std::pair{std::max(a, lo), std::min(b, hi)};
  };
  // The rows of blocks [qa, qb) and their gaps; the gap of block q.
  const auto rows_of = [&](int64_t qa, int64_t qb) {
    return lower ? clip(c(qa), c(qa) + (qb - qa) * P) : clip(c(qb - 1) - (P - nb), c(qa) + nb);
  };
  const auto gap = [&](int64_t q) {
    return lower ? clip(c(q) + nb, c(q) + P) : clip(c(q) - (P - nb), c(q));
  };
  const T* A00 = A_local + jl0 * ld + c00;  // the first block's diagonal square
  const int64_t strideA = nb * ld + P;      // from one diagonal square to the next
  kernels::add_blocks<T>(dev, R, nb, k, v(c00), ldy, P, T(0), Vg, W, nb);
  memset_bytes(dev, Yo, 0, static_cast<std::size_t>(W * k) * sizeof(T), /*async=*/true);
  GemmRun<T> below(dev, Op::N, k, ld, W, ldy), beside(dev, Op::C, k, ld, ldy, W);
  for (int64_t s = 1; rows_of(s, 2 * s).first < rows_of(s, 2 * s).second; s *= 2) {
    std::vector<std::array<int64_t, 4>> rects;  // rows [r0, r1) of local columns [j0, j0 + w)
    for (int64_t t = 0; t * s < R; t += 2) {
      const int64_t qa = t * s, qb = std::min(qa + s, R);
      const auto [r0, r1] = rows_of(qa + s, qa + 2 * s);
      if (r0 < r1) rects.push_back({r0, r1, lower ? jl(qa) : jl(qb - 1), (qb - qa) * nb});
    }
    if (!lower) std::reverse(rects.begin(), rects.end());  // ascending addresses
    for (const auto& [r0, r1, j0, w] : rects) {
      const T* S = A_local + j0 * ld + r0;
      below.add(r1 - r0, w, S, Vg + (j0 - jl0), y(r0));
      beside.add(w, r1 - r0, S, v(r0), Yo + (j0 - jl0));
    }
    below.flush();
    beside.flush();
  }
  GemmRun<T> gap_below(dev, Op::N, k, ld, ldy, ldy), gap_beside(dev, Op::C, k, ld, ldy, ldy);
  for (int64_t i = 0; i < R; ++i) {  // ascending local columns
    const int64_t q = lower ? i : R - 1 - i;
    const auto [r0, r1] = gap(q);
    const T* S = A_local + jl(q) * ld + r0;
    gap_below.add(r1 - r0, nb, S, v(c(q)), y(r0));
    gap_beside.add(nb, r1 - r0, S, v(r0), y(c(q)));
  }
  gap_below.flush();
  gap_beside.flush();
  kernels::hemm_diagonal_blocks<T>(dev, uplo, R, nb, k, A00, ld, strideA, v(c00), ldy, P, y(c00),
                                   ldy, P);
  kernels::add_blocks<T>(dev, R, nb, k, Yo, W, nb, T(1), y(c00), ldy, P);
}

// Y(r - row0) += (the part of S = A(lo:hi, lo:hi), Hermitian with its `uplo` triangle
// stored, in global device g's columns) V(r - row0), V and Y of k columns, leading
// dimension ldy: per run of the device's columns, hemm on its diagonal square (halved
// down to two_stage_hemm_block) and two gemms on the halves' rectangles and on the panel
// beside it (below for Lower, above for Upper); over several devices the full blocks
// together by hemm_full_blocks (work: 2 k local_n(g) entries).
template <Scalar T>
void hemm_columns(const Device& dev, const BlockCyclic1D& L, int g, Uplo uplo, const T* A_local,
                  int64_t ld, int64_t lo, int64_t hi, int64_t k, const T* V, T* Y, int64_t row0,
                  int64_t ldy, T* work) {
  if (lo >= hi) return;
  const bool lower = uplo == Uplo::Lower;
  const auto v = [&](int64_t r) { return V + (r - row0); };
  const auto y = [&](int64_t r) { return Y + (r - row0); };
  int64_t cs = 0, js = 0;  // a run's first global column and its local column
  const auto col = [&](int64_t c) { return A_local + (js + c - cs) * ld; };
  // The stored block S(r0:r0+h, c0:c0+w) off the diagonal: its product and its mirror's.
  const auto rect = [&](int64_t r0, int64_t h, int64_t c0, int64_t w) {
    if (h <= 0 || w <= 0) return;
    const T* S = col(c0) + r0;
    gemm<T>(dev, Op::N, Op::N, h, k, w, T(1), S, ld, v(c0), ldy, T(1), y(r0), ldy);
    gemm<T>(dev, Op::C, Op::N, w, k, h, T(1), S, ld, v(r0), ldy, T(1), y(c0), ldy);
  };
  const int64_t block = detail::two_stage_hemm_block<T>(dev, k);
  const auto square = [&](auto&& self, int64_t a, int64_t b) -> void {
    if (b - a <= block) {
      kernels::hemm<T>(dev, /*herm=*/true, uplo, b - a, k, T(1), col(a) + a, ld, v(a), ldy,
                       T(1), y(a), ldy);
      return;
    }
    const int64_t mid = a + ((b - a) / 2 + 63) / 64 * 64;
    self(self, a, mid);
    self(self, mid, b);
    if (lower) {
      rect(mid, b - mid, a, mid - a);
    } else {
      rect(a, mid - a, mid, b - mid);
    }
  };
  const auto run = [&](int64_t c0, int64_t c1, int64_t jl) {
    cs = c0;
    js = jl;
    square(square, c0, c1);
    if (lower) {
      rect(c1, hi - c1, c0, c1 - c0);
    } else {
      rect(lo, c0 - lo, c0, c1 - c0);
    }
  };
  if (L.num_devices() == 1) return run(lo, hi, lo);
  // The full blocks together, the partial ones (where lo or hi cuts a block) alone.
  const LocalColumns cols = local_columns(L, g, lo, hi);
  const int64_t nb = L.nb();
  int64_t R = 0, jl0 = 0, c00 = 0;
  for_each_column_run(cols, [&](int64_t jl, int64_t c0, int64_t w) {
    if (w < nb) return run(c0, c0 + w, jl);
    if (R++ == 0) jl0 = jl, c00 = c0;
  });
  if (R >= 2) {
    hemm_full_blocks<T>(dev, uplo, A_local, ld, lo, hi, k, V, Y, row0, ldy, R, jl0, c00, nb,
                        cols.stride, work);
  } else if (R == 1) {
    run(c00, c00 + nb, jl0);
  }
}

template <Scalar T>
class He2hb {
 public:
  He2hb(DistMatrix<T>& A, Uplo uplo, int64_t b, ReducerKind transport, HetrdProfile* profile)
      : A_(A), ctx_(A.context()), L_(A.layout()), n_(L_.n()), ld_(A.ld()), b_(b), uplo_(uplo),
        kmax_(detail::two_stage_update_width(ctx_.device(0), b)),
        coll_(ctx_, transport), space_(ctx_.num_devices()), clock_(ctx_, profile) {
    const auto nb = static_cast<std::size_t>(n_ * b_), bb = static_cast<std::size_t>(b_ * b_),
               nk = static_cast<std::size_t>(n_ * kmax_),
               kb = static_cast<std::size_t>(kmax_ * b_);
    for (int dd = 0; dd < devices(); ++dd) {
      const Device& dev = ctx_.device(dd);
      BandSpace<T>& s = space_[dd];
      s.panel = DeviceBuffer<T>(dev, nb + bb + static_cast<std::size_t>(b_));
      s.Y = DeviceBuffer<T>(dev, nb);
      s.M = DeviceBuffer<T>(dev, kb);
      s.MT = DeviceBuffer<T>(dev, kb);
      s.Tr = DeviceBuffer<T>(dev, bb);
      s.acc = DeviceBuffer<T>(dev, 2 * nk);
      s.stack = DeviceBuffer<T>(dev, 3 * nk);
      if (L_.num_devices() > 1)  // hemm_full_blocks' packed V and products
        s.blocks = DeviceBuffer<T>(dev, static_cast<std::size_t>(2 * L_.local_n(global(dd)) * b_));
    }
  }

  /// Reduces A to band form; tau[dd]: local device dd's copy of all n - b scalars.
  ///
  /// The steps are the lower triangle's on A~ = J A J (J reverses the order of rows and
  /// columns; A~'s lower triangle is A's upper one read backwards). Panel [k, k + w) of
  /// A~ is A's columns [n - k - w, n - k); its rows below the band, A~(k+b:n, k:k+w), are
  /// A(0:m, ...) reversed, m = n - k - b. Lower: w = b; Upper: panels end at A's block
  /// boundaries (so each lies on one device), the first one narrower where b does not
  /// divide n. For the upper triangle the device copies of V and T are reversed
  /// (V' = J V J, T' = J T J: Q = I - V' T' V'^H in A's order) and every product runs on
  /// A's upper triangle.
  ///
  /// The trailing update is deferred (Wang et al., arXiv 2410.02170: the update's inner
  /// dimension decoupled from the band): each panel's V and W join the pending factors
  /// [V_acc | W_acc] of up to kmax columns, and A22 -= V_acc W_acc^H + W_acc V_acc^H runs
  /// once per kmax columns as one rank-2 kmax update. Meanwhile A is stale by the pending
  /// part: the owner brings a panel's own columns up to date before its QR, and the
  /// products with A22 subtract the pending part, Y = A22 V - V_acc (W_acc^H V) -
  /// W_acc (V_acc^H V). kmax = b is LAPACK's ?sytrd_sy2sb order.
  void run(const std::vector<T*>& tau) {
    clock_.restart();
    const bool upper = uplo_ == Uplo::Upper;
    std::vector<T*> panel, Y;
    for (auto& s : space_) {
      panel.push_back(s.panel.data());
      Y.push_back(s.Y.data());
    }
    zero_pending();
    int64_t K = 0;  // pending columns in acc
    for (int64_t k = 0; k + b_ < n_;) {
      // A~'s panel [k, k + w): A's columns [c0, c1).
      const int64_t c1 = upper ? n_ - k : k + b_;
      const int64_t c0 = c1 - panel_width(k);
      const int64_t w = c1 - c0, m = n_ - k - b_, kq = std::min(m, w);
      const int64_t r0 = upper ? 0 : k + b_;  // A's first row of the panel's rows below the band
      const int64_t count = m * kq + b_ * b_ + b_;  // [V | T | tau]
      const auto V = [&](int dd) { return panel[dd]; };
      const auto Tm = [&](int dd) { return panel[dd] + m * kq; };
      const auto tk = [&](int dd) { return panel[dd] + m * kq + b_ * b_; };
      // The panel's QR on its owner: R stays in A (in the band), V beyond it.
      const int owner = L_.owner(c0), ol = ctx_.local_index_of(owner);
      if (ol >= 0) {
        const Device& dev = ctx_.device(ol);
        T* P = A_.local(ol) + L_.local_col(c0) * ld_ + r0;
        dev.make_current();
        if (K > 0) catch_up_panel(ol, c0, c1, K);
        if (upper) {  // factored on a reversed copy, stored back reversed
          T* Pr = space_[ol].stack.data();
          kernels::latrd_reverse<T>(dev, m, w, P, ld_, Pr, m);
          kernels::geqrf_wy<T>(dev, m, w, Pr, m, tk(ol), V(ol), m, Tm(ol), b_);
          kernels::latrd_reverse<T>(dev, m, w, Pr, m, P, ld_);
        } else {
          kernels::geqrf_wy<T>(dev, m, w, P, ld_, tk(ol), V(ol), m, Tm(ol), b_);
        }
      }
      clock_.charge(&HetrdProfile::panel);
      coll_.broadcast<T>(panel, count, owner);
      clock_.charge(&HetrdProfile::comm);
      // Every device: V (A's order) in the stack, Y's share = A22 V, then the sum over all
      // devices. A22 = A(k+b:n, k+b:n) (Lower) or A(0:m, 0:m) (Upper).
      const int64_t lo = upper ? 0 : k + b_, hi = lo + m;
      detail::for_each_local_device(ctx_, [&](int dd) {
        const Device& dev = ctx_.device(dd);
        BandSpace<T>& s = space_[dd];
        T* S = s.stack.data();
        dev.make_current();
        copy_vector(dev, kq, static_cast<const T*>(tk(dd)), tau[dd] + k, /*async=*/true);
        if (upper) {
          kernels::latrd_reverse<T>(dev, m, kq, V(dd), m, S, m);
          kernels::latrd_reverse<T>(dev, kq, kq, Tm(dd), b_, s.Tr.data(), kq);
        } else {
          copy_matrix(dev, m, kq, static_cast<const T*>(V(dd)), m, S, m, /*async=*/true);
        }
        memset_bytes(dev, Y[dd], 0, static_cast<std::size_t>(m * kq) * sizeof(T), /*async=*/true);
        hemm_columns<T>(dev, L_, global(dd), uplo_, A_.local(dd), ld_, lo, hi, kq, S, Y[dd], lo,
                        m, s.blocks.data());
      });
      clock_.charge(&HetrdProfile::symv);
      coll_.allreduce_sum<T>(Y, m * kq);
      clock_.charge(&HetrdProfile::comm);
      // Y -= the pending part's product; W = X - V (T^H V^H X) / 2 with X = Y T, in the
      // stack beside V; then V and W join the pending factors.
      detail::for_each_local_device(ctx_, [&](int dd) {
        const Device& dev = ctx_.device(dd);
        BandSpace<T>& s = space_[dd];
        T* S = s.stack.data();
        T* W = S + m * kq;
        T* Va = s.acc.data();
        T* Wa = Va + n_ * kmax_;
        const T* Tq = upper ? s.Tr.data() : Tm(dd);
        const int64_t ldt = upper ? kq : b_;
        dev.make_current();
        if (K > 0) {
          gemm<T>(dev, Op::C, Op::N, K, kq, m, T(1), Wa + lo, n_, S, m, T(0), s.M.data(), K);
          gemm<T>(dev, Op::C, Op::N, K, kq, m, T(1), Va + lo, n_, S, m, T(0), s.MT.data(), K);
          gemm<T>(dev, Op::N, Op::N, m, kq, K, T(-1), Va + lo, n_, s.M.data(), K, T(1), Y[dd], m);
          gemm<T>(dev, Op::N, Op::N, m, kq, K, T(-1), Wa + lo, n_, s.MT.data(), K, T(1), Y[dd],
                  m);
        }
        gemm<T>(dev, Op::N, Op::N, m, kq, kq, T(1), Y[dd], m, Tq, ldt, T(0), W, m);
        gemm<T>(dev, Op::C, Op::N, kq, kq, m, T(1), S, m, W, m, T(0), s.M.data(), kq);
        gemm<T>(dev, Op::C, Op::N, kq, kq, kq, T(1), Tq, ldt, s.M.data(), kq, T(0), s.MT.data(),
                kq);
        gemm<T>(dev, Op::N, Op::N, m, kq, kq, T(-0.5), S, m, s.MT.data(), kq, T(1), W, m);
        copy_matrix(dev, m, kq, static_cast<const T*>(S), m, Va + lo + K * n_, n_, /*async=*/true);
        copy_matrix(dev, m, kq, static_cast<const T*>(W), m, Wa + lo + K * n_, n_, /*async=*/true);
        // A narrower panel (Upper; the first of its group, so nothing is pending) leaves the
        // g = b - w columns between it and A22, A~'s columns [k+w, k+b) (A's [m, c0), on
        // one device: c0 is a block boundary), in the rows Q acts on: they take Q^H from
        // the left now, C -= V (T^H (V^H C)); acc's zero rows keep the catch-up off them.
        const int64_t g = b_ - w;
        if (upper && g > 0 && L_.owner(m) == global(dd)) {
          T* C = A_.local(dd) + L_.local_col(m) * ld_;
          gemm<T>(dev, Op::C, Op::N, kq, g, m, T(1), S, m, C, ld_, T(0), s.M.data(), kq);
          gemm<T>(dev, Op::C, Op::N, kq, g, kq, T(1), Tq, ldt, s.M.data(), kq, T(0),
                  s.MT.data(), kq);
          gemm<T>(dev, Op::N, Op::N, m, g, kq, T(-1), S, m, s.MT.data(), kq, T(1), C, ld_);
        }
      });
      K += kq;
      k += w;
      clock_.charge(&HetrdProfile::panel);
      // The deferred update, A22 -= V_acc W_acc^H + W_acc V_acc^H, once kmax columns are
      // pending, the last panel is done, or the next panel is a narrow one (its columns
      // beside it take Q^H at once, so they must be up to date). A22 is this panel's:
      // every earlier one's contains it.
      const bool last = k + b_ >= n_, narrow_next = !last && upper && panel_width(k) < b_;
      if (K + b_ > kmax_ || last || narrow_next) {
        detail::for_each_local_device(ctx_, [&](int dd) {
          const Device& dev = ctx_.device(dd);
          BandSpace<T>& s = space_[dd];
          const T* Va = s.acc.data();
          T* S = s.stack.data();
          detail::stack_rank2k_factors<T>(dev, m, K, Va + lo, n_, Va + n_ * kmax_ + lo, n_, S);
          detail::rank2k_columns<T>(dev, L_, global(dd), A_.local(dd), ld_, /*herm=*/true, uplo_,
                                    lo, hi, K, T(-1), S, S + m * K, lo, m, T(1),
                                    /*stacked=*/true);
        });
        K = 0;
        if (narrow_next) zero_pending();
        clock_.charge(&HetrdProfile::update);
      }
    }
    coll_.wait();
  }

  /// Every local device's copy of the band, in LAPACK's lower band storage (ldab): each
  /// device packs its columns' part into a zeroed AB, and a sum over all devices
  /// completes it.
  void gather_band(const std::vector<T*>& AB, int64_t ldab) {
    for (int dd = 0; dd < devices(); ++dd) {
      const Device& dev = ctx_.device(dd);
      dev.make_current();
      memset_bytes(dev, AB[dd], 0, static_cast<std::size_t>(ldab * n_) * sizeof(T), true);
      kernels::pack_band<T>(dev, uplo_, n_, b_, local_columns(L_, global(dd), 0, n_),
                            A_.local(dd), ld_, AB[dd], ldab);
    }
    coll_.allreduce_sum<T>(AB, ldab * n_);
    coll_.wait();
    clock_.charge(&HetrdProfile::comm);
  }

 private:
  int devices() const { return ctx_.num_devices(); }
  int global(int dd) const { return ctx_.device_offset() + dd; }

  /// The width of A~'s panel at column k (Upper: up to A's block boundary).
  int64_t panel_width(int64_t k) const {
    if (uplo_ == Uplo::Lower) return b_;
    const int64_t c1 = n_ - k;
    return c1 - std::max(c1 - b_, (c1 - 1) / L_.nb() * L_.nb());
  }

  /// acc = 0. The rows a narrow panel (Upper; at most one, where the panels first meet
  /// A's block boundaries) does not reach must read as zeros in the next panel's
  /// catch-up; it opens a group of pending columns, after this.
  void zero_pending() {
    for (int dd = 0; dd < devices(); ++dd) {
      ctx_.device(dd).make_current();
      memset_bytes(ctx_.device(dd), space_[dd].acc.data(), 0,
                   static_cast<std::size_t>(2 * n_ * kmax_) * sizeof(T), /*async=*/true);
    }
  }

  /// On the owner (local device ol): A's panel columns [c0, c1), their stored triangle's
  /// rows the panel's QR and band read (Lower: rows c0..n-1, Upper: rows 0..c1-1), take
  /// the K pending columns: A -= V_acc W_acc^H + W_acc V_acc^H there.
  void catch_up_panel(int ol, int64_t c0, int64_t c1, int64_t K) {
    const Device& dev = ctx_.device(ol);
    const T* Va = space_[ol].acc.data();
    const T* Wa = Va + n_ * kmax_;
    const int64_t w = c1 - c0;
    T* P = A_.local(ol) + L_.local_col(c0) * ld_;  // column c0, row 0
    kernels::rank2k<T>(dev, /*herm=*/true, uplo_, w, K, T(-1), Va + c0, n_, Wa + c0, n_, T(1),
                       P + c0, ld_);
    // The rectangle beside the diagonal block: rows [c1, n) (Lower) or [0, c0) (Upper).
    const int64_t r = uplo_ == Uplo::Lower ? c1 : 0, h = uplo_ == Uplo::Lower ? n_ - c1 : c0;
    if (h <= 0) return;
    gemm<T>(dev, Op::N, Op::C, h, w, K, T(-1), Va + r, n_, Wa + c0, n_, T(1), P + r, ld_);
    gemm<T>(dev, Op::N, Op::C, h, w, K, T(-1), Wa + r, n_, Va + c0, n_, T(1), P + r, ld_);
  }

  DistMatrix<T>& A_;
  Context& ctx_;
  const BlockCyclic1D& L_;
  int64_t n_, ld_, b_;
  Uplo uplo_;
  int64_t kmax_;  // pending columns before the deferred update runs
  detail::DeviceCollectives coll_;
  std::vector<BandSpace<T>> space_;
  detail::PhaseClock<HetrdProfile> clock_;
};

template <Scalar T>
void check_band(const Context& ctx, Uplo uplo, const DistMatrix<T>& A, int64_t band,
                const char* band_name = "band") {
  const BlockCyclic1D& L = A.layout();
  MGBLAS_CHECK_ARG(uplo == Uplo::Lower || uplo == Uplo::Upper, "uplo",
                   static_cast<int>(static_cast<char>(uplo)), "Uplo::Lower or Uplo::Upper");
  if (L.m() != L.n())
    MGBLAS_THROW(DimensionMismatch, "argument 'A' is ", L.m(), " x ", L.n(),
                 ": hetrd_band_mgpu needs a square matrix");
  detail::check_matrix(ctx, A);
  MGBLAS_CHECK_ARG(band >= 1 && band <= kernels::kLarftMaxBlock && L.nb() % band == 0, band_name,
                   band, "a divisor of A's nb = ", L.nb(), " in [1, ", kernels::kLarftMaxBlock,
                   "]");
  detail::two_stage_update_width(ctx.device(0), band);  // a bad MGBLAS_SY2SB_UPDATE raises here
  detail::two_stage_hemm_block<T>(ctx.device(0), band);  // and MGBLAS_SY2SB_HEMM_BLOCK
}

}  // namespace

namespace detail {

// The band is the panel of stage one: its QR (about 13 us per column on an H200) and its
// update's inner dimension 2 band favour wider bands; the chase, whose critical path is
// about 2n tasks of band^2 work, narrower ones. One H200, d, nb 256 (2026-11-28,
// bench/results/h200-twostage.md): band 32 against 64, 0.295 s against 0.406 s at
// n = 8192 and 0.900 s against 1.064 s at 16384 (the chase 0.35 s against 0.66 s).
int64_t two_stage_band(int64_t nb, int64_t requested) { return panel_width(nb, requested, 32); }

// One H200, d, band 32, nb 256 (2026-11-29, bench/results/h200-sy2sb-update.md):
// hetrd_2stage_mgpu at n = 8192 / 16384 / 32768 took 0.297 / 0.902 / 3.74 s panel by panel,
// 0.278 / 0.774 / 2.83 s with 256 pending columns, 0.280 / 0.780 / 2.81 s with 512; 1024
// and 2048 were no faster. The host engine flushes every 3 panels, so that the tests
// cross many flushes.
int64_t two_stage_update_width(const Device& dev, int64_t band) {
  const int64_t cols = env_integer("MGBLAS_SY2SB_UPDATE", 1, 65536, dev.is_gpu() ? 256 : 3 * band);
  return std::max<int64_t>(1, cols / band) * band;
}

// One H200, d, band 32 (2026-11-30, bench/results/h200-sy2sb-fused.md): the hemm phase
// of hetrd_2stage_mgpu took 0.134 s at n = 16384 and 0.96 s at 32768 with squares of
// 8192, against 0.166-0.177 s and 1.10-1.12 s with 4096 (rank2k's block) and 1.55 s at
// 32768 with 16384: cuBLAS's dsymm with 32 columns is faster on 8192 squares than the
// halving around it. Host devices keep rank2k's block.
// Where the engine's hemm has a product of its own for `cols` columns that is fastest
// whole (kernels::hemm_whole: on the CUDA engine float and complex float with 17-32
// columns), the trailing matrix goes to it whole: one H200, s, band 32 (2026-12-01,
// bench/results/h200-skinny-sgemm.md), 0.598 s against 0.619 s halved at n = 16384 and
// 2.469 s against 2.596 s at 32768. In c at 16384 the whole square on the kernel took
// 1.085 s, against 1.445 s with cuBLAS's CHEMM on squares of 8192 (the halving with the
// kernel was not measured in c).
template <Scalar T>
int64_t two_stage_hemm_block(const Device& dev, int64_t cols) {
  const bool whole = kernels::hemm_whole<T>(dev, /*herm=*/true, cols);
  const int64_t fallback = !dev.is_gpu() ? rank2k_diagonal_block(dev)
                           : whole       ? std::numeric_limits<int64_t>::max()
                                         : 8192;
  return env_integer("MGBLAS_SY2SB_HEMM_BLOCK", 64, 65536, fallback);
}

template <Scalar T>
bool two_stage_pays(Stages stages, const DistMatrix<T>& A, bool vectors) {
  if (stages != Stages::Auto) return stages == Stages::Two;
  // GPUs only (the host engine's chase is a plain loop, stage one's panels LAPACK's).
  const Context& ctx = A.context();
  if (!ctx.device(0).is_gpu()) return false;
  const int64_t n = A.layout().n();
  const int P = A.layout().num_devices();
  // With vectors Q2's application decides, and only double and complex double have the
  // tensor-core kernel (kernels/cuda/sb2st/apply_q_mma.cuh). heevd_mgpu, all vectors, two
  // stages against one:
  // - one H200, z, with the complex kernel (bench/results/h200-apply-q-complex.md,
  //   2026-12-01): 0.183 s against 0.193 s at n = 4096 (median of 3), 0.625 against 0.843
  //   at 8192, 3.57 against 5.16 at 16384;
  // - one H200, d, with stage one's panel and its WY form in one kernel
  //   (bench/results/h200-panel-wy.md, 2026-11-30): 0.387 s against 0.479 s at n = 8192,
  //   1.70 against 2.45 at 16384 (before it, h200-heevd.md: 0.478 against 0.457 at 8192);
  // - 1 rank x 2 H200s (h200-sy2sb-blocks.md, 2026-11-29): 2.01 against 1.76 at 16384,
  //   8.09 against 10.14 at 32768;
  // - 4 ranks x 1 H200 (h200x4-twostage.md, before Q2 ran on a rank's GPUs at once and
  //   before the grouped products): 7.25 against 6.60 at 32768.
  // The one-stage reduction gains more from each GPU than stage one's panels and the
  // chase (which every rank runs whole), so the crossing moves up with the GPUs: from
  // 8192 on one GPU (z: 4096) and 16384 P on P >= 2 (not remeasured since the panel kernel).
  // Complex double on several GPUs is not measured: double's crossing stands for it.
  constexpr bool kComplex = std::is_same_v<T, std::complex<double>>;
  if (vectors)
    return (std::is_same_v<T, double> || kComplex) &&
           n >= (P == 1 ? (kComplex ? 4096 : 8192) : 16384 * int64_t{P});
  // Eigenvalues only, one H200, d, band 32 against hetrd_mgpu (h200-panel-wy.md): the
  // reduction 0.085 s against 0.101 s at n = 4096, 2.00x at 8192, 3.51x at 16384. Before
  // the panel kernel 4096 lost (h200-twostage.md), and on several GPUs it has not been
  // measured: from 8192 there.
  return n >= (P == 1 ? 4096 : 8192);
}

template <Scalar T>
DeviceBand<T> reduce_to_band(DistMatrix<T>& A, Uplo uplo, int64_t band, ReducerKind transport,
                             HetrdProfile* profile) {
  Context& ctx = A.context();
  DeviceBand<T> out;
  out.n = A.layout().n();
  out.band = band;
  out.ldab = 2 * band;  // >= band + 1; kernels/sb2st_kernels.hpp chases in place in 2 band
  const auto ntau = static_cast<std::size_t>(std::max<int64_t>(0, out.n - band));
  std::vector<T*> tau, AB;
  for (int dd = 0; dd < ctx.num_devices(); ++dd) {
    const Device& dev = ctx.device(dd);
    out.tau.emplace_back(dev, ntau);
    out.AB.emplace_back(dev, static_cast<std::size_t>(out.ldab * out.n));
    tau.push_back(out.tau.back().data());
    AB.push_back(out.AB.back().data());
  }
  He2hb<T> job(A, uplo, band, transport, profile);
  job.run(tau);
  job.gather_band(AB, out.ldab);
  return out;
}

template <Scalar T>
TwoStageQ<T> make_two_stage_q(Uplo uplo, const DistMatrix<T>& A, int64_t band,
                              const char* band_name) {
  Context& ctx = A.context();
  check_band(ctx, uplo, A, band, band_name);
  TwoStageQ<T> q;
  q.n = A.layout().n();
  q.band = band;
  const auto v2_size = static_cast<std::size_t>(band2tri_v2_size(q.n));
  const auto tau2_size = static_cast<std::size_t>(band2tri_tau2_size(q.n, band));
  for (int dd = 0; dd < ctx.num_devices(); ++dd) {
    q.V2.emplace_back(ctx.device(dd), v2_size);
    q.tau2.emplace_back(ctx.device(dd), tau2_size);
  }
  return q;
}

template <Scalar T>
void reduce_two_stage(DistMatrix<T>& A, Uplo uplo, ReducerKind transport, HetrdProfile* profile,
                      real_type_t<T>* d, real_type_t<T>* e, TwoStageQ<T>& q) {
  using R = real_type_t<T>;
  Context& ctx = A.context();
  const int64_t n = q.n, band = q.band, n1 = std::max<int64_t>(0, n - 1),
                ntau = std::max<int64_t>(0, n - band);
  if (n == 0) return;
  DeviceBand<T> bd = reduce_to_band<T>(A, uplo, band, transport, profile);
  const Device& dev0 = ctx.device(0);
  dev0.make_current();
  q.tau1.resize(static_cast<std::size_t>(ntau));
  copy_vector(dev0, ntau, static_cast<const T*>(bd.tau[0].data()), q.tau1.data());
  // Upper: stage one's reflector i lies in column n - 1 - i (the J A J arrangement).
  if (uplo == Uplo::Upper) std::reverse(q.tau1.begin(), q.tau1.end());

  const auto t = std::chrono::steady_clock::now();
  const auto v2_size = static_cast<std::size_t>(band2tri_v2_size(n));
  const auto tau2_size = static_cast<std::size_t>(band2tri_tau2_size(n, band));
  DeviceBuffer<R> dd_(dev0, static_cast<std::size_t>(n)), ed(dev0, static_cast<std::size_t>(n1));
  band_to_tridiag<T>(dev0, n, band, bd.AB[0].data(), bd.ldab, dd_.data(), ed.data(),
                     q.V2[0].data(), q.tau2[0].data());
  dev0.make_current();
  copy_vector(dev0, n, static_cast<const R*>(dd_.data()), d);
  copy_vector(dev0, n1, static_cast<const R*>(ed.data()), e);
  // The rank's other devices take device 0's reflectors (a copy is far cheaper than a
  // chase), in pieces: one copy of n^2 / 2 elements may exceed a 2-D copy's pitch limit.
  constexpr std::size_t piece = std::size_t{1} << 26;
  for (int dd = 1; dd < ctx.num_devices(); ++dd) {
    for (std::size_t o = 0; o < v2_size; o += piece)
      copy_vector(dev0, static_cast<int64_t>(std::min(piece, v2_size - o)),
                  static_cast<const T*>(q.V2[0].data()) + o, q.V2[dd].data() + o);
    copy_vector(dev0, static_cast<int64_t>(tau2_size), static_cast<const T*>(q.tau2[0].data()),
                q.tau2[dd].data());
  }
  if (profile)
    profile->chase += std::chrono::duration<double>(std::chrono::steady_clock::now() - t).count();
}

template <Scalar T>
void apply_two_stage_q(Uplo uplo, const DistMatrix<T>& A, const TwoStageQ<T>& Q,
                       DistMatrix<T>& C, const UnmtrOptions& opts) {
  Context& ctx = A.context();
  if (Q.n <= 1 || C.n() == 0) return;
  // One thread per GPU: the engine waits for its stream before it returns (its packed
  // reflectors are freed), so a plain loop would run the devices one after another.
  for_each_local_device(ctx, [&](int dd) {
    if (C.local_n(dd) == 0) return;
    ctx.device(dd).make_current();
    band_to_tridiag_apply_q<T>(ctx.device(dd), Op::N, Q.n, Q.band, Q.V2[dd].data(),
                               Q.tau2[dd].data(), C.local_n(dd), C.local(dd), C.ld());
  });
  apply_reflectors_mgpu<T>(uplo, Op::N, A, Q.band, Q.tau1.data(), C, opts);
}

}  // namespace detail

template <Scalar T>
void hetrd_band_mgpu(Uplo uplo, DistMatrix<T>& A, int64_t band, T* tau, T* AB, int64_t ldab,
                     const HetrdOptions& opts) {
  const auto start = std::chrono::steady_clock::now();
  Context& ctx = A.context();
  const int64_t n = A.layout().n(), ntau = std::max<int64_t>(0, n - band);
  CallRecord rec("hetrd_band_mgpu");
  detail::add_matrix_fields(rec, A);
  rec.add("uplo", static_cast<char>(uplo))
      .add("band", band)
      .add("AB given", static_cast<int64_t>(AB != nullptr))
      .add("ldab", AB ? ldab : int64_t{0})
      .add("opts.transport", static_cast<int64_t>(opts.transport));
  agree(ctx.comm(), rec, [&] {
        check_band(ctx, uplo, A, band);
        MGBLAS_CHECK_PTR(tau, "tau", ntau > 0);
        if (AB) MGBLAS_CHECK_ARG(ldab >= band + 1, "ldab", ldab, ">= band + 1 = ", band + 1);
      });
  if (n == 0) return;
  detail::DeviceBand<T> out = detail::reduce_to_band<T>(A, uplo, band, opts.transport, opts.profile);
  // Every device holds the same outputs: each rank reads its first device's.
  const Device& dev0 = ctx.device(0);
  dev0.make_current();
  copy_vector(dev0, ntau, static_cast<const T*>(out.tau[0].data()), tau);
  if (AB) copy_matrix(dev0, band + 1, n, static_cast<const T*>(out.AB[0].data()), out.ldab, AB,
                      ldab);
  if (opts.profile)
    opts.profile->total +=
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

template <Scalar T>
void hetrd_2stage_mgpu(Uplo uplo, DistMatrix<T>& A, real_type_t<T>* d, real_type_t<T>* e,
                       const HetrdOptions& opts) {
  using R = real_type_t<T>;
  const auto start = std::chrono::steady_clock::now();
  Context& ctx = A.context();
  const int64_t n = A.layout().n(), n1 = std::max<int64_t>(0, n - 1);
  const int64_t band = detail::two_stage_band(A.layout().nb(), opts.band);
  CallRecord rec("hetrd_2stage_mgpu");
  detail::add_matrix_fields(rec, A);
  rec.add("uplo", static_cast<char>(uplo))
      .add("opts.band", opts.band)
      .add("opts.transport", static_cast<int64_t>(opts.transport));
  std::unique_ptr<DeviceBuffer<R>> dd, ed;
  agree(ctx.comm(), rec, [&] {
        check_band(ctx, uplo, A, band, "opts.band");
        MGBLAS_CHECK_PTR(d, "d", n > 0);
        MGBLAS_CHECK_PTR(e, "e", n1 > 0);
        // The chase's outputs on the rank's first device, made inside the agreement so
        // that a failed allocation raises on every rank.
        dd = std::make_unique<DeviceBuffer<R>>(ctx.device(0), static_cast<std::size_t>(n));
        ed = std::make_unique<DeviceBuffer<R>>(ctx.device(0), static_cast<std::size_t>(n1));
      });
  if (n == 0) return;
  detail::DeviceBand<T> band_out = detail::reduce_to_band<T>(A, uplo, band, opts.transport,
                                                             opts.profile);
  // Every rank chases its own copy of the band on its first device; the chase is
  // deterministic, so identical devices give every rank the same T.
  const Device& dev0 = ctx.device(0);
  auto t = std::chrono::steady_clock::now();
  band_to_tridiag<T>(dev0, n, band, band_out.AB[0].data(), band_out.ldab, dd->data(),
                     ed->data(), nullptr, nullptr);
  dev0.make_current();
  copy_vector(dev0, n, static_cast<const R*>(dd->data()), d);
  copy_vector(dev0, n1, static_cast<const R*>(ed->data()), e);
  if (opts.profile) {
    opts.profile->chase += std::chrono::duration<double>(std::chrono::steady_clock::now() - t).count();
    opts.profile->total +=
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  }
}

#define MGBLAS_INSTANTIATE(T)                                                                    \
  template void hetrd_2stage_mgpu<T>(Uplo, DistMatrix<T>&, real_type_t<T>*, real_type_t<T>*,     \
                                     const HetrdOptions&);                                       \
  template bool detail::two_stage_pays<T>(Stages, const DistMatrix<T>&, bool);                   \
  template int64_t detail::two_stage_hemm_block<T>(const Device&, int64_t);                      \
  template void hetrd_band_mgpu<T>(Uplo, DistMatrix<T>&, int64_t, T*, T*, int64_t,               \
                                   const HetrdOptions&);                                         \
  template detail::DeviceBand<T> detail::reduce_to_band<T>(DistMatrix<T>&, Uplo, int64_t,        \
                                                           ReducerKind, HetrdProfile*);          \
  template detail::TwoStageQ<T> detail::make_two_stage_q<T>(Uplo, const DistMatrix<T>&, int64_t, \
                                                            const char*);                        \
  template void detail::reduce_two_stage<T>(DistMatrix<T>&, Uplo, ReducerKind, HetrdProfile*,    \
                                            real_type_t<T>*, real_type_t<T>*,                    \
                                            detail::TwoStageQ<T>&);                              \
  template void detail::apply_two_stage_q<T>(Uplo, const DistMatrix<T>&,                         \
                                             const detail::TwoStageQ<T>&, DistMatrix<T>&,        \
                                             const UnmtrOptions&);
MGBLAS_FOR_EACH_SCALAR(MGBLAS_INSTANTIATE)
#undef MGBLAS_INSTANTIATE

}  // namespace mgblas
