#include "scenario/realtime_settings.h"

#include <fmt/format.h>

#include <algorithm>
#include <sstream>

#include "scenario/faults.h"

namespace rtb::scenario {
namespace {

constexpr int64_t kMaxLcore = 1023;  // RTE_MAX_LCORE in Debian's DPDK 22.11 build

std::string node_name(const Topology& topo, NodeRef n) {
  return n.kind == NodeKind::kHost ? topo.hosts[n.index].name : topo.switches[n.index].name;
}

std::optional<NodeRef> find_node(const Topology& topo, std::string_view name) {
  for (uint32_t i = 0; i < topo.hosts.size(); ++i) {
    if (topo.hosts[i].name == name) return NodeRef{NodeKind::kHost, i};
  }
  for (uint32_t i = 0; i < topo.switches.size(); ++i) {
    if (topo.switches[i].name == name) return NodeRef{NodeKind::kSwitch, i};
  }
  return std::nullopt;
}

NodeRef read_node_name(Table& t, std::string_view key, const toml::node& n, const Topology& topo) {
  const auto* s = n.as_string();
  const auto found = s ? find_node(topo, s->get()) : std::nullopt;
  if (!found) t.fail_value(key, fmt::format("has {}: expected the name of a host or switch", written(n)));
  return *found;
}

std::vector<NodeRef> all_nodes(const Topology& topo) {
  std::vector<NodeRef> v;
  for (uint32_t i = 0; i < topo.hosts.size(); ++i) v.push_back({NodeKind::kHost, i});
  for (uint32_t i = 0; i < topo.switches.size(); ++i) v.push_back({NodeKind::kSwitch, i});
  return v;
}

std::vector<unsigned> read_lcores(Table& t, std::vector<unsigned> def) {
  const auto v = t.opt_integers("lcores", 0, kMaxLcore);
  if (!v) return def;
  if (v->empty()) t.fail_value("lcores", "is empty: expected at least one lcore, such as [0]");
  std::vector<unsigned> out(v->begin(), v->end());
  std::vector<unsigned> sorted = out;
  std::sort(sorted.begin(), sorted.end());
  if (std::adjacent_find(sorted.begin(), sorted.end()) != sorted.end()) {
    t.fail_value("lcores", "lists an lcore twice: expected distinct lcores");
  }
  return out;
}

// place = { sw0 = 1 }: every built node on the first lcore unless placed.
void read_place(Table& t, const Topology& topo, RealtimeConfig& r) {
  r.lcore_of_host.assign(topo.hosts.size(), r.lcores.front());
  r.lcore_of_switch.assign(topo.switches.size(), r.lcores.front());
  std::optional<Table> place = t.table("place");
  if (!place) return;
  for (auto&& [k, v] : place->raw()) {
    const std::string key(k.str());
    const auto node = find_node(topo, key);
    if (!node) place->fail(key, "is not a host or switch of the topology: expected node = lcore");
    if (!r.builds(*node)) place->fail(key, "is not built by this process: expected one of its nodes");
    const int64_t lcore = place->integer(key, 0, kMaxLcore, 0);
    if (std::find(r.lcores.begin(), r.lcores.end(), lcore) == r.lcores.end()) {
      place->fail_value(key, "is not in this process's lcores: expected one of realtime.lcores");
    }
    (node->kind == NodeKind::kHost ? r.lcore_of_host : r.lcore_of_switch)[node->index] =
        static_cast<unsigned>(lcore);
  }
  place->finish();
}

void read_ports(Table& t, const Topology& topo, RealtimeConfig& r) {
  for (Table& p : t.tables("ports")) {
    RealtimePort port;
    port.link = read_link(p, topo);
    const Link& l = topo.links[port.link];
    const bool a = r.builds(l.a.node), b = r.builds(l.b.node);
    if (a == b) {
      p.fail_value("link", a ? "has both ends in this process: expected a cable leaving it"
                             : "has no end in this process: expected a cable one of its nodes");
    }
    port.node = a ? l.a.node : l.b.node;
    p.require("device", "a DPDK device string, such as \"net_memif0,role=server,socket=/tmp/rtb.sock\"");
    port.device = p.string("device", "");
    p.finish();
    r.ports.push_back(std::move(port));
  }
}

// Every cable with exactly one end here needs a port; and one port per cable.
void check_cables(Table& t, const Topology& topo, const RealtimeConfig& r) {
  for (uint32_t i = 0; i < topo.links.size(); ++i) {
    const Link& l = topo.links[i];
    if (r.builds(l.a.node) == r.builds(l.b.node)) continue;
    const auto n = std::count_if(r.ports.begin(), r.ports.end(), [&](const RealtimePort& p) { return p.link == i; });
    if (n == 1) continue;
    const std::string cable = node_name(topo, l.a.node) + "-" + node_name(topo, l.b.node);
    t.fail_table(n == 0 ? fmt::format("cable {} leaves the process: expected a ports entry with a device for it", cable)
                        : fmt::format("cable {} has {} ports entries: expected one", cable, n));
  }
}

// The keys a process table and [realtime] share: nodes built, lcores, placement, ports.
void read_process(Table& t, const Topology& topo, RealtimeConfig& r, bool split) {
  if (split) {
    t.require("nodes", "the nodes this process builds, such as [\"h0\", \"h1\"]");
    r.nodes.clear();
    const auto listed = t.opt_array("nodes");
    for (const toml::node* n : *listed) {
      const NodeRef node = read_node_name(t, "nodes", *n, topo);
      if (r.builds(node)) t.fail_value("nodes", "lists a node twice: expected distinct nodes");
      r.nodes.push_back(node);
    }
    if (r.nodes.empty()) t.fail_value("nodes", "is empty: expected at least one node");
  }
  r.lcores = read_lcores(t, r.lcores);
  read_place(t, topo, r);
  read_ports(t, topo, r);
  check_cables(t, topo, r);
}

std::vector<std::string> read_strings(Table& t, std::string_view key) {
  std::vector<std::string> out;
  const auto elems = t.opt_array(key);
  if (!elems) return out;
  for (const toml::node* n : *elems) {
    if (!n->is_string()) t.fail_value(key, fmt::format("has {}: expected strings", written(*n)));
    out.push_back(n->as_string()->get());
  }
  return out;
}

// [[realtime.commands]]: at = "1ms", command = "set rp_ai_rate 20" or "stop".
std::vector<RealtimeCommand> read_commands(Table& t) {
  std::vector<RealtimeCommand> out;
  for (Table& c : t.tables("commands")) {
    RealtimeCommand cmd;
    c.require("at", "when the control thread issues the command, such as \"1ms\"");
    cmd.at = c.time("at", Time::zero());
    c.require("command", "\"stop\" or \"set NAME VALUE\"");
    cmd.command = c.string("command", "");
    std::istringstream words(cmd.command);
    std::string verb, extra;
    words >> verb;
    if (verb == "set") {
      if (!(words >> cmd.param >> cmd.value) || (words >> extra)) {
        c.fail_value("command", "is not \"set NAME VALUE\": expected a CC parameter name and a number");
      }
    } else if (verb != "stop" || (words >> extra)) {
      c.fail_value("command", "is not allowed: expected \"stop\" or \"set NAME VALUE\"");
    }
    if (!out.empty() && cmd.at < out.back().at) c.fail_value("at", "is before the previous command's: expected time order");
    c.finish();
    out.push_back(std::move(cmd));
  }
  return out;
}

}  // namespace

RealtimeConfig read_realtime(std::optional<Table> t, const Topology& topo) {
  RealtimeConfig r;
  r.nodes = all_nodes(topo);
  if (!t) {
    r.lcore_of_host.assign(topo.hosts.size(), r.lcores.front());
    r.lcore_of_switch.assign(topo.switches.size(), r.lcores.front());
    return r;
  }
  r.dilation = static_cast<uint32_t>(t->integer("dilation", 1, 1'000'000, 1));
  if (t->has("max_lateness")) {
    const toml::node* n = t->get("max_lateness");
    if (!(n->is_string() && n->as_string()->get() == "auto")) {
      r.max_lateness = t->time("max_lateness", Time::zero());
      if (*r.max_lateness <= Time::zero()) {
        t->fail_value("max_lateness", "is out of range: expected \"auto\" or a time above 0");
      }
    }
  }
  if (t->has("catch_up")) {
    const toml::node* n = t->get("catch_up");
    if (!(n->is_string() && n->as_string()->get() == "auto")) {
      r.catch_up = t->time("catch_up", Time::zero());
      if (*r.catch_up <= Time::zero() || *r.catch_up > Time::ms(10)) {
        t->fail_value("catch_up", "is out of range: expected \"auto\" or a time above 0 and at most 10ms");
      }
    }
  }
  r.burst = static_cast<uint32_t>(t->integer("burst", 1, 1024, r.burst));
  r.hugepages = t->choice("hugepages", {"auto", "never", "require"}, "auto");
  r.pci = read_strings(*t, "pci");
  r.eal_args = read_strings(*t, "eal_args");
  r.ring_links = t->choice("links", {"wire", "ring"}, "wire") == "ring";
  r.role = t->string("role", "");
  r.start_at_unix_ms = static_cast<uint64_t>(t->integer("start_at_unix_ms", 0, INT64_MAX, 0));
  r.commands = read_commands(*t);
  std::optional<Table> processes = t->table("process");
  if (r.role.empty()) {
    read_process(*t, topo, r, false);
  } else {
    std::optional<Table> chosen = processes ? processes->table(r.role) : std::nullopt;
    if (!chosen) t->fail_value("role", "names no [realtime.process.<role>] table: expected one of them");
    r.lcores = {0};
    read_process(*chosen, topo, r, true);
    chosen->finish();
    if (t->has("lcores") || t->has("place") || t->has("ports")) {
      t->fail_table("sets lcores, place or ports beside a role: expected them in [realtime.process.<role>]");
    }
  }
  if (processes) {
    for (auto&& [k, v] : processes->raw()) processes->get(k.str());  // read when chosen
  }
  t->finish();
  return r;
}

}  // namespace rtb::scenario
