// SPDX-License-Identifier: BSD-3-Clause
// The C API: every entry converts its arguments, calls the C++ API inside guard(),
// and maps the exception class to a status code. Entries are generated per
// precision from the header's MGBLAS_C_FOR_EACH_PRECISION list.
#include "dist/capi/mgblas.h"

#include <memory>
#include <new>
#include <string>
#include <variant>

#include "core/config.hpp"
#include "core/context.hpp"
#include "dist/dist_blas.hpp"
#include "dist/lapack/gebrd_mgpu.hpp"
#include "dist/lapack/hetrd_mgpu.hpp"
#include "dist/lapack/stebz_mgpu.hpp"
#include "kernels/blas.hpp"
#include "layouts/dist_matrix.hpp"

struct mgblas_context_s {
  std::shared_ptr<mgblas::Context> ctx;
};
struct mgblas_matrix_s {
  std::variant<std::unique_ptr<mgblas::DistMatrix<float>>, std::unique_ptr<mgblas::DistMatrix<double>>,
               std::unique_ptr<mgblas::DistMatrix<mgblas::scomplex>>,
               std::unique_ptr<mgblas::DistMatrix<mgblas::zcomplex>>>
      m;
};

namespace {

thread_local std::string last_error;

template <typename F>
mgblas_status_t guard(F&& f) noexcept {
  try {
    f();
    last_error.clear();
    return MGBLAS_SUCCESS;
  } catch (const mgblas::BadArgument& e) {
    last_error = e.what();
    return MGBLAS_ERROR_BAD_ARGUMENT;
  } catch (const mgblas::DimensionMismatch& e) {
    last_error = e.what();
    return MGBLAS_ERROR_DIMENSION_MISMATCH;
  } catch (const mgblas::NotCompiled& e) {
    last_error = e.what();
    return MGBLAS_ERROR_NOT_COMPILED;
  } catch (const mgblas::NotImplemented& e) {
    last_error = e.what();
    return MGBLAS_ERROR_NOT_IMPLEMENTED;
  } catch (const mgblas::CudaError& e) {
    last_error = e.what();
    return MGBLAS_ERROR_CUDA;
  } catch (const mgblas::CublasError& e) {
    last_error = e.what();
    return MGBLAS_ERROR_CUBLAS;
  } catch (const mgblas::NcclError& e) {
    last_error = e.what();
    return MGBLAS_ERROR_NCCL;
  } catch (const mgblas::MpiError& e) {
    last_error = e.what();
    return MGBLAS_ERROR_MPI;
  } catch (const mgblas::RemoteError& e) {
    last_error = e.what();
    return MGBLAS_ERROR_REMOTE;
  } catch (const std::bad_alloc&) {
    last_error = "out of memory";
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

mgblas::Op to_op(mgblas_op_t op) {
  if (op != MGBLAS_OP_N && op != MGBLAS_OP_T && op != MGBLAS_OP_C)
    MGBLAS_THROW(mgblas::BadArgument, "argument 'op' = ", static_cast<int>(op), ": must be 'N', 'T' or 'C'");
  return static_cast<mgblas::Op>(op);
}
mgblas::Uplo to_uplo(mgblas_uplo_t uplo) {
  if (uplo != MGBLAS_UPLO_LOWER && uplo != MGBLAS_UPLO_UPPER)
    MGBLAS_THROW(mgblas::BadArgument, "argument 'uplo' = ", static_cast<int>(uplo), ": must be 'L' or 'U'");
  return static_cast<mgblas::Uplo>(uplo);
}
template <typename T>
mgblas::DistMatrix<T>& matrix_as(mgblas_matrix_t A) {
  MGBLAS_CHECK_PTR(A, "A", true);
  auto* held = std::get_if<std::unique_ptr<mgblas::DistMatrix<T>>>(&A->m);
  if (!held)
    MGBLAS_THROW(mgblas::BadArgument, "argument 'A': matrix precision does not match the routine's ('",
                 mgblas::precision_letter<T>(), "')");
  return **held;
}

}  // namespace

extern "C" {

const char* mgblas_last_error(void) { return last_error.c_str(); }

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
    *ctx = handle.release();
  });
}

