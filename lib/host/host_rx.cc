// The receive half of the host's pipeline: parse, then dispatch by frame class.
#include <rte_mbuf.h>

#include "host/host.h"
#include "host/host_port.h"
#include "wire/opcode.h"

namespace rtb::host {
namespace {

constexpr uint32_t kBurst = 32;

bool is_last(uint8_t opcode) {
  namespace op = wire::op;
  switch (opcode) {
    case op::kSendLast: case op::kSendLastImm: case op::kSendOnly: case op::kSendOnlyImm:
    case op::kWriteLast: case op::kWriteLastImm: case op::kWriteOnly: case op::kWriteOnlyImm:
      return true;
    default:
      return false;
  }
}

}  // namespace

void Host::receive(Time now) {
  rte_mbuf* burst[kBurst];
  wire::ParsedFrame& f = parsed_;
  const auto nports = static_cast<uint32_t>(ports_.size());
  for (uint32_t p = 0; p < nports; ++p) {
    runtime::WireLink& rx = *ports_[p]->links.rx;
    if (rx.next_arrival() > now) continue;
    uint32_t n;
    do {  // a short burst means nothing more has arrived
      n = rx.receive(now, burst, kBurst);
      for (uint32_t i = 0; i < n; ++i) {
        ++counters_.rx_frames;
        const auto* data = rte_pktmbuf_mtod(burst[i], const uint8_t*);
        if (wire::parse_frame(data, rte_pktmbuf_data_len(burst[i]), parse_options_, f,
                              parse_counters_) == wire::ParseError::Ok) {
          on_frame(data, f, p, now);
        } else {
          ++counters_.rx_parse_errors;
        }
        rte_pktmbuf_free(burst[i]);
      }
    } while (n == kBurst);
  }
}

QueuePair* Host::lookup(uint32_t dest_qpn) {
  const uint32_t index = dest_qpn - config_.first_qpn;  // wraps for QPNs below the first
  if (index >= qps_.size()) {
    ++counters_.rx_unknown_qp;
    return nullptr;
  }
  return &qps_[index];
}

void Host::on_frame(const uint8_t* data, const wire::ParsedFrame& f, uint32_t port, Time now) {
  using wire::FrameClass;
  if (f.cls == FrameClass::Pfc) return on_pfc(f, port, now);
  if (f.cls == FrameClass::Other) return;
  QueuePair* qp = lookup(f.dest_qpn);
  if (qp == nullptr) return;
  switch (f.cls) {
    case FrameClass::RoceData:
      return on_data(*qp, data, f, now);
    case FrameClass::Ack:
    case FrameClass::Nak:
      return on_ack(*qp, data, f, now);
    case FrameClass::Cnp:
      delayed_reactions_.push(Reaction{now + config_.timings.reaction_delay, qp->index});
      return;
    default:
      return;
  }
}

// Notification point and responder: CE -> CNP (paced per QP, and only when the peer's
// algorithm asked for CNPs), PSN -> ACK / NAK carrying BECN for CE-marked data.
void Host::on_data(QueuePair& qp, const uint8_t* data, const wire::ParsedFrame& f, Time now) {
  const bool ce = f.ecn == wire::Ecn::Ce;
  if (ce) {
    ++counters_.np_ecn_marked_roce_packets;
    ++qp.counters.ce_received;
  }
  if (qp.spec.send_cnps && np_.on_data_frame(qp.np, ce, now)) {
    ++counters_.np_cnp_sent;
    ++qp.counters.cnp_sent;
    delayed_cnps_.push(ControlItem{now + config_.timings.cnp_generation_delay, qp.index,
                                   ControlItem::Kind::kCnp, 0, 0, false});
  }
  const Response r =
      qp.responder.on_data(f.psn, f.payload_bytes, f.ack_req, is_last(f.opcode), ce);
  if (r.accepted) qp.counters.payload_bytes_received += f.payload_bytes;
  if (r.reply == Response::Kind::kNone) {
    if (!r.accepted) ++counters_.out_of_sequence;
    return;
  }
  if (r.reply == Response::Kind::kNakSeqErr) ++counters_.out_of_sequence;
  if (!r.accepted && r.reply == Response::Kind::kAck) ++counters_.duplicate_request;
  if (r.becn) ++qp.counters.becn_sent;
  if (f.int_trailer_offset != 0 && int_.enabled())  // HPCC: echoed by the ACK or NAK
    int_.keep(qp.index, int_end(data, f), parse_options_.int_trailer_bytes);
  const auto kind = r.reply == Response::Kind::kAck ? ControlItem::Kind::kAck
                                                    : ControlItem::Kind::kNak;
  delayed_acks_.push(ControlItem{now + config_.timings.ack_turnaround, qp.index, kind, r.psn,
                                 r.msn, r.becn});
}

// Requester: cumulative ACK, or NAK -> go back N. The algorithm, if it asked for ACK, RTT
// or INT feedback, sees the bytes newly acknowledged, the BECN echo, and an RTT sample
// when the ACK newly acknowledges the frame it names (send_times.h); a NAK or a duplicate
// ACK names no frame it just acknowledged, so it carries none.
void Host::on_ack(QueuePair& qp, const uint8_t* data, const wire::ParsedFrame& f, Time now) {
  const bool nak = f.cls == wire::FrameClass::Nak;
  const uint32_t una_before = qp.requester.snd_una();
  uint64_t acked = 0;
  if (nak) {
    if (wire::aeth_value(f.aeth_syndrome) ==
        static_cast<uint8_t>(wire::NakCode::PsnSequenceError)) {
      ++counters_.packet_seq_err;
      acked = qp.requester.on_nak_seq_err(f.psn, now);
    }
  } else {
    acked = qp.requester.on_ack(f.psn, now);
  }
  arm_rto(qp);
  if (f.becn) ++qp.counters.becn_received;
  if (qp.cc_started && acks_to_cc_) {
    const bool named_frame_acked = !nak && qp.requester.snd_una() != una_before;
    const Time rtt = named_frame_acked ? qp.send_times.rtt(f.psn, now) : Time::zero();
    if (rtt > Time::zero()) ++qp.counters.rtt_samples;
    const std::span<const rtb_cc_int_hop> hops =
        f.int_trailer_offset != 0 && int_.enabled()
            ? int_.hops(qp.index, int_end(data, f), parse_options_.int_trailer_bytes)
            : std::span<const rtb_cc_int_hop>{};
    const cc::AckEvent ack{Bytes(acked), rtt, f.becn, nak, hops};
    apply(qp, cc_.on_ack(flows_.state(qp.index), ack, now), now, "on_ack");
  }
  refresh(qp, now);
}

// 802.1Qbb: each enabled priority pauses this port's sending end for its quanta.
void Host::on_pfc(const wire::ParsedFrame& f, uint32_t port, Time now) {
  for (uint8_t p = 0; p < 8; ++p) {
    if ((f.pfc_vector & (1u << p)) == 0) continue;
    ++counters_.rx_pfc_frames[p];
    ports_[port]->links.tx->apply_pause(p, f.pfc_quanta[p], now);
  }
}

}  // namespace rtb::host
