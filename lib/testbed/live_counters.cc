#include "testbed/live_counters.h"

#include <fmt/format.h>
#include <rte_eal.h>
#include <rte_telemetry.h>

#include <algorithm>
#include <atomic>
#include <cctype>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <mutex>

#include "switch/config.h"
#include "testbed/testbed.h"

namespace rtb::testbed {
namespace {

// The telemetry thread and the control thread meet here, and nowhere else.
std::mutex& live_mutex() {
  static std::mutex m;
  return m;
}
const LiveCounters::Snapshot* g_live = nullptr;  // guarded by live_mutex()

constexpr unsigned kMaxFlowsPerAnswer = 128;  // within RTE_TEL_MAX_DICT_ENTRIES with room for the totals

// Telemetry dict keys: letters, digits and '_' (DPDK refuses a name with other characters).
std::string key(std::string s) {
  for (char& c : s) {
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '_') c = '_';
  }
  return s;
}

uint64_t mbps(double v) { return v > 0 ? static_cast<uint64_t>(std::llround(v)) : 0; }

// ",N" after the command: N, or `fallback` when absent; nullopt when not a number.
std::optional<uint64_t> param(const char* params, uint64_t fallback) {
  if (params == nullptr || *params == '\0') return fallback;
  char* end = nullptr;
  const unsigned long long v = std::strtoull(params, &end, 10);
  if (end == params || *end != '\0') return std::nullopt;
  return v;
}

// Answers "no run" or a bad parameter; true when the command may go on.
bool preamble(rte_tel_data* d, const std::optional<uint64_t>& p, const char* expected) {
  rte_tel_data_start_dict(d);
  if (g_live == nullptr) {
    rte_tel_data_add_dict_string(d, "error", "no realtime run is going on in this process");
    return false;
  }
  if (!p) {
    rte_tel_data_add_dict_string(d, "error", expected);
    return false;
  }
  return true;
}

int answer_run(const char*, const char* params, rte_tel_data* d) {
  std::lock_guard lock(live_mutex());
  if (!preamble(d, param(params, 0), "no parameter expected")) return 0;
  const LiveCounters::Snapshot& s = *g_live;
  double cc = 0, thr = 0;
  uint64_t bytes = 0, cnps = 0, depth = 0, marks = 0, drops = 0, pfc = 0;
  for (const auto& f : s.flows) {
    cc += f.cc_rate_mbps;
    thr += f.throughput_mbps;
    bytes += f.bytes_received;
    cnps += f.cnp_handled;
  }
  for (const auto& sw : s.queues) {
    for (const auto& port : sw) {
      for (const auto& q : port) {
        depth += q.depth;
        marks += q.ecn_marked;
        drops += q.drops;
        pfc += q.pfc_tx;
      }
    }
  }
  rte_tel_data_add_dict_u64(d, "scenario_time_ns", s.at.ns());
  rte_tel_data_add_dict_u64(d, "duration_ns", s.duration.ns());
  rte_tel_data_add_dict_u64(d, "flow_samples", s.flow_samples);
  rte_tel_data_add_dict_u64(d, "queue_samples", s.queue_samples);
  rte_tel_data_add_dict_u64(d, "flows", s.flows.size());
  rte_tel_data_add_dict_u64(d, "cc_rate_mbps", mbps(cc));
  rte_tel_data_add_dict_u64(d, "throughput_mbps", mbps(thr));
  rte_tel_data_add_dict_u64(d, "bytes_received", bytes);
  rte_tel_data_add_dict_u64(d, "cnp_handled", cnps);
  rte_tel_data_add_dict_u64(d, "queued_bytes", depth);
  rte_tel_data_add_dict_u64(d, "ecn_marked", marks);
  rte_tel_data_add_dict_u64(d, "drops", drops);
  rte_tel_data_add_dict_u64(d, "pfc_tx_frames", pfc);
  return 0;
}

int answer_flows(const char*, const char* params, rte_tel_data* d) {
  std::lock_guard lock(live_mutex());
  const auto first = param(params, 0);
  if (!preamble(d, first, "expected /rocetb/flows or /rocetb/flows,FIRST (a flow number)")) return 0;
  const auto& flows = g_live->flows;
  rte_tel_data_add_dict_u64(d, "flows", flows.size());
  for (uint64_t f = *first; f < flows.size() && f < *first + kMaxFlowsPerAnswer; ++f) {
    rte_tel_data* one = rte_tel_data_alloc();
    if (one == nullptr) return -ENOMEM;
    rte_tel_data_start_dict(one);
    rte_tel_data_add_dict_u64(one, "cc_rate_mbps", mbps(flows[f].cc_rate_mbps));
    rte_tel_data_add_dict_u64(one, "throughput_mbps", mbps(flows[f].throughput_mbps));
    rte_tel_data_add_dict_u64(one, "bytes_received", flows[f].bytes_received);
    rte_tel_data_add_dict_u64(one, "cnp_handled", flows[f].cnp_handled);
    rte_tel_data_add_dict_container(d, fmt::format("flow{}", f).c_str(), one, 0);
  }
  if (*first + kMaxFlowsPerAnswer < flows.size()) rte_tel_data_add_dict_u64(d, "next", *first + kMaxFlowsPerAnswer);
  return 0;
}

// ",SWITCH" after the command: a switch of the run (0 when absent); nullopt otherwise (and
// without a run, which preamble() reports first).
std::optional<uint64_t> switch_param(const char* params) {
  const auto sw = param(params, 0);
  if (!sw || g_live == nullptr || *sw >= g_live->queues.size()) return std::nullopt;
  return sw;
}

// One port's or queue's counters as a dict named `name` inside `d`; `paused` is the queue's
// flag (0/1) or the port's mask of paused priorities.
int add_counters(rte_tel_data* d, const std::string& name, const char* depth_key, const LiveCounters::Queue& x,
                 const char* paused_key, uint64_t paused) {
  rte_tel_data* one = rte_tel_data_alloc();
  if (one == nullptr) return -ENOMEM;
  rte_tel_data_start_dict(one);
  rte_tel_data_add_dict_u64(one, depth_key, x.depth);
  rte_tel_data_add_dict_u64(one, "ecn_marked", x.ecn_marked);
  rte_tel_data_add_dict_u64(one, "drops", x.drops);
  rte_tel_data_add_dict_u64(one, "pfc_tx_frames", x.pfc_tx);
  rte_tel_data_add_dict_u64(one, paused_key, paused);
  return rte_tel_data_add_dict_container(d, key(name).c_str(), one, 0);
}

int answer_ports(const char*, const char* params, rte_tel_data* d) {
  std::lock_guard lock(live_mutex());
  const auto sw = switch_param(params);
  if (!preamble(d, sw, "expected /rocetb/ports or /rocetb/ports,SWITCH (a switch number)")) return 0;
  rte_tel_data_add_dict_string(d, "switch", g_live->switch_names[*sw].c_str());
  const auto& ports = g_live->queues[*sw];
  for (size_t p = 0; p < ports.size() && p + 1 < RTE_TEL_MAX_DICT_ENTRIES; ++p) {
    LiveCounters::Queue sum;
    uint64_t paused = 0;
    for (size_t q = 0; q < ports[p].size(); ++q) {
      sum.depth += ports[p][q].depth;
      sum.ecn_marked += ports[p][q].ecn_marked;
      sum.drops += ports[p][q].drops;
      sum.pfc_tx += ports[p][q].pfc_tx;
      if (ports[p][q].paused) paused |= 1u << q;
    }
    if (add_counters(d, g_live->port_names[*sw][p], "queued_bytes", sum, "paused_priorities", paused) == -ENOMEM) {
      return -ENOMEM;
    }
  }
  return 0;
}

int answer_queues(const char*, const char* params, rte_tel_data* d) {
  std::lock_guard lock(live_mutex());
  const auto sw = switch_param(params);
  if (!preamble(d, sw, "expected /rocetb/queues or /rocetb/queues,SWITCH (a switch number)")) return 0;
  rte_tel_data_add_dict_string(d, "switch", g_live->switch_names[*sw].c_str());
  unsigned entries = 1;
  const auto& ports = g_live->queues[*sw];
  for (size_t p = 0; p < ports.size(); ++p) {
    for (size_t q = 0; q < ports[p].size() && entries < RTE_TEL_MAX_DICT_ENTRIES; ++q) {
      const LiveCounters::Queue& x = ports[p][q];
      if (!x.seen) continue;
      const std::string name = fmt::format("{}_q{}", g_live->port_names[*sw][p], q);
      if (add_counters(d, name, "depth_bytes", x, "paused", x.paused ? 1 : 0) == -ENOMEM) return -ENOMEM;
      ++entries;
    }
  }
  return 0;
}

void register_commands() {
  static std::once_flag once;
  std::call_once(once, [] {
    rte_telemetry_register_cmd("/rocetb/run", answer_run,
                               "rocetb: scenario time, samples and totals of the realtime run. No parameters");
    rte_telemetry_register_cmd("/rocetb/flows", answer_flows,
                               "rocetb: per flow CC rate, throughput, bytes, CNPs. Parameter: the first flow (0)");
    rte_telemetry_register_cmd("/rocetb/ports", answer_ports,
                               "rocetb: per switch port queued bytes, marks, drops, PFC sent, paused. "
                               "Parameter: the switch (0)");
    rte_telemetry_register_cmd("/rocetb/queues", answer_queues,
                               "rocetb: per queue depth, marks, drops, PFC sent, paused. Parameter: the switch (0)");
  });
}

}  // namespace

