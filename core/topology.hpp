// SPDX-License-Identifier: BSD-3-Clause
// Topology: which CPUs are close to which GPU (hwloc), how the GPUs of a node are
// shared among its ranks, and binding the calling thread near its GPU.
//
// CPU sets travel as hwloc list strings ("0-15,32-47"); an empty string means
// "unknown" (hwloc not built, or the device not found), which matches everything.
#pragma once

#include <string>
#include <vector>

namespace mgblas {

/// CPUs this thread may run on now; empty if unknown.
std::string current_cpuset();
/// CPUs closest to the PCI device `pci_bus_id` (its non-I/O ancestor); empty if unknown.
std::string pci_device_cpuset(const std::string& pci_bus_id);
/// All CPUs of the machine; empty if unknown.
std::string machine_cpuset();
/// True when the two sets share a CPU, or either is unknown.
bool cpusets_intersect(const std::string& a, const std::string& b);
/// Bind the calling thread to `cpuset`; false (and nothing changed) if not possible.
bool bind_thread_to(const std::string& cpuset);

/// GPUs for node-local rank `local_rank`, given every local rank's CPU set and every
/// GPU's CPU set (index = CUDA ordinal). Each rank takes `per_rank` GPUs (>= 1);
/// ranks choose in local-rank order, each taking the lowest unclaimed GPU that is
/// close to its CPU set, then any unclaimed GPU, and sharing GPUs round-robin only
/// when there are more ranks than GPUs. Pure: every rank computes the same answer.
std::vector<int> assign_gpus(int local_rank, const std::vector<std::string>& rank_cpusets,
                             const std::vector<std::string>& gpu_cpusets, int per_rank);

}  // namespace mgblas
