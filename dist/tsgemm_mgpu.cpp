// SPDX-License-Identifier: BSD-3-Clause
// tsgemm_mgpu: tall-and-skinny GEMM over row tiles of every device of every rank.
#include "dist/tsgemm_mgpu.hpp"

#include <algorithm>
#include <cstdint>
#include <utility>
#include <vector>

#include "core/error.hpp"
#include "core/memory.hpp"
#include "dist/detail/mgpu_common.hpp"
#include "kernels/blas.hpp"

namespace mgblas {
namespace {

template <Scalar T>
void check_operand(const Context& ctx, const RowTiledMatrix<T>& X, const char* name) {
  if (&X.context() != &ctx)
    MGBLAS_THROW(BadArgument, "argument '", name, "' lives on another Context than the one given");
  detail::check_row_tiling(ctx, X.tiling(), name);
}

// ---- tsgemm_mgpu, rows form ---------------------------------------------------------

template <Scalar T>
void tsgemm_rows(Reducer& red, Op opB, T alpha, const RowTiledMatrix<T>& A, const T* B,
                 int64_t ldb, T beta, RowTiledMatrix<T>& C) {
  Context& ctx = red.context();
  const int64_t m = A.m(), k = A.n(), n = C.n();
  CallRecord rec("tsgemm_mgpu (row tiles)");
  rec.add_precision<T>();
  detail::add_row_tiling_fields(rec, "m", "k", A.tiling(), k);
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
  detail::add_row_tiling_fields(rec, "k", "m", A.tiling(), m);
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
    if (beta != T(0)) copy_host_matrix(m, n, C, ldc, packed.data(), m);
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
  if (y != C) copy_host_matrix(m, n, y, m, C, ldc);
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
