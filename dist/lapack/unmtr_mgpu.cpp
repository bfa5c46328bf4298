// SPDX-License-Identifier: BSD-3-Clause
// unmtr_mgpu: Q of hetrd_mgpu (either triangle) applied to a block-cyclic C, one block
// of reflectors at a time (see the header). Per block: one explicit-V kernel on the
// owner, one broadcast, and on every device holding columns of C one larft and three
// gemms.
#include "dist/lapack/unmtr_mgpu.hpp"

#include <algorithm>
#include <memory>
#include <vector>

#include "core/error.hpp"
#include "core/memory.hpp"
#include "dist/detail/device_collectives.hpp"
#include "dist/detail/mgpu_common.hpp"
#include "dist/lapack/detail/panel_width.hpp"
#include "kernels/blas.hpp"
#include "kernels/larfb_kernels.hpp"

namespace mgblas {
namespace {

// One local device's buffers: the block's V (m x b, contiguous: the broadcast's unit),
// its T, W = V^H C and T W (b x the device's columns of C), tau when it came from the host.
template <Scalar T>
struct BlockSpace {
  DeviceBuffer<T> V, Tm, W, TW, tau;
};

template <Scalar T>
class Unmtr {
 public:
  /// off: how far below (Lower) or above (Upper) its column a reflector's unit lies (1
  /// for hetrd_mgpu's Q, the band for stage one's Q1).
  Unmtr(const DistMatrix<T>& A, DistMatrix<T>& C, int64_t kb, bool host_tau, int64_t off = 1)
      : A_(A), C_(C), ctx_(A.context()), L_(A.layout()), n_(L_.n()), kb_(kb), off_(off),
        space_(ctx_.num_devices()) {
    const auto nref = static_cast<std::size_t>(std::max<int64_t>(0, n_ - off_));
    for (int dd = 0; dd < ctx_.num_devices(); ++dd) {
      const Device& dev = ctx_.device(dd);
      const auto cols = static_cast<std::size_t>(C_.local_n(dd) * kb_);
      BlockSpace<T>& s = space_[dd];
      s.V = DeviceBuffer<T>(dev, nref * static_cast<std::size_t>(kb_));
      s.Tm = DeviceBuffer<T>(dev, static_cast<std::size_t>(kb_ * kb_));
      s.W = DeviceBuffer<T>(dev, cols);
      s.TW = DeviceBuffer<T>(dev, cols);
      if (host_tau) s.tau = DeviceBuffer<T>(dev, nref);
    }
  }

  /// Copies the host tau (n - off entries) to every device; returns the device pointers.
  std::vector<const T*> stage_tau(const T* tau) {
    std::vector<const T*> out;
    for (int dd = 0; dd < ctx_.num_devices(); ++dd) {
      const Device& dev = ctx_.device(dd);
      dev.make_current();
      copy_vector(dev, n_ - off_, tau, space_[dd].tau.data());
      out.push_back(space_[dd].tau.data());
    }
    return out;
  }

