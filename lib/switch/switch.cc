#include "switch/switch.h"

#include <rte_mbuf.h>

#include <algorithm>

#include "core/debug_check.h"
#include "switch/validate.h"
#include "wire/int_trailer.h"
#include "wire/ipv4.h"
#include "wire/opcode.h"
#include "wire/udp.h"

namespace rtb::sw {
namespace {

constexpr uint32_t kBurst = 32;

uint32_t max_mtu(const SwitchConfig& c) {
  uint32_t m = 0;
  for (const PortConfig& p : c.ports) m = std::max({m, p.mtu, c.peer_mtu(p)});
  return m;
}

}  // namespace

Expected<std::unique_ptr<Switch>> Switch::make(SwitchConfig config, std::vector<PortLinks> links,
                                               runtime::MbufPool* control_pool, uint64_t seed) {
  const ValidationReport report = validate(config);
  if (!report.ok()) return Error{report.describe()};
  if (links.size() != config.ports.size()) {
    return Error{config.name + ": the number of port links differs from the number of ports"};
  }
  for (const PortLinks& l : links) {
    if (l.rx == nullptr || l.tx == nullptr) return Error{config.name + ": a port has no wire link"};
  }
  if (control_pool == nullptr) return Error{config.name + ": no mempool for PFC frames"};
  return std::unique_ptr<Switch>(new Switch(std::move(config), std::move(links), control_pool, seed));
}

Switch::Switch(SwitchConfig config, std::vector<PortLinks> links, runtime::MbufPool* control_pool,
               uint64_t seed)
    : runtime::Stage(config.name),
      config_(std::move(config)),
      links_(std::move(links)),
      nports_(static_cast<uint16_t>(links_.size())),
      control_pool_(control_pool),
      rng_(seed, 0x5357'0000),
      routes_(config_.routes, config_.ecmp_hash_seed),
      mmu_(config_),
      queues_(static_cast<uint32_t>(config_.ports.size() * kPriorities),
              static_cast<uint32_t>(mmu_.layout().capacity_cells())) {
  const size_t n = config_.ports.size();
  pg_vector_.assign(n * kPriorities, 0);
  pausing_pgs_.assign(n, 0);
  for (size_t p = 0; p < n; ++p) {
    maps_.push_back(&config_.port_maps(p));
    pfc_enable_.push_back(config_.port_pfc_enable(p));
    for (uint8_t tc = 0; tc < kPriorities; ++tc) {
      if (lossless(static_cast<uint16_t>(p), tc))
        pg_vector_[qid(static_cast<uint16_t>(p), maps_[p]->tc_to_pg[tc])] |= static_cast<uint8_t>(1u << tc);
    }
  }
  schedulers_.assign(n, EgressScheduler(config_.scheduler, max_mtu(config_)));
  watchdogs_.assign(n * kPriorities,
                    PfcWatchdog(config_.pfcwd.detection_time, config_.pfcwd.restoration_time));
  pause_meters_.assign(n * kPriorities, PauseMeter{});
  backlog_.assign(n, 0);
  shaper_next_.assign(n, Time::zero());
  egress_at_.assign(n, Time::never());
  rx_next_.assign(nports_, Time::never());
  for (uint16_t p = 0; p < nports_; ++p) links_[p].rx->keep_next_arrival_in(&rx_next_[p], &rx_earliest_);
  aqm_.reserve(n * kPriorities);
  for (const PortConfig& p : config_.ports) {
    for (int q = 0; q < kPriorities; ++q)
      aqm_.push_back(Aqm::make(config_.aqm[q], config_.wred[q], p.shaper.value_or(p.rate), p.mtu));
  }
  counters_.ports.resize(n);
  for (const PortConfig& p : config_.ports)  // validated when INT is on
    int_rate_code_.push_back(wire::int_rate_code(p.rate.bps()).value_or(0));
  for (const PortConfig& p : config_.ports) {
    shaper_clock_.emplace_back(p.shaper.value_or(p.rate));
    // Refresh before the pause lapses: by default at half the pause time.
    const Time pause = p.rate.time_for(Bytes(64) * config_.pfc.pause_quanta);
    const Time refresh = config_.pfc.refresh_interval > Time::zero() ? config_.pfc.refresh_interval
                                                                     : pause / 2;
    for (int pg = 0; pg < kPriorities; ++pg) pfc_gen_.emplace_back(refresh);
  }
}

Switch::~Switch() {
  drain();
  // The links outlive the switch and may be drained after it: their arrivals go back home.
  for (uint16_t p = 0; p < nports_; ++p) links_[p].rx->keep_next_arrival_in(nullptr);
}

void Switch::poll(Time now) {
  receive(now);
  if (pfc_refresh_due_ <= now) pfc_timers(now);  // tested here: skipped while none is due
  if (config_.pfcwd.enabled) watchdog(now);
  if (egress_stale_ || egress_earliest_ <= now) transmit_due(now);
}

// Every port whose egress time has come sends; the scan finds the earliest time again.
// A port's time that another port's transmit changes (an XON it sends) lowers the
// earliest through note_egress(), or marks it stale, whether or not the scan has passed it.
void Switch::transmit_due(Time now) {
  egress_earliest_ = Time::never();
  egress_stale_ = false;
  for (uint16_t p = 0; p < nports_; ++p) {
    if (egress_at_[p] <= now) transmit(p, now);
    egress_earliest_ = std::min(egress_earliest_, egress_at_[p]);
  }
  if (egress_stale_) {  // rare: an XON's PFC frame delayed a port the scan had passed
    egress_earliest_ = *std::min_element(egress_at_.begin(), egress_at_.end());
    egress_stale_ = false;
  }
}

// Asked after every poll; the ports' times are kept as their earliest (switch.h).
Time Switch::next_deadline() const {
  RTB_DEBUG_ASSERT(pfc_refresh_due_ == next_pfc_refresh());
  RTB_DEBUG_ASSERT(!egress_stale_ && egress_earliest_ == *std::min_element(egress_at_.begin(), egress_at_.end()));
  RTB_DEBUG_ASSERT(rx_earliest_ == *std::min_element(rx_next_.begin(), rx_next_.end()));
  Time t = std::min(pfc_refresh_due_, std::min(rx_earliest_, egress_earliest_));
  if (config_.pfcwd.enabled && wd_active()) t = std::min(t, next_wd_poll_);
  return t;
}

// --- ingress -----------------------------------------------------------------------

// Every port whose next arrival has come receives; the scan finds the earliest again (no
// frame the switch sends in the meantime can reach its own inputs).
void Switch::receive(Time now) {
  if (rx_earliest_ > now) return;
  Time earliest = Time::never();
  for (uint16_t p = 0; p < nports_; ++p) {
    if (rx_next_[p] <= now) receive_port(p, now);  // tested here: most ports wait most polls
    earliest = std::min(earliest, rx_next_[p]);
  }
  rx_earliest_ = earliest;
}

// Kept out of receive(): inlined there, the ingress path's registers pushed the scan's port
// index to the stack, and every port of every poll paid a store and a reload.
[[gnu::noinline]] void Switch::receive_port(uint16_t port, Time now) {
  rte_mbuf* burst[kBurst];
  runtime::WireLink& rx = *links_[port].rx;
  uint32_t n;
  do {  // a short burst means nothing more has arrived
    n = rx.receive(now, burst, kBurst);
    for (uint32_t i = 0; i < n; ++i) ingress(port, burst[i], now);
  } while (n == kBurst);
}

void Switch::ingress(uint16_t port, rte_mbuf* m, Time now) {
  const FrameInfo info =
      classify(rte_pktmbuf_mtod(m, const uint8_t*), rte_pktmbuf_data_len(m), *maps_[port]);
  if (info.kind == FrameInfo::Kind::kPfc) {  // counted in pfc_rx only
    pfc_received(port, info, now);
    rte_pktmbuf_free(m);
    return;
  }
  ++counters_.ports[port].rx_ok;
  counters_.ports[port].rx_bytes += rte_pktmbuf_pkt_len(m);
  switch (info.kind) {
    case FrameInfo::Kind::kPfc:
      return;
    case FrameInfo::Kind::kOther:
      drop(m, port, DropReason::kUnsupported);
      return;
    case FrameInfo::Kind::kIpv4:
      enqueue(port, m, info, now);
      return;
  }
}

bool Switch::enqueue(uint16_t in, rte_mbuf* m, const FrameInfo& info, Time now) {
  const int out_port = routes_.lookup(info.key);
  if (out_port == kNoPort) {
    drop(m, in, DropReason::kNoRoute);
    return false;
  }
  const auto out = static_cast<uint16_t>(out_port);
  // TC -> PG by the ingress port's map (ingress accounting, PFC); TC -> queue by the egress
  // port's (SAI_PORT_ATTR_QOS_TC_TO_QUEUE_MAP is bound to the port whose queues it selects).
  const uint8_t tc = info.tc;
  const uint8_t pg = maps_[in]->tc_to_pg[tc];
  const uint8_t q = maps_[out]->tc_to_queue[tc];
  const uint32_t bytes = rte_pktmbuf_pkt_len(m);
  if (wd_blocks(in, tc)) {  // PFC watchdog drop: the storming port's ingress PG
    ++counters_.ports[in].pfcwd[tc].rx_dropped;
    drop(m, in, DropReason::kPfcWatchdog);
    return false;
  }
  if (wd_blocks(out, q)) {  // ... and the storming queue
    ++counters_.ports[out].pfcwd[q].tx_dropped;
    drop_at_queue(m, bytes, out, q, DropReason::kPfcWatchdog);
    return false;
  }
  const QueuedFrame f{m, bytes, in, pg, tc, info.l3_offset, info.ecn};
  // The AQM at enqueue: drops of non-ECT frames always, marks only when marking here.
  const bool ect = info.ecn != static_cast<uint8_t>(wire::Ecn::NotEct);
  const uint64_t depth = queues_.bytes(qid(out, q)) + bytes;
  const AqmVerdict v = !ect || config_.mark_point == MarkPoint::kEnqueue
                           ? aqm_[qid(out, q)].decide(depth, ect, now, rng_)
                           : AqmVerdict::kPass;
  if (v == AqmVerdict::kDrop) {
    ++counters_.ports[out].queues[q].wred_dropped_packets;
    drop_at_queue(m, bytes, out, q, DropReason::kWred);
    return false;
  }
  const Admission a = mmu_.admit(in, pg, out, q, bytes);
  if (!a.admitted) {
    if (a.reason == DropReason::kEgressLimit) {
      drop_at_queue(m, bytes, out, q, a.reason);
    } else {
      ++counters_.ports[in].pgs[pg].dropped_packets;
      drop(m, in, a.reason);
    }
    return false;
  }
  if (info.roce_data) ++counters_.ports[out].queues[q].data_packets;
  if (v == AqmVerdict::kMark && config_.mark_point == MarkPoint::kEnqueue) mark_ce(f, out, q);
  queues_.push(qid(out, q), f);  // cannot fail: one slot per cell, one cell per frame at least
  note_backlogged(out, q);
  if (lossless(in, tc)) {
    const PfcAction action = pfc_gen_[qid(in, pg)].on_admit(now, mmu_.xoff_reached(in, pg));
    if (action == PfcAction::kXoff) {
      ++pausing_;
      pausing_pgs_[in] |= static_cast<uint8_t>(1u << pg);
      pfc_refresh_due_ = std::min(pfc_refresh_due_, pfc_gen_[qid(in, pg)].refresh_at());
    }
    pfc_act(in, pg, action, now);
  }
  return true;
}

void Switch::drop(rte_mbuf* m, uint16_t in_port, DropReason reason) {
  ++counters_.ports[in_port].rx_drp;
  ++counters_.ports[in_port].drops[static_cast<int>(reason)];
  ++counters_.drops[static_cast<int>(reason)];
  rte_pktmbuf_free(m);
}

void Switch::drop_at_queue(rte_mbuf* m, uint32_t bytes, uint16_t out_port,
                           uint8_t queue, DropReason reason) {
  QueueCounters& q = counters_.ports[out_port].queues[queue];
  ++q.dropped_packets;
  q.dropped_bytes += bytes;
  ++counters_.ports[out_port].tx_drp;
  ++counters_.ports[out_port].drops[static_cast<int>(reason)];
  ++counters_.drops[static_cast<int>(reason)];
  rte_pktmbuf_free(m);
}

// --- egress ------------------------------------------------------------------------

QueuedFrame Switch::pop_queue(uint16_t port, uint8_t queue) {
  const uint32_t id = qid(port, queue);
  const QueuedFrame f = queues_.pop(id);
  if (queues_.empty(id)) backlog_[port] &= static_cast<uint8_t>(~(1u << queue));
  return f;  // the caller renews egress_at_ once it is done with the port
}

int Switch::pick_queue(uint16_t port, Time now) {
  const runtime::WireLink& tx = *links_[port].tx;
  uint8_t eligible = 0;
  std::array<uint32_t, kPriorities> heads{};
  for (uint8_t b = backlog_[port]; b != 0; b &= static_cast<uint8_t>(b - 1)) {
    const auto q = static_cast<uint8_t>(__builtin_ctz(b));
    if (!tx.may_start(q, now)) continue;
    eligible |= static_cast<uint8_t>(1u << q);
    heads[q] = queues_.head(qid(port, q)).bytes;
  }
  return eligible == 0 ? -1 : schedulers_[port].select(eligible, heads);
}

void Switch::transmit(uint16_t port, Time now) {
  runtime::WireLink& tx = *links_[port].tx;
  if (backlog_[port] == 0 || !tx.can_send(now) || shaper_next_[port] > now) return;
  const int picked = pick_queue(port, now);
  if (picked < 0) return;
  const auto q = static_cast<uint8_t>(picked);
  const uint32_t id = qid(port, q);
  const uint64_t depth = queues_.bytes(id);
  const QueuedFrame f = pop_queue(port, q);
  schedulers_[port].on_sent(q, f.bytes, queues_.empty(id));
  if (config_.mark_point == MarkPoint::kDequeue) mark_at_dequeue(f, depth, port, q, now);
  if (config_.int_dscp != kNoIntDscp) push_int(f, port, now);
  release(f, port, q, now);
  QueueCounters& qc = counters_.ports[port].queues[q];
  ++qc.packets;
  qc.bytes += f.bytes;
  ++counters_.ports[port].tx_ok;
  counters_.ports[port].tx_bytes += f.bytes;
  if (config_.ports[port].shaper) {
    shaper_next_[port] = now + shaper_clock_[port].advance(runtime::wire_occupancy(f.bytes));
  }
  tx.send(now, f.mbuf);
  note_egress(port);
}

// The AQM's ECN marks at dequeue on the queue's bytes including the departing frame
// (reference §1.1: both DCQCN ns-3 models mark at dequeue).
void Switch::mark_at_dequeue(const QueuedFrame& f, uint64_t depth, uint16_t port, uint8_t queue, Time now) {
  // E.g. at or below WRED's Kmin nothing is marked and nothing drawn: no header read.
  Aqm& aqm = aqm_[qid(port, queue)];
  if (aqm.never_acts(depth)) return;
  if (f.ecn == static_cast<uint8_t>(wire::Ecn::NotEct)) return;  // only marking changes it
  if (aqm.decide(depth, true, now, rng_) == AqmVerdict::kMark) mark_ce(f, port, queue);
}

// HPCC INT at dequeue (int_push.h): the port's bytes sent before this frame and its queued
// bytes (every queue of the port) after it left, as the HPCC simulator's switch records them.
void Switch::push_int(const QueuedFrame& f, uint16_t port, Time now) {
  uint64_t queued = 0;
  for (uint8_t b = backlog_[port]; b != 0; b &= static_cast<uint8_t>(b - 1))
    queued += queues_.bytes(qid(port, static_cast<uint8_t>(__builtin_ctz(b))));
  const IntHopState hop{now, counters_.ports[port].tx_bytes, queued, int_rate_code_[port]};
  push_int_record(rte_pktmbuf_mtod(f.mbuf, uint8_t*), rte_pktmbuf_data_len(f.mbuf), f.l3_offset,
                  config_.int_dscp, hop);
}

// Sets CE (RFC 3168) and patches the IPv4 checksum incrementally (RFC 1624 eqn. 3).
void Switch::mark_ce(const QueuedFrame& f, uint16_t port, uint8_t queue) {
  auto* ip = rte_pktmbuf_mtod_offset(f.mbuf, wire::Ipv4Hdr*, f.l3_offset);
  if (ip->ecn() == wire::Ecn::NotEct || ip->ecn() == wire::Ecn::Ce) return;
  wire::set_ecn_in_place(*ip, wire::Ecn::Ce);
  QueueCounters& q = counters_.ports[port].queues[queue];
  ++q.ecn_marked_packets;
  const auto* bth = reinterpret_cast<const uint8_t*>(ip) + ip->header_bytes() + sizeof(wire::UdpHdr);
  if (wire::opcode_info(*bth).payload) ++q.data_ecn_marked_packets;  // IBTA Vol. 1 Table 38
}

void Switch::release(const QueuedFrame& f, uint16_t port, uint8_t queue, Time now) {
  mmu_.release(f.in_port, f.pg, port, queue, f.bytes);
  if (lossless(f.in_port, f.tc)) {
    // Only a PG in XOFF can resume: the XON test (a dynamic limit) is skipped for the rest.
    PfcGenerator& g = pfc_gen_[qid(f.in_port, f.pg)];
    if (g.pausing()) pfc_act(f.in_port, f.pg, g.on_release(mmu_.xon_reached(f.in_port, f.pg)), now);
  }
}

// Kept per port (egress_at_) and renewed by everything that changes one of its inputs:
// the port's backlog (enqueue; transmit and flush_queue, which pop), its wire (transmit,
// send_pfc), its shaper (transmit) and the pauses it received (pfc_received,
// storm_detected). So a poll visits only the ports that may send, and next_deadline()
// reads one value per port instead of each backlogged port's wire and pauses.
void Switch::note_egress(uint16_t port) {
  const Time before = egress_at_[port];
  const Time t = backlog_[port] != 0 ? egress_ready_at(port) : Time::never();
  egress_at_[port] = t;
  if (t < egress_earliest_) {
    egress_earliest_ = t;
  } else if (t > before && before == egress_earliest_) {
    egress_stale_ = true;  // the earliest may have moved later: a bound until the next scan
  }
}

// A frame joined queue q of the port. Only a queue that was empty adds a term to
// egress_ready_at(), and a new term can only lower it: no other port's time moves.
void Switch::note_backlogged(uint16_t port, uint8_t queue) {
  const auto bit = static_cast<uint8_t>(1u << queue);
  if ((backlog_[port] & bit) != 0) return;
  backlog_[port] |= bit;
  const runtime::WireLink& tx = *links_[port].tx;
  const Time t = std::max(std::max(tx.free_at(), shaper_next_[port]), tx.paused_until(queue));
  if (t < egress_at_[port]) egress_at_[port] = t;
  if (t < egress_earliest_) egress_earliest_ = t;
  RTB_DEBUG_ASSERT(egress_at_[port] == egress_ready_at(port));
}

Time Switch::egress_ready_at(uint16_t port) const {
  const runtime::WireLink& tx = *links_[port].tx;
  const Time base = std::max(tx.free_at(), shaper_next_[port]);
  Time best = Time::never();
  for (uint8_t b = backlog_[port]; b != 0; b &= static_cast<uint8_t>(b - 1)) {
    best = std::min(best, std::max(base, tx.paused_until(static_cast<uint8_t>(__builtin_ctz(b)))));
  }
  return best;
}

// --- counters and end of run -------------------------------------------------------

SwitchCounters Switch::counters(Time now) const {
  SwitchCounters c = counters_;
  const uint64_t cell = mmu_.layout().cell_bytes;
  for (uint16_t p = 0; p < nports_; ++p) {
    PortCounters& pc = c.ports[p];
    for (uint8_t i = 0; i < kPriorities; ++i) {
      pc.queues[i].depth_bytes = queues_.bytes(qid(p, i));
      pc.queues[i].depth_frames = queues_.frames(qid(p, i));
      pc.queues[i].watermark_bytes = queues_.watermark_bytes(qid(p, i));
      const PgUsage& u = mmu_.pg_usage(p, i);
      const uint64_t reserved = cells_for(config_.pg[i].size.count(), cell);
      pc.pgs[i].shared_bytes = (u.used_cells > reserved ? u.used_cells - reserved : 0) * cell;
      pc.pgs[i].headroom_bytes = u.headroom_cells * cell;
      pc.pgs[i].shared_watermark_bytes = u.shared_watermark_cells * cell;
      pc.pgs[i].headroom_watermark_bytes = u.headroom_watermark_cells * cell;
      pc.pfcwd[i].in_storm = watchdogs_[qid(p, i)].storm();
      const PauseMeter& m = pause_meters_[qid(p, i)];
      pc.pfc_rx_pause_duration[i] = m.total + (std::min(m.until, now) > m.start ? std::min(m.until, now) - m.start : Time::zero());
    }
  }
  const PoolUsage& pool = mmu_.pool();
  c.pool = {pool_used_bytes(), pool.watermark_cells * cell, pool.headroom_cells * cell,
            pool.headroom_watermark_cells * cell};
  const PoolUsage& lossy = mmu_.lossy_pool();
  c.lossy_pool = {lossy.used_cells * cell, lossy.watermark_cells * cell, 0, 0};
  return c;
}

QueueGauge Switch::queue_gauge(uint16_t port, uint8_t queue) const {
  const PortCounters& pc = counters_.ports[port];
  const QueueCounters& q = pc.queues[queue];
  return {queue_bytes(port, queue), q.ecn_marked_packets, q.dropped_packets, pc.pfc_tx[queue]};
}

uint32_t Switch::drain() {
  uint32_t n = 0;
  for (uint16_t p = 0; p < nports_; ++p) {
    for (uint8_t q = 0; q < kPriorities; ++q) {
      while (!queues_.empty(qid(p, q))) {
        const QueuedFrame f = queues_.pop(qid(p, q));
        mmu_.release(f.in_port, f.pg, p, q, f.bytes);
        rte_pktmbuf_free(f.mbuf);
        ++n;
      }
    }
    backlog_[p] = 0;
    egress_at_[p] = Time::never();
  }
  egress_earliest_ = Time::never();
  egress_stale_ = false;
  return n;
}

}  // namespace rtb::sw
