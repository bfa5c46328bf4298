// SPDX-License-Identifier: BSD-3-Clause
// heevd_2d: import_2d, heevd_mgpu, export_2d (see the header). Every argument is checked
// here, inside one agreement, before any of the three collectives starts, so that a bad
// descriptor or pointer is reported under this entry's name rather than a step's.
#include "dist/lapack/heevd_2d.hpp"

#include <algorithm>
#include <chrono>
#include <cstdint>

#include "core/agreement.hpp"
#include "core/error.hpp"
#include "core/memory.hpp"
#include "dist/lapack/detail/entry_2d.hpp"
#include "dist/lapack/detail/phase_clock.hpp"
#include "layouts/block_cyclic.hpp"
#include "layouts/dist_matrix.hpp"

namespace mgblas {
namespace {

constexpr const char* kWhat = "heevd_2d";

template <typename E, typename... Args>
[[noreturn]] void fail(const Args&... args) {
  throw E(__FILE__, __LINE__, kWhat, detail::concat(args...));
}

using detail::seconds_since;

// One local array, its messages under this entry's name.
void check_local(const char* desc_name, const char* array, const char* ld_name,
                 const BlockCyclic2D& D, const void* p, int64_t ld, int me, int nranks) {
  detail::check_local(kWhat, desc_name, array, ld_name, D, p, ld, me, nranks);
}

void check_range(const EigenRange& r, int64_t n) {
  using K = EigenRange::Kind;
  if (r.kind != K::All && r.kind != K::Index && r.kind != K::Value)
    fail<BadArgument>("argument 'range' has the kind '", static_cast<char>(r.kind),
                      "': must be All ('A'), Index ('I') or Value ('V')");
  if (r.kind == K::Index && n > 0 && !(r.il >= 0 && r.il <= r.iu && r.iu < n))
    fail<BadArgument>("argument 'range' has il = ", r.il, ", iu = ", r.iu,
                      ": must satisfy 0 <= il <= iu < n = ", n);
  if (r.kind == K::Value && !(r.vl < r.vu))  // also false for a NaN bound
    fail<BadArgument>("argument 'range' has vl = ", r.vl, ", vu = ", r.vu,
                      ": must satisfy vl < vu (the interval (vl, vu])");
}

// The columns of Z the range needs, as heevd_mgpu counts them.
int64_t columns_needed(const EigenRange& r, int64_t n) {
  return r.kind == EigenRange::Kind::Index ? r.iu - r.il + 1 : n;
}

}  // namespace

template <Scalar T>
int64_t heevd_2d(const std::shared_ptr<Context>& ctx, Uplo uplo, const BlockCyclic2D& desca,
                 const T* a, int64_t lda, real_type_t<T>* w, const BlockCyclic2D* descz, T* z,
                 int64_t ldz, const EigenRange& range, const Heevd2DOptions& opts) {
  const auto t0 = std::chrono::steady_clock::now();
  if (!ctx) fail<BadArgument>("argument 'ctx' is null");  // no communicator to tell the others
  Context& c = *ctx;
  const int me = c.rank(), nranks = c.nranks(), P = c.global_num_devices();
  const int64_t n = desca.m();

  CallRecord rec(kWhat);
  rec.add_precision<T>()
      .add("uplo", static_cast<char>(uplo))
      .add("range", static_cast<char>(range.kind))
      .add("il", range.il)
      .add("iu", range.iu)
      .add_scalar("vl", range.vl)
      .add_scalar("vu", range.vu)
      .add("opts.nb", opts.nb)
      .add("vectors", descz != nullptr ? 1 : 0);
  detail::add_desc(rec, detail::kDescA, desca);
  if (descz != nullptr) detail::add_desc(rec, detail::kDescZ, *descz);
  agree(c.comm(), rec, [&] {
    if (uplo != Uplo::Lower && uplo != Uplo::Upper)
      fail<BadArgument>("argument 'uplo' = ", static_cast<char>(uplo),
                        ": must be Uplo::Lower or Uplo::Upper");
    if (desca.n() != n)
      fail<DimensionMismatch>("argument 'desca' is ", n, " x ", desca.n(), ": must be square");
    check_local("desca", "a", "lda", desca, a, lda, me, nranks);
    check_range(range, n);
    if (n > 0 && w == nullptr)
      fail<BadArgument>("argument 'w' is a null pointer but must have room for n = ", n,
                        " values");
    if (opts.nb < 0) fail<BadArgument>("argument 'opts.nb' = ", opts.nb, ": must be >= 0");
    if (descz != nullptr) {
      const int64_t need = columns_needed(range, n);
      if (descz->m() != n || descz->n() < need)
        fail<DimensionMismatch>("argument 'descz' is ", descz->m(), " x ", descz->n(),
                                ": must be ", n, " x K with K >= ", need,
                                range.kind == EigenRange::Kind::Index ? " (iu - il + 1)"
                                                                      : " (n)");
      check_local("descz", "z", "ldz", *descz, z, ldz, me, nranks);
    }
  });
  Heevd2DProfile prof;
  if (n == 0) return 0;

  // 1. A on the devices, in a copy (the reduction destroys it, not the caller's arrays).
  const int64_t nb = detail::devices_nb(opts.nb, n, P);
  auto t = std::chrono::steady_clock::now();
  DistMatrix<T> A(ctx, BlockCyclic1D(n, n, nb, P));
  A.import_2d(desca, desca.prow_of(me) >= 0 ? a : nullptr, lda);
  prof.redistribute_in = seconds_since(t);

  // 2. and 3. Z's columns in the same 1-D layout; only its first m go back.
  t = std::chrono::steady_clock::now();
  int64_t m = 0;
  if (descz == nullptr) {
    m = heevd_mgpu<T>(uplo, A, w, nullptr, range, opts.heevd);
    prof.solve = seconds_since(t);
  } else {
    const int64_t K = columns_needed(range, n);
    DistMatrix<T> Z(ctx, BlockCyclic1D(n, K, nb, P));
    m = heevd_mgpu<T>(uplo, A, w, &Z, range, opts.heevd);
    prof.solve = seconds_since(t);
    t = std::chrono::steady_clock::now();
    // Z's first m columns, exported into those of its local arrays alone.
    const BlockCyclic2D zm = detail::first_columns(*descz, m);
    T* zlocal = descz->prow_of(me) >= 0 ? z : nullptr;
    if (m == K) {
      Z.export_2d(zm, zlocal, ldz);
    } else if (m > 0) {
      // A value range: heevd_mgpu filled Z's first m of n columns; an n x m matrix of the
      // same nb and first device holds them at the same local places.
      DistMatrix<T> part(ctx, BlockCyclic1D(n, m, nb, P));
      all_or_nothing(c.comm(), kWhat, [&] {
        for (int l = 0; l < c.num_devices(); ++l) {
          const Device& dev = c.device(l);
          dev.make_current();
          copy_matrix(dev, n, part.local_n(l), Z.local(l), Z.ld(), part.local(l), part.ld());
        }
      });
      part.export_2d(zm, zlocal, ldz);
    }
    prof.redistribute_out = seconds_since(t);
  }
  prof.total = seconds_since(t0);
  if (opts.profile) *opts.profile = prof;
  return m;
}

#define MGBLAS_INSTANTIATE(T)                                                                \
  template int64_t heevd_2d<T>(const std::shared_ptr<Context>&, Uplo, const BlockCyclic2D&, \
                               const T*, int64_t, real_type_t<T>*, const BlockCyclic2D*, T*, \
                               int64_t, const EigenRange&, const Heevd2DOptions&);
MGBLAS_FOR_EACH_SCALAR(MGBLAS_INSTANTIATE)
#undef MGBLAS_INSTANTIATE

}  // namespace mgblas
