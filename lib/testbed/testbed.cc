#include "testbed/testbed.h"

#include <fmt/format.h>

#include <algorithm>
#include <cstdlib>

#include "testbed/base_rtt.h"
#include "testbed/pool_plan.h"
#include "wire/frame_size.h"

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
                                                  const cc::Controller& cc,
                                                  const HostStandIn& stand_in) {
  std::unique_ptr<Testbed> t(new Testbed(s, false));
  t->pools_ = {&pools};
  if (Status st = t->make(cc, stand_in); !st) return Error{st.message()};
  t->wire_up();
  return t;
}

Expected<std::unique_ptr<Testbed>> Testbed::build_partitioned(const scenario::Scenario& s,
                                                              const Partitioning& plan,
                                                              std::span<runtime::PoolSet* const> pools,
                                                              const cc::Controller& cc,
                                                              const HostStandIn& stand_in,
                                                              runtime::Ranks* ranks) {
  std::unique_ptr<Testbed> t(new Testbed(s, false));
  t->pools_.assign(pools.begin(), pools.end());
  t->plan_ = plan;
  t->ranks_ = ranks;
  if (Status st = t->make(cc, stand_in); !st) return Error{st.message()};
  t->wire_up_partitions();
  return t;
}

Expected<std::unique_ptr<Testbed>> Testbed::build_realtime(const scenario::Scenario& s,
                                                           runtime::PoolSet& pools,
                                                           const cc::Controller& cc) {
  std::unique_ptr<Testbed> t(new Testbed(s, true));
  t->pools_ = {&pools};
  if (Status st = t->make(cc, {}); !st) return Error{st.message()};
  if (Status st = t->make_bridges(); !st) return Error{st.message()};
  if (Status st = t->make_ports(pools); !st) return Error{st.message()};
  return t;  // no waker: realtime lcores poll every stage anyway
}

Status Testbed::make(const cc::Controller& cc, const HostStandIn& stand_in) {
  if (Status st = make_links(); !st) return st;
  auto int_plan = plan_int(s_, cc.algorithm());
  if (!int_plan) return Error{int_plan.error().message};
  if (Status st = make_hosts(cc, stand_in); !st) return st;
  if (Status st = make_switches(*int_plan); !st) return st;
  return make_flows(cc.algorithm(), *int_plan);
}

// Realtime: the nodes of this process's role. Across MPI ranks: those of this rank's partitions.
bool Testbed::built(NodeRef n) const {
  if (realtime_) return s_.realtime.builds(n);
  return !plan_ || plan_->here(plan_->of(n));
}