mgblas_status_t mgblas_context_create(mgblas_context_t* ctx) {
  return mgblas_context_create_ex(MGBLAS_BACKEND_AUTO, 0, ctx);
}

mgblas_status_t mgblas_context_destroy(mgblas_context_t ctx) {
  return guard([&] { delete ctx; });
}

mgblas_status_t mgblas_context_num_devices(mgblas_context_t ctx, int* local, int* global) {
  return guard([&] {
    MGBLAS_CHECK_PTR(ctx, "ctx", true);
    if (local) *local = ctx->ctx->num_devices();
    if (global) *global = ctx->ctx->global_num_devices();
  });
}

mgblas_status_t mgblas_context_device(mgblas_context_t ctx, int local_index, mgblas_device_t* dev) {
  return guard([&] {
    MGBLAS_CHECK_PTR(ctx, "ctx", true);
    MGBLAS_CHECK_PTR(dev, "dev", true);
    const int n = ctx->ctx->num_devices();
    MGBLAS_CHECK_ARG(local_index >= 0 && local_index < n, "local_index", local_index, "in [0, ", n, ")");
    // A device handle is the borrowed Device pointer itself (mgblas_device_s is
    // never defined); it lives as long as its context.
    *dev = reinterpret_cast<mgblas_device_t>(&ctx->ctx->device(local_index));
  });
}

mgblas_status_t mgblas_device_is_gpu(mgblas_device_t dev, int* is_gpu) {
  return guard([&] {
    MGBLAS_CHECK_PTR(dev, "dev", true);
    MGBLAS_CHECK_PTR(is_gpu, "is_gpu", true);
    *is_gpu = reinterpret_cast<mgblas::Device*>(dev)->is_gpu() ? 1 : 0;
  });
}

mgblas_status_t mgblas_device_synchronize(mgblas_device_t dev) {
  return guard([&] {
    MGBLAS_CHECK_PTR(dev, "dev", true);
    reinterpret_cast<mgblas::Device*>(dev)->synchronize();
  });
}

mgblas_status_t mgblas_matrix_create(mgblas_context_t ctx, mgblas_precision_t prec, int64_t m,
                                     int64_t n, int64_t nb, mgblas_matrix_t* A) {
  return guard([&] {
    MGBLAS_CHECK_PTR(ctx, "ctx", true);
    MGBLAS_CHECK_PTR(A, "A", true);
    const mgblas::BlockCyclic1D layout(m, n, nb, ctx->ctx->global_num_devices());
    auto handle = std::make_unique<mgblas_matrix_s>();
    switch (prec) {
      case MGBLAS_PREC_S: handle->m = std::make_unique<mgblas::DistMatrix<float>>(ctx->ctx, layout); break;
      case MGBLAS_PREC_D: handle->m = std::make_unique<mgblas::DistMatrix<double>>(ctx->ctx, layout); break;
      case MGBLAS_PREC_C: handle->m = std::make_unique<mgblas::DistMatrix<mgblas::scomplex>>(ctx->ctx, layout); break;
      case MGBLAS_PREC_Z: handle->m = std::make_unique<mgblas::DistMatrix<mgblas::zcomplex>>(ctx->ctx, layout); break;
      default:
        MGBLAS_THROW(mgblas::BadArgument, "argument 'prec' = ", static_cast<int>(prec),
                     ": must be MGBLAS_PREC_S, _D, _C or _Z");
    }
    *A = handle.release();
  });
}

mgblas_status_t mgblas_matrix_destroy(mgblas_matrix_t A) {
  return guard([&] { delete A; });
}

