// SPDX-License-Identifier: BSD-3-Clause
// Tall-and-skinny GEMM launchers and dispatcher (private): which kernel covers a shape,
// the model's choice of tuning set, k-split and grid, and the launches. Included by
// the per-precision instance files tsgemm_{s,d,c,z}.cu only.
#pragma once

#include <cuda_runtime.h>

#include <algorithm>
#include <array>
#include <cstdint>
#include <mutex>
#include <string>
#include <vector>

#include "core/detail/cuda_check.hpp"
#include "core/error.hpp"
#include "kernels/cuda/common/cublas.hpp"
#include "kernels/cuda/common/launchers.hpp"
#include "kernels/cuda/tsgemm/tsgemm.cuh"
#include "kernels/cuda/tsgemm/tsgemm.hpp"
#include "kernels/cuda/tsgemm/tsgemm_dispatch.hpp"
#include "kernels/cuda/tsgemm/tsgemm_tuning.hpp"
#include "kernels/cuda/common/variant.hpp"

namespace mgblas::kernels::cuda::tsm2 {

using common::built_variants;
using common::with_variant;

// Tuning sets compiled per engine (the first only in the CI build).
template <typename T> inline constexpr std::size_t kRBuilt = built_variants<TsgemmTuning<T>::kR.size()>;
template <typename T> inline constexpr std::size_t kLBuilt = built_variants<TsgemmTuning<T>::kL.size()>;
template <typename T> inline constexpr std::size_t kTBuilt = built_variants<TsgemmTuning<T>::kT.size()>;

inline int64_t round_up(int64_t a, int64_t b) { return ceil_div(a, b) * b; }

// ---- the kernels of each tuning set ------------------------------------------------------

template <typename T, std::size_t V>
auto tsm2r_kernel_of() {
  using D = common::device_t<T>;
  constexpr Tsm2rShape s = TsgemmTuning<T>::kR[V];
  return &tsm2r_kernel<D, s.t1, s.t2, s.t3, s.rows, s.min_blocks>;
}
template <typename T, std::size_t V>
auto tsm2l_kernel_of() {
  using D = common::device_t<T>;
  constexpr Tsm2lShape s = TsgemmTuning<T>::kL[V];
  if constexpr (s.cols > 0)
    return &tsm2l_cols_kernel<D, s.threads, s.n_max, s.cols, s.t3, s.rows, s.stages, kMaxK,
                              s.min_blocks>;
  else
    return &tsm2l_kernel<D, s.threads, s.n_max, s.t3, s.rows, s.interleave, s.stages, kMaxK,
                         s.min_blocks>;
}
template <typename T, std::size_t V, bool kConj>
auto tsmttsm_kernel_of() {
  using D = common::device_t<T>;
  constexpr TsmttsmShape s = TsgemmTuning<T>::kT[V];
  return &tsmttsm_kernel<D, s.threads, s.tm, s.tn, kConj, s.min_blocks>;
}

template <typename Kernel>
KernelResources query_resources(Kernel kernel, int threads) {
  cudaFuncAttributes attr{};
  MGBLAS_CHECK_CUDA(cudaFuncGetAttributes(&attr, kernel));
  int blocks = 0;
  MGBLAS_CHECK_CUDA(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, kernel, threads, 0));
  KernelResources r;
  r.threads = threads;
  r.regs = attr.numRegs;
  r.local_bytes = static_cast<int>(attr.localSizeBytes);
  r.smem_bytes = static_cast<int>(attr.sharedSizeBytes);
  r.blocks_per_sm = blocks;
  // The paper's occupancy estimate, for comparison with the API's.
  const DeviceModel& dm = device_model();
  int64_t est = dm.max_threads_per_sm;
  if (r.regs > 0) est = std::min<int64_t>(est, dm.regs_per_sm / r.regs);
  if (r.smem_bytes > 0) est = std::min<int64_t>(est, dm.smem_per_sm * threads / r.smem_bytes);
  r.paper_threads_per_sm = static_cast<int>(est);
  return r;
}