  /// C := op(Q) C with tau[dd]: n - off entries in memory of local device dd.
  ///
  /// Reflector i lives in A's column i (Lower) or i + off (Upper). The blocks of
  /// reflectors follow A's columns in runs of kb (a divisor of nb), so that one device
  /// holds each block: run c holds the reflectors of columns c kb .. c kb + kb - 1 (Upper:
  /// columns 0 .. off - 1 hold none).
  void run(Uplo uplo, Op op, const std::vector<const T*>& tau, ReducerKind transport) {
    detail::DeviceCollectives coll(ctx_, transport);
    std::vector<T*> V;
    for (auto& s : space_) V.push_back(s.V.data());
    const bool lower = uplo == Uplo::Lower;
    const int64_t shift = lower ? 0 : off_, nref = n_ - off_,
                  runs = (nref + shift + kb_ - 1) / kb_;
    const int64_t lda = A_.ld(), ldc = C_.ld();
    // Lower: Q = B(0) B(1) ..., B(r) = H(r0) ... H(r0 + b - 1) = I - V T V^H (T upper,
    // forward): Q C takes the last block first, Q^H C the first. Upper: Q = ... B(1) B(0),
    // B(r) = H(r0 + b - 1) ... H(r0) (T lower, backward): Q C takes the first block first.
    const bool last_first = (op == Op::N) == lower;
    const kernels::Direction dir = lower ? kernels::Direction::Forward : kernels::Direction::Backward;
    const Op opt = op == Op::N ? Op::N : Op::C;
    for (int64_t s = 0; s < runs; ++s) {
      const int64_t run = last_first ? runs - 1 - s : s;
      const int64_t r0 = std::max<int64_t>(0, run * kb_ - shift);
      const int64_t r1 = std::min(nref, (run + 1) * kb_ - shift);
      const int64_t b = r1 - r0;
      if (b <= 0) continue;  // Upper: a run of columns that hold no reflector
      // Lower: reflector r0 + j has its unit at row r0 + j + off (off = 1: where e lies)
      // and its entries below, so the block spans rows r0 + off .. n - 1. Upper: its unit
      // at row r0 + j and its entries above, rows 0 .. r1 - 1.
      const int64_t row0 = lower ? r0 + off_ : 0, m = lower ? n_ - off_ - r0 : r1;
      const int owner = L_.owner(r0 + shift), ol = ctx_.local_index_of(owner);
      if (ol >= 0)
        kernels::larfb_form_v<T>(ctx_.device(ol), dir, m, b,
                                 A_.local(ol) + L_.local_col(r0 + shift) * lda + row0, lda,
                                 V[ol], m);
      coll.broadcast<T>(V, m * b, owner);
      for (int dd = 0; dd < ctx_.num_devices(); ++dd) {
        const int64_t cols = C_.local_n(dd);
        if (cols == 0) continue;
        const Device& dev = ctx_.device(dd);
        BlockSpace<T>& w = space_[dd];
        T* Cr = C_.local(dd) + row0;  // the block's rows of the device's columns
        kernels::larft<T>(dev, dir, m, b, V[dd], m, tau[dd] + r0, w.Tm.data(), kb_);
        gemm<T>(dev, Op::C, Op::N, b, cols, m, T(1), V[dd], m, Cr, ldc, T(0), w.W.data(), b);
        gemm<T>(dev, opt, Op::N, b, cols, b, T(1), w.Tm.data(), kb_, w.W.data(), b, T(0),
                w.TW.data(), b);
        gemm<T>(dev, Op::N, Op::N, m, cols, b, T(-1), V[dd], m, w.TW.data(), b, T(1), Cr, ldc);
      }
    }
    coll.wait();
  }