mgblas_status_t mgblas_matrix_distribute(mgblas_matrix_t A, const void* host, int64_t lda, int root) {
  return guard([&] {
    MGBLAS_CHECK_PTR(A, "A", true);
    std::visit([&](auto& M) {
      using T = std::remove_cvref_t<decltype(*M->local(0))>;
      M->distribute(static_cast<const T*>(host), lda, root);
    }, A->m);
  });
}

mgblas_status_t mgblas_matrix_collect(mgblas_matrix_t A, void* host, int64_t lda, int root) {
  return guard([&] {
    MGBLAS_CHECK_PTR(A, "A", true);
    std::visit([&](auto& M) {
      using T = std::remove_cvref_t<decltype(*M->local(0))>;
      M->collect(static_cast<T*>(host), lda, root);
    }, A->m);
  });
}

#define MGBLAS_DEV(dev) (reinterpret_cast<mgblas::Device*>(dev))

#define MGBLAS_C_DEFINE_LEVEL2(p, T)                                                          \
  mgblas_status_t mgblas_##p##gemv(mgblas_device_t dev, mgblas_op_t op, int64_t m, int64_t n,  \
                                   T alpha, const T* A, int64_t lda, const T* x, int64_t incx, \
                                   T beta, T* y, int64_t incy) {                               \
    return guard([&] {                                                                         \
      MGBLAS_CHECK_PTR(dev, "dev", true);                                                      \
      mgblas::gemv(mgblas::Queue(*MGBLAS_DEV(dev)), to_op(op), m, n, val(alpha), ptr(A), lda,   \
                   ptr(x), incx, val(beta), ptr(y), incy);                                     \
    });                                                                                        \
  }                                                                                            \
  mgblas_status_t mgblas_##p##gemv_async(mgblas_device_t dev, cudaStream_t stream,             \
                                         mgblas_op_t op, int64_t m, int64_t n, T alpha,        \
                                         const T* A, int64_t lda, const T* x, int64_t incx,    \
                                         T beta, T* y, int64_t incy) {                         \
    return guard([&] {                                                                         \
      MGBLAS_CHECK_PTR(dev, "dev", true);                                                      \
      mgblas::gemv(mgblas::Queue(*MGBLAS_DEV(dev), stream), to_op(op), m, n, val(alpha),       \
                   ptr(A), lda, ptr(x), incx, val(beta), ptr(y), incy);                        \
    });                                                                                        \
  }                                                                                            \
  mgblas_status_t mgblas_##p##gemv_offset(mgblas_device_t dev, mgblas_op_t op, int64_t m,      \
                                          int64_t n, T alpha, const T* A, int64_t lda,         \
                                          int64_t row_off, int64_t col_off, const T* x,        \
                                          int64_t incx, T beta, T* y, int64_t incy) {          \
    return guard([&] {                                                                         \
      MGBLAS_CHECK_PTR(dev, "dev", true);                                                      \
      mgblas::gemv_offset(mgblas::Queue(*MGBLAS_DEV(dev)), to_op(op), m, n, val(alpha),        \
                          ptr(A), lda, row_off, col_off, ptr(x), incx, val(beta), ptr(y),      \
                          incy);                                                               \
    });                                                                                        \
  }                                                                                            \
  mgblas_status_t mgblas_##p##symv(mgblas_device_t dev, mgblas_uplo_t uplo, int64_t n,         \
                                   T alpha, const T* A, int64_t lda, const T* x, int64_t incx, \
                                   T beta, T* y, int64_t incy) {                               \
    return guard([&] {                                                                         \
      MGBLAS_CHECK_PTR(dev, "dev", true);                                                      \
      mgblas::symv(mgblas::Queue(*MGBLAS_DEV(dev)), to_uplo(uplo), n, val(alpha), ptr(A), lda,  \
                   ptr(x), incx, val(beta), ptr(y), incy);                                     \
    });                                                                                        \
  }                                                                                            \
  mgblas_status_t mgblas_##p##symv_offset(mgblas_device_t dev, mgblas_uplo_t uplo, int64_t n,  \
                                          T alpha, const T* A, int64_t lda, int64_t off,       \
                                          const T* x, int64_t incx, T beta, T* y,              \
                                          int64_t incy) {                                      \
    return guard([&] {                                                                         \
      MGBLAS_CHECK_PTR(dev, "dev", true);                                                      \
      mgblas::symv_offset(mgblas::Queue(*MGBLAS_DEV(dev)), to_uplo(uplo), n, val(alpha),       \
                          ptr(A), lda, off, ptr(x), incx, val(beta), ptr(y), incy);            \
    });                                                                                        \
  }                                                                                            \
  mgblas_status_t mgblas_##p##hemv(mgblas_device_t dev, mgblas_uplo_t uplo, int64_t n,         \
                                   T alpha, const T* A, int64_t lda, const T* x, int64_t incx, \
                                   T beta, T* y, int64_t incy) {                               \
    return guard([&] {                                                                         \
      MGBLAS_CHECK_PTR(dev, "dev", true);                                                      \
      mgblas::hemv(mgblas::Queue(*MGBLAS_DEV(dev)), to_uplo(uplo), n, val(alpha), ptr(A), lda,  \
                   ptr(x), incx, val(beta), ptr(y), incy);                                     \
    });                                                                                        \
  }                                                                                            \
  mgblas_status_t mgblas_##p##hemv_offset(mgblas_device_t dev, mgblas_uplo_t uplo, int64_t n,  \
                                          T alpha, const T* A, int64_t lda, int64_t off,       \
                                          const T* x, int64_t incx, T beta, T* y,              \
                                          int64_t incy) {                                      \
    return guard([&] {                                                                         \
      MGBLAS_CHECK_PTR(dev, "dev", true);                                                      \
      mgblas::hemv_offset(mgblas::Queue(*MGBLAS_DEV(dev)), to_uplo(uplo), n, val(alpha),       \
                          ptr(A), lda, off, ptr(x), incx, val(beta), ptr(y), incy);            \
    });                                                                                        \
  }

