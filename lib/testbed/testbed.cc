#include "testbed/testbed.h"

#include <fmt/format.h>

#include <algorithm>

namespace rtb::testbed {
namespace {

using scenario::NodeKind;
using scenario::NodeRef;

std::string node_name(const scenario::Scenario& s, NodeRef n) {
  return n.kind == NodeKind::kHost ? s.topology.hosts[n.index].name
                                   : s.topology.switches[n.index].name;
}

// A long-lived flow is a stream of messages of this size, posted together: more than its
// line rate can move in the run. (One message may not exceed 2^31 bytes, IBTA vol 1
// §9.7.4, and its PSNs must stay within half the 24-bit PSN space to compare.)
constexpr uint64_t kLongLivedMessage = 64ull << 20;

uint64_t long_lived_messages(const scenario::Scenario& s, const scenario::HostNode& h) {
  const Rate line = s.topology.links[h.link].rate;
  return line.bytes_in(s.run.duration).count() / kLongLivedMessage + 1;
}

}  // namespace

Expected<std::unique_ptr<Testbed>> Testbed::build(const scenario::Scenario& s,
                                                  runtime::PoolSet& pools,
                                                  const cc::Controller& cc) {
  std::unique_ptr<Testbed> t(new Testbed(s));
  if (Status st = t->make_links(); !st) return Error{st.message()};
  if (Status st = t->make_hosts(pools, cc); !st) return Error{st.message()};
  if (Status st = t->make_switches(pools); !st) return Error{st.message()};
  if (Status st = t->make_flows(); !st) return Error{st.message()};
  t->wire_up();
  return t;
}

Testbed::~Testbed() { drain(); }

Status Testbed::make_links() {
  for (size_t i = 0; i < s_.topology.links.size(); ++i) {
    const scenario::Link& l = s_.topology.links[i];
    const std::string a = node_name(s_, l.a.node), b = node_name(s_, l.b.node);
    LinkPair pair;
    pair.ab = std::make_unique<runtime::WireLink>(
        runtime::WireLinkConfig{a + "->" + b, l.rate, l.propagation, Bytes(9'216)});
    pair.ba = std::make_unique<runtime::WireLink>(
        runtime::WireLinkConfig{b + "->" + a, l.rate, l.propagation, Bytes(9'216)});
    links_.push_back(std::move(pair));
  }
  // Faults: one generator per link direction, from the scenario seed.
  auto faults_for = [&](uint32_t link, int dir) -> runtime::LinkFaults& {
    runtime::WireLink& w = dir == 0 ? *links_[link].ab : *links_[link].ba;
    faults_.push_back(std::make_unique<runtime::LinkFaults>(
        Rng(s_.run.seed, 0x1000'0000ULL + 2ULL * link + static_cast<uint64_t>(dir))));
    w.set_faults(faults_.back().get());
    return *faults_.back();
  };
  std::vector<runtime::LinkFaults*> by_dir(2 * links_.size(), nullptr);
  auto get = [&](uint32_t link, int dir) -> runtime::LinkFaults& {
    runtime::LinkFaults*& f = by_dir[2 * link + static_cast<uint32_t>(dir)];
    if (f == nullptr) f = &faults_for(link, dir);
    return *f;
  };
  for (const auto& d : s_.faults.drops) {
    for (int dir = 0; dir < 2; ++dir) get(d.link, dir).drop_with_probability(d.probability);
  }
  for (const auto& d : s_.faults.link_downs) {
    for (int dir = 0; dir < 2; ++dir) get(d.link, dir).down_between(d.from, d.to);
  }
  return {};
}

Status Testbed::make_hosts(runtime::PoolSet& pools, const cc::Controller& cc) {
  std::vector<uint32_t> qps(s_.topology.hosts.size(), 0);
  for (const scenario::Flow& f : s_.flows) {
    ++qps[f.src];
    ++qps[f.dst];
  }
  for (size_t i = 0; i < s_.topology.hosts.size(); ++i) {
    const scenario::HostNode& h = s_.topology.hosts[i];
    const scenario::Link& l = s_.topology.links[h.link];
    const bool is_a = l.a.node == NodeRef{NodeKind::kHost, static_cast<uint32_t>(i)};
    host::PortLinks port{is_a ? links_[h.link].ab.get() : links_[h.link].ba.get(),
                         is_a ? links_[h.link].ba.get() : links_[h.link].ab.get()};
    host::HostConfig config = h.config;
    for (const auto& storm : s_.faults.pfc_storms) {
      if (storm.host == i) {
        config.pfc_storm = host::PfcStorm{storm.start, storm.end, storm.priority, storm.quanta,
                                          storm.interval};
      }
    }
    auto made = host::Host::create(config, {port}, cc, {&pools.data(), &pools.control()},
                                   std::max<uint32_t>(qps[i], 1));
    if (!made) return Error{made.error().message};
    hosts_.push_back(std::move(made).value());
  }
  return {};
}

Status Testbed::make_switches(runtime::PoolSet& pools) {
  for (size_t i = 0; i < s_.topology.switches.size(); ++i) {
    const scenario::SwitchNode& node = s_.topology.switches[i];
    std::vector<sw::PortLinks> ports;
    for (uint16_t p = 0; p < node.port_links.size(); ++p) {
      const uint32_t li = node.port_links[p];
      const scenario::Link& l = s_.topology.links[li];
      const bool is_a = l.a.node == NodeRef{NodeKind::kSwitch, static_cast<uint32_t>(i)} &&
                        l.a.port == p;
      ports.push_back(is_a ? sw::PortLinks{links_[li].ba.get(), links_[li].ab.get()}
                           : sw::PortLinks{links_[li].ab.get(), links_[li].ba.get()});
    }
    uint64_t mix = s_.run.seed ^ (0x5157'0000ULL + i);
    auto made = sw::Switch::make(node.config, std::move(ports), pools.control().mempool(),
                                 splitmix64(mix));
    if (!made) return Error{fmt::format("switch {}: {}", node.name, made.error().message)};
    switches_.push_back(std::move(made).value());
  }
  return {};
}

Status Testbed::make_flows() {
  for (const scenario::Flow& f : s_.flows) {
    const scenario::HostNode& src = s_.topology.hosts[f.src];
    const scenario::HostNode& dst = s_.topology.hosts[f.dst];
    host::Host& a = *hosts_[f.src];
    host::Host& b = *hosts_[f.dst];
    host::QpSpec sa;
    sa.priority = f.priority;
    sa.dscp = f.dscp;
    sa.vlan_tagged = src.vlan_tagged;
    sa.requester = src.requester;
    host::QpSpec sb = sa;
    sb.vlan_tagged = dst.vlan_tagged;
    sb.requester = dst.requester;
    // QPNs are first_qpn + index, so the peer's is known before it is added.
    sa.peer_qpn = b.qpn(b.qp_count());
    sa.peer_mac = dst.mac;
    sa.peer_ip = dst.ip;
    sb.peer_qpn = a.qpn(a.qp_count());
    sb.peer_mac = src.mac;
    sb.peer_ip = src.ip;
    auto qa = a.add_qp(sa);
    if (!qa) return Error{fmt::format("flow {}: {}", f.id, qa.error().message)};
    auto qb = b.add_qp(sb);
    if (!qb) return Error{fmt::format("flow {}: {}", f.id, qb.error().message)};
    if (f.size) {  // one message, or 1 GiB messages for a larger flow
      uint64_t left = f.size->count();
      do {
        const uint64_t m = std::min<uint64_t>(left, 1ull << 30);
        a.post(*qa, m, f.start);
        left -= m;
      } while (left > 0);
    } else {
      for (uint64_t m = long_lived_messages(s_, src); m > 0; --m) a.post(*qa, kLongLivedMessage, f.start);
    }
    flow_qps_.push_back({*qa, *qb});
  }
  return {};
}

// Stage ids in a fixed order (hosts, then switches), and every link to its receiver.
void Testbed::wire_up() {
  for (auto& h : hosts_) scheduler_.add(*h);
  for (auto& sw : switches_) scheduler_.add(*sw);
  auto stage_of = [&](NodeRef n) -> runtime::StageId {
    return n.kind == NodeKind::kHost ? hosts_[n.index]->id() : switches_[n.index]->id();
  };
  for (size_t i = 0; i < links_.size(); ++i) {
    const scenario::Link& l = s_.topology.links[i];
    links_[i].ab->connect_receiver(&scheduler_, stage_of(l.b.node));
    links_[i].ba->connect_receiver(&scheduler_, stage_of(l.a.node));
  }
}

const runtime::WireLink& Testbed::switch_tx(uint32_t sw_index, uint16_t port) const {
  const uint32_t li = s_.topology.switches[sw_index].port_links[port];
  const scenario::Link& l = s_.topology.links[li];
  const bool is_a = l.a.node == NodeRef{NodeKind::kSwitch, sw_index} && l.a.port == port;
  return is_a ? *links_[li].ab : *links_[li].ba;
}

uint64_t Testbed::frame_hops() const {
  uint64_t n = 0;
  for (const LinkPair& p : links_) n += p.ab->counters().delivered + p.ba->counters().delivered;
  return n;
}

void Testbed::drain() {
  for (auto& sw : switches_) sw->drain();
  for (LinkPair& p : links_) {
    p.ab->drain();
    p.ba->drain();
  }
}

}  // namespace rtb::testbed
