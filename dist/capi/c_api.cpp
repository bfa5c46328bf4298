// SPDX-License-Identifier: BSD-3-Clause
// The C API: every entry converts its arguments, calls the C++ API inside guard(),
// and maps the exception class to a status code. Entries are generated per
// precision from the header's MGBLAS_C_FOR_EACH_PRECISION list: every C name exists in
// every build; those of a precision outside MGBLAS_PRECISIONS return
// MGBLAS_ERROR_NOT_COMPILED (guard_compiled).
#include <mgblas/mgblas.h>

#include <algorithm>
#include <memory>
#include <mutex>
#include <new>
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
#include "dist/lapack/stebz_mgpu.hpp"
#include "kernels/blas.hpp"
#include "layouts/dist_matrix.hpp"

// A device handle names one local device of a context; it stays valid while the
// context handle that gave it out lives.
struct mgblas_device_s {
  mgblas::Device* device;
};
struct mgblas_context_s {
  std::shared_ptr<mgblas::Context> ctx;
  std::vector<std::unique_ptr<mgblas_device_s>> devices;  // handed out, one per local device
};
// One alternative per precision of this build (mgblas::EnabledScalars).
template <typename... Ts>
using HeldMatrix = std::variant<std::unique_ptr<mgblas::DistMatrix<Ts>>...>;
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
void check_matrix_handle(mgblas_matrix_t A) {
  MGBLAS_CHECK_PTR(A, "A", true);
  if (!is_live(registry().matrices, A))
    MGBLAS_THROW(mgblas::BadArgument,
                 "argument 'A' is not a live matrix handle (destroyed, or never created)");
}
template <typename T>
mgblas::DistMatrix<T>& matrix_as(mgblas_matrix_t A) {
  check_matrix_handle(A);
  auto* held = std::get_if<std::unique_ptr<mgblas::DistMatrix<T>>>(&A->m);
  if (!held)
    MGBLAS_THROW(mgblas::BadArgument, "argument 'A' holds precision '",
                 mgblas::precision_letter(A->type), "' but this routine takes '",
                 mgblas::precision_letter<T>(), "'");
  return **held;
}

// The communicator a collective C entry agrees over: the matrix's context, or, for a
// handle that is null or not live, the only context alive (with several there is no
// way to know which ranks to tell, and the error stays on this rank).
const mgblas::Communicator* communicator_for(mgblas_matrix_t A) {
  std::lock_guard lock(registry().mutex);
  if (A && registry().matrices.count(A))
    return std::visit([](auto& M) { return &M->context().comm(); }, A->m);
  if (registry().contexts.size() == 1)
    return &static_cast<const mgblas_context_s*>(*registry().contexts.begin())->ctx->comm();
  return nullptr;
}

// Runs a collective C entry's conversions (handles, enums) inside the ranks'
// agreement, so that one rank's bad value raises on every rank before any rank enters
// the operation's own collectives; then the operation.
template <typename Convert>
void agree_on_handles(const char* what, mgblas_matrix_t A, Convert&& convert) {
  const mgblas::Communicator* comm = communicator_for(A);
  if (!comm) {
    convert();
    return;
  }
  mgblas::CallRecord rec(what);
  mgblas::agree(*comm, rec, convert);
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

mgblas_status_t mgblas_context_create_ex(mgblas_backend_t backend, int host_devices,
                                         mgblas_context_t* ctx) {
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
    handle->ctx = mgblas::Context::create(opts);
    for (int d = 0; d < handle->ctx->num_devices(); ++d)
      handle->devices.push_back(std::make_unique<mgblas_device_s>(&handle->ctx->device(d)));
    std::lock_guard lock(registry().mutex);
    registry().contexts.insert(handle.get());
    for (const auto& dev : handle->devices) registry().devices.insert(dev.get());
    *ctx = handle.release();
  });
}