template <Scalar T>
int variant_count(Engine e) {
  switch (e) {
    case Engine::Tsm2r: return static_cast<int>(kRBuilt<T>);
    case Engine::Tsm2l: return static_cast<int>(kLBuilt<T>);
    case Engine::Tsmttsm: return static_cast<int>(kTBuilt<T>);
    default: return 0;
  }
}

template <Scalar T>
const char* variant_name(Engine e, int variant) {
  // Built once: the labels of Choice point into these (static storage).
  static const std::array<std::vector<std::string>, 3> names = [] {
    std::array<std::vector<std::string>, 3> out;
    for (std::size_t v = 0; v < kRBuilt<T>; ++v) {
      const Tsm2rShape s = TsgemmTuning<T>::kR[v];
      out[0].push_back("tsm2r " + std::to_string(s.t1) + "x" + std::to_string(s.t2) + "x" +
                       std::to_string(s.t3) + (s.rows > 1 ? " r" + std::to_string(s.rows) : ""));
    }
    for (std::size_t v = 0; v < kLBuilt<T>; ++v) {
      const Tsm2lShape s = TsgemmTuning<T>::kL[v];
      out[1].push_back("tsm2l " + std::to_string(s.threads) + "xn" + std::to_string(s.n_max) +
                       "x" + std::to_string(s.t3) + (s.rows > 1 ? " r" + std::to_string(s.rows) : "") +
                       (s.cols > 0 ? " c" + std::to_string(s.cols) : "") +
                       (s.stages > 0 ? " async" + std::to_string(s.stages)
                                     : s.interleave ? " opt2" : " opt1"));
    }
    for (std::size_t v = 0; v < kTBuilt<T>; ++v) {
      const TsmttsmShape s = TsgemmTuning<T>::kT[v];
      out[2].push_back("tsmttsm " + std::to_string(s.threads) + "x" + std::to_string(s.tm) +
                       "x" + std::to_string(s.tn));
    }
    return out;
  }();
  const int idx = e == Engine::Tsm2r ? 0 : e == Engine::Tsm2l ? 1 : e == Engine::Tsmttsm ? 2 : -1;
  if (idx < 0 || variant < 0 || variant >= static_cast<int>(names[idx].size())) return "";
  return names[idx][static_cast<std::size_t>(variant)].c_str();
}

template <Scalar T>
KernelResources variant_resources(Engine e, int variant) {
  constexpr int kDevices = 64;
  struct Cache {
    std::mutex mutex;
    std::array<std::array<KernelResources, 8>, 3> entries[kDevices];
    std::array<std::array<bool, 8>, 3> ready[kDevices] = {};
  };
  static Cache cache;
  const int idx = e == Engine::Tsm2r ? 0 : e == Engine::Tsm2l ? 1 : e == Engine::Tsmttsm ? 2 : -1;
  if (idx < 0 || variant < 0 || variant >= variant_count<T>(e))
    MGBLAS_THROW(BadArgument, "tsgemm: no tuning set ", variant, " for engine ", to_string(e));
  int dev = 0;
  MGBLAS_CHECK_CUDA(cudaGetDevice(&dev));
  if (dev < 0 || dev >= kDevices) MGBLAS_THROW(NotImplemented, "device ordinal ", dev);
  std::lock_guard<std::mutex> lock(cache.mutex);
  KernelResources& r = cache.entries[dev][idx][static_cast<std::size_t>(variant)];
  bool& ready = cache.ready[dev][idx][static_cast<std::size_t>(variant)];
  if (!ready) {
    if (e == Engine::Tsm2r)
      with_variant<kRBuilt<T>>(variant, [&](auto v) {
        r = query_resources(tsm2r_kernel_of<T, decltype(v)::value>(), TsgemmTuning<T>::kR[v].t1);
      });
    else if (e == Engine::Tsm2l)
      with_variant<kLBuilt<T>>(variant, [&](auto v) {
        r = query_resources(tsm2l_kernel_of<T, decltype(v)::value>(),
                            TsgemmTuning<T>::kL[v].threads);
      });
    else
      with_variant<kTBuilt<T>>(variant, [&](auto v) {
        r = query_resources(tsmttsm_kernel_of<T, decltype(v)::value, false>(),
                            TsgemmTuning<T>::kT[v].threads);
      });
    ready = true;
  }
  return r;
}

