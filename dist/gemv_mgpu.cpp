// SPDX-License-Identifier: BSD-3-Clause
// gemv_mgpu: y = alpha * op(A) * x + beta * y over a block-column distributed A.
#include <vector>

#include "dist/detail/mgpu_common.hpp"
#include "dist/dist_blas.hpp"
#include "kernels/blas.hpp"

namespace mgblas {

namespace {

template <Scalar T>
void gemv_run(Reducer& red, Op op, T alpha, const DistMatrix<T>& A,
              const detail::InputVector<T>& x, T beta, detail::OutputVector<T>& y) {
  Context& ctx = red.context();
  const BlockCyclic1D& L = A.layout();
  const int64_t m = L.m(), n = L.n();
  const bool notrans = op == Op::N;
  const int64_t len_y = notrans ? m : n;
  const int64_t len_x = notrans ? n : m;

  const int64_t signature = detail::call_signature(
      {'G', static_cast<char>(op), m, n, L.nb(), L.first(), L.num_devices(),
       static_cast<int64_t>(sizeof(T)), alpha == T(0), beta == T(0)});
  detail::agree_on_arguments(ctx.comm(), "gemv_mgpu", signature, [&] {
    detail::check_matrix(ctx, A);
    MGBLAS_CHECK_ARG(op == Op::N || op == Op::T || op == Op::C, "op",
                     static_cast<int>(static_cast<char>(op)), "'N', 'T' or 'C'");
    x.check(ctx, "x", len_x, alpha != T(0) && len_x > 0 && len_y > 0);
    y.check(ctx, "y", len_y, len_y > 0);
  });

  if (len_y == 0) return;
  if (alpha == T(0) || len_x == 0) {
    y.scale(len_y, beta);
    return;
  }

  red.reduce(len_y, beta, y.host(), [&] {
    y.load(beta != T(0));
    std::vector<const T*> partials(ctx.num_devices(), nullptr);
    for (int d = 0; d < ctx.num_devices(); ++d) {
      const int g = ctx.device_offset() + d;
      const int64_t n_local = L.local_n(g);
      if (n_local == 0) continue;  // owns no block column: contributes nothing
      const Device& dev = ctx.device(d);
      dev.make_current();
      const Queue q(dev);
      T* part = red.workspace<T>(d, detail::kSlotPartial, len_y);
      if (notrans) {
        // The device's columns meet only the matching entries of x: gather them once
        // so that one gemv covers all its block columns.
        T* x_local = red.workspace<T>(d, detail::kSlotOperand, n_local);
        detail::gather_local_columns(dev, L, g, x.source(d), x_local);
        gemv(q, Op::N, m, n_local, alpha, A.local(d), A.ld(), x_local, 1, T(0), part, 1);
      } else {
        // op(A_local) * x gives the entries of y at the device's columns, in local
        // order; the partial holds them at their global positions, zeros elsewhere.
        const T* x_full = x.on_device(red, d, len_x);
        T* y_local = red.workspace<T>(d, detail::kSlotLocal, n_local);
        gemv(q, op, m, n_local, alpha, A.local(d), A.ld(), x_full, 1, T(0), y_local, 1);
        memset_bytes(dev, part, 0, static_cast<std::size_t>(len_y) * sizeof(T), /*async=*/true);
        detail::scatter_local_columns(dev, L, g, y_local, part);
      }
      partials[d] = part;
    }
    return partials;
  });
  y.store();
}

}  // namespace

template <Scalar T>
void gemv_mgpu(Reducer& reducer, Op op, same_as_a_t<T> alpha, const DistMatrix<T>& A,
               const same_as_a_t<T>* x, same_as_a_t<T> beta, same_as_a_t<T>* y) {
  detail::OutputVector<T> out(y);
  gemv_run(reducer, op, alpha, A, detail::InputVector<T>(x), beta, out);
}

template <Scalar T>
void gemv_mgpu(const std::shared_ptr<Context>& ctx, Op op, same_as_a_t<T> alpha,
               const DistMatrix<T>& A, const same_as_a_t<T>* x, same_as_a_t<T> beta,
               same_as_a_t<T>* y) {
  gemv_mgpu(*make_reducer(ctx), op, alpha, A, x, beta, y);
}

template <Scalar T>
void gemv_mgpu(Op op, same_as_a_t<T> alpha, const DistMatrix<T>& A, const same_as_a_t<T>* x,
               same_as_a_t<T> beta, same_as_a_t<T>* y) {
  gemv_mgpu(*make_reducer(A.context_ptr()), op, alpha, A, x, beta, y);
}

template <Scalar T>
void gemv_mgpu(Reducer& reducer, Op op, same_as_a_t<T> alpha, const DistMatrix<T>& A,
               const DistVector<T>& x, same_as_a_t<T> beta, DistVector<T>& y) {
  detail::OutputVector<T> out(y);
  gemv_run(reducer, op, alpha, A, detail::InputVector<T>(x), beta, out);
}

template <Scalar T>
void gemv_mgpu(const std::shared_ptr<Context>& ctx, Op op, same_as_a_t<T> alpha,
               const DistMatrix<T>& A, const DistVector<T>& x, same_as_a_t<T> beta,
               DistVector<T>& y) {
  gemv_mgpu(*make_reducer(ctx), op, alpha, A, x, beta, y);
}

template <Scalar T>
void gemv_mgpu(Op op, same_as_a_t<T> alpha, const DistMatrix<T>& A, const DistVector<T>& x,
               same_as_a_t<T> beta, DistVector<T>& y) {
  gemv_mgpu(*make_reducer(A.context_ptr()), op, alpha, A, x, beta, y);
}

#define MGBLAS_INSTANTIATE(T)                                                                  \
  template void gemv_mgpu<T>(Reducer&, Op, T, const DistMatrix<T>&, const T*, T, T*);          \
  template void gemv_mgpu<T>(const std::shared_ptr<Context>&, Op, T, const DistMatrix<T>&,     \
                             const T*, T, T*);                                                 \
  template void gemv_mgpu<T>(Op, T, const DistMatrix<T>&, const T*, T, T*);                    \
  template void gemv_mgpu<T>(Reducer&, Op, T, const DistMatrix<T>&, const DistVector<T>&, T,   \
                             DistVector<T>&);                                                  \
  template void gemv_mgpu<T>(const std::shared_ptr<Context>&, Op, T, const DistMatrix<T>&,     \
                             const DistVector<T>&, T, DistVector<T>&);                         \
  template void gemv_mgpu<T>(Op, T, const DistMatrix<T>&, const DistVector<T>&, T,             \
                             DistVector<T>&);
MGBLAS_FOR_EACH_SCALAR(MGBLAS_INSTANTIATE)
#undef MGBLAS_INSTANTIATE

}  // namespace mgblas
