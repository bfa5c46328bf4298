// SPDX-License-Identifier: BSD-3-Clause
// The C API: every entry converts its arguments, calls the C++ API inside guard(),
// and maps the exception class to a status code. Entries are generated per
// precision from the header's MGBLAS_C_FOR_EACH_PRECISION list (the compiler checks
// each definition against the declaration written out in the generated header): every
// C name exists in every build; those of a precision outside MGBLAS_PRECISIONS return
// MGBLAS_ERROR_NOT_COMPILED (guard_compiled).
#include <mgblas/mgblas.h>

#include <algorithm>
#include <memory>
#include <mutex>
#include <new>
#include <optional>
#include <set>
#include <string>
#include <variant>
#include <vector>

#include "core/agreement.hpp"
#include "core/config.hpp"
#include "core/context.hpp"
#include "dist/dist_blas.hpp"
#include "dist/lapack/gebrd_mgpu.hpp"
#include "dist/lapack/hetrd_mgpu.hpp"
#include "dist/batched_mgpu.hpp"
#include "dist/lapack/stebz_mgpu.hpp"
#include "dist/tsgemm_mgpu.hpp"
#include "core/memory.hpp"
#include "kernels/blas.hpp"
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

namespace {

thread_local std::string last_error;
thread_local std::string last_error_location;

// The handles alive now: a handle is checked against these before use, so a destroyed
// (or never created) handle is an error instead of a use after free.
struct Registry {
  std::mutex mutex;
  std::set<const void*> contexts, devices, matrices;
};
Registry& registry() {
  static Registry r;
  return r;
}
bool is_live(const std::set<const void*>& set, const void* h) {
  std::lock_guard lock(registry().mutex);
  return set.count(h) > 0;
}

mgblas_context_s& context_of(mgblas_context_t ctx, const char* name = "ctx") {
  MGBLAS_CHECK_PTR(ctx, name, true);
  if (!is_live(registry().contexts, ctx))
    MGBLAS_THROW(mgblas::BadArgument, "argument '", name,
                 "' is not a live context handle (destroyed, or never created)");
  return *ctx;
}
mgblas::Device& device_of(mgblas_device_t dev) {
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
std::string shown(int v) {
  if (v > 32 && v < 127) return mgblas::detail::concat("'", static_cast<char>(v), "' (", v, ")");
  return std::to_string(v);
}
// BLAS letters are case-insensitive.
int upper(int v) { return v >= 'a' && v <= 'z' ? v - 'a' + 'A' : v; }

mgblas::Op to_op(mgblas_op_t op, const char* name = "op") {
  const int v = upper(static_cast<int>(op));
  if (v != MGBLAS_OP_N && v != MGBLAS_OP_T && v != MGBLAS_OP_C)
    MGBLAS_THROW(mgblas::BadArgument, "argument '", name, "' = ", shown(op),
                 ": must be MGBLAS_OP_N, _T or _C ('N', 'T', 'C', any case)");
  return static_cast<mgblas::Op>(v);
}
mgblas::Uplo to_uplo(mgblas_uplo_t uplo) {
  const int v = upper(static_cast<int>(uplo));
  if (v != MGBLAS_UPLO_LOWER && v != MGBLAS_UPLO_UPPER)
    MGBLAS_THROW(mgblas::BadArgument, "argument 'uplo' = ", shown(uplo),
                 ": must be MGBLAS_UPLO_LOWER or _UPPER ('L', 'U', any case)");
  return static_cast<mgblas::Uplo>(v);
}
void check_matrix_handle(mgblas_matrix_t A, const char* name = "A") {
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
mgblas_matrix_s& matrix_of(mgblas_context_t ctx, mgblas_matrix_t A, const char* name = "A") {
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
template <typename T> mgblas::DistMatrix<T>& dist_as(mgblas_context_t ctx, mgblas_matrix_t A) {
  return matrix_as<mgblas::DistMatrix, T>(ctx, A);
}
template <typename T>
mgblas::RowTiledMatrix<T>& tiled_as(mgblas_context_t ctx, mgblas_matrix_t A, const char* name) {
  return matrix_as<mgblas::RowTiledMatrix, T>(ctx, A, name);
}

// The communicator a collective C entry agrees over: ctx's, or, for a handle that is
// null or not live, the only context alive (with several there is no way to know
// which ranks to tell, and the error stays on this rank).
const mgblas::Communicator* communicator_for(mgblas_context_t ctx) {
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
mgblas::Queue queue_of(mgblas_device_t dev, void* stream) {
  const mgblas::Device& d = device_of(dev);
  return stream ? mgblas::Queue(d, static_cast<cudaStream_t>(stream)) : mgblas::Queue(d);
}

// Per-group C op letters as mgblas::Op, each checked and named "opA[g]".
std::vector<mgblas::Op> to_ops(int64_t count, const mgblas_op_t* ops, const char* name) {
  MGBLAS_CHECK_PTR(ops, name, count > 0);
  std::vector<mgblas::Op> out;
  for (int64_t g = 0; g < count; ++g)
    out.push_back(to_op(ops[g], mgblas::detail::concat(name, "[", g, "]").c_str()));
  return out;
}

// The opA / opB pair of a collective GEMM entry, checked inside the agreement over ctx;
// `more` runs there too (further handles and pointers).
template <typename More = void (*)()>
std::pair<mgblas::Op, mgblas::Op> agree_on_ops(
    const char* what, mgblas_context_t ctx, mgblas_op_t opA, mgblas_op_t opB,
    More&& more = [] {}) {
  std::pair<mgblas::Op, mgblas::Op> ops{};
  agree_on(what, ctx, [&] {
    ops = {to_op(opA, "opA"), to_op(opB, "opB")};
    more();
  });
  return ops;
}

// A tall-skinny entry's op and its two row-tiled matrices (A and C, or A and B),
// checked inside the agreement over ctx; then run(op, first, second).
template <typename T, typename Run>
void tiled_entry(const char* what, mgblas_context_t ctx, mgblas_op_t op, const char* op_name,
                 mgblas_matrix_t X, const char* x_name, mgblas_matrix_t Y, const char* y_name,
                 Run&& run) {
  mgblas::Op e{};
  mgblas::RowTiledMatrix<T>*MX = nullptr, *MY = nullptr;
  agree_on(what, ctx, [&] {
    e = to_op(op, op_name);
    MX = &tiled_as<T>(ctx, X, x_name);
    MY = &tiled_as<T>(ctx, Y, y_name);
  });
  run(e, *MX, *MY);
}

// The reductions' options from the C struct (NULL: the defaults), checked inside the
// ranks' agreement so that one rank's bad value fails every rank. The profile's phases
// are summed into a C++ profile and added to the caller's afterwards.
mgblas::ReducerKind to_transport(int t) {
  switch (t) {
    case MGBLAS_TRANSPORT_AUTO: return mgblas::ReducerKind::Auto;
    case MGBLAS_TRANSPORT_HOST: return mgblas::ReducerKind::Host;
    case MGBLAS_TRANSPORT_NCCL: return mgblas::ReducerKind::Nccl;
  }
  MGBLAS_THROW(mgblas::BadArgument, "argument 'opts.transport' = ", t,
               ": must be MGBLAS_TRANSPORT_AUTO, _HOST or _NCCL");
}
mgblas::GebrdPass to_pass(int p) {
  switch (p) {
    case MGBLAS_GEBRD_PASS_AUTO: return mgblas::GebrdPass::Auto;
    case MGBLAS_GEBRD_PASS_ONE: return mgblas::GebrdPass::One;
    case MGBLAS_GEBRD_PASS_TWO: return mgblas::GebrdPass::Two;
  }
  MGBLAS_THROW(mgblas::BadArgument, "argument 'opts.pass' = ", p,
               ": must be MGBLAS_GEBRD_PASS_AUTO, _ONE or _TWO");
}
// What both reductions' options share: panel, transport and (into `prof`) the profile.
template <typename Options, typename Profile>
void read_reduction_options(const mgblas_reduction_options_t& c, Options& o, Profile& prof) {
  o.panel = c.panel;
  o.transport = to_transport(c.transport);
  if (c.profile) o.profile = &prof;
}
void add_profile(mgblas_reduction_profile_t* to, double products, double panel, double comm,
                 double update, double total) {
  if (!to) return;
  to->products += products;
  to->panel += panel;
  to->comm += comm;
  to->update += update;
  to->total += total;
}

template <typename T>
mgblas_status_t hetrd_entry(const char* name, mgblas_context_t ctx, mgblas_uplo_t uplo,
                            mgblas_matrix_t A, mgblas::real_type_t<cpp_t<T>>* d,
                            mgblas::real_type_t<cpp_t<T>>* e, T* tau,
                            const mgblas_reduction_options_t* opts) {
  return guard_compiled<cpp_t<T>>(name, [&](auto) {
    mgblas::Uplo u{};
    mgblas::DistMatrix<cpp_t<T>>* M = nullptr;
    mgblas::HetrdOptions o;
    mgblas::HetrdProfile prof;
    agree_on(name, ctx, [&] {
      u = to_uplo(uplo);
      M = &dist_as<cpp_t<T>>(ctx, A);
      if (!opts) return;
      read_reduction_options(*opts, o, prof);
      if (const int pass = opts->pass; pass != MGBLAS_GEBRD_PASS_AUTO)
        MGBLAS_THROW(mgblas::BadArgument, "argument 'opts.pass' = ", pass,
                     ": must be MGBLAS_GEBRD_PASS_AUTO for a tridiagonal reduction");
    });
    mgblas::hetrd_mgpu<cpp_t<T>>(u, *M, d, e, ptr(tau), o);
    if (o.profile)
      add_profile(opts->profile, prof.symv, prof.panel, prof.comm, prof.update, prof.total);
  });
}

template <typename T>
mgblas_status_t gebrd_entry(const char* name, mgblas_context_t ctx, mgblas_matrix_t A,
                            mgblas::real_type_t<cpp_t<T>>* d, mgblas::real_type_t<cpp_t<T>>* e,
                            T* tauq, T* taup,
                            const mgblas_reduction_options_t* opts) {
  return guard_compiled<cpp_t<T>>(name, [&](auto) {
    mgblas::DistMatrix<cpp_t<T>>* M = nullptr;
    mgblas::GebrdOptions o;
    mgblas::GebrdProfile prof;
    agree_on(name, ctx, [&] {
      M = &dist_as<cpp_t<T>>(ctx, A);
      if (!opts) return;
      read_reduction_options(*opts, o, prof);
      o.set_pass(to_pass(opts->pass));
    });
    mgblas::gebrd_mgpu<cpp_t<T>>(*M, d, e, ptr(tauq), ptr(taup), o);
    if (o.profile)
      add_profile(opts->profile, prof.products, prof.panel, prof.comm, prof.update, prof.total);
  });
}

}  // namespace

extern "C" {

const char* mgblas_last_error(void) { return last_error.c_str(); }
const char* mgblas_last_error_location(void) { return last_error_location.c_str(); }

const char* mgblas_status_string(mgblas_status_t s) {
  switch (s) {
    case MGBLAS_SUCCESS: return "success";
    case MGBLAS_ERROR_BAD_ARGUMENT: return "bad argument";
    case MGBLAS_ERROR_DIMENSION_MISMATCH: return "dimension mismatch";
    case MGBLAS_ERROR_NOT_COMPILED: return "not compiled in this build";
    case MGBLAS_ERROR_NOT_IMPLEMENTED: return "not implemented";
    case MGBLAS_ERROR_CUDA: return "CUDA error";
    case MGBLAS_ERROR_CUBLAS: return "cuBLAS error";
    case MGBLAS_ERROR_NCCL: return "NCCL error";
    case MGBLAS_ERROR_MPI: return "MPI error";
    case MGBLAS_ERROR_REMOTE: return "error on another rank";
    case MGBLAS_ERROR_ALLOCATION: return "allocation failed";
    case MGBLAS_ERROR_INTERNAL: return "internal error";
    case MGBLAS_ERROR_TIMEOUT: return "timed out waiting for other ranks";
  }
  return "unknown status";
}

const char* mgblas_version(void) { return MGBLAS_VERSION_STRING; }

mgblas_status_t mgblas_context_create_comm(const void* comm, mgblas_backend_t backend,
                                           int host_devices, mgblas_context_t* ctx) {
  return guard([&] {
    MGBLAS_CHECK_PTR(ctx, "ctx", true);
    mgblas::ContextOptions opts;
    if (backend == MGBLAS_BACKEND_HOST) opts.backend = mgblas::BackendChoice::Host;
    else if (backend == MGBLAS_BACKEND_CUDA) opts.backend = mgblas::BackendChoice::Cuda;
    else if (backend != MGBLAS_BACKEND_AUTO)
      MGBLAS_THROW(mgblas::BadArgument, "argument 'backend' = ", static_cast<int>(backend),
                   ": must be MGBLAS_BACKEND_AUTO, _HOST or _CUDA");
    opts.host_devices = host_devices > 0 ? host_devices : 0;
    auto handle = std::make_unique<mgblas_context_s>();
    if (!comm) {
      handle->ctx = mgblas::Context::create(opts);
    } else {
#if MGBLAS_HAVE_MPI
      handle->ctx = mgblas::Context::create(
          mgblas::Communicator(*static_cast<const MPI_Comm*>(comm)), opts);
#else
      MGBLAS_THROW(mgblas::NotCompiled, "argument 'comm' is not NULL but this build of "
                   "mgblas has no MPI (MGBLAS_ENABLE_MPI=OFF)");
#endif
    }
    for (int d = 0; d < handle->ctx->num_devices(); ++d)
      handle->devices.push_back(std::make_unique<mgblas_device_s>(&handle->ctx->device(d)));
    std::lock_guard lock(registry().mutex);
    registry().contexts.insert(handle.get());
    for (const auto& dev : handle->devices) registry().devices.insert(dev.get());
    *ctx = handle.release();
  });
}

mgblas_status_t mgblas_context_create_ex(mgblas_backend_t backend, int host_devices,
                                         mgblas_context_t* ctx) {
  return mgblas_context_create_comm(nullptr, backend, host_devices, ctx);
}

mgblas_status_t mgblas_context_create(mgblas_context_t* ctx) {
  return mgblas_context_create_comm(nullptr, MGBLAS_BACKEND_AUTO, 0, ctx);
}

mgblas_status_t mgblas_context_destroy(mgblas_context_t ctx) {
  return guard([&] {
    if (!ctx) return;  // like free(NULL)
    context_of(ctx);
    {
      std::lock_guard lock(registry().mutex);
      registry().contexts.erase(ctx);
      for (const auto& dev : ctx->devices) registry().devices.erase(dev.get());
    }
    delete ctx;
  });
}

mgblas_status_t mgblas_context_num_devices(mgblas_context_t ctx, int* local, int* global) {
  return guard([&] {
    context_of(ctx);
    if (local) *local = ctx->ctx->num_devices();
    if (global) *global = ctx->ctx->global_num_devices();
  });
}

mgblas_status_t mgblas_context_device(mgblas_context_t ctx, int local_index, mgblas_device_t* dev) {
  return guard([&] {
    context_of(ctx);
    MGBLAS_CHECK_PTR(dev, "dev", true);
    const int n = ctx->ctx->num_devices();
    MGBLAS_CHECK_ARG(local_index >= 0 && local_index < n, "local_index", local_index, "in [0, ", n, ")");
    *dev = ctx->devices[static_cast<std::size_t>(local_index)].get();
  });
}

mgblas_status_t mgblas_device_is_gpu(mgblas_device_t dev, int* is_gpu) {
  return guard([&] {
    const mgblas::Device& device = device_of(dev);
    MGBLAS_CHECK_PTR(is_gpu, "is_gpu", true);
    *is_gpu = device.is_gpu() ? 1 : 0;
  });
}

mgblas_status_t mgblas_device_synchronize(mgblas_device_t dev) {
  return guard([&] {
    device_of(dev).synchronize();
  });
}

mgblas_status_t mgblas_malloc_device(mgblas_device_t dev, size_t bytes, void** ptr) {
  return guard([&] {
    const mgblas::Device& d = device_of(dev);
    MGBLAS_CHECK_PTR(ptr, "ptr", true);
    *ptr = mgblas::device_malloc(d, bytes);
  });
}

mgblas_status_t mgblas_free_device(mgblas_device_t dev, void* ptr) {
  return guard([&] { mgblas::device_free(device_of(dev), ptr); });
}

mgblas_status_t mgblas_memcpy(mgblas_device_t dev, void* dst, const void* src, size_t bytes) {
  return guard([&] {
    const mgblas::Device& d = device_of(dev);
    MGBLAS_CHECK_PTR(dst, "dst", bytes > 0);
    MGBLAS_CHECK_PTR(src, "src", bytes > 0);
    if (bytes > 0) mgblas::copy_2d(d, dst, bytes, src, bytes, bytes, 1);
  });
}

mgblas_status_t mgblas_memcpy_async(mgblas_device_t dev, void* dst, const void* src,
                                    size_t bytes) {
  return guard([&] {
    const mgblas::Device& d = device_of(dev);
    MGBLAS_CHECK_PTR(dst, "dst", bytes > 0);
    MGBLAS_CHECK_PTR(src, "src", bytes > 0);
    if (bytes > 0) mgblas::copy_2d(d, dst, bytes, src, bytes, bytes, 1, /*async=*/true);
  });
}

namespace {
// The precision argument of a matrix create call, checked (inside the agreement).
mgblas::DataType precision_of(mgblas_precision_t prec) {
  if (prec != MGBLAS_PREC_S && prec != MGBLAS_PREC_D && prec != MGBLAS_PREC_C &&
      prec != MGBLAS_PREC_Z)
    MGBLAS_THROW(mgblas::BadArgument, "argument 'prec' = ", static_cast<int>(prec),
                 ": must be MGBLAS_PREC_S, _D, _C or _Z");
  return mgblas::data_type_of_letter(static_cast<char>(prec), "prec");
}
void register_matrix(std::unique_ptr<mgblas_matrix_s> handle, mgblas_matrix_t* A) {
  std::lock_guard lock(registry().mutex);
  registry().matrices.insert(handle.get());
  *A = handle.release();
}
}  // namespace

mgblas_status_t mgblas_matrix_create(mgblas_context_t ctx, mgblas_precision_t prec, int64_t m,
                                     int64_t n, int64_t nb, mgblas_matrix_t* A) {
  return guard([&] {
    mgblas_context_s& c = context_of(ctx);
    // Everything that can fail on one rank (arguments, allocation) runs inside one
    // agreement, which also compares the sizes and the precision across ranks.
    mgblas::CallRecord rec("mgblas_matrix_create");
    rec.add("prec", prec).add("m", m).add("n", n).add("nb", nb);
    auto handle = std::make_unique<mgblas_matrix_s>();
    mgblas::agree(c.ctx->comm(), rec, [&] {
      MGBLAS_CHECK_PTR(A, "A", true);
      const mgblas::BlockCyclic1D layout(m, n, nb, c.ctx->global_num_devices());
      handle->type = precision_of(prec);
      mgblas::visit_scalar(handle->type, [&](auto tag) {
        using T = typename decltype(tag)::type;
        handle->m = std::make_unique<mgblas::DistMatrix<T>>(c.ctx, layout, mgblas::local_allocation);
      }, "mgblas_matrix_create");
    });
    register_matrix(std::move(handle), A);
  });
}

mgblas_status_t mgblas_matrix_create_row_tiled(mgblas_context_t ctx, mgblas_precision_t prec,
                                               int64_t m, int64_t n, int64_t tile,
                                               mgblas_matrix_t* A) {
  return guard([&] {
    mgblas_context_s& c = context_of(ctx);
    // The C arguments agree first; the matrix's constructor then agrees on its tiling
    // and allocation itself (a collective of its own).
    mgblas::CallRecord rec("mgblas_matrix_create_row_tiled");
    rec.add("prec", prec).add("m", m).add("n", n).add("tile", tile);
    auto handle = std::make_unique<mgblas_matrix_s>();
    std::optional<mgblas::RowTiling> tiling;
    mgblas::agree(c.ctx->comm(), rec, [&] {
      MGBLAS_CHECK_PTR(A, "A", true);
      tiling.emplace(m, c.ctx->global_num_devices(), tile);
      handle->type = precision_of(prec);
      mgblas::visit_scalar(handle->type, [](auto) {}, "mgblas_matrix_create_row_tiled");
    });
    mgblas::visit_scalar(handle->type, [&](auto tag) {
      using T = typename decltype(tag)::type;
      handle->m = std::make_unique<mgblas::RowTiledMatrix<T>>(c.ctx, *tiling, n);
    }, "mgblas_matrix_create_row_tiled");
    register_matrix(std::move(handle), A);
  });
}

mgblas_status_t mgblas_matrix_destroy(mgblas_matrix_t A) {
  return guard([&] {
    if (!A) return;  // like free(NULL)
    check_matrix_handle(A);
    {
      std::lock_guard lock(registry().mutex);
      registry().matrices.erase(A);
    }
    delete A;
  });
}

mgblas_status_t mgblas_matrix_distribute(mgblas_context_t ctx, mgblas_matrix_t A,
                                         const void* host, int64_t lda, int root) {
  return guard([&] {
    agree_on("mgblas_matrix_distribute", ctx, [&] { matrix_of(ctx, A); });
    std::visit([&](auto& M) {
      using T = typename held_of<decltype(M)>::type;
      M->distribute(static_cast<const T*>(host), lda, root);
    }, A->m);
  });
}

mgblas_status_t mgblas_matrix_collect(mgblas_context_t ctx, mgblas_matrix_t A, void* host,
                                      int64_t lda, int root) {
  return guard([&] {
    agree_on("mgblas_matrix_collect", ctx, [&] { matrix_of(ctx, A); });
    std::visit([&](auto& M) {
      using T = typename held_of<decltype(M)>::type;
      M->collect(static_cast<T*>(host), lda, root);
    }, A->m);
  });
}

// MGBLAS_C_PARAMS_ (a, b) -> a, b: parameter and argument lists travel in parentheses.
#define MGBLAS_C_PARAMS_(...) __VA_ARGS__

// A single-device entry and its _async form: the _async form converts the arguments and
// runs CALL on the queue q (the given stream, or the device's own); the plain form is
// the _async form on the device's own stream.
#define MGBLAS_C_SINGLE_(NAME, T, PARAMS, ARGS, CALL)                                       \
  mgblas_status_t NAME##_async(mgblas_device_t dev, void* stream, MGBLAS_C_PARAMS_ PARAMS) { \
    return guard_compiled<cpp_t<T>>(#NAME, [&](auto) {                                      \
      const mgblas::Queue q = queue_of(dev, stream);                                         \
      CALL;                                                                                  \
    });                                                                                      \
  }                                                                                          \
  mgblas_status_t NAME(mgblas_device_t dev, MGBLAS_C_PARAMS_ PARAMS) {                       \
    return NAME##_async(dev, nullptr, MGBLAS_C_PARAMS_ ARGS);                               \
  }

// symv or hemv (OP) and its _offset form: the same arguments, the C++ entry of the name.
#define MGBLAS_C_SYMV_LIKE_(p, T, OP)                                                        \
  MGBLAS_C_SINGLE_(mgblas_##p##OP, T,                                                          \
      (mgblas_uplo_t uplo, int64_t n, T alpha, const T* A, int64_t lda, const T* x,            \
       int64_t incx, T beta, T* y, int64_t incy),                                              \
      (uplo, n, alpha, A, lda, x, incx, beta, y, incy),                                        \
      mgblas::OP(q, to_uplo(uplo), n, val(alpha), ptr(A), lda, ptr(x), incx, val(beta),       \
                 ptr(y), incy))                                                                \
  MGBLAS_C_SINGLE_(mgblas_##p##OP##_offset, T,                                                 \
      (mgblas_uplo_t uplo, int64_t n, T alpha, const T* A, int64_t lda, int64_t off,           \
       const T* x, int64_t incx, T beta, T* y, int64_t incy),                                  \
      (uplo, n, alpha, A, lda, off, x, incx, beta, y, incy),                                   \
      mgblas::OP##_offset(q, to_uplo(uplo), n, val(alpha), ptr(A), lda, off, ptr(x), incx,    \
                          val(beta), ptr(y), incy))

#define MGBLAS_C_DEFINE_LEVEL2(p, T)                                                          \
  MGBLAS_C_SINGLE_(mgblas_##p##gemv, T,                                                        \
      (mgblas_op_t op, int64_t m, int64_t n, T alpha, const T* A, int64_t lda, const T* x,     \
       int64_t incx, T beta, T* y, int64_t incy),                                              \
      (op, m, n, alpha, A, lda, x, incx, beta, y, incy),                                       \
      mgblas::gemv(q, to_op(op), m, n, val(alpha), ptr(A), lda, ptr(x), incx, val(beta),      \
                   ptr(y), incy))                                                              \
  MGBLAS_C_SINGLE_(mgblas_##p##gemv_offset, T,                                                 \
      (mgblas_op_t op, int64_t m, int64_t n, T alpha, const T* A, int64_t lda,                 \
       int64_t row_off, int64_t col_off, const T* x, int64_t incx, T beta, T* y,               \
       int64_t incy),                                                                          \
      (op, m, n, alpha, A, lda, row_off, col_off, x, incx, beta, y, incy),                     \
      mgblas::gemv_offset(q, to_op(op), m, n, val(alpha), ptr(A), lda, row_off, col_off,      \
                          ptr(x), incx, val(beta), ptr(y), incy))                              \
  MGBLAS_C_SYMV_LIKE_(p, T, symv)                                                              \
  MGBLAS_C_SYMV_LIKE_(p, T, hemv)

#define MGBLAS_C_DEFINE_LEVEL3(p, T)                                                          \
  MGBLAS_C_SINGLE_(mgblas_##p##gemm, T,                                                        \
      (mgblas_op_t opA, mgblas_op_t opB, int64_t m, int64_t n, int64_t k, T alpha, const T* A, \
       int64_t lda, const T* B, int64_t ldb, T beta, T* C, int64_t ldc),                       \
      (opA, opB, m, n, k, alpha, A, lda, B, ldb, beta, C, ldc),                                \
      mgblas::gemm(q, to_op(opA, "opA"), to_op(opB, "opB"), m, n, k, val(alpha), ptr(A), lda, \
                   ptr(B), ldb, val(beta), ptr(C), ldc))                                       \
  MGBLAS_C_SINGLE_(mgblas_##p##tsgemm, T,                                                      \
      (mgblas_op_t opA, mgblas_op_t opB, int64_t m, int64_t n, int64_t k, T alpha, const T* A, \
       int64_t lda, const T* B, int64_t ldb, T beta, T* C, int64_t ldc),                       \
      (opA, opB, m, n, k, alpha, A, lda, B, ldb, beta, C, ldc),                                \
      mgblas::tsgemm(q, to_op(opA, "opA"), to_op(opB, "opB"), m, n, k, val(alpha), ptr(A),    \
                     lda, ptr(B), ldb, val(beta), ptr(C), ldc))                                \
  MGBLAS_C_SINGLE_(mgblas_##p##gemm_batched_strided, T,                                        \
      (mgblas_op_t opA, mgblas_op_t opB, int64_t m, int64_t n, int64_t k, T alpha, const T* A, \
       int64_t lda, int64_t strideA, const T* B, int64_t ldb, int64_t strideB, T beta, T* C,   \
       int64_t ldc, int64_t strideC, int64_t batch),                                           \
      (opA, opB, m, n, k, alpha, A, lda, strideA, B, ldb, strideB, beta, C, ldc, strideC,      \
       batch),                                                                                 \
      mgblas::gemm_batched_strided(q, to_op(opA, "opA"), to_op(opB, "opB"), m, n, k,          \
                                   val(alpha), ptr(A), lda, strideA, ptr(B), ldb, strideB,     \
                                   val(beta), ptr(C), ldc, strideC, batch))                    \
  MGBLAS_C_SINGLE_(mgblas_##p##gemm_batched, T,                                                \
      (mgblas_op_t opA, mgblas_op_t opB, int64_t m, int64_t n, int64_t k, T alpha,             \
       const T* const* Aarray, int64_t lda, const T* const* Barray, int64_t ldb, T beta,       \
       T* const* Carray, int64_t ldc, int64_t batch),                                          \
      (opA, opB, m, n, k, alpha, Aarray, lda, Barray, ldb, beta, Carray, ldc, batch),          \
      mgblas::gemm_batched(q, to_op(opA, "opA"), to_op(opB, "opB"), m, n, k, val(alpha),      \
                           ptrs(Aarray), lda, ptrs(Barray), ldb, val(beta), ptrs(Carray), ldc, \
                           batch))                                                             \
  MGBLAS_C_SINGLE_(mgblas_##p##gemm_vbatched, T,                                               \
      (mgblas_op_t opA, mgblas_op_t opB, const int64_t* m, const int64_t* n, const int64_t* k, \
       T alpha, const T* const* Aarray, const int64_t* lda, const T* const* Barray,            \
       const int64_t* ldb, T beta, T* const* Carray, const int64_t* ldc, int64_t batch,        \
       int64_t max_m, int64_t max_n, int64_t max_k),                                           \
      (opA, opB, m, n, k, alpha, Aarray, lda, Barray, ldb, beta, Carray, ldc, batch, max_m,    \
       max_n, max_k),                                                                          \
      mgblas::gemm_vbatched(q, to_op(opA, "opA"), to_op(opB, "opB"), m, n, k, val(alpha),     \
                            ptrs(Aarray), lda, ptrs(Barray), ldb, val(beta), ptrs(Carray),     \
                            ldc, batch, max_m, max_n, max_k))                                  \
  MGBLAS_C_SINGLE_(mgblas_##p##gemm_grouped, T,                                                \
      (int64_t group_count, const mgblas_op_t* opA, const mgblas_op_t* opB, const int64_t* m,  \
       const int64_t* n, const int64_t* k, const T* alpha, const T* const* Aarray,             \
       const int64_t* lda, const T* const* Barray, const int64_t* ldb, const T* beta,          \
       T* const* Carray, const int64_t* ldc, const int64_t* group_size),                       \
      (group_count, opA, opB, m, n, k, alpha, Aarray, lda, Barray, ldb, beta, Carray, ldc,     \
       group_size),                                                                            \
      const auto ea = to_ops(group_count, opA, "opA");                                         \
      const auto eb = to_ops(group_count, opB, "opB");                                         \
      mgblas::gemm_grouped(q, group_count, ea.data(), eb.data(), m, n, k, ptr(alpha),         \
                           ptrs(Aarray), lda, ptrs(Barray), ldb, ptr(beta), ptrs(Carray), ldc, \
                           group_size))

// The distributed entries: ctx, the handles and the enums are converted inside the
// ranks' agreement over ctx (agree_on), then the C++ operation runs its own.
#define MGBLAS_C_DIST_ENTRY_(NAME, T, ENUM_T, to_enum, ENUM, PARAMS, CALL)                  \
  mgblas_status_t NAME(mgblas_context_t ctx, ENUM_T ENUM, T alpha, mgblas_matrix_t A,       \
                       MGBLAS_C_PARAMS_ PARAMS) {                                           \
    return guard_compiled<cpp_t<T>>(#NAME, [&](auto) {                                     \
      decltype(to_enum(ENUM)) e{};                                                          \
      mgblas::DistMatrix<cpp_t<T>>* M = nullptr;                                            \
      agree_on(#NAME, ctx, [&] {                                                            \
        e = to_enum(ENUM);                                                                  \
        M = &dist_as<cpp_t<T>>(ctx, A);                                                     \
      });                                                                                   \
      CALL;                                                                                 \
    });                                                                                     \
  }