// ---- the model's view of each launch -----------------------------------------------------

template <Scalar T>
struct Traits {
  static constexpr double elem = sizeof(T);
  static constexpr double fma_per_mac = is_complex_v<T> ? 4.0 : 1.0;
  static constexpr double chains_per_acc = is_complex_v<T> ? 2.0 : 1.0;
  static constexpr double vec = 16.0 / sizeof(T);
  static constexpr bool fp64 = sizeof(real_type_t<T>) == 8;
};

/// TSM2R with `split` k ranges (split > 1: partials, one more launch to sum them).
template <Scalar T>
Prediction predict_tsm2r(const DeviceModel& dm, const KernelResources& kr, const Tsm2rShape& s,
                         int64_t m, int64_t n, int64_t k, bool beta_zero, int64_t split) {
  using Tr = Traits<T>;
  const double passes = static_cast<double>(ceil_div(n, s.t2));
  const double rb = static_cast<double>(ceil_div(m, static_cast<int64_t>(s.t1) * s.rows));
  const double md = static_cast<double>(m), nd = static_cast<double>(n), kd = static_cast<double>(k);
  Workload w;
  w.dram_bytes = Tr::elem * (md * kd * passes + kd * nd + md * nd * (beta_zero ? 1.0 : 2.0) +
                             (split > 1 ? 2.0 * split * md * nd : 0.0));
  const double rows = rb * s.t1 * s.rows;  // rows computed, the clamped ones included
  w.fma = rows * kd * s.t2 * passes * Tr::fma_per_mac;
  w.instructions = rows * kd * passes * (s.t2 * Tr::fma_per_mac + s.t2 / Tr::vec / s.rows + 1.5);
  // Every thread reads each B value of its tiles once for its rows: 16 bytes per lane
  // per load go through the shared-memory pipe, broadcast or not.
  w.smem_bytes = rows / s.rows * kd * passes * s.t2 * Tr::elem;
  w.fp64 = Tr::fp64;
  w.blocks = static_cast<int64_t>(rb) * split;
  w.inflight_bytes = static_cast<double>(s.t3) * s.rows * Tr::elem;
  w.read_fraction = 1.0 - Tr::elem * md * nd * (split > 1 ? split + 1.0 : 1.0) / w.dram_bytes;
  w.fma_chains = s.t2 * s.rows * Tr::chains_per_acc;
  w.launches = split > 1 ? 2 : 1;
  return predict(dm, kr, w);
}

template <Scalar T>
Prediction predict_tsm2l(const DeviceModel& dm, const KernelResources& kr, const Tsm2lShape& s,
                         int64_t m, int64_t n, int64_t k, bool beta_zero, int64_t blocks) {
  using Tr = Traits<T>;
  const double md = static_cast<double>(m), nd = static_cast<double>(n);
  const double kpad = static_cast<double>(round_up(k, s.t3));
  const double nch = kpad / s.t3;
  // tsm2l_cols_kernel: groups threads share a row (cols columns each) and read its A
  // values back from shared memory; each B value feeds `rows` rows. tsm2l_kernel's sets
  // with rows > 1 measured no faster than rows = 1 (bench/results/h200-tsgemm.md,
  // sweep_l: s 128xn32x8 r2 575 us vs opt1 555 us at 2^24 x 8 x 8; c r2 slower), i.e.
  // B is re-read per row in practice, so it gets no such credit. The cols kernel's
  // credit is what its design assumes (not yet measured).
  const bool cols = s.cols > 0;
  const double groups = cols ? static_cast<double>(s.n_max / s.cols) : 1.0;
  const double b_share = cols ? s.rows : 1.0;
  const double copy = s.stages > 0 ? 1.0 : 0.0;  // cp.async into shared memory
  Workload w;
  w.dram_bytes = Tr::elem * (md * k + static_cast<double>(k) * nd + md * nd * (beta_zero ? 1.0 : 2.0));
  w.fma = md * kpad * s.n_max * Tr::fma_per_mac;
  w.instructions =
      md * kpad * (s.n_max * Tr::fma_per_mac + s.n_max / Tr::vec / b_share + 1.0 + copy +
                   (cols ? groups : 0.0)) +
      md * nd * (beta_zero ? 2.0 : 3.0);
  w.smem_bytes = md * kpad * Tr::elem * (s.n_max / b_share + copy + (cols ? groups : 0.0));
  w.fp64 = Tr::fp64;
  w.blocks = blocks;
  // Opt2 keeps the next fetch outstanding all the time; Opt1 starts each row with none;
  // the staged forms keep stages - 1 fetches outstanding (the cols kernel's fetch is
  // a block's chunk, rows / groups elements of it per thread).
  const double fetch =
      static_cast<double>(std::min<int64_t>(s.t3, k)) * s.rows / groups * Tr::elem;
  w.inflight_bytes = s.stages > 0 ? (s.stages - 1) * fetch
                                  : fetch * (s.interleave ? 1.0 : 1.0 - 0.5 / nch);
  w.read_fraction = 1.0 - Tr::elem * md * nd / w.dram_bytes;
  w.fma_chains = (cols ? s.cols : s.n_max) * s.rows * Tr::chains_per_acc;
  return predict(dm, kr, w);
}