mgblas_status_t mgblas_context_create(mgblas_context_t* ctx) {
  return mgblas_context_create_ex(MGBLAS_BACKEND_AUTO, 0, ctx);
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
      const auto local = mgblas::local_allocation;
      if (prec != MGBLAS_PREC_S && prec != MGBLAS_PREC_D && prec != MGBLAS_PREC_C &&
          prec != MGBLAS_PREC_Z)
        MGBLAS_THROW(mgblas::BadArgument, "argument 'prec' = ", static_cast<int>(prec),
                     ": must be MGBLAS_PREC_S, _D, _C or _Z");
      handle->type = mgblas::data_type_of_letter(static_cast<char>(prec), "prec");
      mgblas::visit_scalar(handle->type, [&](auto tag) {
        using T = typename decltype(tag)::type;
        handle->m = std::make_unique<mgblas::DistMatrix<T>>(c.ctx, layout, local);
      }, "mgblas_matrix_create");
    });
    std::lock_guard lock(registry().mutex);
    registry().matrices.insert(handle.get());
    *A = handle.release();
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

mgblas_status_t mgblas_matrix_distribute(mgblas_matrix_t A, const void* host, int64_t lda, int root) {
  return guard([&] {
    agree_on_handles("mgblas_matrix_distribute", A, [&] { check_matrix_handle(A); });
    std::visit([&](auto& M) {
      using T = std::remove_cvref_t<decltype(*M->local(0))>;
      M->distribute(static_cast<const T*>(host), lda, root);
    }, A->m);
  });
}

mgblas_status_t mgblas_matrix_collect(mgblas_matrix_t A, void* host, int64_t lda, int root) {
  return guard([&] {
    agree_on_handles("mgblas_matrix_collect", A, [&] { check_matrix_handle(A); });
    std::visit([&](auto& M) {
      using T = std::remove_cvref_t<decltype(*M->local(0))>;
      M->collect(static_cast<T*>(host), lda, root);
    }, A->m);
  });
}


#define MGBLAS_C_DEFINE_LEVEL2(p, T)                                                          \
  mgblas_status_t mgblas_##p##gemv(mgblas_device_t dev, mgblas_op_t op, int64_t m, int64_t n,  \
                                   T alpha, const T* A, int64_t lda, const T* x, int64_t incx, \
                                   T beta, T* y, int64_t incy) {                               \
    return guard_compiled<cpp_t<T>>(__func__, [&](auto) {                                     \
      mgblas::gemv(mgblas::Queue(device_of(dev)), to_op(op), m, n, val(alpha), ptr(A), lda,   \
                   ptr(x), incx, val(beta), ptr(y), incy);                                     \
    });                                                                                        \
  }                                                                                            \
  mgblas_status_t mgblas_##p##gemv_async(mgblas_device_t dev, cudaStream_t stream,             \
                                         mgblas_op_t op, int64_t m, int64_t n, T alpha,        \
                                         const T* A, int64_t lda, const T* x, int64_t incx,    \
                                         T beta, T* y, int64_t incy) {                         \
    return guard_compiled<cpp_t<T>>(__func__, [&](auto) {                                     \
      mgblas::gemv(mgblas::Queue(device_of(dev), stream), to_op(op), m, n, val(alpha),       \
                   ptr(A), lda, ptr(x), incx, val(beta), ptr(y), incy);                        \
    });                                                                                        \
  }                                                                                            \
  mgblas_status_t mgblas_##p##gemv_offset(mgblas_device_t dev, mgblas_op_t op, int64_t m,      \
                                          int64_t n, T alpha, const T* A, int64_t lda,         \
                                          int64_t row_off, int64_t col_off, const T* x,        \
                                          int64_t incx, T beta, T* y, int64_t incy) {          \
    return guard_compiled<cpp_t<T>>(__func__, [&](auto) {                                     \
      mgblas::gemv_offset(mgblas::Queue(device_of(dev)), to_op(op), m, n, val(alpha),        \
                          ptr(A), lda, row_off, col_off, ptr(x), incx, val(beta), ptr(y),      \
                          incy);                                                               \
    });                                                                                        \
  }                                                                                            \
  mgblas_status_t mgblas_##p##symv(mgblas_device_t dev, mgblas_uplo_t uplo, int64_t n,         \
                                   T alpha, const T* A, int64_t lda, const T* x, int64_t incx, \
                                   T beta, T* y, int64_t incy) {                               \
    return guard_compiled<cpp_t<T>>(__func__, [&](auto) {                                     \
      mgblas::symv(mgblas::Queue(device_of(dev)), to_uplo(uplo), n, val(alpha), ptr(A), lda,  \
                   ptr(x), incx, val(beta), ptr(y), incy);                                     \
    });                                                                                        \
  }                                                                                            \
  mgblas_status_t mgblas_##p##symv_offset(mgblas_device_t dev, mgblas_uplo_t uplo, int64_t n,  \
                                          T alpha, const T* A, int64_t lda, int64_t off,       \
                                          const T* x, int64_t incx, T beta, T* y,              \
                                          int64_t incy) {                                      \
    return guard_compiled<cpp_t<T>>(__func__, [&](auto) {                                     \
      mgblas::symv_offset(mgblas::Queue(device_of(dev)), to_uplo(uplo), n, val(alpha),       \
                          ptr(A), lda, off, ptr(x), incx, val(beta), ptr(y), incy);            \
    });                                                                                        \
  }                                                                                            \
  mgblas_status_t mgblas_##p##hemv(mgblas_device_t dev, mgblas_uplo_t uplo, int64_t n,         \
                                   T alpha, const T* A, int64_t lda, const T* x, int64_t incx, \
                                   T beta, T* y, int64_t incy) {                               \
    return guard_compiled<cpp_t<T>>(__func__, [&](auto) {                                     \
      mgblas::hemv(mgblas::Queue(device_of(dev)), to_uplo(uplo), n, val(alpha), ptr(A), lda,  \
                   ptr(x), incx, val(beta), ptr(y), incy);                                     \
    });                                                                                        \
  }                                                                                            \
  mgblas_status_t mgblas_##p##hemv_offset(mgblas_device_t dev, mgblas_uplo_t uplo, int64_t n,  \
                                          T alpha, const T* A, int64_t lda, int64_t off,       \
                                          const T* x, int64_t incx, T beta, T* y,              \
                                          int64_t incy) {                                      \
    return guard_compiled<cpp_t<T>>(__func__, [&](auto) {                                     \
      mgblas::hemv_offset(mgblas::Queue(device_of(dev)), to_uplo(uplo), n, val(alpha),       \
                          ptr(A), lda, off, ptr(x), incx, val(beta), ptr(y), incy);            \
    });                                                                                        \
  }

