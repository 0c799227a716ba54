// The EAL's CPU and NUMA probes, answered from one listing of sysfs.
//
// DPDK 22.11's rte_eal_cpu_init() (lib/eal/linux/eal_lcore.c) asks access(path, F_OK), for
// every possible lcore N < RTE_MAX_LCORE (128), whether
//   /sys/devices/system/cpu/cpuN/topology/core_id          (eal_cpu_detected)
// exists, several times over, and, NUMA node by node up to RTE_MAX_NUMA_NODES (32), whether
//   /sys/devices/system/node/nodeM/cpuN                    (eal_cpu_socket_id)
// does: on a 2-CPU machine about 5,000 system calls, all but a handful failing, and about
// a tenth of a virtual run's start in this project's VM (lib/runtime/pool/README.md).
// `rocetb` links DPDK statically with `-Wl,--wrap=access` (apps/eal_access.cc): while the
// calling thread starts the EAL (eal_start_window.h), those two probes are answered from
// the directories /sys/devices/system/cpu and /sys/devices/system/node/node*, listed once;
// any other path, mode or thread goes to the real access(). The answers are the kernel's,
// as they stood when listed.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

namespace rtb::runtime {

// What access(path, mode) returns for one of the EAL's two topology probes (0, or -1 with
// errno set to ENOENT) while the calling thread starts the EAL; empty otherwise.
std::optional<int> eal_topology_access(const char* path, int mode);

// The same answer for a probe under `sysfs`, a folder laid out as /sys, listed now (in
// any thread, at any time); empty when `path` is not a probe or `sysfs` cannot be listed
// whole. For tests: a layout this machine does not have.
std::optional<int> topology_access_under(const std::string& sysfs, const char* path);

// Probes answered so far in this process (run.json "eal_start").
uint64_t eal_topology_probes_answered();

}  // namespace rtb::runtime
