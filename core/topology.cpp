// SPDX-License-Identifier: BSD-3-Clause
#include "core/topology.hpp"

#include <algorithm>
#include <mutex>

#include "core/config.hpp"
#include "core/error.hpp"

#if MGBLAS_HAVE_HWLOC
#include <hwloc.h>
#endif

namespace mgblas {

#if MGBLAS_HAVE_HWLOC
namespace {
// One topology per process, loaded on first use with I/O devices (GPUs are PCI
// devices to hwloc), kept until exit: loading it costs milliseconds.
hwloc_topology_t topology() {
  static hwloc_topology_t topo = [] {
    hwloc_topology_t t = nullptr;
    if (hwloc_topology_init(&t) != 0) return static_cast<hwloc_topology_t>(nullptr);
    hwloc_topology_set_io_types_filter(t, HWLOC_TYPE_FILTER_KEEP_IMPORTANT);
    if (hwloc_topology_load(t) != 0) {
      hwloc_topology_destroy(t);
      return static_cast<hwloc_topology_t>(nullptr);
    }
    return t;
  }();
  return topo;
}

std::string to_list(hwloc_const_bitmap_t set) {
  char* s = nullptr;
  if (hwloc_bitmap_list_asprintf(&s, set) < 0 || !s) return {};
  std::string out(s);
  free(s);
  return out;
}

struct Bitmap {
  hwloc_bitmap_t b = hwloc_bitmap_alloc();
  ~Bitmap() { hwloc_bitmap_free(b); }
};
}  // namespace

std::string current_cpuset() {
  auto t = topology();
  if (!t) return {};
  Bitmap set;
  if (hwloc_get_cpubind(t, set.b, HWLOC_CPUBIND_THREAD) != 0) return {};
  return to_list(set.b);
}

std::string machine_cpuset() {
  auto t = topology();
  if (!t) return {};
  return to_list(hwloc_topology_get_topology_cpuset(t));
}

std::string pci_device_cpuset(const std::string& pci_bus_id) {
  auto t = topology();
  if (!t || pci_bus_id.empty()) return {};
  hwloc_obj_t pci = hwloc_get_pcidev_by_busidstring(t, pci_bus_id.c_str());
  if (!pci) return {};
  hwloc_obj_t anc = hwloc_get_non_io_ancestor_obj(t, pci);
  return anc && anc->cpuset ? to_list(anc->cpuset) : std::string{};
}

bool cpusets_intersect(const std::string& a, const std::string& b) {
  if (a.empty() || b.empty()) return true;
  Bitmap x, y;
  if (hwloc_bitmap_list_sscanf(x.b, a.c_str()) != 0) return true;
  if (hwloc_bitmap_list_sscanf(y.b, b.c_str()) != 0) return true;
  return hwloc_bitmap_intersects(x.b, y.b) != 0;
}

bool bind_thread_to(const std::string& cpuset) {
  auto t = topology();
  if (!t || cpuset.empty()) return false;
  Bitmap set;
  if (hwloc_bitmap_list_sscanf(set.b, cpuset.c_str()) != 0) return false;
  return hwloc_set_cpubind(t, set.b, HWLOC_CPUBIND_THREAD) == 0;
}
#else
std::string current_cpuset() { return {}; }
std::string machine_cpuset() { return {}; }
std::string pci_device_cpuset(const std::string&) { return {}; }
bool cpusets_intersect(const std::string&, const std::string&) { return true; }
bool bind_thread_to(const std::string&) { return false; }
#endif

std::vector<int> assign_gpus(int local_rank, const std::vector<std::string>& rank_cpusets,
                             const std::vector<std::string>& gpu_cpusets, int per_rank) {
  const int nranks = static_cast<int>(rank_cpusets.size());
  const int ngpus = static_cast<int>(gpu_cpusets.size());
  MGBLAS_CHECK_ARG(local_rank >= 0 && local_rank < nranks, "local_rank", local_rank,
                   "in [0, ", nranks, ")");
  MGBLAS_CHECK_ARG(per_rank >= 1, "per_rank", per_rank, ">= 1");
  if (ngpus == 0) return {};
  if (nranks * per_rank > ngpus) {
    // More ranks than GPUs: ranks share GPUs round-robin, one each.
    return {local_rank % ngpus};
  }
  std::vector<bool> taken(ngpus, false);
  std::vector<int> mine;
  for (int r = 0; r <= local_rank; ++r) {
    for (int k = 0; k < per_rank; ++k) {
      int pick = -1;
      for (int g = 0; g < ngpus && pick < 0; ++g)
        if (!taken[g] && cpusets_intersect(rank_cpusets[r], gpu_cpusets[g])) pick = g;
      for (int g = 0; g < ngpus && pick < 0; ++g)
        if (!taken[g]) pick = g;
      taken[pick] = true;
      if (r == local_rank) mine.push_back(pick);
    }
  }
  std::sort(mine.begin(), mine.end());
  return mine;
}

}  // namespace mgblas