#define MGBLAS_C_DEFINE_LEVEL3(p, T)                                                          \
  mgblas_status_t mgblas_##p##gemm(mgblas_device_t dev, mgblas_op_t opA, mgblas_op_t opB,      \
                                   int64_t m, int64_t n, int64_t k, T alpha, const T* A,       \
                                   int64_t lda, const T* B, int64_t ldb, T beta, T* C,         \
                                   int64_t ldc) {                                              \
    return guard_compiled<cpp_t<T>>(__func__, [&](auto) {                                     \
      mgblas::gemm(mgblas::Queue(device_of(dev)), to_op(opA, "opA"), to_op(opB, "opB"), m, n, k,           \
                   val(alpha), ptr(A), lda, ptr(B), ldb, val(beta), ptr(C), ldc);              \
    });                                                                                        \
  }                                                                                            \
  mgblas_status_t mgblas_##p##tsgemm(mgblas_device_t dev, mgblas_op_t opA, mgblas_op_t opB,    \
                                     int64_t m, int64_t n, int64_t k, T alpha, const T* A,     \
                                     int64_t lda, const T* B, int64_t ldb, T beta, T* C,       \
                                     int64_t ldc) {                                            \
    return guard_compiled<cpp_t<T>>(__func__, [&](auto) {                                     \
      mgblas::tsgemm(mgblas::Queue(device_of(dev)), to_op(opA, "opA"), to_op(opB, "opB"), m, n, k,         \
                     val(alpha), ptr(A), lda, ptr(B), ldb, val(beta), ptr(C), ldc);            \
    });                                                                                        \
  }                                                                                            \
  mgblas_status_t mgblas_##p##gemm_batched_strided(                                            \
      mgblas_device_t dev, mgblas_op_t opA, mgblas_op_t opB, int64_t m, int64_t n, int64_t k,  \
      T alpha, const T* A, int64_t lda, int64_t strideA, const T* B, int64_t ldb,              \
      int64_t strideB, T beta, T* C, int64_t ldc, int64_t strideC, int64_t batch) {            \
    return guard_compiled<cpp_t<T>>(__func__, [&](auto) {                                     \
      mgblas::gemm_batched_strided(mgblas::Queue(device_of(dev)), to_op(opA, "opA"), to_op(opB, "opB"), m, \
                                   n, k, val(alpha), ptr(A), lda, strideA, ptr(B), ldb,        \
                                   strideB, val(beta), ptr(C), ldc, strideC, batch);           \
    });                                                                                        \
  }                                                                                            \
  mgblas_status_t mgblas_##p##gemm_batched(mgblas_device_t dev, mgblas_op_t opA,               \
                                           mgblas_op_t opB, int64_t m, int64_t n, int64_t k,   \
                                           T alpha, const T* const* Aarray, int64_t lda,       \
                                           const T* const* Barray, int64_t ldb, T beta,        \
                                           T* const* Carray, int64_t ldc, int64_t batch) {     \
    return guard_compiled<cpp_t<T>>(__func__, [&](auto) {                                     \
      mgblas::gemm_batched(mgblas::Queue(device_of(dev)), to_op(opA, "opA"), to_op(opB, "opB"), m, n, k,   \
                           val(alpha), ptrs(Aarray), lda, ptrs(Barray), ldb, val(beta),        \
                           ptrs(Carray), ldc, batch);                                          \
    });                                                                                        \
  }

