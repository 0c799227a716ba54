// The host stage: a RoCE NIC with one or more ports and its RC queue pairs (design.md,
// "The pipeline", host). Each poll reads like the NIC's pipeline:
//
//   receive   parse every arrived frame: data -> responder (PSN, ACK/NAK) and notification
//             point (CE -> CNP); ACK/NAK -> requester; CNP -> reaction point after the
//             reaction delay; PFC -> pause that priority on the port's sending end
//   timers    congestion-control timers, retransmission timeouts, pacing releases, and
//             control frames whose NIC latency has elapsed
//   storm     a configured PFC storm's next XOFF frames (a faulty NIC)
//   transmit  per port, while the wire is free: ready control frames (ACK, NAK, CNP)
//             first, then the arbiter's choice of data: priorities by policy (strict or
//             DWRR), round robin among the ready queue pairs of a priority; a paused
//             priority sends nothing and its queue pairs gather no pacing credit
//
// A queue pair's congestion-control algorithm (any registered algorithm or plug-in,
// through cc::Controller) sets its rate and optional window; the pacer spaces the QP's
// frames by their wire occupancy at that rate (cc::Pacer, a Carousel timing wheel).
#pragma once

#include <memory>
#include <vector>

#include "cc_algos/controller.h"
#include "cc_algos/flow_table.h"
#include "cc_algos/np/notification_point.h"
#include "cc_algos/pacer/pacer.h"
#include "core/error.h"
#include "core/huge_page_allocator.h"
#include "core/indexed_heap.h"
#include "host/host_config.h"
#include "host/host_counters.h"
#include "host/int_feedback.h"
#include "host/queue_pair.h"
#include "runtime/pool/mbuf_pool.h"
#include "runtime/stage.h"
#include "runtime/wire_link.h"
#include "wire/parse_error.h"
#include "wire/parser.h"

namespace rtb::host {

struct PortLinks {
  runtime::WireLink* tx = nullptr;  // this port's sending direction
  runtime::WireLink* rx = nullptr;  // the direction it receives from
};

// The pools' OnEmpty rule decides what an empty pool does (lib/host/README.md): in
// realtime the host counts it (HostCounters::tx_nombuf_*) and goes on.
struct HostPools {
  runtime::MbufPool* data = nullptr;     // payload pattern written once
  runtime::MbufPool* control = nullptr;  // ACK, NAK, CNP, storm PFC
};

class Host final : public runtime::Stage {
 public:
  // `max_qps` sizes every per-QP table once; add_qp() beyond it is an error.
  static Expected<std::unique_ptr<Host>> create(const HostConfig& config,
                                                std::vector<PortLinks> ports,
                                                const cc::Controller& cc, HostPools pools,
                                                uint32_t max_qps);

  // Returns the new QP's index (its QPN is config.first_qpn + index).
  Expected<uint32_t> add_qp(const QpSpec& spec);
  // A message of `bytes` (at most Requester::kMaxMessageBytes) on QP `qp`, not sent
  // before `start`; in start order per QP.
  void post(uint32_t qp, uint64_t bytes, Time start);

  ~Host() override;
  void poll(Time now) override;
  Time next_deadline() const override;

  uint32_t qpn(uint32_t qp) const { return config_.first_qpn + qp; }
  uint32_t qp_count() const { return static_cast<uint32_t>(qps_.size()); }
  const QueuePair& qp(uint32_t i) const { return qps_[i]; }
  const HostCounters& counters() const { return counters_; }
  const wire::ParseCounters& parse_counters() const { return parse_counters_; }
  const cc::Controller& controller() const { return cc_; }
  // The algorithm's per-flow state of QP `qp` (typed debug state for results).
  const void* cc_state(uint32_t qp) const { return flows_.state(qp); }

 private:
  enum TimerKind : uint32_t { kCcTimer = 0, kRto = 1, kStart = 2, kTimerKinds = 3 };
  struct Port;
  Host(const HostConfig& config, std::vector<PortLinks> links, const cc::Controller& cc,
       HostPools pools, cc::FlowTable flows, cc::Pacer pacer, uint32_t max_qps);

