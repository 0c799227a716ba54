// A scenario as plain, validated structs (design.md "Scenarios"; style habit 8). The
// loader (load.h) turns one TOML file plus `--set` overrides into this; the runner builds
// stages from it and never re-checks it. Every key is documented in scenarios/README.md.
//
// Indices are stable and deterministic: hosts, switches and links are numbered in the
// order the topology generator (or the explicit lists) produced them, flows in start order.
#pragma once

#include <algorithm>

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "cc_algos/params.h"
#include "core/units.h"
#include "host/host_config.h"
#include "switch/config.h"
#include "wire/bytes.h"

namespace rtb::scenario {

using ParamValueNumber = double;

enum class Clock : uint8_t { kVirtual, kRealtime };

struct RunConfig {
  Clock clock = Clock::kVirtual;  // realtime: scenario [realtime] (RealtimeConfig)
  Time duration = Time::ms(10);
  uint64_t seed = 1;
  Time warmup = Time::zero();             // excluded from summary statistics
  Time sample_interval = Time::us(10);    // time-series period
  // Mbufs in the data and control pools; unset: sized from the scenario (run.json "pools").
  std::optional<uint32_t> data_mbufs;
  std::optional<uint32_t> control_mbufs;
  // The memory a run may need by the resource plan (testbed/resource_plan.h); unset
  // ("auto"): three quarters of the memory available when the run starts.
  std::optional<Bytes> max_memory;
  // Virtual time split into this many partitions (testbed/partitioning.h): results are the same.
  uint32_t partitions = 1;
  // The threads that run them (at most `partitions`); unset ("auto"): one per partition, at
  // most one per CPU the process may run on.
  std::optional<uint32_t> threads;
  // Switches placed by name (run.partition_of): each with its hosts in that partition; the
  // rest are shared out by the partitioning.
  std::vector<std::pair<std::string, uint32_t>> partition_of;
};

enum class NodeKind : uint8_t { kHost, kSwitch };

// A node by kind and index into Topology::hosts or Topology::switches.
struct NodeRef {
  NodeKind kind = NodeKind::kHost;
  uint32_t index = 0;
  bool operator==(const NodeRef&) const = default;
};

// One end of a link: the node and its port number (hosts have port 0 only).
struct LinkEnd {
  NodeRef node;
  uint16_t port = 0;
};

// A full-duplex cable: both directions have the same rate and propagation delay.
struct Link {
  LinkEnd a;
  LinkEnd b;
  Rate rate;
  Time propagation;  // one way: given, or cable_length_m x 5 ns/m
};

struct HostNode {
  std::string name;
  uint32_t ip = 0;                  // host byte order, 192.168.x.y unless given
  wire::MacAddr mac{};              // 02:72:74:00:<index>, fixed by the index
  uint32_t link = 0;                // index into Topology::links of its one cable
  host::HostConfig config;          // name, ports[0] (mac, ip, policy), timings, seed
  host::RequesterConfig requester;  // for every QP this host opens
  bool vlan_tagged = false;         // QpSpec::vlan_tagged for its QPs
};

struct SwitchNode {
  std::string name;
  sw::SwitchConfig config;          // ports (rate, MTU, cable), QoS, routes: complete
  std::vector<uint32_t> port_links; // port i -> index into Topology::links
};

struct Topology {
  std::string kind;  // "single_switch", "leaf_spine" or "explicit"
  uint32_t mtu = 9'216;  // every port's MTU, bytes without FCS
  std::vector<HostNode> hosts;
  std::vector<SwitchNode> switches;
  std::vector<Link> links;
};

struct CcConfig {
  std::string algorithm = "dcqcn";  // a registered name or a plug-in path
  cc::ParamMap params;              // passed through; checked by the algorithm at load
};

// One message of a flow that carries several (Flow::messages).
struct Message {
  Bytes bytes;
  Time start;  // absolute: may not start sending before this
};

// One RC flow: a queue pair from src to dst carrying one message of `size` bytes, or the
// `messages` listed (pattern "capture"), each posted with its own start.
struct Flow {
  uint32_t id = 0;               // index in Scenario::flows (start order)
  uint32_t src = 0;              // host index
  uint32_t dst = 0;              // host index
  std::optional<Bytes> size;     // nullopt: long-lived (sends until the run ends); with messages: their total
  Time start;                    // with messages: the first one's
  std::vector<Message> messages; // empty: one message of `size` at `start`; else in start order
  uint8_t priority = 3;
  uint8_t dscp = 26;
  uint32_t traffic = 0;          // index of the [[traffic]] entry that made it
};

// A NIC whose receive side is stuck: XOFF for `priority` every `interval` in [start, end).
struct PfcStormFault {
  uint32_t host = 0;
  Time start;
  Time end = Time::never();
  uint8_t priority = 3;
  uint16_t quanta = 0xFFFF;
  Time interval;
};

// The link is down during [from, to) (to = never: stays down).
struct LinkDownFault {
  uint32_t link = 0;
  Time from;
  Time to = Time::never();
};

// Every frame started on the link (either direction) is dropped with `probability`.
struct DropFault {
  uint32_t link = 0;
  double probability = 0;
};

struct Faults {
  std::vector<PfcStormFault> pfc_storms;
  std::vector<LinkDownFault> link_downs;
  std::vector<DropFault> drops;
};

// [realtime] (scenarios/README.md): how a realtime run maps the scenario onto this
// process's lcores and DPDK ports. Ignored in virtual time.
struct RealtimePort {
  uint32_t link = 0;    // the cable leaving the process
  NodeRef node;         // its end built here
  std::string device;   // DPDK device string (lib/ethport/README.md)
};

// A control command issued by the control thread when the run reaches `at`: "stop", or
// "set NAME VALUE" (a CC parameter of cc.algorithm, applied on the hosts' lcore).
struct RealtimeCommand {
  Time at;
  std::string command;
  std::string param;  // "set" only
  ParamValueNumber value = 0;
};

struct RealtimeConfig {
  std::string role;                // [realtime.process.<role>] this process runs; "" = all
  std::vector<NodeRef> nodes;      // the nodes built here (every node when role is "")
  std::vector<unsigned> lcores{0}; // EAL lcores; the first is the main lcore
  std::vector<unsigned> lcore_of_host;    // per host index (only built ones meaningful)
  std::vector<unsigned> lcore_of_switch;  // per switch index
  std::vector<RealtimePort> ports;
  bool ring_links = false;         // links = "ring": every in-process cable via an rte_ring pair
  uint32_t dilation = 1;           // the scenario runs this many times slower than wall time
  std::optional<Time> max_lateness;  // nullopt: "auto" (from the PFC headroom)
  std::optional<Time> catch_up;    // how far modelled stages may run behind; nullopt: "auto"
  uint32_t burst = 64;             // polls of one stage per loop iteration (1: no catch-up)
  std::string hugepages = "auto";  // "auto", "never" or "require"
  std::vector<std::string> pci;    // PCI devices the EAL may probe (none: --no-pci)
  std::vector<std::string> eal_args;  // passed to the EAL last
  uint64_t start_at_unix_ms = 0;   // split runs: every process starts its clock then (0: at once)
  std::vector<RealtimeCommand> commands;  // in time order
  unsigned lcore_of(NodeRef n) const {
    return n.kind == NodeKind::kHost ? lcore_of_host[n.index] : lcore_of_switch[n.index];
  }
  // A cable whose ends are on different lcores (or every cable, with links = "ring") is
  // cut in two and bridged over an rte_ring port pair: a wire link is not thread-safe.
  bool cuts(const Link& l) const { return ring_links || lcore_of(l.a.node) != lcore_of(l.b.node); }
  bool builds(NodeRef n) const {
    for (const NodeRef& m : nodes) {
      if (m == n) return true;
    }
    return false;
  }
  // A cut cable with both ends in this process: an rte_ring pair, one DPDK port id.
  bool rings(const Link& l) const { return cuts(l) && builds(l.a.node) && builds(l.b.node); }
};

// Appends `path` to `files` unless it is there already (order of first appearance kept).
inline void add_once(std::vector<std::string>& files, const std::string& path) {
  if (std::find(files.begin(), files.end(), path) == files.end()) files.push_back(path);
}

struct Scenario {
  std::string name;
  std::string source;  // the file path ("<text>" name for load_scenario_text)
  RunConfig run;
  Topology topology;
  CcConfig cc;
  std::vector<Flow> flows;
  Faults faults;
  RealtimeConfig realtime;
  // The fully resolved configuration: sizes in bytes (_bytes), times in ns (_ns), rates
  // in b/s (_bps). Deterministic: the same inputs give the same JSON.
  nlohmann::json effective;
  // Switch validation warnings (with their arithmetic) and CC warnings.
  std::vector<std::string> warnings;
  // The files it names and was read with, each once in the order read: flow-size CDFs,
  // captures, a plug-in's shared object (paths as resolved). run.json and a sweep record
  // what each held (core/fingerprint.h).
  std::vector<std::string> files;
  // Bit n: a replay through the switches (`rocetb replay --through`) injects frames of
  // priority n; their queues are sampled as the flows' are (series_size.h).
  uint8_t replayed_priorities = 0;

  void add_file(const std::string& path) { add_once(files, path); }
};

}  // namespace rtb::scenario
