// SPDX-License-Identifier: BSD-3-Clause
// gemv_mgpu: y = alpha * op(A(i0:, j0:)) * x + beta * y over a block-column distributed A.
#include <algorithm>
#include <vector>

#include "core/communicator.hpp"
#include "dist/detail/mgpu_common.hpp"
#include "dist/dist_blas.hpp"
#include "kernels/blas.hpp"
#include "layouts/block_cyclic.hpp"

namespace mgblas {

namespace {

// Row chunks of the pipeline: `chunks` pieces of a multiple of 32 rows (aligned reads
// in each chunk), fewer when there are not enough rows.
int64_t chunk_rows(int64_t m, int chunks) {
  const int64_t per = (m + chunks - 1) / chunks;
  return std::max<int64_t>(32, (per + 31) / 32 * 32);
}

template <Scalar T>
void gemv_run(Reducer& red, Op op, T alpha, const DistMatrix<T>& A, int64_t i0, int64_t j0,
              const detail::InputVector<T>& x, T beta, detail::OutputVector<T>& y) {
  Context& ctx = red.context();
  const BlockCyclic1D& L = A.layout();
  const bool notrans = op == Op::N;
  const int chunks = red.pipeline_chunks();

  CallRecord rec("gemv_mgpu");
  detail::add_matrix_fields(rec, A);
  rec.add("op", static_cast<char>(op)).add("i0", i0).add("j0", j0);
  detail::add_level2_fields(rec, alpha, beta, x, y, red);
  agree(ctx.comm(), rec, [&] {
    detail::check_matrix(ctx, A);
    MGBLAS_CHECK_ARG(op == Op::N || op == Op::T || op == Op::C, "op",
                     static_cast<int>(static_cast<char>(op)), "'N', 'T' or 'C'");
    MGBLAS_CHECK_ARG(i0 >= 0 && i0 <= L.m(), "i0", i0, "in [0, m = ", L.m(), "]");
    MGBLAS_CHECK_ARG(j0 >= 0 && j0 <= L.n(), "j0", j0, "in [0, n = ", L.n(), "]");
    const int64_t m = L.m() - i0, n = L.n() - j0;
    const int64_t len_x = notrans ? n : m, len_y = notrans ? m : n;
    const bool touches_y = len_x > 0 && len_y > 0;  // else BLAS's quick return
    const bool reads_x = touches_y && alpha != T(0);
    detail::check_same_forms(x, y);
    x.check(ctx, "x", len_x, reads_x, notrans ? &L : nullptr);
    y.check(ctx, "y", len_y, touches_y, notrans ? nullptr : &L);
    if (reads_x) x.add_digest(ctx, rec, "x", len_x);
    if (touches_y && beta != T(0)) y.add_digest(ctx, rec, "y", len_y);
  });

  const int64_t m = L.m() - i0, n = L.n() - j0;
  const int64_t len_x = notrans ? n : m, len_y = notrans ? m : n;
  // BLAS quick return: nothing to do when y is empty or the inner dimension is 0
  // (y is left untouched, as reference BLAS and cuBLAS do).
  if (len_y == 0 || len_x == 0) return;
  if (alpha == T(0)) {
    y.scale(ctx, len_y, beta, j0);
    return;
  }

  // This device's columns of the submatrix: local columns [jl0, jl0 + cols).
  const int P = ctx.num_devices();
  std::vector<int64_t> jl0(P), cols(P);
  for (int d = 0; d < P; ++d) {
    const int g = ctx.device_offset() + d;
    jl0[d] = local_begin(L, g, j0);
    cols[d] = L.local_n(g) - jl0[d];
  }

  if (notrans) {
    const int64_t rows = chunk_rows(m, chunks);
    const int nchunks = static_cast<int>((m + rows - 1) / rows);
    std::vector<const T*> x_local(P, nullptr);
    std::vector<T*> part(P, nullptr);
    red.reduce_chunks<T>(m, beta, y.target(), nchunks, [&](int c) {
      if (c == 0) {
        // The device's columns meet only the matching entries of x: gather them once so
        // that one gemv per chunk covers all its block columns.
        for (int d = 0; d < P; ++d) {
          if (cols[d] == 0) continue;  // owns no column of the submatrix
          const Device& dev = ctx.device(d);
          if (x.block_cyclic()) {
            x_local[d] = x.local(d) + jl0[d];
          } else {
            T* buf = red.workspace<T>(d, detail::kSlotLocal, cols[d]);
            gather_columns(Queue(dev), local_columns(L, ctx.device_offset() + d, j0, L.n()),
                           x.on_device(red, d, n), j0, buf);
            x_local[d] = buf;
          }
          part[d] = red.workspace<T>(d, detail::kSlotPartial, m);
        }
      }
      const int64_t r0 = c * rows, r1 = std::min(m, r0 + rows);
      for (int d = 0; d < P; ++d) {
        if (!part[d]) continue;
        gemv_offset(Queue(ctx.device(d)), Op::N, r1 - r0, cols[d], alpha, A.local(d), A.ld(),
                    i0 + r0, jl0[d], x_local[d], 1, T(0), part[d] + r0, 1);
      }
      return Partials<T>{std::vector<const T*>(part.begin(), part.end()), r0, r1};
    });
    return;
  }

  // op(A_local) * x gives the entries of y at the device's columns, in local order.
  const auto local_product = [&](int d, T b, T* out) {
    gemv_offset(Queue(ctx.device(d)), op, m, cols[d], alpha, A.local(d), A.ld(), i0, jl0[d],
                x.on_device(red, d, m), 1, b, out, 1);
  };
  if (y.block_cyclic()) {
    // y follows A's columns: every entry is computed where it lives.
    all_or_nothing(ctx.comm(), "gemv_mgpu", [&] {
      for (int d = 0; d < P; ++d)
        if (cols[d] > 0) local_product(d, beta, y.local(d) + jl0[d]);
      ctx.synchronize();
    });
    return;
  }
  const int64_t stride = max_local_count(L, j0);
  red.reduce_columns<T>(L, j0, beta, y.target(), [&] {
    std::vector<const T*> pieces(P, nullptr);
    for (int d = 0; d < P; ++d) {
      if (cols[d] == 0) continue;
      T* out = red.workspace<T>(d, detail::kSlotLocal, stride);
      local_product(d, T(0), out);
      pieces[d] = out;
    }
    return pieces;
  });
}

}  // namespace

// The public entry (dist/dist_blas.hpp's other forms forward to it).
template <Scalar T>
void gemv_mgpu_offset(ReducerOrContext on, Op op, same_as_a_t<T> alpha, const DistMatrix<T>& A,
                      int64_t i0, int64_t j0, vector_in_t<T> x, same_as_a_t<T> beta,
                      vector_inout_t<T> y) {
  std::unique_ptr<Reducer> owned;
  detail::OutputVector<T> out(y);
  gemv_run<T>(on.reducer(owned), op, alpha, A, i0, j0, detail::InputVector<T>(x), beta, out);
}

#define MGBLAS_INSTANTIATE(T)                                                                  \
  template void gemv_mgpu_offset<T>(ReducerOrContext, Op, T, const DistMatrix<T>&, int64_t,    \
                                    int64_t, VectorIn<T>, T, VectorInOut<T>);
MGBLAS_FOR_EACH_SCALAR(MGBLAS_INSTANTIATE)
#undef MGBLAS_INSTANTIATE

}  // namespace mgblas
