// SPDX-License-Identifier: BSD-3-Clause
// gebrd_2d: import_2d, gebrd_mgpu, export_2d (see the header). Every argument is checked
// here, inside one agreement, before any of the three collectives starts, so that a bad
// descriptor, pointer or panel is reported under this entry's name rather than a step's,
// and the local arrays are written only by the last step.
#include "dist/lapack/gebrd_2d.hpp"

#include <algorithm>
#include <chrono>
#include <cstdint>

#include "core/agreement.hpp"
#include "core/error.hpp"
#include "dist/lapack/detail/entry_2d.hpp"
#include "dist/lapack/detail/panel_width.hpp"
#include "dist/lapack/detail/phase_clock.hpp"
#include "kernels/labrd_kernels.hpp"
#include "layouts/block_cyclic.hpp"
#include "layouts/dist_matrix.hpp"

namespace mgblas {
namespace {

constexpr const char* kWhat = "gebrd_2d";

template <typename E, typename... Args>
[[noreturn]] void fail(const Args&... args) {
  throw E(__FILE__, __LINE__, kWhat, detail::concat(args...));
}

using detail::seconds_since;

}  // namespace

template <Scalar T>
void gebrd_2d(const std::shared_ptr<Context>& ctx, const BlockCyclic2D& desca, T* a,
              int64_t lda, real_type_t<T>* d, real_type_t<T>* e, T* tauq, T* taup,
              const Gebrd2DOptions& opts) {
  const auto t0 = std::chrono::steady_clock::now();
  if (!ctx) fail<BadArgument>("argument 'ctx' is null");  // no communicator to tell the others
  Context& c = *ctx;
  const int me = c.rank(), nranks = c.nranks(), P = c.global_num_devices();
  const int64_t m = desca.m(), n = desca.n();
  const int64_t k = std::min(m, n), k1 = std::max<int64_t>(0, k - 1);
  const int64_t nb = detail::devices_nb(opts.nb, n, P);
  const int64_t kb = detail::bidiagonal_panel_width(nb, opts.gebrd.panel);

  CallRecord rec(kWhat);
  rec.add_precision<T>()
      .add("opts.nb", opts.nb)
      .add("opts.gebrd.panel", opts.gebrd.panel)
      .add("opts.gebrd.transport", static_cast<int64_t>(opts.gebrd.transport))
      .add("opts.gebrd.one_pass", static_cast<int64_t>(opts.gebrd.one_pass))
      .add("opts.gebrd.one_pass_min_bytes", opts.gebrd.one_pass_min_bytes);
  detail::add_desc(rec, detail::kDescA, desca);
  agree(c.comm(), rec, [&] {
    detail::check_local(kWhat, "desca", "a", "lda", desca, a, lda, me, nranks);
    MGBLAS_CHECK_PTR(d, "d", k > 0);
    MGBLAS_CHECK_PTR(e, "e", k1 > 0);
    MGBLAS_CHECK_PTR(tauq, "tauq", k > 0);
    MGBLAS_CHECK_PTR(taup, "taup", k > 0);
    if (opts.nb < 0) fail<BadArgument>("argument 'opts.nb' = ", opts.nb, ": must be >= 0");
    if (!(kb >= 1 && kb <= kernels::kLabrdMaxPanel && nb % kb == 0))
      fail<BadArgument>("argument 'opts.gebrd.panel' = ", opts.gebrd.panel,
                        ": must be 0 (automatic) or a divisor of the devices' nb = ", nb,
                        " (opts.nb", opts.nb > 0 ? "" : ", automatic", ") in [1, ",
                        kernels::kLabrdMaxPanel, "]");
    if (opts.gebrd.one_pass_min_bytes < 0)
      fail<BadArgument>("argument 'opts.gebrd.one_pass_min_bytes' = ",
                        opts.gebrd.one_pass_min_bytes, ": must be >= 0");
  });
  Gebrd2DProfile prof;
  if (k == 0) return;

  detail::reduce_in_place_2d<T>(ctx, desca, a, lda, nb, prof, [&](DistMatrix<T>& A) {
    gebrd_mgpu<T>(A, d, e, tauq, taup, opts.gebrd);
  });
  prof.total = seconds_since(t0);
  if (opts.profile) *opts.profile = prof;
}

#define MGBLAS_INSTANTIATE(T)                                                               \
  template void gebrd_2d<T>(const std::shared_ptr<Context>&, const BlockCyclic2D&, T*,     \
                            int64_t, real_type_t<T>*, real_type_t<T>*, T*, T*,             \
                            const Gebrd2DOptions&);
MGBLAS_FOR_EACH_SCALAR(MGBLAS_INSTANTIATE)
#undef MGBLAS_INSTANTIATE

}  // namespace mgblas
