#include "host/host.h"

#include <fmt/format.h>
#include <rte_debug.h>

#include <cassert>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "cc_algos/contract.h"

#include "host/host_port.h"
#include "host/psn.h"

namespace rtb::host {
namespace {

constexpr uint32_t kMaxPorts = 16;
constexpr uint32_t kPacerSlotsLog2 = 16;  // the pacer's wheel: 2^16 slots of pacer_slot
// A fine span of 2^12 slots (4 us at the default 1 ns slot) holds the next frame of any
// flow above about 2 Gb/s, so most filings skip the coarse bucket and its cascade.
constexpr uint32_t kPacerFineLog2 = 12;
// Send times kept per QP for RTT samples (only when the algorithm asks for RTT): 2^12
// frames in flight, 4 MiB at path MTU 1024, 32 KiB of memory a QP.
constexpr uint32_t kSendTimesLog2 = 12;

// A decision that breaks the contract (cc_algos/contract.h) ends the run: what follows
// would be a spinning timer or a flow that silently stopped, not a result.
[[noreturn]] void stop_on_breach(const std::string& message) {
  std::fprintf(stderr, "rocetb: %s\n", message.c_str());
  rte_exit(EXIT_FAILURE, "congestion-control contract breach\n");
}

Expected<wire::FlowTemplate> make_template(const PortConfig& port, const QpSpec& spec,
                                           uint32_t qpn, uint8_t dscp, uint8_t pcp,
                                           std::optional<uint16_t> sport, uint16_t int_trailer) {
  wire::FlowSpec f;
  f.src_mac = port.mac;
  f.dst_mac = spec.peer_mac;
  f.src_ip = port.ip;
  f.dst_ip = spec.peer_ip;
  f.src_qpn = qpn;
  f.dst_qpn = spec.peer_qpn;
  f.dscp = dscp;
  if (spec.vlan_tagged) f.vlan = wire::Vlan{pcp, 0};
  f.udp_sport = sport;
  f.path_mtu = spec.requester.path_mtu;
  f.int_trailer_bytes = int_trailer;
  return wire::FlowTemplate::make(f);
}

}  // namespace

Expected<std::unique_ptr<Host>> Host::create(const HostConfig& config,
                                             std::vector<PortLinks> ports,
                                             const cc::Controller& cc, HostPools pools,
                                             uint32_t max_qps) {
  if (ports.empty() || ports.size() != config.ports.size() || ports.size() > kMaxPorts) {
    return Error{fmt::format("host {}: {} port configs but {} links (1..{} expected, equal)",
                             config.name, config.ports.size(), ports.size(), kMaxPorts)};
  }
  for (const PortLinks& p : ports) {
    if (p.tx == nullptr || p.rx == nullptr) {
      return Error{fmt::format("host {}: every port needs a tx and an rx link", config.name)};
    }
  }
  if (pools.data == nullptr || pools.control == nullptr) {
    return Error{fmt::format("host {}: a data and a control mbuf pool are needed", config.name)};
  }
  auto flows = cc::FlowTable::create(cc.algorithm(), max_qps);
  if (!flows) return Error{fmt::format("host {}: {}", config.name, flows.error().message)};
  auto pacer = cc::Pacer::create(
      cc::PacerConfig{max_qps, config.pacer_slot, kPacerSlotsLog2, Time::zero(), kPacerFineLog2});
  if (!pacer) return Error{fmt::format("host {}: {}", config.name, pacer.error().message)};
  return std::unique_ptr<Host>(new Host(config, std::move(ports), cc, pools,
                                        std::move(flows).value(), std::move(pacer).value(),
                                        max_qps));
}

Host::Host(const HostConfig& config, std::vector<PortLinks> links, const cc::Controller& cc,
           HostPools pools, cc::FlowTable flows, cc::Pacer pacer, uint32_t max_qps)
    : Stage(config.name),
      config_(config),
      cc_(cc),
      acks_to_cc_(cc.algorithm().needs(cc::Feedback::kAck) ||
                  cc.algorithm().needs(cc::Feedback::kRtt) ||
                  cc.algorithm().needs(cc::Feedback::kInt)),
      pools_(pools),
      flows_(std::move(flows)),
      np_(cc.np_params()),
      pacer_(std::move(pacer)),
      released_(max_qps),
      max_qps_(max_qps),
      timers_(max_qps * kTimerKinds) {
  if (cc.algorithm().needs(cc::Feedback::kInt)) int_ = IntFeedback(max_qps);
  for (size_t i = 0; i < links.size(); ++i) {
    auto port = std::make_unique<Port>();
    port->config = config.ports[i];
    port->links = links[i];
    ports_.push_back(std::move(port));
  }
  qps_.reserve(max_qps);
  ring_place_.reserve(max_qps);
  parse_options_.check_icrc = config.check_icrc;
  if (config.pfc_storm.enabled()) next_storm_ = config.pfc_storm.start;
}

Host::~Host() = default;

Expected<uint32_t> Host::add_qp(const QpSpec& spec) {
  const auto index = static_cast<uint32_t>(qps_.size());
  if (index >= max_qps_) {
    return Error{fmt::format("host {}: more than the {} QPs it was sized for", name(), max_qps_)};
  }
  if (spec.port >= ports_.size() || spec.priority > 7 || spec.dscp > 63) {
    return Error{fmt::format("host {}: QP {}: port {} (of {}), priority {} (0..7), dscp {} (0..63)",
                             name(), index, spec.port, ports_.size(), spec.priority, spec.dscp)};
  }
  if (spec.requester.ack_req_every == 0) {
    return Error{fmt::format("host {}: QP {}: ack_req_every must be at least 1", name(), index)};
  }
  const uint32_t qpn = config_.first_qpn + index;
  const PortConfig& port = ports_[spec.port]->config;
  if (Status st = use_int(spec, index); !st) return Error{st.message()};
  auto data = make_template(port, spec, qpn, spec.dscp, spec.priority, std::nullopt,
                            spec.int_trailer_bytes);
  if (!data) return Error{fmt::format("host {}: QP {}: {}", name(), index, data.error().message)};
  // CNPs: np_cnp_dscp / np_cnp_prio, UDP source port 0 as ConnectX sends them.
  auto cnp = make_template(port, spec, qpn, np_.cnp_dscp(), np_.cnp_pcp(), uint16_t{0}, 0);
  if (!cnp) return Error{fmt::format("host {}: QP {}: {}", name(), index, cnp.error().message)};
  const uint32_t send_times = cc_.algorithm().needs(cc::Feedback::kRtt) ? kSendTimesLog2 : 0;
  ring_place_.push_back(RingPlace{static_cast<uint8_t>(spec.port), spec.priority, false});
  qps_.emplace_back(index, qpn, spec, std::move(data).value(), std::move(cnp).value(), send_times);
  return index;
}

// INT frames are known by their DSCP (wire/parser.h): one DSCP and trailer size for every
// INT connection of the host, and no CNP on that DSCP (a CNP carries no trailer).
Status Host::use_int(const QpSpec& spec, uint32_t index) {
  if (spec.int_trailer_bytes == 0) return {};
  if (!int_.enabled()) {
    return Error{fmt::format("host {}: QP {}: an INT trailer, but the algorithm did not ask for INT",
                             name(), index)};
  }
  wire::ParseOptions& o = parse_options_;
  if (o.int_dscp != 0xFF && (o.int_dscp != spec.dscp || o.int_trailer_bytes != spec.int_trailer_bytes)) {
    return Error{fmt::format("host {}: QP {}: INT frames with DSCP {} but DSCP {} carries them already: "
                             "every INT flow of a host needs the same DSCP", name(), index, spec.dscp,
                             o.int_dscp)};
  }
  if (spec.send_cnps && np_.cnp_dscp() == spec.dscp) {
    return Error{fmt::format("host {}: QP {}: np_cnp_dscp {} is the INT flows' DSCP: CNPs would be "
                             "taken for INT frames; expected another DSCP", name(), index, spec.dscp)};
  }
  o.int_dscp = spec.dscp;
  o.int_trailer_bytes = spec.int_trailer_bytes;
  return {};
}

void Host::post(uint32_t qp, uint64_t bytes, Time start) {
  qps_[qp].requester.post(bytes, start);
  const Time pending = timers_.deadline(qp * kTimerKinds + kStart);
  if (!ring_place_[qp].in_ring && start < pending) timers_.set(qp * kTimerKinds + kStart, start);
}

void Host::poll(Time now) {
  if (pacer_next_ > now) catch_up_pacer(now);  // else the pacer is polled in fire_timers
  if (arrived_by(now)) receive(now);
  fire_timers(now);
  if (next_storm_ <= now) storm(now);  // tested here: most hosts never storm
  transmit(now);
  if (pacer_moved_) {
    pacer_next_ = pacer_.next_deadline();
    pacer_moved_ = false;
  }
}

// Most polls find nothing arrived (a sending host is polled once for every frame it
// starts), so the test stays here, without receive()'s frame of a burst of pointers.
bool Host::arrived_by(Time now) const {
  for (const auto& port : ports_) {
    if (port->links.rx->next_arrival() <= now) return true;
  }
  return false;
}

Time Host::next_deadline() const {
  Time t = std::min({timers_.next(), pacer_deadline(), next_storm_});
  if (!delayed_acks_.empty()) t = std::min(t, delayed_acks_.front().ready);
  if (!delayed_cnps_.empty()) t = std::min(t, delayed_cnps_.front().ready);
  if (!delayed_reactions_.empty()) t = std::min(t, delayed_reactions_.front().ready);
  for (const auto& port : ports_) {
    t = std::min(t, port->links.rx->next_arrival());
    t = std::min(t, port_ready_at(*port));
  }
  return t;
}

// A flow the pacer releases can start no sooner than its port's wire is free: releasing it
// earlier only moves it into the arbiter ring sooner. So the pacer alone makes the host due
// no earlier than the first moment a wire is free, and a line-rate host is polled once per
// frame, not once for the release and once for the wire. Nothing is lost by the wait: a
// poll made for anything else (an arrival, a timer) polls the pacer first (fire_timers), so
// the flows due by then are released in the same order before any frame is chosen.
Time Host::pacer_deadline() const {
  Time wire_free = Time::never();
  for (const auto& port : ports_) wire_free = std::min(wire_free, port->links.tx->free_at());
  return std::max(pacer_next_, wire_free);
}

// The pacer files a flow relative to its cursor, which its poll() moves to `now`; a flow
// filed more than a revolution of the wheel after the cursor would be parked in a slot
// already past. Polls the pacer skip (nothing due) therefore leave the cursor at most half
// a revolution behind: past that, the pacer is polled here, before anything is filed,
// while nothing is due, so it only moves the cursor, as every poll did before.
void Host::catch_up_pacer(Time now) {
  const Time half_revolution = config_.pacer_slot * (uint64_t{1} << (kPacerSlotsLog2 - 1));
  if (pacer_next_ <= now || now < pacer_polled_ + half_revolution) return;
  const size_t n = pacer_.poll(now, released_);
  assert(n == 0 && "nothing was due");
  pacer_polled_ = now;
  to_rings(n);
}

// Flows the pacer released wait in their port's arbiter ring.
void Host::to_rings(size_t released) {
  for (size_t i = 0; i < released; ++i) {
    RingPlace& place = ring_place_[released_[i]];
    place.in_ring = true;
    ports_[place.port]->ring.push(place.priority, released_[i]);
  }
}

void Host::fire_timers(Time now) {
  const auto to_port = [this, now](ControlQueue& q) {
    while (!q.empty() && q.front().ready <= now) {
      const ControlItem& item = q.front();
      const QueuePair& qp = qps_[item.qp];
      const uint8_t prio = item.kind == ControlItem::Kind::kCnp ? np_.cnp_pcp() : qp.spec.priority;
      ports_[qp.spec.port]->control.push(prio, item);
      q.pop();
    }
  };
  to_port(delayed_acks_);
  to_port(delayed_cnps_);
  while (!delayed_reactions_.empty() && delayed_reactions_.front().ready <= now) {
    on_cnp_reaction(qps_[delayed_reactions_.front().qp], now);
    delayed_reactions_.pop();
  }
  // The pacer releases nothing before its deadline unless this poll changed it.
  size_t n = 0;
  if (pacer_moved_ || pacer_next_ <= now) {
    n = pacer_.poll(now, released_);
    pacer_polled_ = now;
    pacer_moved();  // its cursor moved, and it released flows
  }
  if (n != 0) to_rings(n);
  uint32_t id;
  while (timers_.pop_due(now, id)) {
    QueuePair& qp = qps_[id / kTimerKinds];
    switch (id % kTimerKinds) {
      case kCcTimer:
        apply(qp, cc_.on_timer(flows_.state(qp.index), now), now, "on_timer");
        break;
      case kRto:
        count_timeout(qp, now);
        timers_.set(qp.index * kTimerKinds + kRto, qp.requester.timer_deadline());  // exact
        refresh(qp, now);
        break;
      default:  // kStart: a message's start time came
        refresh(qp, now);
        break;
    }
  }
}

// The retransmission timer is lazy: every frame sent and every ACK moves the requester's
// deadline later, so the heap is touched only when it must fire sooner; a timer that
// fires early finds the requester's deadline later (Requester::on_timer does nothing)
// and is re-armed at it.
void Host::arm_rto(const QueuePair& qp) {
  const uint32_t id = qp.index * kTimerKinds + kRto;
  const Time deadline = qp.requester.timer_deadline();
  if (deadline < timers_.deadline(id)) timers_.set(id, deadline);
}

void Host::on_cnp_reaction(QueuePair& qp, Time now) {
  if (!qp.cc_started || !cc_.algorithm().needs(cc::Feedback::kCnp)) {
    ++counters_.rp_cnp_ignored;
    ++qp.counters.cnp_ignored;
    return;
  }
  ++counters_.rp_cnp_handled;
  ++qp.counters.cnp_handled;
  apply(qp, cc_.on_cnp(flows_.state(qp.index), now), now, "on_cnp");
}

// Applies a congestion-control decision: the rate (the pacer rescales a waiting
// frame's remaining gap), the window, and the algorithm's next timer.
void Host::apply(QueuePair& qp, const cc::Decision& d, Time now, const char* hook) {
  const Rate line = ports_[qp.spec.port]->links.tx->config().rate;
  if (cc::breaks_contract(d, now, line)) stop_on_breach(*cc::contract_breach(cc_.algorithm(), hook, d, now, line));
  if (d.rate != qp.rate) {
    qp.rate = d.rate;
    pacer_.set_rate(qp.index, d.rate, now);
    pacer_moved();
  }
  qp.window = d.window;
  const uint32_t cc_id = qp.index * kTimerKinds + kCcTimer;
  if (d.next_deadline != timers_.deadline(cc_id)) timers_.set(cc_id, d.next_deadline);
  refresh(qp, now);
}

// Hands the QP to the pacer when it has a frame it may send, else takes it out (it
// gathers no credit) and, if a message is still to start, arms the start timer.
void Host::refresh(QueuePair& qp, Time now) {
  const uint32_t start_id = qp.index * kTimerKinds + kStart;
  if (ring_place_[qp.index].in_ring) return;
  if (!qp.requester.has_frame(now)) {
    pacer_.block(qp.index);
    pacer_moved();
    timers_.set(start_id, qp.requester.next_start());
    return;
  }
  timers_.cancel(start_id);
  if (!qp.cc_started) {
    qp.cc_started = true;
    const Rate line = ports_[qp.spec.port]->links.tx->config().rate;
    const cc::FlowStart start{line, qp.spec.base_rtt, qp.spec.flow_id, qp.spec.hop_count};
    apply(qp, cc_.start(flows_.state(qp.index), start, now), now, "on_start");
    return;  // apply() refreshed
  }
  if (qp.window && qp.requester.outstanding_bytes() >= qp.window->count()) {
    pacer_.block(qp.index);  // an ACK opens the window
    pacer_moved();
    return;
  }
  if (!pacer_.waiting(qp.index)) {
    pacer_.ready(qp.index, now);
    pacer_moved();
  }
}

void Host::count_timeout(QueuePair& qp, Time now) {
  const uint64_t before = qp.requester.counters().timeouts;
  qp.requester.on_timer(now);
  if (qp.requester.counters().timeouts == before) return;  // not due: the timer moved
  if (qp.requester.failed()) {
    ++counters_.req_transport_retries_exceeded;
  } else {
    ++counters_.local_ack_timeout_err;
  }
}

}  // namespace rtb::host