LiveCounters::LiveCounters(const Testbed& t, Time duration, SampleSink& next) : next_(next) {
  const scenario::Scenario& sc = t.scenario();
  s_.duration = duration;
  s_.flows.resize(sc.flows.size());
  for (const scenario::SwitchNode& n : sc.topology.switches) {
    s_.switch_names.push_back(n.name);
    std::vector<std::string> names;
    for (const auto& p : n.config.ports) names.push_back(p.name);
    s_.port_names.push_back(std::move(names));
    s_.queues.emplace_back(n.config.ports.size(), std::vector<Queue>(sw::kPriorities));
  }
  register_commands();
  std::lock_guard lock(live_mutex());
  g_live = &s_;
}

LiveCounters::~LiveCounters() {
  std::lock_guard lock(live_mutex());
  if (g_live == &s_) g_live = nullptr;
}

void LiveCounters::flow(const FlowSample& x) {
  next_.flow(x);
  std::lock_guard lock(live_mutex());
  if (x.flow >= s_.flows.size()) return;
  Flow& f = s_.flows[x.flow];
  if (x.parts & FlowSample::kSenderPart) {
    f.cc_rate_mbps = x.cc_rate.mbps_f();
    f.cnp_handled = x.cnp_handled;
  }
  if (x.parts & FlowSample::kReceiverPart) {
    f.throughput_mbps = x.throughput_gbps * 1e3;
    f.bytes_received = x.bytes_received;
  }
  s_.at = std::max(s_.at, x.at);
  ++s_.flow_samples;
}