bool Testbed::cut(const scenario::Link& l) const { return realtime_ && s_.realtime.cuts(l); }

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
    auto wire = [&](const std::string& name, Time propagation) {
      return std::make_unique<runtime::WireLink>(
          runtime::WireLinkConfig{name, l.rate, propagation, Bytes(9'216)});
    };
    LinkPair pair;
    const bool has_a = built(l.a.node), has_b = built(l.b.node);
    // Across MPI ranks a cable with one end here keeps both wires: the one this end sends
    // on, and the copy of the far end's that frames from its rank are staged on.
    const bool whole = (has_a && has_b && !cut(l)) || (!realtime_ && (has_a || has_b));
    if (whole) {
      pair.ab = wire(a + "->" + b, l.propagation);
      pair.ba = wire(b + "->" + a, l.propagation);
    } else {  // each end built here has its own wires to its bridge; the senders' carry the delay
      const std::string far = has_a && has_b ? "ring" : "port";
      if (has_a) {
        pair.ab = wire(a + "->" + b, l.propagation);
        pair.ba = wire(far + "->" + a, Time::zero());
      }
      if (has_b) {
        pair.b_tx = wire(b + "->" + a, l.propagation);
        pair.b_rx = wire(far + "->" + b, Time::zero());
      }
    }
    links_.push_back(std::move(pair));
  }
  // Faults: one generator per link direction, from the scenario seed.
  // Faults: one generator per link direction, from the scenario seed, on the direction's
  // sending wire (in a split run, the process that builds that end applies them).
  std::vector<runtime::LinkFaults*> by_dir(2 * links_.size(), nullptr);
  auto get = [&](uint32_t link, int dir) -> runtime::LinkFaults* {
    runtime::WireLink* w = end_links(link, dir == 0).tx;
    runtime::LinkFaults*& f = by_dir[2 * link + static_cast<uint32_t>(dir)];
    if (w != nullptr && f == nullptr) {
      faults_.push_back(std::make_unique<runtime::LinkFaults>(
          Rng(s_.run.seed, 0x1000'0000ULL + 2ULL * link + static_cast<uint64_t>(dir))));
      f = faults_.back().get();
      w->set_faults(f);
    }
    return f;
  };
  for (const auto& d : s_.faults.drops) {
    for (int dir = 0; dir < 2; ++dir) {
      if (auto* f = get(d.link, dir)) f->drop_with_probability(d.probability);
    }
  }
  for (const auto& d : s_.faults.link_downs) {
    for (int dir = 0; dir < 2; ++dir) {
      if (auto* f = get(d.link, dir)) f->down_between(d.from, d.to);
    }
  }
  return {};
}

Status Testbed::make_hosts(const cc::Controller& cc, const HostStandIn& stand_in) {
  std::vector<uint32_t> qps(s_.topology.hosts.size(), 0);
  for (const scenario::Flow& f : s_.flows) {
    ++qps[f.src];
    ++qps[f.dst];
  }
  stand_ins_.assign(s_.topology.hosts.size(), nullptr);
  for (size_t i = 0; i < s_.topology.hosts.size(); ++i) {
    if (!built(NodeRef{NodeKind::kHost, static_cast<uint32_t>(i)})) {
      hosts_.push_back(nullptr);  // in another process
      continue;
    }
    const scenario::HostNode& h = s_.topology.hosts[i];
    runtime::PoolSet& pools = pools_of(NodeRef{NodeKind::kHost, static_cast<uint32_t>(i)});
    const scenario::Link& l = s_.topology.links[h.link];
    const bool is_a = l.a.node == NodeRef{NodeKind::kHost, static_cast<uint32_t>(i)};
    const EndLinks e = end_links(h.link, is_a);
    host::PortLinks port{e.tx, e.rx};
    if (stand_in) stand_ins_[i] = stand_in(static_cast<uint32_t>(i), port, pools);
    if (stand_ins_[i] != nullptr) {
      hosts_.push_back(nullptr);
      continue;
    }
    host::HostConfig config = h.config;
    for (const auto& storm : s_.faults.pfc_storms) {
      if (storm.host == i) {
        config.pfc_storm = host::PfcStorm{storm.start, storm.end, storm.priority, storm.quanta,
                                          storm.interval};
      }
    }
    auto made = host::Host::create(config, {port}, controller_of(static_cast<uint32_t>(i), cc),
                                   {&pools.data(), &pools.control()},
                                   std::max<uint32_t>(qps[i], 1));
    if (!made) return Error{made.error().message};
    hosts_.push_back(std::move(made).value());
  }
  return {};
}

// Virtual time: the run's controller. Realtime: the copy that belongs to the host's lcore.
const cc::Controller& Testbed::controller_of(uint32_t host, const cc::Controller& cc) {
  if (!realtime_) return cc;
  const unsigned lcore = s_.realtime.lcore_of_host[host];
  auto it = std::find_if(controllers_.begin(), controllers_.end(),
                         [&](const LcoreController& c) { return c.lcore >= lcore; });
  if (it == controllers_.end() || it->lcore != lcore) {
    it = controllers_.insert(it, LcoreController{lcore, std::make_unique<cc::Controller>(cc)});
  }
  return *it->controller;
}

Status Testbed::make_switches(const IntPlan& int_plan) {
  for (size_t i = 0; i < s_.topology.switches.size(); ++i) {
    if (!built(NodeRef{NodeKind::kSwitch, static_cast<uint32_t>(i)})) {
      switches_.push_back(nullptr);  // in another process
      continue;
    }
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
    sw::SwitchConfig config = node.config;
    if (int_plan.on()) config.int_dscp = int_plan.dscp;
    runtime::PoolSet& pools = pools_of(NodeRef{NodeKind::kSwitch, static_cast<uint32_t>(i)});
    auto made = sw::Switch::make(std::move(config), std::move(ports), &pools.control(),
                                 splitmix64(mix));
    if (!made) return Error{fmt::format("switch {}: {}", node.name, made.error().message)};
    switches_.push_back(std::move(made).value());
  }
  return {};
}

// QPNs are first_qpn + index, indices in flow order on each host, so the peer's QPN is
// known even when the peer host is in another process. What the connection agrees on:
// the flow's id (its index in the scenario, unique in the run), its path's base RTT
// (base_rtt.h) and its switch count, and whether the receiver sends CNPs: only if the sender's algorithm asked
// for them (every host of a run runs the same algorithm, so the decision is made here,
// once per connection, as an RDMA connection manager exchanges QP attributes).
Status Testbed::make_flows(const cc::Algorithm& algorithm, const IntPlan& int_plan) {
  std::vector<uint32_t> next_qp(s_.topology.hosts.size(), 0);
  BasePaths paths(s_.topology);
  for (const scenario::Flow& f : s_.flows) {
    const scenario::HostNode& src = s_.topology.hosts[f.src];
    const scenario::HostNode& dst = s_.topology.hosts[f.dst];
    const FlowQps q{next_qp[f.src]++, next_qp[f.dst]++};
    host::QpSpec sa;
    sa.priority = f.priority;
    sa.dscp = f.dscp;
    sa.vlan_tagged = src.vlan_tagged;
    sa.requester = src.requester;
    sa.flow_id = f.id;
    const BasePath& path = base_paths_.emplace_back(paths.of(f));
    sa.base_rtt = path.rtt;
    sa.hop_count = path.switches;
    sa.send_cnps = algorithm.needs(cc::Feedback::kCnp);
    sa.int_trailer_bytes = int_plan.trailer_bytes;
    host::QpSpec sb = sa;
    sb.vlan_tagged = dst.vlan_tagged;
    sb.requester = dst.requester;
    sa.peer_qpn = dst.config.first_qpn + q.dst_qp;
    sa.peer_mac = dst.mac;
    sa.peer_ip = dst.ip;
    sb.peer_qpn = src.config.first_qpn + q.src_qp;
    sb.peer_mac = src.mac;
    sb.peer_ip = src.ip;
    if (host::Host* a = hosts_[f.src].get()) {
      auto qa = a->add_qp(sa);
      if (!qa) return Error{fmt::format("flow {}: {}", f.id, qa.error().message)};
      post_messages(*a, *qa, f);
    }
    if (host::Host* b = hosts_[f.dst].get()) {
      auto qb = b->add_qp(sb);
      if (!qb) return Error{fmt::format("flow {}: {}", f.id, qb.error().message)};
    }
    flow_qps_.push_back(q);
  }
  return {};
}

void Testbed::post_messages(host::Host& a, uint32_t qp, const scenario::Flow& f) {
  if (!f.messages.empty()) {  // each at most Requester::kMaxMessageBytes (the loader checks)
    for (const scenario::Message& m : f.messages) a.post(qp, m.bytes.count(), m.start);
  } else if (f.size) {  // one message, or 1 GiB messages for a larger flow
    uint64_t left = f.size->count();
    do {
      const uint64_t m = std::min<uint64_t>(left, 1ull << 30);
      a.post(qp, m, f.start);
      left -= m;
    } while (left > 0);
  } else {
    const uint64_t n = long_lived_messages(s_, s_.topology.hosts[f.src]);
    for (uint64_t m = n; m > 0; --m) a.post(qp, kLongLivedMessage, f.start);
  }
}

// Stage ids in a fixed order (hosts, then switches), and every link to its receiver.
runtime::Stage& Testbed::stage_of(NodeRef n) const {
  if (n.kind == NodeKind::kSwitch) return *switches_[n.index];
  if (hosts_[n.index]) return *hosts_[n.index];
  return *stand_ins_[n.index];
}

void Testbed::wire_up() {
  for (uint32_t i = 0; i < hosts_.size(); ++i) scheduler_.add(stage_of({NodeKind::kHost, i}));
  for (auto& sw : switches_) scheduler_.add(*sw);
  for (size_t i = 0; i < links_.size(); ++i) {
    const scenario::Link& l = s_.topology.links[i];
    links_[i].ab->connect_receiver(&scheduler_, stage_of(l.b.node).id());
    links_[i].ba->connect_receiver(&scheduler_, stage_of(l.a.node).id());
  }
}

// As wire_up(), each stage under its partition's scheduler: the stages of one partition keep
// their relative order (hosts, then switches), which is all that orders same-instant events
// there. A cable between partitions is two crossing links, each sent from its own side.
void Testbed::wire_up_partitions() {
  parallel_ = std::make_unique<runtime::PartitionedScheduler>(plan_->count, plan_->lookahead, plan_->threads);
  if (plan_->ranks > 1) {
    std::vector<uint32_t> rank_of(plan_->count);
    for (uint32_t p = 0; p < plan_->count; ++p) rank_of[p] = plan_->rank_of(p);
    parallel_->set_ranks(*ranks_, std::move(rank_of));
  }
  for (uint32_t i = 0; i < hosts_.size(); ++i) {
    if (built({NodeKind::kHost, i})) parallel_->add(stage_of({NodeKind::kHost, i}), plan_->of_host[i]);
  }
  for (uint32_t i = 0; i < switches_.size(); ++i) {
    if (built({NodeKind::kSwitch, i})) parallel_->add(stage_of({NodeKind::kSwitch, i}), plan_->of_switch[i]);
  }
  for (uint32_t i = 0; i < links_.size(); ++i) {
    const scenario::Link& l = s_.topology.links[i];
    if (!links_[i].ab) continue;  // neither end on this rank
    const uint32_t pa = plan_->of(l.a.node), pb = plan_->of(l.b.node);
    if (built(l.b.node)) links_[i].ab->connect_receiver(&parallel_->waker(pb), stage_of(l.b.node).id());
    if (built(l.a.node)) links_[i].ba->connect_receiver(&parallel_->waker(pa), stage_of(l.a.node).id());
    if (pa != pb) {  // a wire's id on every rank: 2 x its cable, + 1 from end b
      parallel_->add_crossing(*links_[i].ab, pa, pb, 2 * i, pools_[pb]);
      parallel_->add_crossing(*links_[i].ba, pb, pa, 2 * i + 1, pools_[pa]);
    }
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
    for (bool end_a : {true, false}) {
      if (const runtime::WireLink* rx = end_links(i, end_a).rx) n += rx->counters().delivered;
    }
  }
  return n;
}

uint64_t Testbed::fault_drops() const {
  uint64_t n = 0;
  for (const LinkPair& p : links_) {
    for (const auto* w : {p.ab.get(), p.ba.get(), p.b_tx.get(), p.b_rx.get()}) {
      if (w == nullptr) continue;
      const runtime::WireLinkCounters& c = w->counters();
      n += c.dropped_fault + c.dropped_link_down + c.lost_down_in_flight;
    }
  }
  return n;
}

// "${NAME}" in a device string is the environment variable NAME (run_split.sh sets
// RTB_RUN_ID so that parallel runs use their own memif sockets).
static Expected<std::string> expand_environment(const std::string& device) {
  std::string out;
  size_t i = 0;
  while (i < device.size()) {
    const size_t open = device.find("${", i);
    if (open == std::string::npos) break;
    const size_t close = device.find('}', open);
    if (close == std::string::npos) return Error{fmt::format("device '{}': '${{' without '}}'", device)};
    const std::string name = device.substr(open + 2, close - open - 2);
    const char* value = std::getenv(name.c_str());
    if (value == nullptr) {
      return Error{fmt::format("device '{}' uses ${{{}}}, which is not set in the environment", device, name)};
    }
    out += device.substr(i, open - i) + value;
    i = close + 1;
  }
  return out + device.substr(i);
}

// A cable leaving the process: the DPDK port of its ports entry, bridged to the local
// end's wires on that node's lcore.
Status Testbed::make_ports(runtime::PoolSet& pools) {
  // The longest frame on a wire: headers in front of the largest payload and its tail.
  const uint32_t largest = pool_config(s_).largest_data_frame_bytes + wire::kMaxHeaderBytes;
  for (const scenario::RealtimePort& p : s_.realtime.ports) {
    auto device = expand_environment(p.device);
    if (!device) return Error{device.error().message};
    auto port = ethport::EthPort::open(ethport::PortSpec{.device = device.value()}, pools.data().mempool());
    if (!port) return Error{port.error().message};
    if (port.value()->max_frame() < largest) {
      return Error{fmt::format("device {} passes frames of at most {} bytes, but the scenario sends "
                               "{}-byte frames: lower host.path_mtu (1024 fits a 1514-byte port)",
                               device.value(), port.value()->max_frame(), largest)};
    }
    const scenario::Link& l = s_.topology.links[p.link];
    const EndLinks e = end_links(p.link, p.node == l.a.node);
    bridges_.push_back(std::make_unique<ethport::EthBridge>(node_name(s_, p.node) + ":port", *port.value(),
                                                            e.tx, e.rx));
    bridge_lcores_.push_back(s_.realtime.lcore_of(p.node));
    ports_.push_back(std::move(port).value());
  }
  return {};
}

// Each cut cable: an rte_ring port pair, a bridge at each end on its node's lcore.
Status Testbed::make_bridges() {
  static uint32_t pairs = 0;  // ring names must be unique in the process
  for (uint32_t i = 0; i < links_.size(); ++i) {
    const scenario::Link& l = s_.topology.links[i];
    if (!realtime_ || !s_.realtime.rings(l)) continue;
    auto pair = ethport::EthPort::ring_pair(fmt::format("rtb{}", pairs++));
    if (!pair) return Error{fmt::format("link {}: {}", i, pair.error().message)};
    auto [pa, pb] = std::move(pair).value();
    const std::string a = node_name(s_, l.a.node), b = node_name(s_, l.b.node);
    bridges_.push_back(std::make_unique<ethport::EthBridge>(a + ":ring", *pa, links_[i].ab.get(),
                                                            links_[i].ba.get()));
    bridge_lcores_.push_back(s_.realtime.lcore_of(l.a.node));
    bridges_.push_back(std::make_unique<ethport::EthBridge>(b + ":ring", *pb, links_[i].b_tx.get(),
                                                            links_[i].b_rx.get()));
    bridge_lcores_.push_back(s_.realtime.lcore_of(l.b.node));
    ports_.push_back(std::move(pa));
    ports_.push_back(std::move(pb));
  }
  return {};
}

std::vector<Placed> Testbed::placements() const {
  std::vector<Placed> v;
  for (uint32_t i = 0; i < hosts_.size(); ++i) {
    if (hosts_[i]) v.push_back({hosts_[i].get(), s_.realtime.lcore_of({NodeKind::kHost, i})});
  }
  for (uint32_t i = 0; i < switches_.size(); ++i) {
    if (switches_[i]) v.push_back({switches_[i].get(), s_.realtime.lcore_of({NodeKind::kSwitch, i})});
  }
  for (size_t i = 0; i < bridges_.size(); ++i) v.push_back({bridges_[i].get(), bridge_lcores_[i]});
  return v;
}

void Testbed::drain() {
  for (auto& sw : switches_) {
    if (sw) sw->drain();
  }
  for (auto& b : bridges_) b->drain();
  for (LinkPair& p : links_) {
    for (auto* w : {p.ab.get(), p.ba.get(), p.b_tx.get(), p.b_rx.get()}) {
      if (w != nullptr) w->drain();
    }
  }
}

}  // namespace rtb::testbed