// The distributed entries: the handle and the enum are converted inside the ranks'
// agreement (agree_on_handles), then the C++ operation runs its own.
#define MGBLAS_C_DIST_ENTRY_(NAME, T, ENUM_T, to_enum, ENUM, CALL, ...)                       \
  mgblas_status_t NAME(mgblas_matrix_t A, ENUM_T ENUM, T alpha, __VA_ARGS__) {                \
    return guard_compiled<cpp_t<T>>(__func__, [&](auto) {                                    \
      decltype(to_enum(ENUM)) e{};                                                            \
      mgblas::DistMatrix<cpp_t<T>>* M = nullptr;                                              \
      agree_on_handles(#NAME, A, [&] {                                                        \
        e = to_enum(ENUM);                                                                    \
        M = &matrix_as<cpp_t<T>>(A);                                                          \
      });                                                                                     \
      CALL;                                                                                   \
    });                                                                                       \
  }
#define MGBLAS_C_DEFINE_DIST(p, T)                                                             \
  MGBLAS_C_DIST_ENTRY_(mgblas_##p##gemv_mgpu, T, mgblas_op_t, to_op, op,                       \
                       mgblas::gemv_mgpu(e, val(alpha), *M, ptr(x), val(beta), ptr(y)),        \
                       const T* x, T beta, T* y)                                               \
  MGBLAS_C_DIST_ENTRY_(mgblas_##p##symv_mgpu, T, mgblas_uplo_t, to_uplo, uplo,                 \
                       mgblas::symv_mgpu(e, val(alpha), *M, ptr(x), val(beta), ptr(y)),        \
                       const T* x, T beta, T* y)                                               \
  MGBLAS_C_DIST_ENTRY_(mgblas_##p##hemv_mgpu, T, mgblas_uplo_t, to_uplo, uplo,                 \
                       mgblas::hemv_mgpu(e, val(alpha), *M, ptr(x), val(beta), ptr(y)),        \
                       const T* x, T beta, T* y)                                               \
  MGBLAS_C_DIST_ENTRY_(mgblas_##p##gemv_mgpu_offset, T, mgblas_op_t, to_op, op,                \
                       mgblas::gemv_mgpu_offset(e, val(alpha), *M, i0, j0, ptr(x), val(beta),  \
                                                ptr(y)),                                       \
                       int64_t i0, int64_t j0, const T* x, T beta, T* y)                       \
  MGBLAS_C_DIST_ENTRY_(mgblas_##p##symv_mgpu_offset, T, mgblas_uplo_t, to_uplo, uplo,          \
                       mgblas::symv_mgpu_offset(e, val(alpha), *M, off, ptr(x), val(beta),     \
                                                ptr(y)),                                       \
                       int64_t off, const T* x, T beta, T* y)                                  \
  MGBLAS_C_DIST_ENTRY_(mgblas_##p##hemv_mgpu_offset, T, mgblas_uplo_t, to_uplo, uplo,          \
                       mgblas::hemv_mgpu_offset(e, val(alpha), *M, off, ptr(x), val(beta),     \
                                                ptr(y)),                                       \
                       int64_t off, const T* x, T beta, T* y)

