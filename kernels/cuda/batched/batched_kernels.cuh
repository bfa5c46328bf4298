// SPDX-License-Identifier: BSD-3-Clause
// Batched GEMM kernels and their launchers (private; included by the per-precision
// instance files batched_{s,d,c,z}.cu only).
#pragma once

#include <cuda_runtime.h>

#include <cstdio>
#include <string>
#include <utility>
#include <vector>

#include "core/detail/cuda_check.hpp"
#include "kernels/cuda/batched/batched_programs.cuh"
#include "kernels/cuda/batched/batched_registry.hpp"
#include "kernels/cuda/batched/batched_tuning.hpp"
#include "kernels/cuda/common/device_scalar.cuh"

namespace mgblas::kernels::cuda::batched::detail {

/// The thread context of a block program on the GPU (one dimension of threads).
struct DeviceCtx {
  __device__ __forceinline__ int thread() const { return static_cast<int>(threadIdx.x); }
  __device__ __forceinline__ void sync() const { __syncthreads(); }
};

// small_gemm_kernel: dev::SmallGemm::run (batched_programs.cuh) for block blockIdx.x.
// Mapping: block b holds entries [b * E, b * E + E) of its launch, E =
// args.entries_per_block; thread t works on entry t / threads-per-entry.
// Shared memory: dynamic, E * Prog::kSharedPerEntry scalars (staged operands, then
// results). Preconditions: blockDim.x == E * Prog::kThreadsPerEntry <= kMaxThreads;
// sizes within the program's bounds (exact programs: equal to them).
template <typename Prog>
__global__ void __launch_bounds__(Prog::kMaxThreads)
    small_gemm_kernel(const dev::BatchArgs<typename Prog::Scalar> args) {
  extern __shared__ __align__(16) unsigned char small_smem[];
  DeviceCtx ctx;
  Prog::run(args, ctx, reinterpret_cast<typename Prog::Scalar*>(small_smem),
            static_cast<int64_t>(blockIdx.x));
}

// tiled_gemm_kernel: dev::TiledGemm::run for block blockIdx.x = entry * tiles + tile.
// Mapping: tile (row tiles fastest) of args.tiles_m x args.tiles_n covers a
// kBM x kBN block of the entry's C; blocks past an entry's C return at once.
// Shared memory: static, one kBM x kBK tile of op(A) and one kBK x kBN of op(B).
// Preconditions: blockDim.x == Prog::kThreads.
template <typename Prog>
__global__ void __launch_bounds__(Prog::kThreads)
    tiled_gemm_kernel(const dev::BatchArgs<typename Prog::Scalar> args) {
  __shared__ typename Prog::Scalar tiled_smem[Prog::kSharedElements];
  DeviceCtx ctx;
  Prog::run(args, ctx, tiled_smem, static_cast<int64_t>(blockIdx.x));
}

template <typename Kernel>
KernelAttributes kernel_attributes(Kernel kernel) {
  cudaFuncAttributes a{};
  MGBLAS_CHECK_CUDA(cudaFuncGetAttributes(&a, reinterpret_cast<const void*>(kernel)));
  return {a.numRegs, static_cast<int>(a.sharedSizeBytes), a.maxThreadsPerBlock,
          static_cast<int>(a.localSizeBytes)};
}

template <typename Prog>
KernelAttributes small_attributes() {
  return kernel_attributes(small_gemm_kernel<Prog>);
}
template <typename Prog>
KernelAttributes tiled_attributes() {
  return kernel_attributes(tiled_gemm_kernel<Prog>);
}

template <typename Prog>
void launch_small(const void* raw, int entries, cudaStream_t stream) {
  using D = typename Prog::Scalar;
  const auto& all = *static_cast<const dev::BatchArgs<D>*>(raw);
  const int threads = entries * Prog::kThreadsPerEntry;
  if (entries < 1 || threads > Prog::kMaxThreads)
    MGBLAS_THROW(BadArgument, "entries per block ", entries, " gives ", threads,
                 " threads: the kernel takes 1 to ", Prog::kMaxThreads);
  const std::size_t smem = static_cast<std::size_t>(entries) * Prog::kSharedPerEntry * sizeof(D);
  if (smem > 48 * 1024)
    MGBLAS_CHECK_CUDA(cudaFuncSetAttribute(small_gemm_kernel<Prog>,
                                           cudaFuncAttributeMaxDynamicSharedMemorySize,
                                           static_cast<int>(smem)));
  // Entries per launch: as many blocks as a launch takes (64-bit batches split).
  const int64_t chunk = max_blocks_per_launch() * entries;
  for (int64_t off = 0; off < all.batch; off += chunk) {
    const int64_t count = all.batch - off < chunk ? all.batch - off : chunk;
    dev::BatchArgs<D> args = all.advanced(off, count);
    args.entries_per_block = entries;
    const auto blocks = static_cast<unsigned>((count + entries - 1) / entries);
    small_gemm_kernel<Prog><<<blocks, threads, smem, stream>>>(args);
    MGBLAS_CHECK_LAUNCH(stream);
  }
}

template <typename Prog, int kBM, int kBN>
void launch_tiled(const void* raw, int, cudaStream_t stream) {
  using D = typename Prog::Scalar;
  const auto& all = *static_cast<const dev::BatchArgs<D>*>(raw);
  const int64_t tiles_m = (all.m + kBM - 1) / kBM, tiles_n = (all.n + kBN - 1) / kBN;
  const int64_t tiles = tiles_m * tiles_n;
  const int64_t max_blocks = max_blocks_per_launch();
  if (tiles < 1) return;
  if (tiles > max_blocks)
    MGBLAS_THROW(NotImplemented, "batched gemm: ", tiles, " tiles per entry exceed one launch (",
                 max_blocks, " blocks)");
  const int64_t chunk = max_blocks / tiles;
  for (int64_t off = 0; off < all.batch; off += chunk) {
    const int64_t count = all.batch - off < chunk ? all.batch - off : chunk;
    dev::BatchArgs<D> args = all.advanced(off, count);
    args.tiles_m = static_cast<int>(tiles_m);
    args.tiles_n = static_cast<int>(tiles_n);
    tiled_gemm_kernel<Prog><<<static_cast<unsigned>(count * tiles), Prog::kThreads, 0, stream>>>(args);
    MGBLAS_CHECK_LAUNCH(stream);
  }
}

inline std::string small_name(const SmallSpec& s) {
  char b[64];
  std::snprintf(b, sizeof b, "%s_%dx%dx%d_t%dx%d", s.exact ? "small" : "smallb", s.m, s.n, s.k,
                s.tm, s.tn);
  return b;
}
inline std::string tiled_name(const TiledSpec& s) {
  char b[64];
  std::snprintf(b, sizeof b, "tiled_%dx%dx%d_d%dx%d", s.bm, s.bn, s.bk, s.dx, s.dy);
  return b;
}

template <typename T, std::size_t I>
InstanceEntry make_small_entry() {
  using D = common::device_t<T>;
  constexpr SmallSpec s = kSmallSpecs[I];
  using General = dev::SmallGemm<D, s.m, s.n, s.k, s.tm, s.tn, s.exact, dev::kGeneral>;
  InstanceEntry e;
  e.info.name = small_name(s);
  e.info.family = s.exact ? Family::Small : Family::SmallBounded;
  e.info.m = s.m;
  e.info.n = s.n;
  e.info.k = s.k;
  e.info.tm = s.tm;
  e.info.tn = s.tn;
  e.info.threads_per_entry = General::kThreadsPerEntry;
  e.info.shared_bytes = General::kSharedPerEntry * static_cast<int>(sizeof(D));
  e.info.max_threads = General::kMaxThreads;
  e.launch[dev::kGeneral] = &launch_small<General>;
  e.attributes[dev::kGeneral] = &small_attributes<General>;
  if constexpr (kBuildAlphaOneBetaZero && s.alpha_one_beta_zero) {
    using Plain = dev::SmallGemm<D, s.m, s.n, s.k, s.tm, s.tn, s.exact, dev::kAlphaOneBetaZero>;
    e.info.alpha_one_beta_zero = true;
    e.launch[dev::kAlphaOneBetaZero] = &launch_small<Plain>;
    e.attributes[dev::kAlphaOneBetaZero] = &small_attributes<Plain>;
  }
  return e;
}

template <typename T, std::size_t I>
InstanceEntry make_tiled_entry() {
  using D = common::device_t<T>;
  constexpr TiledSpec s = kTiledSpecs[I];
  using General = dev::TiledGemm<D, s.bm, s.bn, s.bk, s.dx, s.dy, dev::kGeneral>;
  InstanceEntry e;
  e.info.name = tiled_name(s);
  e.info.family = Family::Tiled;
  e.info.m = s.bm;
  e.info.n = s.bn;
  e.info.k = s.bk;
  e.info.tm = s.dx;
  e.info.tn = s.dy;
  e.info.threads_per_entry = General::kThreads;
  e.info.shared_bytes = General::kSharedElements * static_cast<int>(sizeof(D));
  e.info.max_threads = General::kThreads;
  e.launch[dev::kGeneral] = &launch_tiled<General, s.bm, s.bn>;
  e.attributes[dev::kGeneral] = &tiled_attributes<General>;
  return e;
}

/// The part (instance file) of instance `index` of the concatenated lists: consecutive
/// instances are the tiles of one size (1, 2, 4: cheap to costly), so the index is
/// mixed with the size position to spread the costly ones over the parts.
constexpr int part_of(std::size_t index, int parts) {
  return static_cast<int>((index + index / 3) % static_cast<std::size_t>(parts));
}

/// Whether small instance I is built for device scalars of `bytes` bytes: 4x4 thread
/// tiles of 16-byte scalars are not (64 accumulator registers; they spilled, compiled
/// slowly, and complex arithmetic already does four FMAs per shared-memory read).
template <std::size_t I>
constexpr bool small_built_for(std::size_t bytes) {
  return kSmallSpecs[I].tm * kSmallSpecs[I].tn * bytes <= 4 * 4 * 8;
}

// One instance into `out` when it belongs to part kPart; `if constexpr`, so that the
// other parts do not instantiate (and compile) its kernels at all.
template <typename T, std::size_t I, int kPart, int kParts>
void add_small_if_mine(std::vector<InstanceEntry>& out) {
  if constexpr (part_of(I, kParts) == kPart && small_built_for<I>(sizeof(T)))
    out.push_back(make_small_entry<T, I>());
}
template <typename T, std::size_t I, int kPart, int kParts>
void add_tiled_if_mine(std::vector<InstanceEntry>& out) {
  if constexpr (part_of(kSmallSpecs.size() + I, kParts) == kPart)
    out.push_back(make_tiled_entry<T, I>());
}

/// Part kPart of kParts of the instances for API scalar T (one instance file).
template <typename T, int kPart, int kParts>
void add_instance_part(std::vector<InstanceEntry>& out) {
  [&]<std::size_t... I>(std::index_sequence<I...>) {
    (add_small_if_mine<T, I, kPart, kParts>(out), ...);
  }(std::make_index_sequence<kSmallSpecs.size()>{});
  [&]<std::size_t... I>(std::index_sequence<I...>) {
    (add_tiled_if_mine<T, I, kPart, kParts>(out), ...);
  }(std::make_index_sequence<kTiledSpecs.size()>{});
}

}  // namespace mgblas::kernels::cuda::batched::detail
