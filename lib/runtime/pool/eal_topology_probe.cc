#include "runtime/pool/eal_topology_probe.h"

#include <unistd.h>

#include <cerrno>
#include <filesystem>
#include <set>
#include <string>
#include <string_view>
#include <utility>

#include "runtime/pool/eal_start_window.h"

namespace rtb::runtime {
namespace {

namespace fs = std::filesystem;

constexpr std::string_view kCpuDir = "/sys/devices/system/cpu";
constexpr std::string_view kNodeDir = "/sys/devices/system/node";

bool digit(char c) { return c >= '0' && c <= '9'; }

// A decimal number at the front of `s`, written as the kernel and the EAL write one (no
// leading zero, at most nine digits), and the text after it.
std::optional<std::pair<uint32_t, std::string_view>> take_number(std::string_view s) {
  size_t n = 0;
  uint32_t v = 0;
  while (n < s.size() && n < 9 && digit(s[n])) v = v * 10 + static_cast<uint32_t>(s[n++] - '0');
  if (n == 0 || (n > 1 && s[0] == '0') || (n < s.size() && digit(s[n]))) return {};
  return std::make_pair(v, s.substr(n));
}

// N when `name` is `prefix` followed by the number N and nothing else.
std::optional<uint32_t> numbered(std::string_view name, std::string_view prefix) {
  if (name.substr(0, prefix.size()) != prefix) return {};
  const auto n = take_number(name.substr(prefix.size()));
  if (!n || !n->second.empty()) return {};
  return n->first;
}

struct Topology {
  bool listed = false;  // false: sysfs could not be read whole, and nothing is answered
  std::set<uint32_t> cpus_with_core_id;
  std::set<std::pair<uint32_t, uint32_t>> node_cpus;  // (node, cpu)
};

// The numbered entries `prefix`N of a directory.
std::set<uint32_t> numbered_entries(const fs::path& dir, std::string_view prefix) {
  std::set<uint32_t> out;
  for (const auto& e : fs::directory_iterator(dir)) {
    if (const auto n = numbered(e.path().filename().native(), prefix)) out.insert(*n);
  }
  return out;
}

// Listed with std::filesystem (stat and readdir, never access(), which would come back
// here). Any error leaves the listing incomplete: the probes then go to the kernel.
Topology list_topology() {
  Topology t;
  try {
    for (const uint32_t cpu : numbered_entries(kCpuDir, "cpu")) {
      const fs::path dir = fs::path(kCpuDir) / ("cpu" + std::to_string(cpu));
      if (fs::exists(dir / "topology" / "core_id")) t.cpus_with_core_id.insert(cpu);
    }
    for (const uint32_t node : numbered_entries(kNodeDir, "node")) {
      const fs::path dir = fs::path(kNodeDir) / ("node" + std::to_string(node));
      for (const uint32_t cpu : numbered_entries(dir, "cpu")) t.node_cpus.emplace(node, cpu);
    }
    t.listed = true;
  } catch (const fs::filesystem_error&) {
    return Topology{};
  }
  return t;
}

// The listing for the current EAL start (one per rte_eal_init()).
const Topology& topology() {
  thread_local uint32_t listed_in = 0;
  thread_local Topology t;
  if (listed_in != eal_starts_begun()) {
    t = list_topology();
    listed_in = eal_starts_begun();
  }
  return t;
}

// cpuN/topology/core_id under kCpuDir: N.
std::optional<uint32_t> core_id_probe(std::string_view path) {
  if (path.substr(0, kCpuDir.size()) != kCpuDir) return {};
  path.remove_prefix(kCpuDir.size());
  if (path.substr(0, 4) != "/cpu") return {};
  const auto n = take_number(path.substr(4));
  if (!n || n->second != "/topology/core_id") return {};
  return n->first;
}

// nodeM/cpuN under kNodeDir: (M, N).
std::optional<std::pair<uint32_t, uint32_t>> node_cpu_probe(std::string_view path) {
  if (path.substr(0, kNodeDir.size()) != kNodeDir) return {};
  path.remove_prefix(kNodeDir.size());
  if (path.substr(0, 5) != "/node") return {};
  const auto node = take_number(path.substr(5));
  if (!node || node->second.substr(0, 4) != "/cpu") return {};
  const auto cpu = take_number(node->second.substr(4));
  if (!cpu || !cpu->second.empty()) return {};
  return std::make_pair(node->first, cpu->first);
}

uint64_t g_answered = 0;  // written by the EAL-starting thread only

int answer(bool exists) {
  ++g_answered;
  if (exists) return 0;
  errno = ENOENT;
  return -1;
}

}  // namespace

std::optional<int> eal_topology_access(const char* path, int mode) {
  if (!inside_eal_start() || mode != F_OK || path == nullptr) return {};
  const std::string_view p(path);
  const auto cpu = core_id_probe(p);
  const auto node_cpu = cpu ? std::nullopt : node_cpu_probe(p);
  if (!cpu && !node_cpu) return {};
  const Topology& t = topology();
  if (!t.listed) return {};
  return answer(cpu ? t.cpus_with_core_id.count(*cpu) != 0 : t.node_cpus.count(*node_cpu) != 0);
}

uint64_t eal_topology_probes_answered() { return g_answered; }

}  // namespace rtb::runtime