template <Scalar T>
Prediction predict_tsmttsm(const DeviceModel& dm, const KernelResources& kr,
                           const TsmttsmShape& s, int64_t m, int64_t n, int64_t k, bool beta_zero,
                           int64_t split) {
  using Tr = Traits<T>;
  const double tiles_m = static_cast<double>(ceil_div(m, s.tm));
  const double tiles_n = static_cast<double>(ceil_div(n, s.tn));
  const double md = static_cast<double>(m), nd = static_cast<double>(n), kd = static_cast<double>(k);
  Workload w;
  // Tiles re-read their columns (through L2 when co-resident; counted in full here, so
  // the model prefers the larger tiles).
  w.dram_bytes = Tr::elem * (kd * md * tiles_n + kd * nd * tiles_m + md * nd * (beta_zero ? 1.0 : 2.0) +
                             (split > 1 ? 2.0 * split * md * nd : 0.0));
  w.fma = kd * tiles_m * tiles_n * s.tm * s.tn * Tr::fma_per_mac;
  w.instructions = kd * tiles_m * tiles_n * (s.tm * s.tn * Tr::fma_per_mac + s.tm + s.tn + 2.0);
  w.fp64 = Tr::fp64;
  w.blocks = static_cast<int64_t>(tiles_m * tiles_n) * split;
  w.inflight_bytes = (s.tm + s.tn) * Tr::elem;
  w.read_fraction = 1.0 - Tr::elem * md * nd * (split > 1 ? split + 1.0 : 1.0) / w.dram_bytes;
  w.fma_chains = s.tm * s.tn * Tr::chains_per_acc;
  w.launches = split > 1 ? 2 : 1;
  return predict(dm, kr, w);
}

/// k ranges worth trying: powers and half-powers of two up to `max_split`, and the
/// count that fills one wave of the GPU exactly.
inline std::vector<int64_t> split_candidates(int64_t max_split, int64_t fill) {
  std::vector<int64_t> out;
  for (int64_t s = 1; s <= max_split; s = s < 4 ? s + 1 : s + s / 2) out.push_back(s);
  if (fill >= 1 && fill <= max_split) out.push_back(fill);
  return out;
}

// ---- coverage and choice -----------------------------------------------------------------

/// mgblas's kernels read operands as the device type: cuDoubleComplex needs 16 bytes.
template <Scalar T>
bool element_aligned(const T* p) {
  constexpr std::size_t align = is_complex_v<T> ? 2 * sizeof(real_type_t<T>) : sizeof(T);
  return reinterpret_cast<uintptr_t>(p) % align == 0;
}

/// a runs faster than b by more than 1 %, or as fast with less arithmetic (a TSM2L set
/// with a smaller n_max, a TSM2R set with a t2 nearer n).
inline bool better(const Prediction& a, const Prediction& b) {
  if (a.time_us < 0.99 * b.time_us) return true;
  return a.time_us <= 1.01 * b.time_us && a.comp_us < 0.99 * b.comp_us;
}

