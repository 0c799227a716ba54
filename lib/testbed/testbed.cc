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
  std::unique_ptr<Testbed> t(new Testbed(s, false));
  if (Status st = t->make(pools, cc); !st) return Error{st.message()};
  t->wire_up();
  return t;
}

Expected<std::unique_ptr<Testbed>> Testbed::build_realtime(const scenario::Scenario& s,
                                                           runtime::PoolSet& pools,
                                                           const cc::Controller& cc) {
  std::unique_ptr<Testbed> t(new Testbed(s, true));
  if (Status st = t->make(pools, cc); !st) return Error{st.message()};
  if (Status st = t->make_bridges(); !st) return Error{st.message()};
  return t;  // no waker: realtime lcores poll every stage anyway
}

Status Testbed::make(runtime::PoolSet& pools, const cc::Controller& cc) {
  if (Status st = make_links(); !st) return st;
  if (Status st = make_hosts(pools, cc); !st) return st;
  if (Status st = make_switches(pools); !st) return st;
  return make_flows();
}

unsigned Testbed::lcore_of(NodeRef n) const {
  const scenario::RealtimeConfig& r = s_.realtime;
  return n.kind == NodeKind::kHost ? r.lcore_of_host[n.index] : r.lcore_of_switch[n.index];
}

// Realtime: a cable between lcores cannot be one WireLink (it is not thread-safe).
bool Testbed::cut(const scenario::Link& l) const {
  return realtime_ && (s_.realtime.ring_links || lcore_of(l.a.node) != lcore_of(l.b.node));
}

EndLinks Testbed::end_links(uint32_t link, bool end_a) const {
  const LinkPair& p = links_[link];
  if (end_a) return {p.ab.get(), p.ba.get()};
  if (p.b_tx) return {p.b_tx.get(), p.b_rx.get()};
  return {p.ba.get(), p.ab.get()};
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
    if (cut(l)) {  // each end's wires reach its bridge; the propagation stays on the senders'
      pair.ba = std::make_unique<runtime::WireLink>(
          runtime::WireLinkConfig{"ring->" + a, l.rate, Time::zero(), Bytes(9'216)});
      pair.b_tx = std::make_unique<runtime::WireLink>(
          runtime::WireLinkConfig{b + "->" + a, l.rate, l.propagation, Bytes(9'216)});
      pair.b_rx = std::make_unique<runtime::WireLink>(
          runtime::WireLinkConfig{"ring->" + b, l.rate, Time::zero(), Bytes(9'216)});
    }
    links_.push_back(std::move(pair));
  }
  // Faults: one generator per link direction, from the scenario seed.
  auto faults_for = [&](uint32_t link, int dir) -> runtime::LinkFaults& {
    runtime::WireLink& w = *end_links(link, dir == 0).tx;  // the direction's sending wire
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
    const EndLinks e = end_links(h.link, is_a);
    host::PortLinks port{e.tx, e.rx};
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
      const EndLinks e = end_links(li, is_a);
      ports.push_back(sw::PortLinks{e.rx, e.tx});
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
  return *end_links(li, is_a).tx;
}

uint64_t Testbed::frame_hops() const {
  uint64_t n = 0;
  for (uint32_t i = 0; i < links_.size(); ++i) {
    n += end_links(i, true).rx->counters().delivered + end_links(i, false).rx->counters().delivered;
  }
  return n;
}

uint64_t Testbed::fault_drops() const {
  uint64_t n = 0;
  for (const LinkPair& p : links_) {
    for (const auto* w : {p.ab.get(), p.ba.get(), p.b_tx.get(), p.b_rx.get()}) {
      if (w != nullptr) n += w->counters().dropped_fault + w->counters().dropped_link_down;
    }
  }
  return n;
}

// Each cut cable: an rte_ring port pair, a bridge at each end on its node's lcore.
Status Testbed::make_bridges() {
  static uint32_t pairs = 0;  // ring names must be unique in the process
  for (uint32_t i = 0; i < links_.size(); ++i) {
    const scenario::Link& l = s_.topology.links[i];
    if (!cut(l)) continue;
    auto pair = ethport::EthPort::ring_pair(fmt::format("rtb{}", pairs++));
    if (!pair) return Error{fmt::format("link {}: {}", i, pair.error().message)};
    auto [pa, pb] = std::move(pair).value();
    const std::string a = node_name(s_, l.a.node), b = node_name(s_, l.b.node);
    bridges_.push_back(std::make_unique<ethport::EthBridge>(a + ":ring", *pa, links_[i].ab.get(),
                                                            links_[i].ba.get()));
    bridge_lcores_.push_back(lcore_of(l.a.node));
    bridges_.push_back(std::make_unique<ethport::EthBridge>(b + ":ring", *pb, links_[i].b_tx.get(),
                                                            links_[i].b_rx.get()));
    bridge_lcores_.push_back(lcore_of(l.b.node));
    ports_.push_back(std::move(pa));
    ports_.push_back(std::move(pb));
  }
  return {};
}

std::vector<Placed> Testbed::placements() const {
  std::vector<Placed> v;
  for (uint32_t i = 0; i < hosts_.size(); ++i) v.push_back({hosts_[i].get(), lcore_of({NodeKind::kHost, i})});
  for (uint32_t i = 0; i < switches_.size(); ++i) v.push_back({switches_[i].get(), lcore_of({NodeKind::kSwitch, i})});
  for (size_t i = 0; i < bridges_.size(); ++i) v.push_back({bridges_[i].get(), bridge_lcores_[i]});
  return v;
}

void Testbed::drain() {
  for (auto& sw : switches_) sw->drain();
  for (auto& b : bridges_) b->drain();
  for (LinkPair& p : links_) {
    for (auto* w : {p.ab.get(), p.ba.get(), p.b_tx.get(), p.b_rx.get()}) {
      if (w != nullptr) w->drain();
    }
  }
}

}  // namespace rtb::testbed
