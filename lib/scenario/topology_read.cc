#include "scenario/topology_read.h"

#include <fmt/format.h>

#include <cmath>

#include "scenario/addressing.h"

namespace rtb::scenario {
namespace {

constexpr double kPsPerMetre = 5'000;  // about 5 ns/m in fibre or copper

LinkEnd next_port(Topology& topo, NodeRef n, uint32_t link) {
  if (n.kind == NodeKind::kHost) {
    HostNode& h = topo.hosts[n.index];
    if (h.link != kNoLink) return LinkEnd{n, UINT16_MAX};
    h.link = link;
    return LinkEnd{n, 0};
  }
  SwitchNode& s = topo.switches[n.index];
  s.port_links.push_back(link);
  return LinkEnd{n, static_cast<uint16_t>(s.port_links.size() - 1)};
}

}  // namespace

uint32_t add_host(Topology& topo, std::string name, uint32_t ip) {
  HostNode h;
  h.name = std::move(name);
  h.ip = ip;
  h.mac = host_mac(static_cast<uint32_t>(topo.hosts.size()));
  h.link = kNoLink;
  topo.hosts.push_back(std::move(h));
  return static_cast<uint32_t>(topo.hosts.size() - 1);
}

uint32_t add_switch(Topology& topo, std::string name) {
  SwitchNode s;
  s.name = std::move(name);
  topo.switches.push_back(std::move(s));
  return static_cast<uint32_t>(topo.switches.size() - 1);
}

uint32_t connect(Topology& topo, NodeRef a, NodeRef b, Rate rate, Time propagation) {
  const auto link = static_cast<uint32_t>(topo.links.size());
  const bool a_taken = a.kind == NodeKind::kHost && topo.hosts[a.index].link != kNoLink;
  const bool b_taken = b.kind == NodeKind::kHost && topo.hosts[b.index].link != kNoLink;
  if (a_taken || b_taken) return kNoLink;
  Link l;
  l.a = next_port(topo, a, link);
  l.b = next_port(topo, b, link);
  l.rate = rate;
  l.propagation = propagation;
  topo.links.push_back(l);
  return link;
}

Time read_propagation(Table& t, std::string_view length_key, std::string_view delay_key, double default_m) {
  const std::optional<Time> delay = t.opt_time(delay_key);
  const std::optional<double> metres = t.opt_number(length_key, 0, 1e6);
  if (delay && metres) {
    t.fail(delay_key, fmt::format("{} and {} are both given: expected one of them", t.key_path(delay_key),
                                  t.key_path(length_key)));
  }
  if (delay) return *delay;
  return Time::ps(static_cast<uint64_t>(std::llround(metres.value_or(default_m) * kPsPerMetre)));
}

Topology read_topology(Table& t) {
  Topology topo;
  t.require("kind", "'single_switch', 'leaf_spine' or 'explicit'");
  topo.kind = t.choice("kind", {"single_switch", "leaf_spine", "explicit"}, "");
  topo.mtu = static_cast<uint32_t>(t.integer("mtu", 1'500, 16'000, 9'216));
  if (topo.kind == "single_switch") read_single_switch(t, topo);
  if (topo.kind == "leaf_spine") read_leaf_spine(t, topo);
  if (topo.kind == "explicit") read_explicit(t, topo);
  t.finish();
  return topo;
}

void read_single_switch(Table& t, Topology& topo) {
  t.require("hosts", "the number of hosts, an integer");
  const auto hosts = static_cast<uint32_t>(t.integer("hosts", 2, 1'024, 0));
  const Rate rate = t.rate("rate", Rate::gbps(100));
  const Time prop = read_propagation(t, "cable_length_m", "delay", 2);
  const uint32_t sw = add_switch(topo, "sw0");
  for (uint32_t i = 0; i < hosts; ++i) {
    const uint32_t h = add_host(topo, fmt::format("h{}", i), default_host_ip(i));
    connect(topo, {NodeKind::kHost, h}, {NodeKind::kSwitch, sw}, rate, prop);
  }
}

void read_leaf_spine(Table& t, Topology& topo) {
  for (const char* k : {"leaves", "spines", "hosts_per_leaf"}) t.require(k, "an integer");
  const auto leaves = static_cast<uint32_t>(t.integer("leaves", 1, 254, 0));
  const auto spines = static_cast<uint32_t>(t.integer("spines", 1, 64, 0));
  const auto per_leaf = static_cast<uint32_t>(t.integer("hosts_per_leaf", 1, 254, 0));
  const Rate host_rate = t.rate("host_rate", Rate::gbps(100));
  const Rate uplink_rate = t.rate("uplink_rate", host_rate);
  const Time host_prop = read_propagation(t, "host_cable_length_m", "host_delay", 2);
  const Time uplink_prop = read_propagation(t, "uplink_cable_length_m", "uplink_delay", 10);
  if (leaves * per_leaf < 2) t.fail("hosts_per_leaf", "leaves x hosts_per_leaf = 1: expected at least 2 hosts");
  for (uint32_t l = 0; l < leaves; ++l) add_switch(topo, fmt::format("leaf{}", l));
  for (uint32_t s = 0; s < spines; ++s) add_switch(topo, fmt::format("spine{}", s));
  for (uint32_t l = 0; l < leaves; ++l) {
    for (uint32_t i = 0; i < per_leaf; ++i) {
      const uint32_t index = l * per_leaf + i;
      const uint32_t h = add_host(topo, fmt::format("h{}", index), default_host_ip(index));
      connect(topo, {NodeKind::kHost, h}, {NodeKind::kSwitch, l}, host_rate, host_prop);
    }
  }
  for (uint32_t l = 0; l < leaves; ++l) {
    for (uint32_t s = 0; s < spines; ++s) {
      connect(topo, {NodeKind::kSwitch, l}, {NodeKind::kSwitch, leaves + s}, uplink_rate, uplink_prop);
    }
  }
}

}  // namespace rtb::scenario
