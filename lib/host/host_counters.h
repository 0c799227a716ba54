// Counters of a host, named as mlx5 shows them (`ethtool -S`, /sys/class/infiniband/*/
// ports/*/hw_counters), and of each queue pair.
#pragma once

#include <array>
#include <cstdint>

#include "core/units.h"

namespace rtb::host {

struct HostCounters {
  uint64_t np_cnp_sent = 0;                 // CNPs this NIC sent as notification point
  uint64_t np_ecn_marked_roce_packets = 0;  // CE-marked RoCE data frames received
  uint64_t rp_cnp_handled = 0;              // CNPs the reaction point acted on
  uint64_t rp_cnp_ignored = 0;              // CNPs for QPs whose algorithm ignores them
  uint64_t out_of_sequence = 0;             // data frames dropped for a PSN gap
  uint64_t packet_seq_err = 0;              // NAK "PSN sequence error" received
  // As mlx5 defines them (NVIDIA, "Understanding mlx5 Linux counters"): every expiry of a
  // QP's ACK timer that is retried, and every QP that ran out of retries (error state).
  uint64_t local_ack_timeout_err = 0;            // ACK timer expiries within the retry limit
  uint64_t req_transport_retries_exceeded = 0;   // QPs failed after the retry limit
  uint64_t duplicate_request = 0;
  uint64_t rx_frames = 0;
  uint64_t tx_frames = 0;
  uint64_t rx_parse_errors = 0;  // malformed frames, by reason in parse_counters()
  uint64_t rx_unknown_qp = 0;
  std::array<uint64_t, 8> rx_pfc_frames{};  // per priority with the enable bit set
  uint64_t tx_pfc_frames = 0;               // sent by a PFC storm
  // Allocations that found a pool empty (realtime only: in virtual time an empty pool
  // ends the run). A data frame or an ACK/NAK/CNP is retried on a later poll and counts
  // again; a storm's XOFF is lost.
  uint64_t tx_nombuf_data = 0;     // data pool: the QP stayed ready
  uint64_t tx_nombuf_control = 0;  // control pool: ACK, NAK, CNP waited; storm XOFF lost
};

struct QpCounters {
  uint64_t frames_sent = 0;
  uint64_t payload_bytes_sent = 0;      // first transmissions only
  uint64_t retransmitted_frames = 0;
  uint64_t retransmitted_bytes = 0;
  uint64_t timeouts = 0;
  uint64_t payload_bytes_received = 0;  // accepted in order (the peer's data)
  uint64_t cnp_sent = 0;                // as receiver of this QP's peer data
  uint64_t cnp_handled = 0;             // as sender
  uint64_t cnp_ignored = 0;
  uint64_t ce_received = 0;
  uint64_t becn_sent = 0;       // as receiver: ACKs/NAKs echoing CE-marked data (BTH BECN)
  uint64_t becn_received = 0;   // as sender: ACKs/NAKs that arrived with BECN
  uint64_t rtt_samples = 0;     // as sender: ACKs that gave the algorithm an RTT sample
};

}  // namespace rtb::host