 private:
  const DistMatrix<T>& A_;
  DistMatrix<T>& C_;
  Context& ctx_;
  const BlockCyclic1D& L_;
  int64_t n_, kb_, off_;
  std::vector<BlockSpace<T>> space_;
};

// Checks every argument but tau on this rank; the caller agrees on the outcome.
template <Scalar T>
void check_unmtr(const Context& ctx, Uplo uplo, Op op, const DistMatrix<T>& A,
                 const DistMatrix<T>& C, int64_t kb) {
  const BlockCyclic1D& L = A.layout();
  MGBLAS_CHECK_ARG(uplo == Uplo::Lower || uplo == Uplo::Upper, "uplo", static_cast<char>(uplo),
                   "Uplo::Lower or Uplo::Upper");
  const bool op_ok = op == Op::N || op == Op::C || (!is_complex_v<T> && op == Op::T);
  MGBLAS_CHECK_ARG(op_ok, "op", static_cast<char>(op),
                   is_complex_v<T> ? "Op::N or Op::C" : "Op::N, Op::T or Op::C");
  if (L.m() != L.n())
    MGBLAS_THROW(DimensionMismatch, "argument 'A' is ", L.m(), " x ", L.n(),
                 ": unmtr_mgpu needs the square matrix hetrd_mgpu reduced");
  detail::check_matrix(ctx, A);
  if (&C.context() != &ctx)
    MGBLAS_THROW(BadArgument, "argument 'C' lives on another Context than A");
  if (C.layout().num_devices() != ctx.global_num_devices())
    MGBLAS_THROW(DimensionMismatch, "argument 'C': layout over P = ", C.layout().num_devices(),
                 " devices, but the context has ", ctx.global_num_devices());
  if (C.m() != L.n())
    MGBLAS_THROW(DimensionMismatch, "argument 'C' has ", C.m(), " rows, but A is ", L.n(),
                 " x ", L.n());
  MGBLAS_CHECK_ARG(kb >= 1 && kb <= kernels::kLarftMaxBlock && L.nb() % kb == 0, "opts.panel",
                   kb, "a divisor of A's nb = ", L.nb(), " in [1, ", kernels::kLarftMaxBlock,
                   "], or 0 (automatic)");
}

template <Scalar T>
CallRecord unmtr_record(Uplo uplo, Op op, const DistMatrix<T>& A, const DistMatrix<T>& C,
                        int64_t kb, ReducerKind transport, int64_t form) {
  CallRecord rec("unmtr_mgpu");
  detail::add_matrix_fields(rec, A);
  const BlockCyclic1D& LC = C.layout();
  rec.add("uplo", static_cast<char>(uplo))
      .add("op", static_cast<char>(op))
      .add("C.m", LC.m())
      .add("C.n", LC.n())
      .add("C.nb", LC.nb())
      .add("C.first", LC.first())
      .add("opts.panel", kb)
      .add("opts.transport", static_cast<int64_t>(transport))
      .add("tau form", form);
  return rec;
}

}  // namespace

template <Scalar T>
void unmtr_mgpu(Uplo uplo, Op op, const DistMatrix<T>& A, const DistVector<T>& tau,
                DistMatrix<T>& C, const UnmtrOptions& opts) {
  Context& ctx = A.context();
  const BlockCyclic1D& L = A.layout();
  const int64_t kb = detail::reflector_block_width(L.nb(), opts.panel);
  std::unique_ptr<Unmtr<T>> job;
  // The buffers are made inside the agreement, so a failed allocation on one rank raises
  // on every rank.
  CallRecord rec = unmtr_record(uplo, op, A, C, kb, opts.transport, 1);
  agree(ctx.comm(), rec, [&] {
        check_unmtr(ctx, uplo, op, A, C, kb);
        detail::check_dist_vector(ctx, tau, "tau", std::max<int64_t>(0, L.n() - 1), nullptr);
        if (L.n() > 1 && C.n() > 0) job = std::make_unique<Unmtr<T>>(A, C, kb, false);
      });
  if (!job) return;  // n <= 1 (Q = I) or K = 0, alike on every rank
  std::vector<const T*> tv;
  for (int dd = 0; dd < ctx.num_devices(); ++dd) tv.push_back(tau.local(dd));
  job->run(uplo, op, tv, opts.transport);
}

template <Scalar T>
void unmtr_mgpu(Uplo uplo, Op op, const DistMatrix<T>& A, const T* tau, DistMatrix<T>& C,
                const UnmtrOptions& opts) {
  Context& ctx = A.context();
  const BlockCyclic1D& L = A.layout();
  const int64_t kb = detail::reflector_block_width(L.nb(), opts.panel);
  std::unique_ptr<Unmtr<T>> job;
  CallRecord rec = unmtr_record(uplo, op, A, C, kb, opts.transport, 0);
  agree(ctx.comm(), rec, [&] {
        check_unmtr(ctx, uplo, op, A, C, kb);
        const bool work = L.n() > 1 && C.n() > 0;
        MGBLAS_CHECK_PTR(tau, "tau", work);
        if (work) job = std::make_unique<Unmtr<T>>(A, C, kb, true);
      });
  if (!job) return;
  job->run(uplo, op, job->stage_tau(tau), opts.transport);
}

namespace detail {

template <Scalar T>
void apply_reflectors_mgpu(Uplo uplo, Op op, const DistMatrix<T>& A, int64_t off, const T* tau,
                           DistMatrix<T>& C, const UnmtrOptions& opts) {
  if (A.layout().n() - off <= 0 || C.n() == 0) return;  // Q = I or nothing to transform
  const int64_t kb = reflector_block_width(A.layout().nb(), opts.panel);
  Unmtr<T> job(A, C, kb, true, off);
  job.run(uplo, op, job.stage_tau(tau), opts.transport);
}

}  // namespace detail

#define MGBLAS_INSTANTIATE(T)                                                                \
  template void detail::apply_reflectors_mgpu<T>(Uplo, Op, const DistMatrix<T>&, int64_t,  \
                                                 const T*, DistMatrix<T>&,                  \
                                                 const UnmtrOptions&);                      \
  template void unmtr_mgpu<T>(Uplo, Op, const DistMatrix<T>&, const DistVector<T>&,         \
                              DistMatrix<T>&, const UnmtrOptions&);                          \
  template void unmtr_mgpu<T>(Uplo, Op, const DistMatrix<T>&, const T*, DistMatrix<T>&,     \
                              const UnmtrOptions&);
MGBLAS_FOR_EACH_SCALAR(MGBLAS_INSTANTIATE)
#undef MGBLAS_INSTANTIATE

}  // namespace mgblas
