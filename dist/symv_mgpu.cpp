// SPDX-License-Identifier: BSD-3-Clause
// symv_mgpu / hemv_mgpu: y = alpha * A * x + beta * y, A symmetric or Hermitian and
// distributed by block columns, only the `uplo` triangle stored.
#include <algorithm>
#include <vector>

#include "dist/detail/mgpu_common.hpp"
#include "dist/dist_blas.hpp"
#include "kernels/blas.hpp"

namespace mgblas {

namespace {

template <Scalar T, bool kHermitian>
void symv_run(Reducer& red, Uplo uplo, T alpha, const DistMatrix<T>& A,
              const detail::InputVector<T>& x, T beta, detail::OutputVector<T>& y) {
  const char* what = kHermitian ? "hemv_mgpu" : "symv_mgpu";
  Context& ctx = red.context();
  const BlockCyclic1D& L = A.layout();
  const int64_t n = L.n();

  const int64_t signature = detail::call_signature(
      {kHermitian ? 'H' : 'S', static_cast<char>(uplo), L.m(), n, L.nb(), L.first(),
       L.num_devices(), static_cast<int64_t>(sizeof(T)), alpha == T(0), beta == T(0)});
  detail::agree_on_arguments(ctx.comm(), what, signature, [&] {
    detail::check_matrix(ctx, A);
    if (L.m() != n)
      MGBLAS_THROW(DimensionMismatch, "argument 'A' is ", L.m(), " x ", n, ": ", what,
                   " needs a square matrix");
    MGBLAS_CHECK_ARG(uplo == Uplo::Lower || uplo == Uplo::Upper, "uplo",
                     static_cast<int>(static_cast<char>(uplo)), "'L' or 'U'");
    x.check(ctx, "x", n, alpha != T(0) && n > 0);
    y.check(ctx, "y", n, n > 0);
  });

  if (n == 0) return;
  if (alpha == T(0)) {
    y.scale(n, beta);
    return;
  }

  // The mirrored triangle is the stored one transposed (symv) or conjugate-transposed
  // (hemv); for real T both are T.
  const Op op_mirror = kHermitian ? Op::C : Op::T;
  const bool lower = uplo == Uplo::Lower;

  red.reduce(n, beta, y.host(), [&] {
    y.load(beta != T(0));
    std::vector<const T*> partials(ctx.num_devices(), nullptr);
    for (int d = 0; d < ctx.num_devices(); ++d) {
      const int g = ctx.device_offset() + d;
      const int64_t blocks = L.local_blocks(g);
      if (blocks == 0) continue;  // more devices than block columns
      const Device& dev = ctx.device(d);
      dev.make_current();
      const Queue q(dev);
      const T* A_local = A.local(d);
      const int64_t ld = A.ld();
      const T* xd = x.on_device(red, d, n);
      T* part = red.workspace<T>(d, detail::kSlotPartial, n);
      memset_bytes(dev, part, 0, static_cast<std::size_t>(n) * sizeof(T), /*async=*/true);

      for (int64_t k = 0; k < blocks; ++k) {
        const int64_t jl = k * L.nb();         // first local column of the block
        const int64_t c0 = L.global_col(g, jl);
        const int64_t w = std::min(L.nb(), n - c0);
        // Diagonal block: rows and columns [c0, c0 + w), at local (c0, jl).
        const T* diag = A_local + c0 + jl * ld;
        if constexpr (kHermitian)
          hemv(q, uplo, w, alpha, diag, ld, xd + c0, 1, T(1), part + c0, 1);
        else
          symv(q, uplo, w, alpha, diag, ld, xd + c0, 1, T(1), part + c0, 1);

        // Off-diagonal panel of the stored triangle in this block column: rows
        // [r0, r0 + h) below the block (lower) or above it (upper). It stands for
        // itself (rows r0.., reading x at the block) and for its mirror (rows of the
        // block, reading x at r0..). The offset entries keep reads aligned to the
        // local storage.
        const int64_t r0 = lower ? c0 + w : 0;
        const int64_t h = lower ? n - r0 : c0;
        if (h == 0) continue;
        gemv_offset(q, Op::N, h, w, alpha, A_local, ld, r0, jl, xd + c0, 1, T(1), part + r0, 1);
        gemv_offset(q, op_mirror, h, w, alpha, A_local, ld, r0, jl, xd + r0, 1, T(1), part + c0,
                    1);
      }
      partials[d] = part;
    }
    return partials;
  });
  y.store();
}

}  // namespace

// The twelve public forms forward to symv_run; KIND is symv or hemv, HERM its flag.
#define MGBLAS_DEFINE_SYMV_FORMS_(KIND, HERM)                                                  \
  template <Scalar T>                                                                          \
  void KIND##_mgpu(Reducer& reducer, Uplo uplo, same_as_a_t<T> alpha, const DistMatrix<T>& A, \
                   const same_as_a_t<T>* x, same_as_a_t<T> beta, same_as_a_t<T>* y) {          \
    detail::OutputVector<T> out(y);                                                            \
    symv_run<T, HERM>(reducer, uplo, alpha, A, detail::InputVector<T>(x), beta, out);          \
  }                                                                                            \
  template <Scalar T>                                                                          \
  void KIND##_mgpu(const std::shared_ptr<Context>& ctx, Uplo uplo, same_as_a_t<T> alpha,       \
                   const DistMatrix<T>& A, const same_as_a_t<T>* x, same_as_a_t<T> beta,       \
                   same_as_a_t<T>* y) {                                                        \
    KIND##_mgpu<T>(*make_reducer(ctx), uplo, alpha, A, x, beta, y);                            \
  }                                                                                            \
  template <Scalar T>                                                                          \
  void KIND##_mgpu(Uplo uplo, same_as_a_t<T> alpha, const DistMatrix<T>& A,                    \
                   const same_as_a_t<T>* x, same_as_a_t<T> beta, same_as_a_t<T>* y) {          \
    KIND##_mgpu<T>(*make_reducer(A.context_ptr()), uplo, alpha, A, x, beta, y);                \
  }                                                                                            \
  template <Scalar T>                                                                          \
  void KIND##_mgpu(Reducer& reducer, Uplo uplo, same_as_a_t<T> alpha, const DistMatrix<T>& A, \
                   const DistVector<T>& x, same_as_a_t<T> beta, DistVector<T>& y) {            \
    detail::OutputVector<T> out(y);                                                            \
    symv_run<T, HERM>(reducer, uplo, alpha, A, detail::InputVector<T>(x), beta, out);          \
  }                                                                                            \
  template <Scalar T>                                                                          \
  void KIND##_mgpu(const std::shared_ptr<Context>& ctx, Uplo uplo, same_as_a_t<T> alpha,       \
                   const DistMatrix<T>& A, const DistVector<T>& x, same_as_a_t<T> beta,        \
                   DistVector<T>& y) {                                                         \
    KIND##_mgpu<T>(*make_reducer(ctx), uplo, alpha, A, x, beta, y);                            \
  }                                                                                            \
  template <Scalar T>                                                                          \
  void KIND##_mgpu(Uplo uplo, same_as_a_t<T> alpha, const DistMatrix<T>& A,                    \
                   const DistVector<T>& x, same_as_a_t<T> beta, DistVector<T>& y) {            \
    KIND##_mgpu<T>(*make_reducer(A.context_ptr()), uplo, alpha, A, x, beta, y);                \
  }
