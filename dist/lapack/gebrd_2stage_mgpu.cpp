// SPDX-License-Identifier: BSD-3-Clause
// The two-stage bidiagonal reduction: stage one (Ge2gb, dense to upper band over every
// device), the band's gather, stage two (band_to_bidiag on each rank's first device) and
// the back-transformation (see the header for the arrangement).
#include "dist/lapack/gebrd_2stage_mgpu.hpp"

#include <algorithm>
#include <chrono>
#include <future>
#include <span>
#include <vector>

#include "core/error.hpp"
#include "core/memory.hpp"
#include "dist/detail/device_collectives.hpp"
#include "dist/detail/device_threads.hpp"
#include "dist/detail/mgpu_common.hpp"
#include "dist/lapack/detail/panel_width.hpp"
#include "dist/lapack/detail/phase_clock.hpp"
#include "dist/lapack/unmbr_mgpu.hpp"
#include "kernels/blas.hpp"
#include "kernels/columns.hpp"
#include "kernels/lapack.hpp"
#include "kernels/larfb_kernels.hpp"
#include "kernels/sb2st_kernels.hpp"
#include "kernels/sy2sb_kernels.hpp"
#include "layouts/block_cyclic.hpp"

namespace mgblas {
namespace {

// One local device's buffers (b the band, L the device's columns of A):
//   panel  [V_L (m x b) | T_L (b x b) | tau_L (b)], the broadcast's unit;
//   rows   the row panel, b x n (leading dimension b), summed over the devices;
//   G      its conjugate transpose (n x b), factored in place; VR its V (n x b); Gh the
//          factored panel transposed back (b x n), TR and tauR (b x b, b);
//   Zs     [Z; V_R(J)^H], 2b x L (leading dimension 2b), the update's right factor;
//   Zp     V_L^H A (b x L), pack a device's columns of b-row data (b x L);
//   Ls     [V_L W] (m x 2b), the update's left factor; YS [Y (m x b) | S (b x b)];
//   eye    the b x b identity, for exact transposes by GEMM.
template <Scalar T>
struct BidiagSpace {
  DeviceBuffer<T> panel, rows, G, VR, Gh, TR, tauR, Zs, Zp, pack, Ls, YS, eye, tauq, taup;
};

// The b-row blocks stored column after column (b contiguous entries per global column):
// the device's columns of `cols`, scaled so that scatter_columns / gather_columns move
// whole b-entry chunks.
LocalColumns chunks(const LocalColumns& c, int64_t b) {
  return {c.nb * b, c.stride * b, c.first_col * b, c.local_begin * b, c.local_end * b};
}

template <Scalar T>
class Ge2gb {
 public:
  Ge2gb(DistMatrix<T>& A, int64_t b, ReducerKind transport, GebrdProfile* profile)
      : A_(A), ctx_(A.context()), L_(A.layout()), m_(L_.m()), n_(L_.n()), ld_(A.ld()), b_(b),
        coll_(ctx_, transport), space_(ctx_.num_devices()), clock_(ctx_, profile) {
    const auto bs = static_cast<std::size_t>(b_);
    const auto mb = static_cast<std::size_t>(m_) * bs, nbs = static_cast<std::size_t>(n_) * bs;
    std::vector<T> eye(bs * bs, T(0));
    for (std::size_t j = 0; j < bs; ++j) eye[j * bs + j] = T(1);
    for (int dd = 0; dd < devices(); ++dd) {
      const Device& dev = ctx_.device(dd);
      const auto lb = static_cast<std::size_t>(std::max<int64_t>(1, A_.local_n(dd))) * bs;
      BidiagSpace<T>& s = space_[dd];
      s.panel = DeviceBuffer<T>(dev, mb + bs * bs + bs);
      s.rows = DeviceBuffer<T>(dev, nbs);
      s.G = DeviceBuffer<T>(dev, nbs);
      s.VR = DeviceBuffer<T>(dev, nbs);
      s.Gh = DeviceBuffer<T>(dev, nbs);
      s.TR = DeviceBuffer<T>(dev, bs * bs);
      s.tauR = DeviceBuffer<T>(dev, bs);
      s.Zs = DeviceBuffer<T>(dev, 2 * lb);
      s.Zp = DeviceBuffer<T>(dev, lb);
      s.pack = DeviceBuffer<T>(dev, lb);
      s.Ls = DeviceBuffer<T>(dev, 2 * mb);
      s.YS = DeviceBuffer<T>(dev, mb + bs * bs);
      s.eye = DeviceBuffer<T>(dev, bs * bs);
      s.tauq = DeviceBuffer<T>(dev, static_cast<std::size_t>(std::max<int64_t>(1, n_)));
      s.taup = DeviceBuffer<T>(dev, static_cast<std::size_t>(std::max<int64_t>(1, n_)));
      dev.make_current();
      copy_vector(dev, b_ * b_, eye.data(), s.eye.data());
    }
  }

