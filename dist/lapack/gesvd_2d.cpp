// SPDX-License-Identifier: BSD-3-Clause
// gesvd_2d: import_2d, gesvd_mgpu, export_2d (see the header). Every argument is checked
// here, inside one agreement, before any of the collectives starts, so that a bad
// descriptor or pointer is reported under this entry's name rather than a step's.
#include "dist/lapack/gesvd_2d.hpp"

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <optional>

#include "core/agreement.hpp"
#include "core/error.hpp"
#include "dist/lapack/detail/entry_2d.hpp"
#include "dist/lapack/detail/phase_clock.hpp"
#include "layouts/block_cyclic.hpp"
#include "layouts/dist_matrix.hpp"

namespace mgblas {
namespace {

constexpr const char* kWhat = "gesvd_2d";

template <typename E, typename... Args>
[[noreturn]] void fail(const Args&... args) {
  throw E(__FILE__, __LINE__, kWhat, detail::concat(args...));
}

using detail::seconds_since;

// One factor's layout and local array: `rows` rows and at least `want` columns.
void check_factor(const char* desc_name, const char* array, const char* ld_name,
                  const BlockCyclic2D& D, const void* p, int64_t ld, int64_t rows,
                  int64_t want, int me, int nranks) {
  if (D.m() != rows || D.n() < want)
    fail<DimensionMismatch>("argument '", desc_name, "' is ", D.m(), " x ", D.n(), ": must be ",
                            rows, " x K with K >= nvec = ", want);
  detail::check_local(kWhat, desc_name, array, ld_name, D, p, ld, me, nranks);
}

}  // namespace

template <Scalar T>
void gesvd_2d(const std::shared_ptr<Context>& ctx, const BlockCyclic2D& desca, const T* a,
              int64_t lda, real_type_t<T>* s, const BlockCyclic2D* descu, T* u, int64_t ldu,
              const BlockCyclic2D* descv, T* v, int64_t ldv, int64_t nvec,
              const Gesvd2DOptions& opts) {
  const auto t0 = std::chrono::steady_clock::now();
  if (!ctx) fail<BadArgument>("argument 'ctx' is null");  // no communicator to tell the others
  Context& c = *ctx;
  const int me = c.rank(), nranks = c.nranks(), P = c.global_num_devices();
  const int64_t m = desca.m(), n = desca.n(), k = std::min(m, n);

  CallRecord rec(kWhat);
  rec.add_precision<T>()
      .add("nvec", nvec)
      .add("opts.nb", opts.nb)
      .add("left vectors", descu != nullptr ? 1 : 0)
      .add("right vectors", descv != nullptr ? 1 : 0);
  detail::add_desc(rec, detail::kDescA, desca);
  if (descu != nullptr) detail::add_desc(rec, detail::kDescU, *descu);
  if (descv != nullptr) detail::add_desc(rec, detail::kDescV, *descv);
  int64_t want = 0;
  agree(c.comm(), rec, [&] {
    detail::check_local(kWhat, "desca", "a", "lda", desca, a, lda, me, nranks);
    if (k > 0 && s == nullptr)
      fail<BadArgument>("argument 's' is a null pointer but must have room for k = ", k,
                        " values");
    if (nvec < -1 || nvec > k)
      fail<BadArgument>("argument 'nvec' = ", nvec, ": must be in [-1, k] (k = min(m, n) = ",
                        k, "; -1: all k)");
    if (opts.nb < 0) fail<BadArgument>("argument 'opts.nb' = ", opts.nb, ": must be >= 0");
    want = nvec < 0 ? k : nvec;
    if (descu != nullptr) check_factor("descu", "u", "ldu", *descu, u, ldu, m, want, me, nranks);
    if (descv != nullptr) check_factor("descv", "v", "ldv", *descv, v, ldv, n, want, me, nranks);
  });
  Gesvd2DProfile prof;
  if (k == 0) {
    if (opts.profile) *opts.profile = prof;
    return;
  }

  // 1. A on the devices, in a copy (the reduction destroys it, not the caller's arrays).
  auto t = std::chrono::steady_clock::now();
  DistMatrix<T> A(ctx, BlockCyclic1D(m, n, detail::devices_nb(opts.nb, n, P), P));
  A.import_2d(desca, desca.prow_of(me) >= 0 ? a : nullptr, lda);
  prof.redistribute_in = seconds_since(t);

  // 2. U and V on the devices with exactly the columns gesvd_mgpu writes.
  t = std::chrono::steady_clock::now();
  const bool vectors = want > 0 && (descu != nullptr || descv != nullptr);
  const int64_t cu = descu != nullptr ? gesvd_written_columns(m, descu->n(), want, k) : 0;
  const int64_t cv = descv != nullptr ? gesvd_written_columns(n, descv->n(), want, k) : 0;
  std::optional<DistMatrix<T>> U, V;
  if (vectors && descu != nullptr)
    U.emplace(ctx, BlockCyclic1D(m, cu, detail::devices_nb(opts.nb, cu, P), P));
  if (vectors && descv != nullptr)
    V.emplace(ctx, BlockCyclic1D(n, cv, detail::devices_nb(opts.nb, cv, P), P));
  gesvd_mgpu<T>(A, s, U ? &*U : nullptr, V ? &*V : nullptr, want, opts.gesvd);
  prof.solve = seconds_since(t);

  // 3. The vectors into the first columns of U's and V's local arrays.
  t = std::chrono::steady_clock::now();
  if (U) U->export_2d(detail::first_columns(*descu, cu), descu->prow_of(me) >= 0 ? u : nullptr, ldu);
  if (V) V->export_2d(detail::first_columns(*descv, cv), descv->prow_of(me) >= 0 ? v : nullptr, ldv);
  prof.redistribute_out = seconds_since(t);
  prof.total = seconds_since(t0);
  if (opts.profile) *opts.profile = prof;
}

#define MGBLAS_INSTANTIATE(T)                                                               \
  template void gesvd_2d<T>(const std::shared_ptr<Context>&, const BlockCyclic2D&, const T*, \
                            int64_t, real_type_t<T>*, const BlockCyclic2D*, T*, int64_t,     \
                            const BlockCyclic2D*, T*, int64_t, int64_t, const Gesvd2DOptions&);
MGBLAS_FOR_EACH_SCALAR(MGBLAS_INSTANTIATE)
#undef MGBLAS_INSTANTIATE

}  // namespace mgblas
