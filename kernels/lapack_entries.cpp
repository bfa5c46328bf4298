// SPDX-License-Identifier: BSD-3-Clause
// Public single-device LAPACK-style entries (kernels/lapack.hpp): validate every
// argument, take the documented quick returns, then run the engine of the queue's device.
#include "kernels/lapack.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>

#include "core/error.hpp"
#include "kernels/detail/dispatch.hpp"
#include "kernels/bdsvd_kernels.hpp"
#include "kernels/gb2bd_kernels.hpp"
#include "kernels/sb2st_kernels.hpp"
#include "kernels/stebz_kernels.hpp"
#include "kernels/stedc_kernels.hpp"

namespace mgblas {

// ---- Tridiagonal eigenvalues --------------------------------------------------------

template <Scalar T>
void tridiag_eigenvalues(const Queue& q, int64_t n, const real_type_t<T>* d,
                         const real_type_t<T>* e, int64_t il, int64_t iu, real_type_t<T>* w) {
  if (q.device == nullptr)
    MGBLAS_THROW(BadArgument, "argument 'q.device' is a null pointer but must be a device");
  MGBLAS_CHECK_ARG(n >= 0, "n", n, ">= 0");
  MGBLAS_CHECK_ARG(il >= 0 && il <= n, "il", il, "in [0, n] = [0, ", n, "]");
  MGBLAS_CHECK_ARG(iu >= il && iu <= n, "iu", iu, "in [il, n] = [", il, ", ", n, "]");
  const bool any = iu > il;
  MGBLAS_CHECK_PTR(d, "d", any);
  MGBLAS_CHECK_PTR(e, "e", any && n > 1);
  MGBLAS_CHECK_PTR(w, "w", any);
  if (!any) return;
  MGBLAS_DISPATCH(q, tridiag_eigenvalues<T>, n, d, e, il, iu, w);
}

#define MGBLAS_INSTANTIATE_(T)                                                          \
  template void tridiag_eigenvalues<T>(const Queue&, int64_t, const real_type_t<T>*,    \
                                       const real_type_t<T>*, int64_t, int64_t,         \
                                       real_type_t<T>*);
MGBLAS_FOR_EACH_SCALAR(MGBLAS_INSTANTIATE_)
#undef MGBLAS_INSTANTIATE_

// ---- Tridiagonal eigenpairs ---------------------------------------------------------

template <Scalar T>
void tridiag_eigenvectors(const Queue& q, int64_t n, const real_type_t<T>* d,
                          const real_type_t<T>* e, int64_t il, int64_t iu, real_type_t<T>* w,
                          T* Z, int64_t ldz) {
  if (q.device == nullptr)
    MGBLAS_THROW(BadArgument, "argument 'q.device' is a null pointer but must be a device");
  MGBLAS_CHECK_ARG(n >= 0, "n", n, ">= 0");
  MGBLAS_CHECK_ARG(il >= 0 && il <= n, "il", il, "in [0, n] = [0, ", n, "]");
  MGBLAS_CHECK_ARG(iu >= il && iu <= n, "iu", iu, "in [il, n] = [", il, ", ", n, "]");
  MGBLAS_CHECK_ARG(ldz >= (n > 1 ? n : 1), "ldz", ldz, ">= max(1, n) = ", n > 1 ? n : 1);
  MGBLAS_CHECK_PTR(d, "d", n > 0);
  MGBLAS_CHECK_PTR(e, "e", n > 1);
  MGBLAS_CHECK_PTR(w, "w", n > 0);
  MGBLAS_CHECK_PTR(Z, "Z", iu > il);
  for (int64_t i = 0; i < n; ++i)
    if (!std::isfinite(d[i]))
      MGBLAS_THROW(BadArgument, "argument 'd' has a NaN or infinite entry (d[", i, "] = ", d[i], ")");
  for (int64_t i = 0; i + 1 < n; ++i)
    if (!std::isfinite(e[i]))
      MGBLAS_THROW(BadArgument, "argument 'e' has a NaN or infinite entry (e[", i, "] = ", e[i], ")");
  if (n == 0) return;
  MGBLAS_DISPATCH(q, tridiag_eigenvectors<T>, n, d, e, il, iu, w, Z, ldz);
}

#define MGBLAS_INSTANTIATE_(T)                                                           \
  template void tridiag_eigenvectors<T>(const Queue&, int64_t, const real_type_t<T>*,    \
                                        const real_type_t<T>*, int64_t, int64_t, real_type_t<T>*,   \
                                        T*, int64_t);
MGBLAS_FOR_EACH_SCALAR(MGBLAS_INSTANTIATE_)
#undef MGBLAS_INSTANTIATE_

// ---- Bidiagonal SVD -----------------------------------------------------------------

template <Scalar T>
void bidiag_svd(const Queue& q, Uplo uplo, int64_t n, const real_type_t<T>* d,
                const real_type_t<T>* e, int64_t il, int64_t iu, real_type_t<T>* s, T* U,
                int64_t ldu, T* V, int64_t ldv) {
  if (q.device == nullptr)
    MGBLAS_THROW(BadArgument, "argument 'q.device' is a null pointer but must be a device");
  MGBLAS_CHECK_ARG(uplo == Uplo::Upper || uplo == Uplo::Lower, "uplo", static_cast<char>(uplo),
                   "Uplo::Upper or Uplo::Lower");
  MGBLAS_CHECK_ARG(n >= 0, "n", n, ">= 0");
  MGBLAS_CHECK_ARG(il >= 0 && il <= n, "il", il, "in [0, n] = [0, ", n, "]");
  MGBLAS_CHECK_ARG(iu >= il && iu <= n, "iu", iu, "in [il, n] = [", il, ", ", n, "]");
  const int64_t ld_min = std::max<int64_t>(1, n);
  MGBLAS_CHECK_ARG(ldu >= ld_min, "ldu", ldu, ">= max(1, n) = ", ld_min);
  MGBLAS_CHECK_ARG(ldv >= ld_min, "ldv", ldv, ">= max(1, n) = ", ld_min);
  MGBLAS_CHECK_PTR(d, "d", n > 0);
  MGBLAS_CHECK_PTR(e, "e", n > 1);
  MGBLAS_CHECK_PTR(s, "s", n > 0);
  MGBLAS_CHECK_PTR(U, "U", iu > il);
  MGBLAS_CHECK_PTR(V, "V", iu > il);
  for (int64_t i = 0; i < n; ++i)
    if (!std::isfinite(d[i]))
      MGBLAS_THROW(BadArgument, "argument 'd' has a NaN or infinite entry (d[", i, "] = ", d[i], ")");
  for (int64_t i = 0; i + 1 < n; ++i)
    if (!std::isfinite(e[i]))
      MGBLAS_THROW(BadArgument, "argument 'e' has a NaN or infinite entry (e[", i, "] = ", e[i], ")");
  if (n == 0) return;
  MGBLAS_DISPATCH(q, bidiag_svd<T>, uplo, n, d, e, il, iu, s, U, ldu, V, ldv);
}

#define MGBLAS_INSTANTIATE_(T)                                                             \
  template void bidiag_svd<T>(const Queue&, Uplo, int64_t, const real_type_t<T>*,          \
                              const real_type_t<T>*, int64_t, int64_t, real_type_t<T>*, T*, \
                              int64_t, T*, int64_t);
MGBLAS_FOR_EACH_SCALAR(MGBLAS_INSTANTIATE_)
#undef MGBLAS_INSTANTIATE_

// ---- Band to tridiagonal ------------------------------------------------------------

namespace {
// The arguments both bulge chases (band_to_tridiag, band_to_bidiag) share: the device, the
// order, the band and its storage, and the real outputs.
template <typename T, typename R>
void check_band_chase(const Queue& q, int64_t n, int64_t b, const T* AB, int64_t ldab,
                      const R* d, const R* e) {
  if (q.device == nullptr)
    MGBLAS_THROW(BadArgument, "argument 'q.device' is a null pointer but must be a device");
  MGBLAS_CHECK_ARG(n >= 0, "n", n, ">= 0");
  MGBLAS_CHECK_ARG(b >= 1, "b", b, ">= 1");
  MGBLAS_CHECK_ARG(ldab >= b + 1, "ldab", ldab, ">= b + 1 = ", b + 1);
  MGBLAS_CHECK_PTR(AB, "AB", n > 0);
  MGBLAS_CHECK_PTR(d, "d", n > 0);
  MGBLAS_CHECK_PTR(e, "e", n > 1);
}
}  // namespace

template <Scalar T>
void band_to_tridiag(const Queue& q, int64_t n, int64_t b, T* AB, int64_t ldab,
                     real_type_t<T>* d, real_type_t<T>* e, T* V2, T* tau2) {
  check_band_chase(q, n, b, AB, ldab, d, e);
  MGBLAS_CHECK_PTR(tau2, "tau2", V2 != nullptr && n > 1);
  if (n == 0) return;
  MGBLAS_DISPATCH(q, band_to_tridiag<T>, n, b, AB, ldab, d, e, V2, tau2);
}

template <Scalar T>
void band_to_tridiag_apply_q(const Queue& q, Op op, int64_t n, int64_t b, const T* V2,
                             const T* tau2, int64_t m, T* C, int64_t ldc) {
  if (q.device == nullptr)
    MGBLAS_THROW(BadArgument, "argument 'q.device' is a null pointer but must be a device");
  const bool op_ok = op == Op::N || op == Op::C || (!is_complex_v<T> && op == Op::T);
  MGBLAS_CHECK_ARG(op_ok, "op", static_cast<char>(op),
                   is_complex_v<T> ? "Op::N or Op::C" : "Op::N, Op::T or Op::C");
  MGBLAS_CHECK_ARG(n >= 0, "n", n, ">= 0");
  MGBLAS_CHECK_ARG(b >= 1, "b", b, ">= 1");
  MGBLAS_CHECK_ARG(m >= 0, "m", m, ">= 0");
  MGBLAS_CHECK_ARG(ldc >= std::max<int64_t>(1, n), "ldc", ldc, ">= max(1, n) = ",
                   std::max<int64_t>(1, n));
  const bool work = n > 1 && m > 0;
  MGBLAS_CHECK_PTR(V2, "V2", work);
  MGBLAS_CHECK_PTR(tau2, "tau2", work);
  MGBLAS_CHECK_PTR(C, "C", work);
  if (!work) return;
  MGBLAS_DISPATCH(q, band_to_tridiag_apply_q<T>, op == Op::N ? Op::N : Op::C, n, b, V2, tau2,
                  m, C, ldc);
}

#define MGBLAS_INSTANTIATE_(T)                                                            \
  template void band_to_tridiag_apply_q<T>(const Queue&, Op, int64_t, int64_t, const T*,  \
                                           const T*, int64_t, T*, int64_t);              \
  template void band_to_tridiag<T>(const Queue&, int64_t, int64_t, T*, int64_t,           \
                                   real_type_t<T>*, real_type_t<T>*, T*, T*);
MGBLAS_FOR_EACH_SCALAR(MGBLAS_INSTANTIATE_)
#undef MGBLAS_INSTANTIATE_

// ---- Band to bidiagonal -------------------------------------------------------------

template <Scalar T>
void band_to_bidiag(const Queue& q, int64_t n, int64_t b, const T* AB, int64_t ldab,
                    real_type_t<T>* d, real_type_t<T>* e, T* VQ, T* tauQ, T* VP, T* tauP) {
  check_band_chase(q, n, b, AB, ldab, d, e);
  const bool vectors = VQ != nullptr && n > 1;
  MGBLAS_CHECK_PTR(tauQ, "tauQ", vectors);
  MGBLAS_CHECK_PTR(VP, "VP", vectors);
  MGBLAS_CHECK_PTR(tauP, "tauP", vectors);
  if (n == 0) return;
  MGBLAS_DISPATCH(q, band_to_bidiag<T>, n, b, AB, ldab, d, e, vectors ? VQ : nullptr, tauQ, VP,
                  tauP);
}

#define MGBLAS_INSTANTIATE_(T)                                                             \
  template void band_to_bidiag<T>(const Queue&, int64_t, int64_t, const T*, int64_t,       \
                                  real_type_t<T>*, real_type_t<T>*, T*, T*, T*, T*);
MGBLAS_FOR_EACH_SCALAR(MGBLAS_INSTANTIATE_)
#undef MGBLAS_INSTANTIATE_

}  // namespace mgblas
