// SPDX-License-Identifier: BSD-3-Clause
// heevd_mgpu: hetrd_mgpu, the eigenpairs of T, unmtr_mgpu (see the header). With
// vectors, T's eigenpairs come from tridiag_eigenvectors on every rank's first device
// (window_vectors): divide and conquer on a GPU, LAPACK ?stedc on a host device.
#include "dist/lapack/heevd_mgpu.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <optional>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "core/agreement.hpp"
#include "core/communicator.hpp"
#include "core/error.hpp"
#include "core/memory.hpp"
#include "dist/detail/mgpu_common.hpp"
#include "dist/lapack/detail/phase_clock.hpp"
#include "dist/lapack/detail/vector_window.hpp"
#include "dist/lapack/hetrd_2stage_mgpu.hpp"
#include "dist/lapack/stebz_mgpu.hpp"
#include "kernels/lapack.hpp"
#include "layouts/block_cyclic.hpp"

namespace mgblas {
namespace {

// Error E raised as the public entry `what` (a string literal).
template <typename E, typename... Args>
[[noreturn]] void fail(const char* what, const Args&... args) {
  throw E(__FILE__, __LINE__, what, detail::concat(args...));
}

using detail::seconds_since;

// The columns of Z a range needs: all n for All and Value (m is known only after the
// eigenvalues), iu - il + 1 for Index.
int64_t columns_needed(const EigenRange& r, int64_t n) {
  return r.kind == EigenRange::Kind::Index ? r.iu - r.il + 1 : n;
}

void check_range(const char* what, const EigenRange& r, int64_t n) {
  using K = EigenRange::Kind;
  if (r.kind != K::All && r.kind != K::Index && r.kind != K::Value)
    fail<BadArgument>(what, "argument 'range' has the kind '", static_cast<char>(r.kind),
                      "': must be All ('A'), Index ('I') or Value ('V')");
  if (r.kind == K::Index && n > 0 && !(r.il >= 0 && r.il <= r.iu && r.iu < n))
    fail<BadArgument>(what, "argument 'range' has il = ", r.il, ", iu = ", r.iu,
                      ": must satisfy 0 <= il <= iu < n = ", n);
  if (r.kind == K::Value && !(r.vl < r.vu))  // also false for a NaN bound
    fail<BadArgument>(what, "argument 'range' has vl = ", r.vl, ", vu = ", r.vu,
                      ": must satisfy vl < vu (the interval (vl, vu])");
}

template <Scalar T>
void check_z(const char* what, const Context& ctx, const DistMatrix<T>& Z, int64_t n,
             const EigenRange& r) {
  if (&Z.context() != &ctx) fail<BadArgument>(what, "argument 'Z' lives on another Context");
  if (Z.layout().num_devices() != ctx.global_num_devices())
    fail<DimensionMismatch>(what, "argument 'Z': layout over P = ", Z.layout().num_devices(),
                            " devices, but the context has ", ctx.global_num_devices());
  const int64_t need = columns_needed(r, n);
  if (Z.m() != n || Z.n() < need)
    fail<DimensionMismatch>(what, "argument 'Z' is ", Z.m(), " x ", Z.n(), ": must be ", n,
                            " x K with K >= ", need,
                            r.kind == EigenRange::Kind::Index ? " (iu - il + 1)" : " (n)");
}

template <typename R>
void require_finite(const char* what, const char* name, const char* where, const R* x,
                    int64_t len) {
  for (int64_t i = 0; i < len; ++i)
    if (!std::isfinite(x[i]))
      fail<BadArgument>(what, "argument '", name, "' has a NaN or infinite entry (", where,
                        "[", i, "] = ", x[i], ")");
}

// The range's positions [first, first + m) in the ascending order of T's n eigenvalues.
// Only a value range reads `all`, the eigenvalues themselves (ascending).
template <typename R>
std::pair<int64_t, int64_t> range_positions(const std::vector<R>& all, const EigenRange& r) {
  if (r.kind == EigenRange::Kind::Index) return {r.il, r.iu - r.il + 1};
  if (r.kind == EigenRange::Kind::All) return {0, static_cast<int64_t>(all.size())};
  const auto first = std::upper_bound(all.begin(), all.end(), static_cast<R>(r.vl)) - all.begin();
  const auto last = std::upper_bound(all.begin(), all.end(), static_cast<R>(r.vu)) - all.begin();
  return {first, last - first};
}

// The positions of the range whose vectors are wanted: a value range is turned into
// indices by bisection over every device first (into `all`), since the vectors of a
// window cost less than all of them.
template <Scalar T>
std::pair<int64_t, int64_t> vector_positions(Context& ctx, int64_t n, const real_type_t<T>* d,
                                             const real_type_t<T>* e, const EigenRange& range,
                                             std::vector<real_type_t<T>>& all) {
  all.resize(static_cast<std::size_t>(n));
  if (range.kind == EigenRange::Kind::Value) tridiag_eigenvalues_mgpu<T>(ctx, n, d, e, all.data());
  return range_positions(all, range);
}

// dest (n x m) := T's eigenvectors first .. first + m - 1, all := T's n eigenvalues. Every
// rank's first device computes the window (kernels/lapack.hpp tridiag_eigenvectors: the
// divide and conquer on a GPU, LAPACK ?stedc on a host device; the same T and the same
// deterministic code give every rank the same pairs, as one call would), then each of the
// rank's devices copies its columns out of it. Rank 0's eigenvalues are broadcast so that
// every rank returns the same w.
template <Scalar T>
void window_vectors(const char* what, Context& ctx, int64_t n, const real_type_t<T>* d,
                    const real_type_t<T>* e, int64_t first, std::vector<real_type_t<T>>& all,
                    DistMatrix<T>& dest, HeevdProfile& prof) {
  using R = real_type_t<T>;
  const Communicator& comm = ctx.comm();
  const int64_t m = dest.n();
  DeviceBuffer<T> window;
  all_or_nothing(comm, what, [&] {
    const Device& lead = ctx.device(0);
    lead.make_current();
    window = DeviceBuffer<T>(lead, static_cast<std::size_t>(n) * static_cast<std::size_t>(m));
    tridiag_eigenvectors<T>(Queue(lead), n, d, e, first, first + m, all.data(), window.data(), n);
  });
  comm.bcast(all.data(), all.size() * sizeof(R), 0);
  const auto t = std::chrono::steady_clock::now();
  detail::scatter_window(what, window.data(), n, dest);
  prof.to_devices = seconds_since(t);
}

template <Scalar T>
CallRecord heevd_record(const char* what, const DistMatrix<T>& A, Uplo uplo,
                        const DistMatrix<T>* Z, const EigenRange& r) {
  CallRecord rec(what);
  detail::add_matrix_fields(rec, A);
  rec.add("uplo", static_cast<char>(uplo))
      .add("range", static_cast<char>(r.kind))
      .add("il", r.il)
      .add("iu", r.iu)
      .add_scalar("vl", r.vl)
      .add_scalar("vu", r.vu)
      .add("vectors", Z != nullptr ? 1 : 0);
  if (Z != nullptr)
    rec.add("Z.m", Z->m()).add("Z.n", Z->n()).add("Z.nb", Z->layout().nb())
        .add("Z.first", Z->layout().first());
  return rec;
}

}  // namespace

template <Scalar T>
int64_t heevd_mgpu(Uplo uplo, DistMatrix<T>& A, real_type_t<T>* w, DistMatrix<T>* Z,
                   const EigenRange& range, const HeevdOptions& opts) {
  using R = real_type_t<T>;
  static constexpr const char* what = "heevd_mgpu";
  const auto t0 = std::chrono::steady_clock::now();
  Context& ctx = A.context();
  const Communicator& comm = ctx.comm();
  const int64_t n = A.m();
  // The reduction's form, a function of arguments every rank shares; in the record, so
  // that ranks which would differ raise instead of deadlocking.
  const bool two_stage = detail::two_stage_pays<T>(opts.stages, A, Z != nullptr);
  CallRecord rec = heevd_record(what, A, uplo, Z, range);
  detail::TwoStageQ<T> q2;  // the two-stage Q, when vectors are wanted
  rec.add("two-stage", two_stage ? 1 : 0);
  agree(comm, rec, [&] {
    if (uplo != Uplo::Lower && uplo != Uplo::Upper)
      fail<BadArgument>(what, "argument 'uplo' = ", static_cast<char>(uplo),
                        ": must be Uplo::Lower or Uplo::Upper");
    if (A.n() != n)
      fail<DimensionMismatch>(what, "argument 'A' is ", n, " x ", A.n(), ": must be square");
    detail::check_matrix(ctx, A);
    check_range(what, range, n);
    if (n > 0 && w == nullptr)
      fail<BadArgument>(what, "argument 'w' is a null pointer but must have room for n = ",
                        n, " values");
    if (Z != nullptr) check_z(what, ctx, *Z, n, range);
    // Q2's reflectors (n^2 / 2 per device) are made here, so that a failed allocation
    // raises on every rank.
    if (two_stage && Z != nullptr)
      q2 = detail::make_two_stage_q<T>(uplo, A, detail::two_stage_band(A.layout().nb(),
                                                                      opts.reduction.band),
                                       "opts.reduction.band");
  });
  HeevdProfile prof;
  if (n == 0) return 0;

  // 1. A = Q T Q^H.
  std::vector<R> d(static_cast<std::size_t>(n)), e(static_cast<std::size_t>(n));
  std::vector<T> tau(static_cast<std::size_t>(n));
  auto t = std::chrono::steady_clock::now();
  if (two_stage && Z != nullptr) {
    detail::reduce_two_stage<T>(A, uplo, opts.reduction.transport, opts.reduction.profile,
                                d.data(), e.data(), q2);
  } else if (two_stage) {
    hetrd_2stage_mgpu<T>(uplo, A, d.data(), e.data(), opts.reduction);
  } else {
    hetrd_mgpu<T>(uplo, A, d.data(), e.data(), tau.data(), opts.reduction);
  }
  prof.reduction = seconds_since(t);
  // T is the same on every rank, so every rank finds the same entry and raises alike.
  require_finite(what, "A", "T's diagonal after the reduction, d", d.data(), n);
  require_finite(what, "A", "T's off-diagonal after the reduction, e", e.data(), n - 1);

  // 2. and 3.
  t = std::chrono::steady_clock::now();
  int64_t m = 0;
  if (Z == nullptr) {
    // Bisection over every device for all values, then the subset (values are cheap;
    // the subsets' savings are in the vectors).
    std::vector<R> all(static_cast<std::size_t>(n));
    tridiag_eigenvalues_mgpu<T>(ctx, n, d.data(), e.data(), all.data());
    int64_t first = 0;
    std::tie(first, m) = range_positions(all, range);
    std::copy_n(all.begin() + first, m, w);
    prof.tridiagonal = seconds_since(t);
  } else {
    // T's vectors go to Z's first m columns and unmtr_mgpu transforms exactly those,
    // through an n x m matrix when m < K, so Z's other columns stay untouched.
    std::vector<R> all;
    int64_t first = 0;
    std::tie(first, m) = vector_positions<T>(ctx, n, d.data(), e.data(), range, all);
    std::optional<DistMatrix<T>> part = detail::narrower(*Z, m);
    DistMatrix<T>& dest = part ? *part : *Z;
    window_vectors<T>(what, ctx, n, d.data(), e.data(), first, all, dest, prof);
    prof.tridiagonal = seconds_since(t);
    t = std::chrono::steady_clock::now();
    if (m > 0 && two_stage)
      detail::apply_two_stage_q<T>(uplo, A, q2, dest, opts.back_transform);
    else if (m > 0)
      unmtr_mgpu<T>(uplo, Op::N, A, tau.data(), dest, opts.back_transform);
    if (part) detail::copy_prefix(what, *part, *Z);
    prof.back_transform = seconds_since(t);
    std::copy_n(all.begin() + first, m, w);
  }
  prof.total = seconds_since(t0);
  if (opts.profile != nullptr) *opts.profile = prof;
  return m;
}

template <Scalar T>
Eigensystem<T> heevd_mgpu(Uplo uplo, DistMatrix<T>& A, bool vectors, const EigenRange& range,
                          const HeevdOptions& opts) {
  Eigensystem<T> out;
  out.w.resize(static_cast<std::size_t>(std::max<int64_t>(A.m(), 1)));
  if (!vectors) {
    out.w.resize(static_cast<std::size_t>(heevd_mgpu<T>(uplo, A, out.w.data(), nullptr, range, opts)));
    return out;
  }
  // Z must hold every column the range may need; shrink to m afterwards only when the
  // count was unknown (a value range), by a local copy of the prefix on each device.
  const int64_t n = A.m();
  const int64_t cols = range.kind == EigenRange::Kind::Index && range.iu >= range.il
                           ? range.iu - range.il + 1
                           : n;
  const BlockCyclic1D& LA = A.layout();
  DistMatrix<T> Z(A.context_ptr(), BlockCyclic1D(n, std::max<int64_t>(cols, 0), LA.nb(),
                                                 LA.num_devices(), LA.first()));
  const int64_t m = heevd_mgpu<T>(uplo, A, out.w.data(), &Z, range, opts);
  out.w.resize(static_cast<std::size_t>(m));
  if (m == Z.n()) {
    out.Z.emplace(std::move(Z));
    return out;
  }
  DistMatrix<T> Zm = *detail::narrower(Z, m);
  detail::copy_prefix("heevd_mgpu", Z, Zm);
  out.Z.emplace(std::move(Zm));
  return out;
}

template <Scalar T>
int64_t tridiag_eigenvectors_mgpu(int64_t n, const real_type_t<T>* d, const real_type_t<T>* e,
                                  real_type_t<T>* w, DistMatrix<T>& Z, const EigenRange& range) {
  using R = real_type_t<T>;
  static constexpr const char* what = "tridiag_eigenvectors_mgpu";
  Context& ctx = Z.context();
  const Communicator& comm = ctx.comm();
  CallRecord rec(what);
  rec.add_precision<T>()
      .add("n", n)
      .add("range", static_cast<char>(range.kind))
      .add("il", range.il)
      .add("iu", range.iu)
      .add_scalar("vl", range.vl)
      .add_scalar("vu", range.vu)
      .add("Z.m", Z.m())
      .add("Z.n", Z.n())
      .add("Z.nb", Z.layout().nb())
      .add("Z.first", Z.layout().first());
  agree(comm, rec, [&] {
    if (n < 0) fail<BadArgument>(what, "argument 'n' = ", n, ": must be >= 0");
    check_range(what, range, n);
    if (n > 0 && (d == nullptr || w == nullptr))
      fail<BadArgument>(what, "argument '", d == nullptr ? "d" : "w",
                        "' is a null pointer but must hold n = ", n, " values");
    if (n > 1 && e == nullptr)
      fail<BadArgument>(what, "argument 'e' is a null pointer but must hold n - 1 = ", n - 1,
                        " values");
    check_z(what, ctx, Z, n, range);
    if (n > 0) require_finite(what, "d", "d", d, n);
    if (n > 1) require_finite(what, "e", "e", e, n - 1);
    if (ctx.verify_inputs() && n > 0) {
      rec.add_digest("d", d, static_cast<std::size_t>(n) * sizeof(R));
      rec.add_digest("e", e, static_cast<std::size_t>(std::max<int64_t>(n - 1, 0)) * sizeof(R));
    }
  });
  if (n == 0) return 0;
  std::vector<R> all;
  const auto [first, m] = vector_positions<T>(ctx, n, d, e, range, all);
  std::optional<DistMatrix<T>> part = detail::narrower(Z, m);
  HeevdProfile prof;
  window_vectors<T>(what, ctx, n, d, e, first, all, part ? *part : Z, prof);
  if (part) detail::copy_prefix(what, *part, Z);
  std::copy_n(all.begin() + first, m, w);
  return m;
}

#define MGBLAS_INSTANTIATE(T)                                                              \
  template int64_t heevd_mgpu<T>(Uplo, DistMatrix<T>&, real_type_t<T>*, DistMatrix<T>*,     \
                                 const EigenRange&, const HeevdOptions&);                  \
  template Eigensystem<T> heevd_mgpu<T>(Uplo, DistMatrix<T>&, bool, const EigenRange&,      \
                                        const HeevdOptions&);                              \
  template int64_t tridiag_eigenvectors_mgpu<T>(int64_t, const real_type_t<T>*,            \
                                                const real_type_t<T>*, real_type_t<T>*,    \
                                                DistMatrix<T>&, const EigenRange&);
MGBLAS_FOR_EACH_SCALAR(MGBLAS_INSTANTIATE)
#undef MGBLAS_INSTANTIATE

}  // namespace mgblas
