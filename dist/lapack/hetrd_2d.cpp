// SPDX-License-Identifier: BSD-3-Clause
// hetrd_2d: import_2d, hetrd_mgpu, export_2d (see the header). Every argument is checked
// here, inside one agreement, before any of the three collectives starts, so that a bad
// descriptor, pointer or panel is reported under this entry's name rather than a step's,
// and the local arrays are written only by the last step.
#include "dist/lapack/hetrd_2d.hpp"

#include <algorithm>
#include <chrono>
#include <cstdint>

#include "core/agreement.hpp"
#include "core/error.hpp"
#include "dist/lapack/detail/entry_2d.hpp"
#include "dist/lapack/detail/panel_width.hpp"
#include "dist/lapack/detail/phase_clock.hpp"
#include "kernels/latrd_kernels.hpp"
#include "layouts/block_cyclic.hpp"
#include "layouts/dist_matrix.hpp"

namespace mgblas {
namespace {

constexpr const char* kWhat = "hetrd_2d";

template <typename E, typename... Args>
[[noreturn]] void fail(const Args&... args) {
  throw E(__FILE__, __LINE__, kWhat, detail::concat(args...));
}

using detail::seconds_since;

}  // namespace

template <Scalar T>
void hetrd_2d(const std::shared_ptr<Context>& ctx, Uplo uplo, const BlockCyclic2D& desca, T* a,
              int64_t lda, real_type_t<T>* d, real_type_t<T>* e, T* tau,
              const Hetrd2DOptions& opts) {
  const auto t0 = std::chrono::steady_clock::now();
  if (!ctx) fail<BadArgument>("argument 'ctx' is null");  // no communicator to tell the others
  Context& c = *ctx;
  const int me = c.rank(), nranks = c.nranks(), P = c.global_num_devices();
  const int64_t n = desca.m(), n1 = std::max<int64_t>(0, n - 1);
  const int64_t nb = detail::devices_nb(opts.nb, n, P);
  const int64_t kb = detail::tridiagonal_panel_width(nb, opts.hetrd.panel, n);

  CallRecord rec(kWhat);
  rec.add_precision<T>()
      .add("uplo", static_cast<char>(uplo))
      .add("opts.nb", opts.nb)
      .add("opts.hetrd.panel", opts.hetrd.panel)
      .add("opts.hetrd.transport", static_cast<int64_t>(opts.hetrd.transport));
  detail::add_desc(rec, detail::kDescA, desca);
  agree(c.comm(), rec, [&] {
    if (uplo != Uplo::Lower && uplo != Uplo::Upper)
      fail<BadArgument>("argument 'uplo' = ", static_cast<char>(uplo),
                        ": must be Uplo::Lower or Uplo::Upper");
    if (desca.n() != n)
      fail<DimensionMismatch>("argument 'desca' is ", n, " x ", desca.n(), ": must be square");
    detail::check_local(kWhat, "desca", "a", "lda", desca, a, lda, me, nranks);
    MGBLAS_CHECK_PTR(d, "d", n > 0);
    MGBLAS_CHECK_PTR(e, "e", n1 > 0);
    MGBLAS_CHECK_PTR(tau, "tau", n1 > 0);
    if (opts.nb < 0) fail<BadArgument>("argument 'opts.nb' = ", opts.nb, ": must be >= 0");
    if (!(kb >= 1 && kb <= kernels::kLatrdMaxPanel && nb % kb == 0))
      fail<BadArgument>("argument 'opts.hetrd.panel' = ", opts.hetrd.panel,
                        ": must be 0 (automatic) or a divisor of the devices' nb = ", nb,
                        " (opts.nb", opts.nb > 0 ? "" : ", automatic", ") in [1, ",
                        kernels::kLatrdMaxPanel, "]");
  });
  Hetrd2DProfile prof;
  if (n == 0) return;

  detail::reduce_in_place_2d<T>(ctx, desca, a, lda, nb, prof, [&](DistMatrix<T>& A) {
    hetrd_mgpu<T>(uplo, A, d, e, tau, opts.hetrd);
  });
  prof.total = seconds_since(t0);
  if (opts.profile) *opts.profile = prof;
}

#define MGBLAS_INSTANTIATE(T)                                                                 \
  template void hetrd_2d<T>(const std::shared_ptr<Context>&, Uplo, const BlockCyclic2D&, T*, \
                            int64_t, real_type_t<T>*, real_type_t<T>*, T*,                   \
                            const Hetrd2DOptions&);
MGBLAS_FOR_EACH_SCALAR(MGBLAS_INSTANTIATE)
#undef MGBLAS_INSTANTIATE

}  // namespace mgblas
