// SPDX-License-Identifier: BSD-3-Clause
// The tall-and-skinny GEMM performance model: device numbers, the Little's-law
// prediction, and the stream-ordered k-split workspace.
#include "kernels/cuda/tsgemm/tsgemm_model.hpp"

#include "kernels/cuda/tsgemm/tsgemm.hpp"

#include <cuda_runtime.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <mutex>

#include "core/detail/cuda_check.hpp"

namespace mgblas::kernels::cuda::tsm2 {
namespace {

constexpr int kMaxDevices = 64;

struct Slot {
  bool ready = false;
  DeviceModel model;
  cudaMemPool_t pool = nullptr;
};
std::mutex g_mutex;
std::array<Slot, kMaxDevices> g_slots;

int current_ordinal() {
  int dev = 0;
  MGBLAS_CHECK_CUDA(cudaGetDevice(&dev));
  if (dev < 0 || dev >= kMaxDevices)
    MGBLAS_THROW(NotImplemented, "device ordinal ", dev, " beyond ", kMaxDevices);
  return dev;
}

DeviceModel read_model(int dev) {
  cudaDeviceProp prop{};
  MGBLAS_CHECK_CUDA(cudaGetDeviceProperties(&prop, dev));
  DeviceModel dm;
  dm.ordinal = dev;
  dm.sms = std::max(1, prop.multiProcessorCount);
  dm.cc = prop.major * 10 + prop.minor;
  dm.regs_per_sm = prop.regsPerMultiprocessor;
  dm.smem_per_sm = static_cast<int64_t>(prop.sharedMemPerMultiprocessor);
  dm.max_threads_per_sm = prop.maxThreadsPerMultiProcessor;
  dm.l2_bytes = prop.l2CacheSize;
  // Clocks left cudaDeviceProp in CUDA 13; the attributes remain (kHz).
  int sm_khz = 0, mem_khz = 0;
  MGBLAS_CHECK_CUDA(cudaDeviceGetAttribute(&sm_khz, cudaDevAttrClockRate, dev));
  MGBLAS_CHECK_CUDA(cudaDeviceGetAttribute(&mem_khz, cudaDevAttrMemoryClockRate, dev));
  dm.clock_ghz = sm_khz > 0 ? sm_khz * 1e-6 : 1.5;
  dm.peak_bw_gbs = 2.0 * mem_khz * 1e3 * (prop.memoryBusWidth / 8.0) * 1e-9;
  if (dm.peak_bw_gbs <= 0) dm.peak_bw_gbs = 1000.0;
  dm.bw_gbs = 0.92 * dm.peak_bw_gbs;
  // Full-rate FP64 (GP100, GV100, GA100, GH100): 32 per SM per clock before Hopper.
  dm.fma64_per_clk = dm.cc >= 90 ? 64 : (dm.cc == 60 || dm.cc == 70 || dm.cc == 80) ? 32 : 2;
  dm.fma32_per_clk = dm.cc >= 80 && dm.cc != 80 ? 128 : 64;
  return dm;
}

Slot& slot_locked(int dev) {
  Slot& s = g_slots[static_cast<std::size_t>(dev)];
  if (!s.ready) {
    s.model = read_model(dev);
    s.ready = true;
  }
  return s;
}

}  // namespace

const DeviceModel& device_model() {
  const int dev = current_ordinal();
  std::lock_guard<std::mutex> lock(g_mutex);
  return slot_locked(dev).model;
}

void set_read_bandwidth(double gbs) {
  const int dev = current_ordinal();
  std::lock_guard<std::mutex> lock(g_mutex);
  DeviceModel& dm = slot_locked(dev).model;
  dm.bw_measured = gbs > 0;
  dm.bw_gbs = gbs > 0 ? gbs : 0.92 * dm.peak_bw_gbs;
}

Prediction predict(const DeviceModel& dm, const KernelResources& kr, const Workload& w) {
  Prediction p;
  if (kr.threads <= 0 || kr.blocks_per_sm <= 0 || w.blocks <= 0) return p;
  p.valid = true;
  p.blocks = w.blocks;
  p.bytes = w.dram_bytes;
  p.flops = 2.0 * w.fma;
  // Occupancy: what the kernel's resources allow, or fewer when the grid is smaller
  // than one wave (threads spread evenly: the block scheduler fills SMs round-robin).
  const double resident_blocks =
      std::min<double>(static_cast<double>(w.blocks), static_cast<double>(dm.sms) * kr.blocks_per_sm);
  p.threads_per_sm = resident_blocks * kr.threads / dm.sms;
  // Little's law for memory: bandwidth per SM (bytes/ns) x latency (ns) must be in flight.
  const double needed_bytes =
      dm.bw_gbs / dm.sms * dm.mem_latency_ns * std::clamp(w.read_fraction, 0.05, 1.0);
  p.mem_util = std::clamp(p.threads_per_sm * w.inflight_bytes / needed_bytes, 1e-3, 1.0);
  // ... and for arithmetic: FMA rate x latency independent chains per SM.
  const double rate = w.fp64 ? dm.fma64_per_clk : dm.fma32_per_clk;
  const double lat = w.fp64 ? dm.fma64_latency_cycles : dm.fma_latency_cycles;
  p.comp_util = std::clamp(p.threads_per_sm * w.fma_chains / (rate * lat), 1e-3, 1.0);
  const double clocks_per_us = dm.clock_ghz * 1e3;
  p.mem_us = w.dram_bytes / (dm.bw_gbs * 1e3 * p.mem_util);
  const double fma_us = w.fma / (dm.sms * rate * clocks_per_us * p.comp_util);
  const double issue_us = w.instructions / (dm.sms * dm.issue_per_clk * clocks_per_us * p.comp_util);
  const double smem_us = w.smem_bytes / (dm.sms * dm.smem_bytes_per_clk * clocks_per_us);
  p.comp_us = std::max({fma_us, issue_us, smem_us});
  p.compute_bound = p.comp_us > p.mem_us;
  p.time_us = std::max(p.mem_us, p.comp_us) + dm.launch_us * w.launches;
  return p;
}

std::string describe(const DeviceModel& dm, const Prediction& p) {
  if (!p.valid) return "no prediction";
  char buf[256];
  std::snprintf(buf, sizeof buf,
                "model %.1f us (%s-bound; mem %.1f us at %.0f%% of %.0f GB/s%s, compute %.1f us "
                "at %.0f%% of peak; %.0f threads/SM, %lld blocks)",
                p.time_us, p.compute_bound ? "compute" : "memory", p.mem_us, 100.0 * p.mem_util,
                dm.bw_gbs, dm.bw_measured ? " measured" : "", p.comp_us, 100.0 * p.comp_util,
                p.threads_per_sm, static_cast<long long>(p.blocks));
  return buf;
}

// ---- choices ----------------------------------------------------------------------------

const char* to_string(Engine e) noexcept {
  switch (e) {
    case Engine::Auto: return "auto";
    case Engine::Tsm2r: return "tsm2r";
    case Engine::Tsm2l: return "tsm2l";
    case Engine::Tsmttsm: return "tsmttsm";
    case Engine::Cublas: return "cublas";
  }
  return "?";
}

std::string describe(const Choice& c) {
  std::string s = c.label;
  if (c.engine == Engine::Tsm2r || c.engine == Engine::Tsmttsm)
    s += ", split " + std::to_string(c.split);
  if (c.engine == Engine::Tsm2l) s += ", " + std::to_string(c.blocks) + " blocks";
  if (c.prediction.valid) s += "; " + describe(device_model(), c.prediction);
  return s;
}

// ---- workspace ------------------------------------------------------------------------------

void* workspace_alloc(cudaStream_t stream, std::size_t bytes) noexcept {
  try {
    const int dev = current_ordinal();
    cudaMemPool_t pool = nullptr;
    {
      std::lock_guard<std::mutex> lock(g_mutex);
      Slot& s = g_slots[static_cast<std::size_t>(dev)];
      if (!s.pool) {
        cudaMemPoolProps props{};
        props.allocType = cudaMemAllocationTypePinned;
        props.location.type = cudaMemLocationTypeDevice;
        props.location.id = dev;
        MGBLAS_CHECK_CUDA(cudaMemPoolCreate(&s.pool, &props));
        // Keep up to 1 GiB cached across calls: a k-split workspace is re-requested by
        // every call of a loop, and returning it to the driver at each synchronisation
        // would make the next call allocate again.
        uint64_t keep = uint64_t{1} << 30;
        MGBLAS_CHECK_CUDA(cudaMemPoolSetAttribute(s.pool, cudaMemPoolAttrReleaseThreshold, &keep));
      }
      pool = s.pool;
    }
    void* p = nullptr;
    if (cudaMallocFromPoolAsync(&p, bytes, pool, stream) != cudaSuccess) {
      (void)cudaGetLastError();  // clear the sticky-free allocation error
      return nullptr;
    }
    return p;
  } catch (...) {
    return nullptr;
  }
}

void workspace_free(cudaStream_t stream, void* p) {
  if (p) MGBLAS_CHECK_CUDA(cudaFreeAsync(p, stream));
}

}  // namespace mgblas::kernels::cuda::tsm2
