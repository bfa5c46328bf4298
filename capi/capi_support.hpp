// SPDX-License-Identifier: BSD-3-Clause
// What the C API's entries share (internal to capi/): the handles, guard() that maps
// exceptions to status codes, the conversions of C arguments to C++ ones, and agree_on()
// that checks a collective entry's handles and enums inside the ranks' agreement. The
// hand-written entries (capi/c_api.cpp: context, memory, matrices) and the generated ones
// (capi/c_entries.cpp, from api/operations.py) both use it. Every C name exists in every
// build; one of a precision outside MGBLAS_PRECISIONS returns MGBLAS_ERROR_NOT_COMPILED
// (guard_compiled).
#pragma once

#include <mgblas/mgblas.h>

#include <algorithm>
#include <memory>
#include <mutex>
#include <new>
#include <optional>
#include <set>
#include <span>
#include <string>
#include <variant>
#include <vector>

#include "core/agreement.hpp"
#include "core/config.hpp"
#include "core/context.hpp"
#include "dist/dist_blas.hpp"
#include "dist/lapack/gebrd_2d.hpp"
#include "dist/lapack/gebrd_mgpu.hpp"
#include "dist/lapack/gesvd_mgpu.hpp"
#include "dist/lapack/gesvd_2d.hpp"
#include "dist/lapack/heevd_2d.hpp"
#include "dist/lapack/heevd_mgpu.hpp"
#include "dist/lapack/hetrd_2d.hpp"
#include "dist/lapack/hetrd_2stage_mgpu.hpp"
#include "dist/lapack/hetrd_mgpu.hpp"
#include "dist/batched_mgpu.hpp"
#include "dist/lapack/her2k_mgpu.hpp"
#include "dist/lapack/stebz_mgpu.hpp"
#include "dist/lapack/unmbr_mgpu.hpp"
#include "dist/lapack/unmtr_mgpu.hpp"
#include "dist/tsgemm_mgpu.hpp"
#include "core/memory.hpp"
#include "kernels/blas.hpp"
#include "kernels/lapack.hpp"
#include "layouts/dist_matrix.hpp"
#include "layouts/row_tiled_matrix.hpp"

// A device handle names one local device of a context; it stays valid while the
// context handle that gave it out lives.
struct mgblas_device_s {
  mgblas::Device* device;
};
struct mgblas_context_s {
  std::shared_ptr<mgblas::Context> ctx;
  std::vector<std::unique_ptr<mgblas_device_s>> devices;  // handed out, one per local device
};
// One alternative per layout and precision of this build (mgblas::EnabledScalars).
template <typename... Ts>
using HeldMatrix = std::variant<std::unique_ptr<mgblas::DistMatrix<Ts>>...,
                                std::unique_ptr<mgblas::RowTiledMatrix<Ts>>...>;
struct mgblas_matrix_s {
  mgblas::EnabledScalars::apply<HeldMatrix> m;
  mgblas::DataType type{};
};