  // receive (host_rx.cc)
  bool arrived_by(Time now) const;  // a frame waits on some port (host.cc)
  void receive(Time now);
  void on_frame(const uint8_t* data, const wire::ParsedFrame& f, uint32_t port, Time now);
  void on_data(QueuePair& qp, const uint8_t* data, const wire::ParsedFrame& f, Time now);
  void on_ack(QueuePair& qp, const uint8_t* data, const wire::ParsedFrame& f, Time now);
  // The end of an INT frame's trailer (parse options' trailer size past its start).
  const uint8_t* int_end(const uint8_t* data, const wire::ParsedFrame& f) const {
    return data + f.int_trailer_offset + parse_options_.int_trailer_bytes;
  }
  void on_pfc(const wire::ParsedFrame& f, uint32_t port, Time now);
  QueuePair* lookup(uint32_t dest_qpn);
  Status use_int(const QpSpec& spec, uint32_t index);
  // timers and the rate limiter (host.cc)
  void fire_timers(Time now);
  Time pacer_deadline() const;
  void catch_up_pacer(Time now);
  void to_rings(size_t released);
  void on_cnp_reaction(QueuePair& qp, Time now);
  // `hook` names the algorithm's hook that decided d, for a contract breach.
  void apply(QueuePair& qp, const cc::Decision& d, Time now, const char* hook);
  void refresh(QueuePair& qp, Time now);
  // The ACK timer's expiry: retried (local_ack_timeout_err) or the QP failed.
  void count_timeout(QueuePair& qp, Time now);
  void arm_rto(const QueuePair& qp);
  // transmit (host_tx.cc)
  void transmit(Time now);
  bool send_control(Port& port, Time now);
  void storm(Time now);
  bool send_data(Port& port, Time now);
  bool send_frame(QueuePair& qp, Port& port, Time now);
  void prefetch_ahead(const Fifo<uint32_t>& ring) const;
  void prefetch_records(uint32_t qp_index) const;
  void prefetch_qp(uint32_t qp_index) const;
  Time port_ready_at(const Port& port) const;
  void pacer_moved() { pacer_moved_ = true; }

  HostConfig config_;
  const cc::Controller& cc_;
  bool acks_to_cc_;  // the algorithm asked for ACK, RTT or INT feedback: on_ack per ACK
  HostPools pools_;
  cc::FlowTable flows_;
  cc::NotificationPoint np_;
  cc::Pacer pacer_;
  std::vector<cc::FlowIndex> released_;  // the pacer's output, sized once
  // The pacer's next_deadline() as of the end of the last poll, recomputed only when a
  // poll changed the pacer (pacer_moved()): most polls (an ACK in, a frame to forward)
  // leave it as it was, and the wheel's bitmap search is the costly part of a deadline.
  Time pacer_next_ = Time::never();
  Time pacer_polled_;  // when the pacer was last polled (its cursor is there)
  bool pacer_moved_ = false;
  std::vector<std::unique_ptr<Port>> ports_;
  // The queue pairs side by side, on huge pages when they fill 2 MiB or more (a million
  // QPs take a gigabyte: 4 KiB pages would make nearly every QP a send touches a TLB
  // miss). Reserved for max_qps_ at creation, so a QP never moves.
  std::vector<QueuePair, HugePageAllocator<QueuePair>> qps_;
  // Where each QP waits for the arbiter, apart from the QP: the pacer releases flows that
  // are served many frames later, and filing one in its ring then touches these 4 bytes,
  // not the QP's cache lines.
  struct RingPlace {
    uint8_t port = 0;
    uint8_t priority = 0;
    bool in_ring = false;  // released by the pacer, waiting in its port's arbiter ring
  };
  std::vector<RingPlace> ring_place_;
  uint32_t max_qps_;
  IndexedMinHeap timers_;
  ControlQueue delayed_acks_;       // waiting for the ACK turnaround
  ControlQueue delayed_cnps_;       // waiting for the CNP generation delay
  ReactionQueue delayed_reactions_; // CNPs waiting for the reaction delay
  IntFeedback int_;                 // HPCC INT echo and hops (only when asked for)
  Time next_storm_ = Time::never();
  wire::ParseOptions parse_options_;
  wire::ParsedFrame parsed_;  // the frame receive() parsed last (parse_frame resets it)
  wire::ParseCounters parse_counters_;
  HostCounters counters_;
};

}  // namespace rtb::host
