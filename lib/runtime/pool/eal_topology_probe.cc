#include "runtime/pool/eal_topology_probe.h"

#include <unistd.h>

#include <cerrno>
#include <charconv>
#include <filesystem>
#include <set>
#include <string>
#include <string_view>
#include <utility>

#include "runtime/pool/eal_start_window.h"

namespace rtb::runtime {
namespace {

namespace fs = std::filesystem;

constexpr std::string_view kSysfs = "/sys";
constexpr std::string_view kCpuDir = "/devices/system/cpu";    // under the sysfs root
constexpr std::string_view kNodeDir = "/devices/system/node";
// The probes' own prefixes (the EAL asks thousands of them at each start).
constexpr std::string_view kCpuProbe = "/devices/system/cpu/cpu";     // cpuN/topology/core_id
constexpr std::string_view kNodeProbe = "/devices/system/node/node";  // nodeM/cpuN

// A decimal number at the front of `s` as the kernel and the EAL write one (no sign, no
// leading zero), and the text after it.
std::optional<std::pair<uint32_t, std::string_view>> take_number(std::string_view s) {
  uint32_t v = 0;
  const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  const size_t digits = static_cast<size_t>(end - s.data());
  if (ec != std::errc{} || (digits > 1 && s[0] == '0')) return {};
  return std::make_pair(v, s.substr(digits));
}

// The text after `prefix`, when `s` starts with it.
std::optional<std::string_view> after(std::string_view s, std::string_view prefix) {
  if (s.substr(0, prefix.size()) != prefix) return {};
  return s.substr(prefix.size());
}

// N when `name` is `prefix` followed by the number N and nothing else.
std::optional<uint32_t> numbered(std::string_view name, std::string_view prefix) {
  const auto rest = after(name, prefix);
  const auto n = rest ? take_number(*rest) : std::nullopt;
  if (!n || !n->second.empty()) return {};
  return n->first;
}

struct Topology {
  std::set<uint32_t> cpus_with_core_id;
  std::set<std::pair<uint32_t, uint32_t>> node_cpus;  // (node, cpu)
};

// The numbered entries `prefix`N of a directory; none when it does not exist (a kernel
// without NUMA has no node directory).
std::set<uint32_t> numbered_entries(const fs::path& dir, std::string_view prefix) {
  std::set<uint32_t> out;
  if (!fs::exists(dir)) return out;
  for (const auto& e : fs::directory_iterator(dir)) {
    if (const auto n = numbered(e.path().filename().native(), prefix)) out.insert(*n);
  }
  return out;
}

// Listed with std::filesystem (stat and readdir, never access(), which would come back
// here). Empty when a part that exists cannot be read: the probes then go to the kernel.
std::optional<Topology> list_topology(const std::string& sysfs) {
  Topology t;
  try {
    const fs::path cpus = sysfs + std::string(kCpuDir), nodes = sysfs + std::string(kNodeDir);
    for (const uint32_t cpu : numbered_entries(cpus, "cpu")) {
      if (fs::exists(cpus / ("cpu" + std::to_string(cpu)) / "topology" / "core_id")) {
        t.cpus_with_core_id.insert(cpu);
      }
    }
    for (const uint32_t node : numbered_entries(nodes, "node")) {
      const fs::path dir = nodes / ("node" + std::to_string(node));
      for (const uint32_t cpu : numbered_entries(dir, "cpu")) t.node_cpus.emplace(node, cpu);
    }
  } catch (const fs::filesystem_error&) {
    return {};
  }
  return t;
}

// Whether the probe `path` (under `sysfs`) exists in `t`; empty when it is not a probe.
std::optional<bool> probe(const Topology& t, std::string_view sysfs, std::string_view path) {
  const auto under = after(path, sysfs);
  if (!under) return {};
  if (const auto cpu_dir = after(*under, kCpuProbe)) {
    const auto cpu = take_number(*cpu_dir);
    if (!cpu || cpu->second != "/topology/core_id") return {};
    return t.cpus_with_core_id.count(cpu->first) != 0;
  }
  const auto node_dir = after(*under, kNodeProbe);
  const auto node = node_dir ? take_number(*node_dir) : std::nullopt;
  const auto cpu_entry = node ? after(node->second, "/cpu") : std::nullopt;
  const auto cpu = cpu_entry ? take_number(*cpu_entry) : std::nullopt;
  if (!cpu || !cpu->second.empty()) return {};
  return t.node_cpus.count({node->first, cpu->first}) != 0;
}

uint64_t g_answered = 0;  // written by the EAL-starting thread only

std::optional<int> answer(std::optional<bool> exists) {
  if (!exists) return {};
  ++g_answered;
  if (*exists) return 0;
  errno = ENOENT;
  return -1;
}

// The listing of /sys for the current EAL start (one per rte_eal_init()).
const std::optional<Topology>& topology() {
  thread_local uint32_t listed_in = 0;
  thread_local std::optional<Topology> t;
  if (listed_in != eal_starts_begun()) {
    t = list_topology(std::string(kSysfs));
    listed_in = eal_starts_begun();
  }
  return t;
}

}  // namespace

std::optional<int> eal_topology_access(const char* path, int mode) {
  if (!inside_eal_start() || mode != F_OK || path == nullptr) return {};
  const std::optional<Topology>& t = topology();
  return t ? answer(probe(*t, kSysfs, path)) : std::nullopt;
}

std::optional<int> topology_access_under(const std::string& sysfs, const char* path) {
  const std::optional<Topology> t = list_topology(sysfs);
  return t ? answer(probe(*t, sysfs, path)) : std::nullopt;
}

uint64_t eal_topology_probes_answered() { return g_answered; }

}  // namespace rtb::runtime