  /// Reduces A to upper band form (see the header).
  void run() {
    clock_.restart();
    std::vector<T*> panel, rows, YS;
    for (auto& s : space_) {
      panel.push_back(s.panel.data());
      rows.push_back(s.rows.data());
      YS.push_back(s.YS.data());
    }
    for (int64_t k = 0; k < n_; k += b_) {
      const int64_t w = std::min(b_, n_ - k), mk = m_ - k, kq = std::min(mk, w);
      const int64_t nr = n_ - k - b_, mr = m_ - k - b_;  // the trailing matrix, when nr > 0
      const auto V = [&](int dd) { return panel[dd]; };
      const auto TL = [&](int dd) { return panel[dd] + mk * kq; };
      const auto tauL = [&](int dd) { return panel[dd] + mk * kq + b_ * b_; };
      // 1. The column panel's QR on its owner: R stays in A, V_L below it.
      const int owner = L_.owner(k), ol = ctx_.local_index_of(owner);
      if (ol >= 0) {
        const Device& dev = ctx_.device(ol);
        T* P = A_.local(ol) + L_.local_col(k) * ld_ + k;
        kernels::geqrf_wy<T>(dev, mk, w, P, ld_, tauL(ol), V(ol), mk, TL(ol), b_);
      }
      clock_.charge(&GebrdProfile::panel);
      coll_.broadcast<T>(panel, mk * kq + b_ * b_ + b_, owner);
      clock_.charge(&GebrdProfile::comm);
      // 2. Z = T_L^H V_L^H A(k:m, J) into Zs's first kq rows; Q_L^H on the row panel's
      //    rows A(k:k+b, J); those rows into `rows` where they lie (zero elsewhere).
      detail::for_each_local_device(ctx_, [&](int dd) {
        const Device& dev = ctx_.device(dd);
        BidiagSpace<T>& s = space_[dd];
        dev.make_current();
        copy_vector(dev, kq, static_cast<const T*>(tauL(dd)), s.tauq.data() + k, /*async=*/true);
        if (nr <= 0) return;
        memset_bytes(dev, rows[dd], 0, static_cast<std::size_t>(b_ * nr) * sizeof(T), true);
        const LocalColumns J = trailing(dd, k + b_);
        const int64_t cols = J.count();
        if (cols == 0) return;
        T* Ak = A_.local(dd) + J.local_begin * ld_ + k;
        gemm<T>(dev, Op::C, Op::N, kq, cols, mk, T(1), V(dd), mk, Ak, ld_, T(0), s.Zp.data(), kq);
        gemm<T>(dev, Op::C, Op::N, kq, cols, kq, T(1), TL(dd), b_, s.Zp.data(), kq, T(0),
                s.Zs.data(), 2 * b_);
        gemm<T>(dev, Op::N, Op::N, b_, cols, kq, T(-1), V(dd), mk, s.Zs.data(), 2 * b_, T(1), Ak,
                ld_);
        copy_matrix(dev, b_, cols, static_cast<const T*>(Ak), ld_, s.pack.data(), b_, true);
        const LocalColumns c = chunks(J, b_);
        scatter_columns<T>(Queue(dev), std::span(&c, 1), s.pack.data(), c.count(), (k + b_) * b_,
                           T(0), rows[dd]);
      });
      clock_.charge(&GebrdProfile::products);
      if (nr <= 0) continue;
      if (L_.num_devices() > 1) coll_.allreduce_sum<T>(rows, b_ * nr);
      clock_.charge(&GebrdProfile::comm);
      // 3. Every device: the row panel's LQ as the QR of its conjugate transpose G; L and
      //    the reflectors back into its own columns of the rows; V_R(J)^H below Z in Zs;
      //    its shares of Y = A(k+b:m, J) V_R(J) and S = Z V_R(J).
      const int64_t kr = std::min(nr, b_);
      detail::for_each_local_device(ctx_, [&](int dd) {
        const Device& dev = ctx_.device(dd);
        BidiagSpace<T>& s = space_[dd];
        T* G = s.G.data();
        dev.make_current();
        gemm<T>(dev, Op::C, Op::N, nr, b_, b_, T(1), rows[dd], b_, s.eye.data(), b_, T(0), G, nr);
        kernels::geqrf_wy<T>(dev, nr, b_, G, nr, s.tauR.data(), s.VR.data(), nr, s.TR.data(), b_);
        copy_vector(dev, kr, static_cast<const T*>(s.tauR.data()), s.taup.data() + k, true);
        const LocalColumns J = trailing(dd, k + b_);
        const int64_t cols = J.count();
        if (cols == 0) {
          memset_bytes(dev, YS[dd], 0, static_cast<std::size_t>(mr * kr + kq * kr) * sizeof(T),
                       true);
          return;
        }
        T* Ak = A_.local(dd) + J.local_begin * ld_ + k;
        gemm<T>(dev, Op::N, Op::C, b_, nr, b_, T(1), s.eye.data(), b_, G, nr, T(0), s.Gh.data(),
                b_);
        gather_columns<T>(Queue(dev), chunks(J, b_), s.Gh.data(), (k + b_) * b_, s.pack.data());
        copy_matrix(dev, b_, cols, static_cast<const T*>(s.pack.data()), b_, Ak, ld_, true);
        // V_R^H (kr x nr) into Gh, the device's columns of it into Zs's rows kq..kq+kr.
        gemm<T>(dev, Op::N, Op::C, kr, nr, kr, T(1), s.eye.data(), b_, s.VR.data(), nr, T(0),
                s.Gh.data(), kr);
        gather_columns<T>(Queue(dev), chunks(J, kr), s.Gh.data(), (k + b_) * kr, s.pack.data());
        T* Zs = s.Zs.data();
        copy_matrix(dev, kr, cols, static_cast<const T*>(s.pack.data()), kr, Zs + kq, 2 * b_,
                    true);
        gemm<T>(dev, Op::N, Op::C, mr, kr, cols, T(1), Ak + b_, ld_, Zs + kq, 2 * b_, T(0), YS[dd],
                mr);
        gemm<T>(dev, Op::N, Op::C, kq, kr, cols, T(1), Zs, 2 * b_, Zs + kq, 2 * b_, T(0),
                YS[dd] + mr * kr, kq);
      });
      clock_.charge(&GebrdProfile::products);
      if (L_.num_devices() > 1) coll_.allreduce_sum<T>(YS, mr * kr + kq * kr);
      clock_.charge(&GebrdProfile::comm);
      // 4. W = (Y - V_L(b:) S) T_R beside V_L(b:) in Ls; both sides' update in one GEMM.
      detail::for_each_local_device(ctx_, [&](int dd) {
        const LocalColumns J = trailing(dd, k + b_);
        const int64_t cols = J.count();
        if (cols == 0) return;
        const Device& dev = ctx_.device(dd);
        BidiagSpace<T>& s = space_[dd];
        T* Ls = s.Ls.data();
        T* Y = YS[dd];
        dev.make_current();
        gemm<T>(dev, Op::N, Op::N, mr, kr, kq, T(-1), V(dd) + b_, mk, Y + mr * kr, kq, T(1), Y,
                mr);
        copy_matrix(dev, mr, kq, static_cast<const T*>(V(dd) + b_), mk, Ls, mr, true);
        gemm<T>(dev, Op::N, Op::N, mr, kr, kr, T(1), Y, mr, s.TR.data(), b_, T(0), Ls + mr * kq,
                mr);
        gemm<T>(dev, Op::N, Op::N, mr, cols, kq + kr, T(-1), Ls, mr, s.Zs.data(), 2 * b_, T(1),
                A_.local(dd) + J.local_begin * ld_ + k + b_, ld_);
      });
      clock_.charge(&GebrdProfile::update);
    }
    coll_.wait();
  }

