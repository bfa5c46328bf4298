// SPDX-License-Identifier: BSD-3-Clause
// The per-device steps of a panel of the blocked tridiagonal reduction (LAPACK's
// DLATRD/ZLATRD, lower triangle), on a device's own copy of the panel. The distributed
// driver (dist/lapack/hetrd_mgpu.cpp) runs them on every device alike, so that the
// reflectors and the panel's W need no communication; only the product with the trailing
// matrix is split over the devices and summed.
//
// The panel starts at global column k: m = n - k rows, columns j = 0, 1, ... in `Pn`
// (column-major, leading dimension ldp), Pn(r, j) = A(k + r, k + j). The reflector of
// column l is v_l = Pn(l+1 : m, l) with Pn(l+1, l) = 1; W (leading dimension ldw) holds
// w_l in W(l+1 : m, l). d, e and tau point at the panel's first column (d[j] belongs to
// global column k + j). `herm`: Hermitian (HETRD; for real T the same as symmetric).
// `work` is scratch memory of the device of at least kLatrdWorkBytes bytes.
#pragma once

#include <cstddef>

#include "kernels/detail/dispatch.hpp"
#include "kernels/kernel_declaration.hpp"

namespace mgblas::kernels {
/// Scratch bytes the latrd steps need per device.
inline constexpr std::size_t kLatrdWorkBytes = std::size_t{16} << 20;
/// Widest panel the latrd steps take.
inline constexpr int64_t kLatrdMaxPanel = 128;
}  // namespace mgblas::kernels

// Column j of the panel (j < kLatrdMaxPanel), in order:
//  1. a = Pn(j:m, j) -= V(j:m, 0:j) conj(W(j, 0:j))^T + W(j:m, 0:j) conj(V(j, 0:j))^T
//     (the panel's earlier reflectors applied to the column; herm: a(0) made real);
//  2. d[j] = real(a(0)); when j + 1 < m, the reflector H = I - tau v v^H with
//     H^H (a(1), a(2:))^T = (beta, 0)^T: e[j] = beta (real), tau[j], a(1) = 1, a(2:) = v(2:);
//  3. t[0:j] = W(j+1:m, 0:j)^H v and t[j:2j] = V(j+1:m, 0:j)^H v;
//  4. p[0:p_len) = 0 (the accumulator of the product with the trailing matrix).
#define MGBLAS_DECLARE_LATRD_REFLECTOR_KERNEL(T)                                              \
  void latrd_reflector(const Device& dev, cudaStream_t stream, bool herm, int64_t m,         \
                       int64_t j, T* Pn, int64_t ldp, const T* W, int64_t ldw,              \
                       real_type_t<T>* d, real_type_t<T>* e, T* tau, T* t, T* p,             \
                       int64_t p_len, void* work)

// After p = A(k+j+1:n, k+j+1:n) v (summed over every device): w = W(j+1:m, j) =
// tau[j] (p - V t[0:j] - W t[j:2j]), then w += alpha v with alpha = -tau[j]/2 (w^H v).
#define MGBLAS_DECLARE_LATRD_FINISH_KERNEL(T)                                                 \
  void latrd_finish(const Device& dev, cudaStream_t stream, int64_t m, int64_t j,            \
                    const T* Pn, int64_t ldp, T* W, int64_t ldw, const T* tau, const T* t,   \
                    const T* p, void* work)

// One column's steps between two products with the trailing matrix: when `finish` (j > 0),
// latrd_finish of column j-1 with the summed product p (m - j entries); then, when
// `reflect`, latrd_reflector of column j with its accumulator acc[0:acc_len) zeroed (acc
// may be p itself). The CUDA engine runs both in one cooperative launch where the GPU
// allows it (a column costs one launch besides the product, instead of four). quad,
// when not null, is v^H p of column j-1 (formed with the product: symv_share's quad,
// summed like p); the cooperative step then needs no sum of its own over v^H p. The
// host engine and the separate launches form w^H v themselves and ignore it.
#define MGBLAS_DECLARE_LATRD_STEP_KERNEL(T)                                                   \
  void latrd_step(const Device& dev, cudaStream_t stream, bool herm, int64_t m, int64_t j,   \
                  bool finish, bool reflect, T* Pn, int64_t ldp, T* W, int64_t ldw,          \
                  real_type_t<T>* d, real_type_t<T>* e, T* tau, T* t, const T* p,            \
                  const T* quad, T* acc, int64_t acc_len, void* work)

