// SPDX-License-Identifier: BSD-3-Clause
// The performance model of the tall-and-skinny GEMM engine (the TSM2 paper, section
// 3.1.8, extended to TSM2L and the k-split), in code. Plain C++ (no CUDA header).
//
//   occupancy      resident threads per SM, from the kernel's registers and shared
//                  memory (cudaFuncGetAttributes, cudaOccupancyMaxActiveBlocksPerMultiprocessor),
//                  capped by the threads the grid actually has per SM;
//   Little's law   memory: bytes in flight per SM (threads x loads each keeps
//                  outstanding) over read-bandwidth-per-SM x latency gives the memory
//                  utilisation term (stores do not wait, so only the read share of the
//                  traffic needs loads in flight); arithmetic: independent FMA chains per SM over
//                  FMA-rate x FMA latency gives the compute utilisation term;
//   bound          time = max(memory time, compute time) + launches: the kernel is
//                  compute-bound when the compute time is the larger (the paper's
//                  ratio > 1), memory-bound otherwise.
// The device numbers come from cudaGetDeviceProperties / cudaDeviceGetAttribute; the
// bandwidth from a measured read rate when one was set (set_read_bandwidth, which
// the tester does after measure_read_bandwidth), else 92 % of the theoretical peak.
// The latencies are model constants ("offline profiling" in the paper), recorded
// below with where they come from.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

#include "core/device.hpp"

namespace mgblas::kernels::cuda::tsm2 {

/// What the model knows of a GPU.
struct DeviceModel {
  int ordinal = 0;
  int sms = 1;
  int cc = 0;                   ///< compute capability, major * 10 + minor
  int regs_per_sm = 65536;
  int64_t smem_per_sm = 0;      ///< bytes
  int max_threads_per_sm = 2048;
  int64_t l2_bytes = 0;
  double clock_ghz = 1.0;       ///< peak SM clock
  double peak_bw_gbs = 0;       ///< 2 x memory clock x bus width
  double bw_gbs = 0;            ///< what the model uses (measured or 0.92 x peak)
  bool bw_measured = false;
  // Model constants. The memory latency is the one that fits the H200 measurements
  // of these kernels best (bench/results/h200-tsgemm.md: 223 launches, predicted over
  // measured time within a factor 1.23 rms; unloaded DRAM latency is ~500 ns, the
  // fit absorbs queueing under load); dependent FMA latency 4 cycles (FP32) and 8
  // (FP64, which also issues at half rate).
  double mem_latency_ns = 1100.0;
  double fma_latency_cycles = 4.0;
  double fma64_latency_cycles = 8.0;
  int fma32_per_clk = 128;      ///< FP32 FMAs per clock per SM (sm_80, sm_90)
  int fma64_per_clk = 64;       ///< FP64 FMAs per clock per SM (sm_90; sm_80: 32)
  int issue_per_clk = 128;      ///< thread instructions per clock per SM (4 x 32 lanes)
  /// Shared memory delivered per clock per SM (nominal 128 bytes; a warp's broadcast
  /// 16-byte load counts 512). The same fit as mem_latency_ns chose 128.
  double smem_bytes_per_clk = 128.0;
  double launch_us = 3.0;       ///< back-to-back kernel launch on one stream
};

/// The model of the current device (read once per device, then cached).
const DeviceModel& device_model();
/// Use `gbs` (a measured read bandwidth, GB/s) for the current device from now on;
/// gbs <= 0 returns to 92 % of the theoretical peak.
void set_read_bandwidth(double gbs);
/// Read-only streaming bandwidth of the current device in GB/s (float4 loads summed,
/// `bytes` read per call, median of `reps` calls); queued on `stream` and waited for.
double measure_read_bandwidth(cudaStream_t stream, std::size_t bytes = std::size_t{1} << 31,
                              int reps = 10);

/// A compiled kernel as the hardware sees it.
struct KernelResources {
  int threads = 0;              ///< per block
  int regs = 0;                 ///< per thread
  int local_bytes = 0;          ///< per thread: stack frame and spills (0 is the goal)
  int smem_bytes = 0;           ///< static shared memory per block
  int blocks_per_sm = 0;        ///< residency from the occupancy API
  int paper_threads_per_sm = 0; ///< the paper's estimate: min(max threads, regs/SM / regs,
                                ///< smem/SM / smem per thread)
};

/// What a launch asks of the GPU.
struct Workload {
  double dram_bytes = 0;        ///< bytes to and from device memory
  double fma = 0;               ///< real FMAs issued (a complex multiply-add is 4)
  double instructions = 0;      ///< thread instructions (issue slots)
  bool fp64 = false;
  int64_t blocks = 0;           ///< grid size
  double inflight_bytes = 0;    ///< bytes of loads each thread keeps outstanding
  /// Share of dram_bytes that are reads: Little's law applies to the loads (a store does
  /// not wait), so only this share of the bandwidth needs bytes in flight.
  double read_fraction = 1.0;
  double smem_bytes = 0;        ///< bytes shared memory delivers (16 per lane per 16-byte
                                ///< load, broadcast or not)
  double fma_chains = 0;        ///< independent accumulator chains per thread
  int launches = 1;             ///< kernels (a k-split adds its reduction)
};

struct Prediction {
  bool valid = false;
  double time_us = 0;           ///< predicted run time
  double mem_us = 0, comp_us = 0;
  double mem_util = 0;          ///< Little's-law memory utilisation term, (0, 1]
  double comp_util = 0;         ///< the same for arithmetic
  double bytes = 0, flops = 0;  ///< flops = 2 x fma
  double threads_per_sm = 0;    ///< resident threads the grid keeps per SM
  int64_t blocks = 0;
  bool compute_bound = false;
  /// Achieved fraction of the model's bandwidth, bytes / (time x bw).
  double bw_fraction(const DeviceModel& dm) const {
    return time_us > 0 ? bytes / (time_us * 1e3 * dm.bw_gbs) : 0.0;
  }
};

/// The model proper: pure arithmetic, no device access.
Prediction predict(const DeviceModel& dm, const KernelResources& kr, const Workload& w);

/// "compute-bound 61 % of FMA rate ..." style summary.
std::string describe(const DeviceModel& dm, const Prediction& p);

/// Stream-ordered workspace of the current device for k-splits: a memory pool per
/// device (cudaMallocFromPoolAsync), kept across calls up to a release threshold.
/// Returns nullptr when the pool cannot serve `bytes` (the caller runs unsplit).
void* workspace_alloc(cudaStream_t stream, std::size_t bytes) noexcept;
void workspace_free(cudaStream_t stream, void* p);

}  // namespace mgblas::kernels::cuda::tsm2