#define MGBLAS_C_DEFINE_LEVEL3(p, T)                                                          \
  mgblas_status_t mgblas_##p##gemm(mgblas_device_t dev, mgblas_op_t opA, mgblas_op_t opB,      \
                                   int64_t m, int64_t n, int64_t k, T alpha, const T* A,       \
                                   int64_t lda, const T* B, int64_t ldb, T beta, T* C,         \
                                   int64_t ldc) {                                              \
    return guard([&] {                                                                         \
      MGBLAS_CHECK_PTR(dev, "dev", true);                                                      \
      mgblas::gemm(mgblas::Queue(*MGBLAS_DEV(dev)), to_op(opA), to_op(opB), m, n, k,           \
                   val(alpha), ptr(A), lda, ptr(B), ldb, val(beta), ptr(C), ldc);              \
    });                                                                                        \
  }                                                                                            \
  mgblas_status_t mgblas_##p##tsgemm(mgblas_device_t dev, mgblas_op_t opA, mgblas_op_t opB,    \
                                     int64_t m, int64_t n, int64_t k, T alpha, const T* A,     \
                                     int64_t lda, const T* B, int64_t ldb, T beta, T* C,       \
                                     int64_t ldc) {                                            \
    return guard([&] {                                                                         \
      MGBLAS_CHECK_PTR(dev, "dev", true);                                                      \
      mgblas::tsgemm(mgblas::Queue(*MGBLAS_DEV(dev)), to_op(opA), to_op(opB), m, n, k,         \
                     val(alpha), ptr(A), lda, ptr(B), ldb, val(beta), ptr(C), ldc);            \
    });                                                                                        \
  }                                                                                            \
  mgblas_status_t mgblas_##p##gemm_batched_strided(                                            \
      mgblas_device_t dev, mgblas_op_t opA, mgblas_op_t opB, int64_t m, int64_t n, int64_t k,  \
      T alpha, const T* A, int64_t lda, int64_t strideA, const T* B, int64_t ldb,              \
      int64_t strideB, T beta, T* C, int64_t ldc, int64_t strideC, int64_t batch) {            \
    return guard([&] {                                                                         \
      MGBLAS_CHECK_PTR(dev, "dev", true);                                                      \
      mgblas::gemm_batched_strided(mgblas::Queue(*MGBLAS_DEV(dev)), to_op(opA), to_op(opB), m, \
                                   n, k, val(alpha), ptr(A), lda, strideA, ptr(B), ldb,        \
                                   strideB, val(beta), ptr(C), ldc, strideC, batch);           \
    });                                                                                        \
  }                                                                                            \
  mgblas_status_t mgblas_##p##gemm_batched(mgblas_device_t dev, mgblas_op_t opA,               \
                                           mgblas_op_t opB, int64_t m, int64_t n, int64_t k,   \
                                           T alpha, const T* const* Aarray, int64_t lda,       \
                                           const T* const* Barray, int64_t ldb, T beta,        \
                                           T* const* Carray, int64_t ldc, int64_t batch) {     \
    return guard([&] {                                                                         \
      MGBLAS_CHECK_PTR(dev, "dev", true);                                                      \
      mgblas::gemm_batched(mgblas::Queue(*MGBLAS_DEV(dev)), to_op(opA), to_op(opB), m, n, k,   \
                           val(alpha), ptrs(Aarray), lda, ptrs(Barray), ldb, val(beta),        \
                           ptrs(Carray), ldc, batch);                                          \
    });                                                                                        \
  }

