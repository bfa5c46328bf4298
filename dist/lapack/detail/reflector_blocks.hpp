// SPDX-License-Identifier: BSD-3-Clause
// The blocked compact-WY application of a reduction's reflectors to a block-cyclic C
// (private to dist/lapack): unmtr_mgpu's Q of hetrd_mgpu, stage one's Q1 of the
// two-stage reduction, and unmbr_mgpu's Q and P of gebrd_mgpu. Per block of reflectors:
// every device gets the block's V explicit, forms T and updates its own columns of C
// with three gemms. C's columns are never moved.
//
// How V reaches the devices depends on where the reflectors lie in A:
//   - in A's columns, a block of them (a divisor of nb wide) lies on one device: its
//     owner makes V explicit and broadcasts it;
//   - in A's rows (gebrd's P), a block's rows are spread over every device's columns:
//     each device copies its part into a zeroed b x m buffer at its global columns, the
//     buffers are summed over every device of every rank (an all-gather, each entry from
//     one device), and every device makes V, the sum's conjugate transpose, explicit.
#pragma once

#include <algorithm>
#include <cstdint>
#include <span>
#include <vector>

#include "core/agreement.hpp"
#include "core/error.hpp"
#include "core/memory.hpp"
#include "dist/detail/device_collectives.hpp"
#include "dist/detail/mgpu_common.hpp"
#include "kernels/blas.hpp"
#include "kernels/columns.hpp"
#include "kernels/larfb_kernels.hpp"
#include "layouts/block_cyclic.hpp"
#include "layouts/dist_matrix.hpp"