#define MGBLAS_C_DEFINE_DIST(p, T)                                                             \
  MGBLAS_C_DIST_ENTRY_(mgblas_##p##gemv_mgpu, T, mgblas_op_t, to_op, op,                       \
                       (const T* x, T beta, T* y),                                             \
                       mgblas::gemv_mgpu(e, val(alpha), *M, ptr(x), val(beta), ptr(y)))        \
  MGBLAS_C_DIST_ENTRY_(mgblas_##p##symv_mgpu, T, mgblas_uplo_t, to_uplo, uplo,                 \
                       (const T* x, T beta, T* y),                                             \
                       mgblas::symv_mgpu(e, val(alpha), *M, ptr(x), val(beta), ptr(y)))        \
  MGBLAS_C_DIST_ENTRY_(mgblas_##p##hemv_mgpu, T, mgblas_uplo_t, to_uplo, uplo,                 \
                       (const T* x, T beta, T* y),                                             \
                       mgblas::hemv_mgpu(e, val(alpha), *M, ptr(x), val(beta), ptr(y)))        \
  MGBLAS_C_DIST_ENTRY_(mgblas_##p##gemv_mgpu_offset, T, mgblas_op_t, to_op, op,                \
                       (int64_t i0, int64_t j0, const T* x, T beta, T* y),                     \
                       mgblas::gemv_mgpu_offset(e, val(alpha), *M, i0, j0, ptr(x), val(beta),  \
                                                ptr(y)))                                       \
  MGBLAS_C_DIST_ENTRY_(mgblas_##p##symv_mgpu_offset, T, mgblas_uplo_t, to_uplo, uplo,          \
                       (int64_t off, const T* x, T beta, T* y),                                \
                       mgblas::symv_mgpu_offset(e, val(alpha), *M, off, ptr(x), val(beta),     \
                                                ptr(y)))                                       \
  MGBLAS_C_DIST_ENTRY_(mgblas_##p##hemv_mgpu_offset, T, mgblas_uplo_t, to_uplo, uplo,          \
                       (int64_t off, const T* x, T beta, T* y),                                \
                       mgblas::hemv_mgpu_offset(e, val(alpha), *M, off, ptr(x), val(beta),     \
                                                ptr(y)))

