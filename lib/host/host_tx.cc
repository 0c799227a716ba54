// The transmit half of the host's pipeline: control frames first, then the arbiter.
#include <rte_mbuf.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>

#include "host/host.h"
#include "host/host_port.h"
#include "runtime/pool/mbuf_pool_meta.h"
#include "wire/mbuf_frame.h"
#include "wire/pfc.h"

namespace rtb::host {
namespace {

// Fixed remote buffer of every RDMA WRITE (the responder does not model memory).
constexpr uint64_t kRemoteBase = 0x7f00'0000'0000ULL;
constexpr uint32_t kRemoteKey = 0x00ab'cdef;

// A builder refusing a frame is an internal error: templates and sizes were checked
// when the QPs were added and the pools sized.
void built(bool ok, const char* what) {
  if (!ok) {
    std::fprintf(stderr, "rocetb: internal error: the wire layer refused a %s frame\n", what);
    std::abort();
  }
}

}  // namespace

void Host::transmit(Time now) {
  for (auto& port : ports_) {
    while (port->links.tx->can_send(now)) {
      if (port->control.mask != 0 && send_control(*port, now)) continue;
      if (!send_data(*port, now)) break;
    }
  }
}

// ACK, NAK and CNP frames ready for the wire, highest priority first.
bool Host::send_control(Port& port, Time now) {
  for (uint8_t ready = port.control.mask; ready != 0;) {
    const auto p = static_cast<uint8_t>(31 - __builtin_clz(ready));
    ready &= static_cast<uint8_t>(~(1u << p));
    if (!port.links.tx->may_start(p, now)) continue;
    rte_mbuf* m = pools_.control->alloc();
    if (m == nullptr) {  // realtime: the frame stays first in its queue for the next poll
      ++counters_.tx_nombuf_control;
      return false;
    }
    const ControlItem item = port.control.pop(p);
    const QueuePair& qp = qps_[item.qp];
    if (item.kind == ControlItem::Kind::kCnp) {
      built(wire::build_cnp_mbuf(qp.cnp_tpl, wire::CnpFields{}, m), "CNP");
    } else {
      const uint8_t syndrome = item.kind == ControlItem::Kind::kAck
                                   ? wire::aeth_ack(wire::kCreditInvalid)
                                   : wire::aeth_nak(wire::NakCode::PsnSequenceError);
      const wire::AckFields ack{item.psn, syndrome, item.msn, wire::Ecn::Ect0, item.becn};
      built(wire::build_ack_mbuf(qp.data_tpl, ack, m), "ACK");
      if (const uint16_t trailer = qp.spec.int_trailer_bytes; trailer != 0) {  // HPCC echo
        uint8_t* ip = rte_pktmbuf_mtod(m, uint8_t*) + qp.data_tpl.l2_bytes();
        int_.echo(qp.index, ip + wire::load_be16(ip + 2), trailer);
      }
    }
    runtime::FrameMeta& meta = runtime::frame_meta(m);
    meta.flow_id = qp.index;
    meta.priority = p;
    meta.flags = runtime::kFrameControl;
    meta.set_sent_time(now);
    port.links.tx->send(now, m);
    ++counters_.tx_frames;
    return true;
  }
  return false;
}

// The arbiter: the next priority by policy among those not paused and with ready QPs,
// then the QP at the head of that priority's round-robin ring.
bool Host::send_data(Port& port, Time now) {
  runtime::WireLink& tx = *port.links.tx;
  for (int attempt = 0; attempt < 8 * 2; ++attempt) {
    int chosen = -1;
    if (port.config.policy == PriorityPolicy::kStrict) {
      for (uint8_t ready = port.ring.mask; ready != 0 && chosen < 0;) {
        const int p = 31 - __builtin_clz(ready);
        ready &= static_cast<uint8_t>(~(1u << p));
        if (tx.may_start(static_cast<uint8_t>(p), now)) chosen = p;
      }
    } else {
      // Deficit round robin: a priority keeps the wire while its deficit lasts, then
      // earns its quantum and passes the turn on.
      for (int i = 0; i < 8 && chosen < 0; ++i) {
        const uint8_t p = port.dwrr_current;
        if (port.ring.empty(p) || !tx.may_start(p, now)) {
          port.deficit[p] = 0;
          port.dwrr_current = (p + 1) % 8;
        } else if (port.deficit[p] <= 0) {
          port.deficit[p] += port.config.dwrr_quantum_bytes[p];
          port.dwrr_current = (p + 1) % 8;
        } else {
          chosen = p;
        }
      }
      if (chosen < 0) {  // every ready priority just earned its quantum: go again
        for (int i = 0; i < 8 && chosen < 0; ++i) {
          const uint8_t p = (port.dwrr_current + i) % 8;
          if (!port.ring.empty(p) && tx.may_start(p, now) && port.deficit[p] > 0) chosen = p;
        }
      }
    }
    if (chosen < 0) return false;
    QueuePair& qp = qps_[port.ring.pop(static_cast<uint8_t>(chosen))];
    prefetch_ahead(port.ring.fifo[chosen]);
    ring_place_[qp.index].in_ring = false;
    if (!qp.requester.has_frame(now) ||
        (qp.window && qp.requester.outstanding_bytes() >= qp.window->count())) {
      refresh(qp, now);  // no longer ready (failed, or the window closed)
      continue;
    }
    const uint64_t before = tx.counters().bytes;
    if (!send_frame(qp, port, now)) {  // realtime, no mbuf: the QP stays ready
      port.ring.push(static_cast<uint8_t>(chosen), qp.index);
      ring_place_[qp.index].in_ring = true;
      return false;
    }
    port.deficit[chosen] -= static_cast<int64_t>(tx.counters().bytes - before);
    return true;
  }
  return false;
}

// The arbiter serves a priority's ready QPs in turn, so the next ones are known a few frames
// ahead. Thousands of QPs' state does not stay in cache, and a miss on each of them costs
// more than building the frame. The loads are spread over the frames, so that no frame
// asks for all of them at once and the last one can read what an earlier one loaded:
// five QPs ahead, the records its index finds outside the QP (its algorithm's state, its
// pacer record, its timers); four ahead, the QP's send fields; one ahead, the record of
// its current message, found through those fields. A frame takes about 100 ns, which is
// not always long enough for a load from memory: fields asked for one frame before they
// are read still stalled it (lib/host/README.md has the measurements).
void Host::prefetch_ahead(const Fifo<uint32_t>& ring) const {
  const uint32_t ready = ring.size();
  if (ready > 4) prefetch_records(ring.at(4));
  if (ready > 3) prefetch_qp(ring.at(3));
  if (ready > 0) qps_[ring.front()].requester.prefetch_next_message();
}

void Host::prefetch_records(uint32_t qp_index) const {
  __builtin_prefetch(flows_.state(qp_index), 1);
  pacer_.prefetch(qp_index);
  timers_.prefetch(qp_index * kTimerKinds);  // the RTO and CC timers a send compares
  timers_.prefetch(qp_index * kTimerKinds + kTimerKinds - 1);
}

// The fields a send touches lead the QueuePair (queue_pair.h), cache-line aligned.
void Host::prefetch_qp(uint32_t qp_index) const {
  const QueuePair& qp = qps_[qp_index];
  const auto* first = reinterpret_cast<const char*>(&qp);
  const auto* end = reinterpret_cast<const char*>(&qp.cnp_tpl);
  for (const char* line = first; line < end; line += 64) __builtin_prefetch(line, 1);
}

// False when the data pool is empty (realtime): nothing was built or sent.
bool Host::send_frame(QueuePair& qp, Port& port, Time now) {
  rte_mbuf* m = pools_.data->alloc();
  if (m == nullptr) {
    ++counters_.tx_nombuf_data;
    return false;
  }
  const FrameDesc d = qp.requester.next_frame(now);
  wire::DataFields f;
  f.opcode = d.opcode;
  f.psn = d.psn;
  f.payload_bytes = d.payload_bytes;
  f.ack_req = d.ack_req;
  f.ecn = wire::Ecn::Ect0;
  f.reth = wire::RethFields{kRemoteBase, kRemoteKey, static_cast<uint32_t>(d.message_bytes)};
  built(wire::build_data_mbuf(qp.data_tpl, f, m), "data");

  runtime::FrameMeta& meta = runtime::frame_meta(m);
  meta.flow_id = qp.index;
  meta.seq = d.psn;
  meta.priority = qp.spec.priority;
  meta.set_sent_time(now);
  port.links.tx->send(now, m);
  ++counters_.tx_frames;
  qp.send_times.record(d.psn, now);  // the frame starts on the wire now

  // The pacer: the next frame may start one wire occupancy at the QP's rate later.
  pacer_.sent(qp.index, runtime::wire_occupancy(m->pkt_len), now, /*still_ready=*/false);
  pacer_moved();
  if (d.retransmission) {
    ++qp.counters.retransmitted_frames;
    qp.counters.retransmitted_bytes += d.payload_bytes;
  } else {
    qp.counters.payload_bytes_sent += d.payload_bytes;
  }
  ++qp.counters.frames_sent;
  arm_rto(qp);
  if (cc_.wants_bytes_sent()) {
    if (auto decision = cc_.on_bytes_sent(flows_.state(qp.index), Bytes(d.payload_bytes), now)) {
      apply(qp, *decision, now, "on_bytes_sent");
      return true;  // apply() refreshed
    }
  }
  refresh(qp, now);
  return true;
}

// A storming NIC: XOFF frames that overtake its data, every interval, on every port.
void Host::storm(Time now) {
  const PfcStorm& s = config_.pfc_storm;
  while (next_storm_ <= now) {
    for (auto& port : ports_) {
      wire::PfcFields f;
      f.src = port->config.mac;
      f.vector = static_cast<uint8_t>(1u << s.priority);
      f.quanta[s.priority] = s.quanta;
      rte_mbuf* m = pools_.control->alloc();
      if (m == nullptr) {  // realtime: this XOFF is lost, the next interval sends one
        ++counters_.tx_nombuf_control;
        continue;
      }
      built(wire::build_pfc_mbuf(f, m), "PFC");
      runtime::frame_meta(m).flags = runtime::kFrameControl;
      port->links.tx->send_control(now, m);
      ++counters_.tx_frames;  // every frame, PFC included, as mlx5's tx_packets_phy
      ++counters_.tx_pfc_frames;
    }
    next_storm_ = next_storm_ + s.interval;
    if (next_storm_ >= s.end) next_storm_ = Time::never();
  }
}

Time Host::port_ready_at(const Port& port) const {
  Time t = Time::never();
  for (uint8_t work = port.work_mask(); work != 0; work &= static_cast<uint8_t>(work - 1)) {
    const auto p = static_cast<uint8_t>(__builtin_ctz(work));
    t = std::min(t, std::max(port.links.tx->free_at(), port.links.tx->paused_until(p)));
  }
  return t;
}

}  // namespace rtb::host