MGBLAS_DEFINE_SYMV_FORMS_(symv, false)
MGBLAS_DEFINE_SYMV_FORMS_(hemv, true)
#undef MGBLAS_DEFINE_SYMV_FORMS_

#define MGBLAS_INSTANTIATE_KIND_(KIND, T)                                                      \
  template void KIND##_mgpu<T>(Reducer&, Uplo, T, const DistMatrix<T>&, const T*, T, T*);      \
  template void KIND##_mgpu<T>(const std::shared_ptr<Context>&, Uplo, T,                       \
                               const DistMatrix<T>&, const T*, T, T*);                         \
  template void KIND##_mgpu<T>(Uplo, T, const DistMatrix<T>&, const T*, T, T*);                \
  template void KIND##_mgpu<T>(Reducer&, Uplo, T, const DistMatrix<T>&, const DistVector<T>&,  \
                               T, DistVector<T>&);                                             \
  template void KIND##_mgpu<T>(const std::shared_ptr<Context>&, Uplo, T,                       \
                               const DistMatrix<T>&, const DistVector<T>&, T, DistVector<T>&); \
  template void KIND##_mgpu<T>(Uplo, T, const DistMatrix<T>&, const DistVector<T>&, T,         \
                               DistVector<T>&);
#define MGBLAS_INSTANTIATE(T) \
  MGBLAS_INSTANTIATE_KIND_(symv, T) MGBLAS_INSTANTIATE_KIND_(hemv, T)
MGBLAS_FOR_EACH_SCALAR(MGBLAS_INSTANTIATE)
#undef MGBLAS_INSTANTIATE
#undef MGBLAS_INSTANTIATE_KIND_

}  // namespace mgblas
