#include "runtime/pool/eal_topology_probe.h"

#include <unistd.h>

#include <cerrno>
#include <filesystem>
#include <set>
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
  std::set<uint32_t> cpus_with_core_id;
  std::set<std::pair<uint32_t, uint32_t>> node_cpus;  // (node, cpu)
};

// Listed with std::filesystem (stat and readdir, never access(), which would come back here).
Topology list_topology() {
  Topology t;
  std::error_code ec;
  for (const auto& e : fs::directory_iterator(kCpuDir, ec)) {
    const auto cpu = numbered(e.path().filename().native(), "cpu");
    if (cpu && fs::exists(e.path() / "topology" / "core_id", ec)) t.cpus_with_core_id.insert(*cpu);
  }
  for (const auto& node_dir : fs::directory_iterator(kNodeDir, ec)) {
    const auto node = numbered(node_dir.path().filename().native(), "node");
    if (!node) continue;
    std::error_code inner;
    for (const auto& e : fs::directory_iterator(node_dir.path(), inner)) {
      if (const auto cpu = numbered(e.path().filename().native(), "cpu")) t.node_cpus.emplace(*node, *cpu);
    }
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
  if (const auto cpu = core_id_probe(p)) return answer(topology().cpus_with_core_id.count(*cpu) != 0);
  if (const auto nc = node_cpu_probe(p)) return answer(topology().node_cpus.count(*nc) != 0);
  return {};
}

uint64_t eal_topology_probes_answered() { return g_answered; }

}  // namespace rtb::runtime
