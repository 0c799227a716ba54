#include "runtime/pool/eal_args.h"

#include <unistd.h>

#include <atomic>
#include <filesystem>
#include <fstream>
#include <sstream>

#include <fmt/format.h>

namespace rtb::runtime {
namespace {

constexpr uint64_t kMiB = 1ull << 20;

uint64_t read_number(const std::filesystem::path& p) {
  std::ifstream in(p);
  uint64_t v = 0;
  in >> v;
  return in ? v : 0;
}

// "hugepages-2048kB" -> 2048 * 1024 bytes; 0 if the name does not parse.
uint64_t page_bytes_from_dir_name(const std::string& name) {
  unsigned long long kb = 0;
  if (std::sscanf(name.c_str(), "hugepages-%llukB", &kb) != 1) return 0;
  return kb * 1024;
}

// Options that start_eal() sets itself and an extra argument must not repeat.
bool conflicts(const std::string& arg) {
  static const char* const kOwned[] = {"-l", "--lcores", "-c", "-m", "--socket-mem",
                                       "--file-prefix", "--no-huge", "--log-level"};
  for (const char* owned : kOwned) {
    const std::string o = owned;
    if (arg == o || arg.rfind(o + "=", 0) == 0) return true;
  }
  return false;
}

std::string lcore_list(const EalOptions& o) {
  std::string s = std::to_string(o.main_lcore);
  for (unsigned w : o.worker_lcores) s += "," + std::to_string(w);
  return s;
}

}  // namespace

HugepageInfo probe_hugepages(const std::string& mounts_path, const std::string& sysfs_dir) {
  HugepageInfo info;
  std::ifstream mounts(mounts_path);
  for (std::string line; std::getline(mounts, line);) {
    std::istringstream fields(line);
    std::string device, mount_point, fstype;
    fields >> device >> mount_point >> fstype;
    if (fstype == "hugetlbfs") {
      info.mounted = true;
      info.mount_point = mount_point;
      break;
    }
  }
  std::error_code ec;
  for (const auto& entry : std::filesystem::directory_iterator(sysfs_dir, ec)) {
    const uint64_t page = page_bytes_from_dir_name(entry.path().filename().string());
    if (page != 0) info.free_bytes += page * read_number(entry.path() / "free_hugepages");
  }
  return info;
}

unsigned eal_memory_mb(const EalOptions& o) {
  if (o.memory_mb != 0) return o.memory_mb;
  return static_cast<unsigned>((o.pool_bytes + kEalMarginBytes + kMiB - 1) / kMiB);
}

std::string unique_file_prefix() {
  static std::atomic<unsigned> counter{0};
  return fmt::format("rocetb-{}-{}", ::getpid(), counter++);
}

Expected<std::vector<std::string>> eal_arguments(const EalOptions& o,
                                                 const HugepageInfo& huge) {
  for (const auto& e : o.extra) {
    if (conflicts(e)) {
      return Error{fmt::format("EAL argument '{}' conflicts with an EalOptions field (lcores, "
                               "memory_mb, file_prefix, hugepages, log_level): set the field "
                               "instead", e)};
    }
  }
  if (!o.pci && !o.pci_allow.empty()) {
    return Error{fmt::format("EalOptions::pci_allow lists {} but pci is false (--no-pci); set "
                             "EalOptions::pci = true to use PCI devices", o.pci_allow.front())};
  }
  const unsigned mb = eal_memory_mb(o);
  const bool enough_huge = huge.mounted && huge.free_bytes >= uint64_t{mb} * kMiB;
  if (o.hugepages == HugepageMode::kRequire && !enough_huge) {
    return Error{fmt::format(
        "hugepages were required but {}: {} MB are needed; mount hugetlbfs and reserve pages "
        "(e.g. dpdk-hugepages.py --setup 2G), or use HugepageMode::kAuto", 
        huge.mounted ? fmt::format("only {} MB are free", huge.free_bytes / kMiB)
                     : std::string("no hugetlbfs is mounted"),
        mb)};
  }
  const bool use_huge = o.hugepages != HugepageMode::kNever && enough_huge;

  std::vector<std::string> a = {o.program, "-l", lcore_list(o), "-m", std::to_string(mb),
                                "--file-prefix",
                                o.file_prefix.empty() ? unique_file_prefix() : o.file_prefix,
                                "--log-level", o.log_level};
  if (!use_huge) a.push_back("--no-huge");
  if (!o.pci) a.push_back("--no-pci");
  for (const auto& dev : o.pci_allow) {
    a.push_back("-a");
    a.push_back(dev);
  }
  if (!o.shared_config) a.push_back("--no-shconf");
  if (!o.telemetry) a.push_back("--no-telemetry");
  a.insert(a.end(), o.extra.begin(), o.extra.end());
  return a;
}

}  // namespace rtb::runtime
