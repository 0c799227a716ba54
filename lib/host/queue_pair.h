// One RC queue pair of a host: both directions of an RC connection (the requester sends
// this host's messages, the responder receives the peer's), the notification-point state
// for the peer's data, and the rate limiter set by the congestion-control algorithm.
#pragma once

#include <cstdint>
#include <optional>

#include "cc_algos/np/notification_point.h"
#include "core/units.h"
#include "host/fifo.h"
#include "host/host_config.h"
#include "host/host_counters.h"
#include "host/requester.h"
#include "host/responder.h"
#include "host/send_times.h"
#include "wire/flow_template.h"

namespace rtb::host {

// The fields a send reads and writes come first, up to cnp_tpl: eleven cache lines that the
// host prefetches before it serves the QP (Host::prefetch_qp); the receive side follows.
struct alignas(64) QueuePair {
  QueuePair(uint32_t index_, uint32_t qpn_, const QpSpec& spec_, wire::FlowTemplate data,
            wire::FlowTemplate cnp, uint32_t send_times_log2)
      : index(index_), qpn(qpn_), spec(spec_), data_tpl(std::move(data)),
        requester(spec_.requester), send_times(send_times_log2), cnp_tpl(std::move(cnp)) {}

  uint32_t index;
  uint32_t qpn;
  QpSpec spec;
  wire::FlowTemplate data_tpl;  // data, ACK and NAK frames to the peer QP
  Requester requester;
  SendTimes send_times;  // RTT samples; empty unless the algorithm asked for RTT

  // Rate limiter: the algorithm sets the rate (applied by the host's pacer) and window.
  bool cc_started = false;
  Rate rate;
  std::optional<Bytes> window;
  QpCounters counters;

  wire::FlowTemplate cnp_tpl;  // CNPs to the peer QP (np_cnp_dscp / np_cnp_prio)
  Responder responder;
  cc::NpQpState np;
};

// An ACK, NAK or CNP waiting for its NIC latency, then for the wire.
struct ControlItem {
  enum class Kind : uint8_t { kAck, kNak, kCnp };
  Time ready;
  uint32_t qp = 0;
  Kind kind = Kind::kAck;
  uint32_t psn = 0;
  uint32_t msn = 0;
  bool becn = false;  // ACK/NAK: the data it answers arrived CE-marked
};
using ControlQueue = Fifo<ControlItem>;

// A CNP waiting for the reaction delay before the algorithm sees it.
struct Reaction {
  Time ready;
  uint32_t qp = 0;
};
using ReactionQueue = Fifo<Reaction>;

}  // namespace rtb::host