  /// The tau of Q1 (n) and P1 (max(0, n - b)), from the first local device to the host.
  void taus(std::vector<T>& tauq, std::vector<T>& taup) {
    const Device& dev0 = ctx_.device(0);
    dev0.make_current();
    tauq.resize(static_cast<std::size_t>(n_));
    taup.resize(static_cast<std::size_t>(std::max<int64_t>(0, n_ - b_)));
    copy_vector(dev0, n_, static_cast<const T*>(space_[0].tauq.data()), tauq.data());
    copy_vector(dev0, static_cast<int64_t>(taup.size()),
                static_cast<const T*>(space_[0].taup.data()), taup.data());
  }

  /// Every local device's copy of the band, LAPACK's upper band storage (ldab >= b + 1):
  /// each device copies its columns' band entries (rows max(0, j - b) .. j of column j,
  /// a run's columns (ld + 1) elements apart in A) into a zeroed AB, and a sum over all
  /// devices completes it.
  void gather_band(const std::vector<T*>& AB, int64_t ldab) {
    for (int dd = 0; dd < devices(); ++dd) {
      const Device& dev = ctx_.device(dd);
      dev.make_current();
      memset_bytes(dev, AB[dd], 0, static_cast<std::size_t>(ldab * n_) * sizeof(T), true);
      const T* Al = A_.local(dd);
      for_each_column_run(local_columns(L_, global(dd), 0, n_),
                          [&](int64_t jl, int64_t c0, int64_t w) {
        for (int64_t j = c0; j < std::min(c0 + w, b_); ++j)  // the first columns: shorter
          copy_vector(dev, j + 1, Al + (jl + j - c0) * ld_, AB[dd] + (b_ - j) + j * ldab, true);
        const int64_t j0 = std::max(c0, b_);
        if (j0 < c0 + w)
          copy_matrix(dev, b_ + 1, c0 + w - j0, Al + (j0 - b_) + (jl + j0 - c0) * ld_, ld_ + 1,
                      AB[dd] + j0 * ldab, ldab, true);
      });
    }
    if (L_.num_devices() > 1) coll_.allreduce_sum<T>(AB, ldab * n_);
    coll_.wait();
    clock_.charge(&GebrdProfile::comm);
  }

