// SPDX-License-Identifier: BSD-3-Clause
// mgblas._mgblas: the nanobind layer under the Python package.
//
// Deliberately low level: arrays arrive as raw addresses (integers) with sizes, leading
// dimensions and a precision letter (s, d, c, z), already checked by the Python layer
// (mgblas/_arrays.py) against the arrays' shapes, strides, dtypes and devices. This file
// only dispatches on the precision, converts scalars and maps C++ exceptions onto the
// Python hierarchy of mgblas/_errors.py. Long calls release the GIL. The operations'
// bindings are generated from the manifest (api/operations.py -> py_bindings.inc, one
// per operation under its C++ name); the context, the matrices and the distributed
// Level-2 calls (which stage CuPy vectors in DistVectors) are bound here by hand.
#include <nanobind/nanobind.h>
#include <nanobind/stl/complex.h>
#include <nanobind/stl/shared_ptr.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/tuple.h>
#include <nanobind/stl/vector.h>

#include <Python.h>

#include <complex>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <span>
#include <string>
#include <tuple>
#include <type_traits>
#include <utility>
#include <variant>
#include <vector>

#include <mgblas/mgblas.hpp>

namespace nb = nanobind;
using namespace nb::literals;

namespace mgblas::python {
namespace {

using cplx = std::complex<double>;
constexpr nb::call_guard<nb::gil_scoped_release> release_gil{};

// ---------------------------------------------------------------------------------
// Exceptions: mgblas::Error subclasses -> the classes of mgblas/_errors.py (handed over
// by the package at import time through set_error_types; a plain RuntimeError before).
// The type objects are kept for the life of the process on purpose: releasing them in
// a static destructor would run after the interpreter is gone.
std::map<std::string, PyObject*>& error_types() {
  static auto* types = new std::map<std::string, PyObject*>();
  return *types;
}

void raise_as(const char* name, const Error& e) {
  auto& types = error_types();
  auto it = types.find(name);
  if (it == types.end()) it = types.find("Error");
  if (it == types.end()) {
    PyErr_SetString(PyExc_RuntimeError, e.what());
    return;
  }
  PyObject* exc = PyObject_CallFunction(it->second, "s", e.what());
  if (!exc) return;  // the call itself raised: leave that error set
  PyObject* code = PyLong_FromLong(e.code());
  if (code) {
    PyObject_SetAttrString(exc, "code", code);
    Py_DECREF(code);
  }
  PyErr_SetObject(it->second, exc);
  Py_DECREF(exc);
}

void translate(const std::exception_ptr& p, void*) {
  try {
    std::rethrow_exception(p);
  } catch (const BadArgument& e) {
    raise_as("BadArgument", e);
  } catch (const DimensionMismatch& e) {
    raise_as("DimensionMismatch", e);
  } catch (const NotCompiled& e) {
    raise_as("NotCompiled", e);
  } catch (const NotImplemented& e) {
    raise_as("Unimplemented", e);
  } catch (const RemoteError& e) {
    raise_as("RemoteError", e);
  } catch (const CudaError& e) {
    raise_as("CudaError", e);
  } catch (const CublasError& e) {
    raise_as("CublasError", e);
  } catch (const NcclError& e) {
    raise_as("NcclError", e);
  } catch (const MpiError& e) {
    raise_as("MpiError", e);
  } catch (const HwlocError& e) {
    raise_as("HwlocError", e);
  } catch (const AllocationError& e) {
    raise_as("AllocationError", e);
  } catch (const Timeout& e) {
    raise_as("Timeout", e);
  } catch (const Error& e) {
    raise_as("Error", e);
  }
  // Anything else propagates to nanobind's own translators (MemoryError, ...).
}

// ---------------------------------------------------------------------------------
// Precision dispatch and scalars.
// Only the precisions of this build are instantiated (visit_scalar); a dtype outside
// MGBLAS_PRECISIONS raises mgblas.NotCompiled naming it.
template <typename F>
void dispatch(char dt, F&& f) {
  visit_scalar(dt, std::forward<F>(f), "dtype");
}
template <typename F>
void dispatch_real(char dt, F&& f) {
  if (dt != 's' && dt != 'd')
    MGBLAS_THROW(BadArgument, "real precision '", dt, "': must be s or d");
  // f is instantiated for the real types only (the letter check above rules out c, z).
  visit_scalar(dt, [&](auto tag) {
    if constexpr (!is_complex_v<typename decltype(tag)::type>) f(tag);
  }, "dtype");
}

template <typename T>
T scalar(cplx a) {
  if constexpr (is_complex_v<T>)
    return T(static_cast<real_type_t<T>>(a.real()), static_cast<real_type_t<T>>(a.imag()));
  else
    return static_cast<T>(a.real());
}

template <typename T>
T* ptr(uintptr_t p) {
  return reinterpret_cast<T*>(p);
}

Op to_op(char c) {
  switch (c) {
    case 'N': return Op::N;
    case 'T': return Op::T;
    case 'C': return Op::C;
    default: MGBLAS_THROW(BadArgument, "trans '", c, "': must be 'N', 'T' or 'C'");
  }
}
GridOrder to_grid_order(char c) {
  switch (c) {
    case 'R': return GridOrder::RowMajor;
    case 'C': return GridOrder::ColumnMajor;
    default: MGBLAS_THROW(BadArgument, "order '", c, "': must be 'R' (row-major grid) or 'C'");
  }
}
Uplo to_uplo(char c) {
  switch (c) {
    case 'L': return Uplo::Lower;
    case 'U': return Uplo::Upper;
    default: MGBLAS_THROW(BadArgument, "uplo '", c, "': must be 'L' or 'U'");
  }
}
Vect to_vect(char c) {
  switch (c) {
    case 'Q': return Vect::Q;
    case 'P': return Vect::P;
    default: MGBLAS_THROW(BadArgument, "vect '", c, "': must be 'Q' or 'P'");
  }
}
// An eigen-solver's subset (LAPACK's RANGE and its bounds; those of other kinds unread).
EigenRange to_range(char c, double vl, double vu, int64_t il, int64_t iu) {
  switch (c) {
    case 'A': return EigenRange::all();
    case 'I': return EigenRange::index(il, iu);
    case 'V': return EigenRange::value(vl, vu);
    default: MGBLAS_THROW(BadArgument, "range '", c, "': must be 'A', 'I' or 'V'");
  }
}

// ---------------------------------------------------------------------------------
// Context, with the reducer and device-vector staging its Python calls reuse.
struct BoundContext {
  std::shared_ptr<Context> ctx;
  std::unique_ptr<Reducer> reducer;
  // Replicated DistVectors for x and y of distributed calls whose vectors are device
  // (CuPy) arrays: one per (precision, role), replaced when the length changes.
  std::map<std::pair<char, int>, std::shared_ptr<void>> staging;

