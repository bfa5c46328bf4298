// SPDX-License-Identifier: BSD-3-Clause
// geqrf_mgpu: right-looking blocked QR (see the header). Per panel: the owner factors it
// (kernels::geqrf), tau is broadcast, and detail::ReflectorBlocks, with A as both the
// reflectors' carrier and C, broadcasts V and applies the block to the columns right of
// the panel on every device.
#include "dist/lapack/geqrf_mgpu.hpp"

#include <algorithm>
#include <memory>
#include <vector>

#include "core/error.hpp"
#include "core/memory.hpp"
#include "dist/detail/device_collectives.hpp"
#include "dist/detail/mgpu_common.hpp"
#include "dist/lapack/detail/panel_width.hpp"
#include "dist/lapack/detail/reflector_blocks.hpp"
#include "kernels/larfb_kernels.hpp"
#include "kernels/sy2sb_kernels.hpp"
#include "layouts/block_cyclic.hpp"

namespace mgblas {
namespace {

using detail::ReflectorBlocks;
using detail::ReflectorShape;

// ?geqrf's reflectors: in the columns, units on the diagonal, Q = H(0) ... H(k-1).
constexpr ReflectorShape kQrShape{.rows = false, .forward = true, .off = 0};

// Automatic panels: the largest divisor of nb that is <= 128 (kernels::kLarftMaxBlock).
// The trailing update's gemms have the panel as inner dimension, and the CUDA engine
// factors a wide panel in 32-column steps of its one-kernel QR. One H200, d, 65536 x 4096
// (bench/results/h200-tall-svd.md): QR 0.160 s with panels of 64, 0.141 s with 128.
constexpr int64_t kAutoPanelCap = kernels::kLarftMaxBlock;

// Checks every argument on this rank; the caller agrees on the outcome over the ranks.
template <Scalar T>
void check_geqrf(const Context& ctx, const DistMatrix<T>& A, const T* tau, int64_t kb) {
  const BlockCyclic1D& L = A.layout();
  detail::check_matrix(ctx, A);
  detail::check_reflector_block_width(L, kb);
  MGBLAS_CHECK_PTR(tau, "tau", std::min(L.m(), L.n()) > 0);
}

template <Scalar T>
CallRecord geqrf_record(const DistMatrix<T>& A, int64_t kb, const GeqrfOptions& opts) {
  CallRecord rec("geqrf_mgpu");
  detail::add_matrix_fields(rec, A);
  rec.add("opts.panel", kb).add("opts.transport", static_cast<int64_t>(opts.transport));
  return rec;
}

}  // namespace

template <Scalar T>
void geqrf_mgpu(DistMatrix<T>& A, T* tau, const GeqrfOptions& opts) {
  Context& ctx = A.context();
  const BlockCyclic1D& L = A.layout();
  const int64_t k = std::min(L.m(), L.n());
  const int64_t kb = detail::panel_width(L.nb(), opts.panel, kAutoPanelCap);
  // The workspace is made inside the agreement, so a failed allocation on one rank
  // raises on every rank before A is written.
  std::unique_ptr<ReflectorBlocks<T>> job;
  std::vector<DeviceBuffer<T>> tau_dev;
  CallRecord rec = geqrf_record(A, kb, opts);
  agree(ctx.comm(), rec, [&] {
        check_geqrf(ctx, A, tau, kb);
        if (k == 0) return;
        job = std::make_unique<ReflectorBlocks<T>>(kQrShape, A, A, kb, /*host_tau=*/false);
        for (int dd = 0; dd < ctx.num_devices(); ++dd)
          tau_dev.emplace_back(ctx.device(dd), static_cast<std::size_t>(k));
      });
  if (!job) return;  // k = 0, alike on every rank

  std::vector<T*> tv;
  for (auto& t : tau_dev) tv.push_back(t.data());
  const std::vector<const T*> ctv(tv.begin(), tv.end());
  detail::DeviceCollectives coll(ctx, opts.transport);
  const int64_t m = L.m(), n = L.n(), lda = A.ld();
  for (int64_t j = 0, run = 0; j < k; j += kb, ++run) {
    const int64_t ib = std::min(kb, k - j);
    // The panel A(j:m, j:j+ib) lies on one device (kb divides nb): its owner factors it.
    const int owner = L.owner(j), ol = ctx.local_index_of(owner);
    if (ol >= 0) {
      const Device& dev = ctx.device(ol);
      dev.make_current();
      kernels::geqrf<T>(Queue(dev), m - j, ib, A.local(ol) + L.local_col(j) * lda + j, lda,
                        tv[ol] + j);
    }
    std::vector<T*> tj;
    for (T* t : tv) tj.push_back(t + j);
    coll.broadcast<T>(tj, ib, owner);
    // The block's V to every device, and H(j)^H ... applied to A(j:m, j+ib:n).
    if (j + ib < n) job->apply_block(coll, Op::C, ctv, run, j + ib);
  }
  coll.wait();
  // Every device holds the same tau: each rank reads its first device's.
  const Device& dev0 = ctx.device(0);
  dev0.make_current();
  copy_vector(dev0, k, ctv[0], tau);
}

#define MGBLAS_INSTANTIATE(T) \
  template void geqrf_mgpu<T>(DistMatrix<T>&, T*, const GeqrfOptions&);
MGBLAS_FOR_EACH_SCALAR(MGBLAS_INSTANTIATE)
#undef MGBLAS_INSTANTIATE

}  // namespace mgblas