template <Scalar T>
Choice choose(Op opA, Op opB, int64_t m, int64_t n, int64_t k, const T* A, int64_t lda,
              const T* B, int64_t ldb, const T* C, int64_t ldc, bool beta_zero, Params prm) {
  Choice c;
  if (m <= 0 || n <= 0) {
    c.label = "none (empty C: quick return)";
    return c;
  }
  if (k <= 0) {
    c.label = "scale (k = 0: C = beta C)";
    return c;
  }
  const bool aligned = element_aligned(A) && element_aligned(B) && element_aligned(C);
  const int widest_l = TsgemmTuning<T>::kL[0].n_max;
  // The engine each shape belongs to, and why cuBLAS where none does.
  Engine natural = Engine::Cublas;
  const char* reason = "";
  if (!aligned) {
    reason = "cublas (an operand is not aligned to its element type)";
  } else if (opA == Op::N) {
    if (n > kMaxSkinny) reason = "cublas (op(A) = N with n > 32: op(B) is not skinny)";
    else natural = k <= kMaxK ? Engine::Tsm2l : Engine::Tsm2r;
  } else if (opB != Op::N) {
    reason = "cublas (op(A) = T/C with op(B) = T/C: no mgblas kernel)";
  } else if (m > kMaxSkinny || n > kMaxSkinny) {
    reason = "cublas (op(A) = T/C with m or n > 32: the result is not small)";
  } else {
    natural = Engine::Tsmttsm;
  }

  Engine e = prm.engine == Engine::Auto ? natural : prm.engine;
  if (prm.engine != Engine::Auto && e != Engine::Cublas) {
    const bool covers =
        aligned && ((e == Engine::Tsm2r && opA == Op::N) ||
                    (e == Engine::Tsm2l && opA == Op::N && k <= kMaxK && n <= widest_l) ||
                    (e == Engine::Tsmttsm && opA != Op::N && opB == Op::N));
    if (!covers)
      MGBLAS_THROW(BadArgument, "tsgemm: engine ", to_string(e), " does not cover opA = ",
                   mgblas::to_string(opA), ", opB = ", mgblas::to_string(opB), ", m = ", m,
                   ", n = ", n, ", k = ", k, aligned ? "" : " (operands not aligned)");
  }
  if (e == Engine::Cublas) {
    c.label = prm.engine == Engine::Cublas ? "cublas (forced)" : reason;
    return c;
  }

  const DeviceModel& dm = device_model();
  const int count = variant_count<T>(e);
  if (prm.variant >= count)
    MGBLAS_THROW(BadArgument, "tsgemm: tuning set ", prm.variant, " of ", to_string(e),
                 " is not built (", count, " built)");
  for (int v = prm.variant >= 0 ? prm.variant : 0; v < (prm.variant >= 0 ? prm.variant + 1 : count);
       ++v) {
    const KernelResources kr = variant_resources<T>(e, v);
    Prediction best;
    int64_t best_split = 1, best_blocks = 0;
    if (e == Engine::Tsm2r) {
      const Tsm2rShape s = TsgemmTuning<T>::kR[static_cast<std::size_t>(v)];
      const int64_t rb = ceil_div(m, static_cast<int64_t>(s.t1) * s.rows);
      const int64_t max_split = std::min<int64_t>(common::kMaxGridY, std::max<int64_t>(1, k / (2 * s.t1)));
      std::vector<int64_t> splits{std::max<int64_t>(1, prm.split)};
      if (prm.split <= 0)
        splits = split_candidates(max_split, ceil_div(static_cast<int64_t>(dm.sms) * kr.blocks_per_sm, rb));
      for (int64_t sp : splits) {
        // What the launcher will run: k ranges whole multiples of t1.
        const int64_t kps = round_up(ceil_div(k, std::min(sp, common::kMaxGridY)), s.t1);
        const int64_t eff = ceil_div(k, kps);
        const Prediction p = predict_tsm2r<T>(dm, kr, s, m, n, k, beta_zero, eff);
        if (!best.valid || better(p, best)) best = p, best_split = eff;
      }
    } else if (e == Engine::Tsm2l) {
      const Tsm2lShape s = TsgemmTuning<T>::kL[static_cast<std::size_t>(v)];
      // The column-group sets ran at 26-63 % of the read bandwidth on the H200
      // (bench/results/h200-tsgemm.md, sweep_l, 2026-11-22), below the register-prefetch
      // sets on every shape the model sent them: run only when asked for by index.
      if (s.cols > 0 && prm.variant < 0) continue;
      if (s.n_max < n) {
        if (prm.variant >= 0)
          MGBLAS_THROW(BadArgument, "tsgemm: ", variant_name<T>(e, v), " takes n <= ", s.n_max,
                       ", not ", n);
        continue;
      }
      // The paper's tile count: one wave of resident threads, each walking m / threads rows.
      const int64_t fill = std::max<int64_t>(1, static_cast<int64_t>(dm.sms) * kr.blocks_per_sm);
      best_blocks = prm.blocks > 0 ? prm.blocks
                                   : std::min(ceil_div(m, static_cast<int64_t>(tsm2l_block_rows(s))), fill);
      best_blocks = std::clamp<int64_t>(best_blocks, 1, 0x7fffffff);
      best = predict_tsm2l<T>(dm, kr, s, m, n, k, beta_zero, best_blocks);
    } else {
      const TsmttsmShape s = TsgemmTuning<T>::kT[static_cast<std::size_t>(v)];
      const int64_t tiles = ceil_div(m, s.tm) * ceil_div(n, s.tn);
      const int64_t max_split =
          std::min<int64_t>(common::kMaxGridY, std::max<int64_t>(1, k / (4 * s.threads)));
      std::vector<int64_t> splits{std::max<int64_t>(1, prm.split)};
      if (prm.split <= 0)
        splits = split_candidates(max_split, ceil_div(static_cast<int64_t>(dm.sms) * kr.blocks_per_sm, tiles));
      for (int64_t sp : splits) {
        const int64_t kps = round_up(ceil_div(k, std::min(sp, common::kMaxGridY)), s.threads);
        const int64_t eff = ceil_div(k, kps);
        const Prediction p = predict_tsmttsm<T>(dm, kr, s, m, n, k, beta_zero, eff);
        if (!best.valid || better(p, best)) best = p, best_split = eff;
      }
    }
    if (best.valid && (!c.prediction.valid || better(best, c.prediction))) {
      c.engine = e;
      c.variant = v;
      c.split = best_split;
      c.blocks = best_blocks;
      c.prediction = best;
      c.label = variant_name<T>(e, v);
    }
  }
  if (c.engine == Engine::Cublas) {
    c.label = "cublas (the model found no launchable tuning set)";
    return c;
  }
  // cuBLAS where the model expects it to be faster (the table's cublas_fraction), or
  // where the table says it was measured faster than the model's choice (tsgemm/tables/).
  if (prm.engine == Engine::Auto && prm.variant < 0) {
    const double min_bytes =
        sizeof(T) * (static_cast<double>(m) * n * (beta_zero ? 1.0 : 2.0) +
                     static_cast<double>(k) * m + static_cast<double>(k) * n);
    const int64_t small = e == Engine::Tsm2r ? n : e == Engine::Tsm2l ? std::max(k, n)
                                                                       : std::max(m, n);
    const CublasRule rule = cublas_rule(dm.cc, precision_letter<T>(), e, small);
    if (rule.cublas) {
      c.engine = Engine::Cublas;
      c.label = e == Engine::Tsm2r
                    ? "cublas (measured faster than the model's choice for this TSM2R shape class)"
                    : "cublas (measured faster than the model's choice for this shape class)";
      return c;
    }
    if (rule.fraction > 0) {
      const double cublas_us = min_bytes / (dm.bw_gbs * 1e3 * rule.fraction) + dm.launch_us;
      if (c.prediction.time_us > 1.02 * cublas_us) {
        c.engine = Engine::Cublas;
        c.label = "cublas (the model predicts it faster than the best mgblas tuning set here)";
      }
    }
  }
  return c;
}