void LiveCounters::queue(const QueueSample& x) {
  next_.queue(x);
  std::lock_guard lock(live_mutex());
  if (x.sw >= s_.queues.size() || x.port >= s_.queues[x.sw].size() || x.queue >= sw::kPriorities) return;
  s_.queues[x.sw][x.port][x.queue] = Queue{x.depth_bytes, x.ecn_marked, x.drops, x.pfc_tx, x.paused, true};
  s_.at = std::max(s_.at, x.at);
  ++s_.queue_samples;
}

namespace {
std::atomic<bool> g_announce{false};
}  // namespace

void LiveCounters::set_announce(bool on) { g_announce = on; }
bool LiveCounters::announce() { return g_announce; }

std::string LiveCounters::socket_path() {
  const std::string path = std::string(rte_eal_get_runtime_dir()) + "/dpdk_telemetry.v2";
  std::error_code ec;
  return std::filesystem::exists(path, ec) ? path : std::string();
}

std::string LiveCounters::how_to_read() {
  const std::string path = socket_path();
  if (path.empty()) return "";
  const std::string prefix = std::filesystem::path(rte_eal_get_runtime_dir()).filename().string();
  return fmt::format("live counters: dpdk-telemetry.py -f {}, then /rocetb/run, /rocetb/flows, /rocetb/ports, "
                     "/rocetb/queues (socket {})",
                     prefix, path);
}

}  // namespace rtb::testbed
