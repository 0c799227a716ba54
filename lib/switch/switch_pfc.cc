// PFC in and out of the switch (802.1Qbb; reference §3.1) and the PFC watchdog (SONiC
// semantics; reference §3.3).
#include <rte_mbuf.h>

#include <algorithm>

#include "switch/switch.h"
#include "wire/pfc.h"

namespace rtb::sw {
namespace {

// Locally administered, fixed (design.md "Determinism"): 02:52:54:42:<port>.
wire::MacAddr port_mac(uint16_t port) {
  return wire::MacAddr{{0x02, 0x52, 0x54, 0x42, static_cast<uint8_t>(port >> 8), static_cast<uint8_t>(port)}};
}

Time next_grid_point(Time now, Time interval) { return interval * (now / interval + 1); }

}  // namespace

// A received PFC frame pauses this port's egress per priority (the wire link keeps the
// pause: quanta x 512 bit times, a later frame replaces it, 0 resumes), unless the
// watchdog has taken the priority out of PFC (drop and forward actions).
void Switch::pfc_received(uint16_t port, const FrameInfo& info, Time now) {
  runtime::WireLink& tx = *links_[port].tx;
  PortCounters& pc = counters_.ports[port];
  for (uint8_t prio = 0; prio < kPriorities; ++prio) {
    if (((info.pfc_vector >> prio) & 1u) == 0) continue;
    ++pc.pfc_rx[prio];
    const uint16_t quanta = info.pfc_quanta[prio];
    if (config_.pfcwd.enabled && lossless(port, prio)) {
      PfcWatchdog& wd = watchdogs_[qid(port, prio)];
      wd.on_pfc_frame(now, quanta, !tx.may_start(prio, now));
      if (next_wd_poll_ <= now || next_wd_poll_.is_never())
        next_wd_poll_ = next_grid_point(now, config_.pfcwd.poll_interval);
      if (wd.storm() && config_.pfcwd.action != PfcWdConfig::Action::kAlert) {
        ++pc.pfcwd[prio].pfc_ignored;
        continue;
      }
    }
    PauseMeter& m = pause_meters_[qid(port, prio)];
    const Time ended = std::min(m.until, now);
    if (ended > m.start) m.total += ended - m.start;
    tx.apply_pause(prio, quanta, now);
    m.start = now;
    m.until = tx.paused_until(prio);
  }
  note_egress(port);
}

// An empty control pool in realtime loses this frame, counted: a lost XOFF is sent again
// at the generator's next refresh while the PG stays above XON; a lost XON leaves the
// neighbour paused until the last XOFF's quanta run out (lib/switch/README.md).
void Switch::send_pfc(uint16_t port, uint8_t pg, bool xoff, Time now) {
  rte_mbuf* m = control_pool_->alloc();
  if (m == nullptr) {
    ++counters_.pfc_nombuf;
    return;
  }
  wire::PfcFields f;
  f.src = port_mac(port);
  f.vector = pg_vector_[qid(port, pg)];
  for (int p = 0; p < kPriorities; ++p) {
    if ((f.vector >> p) & 1u) f.quanta[p] = xoff ? config_.pfc.pause_quanta : 0;
  }
  auto* data = reinterpret_cast<uint8_t*>(rte_pktmbuf_append(m, wire::kPfcFrameBytes));
  wire::build_pfc(f, data);
  links_[port].tx->send_control(now, m);
  note_egress(port);
  for (int p = 0; p < kPriorities; ++p) {
    if ((f.vector >> p) & 1u) ++counters_.ports[port].pfc_tx[p];
  }
}

void Switch::pfc_act(uint16_t port, uint8_t pg, PfcAction action, Time now) {
  switch (action) {
    case PfcAction::kNone:
      return;
    case PfcAction::kXoff:
      send_pfc(port, pg, true, now);
      return;
    case PfcAction::kXon:
      --pausing_;
      pausing_pgs_[port] &= static_cast<uint8_t>(~(1u << pg));
      pfc_refresh_due_ = next_pfc_refresh();  // this PG's refresh may have been the earliest
      send_pfc(port, pg, false, now);
      return;
  }
}

// Only PGs in XOFF have a refresh time (every other generator's is never), so only their
// bits are visited, in (port, PG) order as a scan of every generator would act. Called when
// the earliest of those times (pfc_refresh_due_) has come: a switch that pauses for long
// is polled for every frame meanwhile, and visited every port at each poll before.
void Switch::pfc_timers(Time now) {
  for (uint16_t port = 0; port < nports_; ++port) {
    for (uint8_t b = pausing_pgs_[port]; b != 0; b &= static_cast<uint8_t>(b - 1)) {
      const auto pg = static_cast<uint8_t>(__builtin_ctz(b));
      PfcGenerator& g = pfc_gen_[qid(port, pg)];
      if (g.refresh_at() <= now) pfc_act(port, pg, g.on_timer(now, mmu_.xon_reached(port, pg)), now);
    }
  }
  pfc_refresh_due_ = next_pfc_refresh();
}

Time Switch::next_pfc_refresh() const {
  if (pausing_ == 0) return Time::never();
  Time t = Time::never();
  for (uint16_t port = 0; port < nports_; ++port) {
    for (uint8_t b = pausing_pgs_[port]; b != 0; b &= static_cast<uint8_t>(b - 1)) {
      t = std::min(t, pfc_gen_[qid(port, static_cast<uint8_t>(__builtin_ctz(b)))].refresh_at());
    }
  }
  return t;
}

// --- the watchdog ------------------------------------------------------------------

bool Switch::wd_blocks(uint16_t port, uint8_t prio) const {
  return config_.pfcwd.enabled && config_.pfcwd.action == PfcWdConfig::Action::kDrop &&
         watchdogs_[qid(port, prio)].storm();
}

bool Switch::wd_active() const {
  if (!config_.pfcwd.enabled) return false;
  return std::any_of(watchdogs_.begin(), watchdogs_.end(), [](const PfcWatchdog& w) { return w.active(); });
}

void Switch::watchdog(Time now) {
  if (!config_.pfcwd.enabled || next_wd_poll_ > now) return;
  next_wd_poll_ = wd_active() ? next_grid_point(now, config_.pfcwd.poll_interval) : Time::never();
  for (uint16_t port = 0; port < nports_; ++port) {
    for (uint8_t prio = 0; prio < kPriorities; ++prio) {
      if (!lossless(port, prio)) continue;
      const bool paused = !links_[port].tx->may_start(prio, now);
      switch (watchdogs_[qid(port, prio)].poll(now, paused)) {
        case WatchdogEvent::kNone: break;
        case WatchdogEvent::kStormDetected: storm_detected(port, prio, now); break;
        case WatchdogEvent::kRestored: ++counters_.ports[port].pfcwd[prio].storms_restored; break;
      }
    }
  }
}

// SONiC actions: drop discards the queue's frames, new frames to it and frames arriving on
// its ingress PG, and ignores PFC; forward ignores PFC; alert only counts.
void Switch::storm_detected(uint16_t port, uint8_t prio, Time now) {
  ++counters_.ports[port].pfcwd[prio].storms_detected;
  if (config_.pfcwd.action == PfcWdConfig::Action::kAlert) return;
  if (config_.pfcwd.action == PfcWdConfig::Action::kDrop) flush_queue(port, prio, now);
  PauseMeter& m = pause_meters_[qid(port, prio)];
  const Time ended = std::min(m.until, now);
  if (ended > m.start) m.total += ended - m.start;
  links_[port].tx->apply_pause(prio, 0, now);
  m.start = m.until = now;
  note_egress(port);
}

void Switch::flush_queue(uint16_t port, uint8_t queue, Time now) {
  const uint32_t id = qid(port, queue);
  while (!queues_.empty(id)) {
    const QueuedFrame f = pop_queue(port, queue);
    release(f, port, queue, now);
    ++counters_.ports[port].pfcwd[queue].tx_dropped;
    drop_at_queue(f.mbuf, f.bytes, port, queue, DropReason::kPfcWatchdog);
  }
  note_egress(port);
}

}  // namespace rtb::sw