// Tall-skinny GEMM over row-tiled matrices and batched GEMM over all devices.
#define MGBLAS_C_DEFINE_DIST_GEMM(p, T)                                                        \
  mgblas_status_t mgblas_##p##tsgemm_mgpu(mgblas_context_t ctx, mgblas_op_t opB, T alpha,      \
                                          mgblas_matrix_t A, const T* B, int64_t ldb, T beta,  \
                                          mgblas_matrix_t C) {                                 \
    return guard_compiled<cpp_t<T>>("mgblas_" #p "tsgemm_mgpu", [&](auto) {                   \
      tiled_entry<cpp_t<T>>("mgblas_" #p "tsgemm_mgpu", ctx, opB, "opB", A, "A", C, "C",      \
                            [&](mgblas::Op e, auto& MA, auto& MC) {                            \
                              mgblas::tsgemm_mgpu<cpp_t<T>>(ctx->ctx, e, val(alpha), MA,       \
                                                            ptr(B), ldb, val(beta), MC);       \
                            });                                                                \
    });                                                                                        \
  }                                                                                            \
  mgblas_status_t mgblas_##p##tsgemm_mgpu_ksplit(mgblas_context_t ctx, mgblas_op_t opA,        \
                                                 T alpha, mgblas_matrix_t A,                   \
                                                 mgblas_matrix_t B, T beta, T* C,              \
                                                 int64_t ldc) {                                \
    return guard_compiled<cpp_t<T>>("mgblas_" #p "tsgemm_mgpu_ksplit", [&](auto) {            \
      tiled_entry<cpp_t<T>>("mgblas_" #p "tsgemm_mgpu_ksplit", ctx, opA, "opA", A, "A", B,    \
                            "B", [&](mgblas::Op e, auto& MA, auto& MB) {                       \
                              mgblas::tsgemm_mgpu<cpp_t<T>>(ctx->ctx, e, val(alpha), MA, MB,   \
                                                            val(beta), ptr(C), ldc);           \
                            });                                                                \
    });                                                                                        \
  }                                                                                            \
  mgblas_status_t mgblas_##p##gemm_batched_strided_mgpu(                                       \
      mgblas_context_t ctx, mgblas_op_t opA, mgblas_op_t opB, int64_t m, int64_t n, int64_t k, \
      T alpha, const T* A, int64_t lda, int64_t strideA, const T* B, int64_t ldb,              \
      int64_t strideB, T beta, T* C, int64_t ldc, int64_t strideC, int64_t batch) {            \
    return guard_compiled<cpp_t<T>>("mgblas_" #p "gemm_batched_strided_mgpu", [&](auto) {     \
      const auto [ea, eb] =                                                                    \
          agree_on_ops("mgblas_" #p "gemm_batched_strided_mgpu", ctx, opA, opB);               \
      mgblas::gemm_batched_strided_mgpu<cpp_t<T>>(ctx->ctx, ea, eb, m, n, k, val(alpha),       \
                                                  ptr(A), lda, strideA, ptr(B), ldb, strideB,  \
                                                  val(beta), ptr(C), ldc, strideC, batch);     \
    });                                                                                        \
  }                                                                                            \
  mgblas_status_t mgblas_##p##gemm_vbatched_mgpu(                                              \
      mgblas_context_t ctx, mgblas_op_t opA, mgblas_op_t opB, const int64_t* m,                \
      const int64_t* n, const int64_t* k, T alpha, const T* const* Aarray, const int64_t* lda, \
      const T* const* Barray, const int64_t* ldb, T beta, T* const* Carray,                    \
      const int64_t* ldc, int64_t batch) {                                                     \
    return guard_compiled<cpp_t<T>>("mgblas_" #p "gemm_vbatched_mgpu", [&](auto) {            \
      const auto [ea, eb] = agree_on_ops("mgblas_" #p "gemm_vbatched_mgpu", ctx, opA, opB);    \
      mgblas::gemm_vbatched_mgpu<cpp_t<T>>(ctx->ctx, ea, eb, m, n, k, val(alpha),              \
                                           ptrs(Aarray), lda, ptrs(Barray), ldb, val(beta),    \
                                           ptrs(Carray), ldc, batch);                          \
    });                                                                                        \
  }                                                                                            \
  mgblas_status_t mgblas_##p##gemm_batched_strided_mgpu_local(                                 \
      mgblas_context_t ctx, mgblas_op_t opA, mgblas_op_t opB, int64_t m, int64_t n, int64_t k, \
      T alpha, const T* const* A, int64_t lda, int64_t strideA, const T* const* B,             \
      int64_t ldb, int64_t strideB, T beta, T* const* C, int64_t ldc, int64_t strideC,         \
      int64_t batch) {                                                                         \
    return guard_compiled<cpp_t<T>>("mgblas_" #p "gemm_batched_strided_mgpu_local", [&](auto) { \
      /* one pointer per local device, each array checked on every rank */                    \
      const auto [ea, eb] = agree_on_ops("mgblas_" #p "gemm_batched_strided_mgpu_local", ctx,  \
                                         opA, opB, [&] {                                       \
                                           MGBLAS_CHECK_PTR(A, "A", true);                     \
                                           MGBLAS_CHECK_PTR(B, "B", true);                     \
                                           MGBLAS_CHECK_PTR(C, "C", true);                     \
                                         });                                                   \
      const auto nd = static_cast<std::size_t>(ctx->ctx->num_devices());                       \
      mgblas::gemm_batched_strided_mgpu_local<cpp_t<T>>(                                       \
          ctx->ctx, ea, eb, m, n, k, val(alpha), std::span(ptrs(A), nd), lda, strideA,         \
          std::span(ptrs(B), nd), ldb, strideB, val(beta), std::span(ptrs(C), nd), ldc,        \
          strideC, batch);                                                                     \
    });                                                                                        \
  }

