// kind = "explicit": [[topology.hosts]], [[topology.switches]], [[topology.links]].
#include <fmt/format.h>

#include <map>

#include "scenario/addressing.h"
#include "scenario/topology_read.h"

namespace rtb::scenario {
namespace {

using Names = std::map<std::string, NodeRef, std::less<>>;

bool valid_name(std::string_view n) {
  if (n.empty()) return false;
  for (char c : n) {
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '_' && c != '-') return false;
  }
  return true;
}

std::string read_name(Table& t, Names& names, NodeRef ref) {
  t.require("name", "a node name");
  const std::string name = t.string("name", "");
  if (!valid_name(name)) t.fail_value("name", "is not a node name: expected letters, digits, '_' and '-'");
  if (names.contains(name)) t.fail_value("name", "is already the name of another node: expected unique names");
  names.emplace(name, ref);
  return name;
}

void read_hosts(Table& topo_table, Topology& topo, Names& names) {
  std::map<uint32_t, std::string> ips;
  for (Table& h : topo_table.tables("hosts")) {
    const auto index = static_cast<uint32_t>(topo.hosts.size());
    const std::string name = read_name(h, names, {NodeKind::kHost, index});
    uint32_t ip = default_host_ip(index);
    if (const auto text = h.opt_string("ip")) {
      const auto parsed = parse_ipv4(*text);
      if (!parsed) h.fail_value("ip", "is not an IPv4 address: expected a dotted quad such as '192.168.1.1'");
      ip = *parsed;
    }
    if (ips.contains(ip)) {
      h.fail("ip", fmt::format("{} is already the address of host '{}': expected unique addresses",
                               format_ipv4(ip), ips[ip]));
    }
    ips.emplace(ip, name);
    add_host(topo, name, ip);
    h.finish();
  }
}

void read_switches(Table& topo_table, Topology& topo, Names& names) {
  for (Table& s : topo_table.tables("switches")) {
    read_name(s, names, {NodeKind::kSwitch, static_cast<uint32_t>(topo.switches.size())});
    add_switch(topo, s.string("name", ""));
    s.finish();
  }
}

NodeRef read_end(Table& l, std::string_view key, const Names& names) {
  l.require(key, "a node name");
  const auto it = names.find(l.string(std::string(key), ""));
  if (it == names.end()) l.fail_value(key, "is not a node: expected the name of a host or switch listed above");
  return it->second;
}

void read_links(Table& topo_table, Topology& topo, const Names& names, Rate default_rate) {
  for (Table& l : topo_table.tables("links")) {
    const NodeRef a = read_end(l, "a", names);
    const NodeRef b = read_end(l, "b", names);
    if (a == b) l.fail_value("b", "is the same node as a: expected a link between two nodes");
    const Rate rate = l.rate("rate", default_rate);
    const Time prop = read_propagation(l, "cable_length_m", "delay", 2);
    if (connect(topo, a, b, rate, prop) == kNoLink) {
      const bool a_host = a.kind == NodeKind::kHost && topo.hosts[a.index].link != kNoLink;
      l.fail_value(a_host ? "a" : "b", "is a host that already has a link: expected one link per host");
    }
    l.finish();
  }
}

}  // namespace

void read_explicit(Table& t, Topology& topo) {
  Names names;
  const Rate rate = t.rate("rate", Rate::gbps(100));
  read_hosts(t, topo, names);
  read_switches(t, topo, names);
  if (topo.hosts.size() < 2) t.fail("hosts", "fewer than 2 hosts: expected at least 2 [[topology.hosts]]");
  read_links(t, topo, names, rate);
  for (const HostNode& h : topo.hosts) {
    if (h.link == kNoLink) {
      t.fail("links", fmt::format("host '{}' has no link: expected one [[topology.links]] entry per host", h.name));
    }
  }
}

}  // namespace rtb::scenario
