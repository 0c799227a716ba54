// The software switch: one stage with N ports (design.md "The pipeline", switch). Each
// port is one end of a cable: a wire link it receives from and one it sends on.
//
//   poll(now):
//     receive   every port's arrivals: classify, PFC in, route (ECMP), MMU admission,
//               WRED at enqueue, egress queue, XOFF when a PG crosses its XOFF point
//     pfc       XOFF refreshes due, XON for PGs that drained meanwhile
//     watchdog  PFC watchdog polls: storm detection, actions, restoration
//     transmit  every free port: strict/DWRR pick among un-paused queues, WRED/ECN at
//               dequeue, HPCC INT record (int_push.h), MMU release (XON on drain), send
//
// Frames live in mbufs throughout; queues are fixed arrays sized from the buffer; the
// only frames the switch makes are PFC frames, from `control_pool`. An empty pool follows
// the pool's OnEmpty rule: fatal in virtual time; in realtime the frame is not sent and
// SwitchCounters::pfc_nombuf counts it (lib/switch/README.md says why that is safe).
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <vector>

#include "core/error.h"
#include "core/rng.h"
#include "runtime/pool/mbuf_pool.h"
#include "runtime/stage.h"
#include "runtime/wire_link.h"
#include "switch/classify.h"
#include "switch/config.h"
#include "switch/counters.h"
#include "switch/egress_scheduler.h"
#include "switch/int_push.h"
#include "switch/mmu.h"
#include "switch/pfc_generator.h"
#include "switch/pfc_watchdog.h"
#include "switch/queue_store.h"
#include "switch/route_table.h"
#include "switch/aqm/aqm.h"

namespace rtb::sw {

struct PortLinks {
  runtime::WireLink* rx = nullptr;  // frames arriving at this port
  runtime::WireLink* tx = nullptr;  // frames this port sends
};

class Switch final : public runtime::Stage {
 public:
  // Validates `config` first: an invalid one is an Error carrying the report. `links[i]`
  // belongs to config.ports[i]; `seed` seeds the WRED generator (one per stage).
  static Expected<std::unique_ptr<Switch>> make(SwitchConfig config, std::vector<PortLinks> links,
                                                runtime::MbufPool* control_pool, uint64_t seed);
  ~Switch() override;

  void poll(Time now) override;
  Time next_deadline() const override;

  const SwitchConfig& config() const { return config_; }
  // Counters with the current queue depths, buffer use and pause durations up to `now`.
  SwitchCounters counters(Time now) const;
  QueueGauge queue_gauge(uint16_t port, uint8_t queue) const;
  uint64_t pool_used_bytes() const { return mmu_.pool().used_cells * mmu_.layout().cell_bytes; }
  const Mmu& mmu() const { return mmu_; }
  uint64_t queue_bytes(uint16_t port, uint8_t queue) const { return queues_.bytes(qid(port, queue)); }
  // Frees every queued frame (end of a run); returns how many.
  uint32_t drain();

 private:
  Switch(SwitchConfig config, std::vector<PortLinks> links, runtime::MbufPool* control_pool,
         uint64_t seed);

  struct PauseMeter {  // received-pause time of one (port, priority)
    Time total, start, until;
  };
  static uint32_t qid(uint16_t port, uint8_t queue) { return uint32_t{port} * kPriorities + queue; }
  bool lossless(uint16_t port, uint8_t prio) const { return (pfc_enable_[port] >> prio) & 1u; }
  QueuedFrame pop_queue(uint16_t port, uint8_t queue);

  // switch.cc: the datapath
  void receive(Time now);
  void receive_port(uint16_t port, Time now);
  void ingress(uint16_t port, rte_mbuf* m, Time now);
  bool enqueue(uint16_t port, rte_mbuf* m, const FrameInfo& info, Time now);
  void transmit_due(Time now);
  void transmit(uint16_t port, Time now);
  int pick_queue(uint16_t port, Time now);
  void mark_at_dequeue(const QueuedFrame& f, uint64_t depth, uint16_t port, uint8_t queue, Time now);
  void mark_ce(const QueuedFrame& f, uint16_t port, uint8_t queue);
  void push_int(const QueuedFrame& f, uint16_t port, Time now);
  void release(const QueuedFrame& f, uint16_t port, uint8_t queue, Time now);
  void drop(rte_mbuf* m, uint16_t in_port, DropReason reason);
  void drop_at_queue(rte_mbuf* m, uint32_t bytes, uint16_t out_port, uint8_t queue,
                     DropReason reason);
  Time egress_ready_at(uint16_t port) const;
  void note_egress(uint16_t port);
  void note_backlogged(uint16_t port, uint8_t queue);

  // switch_pfc.cc: PFC in and out, the watchdog
  void pfc_received(uint16_t port, const FrameInfo& info, Time now);
  void send_pfc(uint16_t port, uint8_t pg, bool xoff, Time now);
  void pfc_act(uint16_t port, uint8_t pg, PfcAction action, Time now);
  void pfc_timers(Time now);
  Time next_pfc_refresh() const;
  void watchdog(Time now);
  void storm_detected(uint16_t port, uint8_t prio, Time now);
  void flush_queue(uint16_t port, uint8_t queue, Time now);
  bool wd_blocks(uint16_t port, uint8_t prio) const;
  bool wd_active() const;

  SwitchConfig config_;
  std::vector<PortLinks> links_;
  uint16_t nports_;  // links_.size(), as a count the per-port loops need not re-read
  runtime::MbufPool* control_pool_;
  Rng rng_;
  RouteTable routes_;
  Mmu mmu_;
  QueueStore queues_;
  std::vector<Aqm> aqm_;                  // per (port, queue)
  std::vector<EgressScheduler> schedulers_;
  std::vector<PfcGenerator> pfc_gen_;     // per (port, pg)
  std::vector<PfcWatchdog> watchdogs_;    // per (port, priority)
  std::vector<PauseMeter> pause_meters_;  // per (port, priority)
  std::vector<uint8_t> backlog_;          // per egress port, bit q: queue q holds frames
  std::vector<SerialClock> shaper_clock_;
  std::vector<Time> shaper_next_;
  std::vector<Time> egress_at_;           // per port: egress_ready_at(), never without a backlog
  std::vector<Time> rx_next_;             // per port: its input link's next arrival, kept there
  // The earliest of egress_at_ and of rx_next_, so that a poll scans the ports only when
  // one of them is due and next_deadline() scans none. rx_earliest_ is lowered by the
  // links and found again by each receive scan; egress_earliest_ is lowered by
  // note_egress(), and when a port's time that may have been the earliest moves later it
  // only bounds it from below (egress_stale_) until the transmit scan of the same poll
  // finds it again.
  Time rx_earliest_ = Time::never();
  Time egress_earliest_ = Time::never();
  bool egress_stale_ = false;
  std::vector<uint8_t> int_rate_code_;    // per port: its line rate as an INT record code
  std::vector<const QosMaps*> maps_;      // per ingress port: its maps (config_'s)
  std::vector<uint8_t> pfc_enable_;       // per port: PORT_QOS_MAP pfc_enable bits
  std::vector<uint8_t> pg_vector_;        // per (port, pg): PFC class-enable bits of a lossless PG
  uint32_t pausing_ = 0;               // PGs in XOFF
  std::vector<uint8_t> pausing_pgs_;   // per ingress port, bit pg: that PG is in XOFF
  Time pfc_refresh_due_ = Time::never();  // next_pfc_refresh(), kept as XOFF and XON change it
  Time next_wd_poll_ = Time::never();
  SwitchCounters counters_;
};

}  // namespace rtb::sw
