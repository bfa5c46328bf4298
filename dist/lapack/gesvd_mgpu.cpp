// SPDX-License-Identifier: BSD-3-Clause
// gesvd_mgpu: (geqrf_mgpu,) gebrd_mgpu, B's singular values (and vectors), unmbr_mgpu (see
// the header).
#include "dist/lapack/gesvd_mgpu.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <optional>
#include <utility>
#include <vector>

#include "core/agreement.hpp"
#include "core/communicator.hpp"
#include "core/error.hpp"
#include "core/memory.hpp"
#include "dist/detail/mgpu_common.hpp"
#include "dist/lapack/gebrd_2stage_mgpu.hpp"
#include "dist/lapack/detail/phase_clock.hpp"
#include "dist/lapack/detail/vector_window.hpp"
#include "dist/lapack/stebz_mgpu.hpp"
#include "dist/lapack/unmbr_mgpu.hpp"
#include "kernels/lapack.hpp"
#include "layouts/block_cyclic.hpp"

namespace mgblas {
namespace {

using detail::seconds_since;

// Error E raised as the public entry `what` (a string literal).
template <typename E, typename... Args>
[[noreturn]] void fail(const char* what, const Args&... args) {
  throw E(__FILE__, __LINE__, what, detail::concat(args...));
}

// U (name "U", rows m) or V (name "V", rows n) against A's context and the vectors wanted.
template <Scalar T>
void check_vectors(const char* what, const char* name, const Context& ctx,
                   const DistMatrix<T>& X, int64_t rows, int64_t want) {
  if (&X.context() != &ctx) fail<BadArgument>(what, "argument '", name, "' lives on another Context");
  if (X.layout().num_devices() != ctx.global_num_devices())
    fail<DimensionMismatch>(what, "argument '", name, "': layout over P = ",
                            X.layout().num_devices(), " devices, but the context has ",
                            ctx.global_num_devices());
  if (X.m() != rows || X.n() < want)
    fail<DimensionMismatch>(what, "argument '", name, "' is ", X.m(), " x ", X.n(), ": must be ",
                            rows, " x K with K >= ", want, " (the vectors wanted)");
}

template <typename R>
void require_finite(const char* what, const char* where, const R* x, int64_t len) {
  for (int64_t i = 0; i < len; ++i)
    if (!std::isfinite(x[i]))
      fail<BadArgument>(what, "argument 'A' has a NaN or infinite entry (found in ", where, "[",
                        i, "] = ", x[i], " after the reduction)");
}

// The Golub-Kahan matrix of B (k x k, upper or lower): zero diagonal, off-diagonal d0,
// e0, d1, ..., d_{k-1} (B and B^T have the same one); its eigenvalues are +-s_i.
template <typename R>
std::vector<R> golub_kahan_offdiagonal(int64_t k, const std::vector<R>& d, const std::vector<R>& e) {
  std::vector<R> off(static_cast<std::size_t>(std::max<int64_t>(2 * k - 1, 0)));
  for (int64_t i = 0; i < k; ++i) {
    off[2 * i] = d[i];
    if (i + 1 < k) off[2 * i + 1] = e[i];
  }
  return off;
}

// The window of one side's vectors on the rank's first device: `rows` x `cols`, leading
// dimension rows, zero but for B's vectors (written by bidiag_svd into its first k rows
// and nvec columns) and, for a full factor, the unit vectors e_k .. e_{rows-1} in columns
// k .. rows - 1, which Q or P turn into the complement.
template <Scalar T>
DeviceBuffer<T> make_window(const Device& lead, int64_t rows, int64_t cols, int64_t k, bool full) {
  DeviceBuffer<T> w(lead, static_cast<std::size_t>(rows) * static_cast<std::size_t>(cols));
  memset_bytes(lead, w.data(), 0, w.size() * sizeof(T));
  if (full && rows > k) {
    const std::vector<T> ones(static_cast<std::size_t>(rows - k), T(1));
    // The diagonal entries (j, j), j >= k, lie rows + 1 elements apart.
    copy_2d(lead, w.data() + k + k * rows, static_cast<std::size_t>(rows + 1) * sizeof(T),
            ones.data(), sizeof(T), sizeof(T), static_cast<std::size_t>(rows - k));
  }
  return w;
}

template <Scalar T>
CallRecord gesvd_record(const char* what, const DistMatrix<T>& A, const DistMatrix<T>* U,
                        const DistMatrix<T>* V, int64_t nvec) {
  CallRecord rec(what);
  detail::add_matrix_fields(rec, A);
  rec.add("nvec", nvec).add("U", U != nullptr ? 1 : 0).add("V", V != nullptr ? 1 : 0);
  if (U != nullptr)
    rec.add("U.m", U->m()).add("U.n", U->n()).add("U.nb", U->layout().nb())
        .add("U.first", U->layout().first());
  if (V != nullptr)
    rec.add("V.m", V->m()).add("V.n", V->n()).add("V.nb", V->layout().nb())
        .add("V.first", V->layout().first());
  return rec;
}

}  // namespace

template <Scalar T>
void gesvd_mgpu(DistMatrix<T>& A, real_type_t<T>* s, DistMatrix<T>* U, DistMatrix<T>* V,
                int64_t nvec, const GesvdOptions& opts) {
  using R = real_type_t<T>;
  static constexpr const char* what = "gesvd_mgpu";
  const auto t0 = std::chrono::steady_clock::now();
  Context& ctx = A.context();
  const Communicator& comm = ctx.comm();
  const int64_t m = A.m(), n = A.n(), k = std::min(m, n);
  const int64_t want = nvec == -1 ? k : nvec;
  // A tall A is factored A = Q_R R first and R reduced (LAPACK ?gesvd's path for m >> n).
  const bool qr_first =
      n > 0 && m >= n && static_cast<double>(m) >= opts.qr_ratio * static_cast<double>(n);
  CallRecord rec = gesvd_record(what, A, U, V, nvec);
  rec.add("qr first", qr_first ? 1 : 0)
      .add("opts.stages", static_cast<char>(opts.stages))
      .add("opts.band", opts.band);
  const bool vectors = (U != nullptr || V != nullptr) && want > 0;
  // The two-stage path's Q and P (their scalars, Q2's and P2's reflectors), made inside
  // the agreement so that a bad band or a failed allocation raises on every rank.
  std::optional<detail::TwoStageBidiag<T>> two;
  agree(comm, rec, [&] {
    detail::check_matrix(ctx, A);
    if (!(opts.qr_ratio >= 0))  // also false for a NaN
      fail<BadArgument>(what, "argument 'opts.qr_ratio' = ", opts.qr_ratio,
                        ": must be >= 0 (0: always QR first; infinity: never)");
    if (nvec < -1 || nvec > k)
      fail<BadArgument>(what, "argument 'nvec' = ", nvec, ": must be in [-1, k] (k = min(m, n) = ",
                        k, "; -1: all k)");
    if (k > 0 && s == nullptr)
      fail<BadArgument>(what, "argument 's' is a null pointer but must have room for k = ", k,
                        " values");
    if (U != nullptr) check_vectors(what, "U", ctx, *U, m, want);
    if (V != nullptr) check_vectors(what, "V", ctx, *V, n, want);
    const Stages st = opts.stages;
    if (st != Stages::Auto && st != Stages::One && st != Stages::Two)
      fail<BadArgument>(what, "argument 'opts.stages' = ", static_cast<int>(static_cast<char>(st)),
                        ": must be Stages::Auto, One or Two");
    if (st == Stages::Two && m < n)
      fail<BadArgument>(what, "argument 'opts.stages' = Two needs m >= n (A is ", m, " x ", n,
                        "; wide matrices take the one-stage path)");
    if (k > 0 && m >= n && detail::bidiag_two_stage_pays(st, A, vectors)) {
      // The reduced matrix is A, or R (n x n, A's nb) when QR first.
      const BlockCyclic1D& LA = A.layout();
      two.emplace(detail::make_two_stage_bidiag<T>(
          ctx, BlockCyclic1D(qr_first ? n : m, n, LA.nb(), LA.num_devices(), LA.first()),
          detail::bidiag_two_stage_band(LA.nb(), opts.band), vectors, "opts.band"));
    }
  });
  GesvdProfile prof;
  if (k == 0) {
    if (opts.profile != nullptr) *opts.profile = prof;
    return;
  }

  // 1. A = Q B P^H, or A = Q_R R and R = Q B P^H.
  std::vector<R> d(static_cast<std::size_t>(k)), e(static_cast<std::size_t>(k));
  std::vector<T> tauq(static_cast<std::size_t>(k)), taup(static_cast<std::size_t>(k));
  std::vector<T> tau_qr;
  std::optional<DistMatrix<T>> Rm;  // R, when QR first
  auto t = std::chrono::steady_clock::now();
  if (qr_first) {
    tau_qr.resize(static_cast<std::size_t>(n));
    geqrf_mgpu<T>(A, tau_qr.data(), opts.qr);
    const BlockCyclic1D& LA = A.layout();
    Rm.emplace(A.context_ptr(), BlockCyclic1D(n, n, LA.nb(), LA.num_devices(), LA.first()));
    detail::upper_triangle(what, A, *Rm);
    prof.qr = seconds_since(t);
    t = std::chrono::steady_clock::now();
  }
  DistMatrix<T>& B = qr_first ? *Rm : A;  // the matrix reduced to bidiagonal form
  if (two)
    detail::reduce_bidiag_two_stage<T>(B, opts.reduction.transport, opts.reduction.profile,
                                       &prof.chase, d.data(), e.data(), *two);
  else
    gebrd_mgpu<T>(B, d.data(), e.data(), tauq.data(), taup.data(), opts.reduction);
  prof.reduction = seconds_since(t);
  // CQ := Q CQ and CP := P CP with the reduction's Q and P (CQ with B's m rows, CP with its
  // n; either may be null).
  const auto apply = [&](DistMatrix<T>* CQ, DistMatrix<T>* CP) {
    if (two) {
      detail::apply_two_stage_bidiag<T>(B, *two, CQ, CP, opts.back_transform);
      return;
    }
    if (CQ != nullptr) unmbr_mgpu<T>(Vect::Q, Op::N, B, tauq.data(), *CQ, opts.back_transform);
    if (CP != nullptr) unmbr_mgpu<T>(Vect::P, Op::N, B, taup.data(), *CP, opts.back_transform);
  };
  // B is the same on every rank, so every rank finds the same entry and raises alike.
  require_finite(what, "B's diagonal, d", d.data(), k);
  require_finite(what, "B's off-diagonal, e", e.data(), k - 1);

  // 2. and 3.
  t = std::chrono::steady_clock::now();
  if (!vectors) {
    // The Golub-Kahan matrix's k largest eigenvalues, over every device.
    const std::vector<R> zero(static_cast<std::size_t>(2 * k), R(0));
    const std::vector<R> off = golub_kahan_offdiagonal(k, d, e);
    std::vector<R> top(static_cast<std::size_t>(k));
    detail::tridiag_eigenvalues_mgpu<T>(ctx, what, 2 * k, zero.data(), off.data(), k, 2 * k,
                                        top.data());
    for (int64_t i = 0; i < k; ++i) s[i] = std::max(top[k - 1 - i], R(0));  // descending
    prof.bidiagonal = seconds_since(t);
  } else {
    // B's vectors into windows whose rows past k are zero (U_B sits in the first k rows of
    // U's m, V_B in those of V's n), then each device copies its columns.
    const int64_t cols_u = U != nullptr ? gesvd_written_columns(m, U->n(), want, k) : want;
    const int64_t cols_v = V != nullptr ? gesvd_written_columns(n, V->n(), want, k) : want;
    const bool full_u = cols_u > want, full_v = cols_v > want;
    const int64_t rows_u = U != nullptr ? m : k, rows_v = V != nullptr ? n : k;
    DeviceBuffer<T> wu, wv;
    all_or_nothing(comm, what, [&] {
      const Device& lead = ctx.device(0);
      lead.make_current();
      wu = make_window<T>(lead, rows_u, cols_u, k, full_u);
      wv = make_window<T>(lead, rows_v, cols_v, k, full_v);
      bidiag_svd<T>(Queue(lead), m >= n ? Uplo::Upper : Uplo::Lower, k, d.data(), e.data(), 0,
                    want, s, wu.data(), rows_u, wv.data(), rows_v);
    });
    comm.bcast(s, static_cast<std::size_t>(k) * sizeof(R), 0);
    const auto tc = std::chrono::steady_clock::now();
    std::optional<DistMatrix<T>> part_u, part_v;
    if (U != nullptr) {
      part_u = detail::narrower(*U, cols_u);
      detail::scatter_window(what, wu.data(), rows_u, part_u ? *part_u : *U);
    }
    if (V != nullptr) {
      part_v = detail::narrower(*V, cols_v);
      detail::scatter_window(what, wv.data(), rows_v, part_v ? *part_v : *V);
    }
    wu = {};
    wv = {};
    prof.to_devices = seconds_since(tc);
    prof.bidiagonal = seconds_since(t);
    t = std::chrono::steady_clock::now();
    DistMatrix<T>* Ud = U == nullptr ? nullptr : part_u ? &*part_u : U;
    DistMatrix<T>* Vd = V == nullptr ? nullptr : part_v ? &*part_v : V;
    // QR first: U = Q_R [Q U_B; 0], with Q on the first n rows through an n-row copy.
    std::optional<DistMatrix<T>> top;
    if (Ud != nullptr && qr_first) {
      const BlockCyclic1D& L = Ud->layout();
      top.emplace(Ud->context_ptr(), BlockCyclic1D(n, Ud->n(), L.nb(), L.num_devices(), L.first()));
      detail::copy_prefix(what, *Ud, *top, n);
    }
    apply(top ? &*top : Ud, Vd);
    if (top) {
      detail::copy_prefix(what, *top, *Ud);
      unmbr_mgpu<T>(Vect::Q, Op::N, A, tau_qr.data(), *Ud, opts.back_transform);
    }
    if (part_u) detail::copy_prefix(what, *part_u, *U);
    if (part_v) detail::copy_prefix(what, *part_v, *V);
    ctx.synchronize();
    prof.back_transform = seconds_since(t);
  }
  prof.total = seconds_since(t0);
  if (opts.profile != nullptr) *opts.profile = prof;
}

template <Scalar T>
SingularSystem<T> gesvd_mgpu(DistMatrix<T>& A, bool vectors, int64_t nvec,
                             const GesvdOptions& opts) {
  SingularSystem<T> out;
  const int64_t m = A.m(), n = A.n(), k = std::min(m, n);
  out.s.resize(static_cast<std::size_t>(std::max<int64_t>(k, 0)));
  if (!vectors) {
    gesvd_mgpu<T>(A, out.s.data(), nullptr, nullptr, nvec, opts);
    return out;
  }
  // Out-of-range nvec is left to the collective check; the matrices only need a size.
  const int64_t cols = nvec >= 0 && nvec <= k ? nvec : k;
  const BlockCyclic1D& LA = A.layout();
  DistMatrix<T> Um(A.context_ptr(), BlockCyclic1D(m, cols, LA.nb(), LA.num_devices(), LA.first()));
  DistMatrix<T> Vm(A.context_ptr(), BlockCyclic1D(n, cols, LA.nb(), LA.num_devices(), LA.first()));
  gesvd_mgpu<T>(A, out.s.data(), &Um, &Vm, nvec, opts);
  out.U.emplace(std::move(Um));
  out.V.emplace(std::move(Vm));
  return out;
}

#define MGBLAS_INSTANTIATE(T)                                                               \
  template void gesvd_mgpu<T>(DistMatrix<T>&, real_type_t<T>*, DistMatrix<T>*, DistMatrix<T>*, \
                              int64_t, const GesvdOptions&);                                 \
  template SingularSystem<T> gesvd_mgpu<T>(DistMatrix<T>&, bool, int64_t, const GesvdOptions&);
MGBLAS_FOR_EACH_SCALAR(MGBLAS_INSTANTIATE)
#undef MGBLAS_INSTANTIATE

}  // namespace mgblas