namespace mgblas::detail {

/// The checks the entries over ReflectorBlocks share (unmtr_mgpu, unmbr_mgpu), on this
/// rank: op (real T: Op::T too), A, and C on A's context over every device; then, after
/// the entry's own check of C's rows, the block width kb (a divisor of A's nb in
/// [1, kLarftMaxBlock]).
template <Scalar T>
void check_reflector_target(const Context& ctx, Op op, const DistMatrix<T>& A,
                            const DistMatrix<T>& C) {
  const bool op_ok = op == Op::N || op == Op::C || (!is_complex_v<T> && op == Op::T);
  MGBLAS_CHECK_ARG(op_ok, "op", static_cast<char>(op),
                   is_complex_v<T> ? "Op::N or Op::C" : "Op::N, Op::T or Op::C");
  check_matrix(ctx, A);
  if (&C.context() != &ctx)
    MGBLAS_THROW(BadArgument, "argument 'C' lives on another Context than A");
  if (C.layout().num_devices() != ctx.global_num_devices())
    MGBLAS_THROW(DimensionMismatch, "argument 'C': layout over P = ", C.layout().num_devices(),
                 " devices, but the context has ", ctx.global_num_devices());
}
inline void check_reflector_block_width(const BlockCyclic1D& L, int64_t kb) {
  MGBLAS_CHECK_ARG(kb >= 1 && kb <= kernels::kLarftMaxBlock && L.nb() % kb == 0, "opts.panel",
                   kb, "a divisor of A's nb = ", L.nb(), " in [1, ", kernels::kLarftMaxBlock,
                   "], or 0 (automatic)");
}

/// Their call record: A, then `letter` (uplo or vect) under `name`, op, C's layout, the
/// block width, the transport and the form tau comes in.
template <Scalar T>
CallRecord reflector_record(const char* what, const char* name, char letter, Op op,
                            const DistMatrix<T>& A, const DistMatrix<T>& C, int64_t kb,
                            ReducerKind transport, int64_t form) {
  CallRecord rec(what);
  add_matrix_fields(rec, A);
  const BlockCyclic1D& LC = C.layout();
  rec.add(name, letter)
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

/// Where a reduction keeps its reflectors in A (m x n) and the order of their product,
/// reflector i's unit `off` rows or columns from index i:
///   Columns, forward:  Q = H(0) H(1) ... H(nref-1), reflector i in column i, unit at row
///                      i + off, its entries below; nref = min(n, m - off), C has m rows.
///   Columns, backward: (square A) Q = H(nref-1) ... H(1) H(0), reflector i in column
///                      i + off, unit at row i, its entries above; nref = n - off.
///   Rows (forward):    Q = H(0) H(1) ... H(nref-1), reflector i in row i, unit at column
///                      i + off, the conjugates of its entries to the right (LAPACK's
///                      ?gelqf storage); nref = min(m, n - off), C has n rows.
struct ReflectorShape {
  bool rows = false;
  bool forward = true;
  int64_t off = 1;

  /// The number of reflectors of an m x n A (0 when there are none).
  int64_t count(int64_t m, int64_t n) const {
    const int64_t r = rows ? std::min(m, n - off) : forward ? std::min(n, m - off) : n - off;
    return std::max<int64_t>(0, r);
  }
  /// The rows of C (the order of Q).
  int64_t order(int64_t m, int64_t n) const { return rows ? n : m; }
};

// One local device's buffers: the block's V (order x b at most, contiguous: the unit of
// the broadcast), its T, W = V^H C and T W (b x the device's columns of C), tau when it
// came from the host; for row-stored reflectors the gathered rows (b x order at most),
// the device's columns of them, R's leading square and a b x b identity (gather_rows).
template <Scalar T>
struct BlockSpace {
  DeviceBuffer<T> V, Tm, W, TW, tau, rows, pack, square, eye;
};

template <Scalar T>
class ReflectorBlocks {
 public:
  /// kb: reflectors per block (a divisor of A's nb, <= kernels::kLarftMaxBlock);
  /// host_tau: whether tau comes from the host (stage_tau) or is on the devices already.
  ReflectorBlocks(const ReflectorShape& shape, const DistMatrix<T>& A, DistMatrix<T>& C,
                  int64_t kb, bool host_tau)
      : A_(A), C_(C), ctx_(A.context()), L_(A.layout()), shape_(shape),
        len_(shape.order(L_.m(), L_.n())), nref_(shape.count(L_.m(), L_.n())), kb_(kb),
        space_(ctx_.num_devices()) {
    const auto nref = static_cast<std::size_t>(nref_), kbs = static_cast<std::size_t>(kb_);
    const auto vlen = static_cast<std::size_t>(std::max<int64_t>(0, len_ - shape_.off)) * kbs;
    std::vector<T> eye;
    if (shape_.rows) {
      eye.assign(kbs * kbs, T(0));
      for (std::size_t j = 0; j < kbs; ++j) eye[j * kbs + j] = T(1);
    }
    for (int dd = 0; dd < ctx_.num_devices(); ++dd) {
      const Device& dev = ctx_.device(dd);
      const auto cols = static_cast<std::size_t>(C_.local_n(dd)) * kbs;
      BlockSpace<T>& s = space_[dd];
      s.V = DeviceBuffer<T>(dev, vlen);
      s.Tm = DeviceBuffer<T>(dev, kbs * kbs);
      s.W = DeviceBuffer<T>(dev, cols);
      s.TW = DeviceBuffer<T>(dev, cols);
      if (host_tau) s.tau = DeviceBuffer<T>(dev, nref);
      if (shape_.rows) {
        s.rows = DeviceBuffer<T>(dev, vlen);
        s.pack = DeviceBuffer<T>(dev, static_cast<std::size_t>(A_.local_n(dd)) * kbs);
        s.square = DeviceBuffer<T>(dev, kbs * kbs);
        s.eye = DeviceBuffer<T>(dev, kbs * kbs);
        dev.make_current();
        copy_vector(dev, kb_ * kb_, eye.data(), s.eye.data());
      }
    }
  }

  /// The number of reflectors.
  int64_t count() const { return nref_; }

  /// Copies the host tau (count() entries) to every device; returns the device pointers.
  std::vector<const T*> stage_tau(const T* tau) {
    std::vector<const T*> out;
    for (int dd = 0; dd < ctx_.num_devices(); ++dd) {
      const Device& dev = ctx_.device(dd);
      dev.make_current();
      copy_vector(dev, nref_, tau, space_[dd].tau.data());
      out.push_back(space_[dd].tau.data());
    }
    return out;
  }

  /// C := op(Q) C with tau[dd]: count() entries in memory of local device dd.
  ///
  /// The blocks follow the reflectors' carriers (A's columns or rows) in runs of kb, run c
  /// holding the reflectors of carriers c kb .. c kb + kb - 1 (backward: carriers 0 ..
  /// off - 1 hold none): for column-stored reflectors, since kb divides nb, one device
  /// holds each block.
  void run(Op op, const std::vector<const T*>& tau, ReducerKind transport) {
    DeviceCollectives coll(ctx_, transport);
    const int64_t shift = shape_.forward ? 0 : shape_.off;
    const int64_t runs = (nref_ + shift + kb_ - 1) / kb_;
    // Forward: Q = B(0) B(1) ..., B(r) = H(r0) ... H(r0 + b - 1) = I - V T V^H (T upper):
    // Q C takes the last block first, Q^H C the first. Backward: Q = ... B(1) B(0), B(r)
    // = H(r0 + b - 1) ... H(r0) (T lower): Q C takes the first block first.
    const bool last_first = (op == Op::N) == shape_.forward;
    for (int64_t s = 0; s < runs; ++s) apply_block(coll, op, tau, last_first ? runs - 1 - s : s);
    coll.wait();
  }

  /// C(:, c0:) := op(B(run)) C(:, c0:) for block `run` alone (as run() numbers them), on
  /// C's columns from global column c0 on (0: all of them), with tau as for run(); the
  /// collectives go through `coll`, which the caller waits on. A factorisation that
  /// keeps its reflectors in C itself (geqrf_mgpu: C is A) applies each block to the
  /// columns right of it once the block is in A.
  void apply_block(DeviceCollectives& coll, Op op, const std::vector<const T*>& tau,
                   int64_t run, int64_t c0 = 0) {
    std::vector<T*> V;
    for (auto& s : space_) V.push_back(s.V.data());
    const bool fwd = shape_.forward;
    const int64_t off = shape_.off, shift = fwd ? 0 : off;
    const int64_t ldc = C_.ld();
    const kernels::Direction dir = fwd ? kernels::Direction::Forward : kernels::Direction::Backward;
    const Op opt = op == Op::N ? Op::N : Op::C;
    const int64_t r0 = std::max<int64_t>(0, run * kb_ - shift);
    const int64_t r1 = std::min(nref_, (run + 1) * kb_ - shift);
    const int64_t b = r1 - r0;
    if (b <= 0) return;  // backward: a run of columns that hold no reflector
    // Forward: reflector r0 + j has its unit at r0 + j + off and its entries after it, so
    // the block spans rows r0 + off .. len - 1 of C. Backward: its unit at row r0 + j and
    // its entries above, rows 0 .. r1 - 1.
    const int64_t row0 = fwd ? r0 + off : 0, m = fwd ? len_ - off - r0 : r1;
    if (shape_.rows)
      gather_rows(coll, r0, b, m);
    else
      broadcast_columns(coll, dir, r0 + shift, row0, b, m);
    for (int dd = 0; dd < ctx_.num_devices(); ++dd) {
      const int64_t first = c0 > 0 ? local_begin(C_.layout(), ctx_.device_offset() + dd, c0) : 0;
      const int64_t cols = C_.local_n(dd) - first;
      if (cols <= 0) continue;
      const Device& dev = ctx_.device(dd);
      BlockSpace<T>& w = space_[dd];
      T* Cr = C_.local(dd) + first * ldc + row0;  // the block's rows of the device's columns
      kernels::larft<T>(dev, dir, m, b, V[dd], m, tau[dd] + r0, w.Tm.data(), kb_);
      gemm<T>(dev, Op::C, Op::N, b, cols, m, T(1), V[dd], m, Cr, ldc, T(0), w.W.data(), b);
      gemm<T>(dev, opt, Op::N, b, cols, b, T(1), w.Tm.data(), kb_, w.W.data(), b, T(0),
              w.TW.data(), b);
      gemm<T>(dev, Op::N, Op::N, m, cols, b, T(-1), V[dd], m, w.TW.data(), b, T(1), Cr, ldc);
    }
  }

 private:
  // The block of b column-stored reflectors in A's column c0 on (rows row0 .. row0 + m - 1)
  // made explicit by the column's owner and broadcast to every device.
  void broadcast_columns(DeviceCollectives& coll, kernels::Direction dir, int64_t c0,
                         int64_t row0, int64_t b, int64_t m) {
    const int owner = L_.owner(c0), ol = ctx_.local_index_of(owner);
    if (ol >= 0)
      kernels::larfb_form_v<T>(ctx_.device(ol), dir, m, b,
                               A_.local(ol) + L_.local_col(c0) * A_.ld() + row0, A_.ld(),
                               space_[ol].V.data(), m);
    std::vector<T*> V;
    for (auto& s : space_) V.push_back(s.V.data());
    coll.broadcast<T>(V, m * b, owner);
  }

  // The block of b row-stored reflectors in A's rows r0 .. r0 + b - 1, from column
  // c0 = r0 + off on (m columns), made explicit on every device:
  //   1. each device copies its columns of the rows into R (b x m, zeroed) where they lie
  //      (through a packed copy and one scatter: a column of the rows is b contiguous
  //      entries of both, so the device's columns scaled by b index R's entries);
  //   2. R is summed over every device of every rank (each entry comes from one device);
  //   3. every device makes V = R^H explicit: R's leading b x b square gets its units and
  //      zeros (larfb_form_v, backward on a square: the stored side is above the unit),
  //      then V = R^H I_b by gemms with the identity, which are exact (one nonzero term
  //      per entry) and need no transpose kernel. Only the reflectors' entries reach V.
  void gather_rows(DeviceCollectives& coll, int64_t r0, int64_t b, int64_t m) {
    const int64_t c0 = r0 + shape_.off, lda = A_.ld();
    std::vector<T*> rows;
    for (int dd = 0; dd < ctx_.num_devices(); ++dd) {
      const Device& dev = ctx_.device(dd);
      BlockSpace<T>& s = space_[dd];
      T* R = s.rows.data();
      dev.make_current();
      memset_bytes(dev, R, 0, static_cast<std::size_t>(m * b) * sizeof(T), /*async=*/true);
      const LocalColumns cols = local_columns(L_, ctx_.device_offset() + dd, c0, L_.n());
      if (cols.count() > 0) {
        copy_matrix(dev, b, cols.count(), A_.local(dd) + r0 + cols.local_begin * lda, lda,
                    s.pack.data(), b, /*async=*/true);
        const LocalColumns entries{cols.nb * b, cols.stride * b, cols.first_col * b,
                                   cols.local_begin * b, cols.local_end * b};
        scatter_columns<T>(Queue(dev), std::span(&entries, 1), s.pack.data(), entries.count(),
                           c0 * b, T(0), R);
      }
      rows.push_back(R);
    }
    if (L_.num_devices() > 1) coll.allreduce_sum<T>(rows, m * b);
    for (int dd = 0; dd < ctx_.num_devices(); ++dd) {
      const Device& dev = ctx_.device(dd);
      BlockSpace<T>& s = space_[dd];
      T* V = s.V.data();
      kernels::larfb_form_v<T>(dev, kernels::Direction::Backward, b, b, rows[dd], b,
                               s.square.data(), kb_);
      gemm<T>(dev, Op::C, Op::N, b, b, b, T(1), s.square.data(), kb_, s.eye.data(), kb_, T(0),
              V, m);
      if (m > b)
        gemm<T>(dev, Op::C, Op::N, m - b, b, b, T(1), rows[dd] + b * b, b, s.eye.data(), kb_,
                T(0), V + b, m);
    }
  }

  const DistMatrix<T>& A_;
  DistMatrix<T>& C_;
  Context& ctx_;
  const BlockCyclic1D& L_;
  ReflectorShape shape_;
  int64_t len_, nref_, kb_;
  std::vector<BlockSpace<T>> space_;
};

}  // namespace mgblas::detail