#define MGBLAS_C_DEFINE_DIST(p, T)                                                            \
  mgblas_status_t mgblas_##p##gemv_mgpu(mgblas_matrix_t A, mgblas_op_t op, T alpha,            \
                                        const T* x, T beta, T* y) {                            \
    return guard([&] {                                                                         \
      mgblas::gemv_mgpu(to_op(op), val(alpha), matrix_as<cpp_t<T>>(A), ptr(x), val(beta),      \
                        ptr(y));                                                               \
    });                                                                                        \
  }                                                                                            \
  mgblas_status_t mgblas_##p##symv_mgpu(mgblas_matrix_t A, mgblas_uplo_t uplo, T alpha,        \
                                        const T* x, T beta, T* y) {                            \
    return guard([&] {                                                                         \
      mgblas::symv_mgpu(to_uplo(uplo), val(alpha), matrix_as<cpp_t<T>>(A), ptr(x), val(beta),  \
                        ptr(y));                                                               \
    });                                                                                        \
  }                                                                                            \
  mgblas_status_t mgblas_##p##hemv_mgpu(mgblas_matrix_t A, mgblas_uplo_t uplo, T alpha,        \
                                        const T* x, T beta, T* y) {                            \
    return guard([&] {                                                                         \
      mgblas::hemv_mgpu(to_uplo(uplo), val(alpha), matrix_as<cpp_t<T>>(A), ptr(x), val(beta),  \
                        ptr(y));                                                               \
    });                                                                                        \
  }                                                                                            \
  mgblas_status_t mgblas_##p##gemv_mgpu_offset(mgblas_matrix_t A, mgblas_op_t op, T alpha,     \
                                               int64_t i0, int64_t j0, const T* x, T beta,     \
                                               T* y) {                                         \
    return guard([&] {                                                                         \
      mgblas::gemv_mgpu_offset(to_op(op), val(alpha), matrix_as<cpp_t<T>>(A), i0, j0, ptr(x),  \
                               val(beta), ptr(y));                                             \
    });                                                                                        \
  }                                                                                            \
  mgblas_status_t mgblas_##p##symv_mgpu_offset(mgblas_matrix_t A, mgblas_uplo_t uplo, T alpha, \
                                               int64_t off, const T* x, T beta, T* y) {        \
    return guard([&] {                                                                         \
      mgblas::symv_mgpu_offset(to_uplo(uplo), val(alpha), matrix_as<cpp_t<T>>(A), off, ptr(x), \
                               val(beta), ptr(y));                                             \
    });                                                                                        \
  }                                                                                            \
  mgblas_status_t mgblas_##p##hemv_mgpu_offset(mgblas_matrix_t A, mgblas_uplo_t uplo, T alpha, \
                                               int64_t off, const T* x, T beta, T* y) {        \
    return guard([&] {                                                                         \
      mgblas::hemv_mgpu_offset(to_uplo(uplo), val(alpha), matrix_as<cpp_t<T>>(A), off, ptr(x), \
                               val(beta), ptr(y));                                             \
    });                                                                                        \
  }