template <Scalar T>
const char* tsgemm_choice(Op opA, Op opB, int64_t m, int64_t n, int64_t k, const T* A,
                          int64_t lda, const T* B, int64_t ldb, const T* C, int64_t ldc) {
  return choose<T>(opA, opB, m, n, k, A, lda, B, ldb, C, ldc, false).label;
}

// ---- launches ----------------------------------------------------------------------------

/// Owns a k-split workspace until the stream has used it (stream-ordered free).
struct Workspace {
  cudaStream_t stream = nullptr;
  void* ptr = nullptr;
  ~Workspace() {
    try {
      workspace_free(stream, ptr);
    } catch (...) {
      // A failed free leaves the memory to the pool; the launch error is what matters.
    }
  }
};

/// The k ranges of a k-split launch: `split` (clamped to the grid's y limit) ranges of kps
/// elements, kps a multiple of `step`; returns kps and sets split to the range count. With
/// more than one range ws gets room for the split partial m x n results; without that
/// memory one range covers all of k (the kernels stop at k).
template <typename D>
int64_t split_k(Workspace& ws, int64_t m, int64_t n, int64_t k, int64_t step, int64_t& split) {
  int64_t kps = round_up(ceil_div(k, std::clamp<int64_t>(split, 1, common::kMaxGridY)), step);
  split = ceil_div(k, kps);
  if (split > 1) {
    ws.ptr = workspace_alloc(ws.stream, static_cast<std::size_t>(split * m * n) * sizeof(D));
    if (!ws.ptr) {
      split = 1;
      kps = round_up(k, step);
    }
  }
  return kps;
}