namespace mgblas::capi {

inline thread_local std::string last_error;
inline thread_local std::string last_error_location;

// The handles alive now: a handle is checked against these before use, so a destroyed
// (or never created) handle is an error instead of a use after free.
struct Registry {
  std::mutex mutex;
  std::set<const void*> contexts, devices, matrices;
};
inline Registry& registry() {
  static Registry r;
  return r;
}
inline bool is_live(const std::set<const void*>& set, const void* h) {
  std::lock_guard lock(registry().mutex);
  return set.count(h) > 0;
}

inline mgblas_context_s& context_of(mgblas_context_t ctx, const char* name = "ctx") {
  MGBLAS_CHECK_PTR(ctx, name, true);
  if (!is_live(registry().contexts, ctx))
    MGBLAS_THROW(mgblas::BadArgument, "argument '", name,
                 "' is not a live context handle (destroyed, or never created)");
  return *ctx;
}
inline mgblas::Device& device_of(mgblas_device_t dev) {
  MGBLAS_CHECK_PTR(dev, "dev", true);
  if (!is_live(registry().devices, dev))
    MGBLAS_THROW(mgblas::BadArgument,
                 "argument 'dev' is not a live device handle (its context was destroyed)");
  return *dev->device;
}

template <typename F>
mgblas_status_t guard(F&& f) noexcept;

// guard() for an entry of precision T: runs body(std::type_identity<T>{}) where this
// build has T, else fails with NotCompiled naming `entry`. The body is a generic lambda,
// so a disabled precision's C++ calls are never instantiated (nothing left to link).
template <typename T, typename F>
mgblas_status_t guard_compiled(const char* entry, F&& body) noexcept {
  return guard([&] {
    if constexpr (mgblas::precision_enabled_v<T>) body(std::type_identity<T>{});
    else mgblas::detail::throw_precision_not_compiled(mgblas::data_type_of<T>(), entry);
  });
}

template <typename F>
mgblas_status_t guard(F&& f) noexcept {
  last_error_location.clear();
  try {
    f();
    last_error.clear();
    return MGBLAS_SUCCESS;
  } catch (const mgblas::Timeout& e) {
    last_error = e.what();
    last_error_location = e.where();
    return MGBLAS_ERROR_TIMEOUT;
  } catch (const mgblas::AllocationError& e) {
    last_error = e.what();
    last_error_location = e.where();
    return MGBLAS_ERROR_ALLOCATION;
  } catch (const mgblas::BadArgument& e) {
    last_error = e.what();
    last_error_location = e.where();
    return MGBLAS_ERROR_BAD_ARGUMENT;
  } catch (const mgblas::DimensionMismatch& e) {
    last_error = e.what();
    last_error_location = e.where();
    return MGBLAS_ERROR_DIMENSION_MISMATCH;
  } catch (const mgblas::NotCompiled& e) {
    last_error = e.what();
    last_error_location = e.where();
    return MGBLAS_ERROR_NOT_COMPILED;
  } catch (const mgblas::NotImplemented& e) {
    last_error = e.what();
    last_error_location = e.where();
    return MGBLAS_ERROR_NOT_IMPLEMENTED;
  } catch (const mgblas::CudaError& e) {
    last_error = e.what();
    last_error_location = e.where();
    return MGBLAS_ERROR_CUDA;
  } catch (const mgblas::CublasError& e) {
    last_error = e.what();
    last_error_location = e.where();
    return MGBLAS_ERROR_CUBLAS;
  } catch (const mgblas::NcclError& e) {
    last_error = e.what();
    last_error_location = e.where();
    return MGBLAS_ERROR_NCCL;
  } catch (const mgblas::MpiError& e) {
    last_error = e.what();
    last_error_location = e.where();
    return MGBLAS_ERROR_MPI;
  } catch (const mgblas::RemoteError& e) {
    last_error = e.what();
    last_error_location = e.where();
    return MGBLAS_ERROR_REMOTE;
  } catch (const std::bad_alloc&) {
    last_error = "out of host memory";
    return MGBLAS_ERROR_ALLOCATION;
  } catch (const std::exception& e) {
    last_error = e.what();
    return MGBLAS_ERROR_INTERNAL;
  } catch (...) {
    last_error = "unknown exception";
    return MGBLAS_ERROR_INTERNAL;
  }
}

// C scalar type -> C++ scalar type (the complex structs are layout-compatible).
template <typename C> struct cpp_type { using type = C; };
template <> struct cpp_type<mgblas_complex_float> { using type = mgblas::scomplex; };
template <> struct cpp_type<mgblas_complex_double> { using type = mgblas::zcomplex; };
template <typename C> using cpp_t = typename cpp_type<C>::type;

template <typename C> cpp_t<C> val(C v) {
  if constexpr (std::is_same_v<C, cpp_t<C>>) return v;
  else return cpp_t<C>(v.re, v.im);
}
template <typename C> const cpp_t<C>* ptr(const C* p) { return reinterpret_cast<const cpp_t<C>*>(p); }
template <typename C> cpp_t<C>* ptr(C* p) { return reinterpret_cast<cpp_t<C>*>(p); }
template <typename C> const cpp_t<C>* const* ptrs(const C* const* p) {
  return reinterpret_cast<const cpp_t<C>* const*>(p);
}
template <typename C> cpp_t<C>* const* ptrs(C* const* p) { return reinterpret_cast<cpp_t<C>* const*>(p); }

// The value of an enum argument as the user passed it: the letter when printable.
inline std::string shown(int v) {
  if (v > 32 && v < 127) return mgblas::detail::concat("'", static_cast<char>(v), "' (", v, ")");
  return std::to_string(v);
}
// BLAS letters are case-insensitive.
inline int upper(int v) { return v >= 'a' && v <= 'z' ? v - 'a' + 'A' : v; }

inline mgblas::Op to_op(mgblas_op_t op, const char* name = "op") {
  const int v = upper(static_cast<int>(op));
  if (v != MGBLAS_OP_N && v != MGBLAS_OP_T && v != MGBLAS_OP_C)
    MGBLAS_THROW(mgblas::BadArgument, "argument '", name, "' = ", shown(op),
                 ": must be MGBLAS_OP_N, _T or _C ('N', 'T', 'C', any case)");
  return static_cast<mgblas::Op>(v);
}
inline mgblas::Uplo to_uplo(mgblas_uplo_t uplo) {
  const int v = upper(static_cast<int>(uplo));
  if (v != MGBLAS_UPLO_LOWER && v != MGBLAS_UPLO_UPPER)
    MGBLAS_THROW(mgblas::BadArgument, "argument 'uplo' = ", shown(uplo),
                 ": must be MGBLAS_UPLO_LOWER or _UPPER ('L', 'U', any case)");
  return static_cast<mgblas::Uplo>(v);
}
inline mgblas::Vect to_vect(mgblas_vect_t vect) {
  const int v = upper(static_cast<int>(vect));
  if (v != MGBLAS_VECT_Q && v != MGBLAS_VECT_P)
    MGBLAS_THROW(mgblas::BadArgument, "argument 'vect' = ", shown(vect),
                 ": must be MGBLAS_VECT_Q or _P ('Q', 'P', any case)");
  return static_cast<mgblas::Vect>(v);
}
// LAPACK's RANGE with its bounds (any case, as op and uplo): A all, I the eigenvalues
// il..iu (0-based), V those in (vl, vu]; the bounds of the other kinds are not read (the
// C++ call checks the chosen kind's, inside its own agreement).
inline mgblas::EigenRange to_range(mgblas_range_t range, double vl, double vu, int64_t il,
                                   int64_t iu) {
  switch (upper(static_cast<int>(range))) {
    case MGBLAS_RANGE_ALL: return mgblas::EigenRange::all();
    case MGBLAS_RANGE_INDEX: return mgblas::EigenRange::index(il, iu);
    case MGBLAS_RANGE_VALUE: return mgblas::EigenRange::value(vl, vu);
  }
  MGBLAS_THROW(mgblas::BadArgument, "argument 'range' = ", shown(range),
               ": must be MGBLAS_RANGE_ALL, _INDEX or _VALUE ('A', 'I', 'V', any case)");
}
// The C++ layout of a C 2-D descriptor; throws BadArgument naming the argument and field.
inline mgblas::BlockCyclic2D to_desc2d(const mgblas_desc2d_t* d, const char* name = "desc") {
  MGBLAS_CHECK_PTR(d, name, true);
  if (d->order != MGBLAS_GRID_ROW_MAJOR && d->order != MGBLAS_GRID_COLUMN_MAJOR)
    MGBLAS_THROW(mgblas::BadArgument, "argument '", name, "->order' = ", d->order,
                 ": must be MGBLAS_GRID_ROW_MAJOR (0) or MGBLAS_GRID_COLUMN_MAJOR (1)");
  try {
    return mgblas::BlockCyclic2D(
        d->m, d->n, d->mb, d->nb, d->nprow, d->npcol, d->rsrc, d->csrc,
        d->order == MGBLAS_GRID_ROW_MAJOR ? mgblas::GridOrder::RowMajor
                                          : mgblas::GridOrder::ColumnMajor);
  } catch (const mgblas::BadArgument& e) {
    MGBLAS_THROW(mgblas::BadArgument, name, ": ", e.what());
  }
}
inline void check_matrix_handle(mgblas_matrix_t A, const char* name = "A") {
  MGBLAS_CHECK_PTR(A, name, true);
  if (!is_live(registry().matrices, A))
    MGBLAS_THROW(mgblas::BadArgument, "argument '", name,
                 "' is not a live matrix handle (destroyed, or never created)");
}
// What a HeldMatrix alternative holds: its scalar type and whether it is row-tiled.
template <typename P> struct held_of : held_of<std::remove_cvref_t<P>> {};
template <typename T> struct held_of<std::unique_ptr<mgblas::DistMatrix<T>>> {
  using type = T;
  static constexpr bool tiled = false;
};
template <typename T> struct held_of<std::unique_ptr<mgblas::RowTiledMatrix<T>>> {
  using type = T;
  static constexpr bool tiled = true;
};

// A's handle, checked live and made on ctx (a matrix of another context has other ranks
// and devices).
inline mgblas_matrix_s& matrix_of(mgblas_context_t ctx, mgblas_matrix_t A, const char* name = "A") {
  const mgblas_context_s& c = context_of(ctx);
  check_matrix_handle(A, name);
  const mgblas::Context* owner = std::visit([](auto& M) { return &M->context(); }, A->m);
  if (owner != c.ctx.get())
    MGBLAS_THROW(mgblas::BadArgument, "argument '", name,
                 "' is a matrix of another context than argument 'ctx'");
  return *A;
}
// The matrix of layout L (DistMatrix or RowTiledMatrix) and precision T held by A.
template <template <typename> class L, typename T>
L<T>& matrix_as(mgblas_context_t ctx, mgblas_matrix_t A, const char* name = "A") {
  mgblas_matrix_s& h = matrix_of(ctx, A, name);
  if (auto* held = std::get_if<std::unique_ptr<L<T>>>(&h.m)) return **held;
  const bool tiled = std::visit([](auto& M) { return held_of<decltype(M)>::tiled; }, h.m);
  if (tiled != held_of<std::unique_ptr<L<T>>>::tiled)
    MGBLAS_THROW(mgblas::BadArgument, "argument '", name, "' is a ",
                 tiled ? "row-tiled" : "block-cyclic", " matrix but this routine takes a ",
                 tiled ? "block-cyclic" : "row-tiled", " one");
  MGBLAS_THROW(mgblas::BadArgument, "argument '", name, "' holds precision '",
               mgblas::precision_letter(h.type), "' but this routine takes '",
               mgblas::precision_letter<T>(), "'");
}
// The communicator a collective C entry agrees over: ctx's, or, for a handle that is
// null or not live, the only context alive (with several there is no way to know
// which ranks to tell, and the error stays on this rank).
inline const mgblas::Communicator* communicator_for(mgblas_context_t ctx) {
  std::lock_guard lock(registry().mutex);
  if (ctx && registry().contexts.count(ctx)) return &ctx->ctx->comm();
  if (registry().contexts.size() == 1)
    return &static_cast<const mgblas_context_s*>(*registry().contexts.begin())->ctx->comm();
  return nullptr;
}

// Runs a collective C entry's conversions (handles, enums, pointer arrays) inside the
// ranks' agreement over ctx, so that one rank's bad value raises on every rank before
// any rank enters the operation's own collectives; then the operation runs.
template <typename Convert>
void agree_on(const char* what, mgblas_context_t ctx, Convert&& convert) {
  const mgblas::Communicator* comm = communicator_for(ctx);
  if (!comm) {
    convert();
    return;
  }
  mgblas::CallRecord rec(what);
  mgblas::agree(*comm, rec, [&] {
    context_of(ctx);
    convert();
  });
}

// The queue of a single-device entry: `stream` (a cudaStream_t) or, when null, the
// device's own stream.
inline mgblas::Queue queue_of(mgblas_device_t dev, void* stream) {
  const mgblas::Device& d = device_of(dev);
  return stream ? mgblas::Queue(d, static_cast<cudaStream_t>(stream)) : mgblas::Queue(d);
}

// Per-group C op letters as mgblas::Op, each checked and named "opA[g]".
inline std::vector<mgblas::Op> to_ops(int64_t count, const mgblas_op_t* ops, const char* name) {
  MGBLAS_CHECK_PTR(ops, name, count > 0);
  std::vector<mgblas::Op> out;
  for (int64_t g = 0; g < count; ++g)
    out.push_back(to_op(ops[g], mgblas::detail::concat(name, "[", g, "]").c_str()));
  return out;
}

// The reductions' options from the C struct (NULL: the defaults), read inside the
// ranks' agreement so that one rank's bad value fails every rank. A profile asked for is
// gathered in the C++ profile and added to the caller's after the call (finish).
inline mgblas::ReducerKind to_transport(int t) {
  switch (t) {
    case MGBLAS_TRANSPORT_AUTO: return mgblas::ReducerKind::Auto;
    case MGBLAS_TRANSPORT_HOST: return mgblas::ReducerKind::Host;
    case MGBLAS_TRANSPORT_NCCL: return mgblas::ReducerKind::Nccl;
  }
  MGBLAS_THROW(mgblas::BadArgument, "argument 'opts.transport' = ", t,
               ": must be MGBLAS_TRANSPORT_AUTO, _HOST or _NCCL");
}
inline mgblas::GebrdPass to_pass(int p) {
  switch (p) {
    case MGBLAS_GEBRD_PASS_AUTO: return mgblas::GebrdPass::Auto;
    case MGBLAS_GEBRD_PASS_ONE: return mgblas::GebrdPass::One;
    case MGBLAS_GEBRD_PASS_TWO: return mgblas::GebrdPass::Two;
  }
  MGBLAS_THROW(mgblas::BadArgument, "argument 'opts.pass' = ", p,
               ": must be MGBLAS_GEBRD_PASS_AUTO, _ONE or _TWO");
}
inline mgblas::Stages to_stages(int s) {
  switch (s) {
    case MGBLAS_STAGES_AUTO: return mgblas::Stages::Auto;
    case MGBLAS_STAGES_ONE: return mgblas::Stages::One;
    case MGBLAS_STAGES_TWO: return mgblas::Stages::Two;
  }
  MGBLAS_THROW(mgblas::BadArgument, "argument 'opts.stages' = ", s,
               ": must be MGBLAS_STAGES_AUTO, _ONE or _TWO");
}
// The fields an entry has no use for must keep their defaults, so that a value set for
// another routine is an error instead of silently ignored.
inline void require_auto_stages(const mgblas_reduction_options_t& c, const char* routine) {
  if (c.stages != MGBLAS_STAGES_AUTO)
    MGBLAS_THROW(mgblas::BadArgument, "argument 'opts.stages' = ", static_cast<int>(c.stages),
                 ": must be MGBLAS_STAGES_AUTO for ", routine, " (an eigen-solver's option)");
}
inline void require_no_band(const mgblas_reduction_options_t& c, const char* routine) {
  if (c.band != 0)
    MGBLAS_THROW(mgblas::BadArgument, "argument 'opts.band' = ", c.band, ": must be 0 for ",
                 routine, " (the two-stage reduction's option)");
}
inline void require_auto_pass(const mgblas_reduction_options_t& c, const char* routine) {
  if (c.pass != MGBLAS_GEBRD_PASS_AUTO)
    MGBLAS_THROW(mgblas::BadArgument, "argument 'opts.pass' = ", static_cast<int>(c.pass),
                 ": must be MGBLAS_GEBRD_PASS_AUTO for ", routine);
}
inline void add_profile(mgblas_reduction_profile_t* to, double products, double panel,
                        double comm, double update, double total) {
  if (!to) return;
  to->products += products;
  to->panel += panel;
  to->comm += comm;
  to->update += update;
  to->total += total;
}

template <typename Options> struct CapiOptions;
template <> struct CapiOptions<mgblas::HetrdOptions> {
  mgblas::HetrdOptions options;
  mgblas::HetrdProfile profile;
  // band: hetrd_2stage_mgpu's (hetrd_mgpu and hetrd_band_mgpu ignore it, as in C++).
  void read(const mgblas_reduction_options_t* c) {
    if (!c) return;
    options.panel = c->panel;
    options.band = c->band;
    options.transport = to_transport(c->transport);
    require_auto_pass(*c, "a tridiagonal reduction");
    require_auto_stages(*c, "a tridiagonal reduction");
    if (c->profile) options.profile = &profile;
  }
  void finish(const mgblas_reduction_options_t* c) const {
    if (c && options.profile)
      add_profile(c->profile, profile.symv, profile.panel, profile.comm, profile.update,
                  profile.total);
  }
};
template <> struct CapiOptions<mgblas::GebrdOptions> {
  mgblas::GebrdOptions options;
  mgblas::GebrdProfile profile;
  void read(const mgblas_reduction_options_t* c) {
    if (!c) return;
    options.panel = c->panel;
    options.transport = to_transport(c->transport);
    options.set_pass(to_pass(c->pass));
    require_no_band(*c, "gebrd");
    require_auto_stages(*c, "gebrd");
    if (c->profile) options.profile = &profile;
  }
  void finish(const mgblas_reduction_options_t* c) const {
    if (c && options.profile)
      add_profile(c->profile, profile.products, profile.panel, profile.comm, profile.update,
                  profile.total);
  }
};
// unmtr_mgpu: panel and transport; it keeps no profile (opts.profile must be NULL).
template <> struct CapiOptions<mgblas::UnmtrOptions> {
  mgblas::UnmtrOptions options;
  void read(const mgblas_reduction_options_t* c) {
    if (!c) return;
    options.panel = c->panel;
    options.transport = to_transport(c->transport);
    require_auto_pass(*c, "unmtr_mgpu");
    require_no_band(*c, "unmtr_mgpu");
    require_auto_stages(*c, "unmtr_mgpu");
    if (c->profile)
      MGBLAS_THROW(mgblas::BadArgument,
                   "argument 'opts.profile' is not NULL: unmtr_mgpu keeps no profile");
  }
  void finish(const mgblas_reduction_options_t*) const {}
};
// geqrf_mgpu: panel and transport; it keeps no profile (opts.profile must be NULL).
template <> struct CapiOptions<mgblas::GeqrfOptions> {
  mgblas::GeqrfOptions options;
  void read(const mgblas_reduction_options_t* c) {
    if (!c) return;
    options.panel = c->panel;
    options.transport = to_transport(c->transport);
    require_auto_pass(*c, "geqrf_mgpu");
    require_no_band(*c, "geqrf_mgpu");
    require_auto_stages(*c, "geqrf_mgpu");
    if (c->profile)
      MGBLAS_THROW(mgblas::BadArgument,
                   "argument 'opts.profile' is not NULL: geqrf_mgpu keeps no profile");
  }
  void finish(const mgblas_reduction_options_t*) const {}
};
// gesvd_mgpu: panel and transport go to the reduction and both back-transformations,
// pass to the one-stage reduction, band to the two-stage one, stages to the choice
// between them; the profile receives the reduction's four phases and the whole call's
// total.
template <> struct CapiOptions<mgblas::GesvdOptions> {
  CapiOptions<mgblas::GebrdOptions> reduce;
  mgblas::GesvdOptions options;
  mgblas::GesvdProfile profile;
  void read(const mgblas_reduction_options_t* c) {
    if (c) {  // band and stages are gesvd's, not gebrd's
      mgblas_reduction_options_t r = *c;
      r.band = 0;
      r.stages = MGBLAS_STAGES_AUTO;
      reduce.read(&r);
      options.band = c->band;
      options.stages = to_stages(c->stages);
    }
    options.reduction = reduce.options;
    if (!c) return;
    options.back_transform.panel = c->panel;
    options.back_transform.transport = options.reduction.transport;
    if (c->profile) options.profile = &profile;
  }
  void finish(const mgblas_reduction_options_t* c) const {
    if (c && options.profile) {
      const mgblas::GebrdProfile& r = reduce.profile;
      add_profile(c->profile, r.products, r.panel, r.comm, r.update, profile.total);
    }
  }
};
// heevd_mgpu / syevd_mgpu: panel and transport go to both steps that take them (the
// reduction and the back-transformation; a divisor of A's nb suits both), band to the
// two-stage reduction, stages to the choice between the reductions; the profile receives
// the reduction's four phases and the whole call's total.
template <> struct CapiOptions<mgblas::HeevdOptions> {
  mgblas::HeevdOptions options;
  mgblas::HetrdProfile reduction;
  mgblas::HeevdProfile profile;
  void read(const mgblas_reduction_options_t* c) {
    if (!c) return;
    options.reduction.panel = options.back_transform.panel = c->panel;
    options.reduction.transport = options.back_transform.transport = to_transport(c->transport);
    options.reduction.band = c->band;
    options.stages = to_stages(c->stages);
    require_auto_pass(*c, "an eigen-solver");
    if (c->profile) {
      options.reduction.profile = &reduction;
      options.profile = &profile;
    }
  }
  void finish(const mgblas_reduction_options_t* c) const {
    if (c && options.profile)
      add_profile(c->profile, reduction.symv, reduction.panel, reduction.comm, reduction.update,
                  profile.total);
  }
};

// heevd_2d / syevd_2d: heevd_mgpu's options for its solve; the profile's total is the
// whole call's, the redistributions included.
template <> struct CapiOptions<mgblas::Heevd2DOptions> {
  CapiOptions<mgblas::HeevdOptions> solve;
  mgblas::Heevd2DOptions options;
  mgblas::Heevd2DProfile profile;
  void read(const mgblas_reduction_options_t* c) {
    solve.read(c);
    options.heevd = solve.options;
    if (c && c->profile) options.profile = &profile;
  }
  void finish(const mgblas_reduction_options_t* c) const {
    if (c && options.profile) {
      const mgblas::HetrdProfile& r = solve.reduction;
      add_profile(c->profile, r.symv, r.panel, r.comm, r.update, profile.total);
    }
  }
};

// gesvd_2d: gesvd_mgpu's options for its solve; the profile's total is the whole call's,
// the redistributions included.
template <> struct CapiOptions<mgblas::Gesvd2DOptions> {
  CapiOptions<mgblas::GesvdOptions> solve;
  mgblas::Gesvd2DOptions options;
  mgblas::Gesvd2DProfile profile;
  void read(const mgblas_reduction_options_t* c) {
    solve.read(c);
    options.gesvd = solve.options;
    if (c && c->profile) options.profile = &profile;
  }
  void finish(const mgblas_reduction_options_t* c) const {
    if (c && options.profile) {
      const mgblas::GebrdProfile& r = solve.reduce.profile;
      add_profile(c->profile, r.products, r.panel, r.comm, r.update, profile.total);
    }
  }
};

// hetrd_2d / gebrd_2d: their reduction's options (hetrd_mgpu's, gebrd_mgpu's: the same
// fields and checks as those entries' _ex forms); the profile receives the reduction's
// phases and the whole call's total, the redistributions included.
template <> struct CapiOptions<mgblas::Hetrd2DOptions> {
  CapiOptions<mgblas::HetrdOptions> reduce;
  mgblas::Hetrd2DOptions options;
  mgblas::Hetrd2DProfile profile;
  void read(const mgblas_reduction_options_t* c) {
    reduce.read(c);
    options.hetrd = reduce.options;
    if (c && c->profile) options.profile = &profile;
  }
  void finish(const mgblas_reduction_options_t* c) const {
    if (c && options.profile) {
      const mgblas::HetrdProfile& r = reduce.profile;
      add_profile(c->profile, r.symv, r.panel, r.comm, r.update, profile.total);
    }
  }
};
template <> struct CapiOptions<mgblas::Gebrd2DOptions> {
  CapiOptions<mgblas::GebrdOptions> reduce;
  mgblas::Gebrd2DOptions options;
  mgblas::Gebrd2DProfile profile;
  void read(const mgblas_reduction_options_t* c) {
    reduce.read(c);
    options.gebrd = reduce.options;
    if (c && c->profile) options.profile = &profile;
  }
  void finish(const mgblas_reduction_options_t* c) const {
    if (c && options.profile) {
      const mgblas::GebrdProfile& r = reduce.profile;
      add_profile(c->profile, r.products, r.panel, r.comm, r.update, profile.total);
    }
  }
};

}  // namespace mgblas::capi