MGBLAS_C_FOR_EACH_PRECISION(MGBLAS_C_DEFINE_LEVEL2)
MGBLAS_C_FOR_EACH_PRECISION(MGBLAS_C_DEFINE_LEVEL3)
MGBLAS_C_FOR_EACH_PRECISION(MGBLAS_C_DEFINE_DIST)


// The reductions take uplo unchecked: hetrd_mgpu checks it inside the ranks' agreement.
#define MGBLAS_C_DEFINE_HETRD_(NAME, T, R)                                                    \
  mgblas_status_t NAME(mgblas_matrix_t A, mgblas_uplo_t uplo, R* d, R* e, T* tau) {          \
    return guard([&] {                                                                        \
      mgblas::hetrd_mgpu<cpp_t<T>>(static_cast<mgblas::Uplo>(uplo), matrix_as<cpp_t<T>>(A), d, \
                                   e, ptr(tau));                                              \
    });                                                                                       \
  }
MGBLAS_C_DEFINE_HETRD_(mgblas_ssytrd_mgpu, float, float)
MGBLAS_C_DEFINE_HETRD_(mgblas_dsytrd_mgpu, double, double)
MGBLAS_C_DEFINE_HETRD_(mgblas_chetrd_mgpu, mgblas_complex_float, float)
MGBLAS_C_DEFINE_HETRD_(mgblas_zhetrd_mgpu, mgblas_complex_double, double)
#undef MGBLAS_C_DEFINE_HETRD_

#define MGBLAS_C_DEFINE_GEBRD_(NAME, T, R)                                                    \
  mgblas_status_t NAME(mgblas_matrix_t A, R* d, R* e, T* tauq, T* taup) {                     \
    return guard([&] {                                                                        \
      mgblas::gebrd_mgpu<cpp_t<T>>(matrix_as<cpp_t<T>>(A), d, e, ptr(tauq), ptr(taup));       \
    });                                                                                       \
  }
MGBLAS_C_DEFINE_GEBRD_(mgblas_sgebrd_mgpu, float, float)
MGBLAS_C_DEFINE_GEBRD_(mgblas_dgebrd_mgpu, double, double)
MGBLAS_C_DEFINE_GEBRD_(mgblas_cgebrd_mgpu, mgblas_complex_float, float)
MGBLAS_C_DEFINE_GEBRD_(mgblas_zgebrd_mgpu, mgblas_complex_double, double)
#undef MGBLAS_C_DEFINE_GEBRD_

#define MGBLAS_C_DEFINE_STEBZ_(NAME, R)                                                      \
  mgblas_status_t NAME(mgblas_context_t ctx, int64_t n, const R* d, const R* e, R* w) {    \
    return guard([&] {                                                                       \
      MGBLAS_CHECK_PTR(ctx, "ctx", true);                                                    \
      mgblas::tridiag_eigenvalues_mgpu<R>(*ctx->ctx, n, d, e, w);                            \
    });                                                                                      \
  }
MGBLAS_C_DEFINE_STEBZ_(mgblas_sstebz_mgpu, float)
MGBLAS_C_DEFINE_STEBZ_(mgblas_dstebz_mgpu, double)
#undef MGBLAS_C_DEFINE_STEBZ_

}  // extern "C"