template <typename D>
void launch_reduce(cudaStream_t stream, int64_t m, int64_t n, int64_t split, const D* work,
                   D alpha, D beta, D* C, int64_t ldc) {
  const int sms = device_model().sms;
  const unsigned grid = common::grid_dim(m * n, 256, static_cast<int64_t>(sms) * 8);
  reduce_kernel<D><<<grid, 256, 0, stream>>>(m, n, split, work, alpha, beta, C, ldc);
  MGBLAS_CHECK_LAUNCH(stream);
}

/// op(B) element (p, j) at B[p * rs + j * cs], conjugated when `conj`.
struct BView {
  int64_t rs, cs;
  bool conj;
};
template <Scalar T>
BView b_view(Op opB, int64_t ldb) {
  if (opB == Op::N) return {1, ldb, false};
  return {ldb, 1, is_complex_v<T> && opB == Op::C};
}

template <Scalar T, std::size_t V>
void launch_tsm2r(cudaStream_t stream, Op opB, int64_t m, int64_t n, int64_t k, T alpha,
                  const T* A, int64_t lda, const T* B, int64_t ldb, T beta, T* C, int64_t ldc,
                  int64_t split) {
  using D = common::device_t<T>;
  constexpr Tsm2rShape s = TsgemmTuning<T>::kR[V];
  Workspace ws{stream, nullptr};
  const int64_t kps = split_k<D>(ws, m, n, k, s.t1, split);
  const BView bv = b_view<T>(opB, ldb);
  const dim3 grid(static_cast<unsigned>(ceil_div(m, static_cast<int64_t>(s.t1) * s.rows)),
                  static_cast<unsigned>(split));
  D* work = static_cast<D*>(ws.ptr);
  tsm2r_kernel_of<T, V>()<<<grid, s.t1, 0, stream>>>(
      m, n, k, common::to_device(alpha), common::device_ptr(A), lda, common::device_ptr(B), bv.rs,
      bv.cs, bv.conj, common::to_device(beta), common::device_ptr(C), ldc, kps, work);
  MGBLAS_CHECK_LAUNCH(stream);
  if (work)
    launch_reduce<D>(stream, m, n, split, work, common::to_device(alpha), common::to_device(beta),
                     common::device_ptr(C), ldc);
}