MGBLAS_C_FOR_EACH_PRECISION(MGBLAS_C_DEFINE_LEVEL2)
MGBLAS_C_FOR_EACH_PRECISION(MGBLAS_C_DEFINE_LEVEL3)
MGBLAS_C_FOR_EACH_PRECISION(MGBLAS_C_DEFINE_DIST)
MGBLAS_C_FOR_EACH_PRECISION(MGBLAS_C_DEFINE_DIST_GEMM)

#define MGBLAS_C_DEFINE_REDUCTIONS_(p, trd, T, R)                                             \
  mgblas_status_t mgblas_##p##trd##_mgpu(mgblas_context_t ctx, mgblas_uplo_t uplo,            \
                                         mgblas_matrix_t A, R* d, R* e, T* tau) {             \
    return hetrd_entry<T>("mgblas_" #p #trd "_mgpu", ctx, uplo, A, d, e, tau, nullptr);      \
  }                                                                                           \
  mgblas_status_t mgblas_##p##trd##_mgpu_ex(mgblas_context_t ctx, mgblas_uplo_t uplo,         \
                                            mgblas_matrix_t A, R* d, R* e, T* tau,            \
                                            const mgblas_reduction_options_t* opts) {         \
    return hetrd_entry<T>("mgblas_" #p #trd "_mgpu_ex", ctx, uplo, A, d, e, tau, opts);      \
  }                                                                                           \
  mgblas_status_t mgblas_##p##gebrd_mgpu(mgblas_context_t ctx, mgblas_matrix_t A, R* d, R* e, \
                                         T* tauq, T* taup) {                                  \
    return gebrd_entry<T>("mgblas_" #p "gebrd_mgpu", ctx, A, d, e, tauq, taup, nullptr);     \
  }                                                                                           \
  mgblas_status_t mgblas_##p##gebrd_mgpu_ex(mgblas_context_t ctx, mgblas_matrix_t A, R* d,    \
                                            R* e, T* tauq, T* taup,                           \
                                            const mgblas_reduction_options_t* opts) {         \
    return gebrd_entry<T>("mgblas_" #p "gebrd_mgpu_ex", ctx, A, d, e, tauq, taup, opts);     \
  }
MGBLAS_C_DEFINE_REDUCTIONS_(s, sytrd, float, float)
MGBLAS_C_DEFINE_REDUCTIONS_(d, sytrd, double, double)
MGBLAS_C_DEFINE_REDUCTIONS_(c, hetrd, mgblas_complex_float, float)
MGBLAS_C_DEFINE_REDUCTIONS_(z, hetrd, mgblas_complex_double, double)
#undef MGBLAS_C_DEFINE_REDUCTIONS_

#define MGBLAS_C_DEFINE_STEBZ_(NAME, R)                                                      \
  mgblas_status_t NAME(mgblas_context_t ctx, int64_t n, const R* d, const R* e, R* w) {    \
    return guard_compiled<cpp_t<R>>(#NAME, [&](auto) {                                      \
      agree_on(#NAME, ctx, [] {});                                                           \
      mgblas::tridiag_eigenvalues_mgpu<R>(*ctx->ctx, n, d, e, w);                            \
    });                                                                                      \
  }
MGBLAS_C_DEFINE_STEBZ_(mgblas_sstebz_mgpu, float)
MGBLAS_C_DEFINE_STEBZ_(mgblas_dstebz_mgpu, double)
#undef MGBLAS_C_DEFINE_STEBZ_

}  // extern "C"
