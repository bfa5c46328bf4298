// SPDX-License-Identifier: BSD-3-Clause
// The hand-written part of the C API: errors, version, contexts, devices, device memory
// and distributed matrices with their local blocks. The operations' entries are
// generated from the manifest (api/operations.py -> capi/c_entries.cpp).
#include "capi/capi_support.hpp"
#include "layouts/local_blocks.hpp"

using namespace mgblas::capi;

namespace {

// The C++ layout of a C 2-D descriptor; throws BadArgument naming the field.
mgblas::BlockCyclic2D desc2d_layout(const mgblas_desc2d_t* d) { return to_desc2d(d, "desc"); }

// A's handle on ctx, which must be a block-cyclic matrix.
void block_cyclic_of(mgblas_context_t ctx, mgblas_matrix_t A) {
  const bool tiled =
      std::visit([](auto& M) { return held_of<decltype(M)>::tiled; }, matrix_of(ctx, A).m);
  if (tiled)
    MGBLAS_THROW(mgblas::BadArgument,
                 "argument 'A' is a row-tiled matrix but this routine takes a block-cyclic one");
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
    // Collective from the start: the communicator (its duplication has the deadline),
    // then this entry's arguments checked inside an agreement, so that one rank's bad
    // argument raises on every rank instead of leaving the others in Context::create.
    mgblas::Communicator ranks = [&] {
      if (!comm) return mgblas::Communicator::world();
#if MGBLAS_HAVE_MPI
      return mgblas::Communicator(*static_cast<const MPI_Comm*>(comm));
#else
      MGBLAS_THROW(mgblas::NotCompiled, "argument 'comm' is not NULL but this build of "
                   "mgblas has no MPI (MGBLAS_ENABLE_MPI=OFF)");
#endif
    }();
    mgblas::ContextOptions opts;
    opts.host_devices = host_devices > 0 ? host_devices : 0;
    mgblas::CallRecord rec("mgblas_context_create");
    mgblas::agree(ranks, rec, [&] {
      MGBLAS_CHECK_PTR(ctx, "ctx", true);
      if (backend == MGBLAS_BACKEND_HOST) opts.backend = mgblas::BackendChoice::Host;
      else if (backend == MGBLAS_BACKEND_CUDA) opts.backend = mgblas::BackendChoice::Cuda;
      else if (backend != MGBLAS_BACKEND_AUTO)
        MGBLAS_THROW(mgblas::BadArgument, "argument 'backend' = ", static_cast<int>(backend),
                     ": must be MGBLAS_BACKEND_AUTO, _HOST or _CUDA");
    });
    auto handle = std::make_unique<mgblas_context_s>();
    handle->ctx = mgblas::Context::create(std::move(ranks), opts);
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

mgblas_status_t mgblas_context_create_fcomm(int fcomm, mgblas_backend_t backend,
                                            int host_devices, mgblas_context_t* ctx) {
#if MGBLAS_HAVE_MPI
  int init = 0, fin = 0;
  MPI_Initialized(&init);
  MPI_Finalized(&fin);
  if (init && !fin) {  // MPI_Comm_f2c needs MPI running
    const MPI_Comm comm = MPI_Comm_f2c(static_cast<MPI_Fint>(fcomm));
    return mgblas_context_create_comm(&comm, backend, host_devices, ctx);
  }
  return guard([&] {
    MGBLAS_THROW(mgblas::MpiError, "argument 'fcomm' = ", fcomm,
                 ": MPI is not initialised (call MPI_Init first)");
  });
#else
  return guard([&] {
    MGBLAS_THROW(mgblas::NotCompiled, "argument 'fcomm' = ", fcomm,
                 " but this build of mgblas has no MPI (MGBLAS_ENABLE_MPI=OFF)");
  });
#endif
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

mgblas_status_t mgblas_matrix_local_block_count(mgblas_matrix_t A, int64_t* count) {
  return guard([&] {
    check_matrix_handle(A);
    MGBLAS_CHECK_PTR(count, "count", true);
    *count = std::visit([](auto& M) { return mgblas::local_block_count(*M); }, A->m);
  });
}

mgblas_status_t mgblas_matrix_local_block(mgblas_matrix_t A, int64_t index,
                                          mgblas_local_block_t* block) {
  return guard([&] {
    check_matrix_handle(A);
    MGBLAS_CHECK_PTR(block, "block", true);
    *block = std::visit([&](auto& M) {
      const auto b = mgblas::local_block(*M, index);
      return mgblas_local_block_t{b.device, b.data, b.ld, b.row, b.col, b.rows, b.cols};
    }, A->m);
  });
}

mgblas_status_t mgblas_desc2d_from_scalapack(const int* desc, int nprow, int npcol,
                                             char order, mgblas_desc2d_t* out) {
  return guard([&] {
    MGBLAS_CHECK_PTR(desc, "desc", true);
    MGBLAS_CHECK_PTR(out, "out", true);
    MGBLAS_CHECK_ARG(desc[0] == 1, "desc[0] (DTYPE_)", desc[0],
                     "= 1 (a dense block-cyclic descriptor)");
    MGBLAS_CHECK_ARG(order == 'R' || order == 'r' || order == 'C' || order == 'c', "order",
                     order, "'R' (row-major grid) or 'C' (column-major)");
    const mgblas_grid_order_t o =
        order == 'R' || order == 'r' ? MGBLAS_GRID_ROW_MAJOR : MGBLAS_GRID_COLUMN_MAJOR;
    const mgblas_desc2d_t d{desc[2], desc[3], desc[4], desc[5], desc[6], desc[7],
                            nprow,   npcol,   static_cast<int32_t>(o), desc[8]};
    desc2d_layout(&d);  // every field checked, and named, before `out` is written
    *out = d;
  });
}

mgblas_status_t mgblas_matrix_import_2d(mgblas_context_t ctx, mgblas_matrix_t A,
                                        const mgblas_desc2d_t* desc, const void* local_a) {
  return guard([&] {
    mgblas::BlockCyclic2D layout;
    agree_on("mgblas_matrix_import_2d", ctx, [&] {
      layout = desc2d_layout(desc);
      block_cyclic_of(ctx, A);
    });
    std::visit([&](auto& M) {
      using T = typename held_of<decltype(M)>::type;
      if constexpr (!held_of<decltype(M)>::tiled)
        M->import_2d(layout, static_cast<const T*>(local_a), desc->lld);
    }, A->m);
  });
}

mgblas_status_t mgblas_matrix_export_2d(mgblas_context_t ctx, mgblas_matrix_t A,
                                        const mgblas_desc2d_t* desc, void* local_a) {
  return guard([&] {
    mgblas::BlockCyclic2D layout;
    agree_on("mgblas_matrix_export_2d", ctx, [&] {
      layout = desc2d_layout(desc);
      block_cyclic_of(ctx, A);
    });
    std::visit([&](auto& M) {
      using T = typename held_of<decltype(M)>::type;
      if constexpr (!held_of<decltype(M)>::tiled)
        M->export_2d(layout, static_cast<T*>(local_a), desc->lld);
    }, A->m);
  });
}

}  // extern "C"