 private:
  int devices() const { return ctx_.num_devices(); }
  int global(int dd) const { return ctx_.device_offset() + dd; }
  // Local device dd's columns of A from global column c0 on.
  LocalColumns trailing(int dd, int64_t c0) const { return local_columns(L_, global(dd), c0, n_); }

  DistMatrix<T>& A_;
  Context& ctx_;
  const BlockCyclic1D& L_;
  int64_t m_, n_, ld_, b_;
  detail::DeviceCollectives coll_;
  std::vector<BidiagSpace<T>> space_;
  detail::PhaseClock<GebrdProfile> clock_;
};

}  // namespace

namespace detail {

// Stage one prefers wide panels (its GEMMs' inner dimensions are b and 2b), the chase
// narrow ones (its critical path is about 2n tasks of b^2 work): as for the tridiagonal
// case (bench/results/h200-twostage.md), 32 unless told otherwise.
int64_t bidiag_two_stage_band(int64_t nb, int64_t requested) {
  return panel_width(nb, requested, 32);
}

template <Scalar T>
bool bidiag_two_stage_pays(Stages stages, const DistMatrix<T>& A, bool vectors) {
  if (stages != Stages::Auto) return stages == Stages::Two;
  // GPUs only (the host engine's chase is a plain loop), and m >= n (stage one makes an
  // upper band). One H200, band 32, two stages against one (bench/results/h200-svd.md):
  // values only 0.96x the time at n = 2048, 0.73x at 4096, 0.55x at 8192, 0.31x at
  // 16384 (d; z 0.69x, 0.44x at 4096, 8192); with all vectors Q2 and P2's application
  // (band_to_tridiag_apply_q, 3.1 s of 6.4 s at 16384) eats most of the gain: d 0.97x at
  // 4096, 0.94x at 8192, 0.90x at 16384, z 1.07x at 4096 and 0.99x at 8192.
  const Context& ctx = A.context();
  const int64_t from = vectors ? 8192 : 2048;
  return ctx.device(0).is_gpu() && A.m() >= A.n() && A.n() >= from;
}

template <Scalar T>
TwoStageBidiag<T> make_two_stage_bidiag(const Context& ctx, const BlockCyclic1D& L, int64_t band,
                                        bool keep, const char* band_name) {
  if (L.m() < L.n())
    MGBLAS_THROW(DimensionMismatch, "argument 'A' is ", L.m(), " x ", L.n(),
                 ": the two-stage bidiagonal reduction needs m >= n");
  MGBLAS_CHECK_ARG(band >= 1 && band <= kernels::kLarftMaxBlock && L.nb() % band == 0, band_name,
                   band, "a divisor of A's nb = ", L.nb(), " in [1, ", kernels::kLarftMaxBlock,
                   "]");
  TwoStageBidiag<T> q;
  q.m = L.m();
  q.n = L.n();
  q.band = band;
  if (keep) {
    const auto v2 = static_cast<std::size_t>(band2tri_v2_size(q.n));
    const auto t2 = static_cast<std::size_t>(band2tri_tau2_size(q.n, band));
    for (int dd = 0; dd < ctx.num_devices(); ++dd) {
      q.VQ.emplace_back(ctx.device(dd), v2);
      q.tauQ.emplace_back(ctx.device(dd), t2);
      q.VP.emplace_back(ctx.device(dd), v2);
      q.tauP.emplace_back(ctx.device(dd), t2);
    }
  }
  return q;
}

template <Scalar T>
void reduce_bidiag_two_stage(DistMatrix<T>& A, ReducerKind transport, GebrdProfile* profile,
                             double* chase, real_type_t<T>* d, real_type_t<T>* e,
                             TwoStageBidiag<T>& q) {
  using R = real_type_t<T>;
  Context& ctx = A.context();
  const int64_t n = q.n, b = q.band, n1 = std::max<int64_t>(0, n - 1);
  if (n == 0) return;
  const int64_t ldab = b + 1;
  std::vector<DeviceBuffer<T>> AB;
  std::vector<T*> ab;
  for (int dd = 0; dd < ctx.num_devices(); ++dd) {
    AB.emplace_back(ctx.device(dd), static_cast<std::size_t>(ldab * n));
    ab.push_back(AB.back().data());
  }
  {
    Ge2gb<T> job(A, b, transport, profile);
    job.run();
    job.taus(q.tauq1, q.taup1);
    job.gather_band(ab, ldab);
  }
  // Every rank chases its own copy of the band on its first device; the chase is
  // deterministic, so identical devices give every rank the same Bd.
  const auto t = std::chrono::steady_clock::now();
  const Device& dev0 = ctx.device(0);
  const bool keep = !q.VQ.empty();
  {
    DeviceBuffer<R> dd_(dev0, static_cast<std::size_t>(n)), ed(dev0, static_cast<std::size_t>(n1));
    band_to_bidiag<T>(dev0, n, b, ab[0], ldab, dd_.data(), ed.data(),
                      keep ? q.VQ[0].data() : nullptr, keep ? q.tauQ[0].data() : nullptr,
                      keep ? q.VP[0].data() : nullptr, keep ? q.tauP[0].data() : nullptr);
    dev0.make_current();
    copy_vector(dev0, n, static_cast<const R*>(dd_.data()), d);
    copy_vector(dev0, n1, static_cast<const R*>(ed.data()), e);
  }
  AB.clear();
  // The rank's other devices take device 0's reflectors (a copy is far cheaper than a
  // chase), in pieces: one copy of n^2 / 2 elements may exceed a 2-D copy's pitch limit.
  constexpr std::size_t piece = std::size_t{1} << 26;
  const auto copy_all = [&](const DeviceBuffer<T>& from, DeviceBuffer<T>& to) {
    for (std::size_t o = 0; o < from.size(); o += piece)
      copy_vector(dev0, static_cast<int64_t>(std::min(piece, from.size() - o)), from.data() + o,
                  to.data() + o);
  };
  for (int dd = 1; keep && dd < ctx.num_devices(); ++dd) {
    copy_all(q.VQ[0], q.VQ[dd]);
    copy_all(q.tauQ[0], q.tauQ[dd]);
    copy_all(q.VP[0], q.VP[dd]);
    copy_all(q.tauP[0], q.tauP[dd]);
  }
  if (chase != nullptr) *chase += seconds_since(t);
}

// Q2 and P2 run at the same time on a GPU up to this many columns of C per device. The
// tensor-core kernel gives each warp 16 columns for the whole call, 4 warps a block and
// at most 2 blocks an SM: up to 8192 columns one kernel fills at most half an H200's
// block slots, and the two together took 0.216 s where one after the other took 0.253 s
// (the SVD's back-transformation at n = 8192). At 16384 each fills them alone, and the
// pair was slower: 1.670 s against 1.528 s (bench/results/h200-svd-overlap.md).
constexpr int64_t kOverlapColumns = 8192;

template <Scalar T>
void apply_two_stage_bidiag(const DistMatrix<T>& A, const TwoStageBidiag<T>& q, DistMatrix<T>* CQ,
                            DistMatrix<T>* CP, const UnmtrOptions& opts) {
  Context& ctx = A.context();
  if (q.n == 0) return;
  // Q2 or P2 on device dd's columns of C, on `queue` (the engine waits for its stream).
  const auto stage_two = [&](int dd, Vect vect, DistMatrix<T>* C, const Queue& queue) {
    if (C == nullptr || C->local_n(dd) == 0) return;
    ctx.device(dd).make_current();
    const bool left = vect == Vect::Q;
    band_to_tridiag_apply_q<T>(queue, Op::N, q.n, q.band, (left ? q.VQ : q.VP)[dd].data(),
                               (left ? q.tauQ : q.tauP)[dd].data(), C->local_n(dd), C->local(dd),
                               C->ld());
  };
  if (q.n > 1) {  // one thread per GPU, as apply_two_stage_q
    for_each_local_device(ctx, [&](int dd) {
      const Device& dev = ctx.device(dd);
      if (CQ == nullptr || CP == nullptr || !dev.is_gpu() ||
          std::max(CQ->local_n(dd), CP->local_n(dd)) > kOverlapColumns) {
        stage_two(dd, Vect::Q, CQ, dev);
        stage_two(dd, Vect::P, CP, dev);
        return;
      }
      // Both at once, P2 on the side stream from a second thread, once the device's stream
      // has delivered CP.
      dev.synchronize();
      std::vector<std::future<void>> p2;
      p2.push_back(std::async(std::launch::async,
                              [&] { stage_two(dd, Vect::P, CP, Queue(dev, dev.side_stream())); }));
      run_and_join([&] { stage_two(dd, Vect::Q, CQ, dev); }, p2);
    });
  }
  if (CQ != nullptr && CQ->n() > 0 && !q.tauq1.empty())
    unmbr_band_mgpu<T>(Vect::Q, q.band, Op::N, A, q.tauq1.data(), *CQ, opts);
  if (CP != nullptr && CP->n() > 0 && !q.taup1.empty())
    unmbr_band_mgpu<T>(Vect::P, q.band, Op::N, A, q.taup1.data(), *CP, opts);
}

}  // namespace detail

#define MGBLAS_INSTANTIATE(T)                                                                  \
  template bool detail::bidiag_two_stage_pays<T>(Stages, const DistMatrix<T>&, bool);          \
  template detail::TwoStageBidiag<T> detail::make_two_stage_bidiag<T>(                         \
      const Context&, const BlockCyclic1D&, int64_t, bool, const char*);                       \
  template void detail::reduce_bidiag_two_stage<T>(DistMatrix<T>&, ReducerKind, GebrdProfile*, \
                                                   double*, real_type_t<T>*, real_type_t<T>*,  \
                                                   detail::TwoStageBidiag<T>&);                \
  template void detail::apply_two_stage_bidiag<T>(                                             \
      const DistMatrix<T>&, const detail::TwoStageBidiag<T>&, DistMatrix<T>*, DistMatrix<T>*,  \
      const UnmtrOptions&);
MGBLAS_FOR_EACH_SCALAR(MGBLAS_INSTANTIATE)
#undef MGBLAS_INSTANTIATE

}  // namespace mgblas