  Reducer& red() {
    if (!reducer) reducer = make_reducer(ctx);
    return *reducer;
  }
  template <typename T>
  DistVector<T>& vec(int role, int64_t n) {
    auto& slot = staging[{precision_letter<T>(), role}];
    auto* v = static_cast<DistVector<T>*>(slot.get());
    if (!v || v->n() != n) {
      slot.reset();
      slot = std::make_shared<DistVector<T>>(ctx, n);
      v = static_cast<DistVector<T>*>(slot.get());
    }
    return *v;
  }
};

std::shared_ptr<BoundContext> make_context(int64_t fortran_comm, const std::string& backend,
                                        const std::vector<int>& gpus, int host_devices,
                                        bool bind) {
  ContextOptions opts;
  if (backend == "auto")
    opts.backend = BackendChoice::Auto;
  else if (backend == "host")
    opts.backend = BackendChoice::Host;
  else if (backend == "cuda")
    opts.backend = BackendChoice::Cuda;
  else
    MGBLAS_THROW(BadArgument, "backend '", backend, "': must be 'auto', 'host' or 'cuda'");
  opts.gpus = gpus;
  opts.host_devices = host_devices;
  opts.bind = bind;
  auto pc = std::make_shared<BoundContext>();
  if (fortran_comm < 0) {
    pc->ctx = Context::create(opts);
  } else {
#if MGBLAS_HAVE_MPI
    MPI_Comm comm = MPI_Comm_f2c(static_cast<MPI_Fint>(fortran_comm));
    pc->ctx = Context::create(Communicator(comm), opts);
#else
    MGBLAS_THROW(NotCompiled, "an MPI communicator was given but mgblas was built without MPI");
#endif
  }
  return pc;
}

// ---------------------------------------------------------------------------------
// Precision-erased distributed containers.
template <template <Scalar> class M>
struct Erased {
  // std::variant<std::monostate, M<T>...> over the scalar types of a TypeList.
  template <typename List> struct Held;
  template <Scalar... Ts> struct Held<TypeList<Ts...>> {
    using type = std::variant<std::monostate, M<Ts>...>;
  };
  char dt = 'd';
  typename Held<EnabledScalars>::type v;  // one alternative per precision built
  template <typename T>
  M<T>& get() {
    return std::get<M<T>>(v);
  }
};
using AnyDistMatrix = Erased<DistMatrix>;
using AnyRowTiled = Erased<RowTiledMatrix>;

AnyDistMatrix* new_dist_matrix(BoundContext& pc, char dt, int64_t m, int64_t n, int64_t nb) {
  auto* out = new AnyDistMatrix();
  try {
    out->dt = dt;
    dispatch(dt, [&]<typename T>(std::type_identity<T>) {
      out->v.template emplace<DistMatrix<T>>(
          pc.ctx, BlockCyclic1D(m, n, nb, pc.ctx->global_num_devices()));
    });
  } catch (...) {
    delete out;
    throw;
  }
  return out;
}

AnyRowTiled* new_row_tiled(BoundContext& pc, char dt, int64_t m, int64_t n, int64_t tile) {
  auto* out = new AnyRowTiled();
  try {
    out->dt = dt;
    dispatch(dt, [&]<typename T>(std::type_identity<T>) {
      out->v.template emplace<RowTiledMatrix<T>>(pc.ctx, m, n, tile);
    });
  } catch (...) {
    delete out;
    throw;
  }
  return out;
}

// This rank's local blocks of A (layouts/local_blocks.hpp) as tuples (local device,
// address, ld, row, col, rows, cols); the package makes them views.
using BlockTuple = std::tuple<int, uintptr_t, int64_t, int64_t, int64_t, int64_t, int64_t>;
template <typename Any>
std::vector<BlockTuple> local_block_tuples(Any& A) {
  std::vector<BlockTuple> out;
  dispatch(A.dt, [&]<typename T>(std::type_identity<T>) {
    for (const auto& b : local_blocks(A.template get<T>()))
      out.emplace_back(b.device, reinterpret_cast<uintptr_t>(b.data), b.ld, b.row, b.col, b.rows,
                       b.cols);
  });
  return out;
}

// ---------------------------------------------------------------------------------
// Distributed Level 2. `dev_vectors`: x and y are device memory (or are to be treated
// as such): they go through replicated DistVectors; otherwise the host-pointer forms.
template <typename T>
void copy_in(BoundContext& pc, DistVector<T>& v, const T* src) {
  for (int d = 0; d < pc.ctx->num_devices(); ++d)
    copy_vector(pc.ctx->device(d), v.n(), src, v.local(d));
}

template <typename T, typename HostCall, typename DevCall>
void level2(BoundContext& pc, int64_t xlen, int64_t ylen, T beta, uintptr_t x, uintptr_t y,
            bool dev_vectors, HostCall&& host_call, DevCall&& dev_call) {
  if (!dev_vectors) {
    host_call(ptr<const T>(x), ptr<T>(y));
    return;
  }
  auto& xv = pc.vec<T>(0, xlen);
  auto& yv = pc.vec<T>(1, ylen);
  copy_in(pc, xv, ptr<const T>(x));
  if (beta != T(0)) copy_in(pc, yv, ptr<const T>(y));
  dev_call(xv, yv);
  if (ylen > 0 && pc.ctx->num_devices() > 0)
    copy_vector(pc.ctx->device(0), ylen, yv.local(0), ptr<T>(y));
}

void gemv_mgpu_any(BoundContext& pc, AnyDistMatrix& A, char op, cplx alpha, int64_t i0, int64_t j0,
                   uintptr_t x, cplx beta, uintptr_t y, bool offset, bool dev_vectors) {
  dispatch(A.dt, [&]<typename T>(std::type_identity<T>) {
    auto& M = A.get<T>();
    const Op o = to_op(op);
    const int64_t rows = M.m() - i0, cols = M.n() - j0;
    const int64_t xlen = o == Op::N ? cols : rows, ylen = o == Op::N ? rows : cols;
    const T a = scalar<T>(alpha), b = scalar<T>(beta);
    level2<T>(
        pc, xlen, ylen, b, x, y, dev_vectors,
        [&](const T* xp, T* yp) {
          if (offset)
            gemv_mgpu_offset<T>(pc.red(), o, a, M, i0, j0, xp, b, yp);
          else
            gemv_mgpu<T>(pc.red(), o, a, M, xp, b, yp);
        },
        [&](DistVector<T>& xv, DistVector<T>& yv) {
          if (offset)
            gemv_mgpu_offset<T>(pc.red(), o, a, M, i0, j0, xv, b, yv);
          else
            gemv_mgpu<T>(pc.red(), o, a, M, xv, b, yv);
        });
  });
}

void symv_mgpu_any(BoundContext& pc, AnyDistMatrix& A, bool hermitian, char uplo, cplx alpha,
                   int64_t off, uintptr_t x, cplx beta, uintptr_t y, bool offset,
                   bool dev_vectors) {
  dispatch(A.dt, [&]<typename T>(std::type_identity<T>) {
    auto& M = A.get<T>();
    const Uplo u = to_uplo(uplo);
    const int64_t len = M.n() - off;
    const T a = scalar<T>(alpha), b = scalar<T>(beta);
    level2<T>(
        pc, len, len, b, x, y, dev_vectors,
        [&](const T* xp, T* yp) {
          if (hermitian) {
            if (offset) hemv_mgpu_offset<T>(pc.red(), u, a, M, off, xp, b, yp);
            else hemv_mgpu<T>(pc.red(), u, a, M, xp, b, yp);
          } else {
            if (offset) symv_mgpu_offset<T>(pc.red(), u, a, M, off, xp, b, yp);
            else symv_mgpu<T>(pc.red(), u, a, M, xp, b, yp);
          }
        },
        [&](DistVector<T>& xv, DistVector<T>& yv) {
          if (hermitian) {
            if (offset) hemv_mgpu_offset<T>(pc.red(), u, a, M, off, xv, b, yv);
            else hemv_mgpu<T>(pc.red(), u, a, M, xv, b, yv);
          } else {
            if (offset) symv_mgpu_offset<T>(pc.red(), u, a, M, off, xv, b, yv);
            else symv_mgpu<T>(pc.red(), u, a, M, xv, b, yv);
          }
        });
  });
}

// ---------------------------------------------------------------------------------
// Single-device entries (CUDA memory on its GPU, or host memory on a host device):
// one Device (stream + cuBLAS handle) per GPU
// ordinal, made on first use and kept for the life of the process (never destroyed:
// a static destructor would run after the CUDA runtime may have shut down). The work
// is queued on the caller's stream (CuPy's current stream).
Device& gpu_device(int ordinal) {
  static std::mutex mu;
  static auto* devices = new std::map<int, Device*>();
  std::lock_guard<std::mutex> lock(mu);
  auto it = devices->find(ordinal);
  if (it != devices->end()) return *it->second;
  if (cuda_device_count() == 0)
    MGBLAS_THROW(CudaError, "a CUDA array (device ", ordinal,
                 ") was given, but no CUDA GPU is visible to this process");
  Device* d = Device::make_cuda(0, ordinal).release();
  devices->emplace(ordinal, d);
  return *d;
}
// Ordinal -1: host memory, run by one host device (the host engine).
Device& host_device() {
  static Device* d = Device::make_host(0).release();
  return *d;
}
Queue gpu_queue(int ordinal, uintptr_t stream) {
  if (ordinal < 0) return Queue(host_device());
  return Queue(gpu_device(ordinal), reinterpret_cast<cudaStream_t>(stream));
}

// ---------------------------------------------------------------------------------
// Batched GEMM helpers (variable sizes): pointer vectors from integer addresses.
template <typename T>
std::vector<const T*> const_ptrs(const std::vector<uintptr_t>& v) {
  std::vector<const T*> out(v.size());
  for (size_t i = 0; i < v.size(); ++i) out[i] = ptr<const T>(v[i]);
  return out;
}
template <typename T>
std::vector<T*> mut_ptrs(const std::vector<uintptr_t>& v) {
  std::vector<T*> out(v.size());
  for (size_t i = 0; i < v.size(); ++i) out[i] = ptr<T>(v[i]);
  return out;
}

// A second matrix of a call must have the first one's precision.
void same_precision(char first, char other, const char* name) {
  if (first != other)
    MGBLAS_THROW(BadArgument, name, " has precision '", other, "' but the call's first matrix has '",
                 first, "'");
}

// A reduction's options from the extension's (panel, pass, band, stages): pass -1 the
// default (Auto), 0 two GEMVs, 1 one pass (gebrd only; the others take -1); band the
// two-stage reduction's (0 automatic; hetrd_mgpu and hetrd_band_mgpu ignore it, as in
// C++; gebrd and unmtr take 0); stages 'A', '1' or '2' (the eigen-solvers only; the
// others take 'A'). The eigen-solver's panel goes to its reduction and its
// back-transformation.
inline Stages to_stages(char s) {
  switch (s) {
    case 'A': return Stages::Auto;
    case '1': return Stages::One;
    case '2': return Stages::Two;
  }
  MGBLAS_THROW(BadArgument, "stages = '", s, "': must be 'A', '1' or '2'");
}
template <typename Options>
Options py_options(int64_t panel, int pass, int64_t band, char stages) {
  constexpr bool kEigen =
      std::is_same_v<Options, HeevdOptions> || std::is_same_v<Options, Heevd2DOptions>;
  Options o;
  if constexpr (std::is_same_v<Options, HeevdOptions>) {
    o.reduction.panel = o.back_transform.panel = panel;
    o.reduction.band = band;
    o.stages = to_stages(stages);
  } else if constexpr (std::is_same_v<Options, Heevd2DOptions>) {
    o.heevd.reduction.panel = o.heevd.back_transform.panel = panel;
    o.heevd.reduction.band = band;
    o.heevd.stages = to_stages(stages);
  } else {
    o.panel = panel;
  }
  if constexpr (std::is_same_v<Options, HetrdOptions>) o.band = band;
  if constexpr (!kEigen && !std::is_same_v<Options, HetrdOptions>) {
    if (band != 0) MGBLAS_THROW(BadArgument, "band applies to the two-stage reduction only");
  }
  if constexpr (!kEigen) {
    if (stages != 'A') MGBLAS_THROW(BadArgument, "stages applies to the eigen-solvers only");
  }
  if constexpr (std::is_same_v<Options, GebrdOptions>) {
    o.set_pass(pass < 0 ? GebrdPass::Auto : pass == 1 ? GebrdPass::One : GebrdPass::Two);
  } else if (pass >= 0) {
    MGBLAS_THROW(BadArgument, "one_pass applies to gebrd only");
  }
  return o;
}
// The ScaLAPACK-shaped reductions: their reduction's options, the devices' nb automatic.
template <>
Hetrd2DOptions py_options<Hetrd2DOptions>(int64_t panel, int pass, int64_t band, char stages) {
  Hetrd2DOptions o;
  o.hetrd = py_options<HetrdOptions>(panel, pass, band, stages);
  return o;
}
template <>
GesvdOptions py_options<GesvdOptions>(int64_t panel, int pass, int64_t band, char stages) {
  GesvdOptions o;  // the panel goes to the reduction and both back-transformations
  o.reduction = py_options<GebrdOptions>(panel, pass, 0, 'A');
  o.back_transform.panel = panel;
  o.band = band;  // band and stages choose and shape the two-stage reduction
  o.stages = to_stages(stages);
  return o;
}
template <>
Gesvd2DOptions py_options<Gesvd2DOptions>(int64_t panel, int pass, int64_t band, char stages) {
  Gesvd2DOptions o;
  o.gesvd = py_options<GesvdOptions>(panel, pass, band, stages);
  return o;
}
template <>
Gebrd2DOptions py_options<Gebrd2DOptions>(int64_t panel, int pass, int64_t band, char stages) {
  Gebrd2DOptions o;
  o.gebrd = py_options<GebrdOptions>(panel, pass, band, stages);
  return o;
}

}  // namespace
}  // namespace mgblas::python

