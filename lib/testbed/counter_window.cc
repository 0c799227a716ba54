#include "testbed/counter_window.h"

namespace rtb::testbed {
namespace {

// A counter added to these structs must be added below too.
static_assert(sizeof(host::HostCounters) == 24 * sizeof(uint64_t));
static_assert(sizeof(host::QpCounters) == 13 * sizeof(uint64_t));
static_assert(sizeof(sw::QueueCounters) == 11 * sizeof(uint64_t));
static_assert(sizeof(sw::PfcWdCounters) == 6 * sizeof(uint64_t));

template <typename T, size_t N>
std::array<T, N> minus(const std::array<T, N>& a, const std::array<T, N>& b) {
  std::array<T, N> out{};
  for (size_t i = 0; i < N; ++i) out[i] = a[i] - b[i];
  return out;
}

sw::QueueCounters since(const sw::QueueCounters& e, const sw::QueueCounters& s) {
  sw::QueueCounters out = e;  // depth and watermark: at the end
  out.packets -= s.packets;
  out.bytes -= s.bytes;
  out.dropped_packets -= s.dropped_packets;
  out.dropped_bytes -= s.dropped_bytes;
  out.ecn_marked_packets -= s.ecn_marked_packets;
  out.data_packets -= s.data_packets;
  out.data_ecn_marked_packets -= s.data_ecn_marked_packets;
  out.wred_dropped_packets -= s.wred_dropped_packets;
  return out;
}

sw::PfcWdCounters since(const sw::PfcWdCounters& e, const sw::PfcWdCounters& s) {
  sw::PfcWdCounters out = e;  // in_storm: at the end
  out.storms_detected -= s.storms_detected;
  out.storms_restored -= s.storms_restored;
  out.tx_dropped -= s.tx_dropped;
  out.rx_dropped -= s.rx_dropped;
  out.pfc_ignored -= s.pfc_ignored;
  return out;
}

}  // namespace

host::HostCounters since(const host::HostCounters& e, const host::HostCounters& s) {
  host::HostCounters out;
  out.np_cnp_sent = e.np_cnp_sent - s.np_cnp_sent;
  out.np_ecn_marked_roce_packets = e.np_ecn_marked_roce_packets - s.np_ecn_marked_roce_packets;
  out.rp_cnp_handled = e.rp_cnp_handled - s.rp_cnp_handled;
  out.rp_cnp_ignored = e.rp_cnp_ignored - s.rp_cnp_ignored;
  out.out_of_sequence = e.out_of_sequence - s.out_of_sequence;
  out.packet_seq_err = e.packet_seq_err - s.packet_seq_err;
  out.local_ack_timeout_err = e.local_ack_timeout_err - s.local_ack_timeout_err;
  out.req_transport_retries_exceeded = e.req_transport_retries_exceeded - s.req_transport_retries_exceeded;
  out.duplicate_request = e.duplicate_request - s.duplicate_request;
  out.rx_frames = e.rx_frames - s.rx_frames;
  out.tx_frames = e.tx_frames - s.tx_frames;
  out.rx_parse_errors = e.rx_parse_errors - s.rx_parse_errors;
  out.rx_unknown_qp = e.rx_unknown_qp - s.rx_unknown_qp;
  out.rx_pfc_frames = minus(e.rx_pfc_frames, s.rx_pfc_frames);
  out.tx_pfc_frames = e.tx_pfc_frames - s.tx_pfc_frames;
  out.tx_nombuf_data = e.tx_nombuf_data - s.tx_nombuf_data;
  out.tx_nombuf_control = e.tx_nombuf_control - s.tx_nombuf_control;
  return out;
}

host::QpCounters since(const host::QpCounters& e, const host::QpCounters& s) {
  host::QpCounters out;
  out.frames_sent = e.frames_sent - s.frames_sent;
  out.payload_bytes_sent = e.payload_bytes_sent - s.payload_bytes_sent;
  out.retransmitted_frames = e.retransmitted_frames - s.retransmitted_frames;
  out.retransmitted_bytes = e.retransmitted_bytes - s.retransmitted_bytes;
  out.timeouts = e.timeouts - s.timeouts;
  out.payload_bytes_received = e.payload_bytes_received - s.payload_bytes_received;
  out.cnp_sent = e.cnp_sent - s.cnp_sent;
  out.cnp_handled = e.cnp_handled - s.cnp_handled;
  out.cnp_ignored = e.cnp_ignored - s.cnp_ignored;
  out.ce_received = e.ce_received - s.ce_received;
  out.becn_sent = e.becn_sent - s.becn_sent;
  out.becn_received = e.becn_received - s.becn_received;
  out.rtt_samples = e.rtt_samples - s.rtt_samples;
  return out;
}

sw::PortCounters since(const sw::PortCounters& e, const sw::PortCounters& s) {
  sw::PortCounters out = e;
  out.rx_ok -= s.rx_ok;
  out.rx_bytes -= s.rx_bytes;
  out.rx_drp -= s.rx_drp;
  out.tx_ok -= s.tx_ok;
  out.tx_bytes -= s.tx_bytes;
  out.tx_drp -= s.tx_drp;
  out.pfc_rx = minus(e.pfc_rx, s.pfc_rx);
  out.pfc_tx = minus(e.pfc_tx, s.pfc_tx);
  out.pfc_rx_pause_duration = minus(e.pfc_rx_pause_duration, s.pfc_rx_pause_duration);
  out.drops = minus(e.drops, s.drops);
  for (size_t q = 0; q < out.queues.size(); ++q) {
    out.queues[q] = since(e.queues[q], s.queues[q]);
    out.pgs[q].dropped_packets = e.pgs[q].dropped_packets - s.pgs[q].dropped_packets;  // gauges: end
    out.pfcwd[q] = since(e.pfcwd[q], s.pfcwd[q]);
  }
  return out;
}

}  // namespace rtb::testbed