template <Scalar T, std::size_t V>
void launch_tsm2l(cudaStream_t stream, Op opB, int64_t m, int64_t n, int64_t k, T alpha,
                  const T* A, int64_t lda, const T* B, int64_t ldb, T beta, T* C, int64_t ldc,
                  int64_t blocks) {
  constexpr Tsm2lShape s = TsgemmTuning<T>::kL[V];
  const BView bv = b_view<T>(opB, ldb);
  const int64_t grid = std::clamp<int64_t>(
      std::min(blocks, ceil_div(m, static_cast<int64_t>(tsm2l_block_rows(s)))), 1, 0x7fffffff);
  tsm2l_kernel_of<T, V>()<<<static_cast<unsigned>(grid), s.threads, 0, stream>>>(
      m, static_cast<int>(n), static_cast<int>(k), common::to_device(alpha), common::device_ptr(A),
      lda, common::device_ptr(B), bv.rs, bv.cs, bv.conj, common::to_device(beta),
      common::device_ptr(C), ldc);
  MGBLAS_CHECK_LAUNCH(stream);
}

template <Scalar T, std::size_t V>
void launch_tsmttsm(cudaStream_t stream, Op opA, int64_t m, int64_t n, int64_t k, T alpha,
                    const T* A, int64_t lda, const T* B, int64_t ldb, T beta, T* C, int64_t ldc,
                    int64_t split) {
  using D = common::device_t<T>;
  constexpr TsmttsmShape s = TsgemmTuning<T>::kT[V];
  Workspace ws{stream, nullptr};
  const int64_t kps = split_k<D>(ws, m, n, k, s.threads, split);
  D* work = static_cast<D*>(ws.ptr);
  const dim3 grid(static_cast<unsigned>(ceil_div(m, s.tm) * ceil_div(n, s.tn)),
                  static_cast<unsigned>(split));
  auto go = [&](auto kernel) {
    kernel<<<grid, s.threads, 0, stream>>>(m, n, k, common::to_device(alpha), common::device_ptr(A),
                                           lda, common::device_ptr(B), ldb, common::to_device(beta),
                                           common::device_ptr(C), ldc, kps, work);
    MGBLAS_CHECK_LAUNCH(stream);
  };
  if (is_complex_v<T> && opA == Op::C) go(tsmttsm_kernel_of<T, V, is_complex_v<T>>());
  else go(tsmttsm_kernel_of<T, V, false>());
  if (work)
    launch_reduce<D>(stream, m, n, split, work, common::to_device(alpha), common::to_device(beta),
                     common::device_ptr(C), ldc);
}

template <Scalar T>
void tsgemm(cublasHandle_t handle, cudaStream_t stream, Op opA, Op opB, int64_t m, int64_t n,
            int64_t k, T alpha, const T* A, int64_t lda, const T* B, int64_t ldb, T beta, T* C,
            int64_t ldc, Params params) {
  if (m <= 0 || n <= 0) return;
  if (k <= 0 || alpha == T(0)) {
    common::scale(stream, m, n, beta, C, 1, ldc);
    return;
  }
  const Choice c = choose<T>(opA, opB, m, n, k, A, lda, B, ldb, C, ldc, beta == T(0), params);
  switch (c.engine) {
    case Engine::Tsm2r:
      with_variant<kRBuilt<T>>(c.variant, [&](auto v) {
        launch_tsm2r<T, decltype(v)::value>(stream, opB, m, n, k, alpha, A, lda, B, ldb, beta, C,
                                            ldc, c.split);
      });
      break;
    case Engine::Tsm2l:
      with_variant<kLBuilt<T>>(c.variant, [&](auto v) {
        launch_tsm2l<T, decltype(v)::value>(stream, opB, m, n, k, alpha, A, lda, B, ldb, beta, C,
                                            ldc, c.blocks);
      });
      break;
    case Engine::Tsmttsm:
      with_variant<kTBuilt<T>>(c.variant, [&](auto v) {
        launch_tsmttsm<T, decltype(v)::value>(stream, opA, m, n, k, alpha, A, lda, B, ldb, beta, C,
                                              ldc, c.split);
      });
      break;
    default:
      common::cublas::gemm(handle, stream, opA, opB, m, n, k, alpha, A, lda, B, ldb, beta, C, ldc);
  }
}

}  // namespace mgblas::kernels::cuda::tsm2

#define MGBLAS_TSGEMM_INSTANTIATE(T) MGBLAS_TSGEMM_DECLARE_(, T)