// The finished panel of b columns back into the owner's storage A (leading dimension
// lda, A(0, 0) = global (k, k)): A(j:m, j) = Pn(j:m, j) for j < b, except A(j+1, j) =
// e[j] (the off-diagonal) where j + 1 < m. Rows above the diagonal are left alone.
#define MGBLAS_DECLARE_LATRD_STORE_KERNEL(T)                                                  \
  void latrd_store(const Device& dev, cudaStream_t stream, int64_t m, int64_t b, const T* Pn, \
                   int64_t ldp, const real_type_t<T>* e, T* A, int64_t lda)

// dst(i, j) = src(m-1-i, n-1-j) for i < m, j < n: the upper-triangle reduction runs the
// lower one's steps on a copy of its panel with rows and columns in reverse order (the
// upper triangle of A read backwards is the lower triangle of J A J, J the reversal).
#define MGBLAS_DECLARE_LATRD_REVERSE_KERNEL(T)                                                \
  void latrd_reverse(const Device& dev, cudaStream_t stream, int64_t m, int64_t n,           \
                     const T* src, int64_t lds, T* dst, int64_t ldd)

MGBLAS_DECLARE_FOR_BACKENDS(MGBLAS_DECLARE_LATRD_REFLECTOR_KERNEL)
MGBLAS_DECLARE_FOR_BACKENDS(MGBLAS_DECLARE_LATRD_REVERSE_KERNEL)
MGBLAS_DECLARE_FOR_BACKENDS(MGBLAS_DECLARE_LATRD_FINISH_KERNEL)
MGBLAS_DECLARE_FOR_BACKENDS(MGBLAS_DECLARE_LATRD_STEP_KERNEL)
MGBLAS_DECLARE_FOR_BACKENDS(MGBLAS_DECLARE_LATRD_STORE_KERNEL)

// The steps on the engine of a queue's device (arguments as above, not validated: the
// driver has checked them).
namespace mgblas::kernels {
template <Scalar T>
void latrd_reflector(const Queue& q, bool herm, int64_t m, int64_t j, T* Pn, int64_t ldp,
                     const T* W, int64_t ldw, real_type_t<T>* d, real_type_t<T>* e, T* tau, T* t,
                     T* p, int64_t p_len, void* work) {
  MGBLAS_DISPATCH(q, latrd_reflector, herm, m, j, Pn, ldp, W, ldw, d, e, tau, t, p, p_len, work);
}
template <Scalar T>
void latrd_finish(const Queue& q, int64_t m, int64_t j, const T* Pn, int64_t ldp, T* W,
                  int64_t ldw, const T* tau, const T* t, const T* p, void* work) {
  MGBLAS_DISPATCH(q, latrd_finish, m, j, Pn, ldp, W, ldw, tau, t, p, work);
}
template <Scalar T>
void latrd_step(const Queue& q, bool herm, int64_t m, int64_t j, bool finish, bool reflect, T* Pn,
                int64_t ldp, T* W, int64_t ldw, real_type_t<T>* d, real_type_t<T>* e, T* tau,
                T* t, const T* p, const T* quad, T* acc, int64_t acc_len, void* work) {
  MGBLAS_DISPATCH(q, latrd_step, herm, m, j, finish, reflect, Pn, ldp, W, ldw, d, e, tau, t, p,
                  quad, acc, acc_len, work);
}
template <Scalar T>
void latrd_store(const Queue& q, int64_t m, int64_t b, const T* Pn, int64_t ldp,
                 const real_type_t<T>* e, T* A, int64_t lda) {
  MGBLAS_DISPATCH(q, latrd_store, m, b, Pn, ldp, e, A, lda);
}
template <Scalar T>
void latrd_reverse(const Queue& q, int64_t m, int64_t n, const T* src, int64_t lds, T* dst,
                   int64_t ldd) {
  MGBLAS_DISPATCH(q, latrd_reverse, m, n, src, lds, dst, ldd);
}
}  // namespace mgblas::kernels