using namespace mgblas;
using namespace mgblas::python;

NB_MODULE(_mgblas, m) {
  m.doc() = "Low-level bindings of mgblas; use the mgblas package instead.";
  nb::register_exception_translator(translate);

  m.attr("__version__") = MGBLAS_VERSION_STRING;
  m.attr("has_cuda") = bool(MGBLAS_HAVE_CUDA);
  m.attr("has_mpi") = bool(MGBLAS_HAVE_MPI);
  m.attr("has_nccl") = bool(MGBLAS_HAVE_NCCL);
  // The precision letters of this build (MGBLAS_PRECISIONS), e.g. "sdcz".
  m.attr("precisions") = enabled_precision_letters();

  m.def("set_error_types", [](nb::dict types) {
    for (auto [k, v] : types) {
      PyObject* t = v.ptr();
      Py_INCREF(t);
      error_types()[nb::cast<std::string>(k)] = t;
    }
  });
  m.def("cuda_device_count", [] { return cuda_device_count(); });

  // MPI start-up when mpi4py is not there to do it.
  m.def("mpi_initialized", [] {
#if MGBLAS_HAVE_MPI
    int init = 0, fin = 0;
    MPI_Initialized(&init);
    MPI_Finalized(&fin);
    return init != 0 && fin == 0;
#else
    return false;
#endif
  });
  m.def("mpi_init", [] {
#if MGBLAS_HAVE_MPI
    int init = 0;
    MPI_Initialized(&init);
    if (init) return false;
    int provided = 0;
    if (MPI_Init_thread(nullptr, nullptr, MPI_THREAD_MULTIPLE, &provided) != MPI_SUCCESS)
      MGBLAS_THROW(MpiError, "MPI_Init_thread failed");
    return true;
#else
    return false;
#endif
  });
  m.def("mpi_finalize", [] {
#if MGBLAS_HAVE_MPI
    int init = 0, fin = 0;
    MPI_Initialized(&init);
    MPI_Finalized(&fin);
    if (init && !fin) MPI_Finalize();
#endif
  });

  // --- Context -------------------------------------------------------------------
  nb::class_<BoundContext>(m, "Context")
      .def_static("create", &make_context, "fortran_comm"_a, "backend"_a, "gpus"_a,
                  "host_devices"_a, "bind"_a)
      .def_prop_ro("rank", [](const BoundContext& c) { return c.ctx->rank(); })
      .def_prop_ro("nranks", [](const BoundContext& c) { return c.ctx->nranks(); })
      .def_prop_ro("num_devices", [](const BoundContext& c) { return c.ctx->num_devices(); })
      .def_prop_ro("global_num_devices",
                   [](const BoundContext& c) { return c.ctx->global_num_devices(); })
      .def_prop_ro("device_offset", [](const BoundContext& c) { return c.ctx->device_offset(); })
      .def_prop_ro("backend", [](const BoundContext& c) { return std::string(to_string(c.ctx->backend())); })
      .def_prop_ro("device_names",
                   [](const BoundContext& c) {
                     std::vector<std::string> names;
                     for (int d = 0; d < c.ctx->num_devices(); ++d)
                       names.push_back(c.ctx->device(d).name());
                     return names;
                   })
      .def_prop_ro("gpu_ordinals",
                   [](const BoundContext& c) {
                     std::vector<int> ords;
                     for (int d = 0; d < c.ctx->num_devices(); ++d)
                       ords.push_back(c.ctx->device(d).gpu_ordinal());
                     return ords;
                   })
      .def("binding_report", [](const BoundContext& c) { return c.ctx->binding_report(); },
           release_gil)
      .def("synchronize", [](const BoundContext& c) { c.ctx->synchronize(); }, release_gil)
      .def("barrier", [](const BoundContext& c) { c.ctx->comm().barrier(); }, release_gil)
      .def("reducer_description", [](BoundContext& c) { return c.red().description(); })
      .def("allgather", [](const BoundContext& c, const std::string& s) {
             nb::gil_scoped_release nogil;
             return c.ctx->comm().allgather(s);
           });

  // --- DistMatrix ----------------------------------------------------------------
  nb::class_<AnyDistMatrix>(m, "DistMatrix")
      .def_static("create", &new_dist_matrix, "ctx"_a, "dt"_a, "m"_a, "n"_a, "nb"_a,
                  nb::rv_policy::take_ownership)
      .def_prop_ro("dt", [](const AnyDistMatrix& A) { return A.dt; })
      .def_prop_ro("m", [](AnyDistMatrix& A) {
        int64_t v = 0;
        dispatch(A.dt, [&]<typename T>(std::type_identity<T>) { v = A.get<T>().m(); });
        return v;
      })
      .def_prop_ro("n", [](AnyDistMatrix& A) {
        int64_t v = 0;
        dispatch(A.dt, [&]<typename T>(std::type_identity<T>) { v = A.get<T>().n(); });
        return v;
      })
      .def_prop_ro("nb", [](AnyDistMatrix& A) {
        int64_t v = 0;
        dispatch(A.dt, [&]<typename T>(std::type_identity<T>) { v = A.get<T>().layout().nb(); });
        return v;
      })
      .def_prop_ro("ld", [](AnyDistMatrix& A) {
        int64_t v = 0;
        dispatch(A.dt, [&]<typename T>(std::type_identity<T>) { v = A.get<T>().ld(); });
        return v;
      })
      .def("local_ptr", [](AnyDistMatrix& A, int d) {
        uintptr_t p = 0;
        dispatch(A.dt, [&]<typename T>(std::type_identity<T>) {
          p = reinterpret_cast<uintptr_t>(A.get<T>().local(d));
        });
        return p;
      })
      .def("local_blocks", &local_block_tuples<AnyDistMatrix>)
      .def("local_n", [](AnyDistMatrix& A, int d) {
        int64_t v = 0;
        dispatch(A.dt, [&]<typename T>(std::type_identity<T>) { v = A.get<T>().local_n(d); });
        return v;
      })
      .def("distribute", [](AnyDistMatrix& A, uintptr_t a, int64_t lda, int root) {
             dispatch(A.dt, [&]<typename T>(std::type_identity<T>) {
               A.get<T>().distribute(ptr<const T>(a), lda, root);
             });
           }, release_gil)
      .def("distribute_replicated", [](AnyDistMatrix& A, uintptr_t a, int64_t lda) {
             dispatch(A.dt, [&]<typename T>(std::type_identity<T>) {
               A.get<T>().distribute_replicated(ptr<const T>(a), lda);
             });
           }, release_gil)
      .def("collect", [](AnyDistMatrix& A, uintptr_t a, int64_t lda, int root) {
             dispatch(A.dt, [&]<typename T>(std::type_identity<T>) {
               A.get<T>().collect(ptr<T>(a), lda, root);
             });
           }, release_gil)
      // a: this rank's ScaLAPACK local array (host), 0 outside the grid.
      .def("import_2d", [](AnyDistMatrix& A, const BlockCyclic2D& desc, uintptr_t a, int64_t lld) {
             dispatch(A.dt, [&]<typename T>(std::type_identity<T>) {
               A.get<T>().import_2d(desc, ptr<const T>(a), lld);
             });
           }, release_gil)
      .def("export_2d", [](AnyDistMatrix& A, const BlockCyclic2D& desc, uintptr_t a, int64_t lld) {
             dispatch(A.dt, [&]<typename T>(std::type_identity<T>) {
               A.get<T>().export_2d(desc, ptr<T>(a), lld);
             });
           }, release_gil);

  // --- BlockCyclic2D: ScaLAPACK's 2-D block-cyclic layout (pure index arithmetic) ---
  nb::class_<BlockCyclic2D>(m, "BlockCyclic2D")
      .def_static("create",
                  [](int64_t m_, int64_t n_, int64_t mb, int64_t nb_, int nprow, int npcol,
                     int rsrc, int csrc, char order) {
                    return BlockCyclic2D(m_, n_, mb, nb_, nprow, npcol, rsrc, csrc,
                                         to_grid_order(order));
                  },
                  "m"_a, "n"_a, "mb"_a, "nb"_a, "nprow"_a, "npcol"_a, "rsrc"_a, "csrc"_a,
                  "order"_a)
      .def_prop_ro("m", &BlockCyclic2D::m)
      .def_prop_ro("n", &BlockCyclic2D::n)
      .def_prop_ro("mb", &BlockCyclic2D::mb)
      .def_prop_ro("nb", &BlockCyclic2D::nb)
      .def_prop_ro("nprow", &BlockCyclic2D::nprow)
      .def_prop_ro("npcol", &BlockCyclic2D::npcol)
      .def_prop_ro("rsrc", &BlockCyclic2D::rsrc)
      .def_prop_ro("csrc", &BlockCyclic2D::csrc)
      .def_prop_ro("order", [](const BlockCyclic2D& d) {
        return d.order() == GridOrder::RowMajor ? 'R' : 'C';
      })
      .def_prop_ro("grid_size", &BlockCyclic2D::grid_size)
      .def("rank_of", &BlockCyclic2D::rank_of, "prow"_a, "pcol"_a)
      .def("prow_of", &BlockCyclic2D::prow_of, "rank"_a)
      .def("pcol_of", &BlockCyclic2D::pcol_of, "rank"_a)
      .def("row_owner", &BlockCyclic2D::row_owner, "i"_a)
      .def("col_owner", &BlockCyclic2D::col_owner, "j"_a)
      .def("local_rows", &BlockCyclic2D::local_rows, "prow"_a)
      .def("local_cols", &BlockCyclic2D::local_cols, "pcol"_a)
      .def("local_row", &BlockCyclic2D::local_row, "i"_a)
      .def("local_col", &BlockCyclic2D::local_col, "j"_a)
      .def("global_row", &BlockCyclic2D::global_row, "prow"_a, "il"_a)
      .def("global_col", &BlockCyclic2D::global_col, "pcol"_a, "jl"_a);

  // --- RowTiledMatrix ------------------------------------------------------------
  nb::class_<AnyRowTiled>(m, "RowTiledMatrix")
      .def_static("create", &new_row_tiled, "ctx"_a, "dt"_a, "m"_a, "n"_a, "tile"_a,
                  nb::rv_policy::take_ownership)
      .def_prop_ro("dt", [](const AnyRowTiled& A) { return A.dt; })
      .def_prop_ro("m", [](AnyRowTiled& A) {
        int64_t v = 0;
        dispatch(A.dt, [&]<typename T>(std::type_identity<T>) { v = A.get<T>().m(); });
        return v;
      })
      .def_prop_ro("n", [](AnyRowTiled& A) {
        int64_t v = 0;
        dispatch(A.dt, [&]<typename T>(std::type_identity<T>) { v = A.get<T>().n(); });
        return v;
      })
      .def_prop_ro("tile", [](AnyRowTiled& A) {
        int64_t v = 0;
        dispatch(A.dt, [&]<typename T>(std::type_identity<T>) { v = A.get<T>().tiling().tile(); });
        return v;
      })
      .def("local_blocks", &local_block_tuples<AnyRowTiled>)
      .def("distribute", [](AnyRowTiled& A, uintptr_t a, int64_t lda, int root) {
             dispatch(A.dt, [&]<typename T>(std::type_identity<T>) {
               A.get<T>().distribute(ptr<const T>(a), lda, root);
             });
           }, release_gil)
      .def("distribute_replicated", [](AnyRowTiled& A, uintptr_t a, int64_t lda) {
             dispatch(A.dt, [&]<typename T>(std::type_identity<T>) {
               A.get<T>().distribute_replicated(ptr<const T>(a), lda);
             });
           }, release_gil)
      .def("collect", [](AnyRowTiled& A, uintptr_t a, int64_t lda, int root) {
             dispatch(A.dt, [&]<typename T>(std::type_identity<T>) {
               A.get<T>().collect(ptr<T>(a), lda, root);
             });
           }, release_gil);

  // --- distributed Level 2 -------------------------------------------------------
  m.def("gemv_mgpu", &gemv_mgpu_any, "ctx"_a, "A"_a, "op"_a, "alpha"_a, "i0"_a, "j0"_a, "x"_a,
        "beta"_a, "y"_a, "offset"_a, "dev_vectors"_a, release_gil);
  m.def("symv_mgpu", &symv_mgpu_any, "ctx"_a, "A"_a, "hermitian"_a, "uplo"_a, "alpha"_a,
        "off"_a, "x"_a, "beta"_a, "y"_a, "offset"_a, "dev_vectors"_a, release_gil);

  // --- every other operation: generated from the manifest (api/operations.py) ---
#include "py_bindings.inc"
}
