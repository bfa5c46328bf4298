// SPDX-License-Identifier: BSD-3-Clause
#include "dist/lapack/stebz_mgpu.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <vector>

#include "core/communicator.hpp"
#include "core/error.hpp"
#include "core/memory.hpp"
#include "dist/detail/device_threads.hpp"
#include "dist/detail/mgpu_common.hpp"
#include "kernels/lapack.hpp"
#include "layouts/row_tiling.hpp"

namespace mgblas {
namespace {

// BadArgument raised as the public entry `what` (a string literal), in the wording of
// MGBLAS_CHECK_ARG, from inside the agreement's check.
template <typename... Rule>
void require(bool ok, const char* what, const char* name, int64_t value, const Rule&... rule) {
  if (!ok)
    throw BadArgument(__FILE__, __LINE__, what,
                      detail::concat("argument '", name, "' = ", value, ": must be ", rule...));
}
void require_ptr(const void* p, const char* what, const char* name, bool needed) {
  if (needed && p == nullptr)
    throw BadArgument(__FILE__, __LINE__, what,
                      detail::concat("argument '", name,
                                     "' is a null pointer but must be readable/writable for "
                                     "these sizes"));
}

// BadArgument at the first entry of x[0:len] that is NaN or infinite: bisection on such
// a T would return finite values that mean nothing (issue 32).
template <typename R>
void require_finite(const char* what, const char* name, const R* x, int64_t len) {
  for (int64_t i = 0; i < len; ++i)
    if (!std::isfinite(x[i]))
      throw BadArgument(__FILE__, __LINE__, what,
                        detail::concat("argument '", name, "' has the entry ", name, "[", i,
                                       "] = ", x[i], ": T's entries must be finite"));
}

// The eigenvalues first .. last - 1 (ascending positions) into w[0 .. last - first).
// e_len: entries the caller's e holds, or -1 when unknown (a raw pointer).
template <typename R>
void eigenvalues_mgpu(Context& ctx, const char* what, int64_t n, const R* d, const R* e,
                      int64_t e_len, int64_t first, int64_t last, R* w) {
  const Communicator& comm = ctx.comm();
  CallRecord rec(what);
  rec.add_precision<R>().add("n", n).add("first", first).add("last", last);
  agree(comm, rec, [&] {
    require(n >= 0, what, "n", n, ">= 0");
    require(first >= 0 && first <= last && last <= n, what, "first", first,
            "in [0, last] with last = ", last, " <= n = ", n);
    const int64_t e_need = std::max<int64_t>(0, n - 1);
    if (e_len >= 0 && e_len < e_need)
      throw DimensionMismatch(__FILE__, __LINE__, what,
                              detail::concat("argument 'e' has ", e_len,
                                             " entries but T of order n = ", n, " needs ",
                                             e_need));
    require_ptr(d, what, "d", n > 0);
    require_ptr(e, what, "e", n > 1);
    require_ptr(w, what, "w", n > 0);
    if (n > 0) require_finite(what, "d", d, n);
    if (n > 1) require_finite(what, "e", e, n - 1);
    if (ctx.verify_inputs() && n > 0) {
      // T is a replicated input: every rank must hold the same.
      rec.add_digest("d", d, static_cast<std::size_t>(n) * sizeof(R));
      rec.add_digest("e", e, static_cast<std::size_t>(n - 1) * sizeof(R));
    }
  });
  if (first == last) return;

  // Index slices by global device; every value of `joined` outside this rank's slices stays
  // zero, so the all-reduce below only places values (x + 0 = x exactly).
  const int64_t count = last - first;
  const RowTiling split(count, ctx.global_num_devices());
  std::vector<R> joined(static_cast<std::size_t>(count), R(0));
  all_or_nothing(comm, what, [&] {
    // A thread per GPU (detail::for_each_local_device): the engine takes a large window
    // from the divide and conquer, which waits for its stream, so one thread would run the
    // devices one after another. A host device runs its slice to completion in order.
    detail::for_each_local_device(ctx, [&](int l) {
      const Device& dev = ctx.device(l);
      const int g = ctx.device_offset() + l;
      const int64_t il = first + split.row_begin(g), iu = first + split.row_end(g);
      if (il == iu) return;
      R* const out = joined.data() + (il - first);
      if (!dev.is_gpu()) {
        tridiag_eigenvalues<R>(dev, n, d, e, il, iu, out);
        return;
      }
      dev.make_current();
      DeviceBuffer<R> dd(dev, static_cast<std::size_t>(n)),
          ed(dev, static_cast<std::size_t>(n - 1)), wd(dev, static_cast<std::size_t>(iu - il));
      copy_vector(dev, n, d, dd.data(), /*async=*/true);
      copy_vector(dev, n - 1, e, ed.data(), /*async=*/true);
      tridiag_eigenvalues<R>(dev, n, dd.data(), ed.data(), il, iu, wd.data());
      copy_vector(dev, iu - il, static_cast<const R*>(wd.data()), out);
    });
  });
  comm.allreduce_sum(joined.data(), count);
  // Each slice is ascending and the slices follow each other; the sort only matters where
  // engines of different kinds round the members of a cluster differently.
  std::sort(joined.begin(), joined.end());
  std::copy(joined.begin(), joined.end(), w);
}

}  // namespace

template <Scalar T>
void tridiag_eigenvalues_mgpu(Context& ctx, int64_t n, const real_type_t<T>* d,
                              const real_type_t<T>* e, real_type_t<T>* w) {
  eigenvalues_mgpu<real_type_t<T>>(ctx, "tridiag_eigenvalues_mgpu", n, d, e, -1, 0, n, w);
}

template <Scalar T>
void detail::tridiag_eigenvalues_mgpu(Context& ctx, const char* what, int64_t n,
                                      const real_type_t<T>* d, const real_type_t<T>* e,
                                      int64_t first, int64_t last, real_type_t<T>* w) {
  eigenvalues_mgpu<real_type_t<T>>(ctx, what, n, d, e, -1, first, last, w);
}

template <typename R>
  requires(std::is_same_v<R, float> || std::is_same_v<R, double>)
std::vector<R> tridiag_eigenvalues_mgpu(Context& ctx, const std::vector<R>& d,
                                        const std::vector<R>& e) {
  const auto n = static_cast<int64_t>(d.size());
  std::vector<R> w(d.size());
  eigenvalues_mgpu<R>(ctx, "tridiag_eigenvalues_mgpu", n, d.data(), e.data(),
                      static_cast<int64_t>(e.size()), 0, n, w.data());
  return w;
}

#define MGBLAS_INSTANTIATE(T)                                                              \
  template void tridiag_eigenvalues_mgpu<T>(Context&, int64_t, const real_type_t<T>*,      \
                                            const real_type_t<T>*, real_type_t<T>*);      \
  template void detail::tridiag_eigenvalues_mgpu<T>(Context&, const char*, int64_t,        \
                                                    const real_type_t<T>*,                 \
                                                    const real_type_t<T>*, int64_t, int64_t, \
                                                    real_type_t<T>*);
MGBLAS_FOR_EACH_SCALAR(MGBLAS_INSTANTIATE)
#undef MGBLAS_INSTANTIATE
// The real-vector form, for the real precisions of MGBLAS_PRECISIONS.
#if MGBLAS_HAVE_PRECISION_S
template std::vector<float> tridiag_eigenvalues_mgpu<float>(Context&, const std::vector<float>&,
                                                            const std::vector<float>&);
#endif
#if MGBLAS_HAVE_PRECISION_D
template std::vector<double> tridiag_eigenvalues_mgpu<double>(Context&,
                                                              const std::vector<double>&,
                                                              const std::vector<double>&);
#endif

}  // namespace mgblas
