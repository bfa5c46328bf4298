// SPDX-License-Identifier: BSD-3-Clause
// RowTiledMatrix and tsgemm_mgpu: tall-and-skinny GEMM over row tiles of every device
// of every rank.
#include "dist/tsgemm_mgpu.hpp"

#include <algorithm>
#include <cstdint>
#include <utility>
#include <vector>

#include "core/checked.hpp"
#include "core/error.hpp"
#include "dist/detail/mgpu_common.hpp"
#include "kernels/blas.hpp"
#include "layouts/block_cyclic.hpp"

namespace mgblas {
namespace {

// Point-to-point tags of the scatter and the gather (at most one message per pair
// of ranks and call; MPI keeps a pair's messages in order).
constexpr int kTagDistribute = 0x7473;
constexpr int kTagCollect = 0x7474;

// Rows of all of rank r's devices: contiguous, since the global device list orders
// the ranks' devices and RowTiling gives each device one contiguous block.
struct RankRows {
  int64_t begin, end;
  int64_t count() const { return end - begin; }
};
RankRows rank_rows(const Context& ctx, const RowTiling& t, int r) {
  const int g0 = ctx.device_offset(r), g1 = g0 + ctx.devices_on_rank(r);
  if (g1 == g0) return {0, 0};
  return {t.row_begin(g0), t.row_end(g1 - 1)};
}

template <typename T>
void host_copy(int64_t m, int64_t n, const T* src, int64_t lds, T* dst, int64_t ldd) {
  if (m <= 0 || n <= 0) return;
  for (int64_t j = 0; j < n; ++j) std::copy_n(src + j * lds, m, dst + j * ldd);
}

// What every rank must pass identically about a row-tiled matrix.
void add_tiling_fields(CallRecord& rec, const char* m, const char* n, const RowTiling& t,
                       int64_t cols) {
  rec.add(m, t.m()).add(n, cols).add("tile", t.tile()).add("P", t.num_devices());
}

void check_tiling(const Context& ctx, const RowTiling& t, const char* name) {
  if (t.num_devices() != ctx.global_num_devices())
    MGBLAS_THROW(DimensionMismatch, "argument '", name, "': row tiling over P = ",
                 t.num_devices(), " devices, but the context has ", ctx.global_num_devices(),
                 " devices over all ranks");
}

template <Scalar T>
void check_operand(const Context& ctx, const RowTiledMatrix<T>& X, const char* name) {
  if (&X.context() != &ctx)
    MGBLAS_THROW(BadArgument, "argument '", name, "' lives on another Context than the one given");
  check_tiling(ctx, X.tiling(), name);
}

}  // namespace

// ---- RowTiledMatrix ---------------------------------------------------------------

template <Scalar T>
RowTiledMatrix<T>::RowTiledMatrix(std::shared_ptr<Context> ctx, const RowTiling& tiling, int64_t n)
    : ctx_(std::move(ctx)), tiling_(tiling), n_(n) {
  MGBLAS_CHECK_ARG(ctx_ != nullptr, "ctx", "nullptr", "a Context");
  // Collective like DistMatrix's: a bad n, a tiling of another P or a failed allocation
  // on one rank is an error on every rank, not a later hang in distribute.
  CallRecord rec("RowTiledMatrix");
  rec.add_precision<T>()
      .add("m", tiling_.m())
      .add("n", n)
      .add("tile", tiling_.tile())
      .add("P", tiling_.num_devices());
  agree(ctx_->comm(), rec, [&] {
    MGBLAS_CHECK_ARG(n >= 0, "n", n, ">= 0");
    check_tiling(*ctx_, tiling_, "tiling");
    blocks_.reserve(ctx_->num_devices());
    for (int d = 0; d < ctx_->num_devices(); ++d) {
      const int64_t elems = local_m(d) > 0 ? checked_mul(ld(d), n_, "local matrix size") : 0;
      blocks_.emplace_back(ctx_->device(d), static_cast<std::size_t>(elems));
    }
  });
}

template <Scalar T>
RowTiledMatrix<T>::RowTiledMatrix(std::shared_ptr<Context> ctx, int64_t m, int64_t n, int64_t tile)
    : RowTiledMatrix(ctx, RowTiling(m, ctx ? ctx->global_num_devices() : 1, tile), n) {}

template <Scalar T>
int64_t RowTiledMatrix<T>::ld(int d) const {
  return BlockCyclic1D::padded_ld(local_m(d), sizeof(T));
}

template <Scalar T>
void RowTiledMatrix<T>::distribute(const T* A, int64_t lda, int root) {
  const Communicator& comm = ctx_->comm();
  const int me = comm.rank();
  const int64_t m = this->m(), n = n_;
  PinnedBuffer<T> stage;
  CallRecord rec("RowTiledMatrix::distribute");
  rec.add_precision<T>();
  add_tiling_fields(rec, "m", "n", tiling_, n);
  rec.add("root", root);
  agree(comm, rec, [&] {
    MGBLAS_CHECK_ARG(root >= 0 && root < comm.size(), "root", root, "in [0, nranks = ",
                     comm.size(), ")");
    if (me == root) {
      MGBLAS_CHECK_ARG(lda >= std::max<int64_t>(1, m), "lda", lda, ">= max(1, m) = ",
                       std::max<int64_t>(1, m));
      MGBLAS_CHECK_PTR(A, "A", m * n > 0);
    }
    int64_t rows = 0;
    for (int r = 0; r < comm.size(); ++r)
      if (r != root && (me == root || r == me)) rows = std::max(rows, rank_rows(*ctx_, tiling_, r).count());
    stage = PinnedBuffer<T>(static_cast<std::size_t>(checked_mul(rows, n, "staging size")));
  });
  all_or_nothing(comm, "RowTiledMatrix::distribute", [&] {
    // The root sends before touching its own devices, so a device failure there
    // cannot leave a receiver waiting.
    if (me == root) {
      for (int r = 0; r < comm.size(); ++r) {
        const RankRows rr = rank_rows(*ctx_, tiling_, r);
        if (r == root || rr.count() * n == 0) continue;
        host_copy(rr.count(), n, A + rr.begin, lda, stage.data(), rr.count());
        comm.send(stage.data(), static_cast<std::size_t>(rr.count() * n) * sizeof(T), r,
                  kTagDistribute);
      }
      for (int d = 0; d < ctx_->num_devices(); ++d)
        copy_matrix(ctx_->device(d), local_m(d), n, A + row_begin(d), lda, local(d), ld(d));
    } else {
      const RankRows rr = rank_rows(*ctx_, tiling_, me);
      if (rr.count() * n > 0)
        comm.recv(stage.data(), static_cast<std::size_t>(rr.count() * n) * sizeof(T), root,
                  kTagDistribute);
      for (int d = 0; d < ctx_->num_devices(); ++d)
        copy_matrix(ctx_->device(d), local_m(d), n, stage.data() + (row_begin(d) - rr.begin),
                    rr.count(), local(d), ld(d));
    }
  });
}

template <Scalar T>
void RowTiledMatrix<T>::distribute_replicated(const T* A, int64_t lda) {
  const int64_t m = this->m(), n = n_;
  CallRecord rec("RowTiledMatrix::distribute_replicated");
  rec.add_precision<T>();
  add_tiling_fields(rec, "m", "n", tiling_, n);
  agree(ctx_->comm(), rec, [&] {
    MGBLAS_CHECK_ARG(lda >= std::max<int64_t>(1, m), "lda", lda, ">= max(1, m) = ",
                     std::max<int64_t>(1, m));
    MGBLAS_CHECK_PTR(A, "A", m * n > 0);
  });
  all_or_nothing(ctx_->comm(), "RowTiledMatrix::distribute_replicated", [&] {
    for (int d = 0; d < ctx_->num_devices(); ++d)
      copy_matrix(ctx_->device(d), local_m(d), n, A + row_begin(d), lda, local(d), ld(d));
  });
}

template <Scalar T>
void RowTiledMatrix<T>::collect(T* A, int64_t lda, int root) const {
  const Communicator& comm = ctx_->comm();
  const int me = comm.rank();
  const bool to_all = root < 0;
  const bool receives = to_all || me == root;
  const int64_t m = this->m(), n = n_;
  const RankRows mine_rows = rank_rows(*ctx_, tiling_, me);
  PinnedBuffer<T> mine, other;
  // Senders read their devices while validating, so a device failure cannot strand
  // the receiving root.
  CallRecord rec("RowTiledMatrix::collect");
  rec.add_precision<T>();
  add_tiling_fields(rec, "m", "n", tiling_, n);
  rec.add("root", to_all ? -1 : root);
  agree(comm, rec, [&] {
    MGBLAS_CHECK_ARG(root < comm.size(), "root", root, "< nranks = ", comm.size(),
                     " (or negative: every rank receives)");
    if (receives) {
      MGBLAS_CHECK_ARG(lda >= std::max<int64_t>(1, m), "lda", lda, ">= max(1, m) = ",
                       std::max<int64_t>(1, m));
      MGBLAS_CHECK_PTR(A, "A", m * n > 0);
      int64_t rows = 0;
      for (int r = 0; r < comm.size(); ++r)
        if (r != me) rows = std::max(rows, rank_rows(*ctx_, tiling_, r).count());
      other = PinnedBuffer<T>(static_cast<std::size_t>(checked_mul(rows, n, "staging size")));
    }
    if (to_all || me != root) {
      mine = PinnedBuffer<T>(
          static_cast<std::size_t>(checked_mul(mine_rows.count(), n, "staging size")));
      for (int d = 0; d < ctx_->num_devices(); ++d)
        copy_matrix(ctx_->device(d), local_m(d), n, local(d), ld(d),
                    mine.data() + (row_begin(d) - mine_rows.begin), mine_rows.count());
    }
  });
  all_or_nothing(comm, "RowTiledMatrix::collect", [&] {
    if (to_all) {
      for (int r = 0; r < comm.size(); ++r) {
        const RankRows rr = rank_rows(*ctx_, tiling_, r);
        if (rr.count() * n == 0) continue;
        T* buf = r == me ? mine.data() : other.data();
        comm.bcast(buf, static_cast<std::size_t>(rr.count() * n) * sizeof(T), r);
        host_copy(rr.count(), n, buf, rr.count(), A + rr.begin, lda);
      }
    } else if (me == root) {
      for (int r = 0; r < comm.size(); ++r) {
        const RankRows rr = rank_rows(*ctx_, tiling_, r);
        if (r == root || rr.count() * n == 0) continue;
        comm.recv(other.data(), static_cast<std::size_t>(rr.count() * n) * sizeof(T), r,
                  kTagCollect);
        host_copy(rr.count(), n, other.data(), rr.count(), A + rr.begin, lda);
      }
      for (int d = 0; d < ctx_->num_devices(); ++d)
        copy_matrix(ctx_->device(d), local_m(d), n, local(d), ld(d), A + row_begin(d), lda);
    } else if (mine_rows.count() * n > 0) {
      comm.send(mine.data(), static_cast<std::size_t>(mine_rows.count() * n) * sizeof(T), root,
                kTagCollect);
    }
  });
}

// ---- tsgemm_mgpu, rows form ---------------------------------------------------------

namespace {

template <Scalar T>
void tsgemm_rows(Reducer& red, Op opB, T alpha, const RowTiledMatrix<T>& A, const T* B,
                 int64_t ldb, T beta, RowTiledMatrix<T>& C) {
  Context& ctx = red.context();
  const int64_t m = A.m(), k = A.n(), n = C.n();
  CallRecord rec("tsgemm_mgpu (row tiles)");
  rec.add_precision<T>();
  add_tiling_fields(rec, "m", "k", A.tiling(), k);
  rec.add("n", n).add("opB", static_cast<char>(opB)).add_scalar("alpha", alpha).add_scalar("beta", beta);
  const bool uses_b = m > 0 && n > 0 && k > 0 && alpha != T(0);
  agree(ctx.comm(), rec, [&] {
    MGBLAS_CHECK_ARG(opB == Op::N || opB == Op::T || opB == Op::C, "opB",
                     static_cast<int>(static_cast<char>(opB)), "'N', 'T' or 'C'");
    check_operand(ctx, A, "A");
    check_operand(ctx, C, "C");
    if (!(C.tiling() == A.tiling()))
      MGBLAS_THROW(DimensionMismatch, "arguments 'A' (", A.m(), " rows) and 'C' (", C.m(),
                   " rows) must share one row tiling");
    const int64_t rows_b = opB == Op::N ? k : n;
    MGBLAS_CHECK_ARG(ldb >= std::max<int64_t>(1, rows_b), "ldb", ldb, ">= max(1, ",
                     opB == Op::N ? "k" : "n", ") = ", std::max<int64_t>(1, rows_b));
    MGBLAS_CHECK_PTR(B, "B", uses_b);
    if (uses_b && ctx.verify_inputs())  // B is a replicated input
      rec.add_digest("B", hash_matrix(rows_b, opB == Op::N ? n : k, B, ldb));
  });
  if (m == 0 || n == 0) return;
  const int64_t rows_b = opB == Op::N ? k : n, cols_b = opB == Op::N ? n : k;
  all_or_nothing(ctx.comm(), "tsgemm_mgpu", [&] {
    for (int d = 0; d < ctx.num_devices(); ++d) {
      const int64_t lm = A.local_m(d);
      if (lm == 0) continue;
      const Device& dev = ctx.device(d);
      dev.make_current();
      const Queue q(dev);
      if (!uses_b) {  // C = beta * C: the inner dimension does not matter
        tsgemm(q, Op::N, opB, lm, n, int64_t{0}, alpha, A.local(d), A.ld(d), B, ldb, beta,
               C.local(d), C.ld(d));
        continue;
      }
      const T* b = B;
      int64_t ld = ldb;
      if (dev.is_gpu()) {  // B to the GPU, in the reducer's workspace (kept across calls)
        T* buf = red.workspace<T>(d, detail::kSlotOperand, rows_b * cols_b);
        copy_matrix(dev, rows_b, cols_b, B, ldb, buf, rows_b, /*async=*/true);
        b = buf;
        ld = rows_b;
      }
      tsgemm(q, Op::N, opB, lm, n, k, alpha, A.local(d), A.ld(d), b, ld, beta, C.local(d),
             C.ld(d));
    }
    ctx.synchronize();
  });
}

// ---- tsgemm_mgpu, k-split form --------------------------------------------------------

template <Scalar T>
void tsgemm_ksplit(Reducer& red, Op opA, T alpha, const RowTiledMatrix<T>& A,
                   const RowTiledMatrix<T>& B, T beta, T* C, int64_t ldc) {
  Context& ctx = red.context();
  const int64_t k = A.m(), m = A.n(), n = B.n();
  CallRecord rec("tsgemm_mgpu (k split)");
  rec.add_precision<T>();
  add_tiling_fields(rec, "k", "m", A.tiling(), m);
  rec.add("n", n).add("opA", static_cast<char>(opA)).add_scalar("alpha", alpha).add_scalar("beta", beta);
  agree(ctx.comm(), rec, [&] {
    MGBLAS_CHECK_ARG(opA == Op::T || opA == Op::C, "opA",
                     static_cast<int>(static_cast<char>(opA)),
                     "'T' or 'C' (the k-split form computes op(A) * B with A tall)");
    check_operand(ctx, A, "A");
    check_operand(ctx, B, "B");
    if (!(B.tiling() == A.tiling()))
      MGBLAS_THROW(DimensionMismatch, "arguments 'A' (", A.m(), " rows) and 'B' (", B.m(),
                   " rows) must share one row tiling");
    MGBLAS_CHECK_ARG(ldc >= std::max<int64_t>(1, m), "ldc", ldc, ">= max(1, m) = ",
                     std::max<int64_t>(1, m));
    MGBLAS_CHECK_PTR(C, "C", m * n > 0);
    if (m * n > 0 && beta != T(0) && ctx.verify_inputs())  // C is read on every rank
      rec.add_digest("C", hash_matrix(m, n, C, ldc));
  });
  if (m == 0 || n == 0) return;
  // The reducer works on one vector of m n elements: C itself when ldc = m, else a
  // packed copy.
  std::vector<T> packed;
  T* y = C;
  if (ldc != m) {
    packed.assign(static_cast<std::size_t>(m * n), T(0));
    if (beta != T(0)) host_copy(m, n, C, ldc, packed.data(), m);
    y = packed.data();
  }
  if (k == 0 || alpha == T(0)) {
    for (int64_t i = 0; i < m * n; ++i) y[i] = beta == T(0) ? T(0) : beta * y[i];
  } else {
    red.reduce(m * n, beta, y, [&] {
      std::vector<const T*> partials(ctx.num_devices(), nullptr);
      for (int d = 0; d < ctx.num_devices(); ++d) {
        const int64_t lk = A.local_m(d);
        if (lk == 0) continue;  // no rows here: contributes nothing
        const Device& dev = ctx.device(d);
        dev.make_current();
        T* part = red.workspace<T>(d, detail::kSlotPartial, m * n);
        tsgemm(Queue(dev), opA, Op::N, m, n, lk, alpha, A.local(d), A.ld(d), B.local(d), B.ld(d),
               T(0), part, m);
        partials[d] = part;
      }
      return partials;
    });
  }
  if (y != C) host_copy(m, n, y, m, C, ldc);
}

}  // namespace

template <Scalar T>
void tsgemm_mgpu(Reducer& reducer, Op opB, same_as_a_t<T> alpha, const RowTiledMatrix<T>& A,
                 const same_as_a_t<T>* B, int64_t ldb, same_as_a_t<T> beta, RowTiledMatrix<T>& C) {
  tsgemm_rows<T>(reducer, opB, alpha, A, B, ldb, beta, C);
}

template <Scalar T>
void tsgemm_mgpu(const std::shared_ptr<Context>& ctx, Op opB, same_as_a_t<T> alpha,
                 const RowTiledMatrix<T>& A, const same_as_a_t<T>* B, int64_t ldb,
                 same_as_a_t<T> beta, RowTiledMatrix<T>& C) {
  tsgemm_rows<T>(*make_reducer(ctx), opB, alpha, A, B, ldb, beta, C);
}

template <Scalar T>
void tsgemm_mgpu(Op opB, same_as_a_t<T> alpha, const RowTiledMatrix<T>& A, const same_as_a_t<T>* B,
                 int64_t ldb, same_as_a_t<T> beta, RowTiledMatrix<T>& C) {
  tsgemm_rows<T>(*make_reducer(A.context_ptr()), opB, alpha, A, B, ldb, beta, C);
}

template <Scalar T>
void tsgemm_mgpu(Reducer& reducer, Op opA, same_as_a_t<T> alpha, const RowTiledMatrix<T>& A,
                 const RowTiledMatrix<T>& B, same_as_a_t<T> beta, same_as_a_t<T>* C, int64_t ldc) {
  tsgemm_ksplit<T>(reducer, opA, alpha, A, B, beta, C, ldc);
}

template <Scalar T>
void tsgemm_mgpu(const std::shared_ptr<Context>& ctx, Op opA, same_as_a_t<T> alpha,
                 const RowTiledMatrix<T>& A, const RowTiledMatrix<T>& B, same_as_a_t<T> beta,
                 same_as_a_t<T>* C, int64_t ldc) {
  tsgemm_ksplit<T>(*make_reducer(ctx), opA, alpha, A, B, beta, C, ldc);
}

template <Scalar T>
void tsgemm_mgpu(Op opA, same_as_a_t<T> alpha, const RowTiledMatrix<T>& A,
                 const RowTiledMatrix<T>& B, same_as_a_t<T> beta, same_as_a_t<T>* C, int64_t ldc) {
  tsgemm_ksplit<T>(*make_reducer(A.context_ptr()), opA, alpha, A, B, beta, C, ldc);
}

#define MGBLAS_INSTANTIATE(T)                                                                   \
  template class RowTiledMatrix<T>;                                                             \
  template void tsgemm_mgpu<T>(Reducer&, Op, T, const RowTiledMatrix<T>&, const T*, int64_t, T, \
                               RowTiledMatrix<T>&);                                             \
  template void tsgemm_mgpu<T>(const std::shared_ptr<Context>&, Op, T, const RowTiledMatrix<T>&, \
                               const T*, int64_t, T, RowTiledMatrix<T>&);                       \
  template void tsgemm_mgpu<T>(Op, T, const RowTiledMatrix<T>&, const T*, int64_t, T,           \
                               RowTiledMatrix<T>&);                                             \
  template void tsgemm_mgpu<T>(Reducer&, Op, T, const RowTiledMatrix<T>&,                       \
                               const RowTiledMatrix<T>&, T, T*, int64_t);                       \
  template void tsgemm_mgpu<T>(const std::shared_ptr<Context>&, Op, T, const RowTiledMatrix<T>&, \
                               const RowTiledMatrix<T>&, T, T*, int64_t);                       \
  template void tsgemm_mgpu<T>(Op, T, const RowTiledMatrix<T>&, const RowTiledMatrix<T>&, T, T*, \
                               int64_t);
MGBLAS_FOR_EACH_SCALAR(MGBLAS_INSTANTIATE)
#undef MGBLAS_INSTANTIATE

}  // namespace mgblas