MGBLAS_C_FOR_EACH_PRECISION(MGBLAS_C_DEFINE_LEVEL2)
MGBLAS_C_FOR_EACH_PRECISION(MGBLAS_C_DEFINE_LEVEL3)
MGBLAS_C_FOR_EACH_PRECISION(MGBLAS_C_DEFINE_DIST)


#define MGBLAS_C_DEFINE_HETRD_(NAME, T, R)                                                    \
  mgblas_status_t NAME(mgblas_matrix_t A, mgblas_uplo_t uplo, R* d, R* e, T* tau) {          \
    return guard_compiled<cpp_t<T>>(__func__, [&](auto) {                                    \
      mgblas::Uplo u{};                                                                       \
      mgblas::DistMatrix<cpp_t<T>>* M = nullptr;                                              \
      agree_on_handles(#NAME, A, [&] {                                                        \
        u = to_uplo(uplo);                                                                    \
        M = &matrix_as<cpp_t<T>>(A);                                                          \
      });                                                                                     \
      mgblas::hetrd_mgpu<cpp_t<T>>(u, *M, d, e, ptr(tau));                                    \
    });                                                                                       \
  }
MGBLAS_C_DEFINE_HETRD_(mgblas_ssytrd_mgpu, float, float)
MGBLAS_C_DEFINE_HETRD_(mgblas_dsytrd_mgpu, double, double)
MGBLAS_C_DEFINE_HETRD_(mgblas_chetrd_mgpu, mgblas_complex_float, float)
MGBLAS_C_DEFINE_HETRD_(mgblas_zhetrd_mgpu, mgblas_complex_double, double)
#undef MGBLAS_C_DEFINE_HETRD_

#define MGBLAS_C_DEFINE_GEBRD_(NAME, T, R)                                                    \
  mgblas_status_t NAME(mgblas_matrix_t A, R* d, R* e, T* tauq, T* taup) {                     \
    return guard_compiled<cpp_t<T>>(__func__, [&](auto) {                                    \
      mgblas::DistMatrix<cpp_t<T>>* M = nullptr;                                              \
      agree_on_handles(#NAME, A, [&] { M = &matrix_as<cpp_t<T>>(A); });                       \
      mgblas::gebrd_mgpu<cpp_t<T>>(*M, d, e, ptr(tauq), ptr(taup));                           \
    });                                                                                       \
  }
MGBLAS_C_DEFINE_GEBRD_(mgblas_sgebrd_mgpu, float, float)
MGBLAS_C_DEFINE_GEBRD_(mgblas_dgebrd_mgpu, double, double)
MGBLAS_C_DEFINE_GEBRD_(mgblas_cgebrd_mgpu, mgblas_complex_float, float)
MGBLAS_C_DEFINE_GEBRD_(mgblas_zgebrd_mgpu, mgblas_complex_double, double)
#undef MGBLAS_C_DEFINE_GEBRD_

#define MGBLAS_C_DEFINE_STEBZ_(NAME, R)                                                      \
  mgblas_status_t NAME(mgblas_context_t ctx, int64_t n, const R* d, const R* e, R* w) {    \
    return guard_compiled<cpp_t<R>>(__func__, [&](auto) {                                   \
      mgblas::tridiag_eigenvalues_mgpu<R>(*context_of(ctx).ctx, n, d, e, w);                 \
    });                                                                                      \
  }
MGBLAS_C_DEFINE_STEBZ_(mgblas_sstebz_mgpu, float)
MGBLAS_C_DEFINE_STEBZ_(mgblas_dstebz_mgpu, double)
#undef MGBLAS_C_DEFINE_STEBZ_

}  // extern "C"
