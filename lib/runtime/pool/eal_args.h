// DPDK EAL command lines for rocetb runs, built without starting the EAL (so they can be
// unit-tested). start_eal() (eal.h) uses them.
//
// Defaults suit virtual runs and tests: no PCI, no shared config, no telemetry, one fixed
// lcore, quiet logs, a file prefix unique to the process, and hugepages only when they
// are mounted and enough are free (otherwise --no-huge). Memory (-m, MB) is computed from
// the bytes the mbuf pools need (PoolSizes::memory_bytes()) plus a margin for the EAL's
// own heap, unless given.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/error.h"
#include "core/units.h"
#include "runtime/pool/tsc_calibration.h"

namespace rtb::runtime {

enum class HugepageMode {
  kAuto,     // use hugepages when hugetlbfs is mounted and enough are free
  kNever,    // --no-huge (anonymous 4 KiB pages)
  kRequire,  // hugepages or an error that says how to get them
};

struct EalOptions {
  std::string program = "rocetb";   // argv[0] (log prefix)
  unsigned main_lcore = 0;           // -l: the lcore the caller's thread runs on
  std::vector<unsigned> worker_lcores;  // more lcores for realtime runs (-l N,a,b)
  uint64_t pool_bytes = 0;           // memory the mbuf pools will take
  unsigned memory_mb = 0;            // -m; 0 = pool_bytes plus the margin below
  HugepageMode hugepages = HugepageMode::kAuto;
  bool pci = false;                  // false: --no-pci (virtual runs, tests)
  // PCI devices the EAL may probe (-a each, e.g. "0000:03:00.0"); empty with pci = true:
  // every device bound to a DPDK-capable driver. Needs pci = true.
  std::vector<std::string> pci_allow;
  bool shared_config = false;        // false: --no-shconf (no secondary processes)
  bool telemetry = false;            // false: --no-telemetry (realtime runs turn it on)
  std::string file_prefix;           // empty: "rocetb-<pid>-<n>", unique per process
  std::string log_level = "error";   // --log-level
  // The EAL's TSC calibration sleep where DPDK measures the TSC (tsc_calibration.h): 100 ms
  // in DPDK, 10 ms here, 1 ms for virtual runs, which never read the TSC.
  Time tsc_calibration_sleep = kShortCalibration;
  std::vector<std::string> extra;    // passed through last (e.g. --vdev=net_null0)
};

// EAL heap margin on top of the pools: rings, memzones, malloc heap, per-lcore data.
constexpr uint64_t kEalMarginBytes = 64ull << 20;

// What the machine offers, from /proc/mounts and /sys/kernel/mm/hugepages.
struct HugepageInfo {
  bool mounted = false;        // a hugetlbfs mount exists
  std::string mount_point;     // the first one found
  uint64_t free_bytes = 0;     // free hugepages of every size, in bytes
};

// Reads the two sources (paths are parameters so tests can give fakes). Missing or
// unreadable files mean "no hugepages".
HugepageInfo probe_hugepages(const std::string& mounts_path = "/proc/mounts",
                             const std::string& sysfs_dir = "/sys/kernel/mm/hugepages");

// -m in MB: memory_mb when set, else ceil((pool_bytes + kEalMarginBytes) / MiB).
unsigned eal_memory_mb(const EalOptions& o);

// "rocetb-<pid>-<n>", n counting calls in this process.
std::string unique_file_prefix();

// The full argument vector (argv[0] first). Errors: kRequire without enough free
// hugepages; an extra argument that contradicts the options (for example -l or -m given
// twice); pci_allow without pci.
Expected<std::vector<std::string>> eal_arguments(const EalOptions& o,
                                                 const HugepageInfo& huge);

}  // namespace rtb::runtime
