// One frame of every kind rocetb builds, with what was built: the reference set that
// `rocetb frames` writes and dissects, and that the tshark/scapy integration test checks
// field by field. RC SEND and RDMA WRITE first/middle/last/only (untagged and 802.1Q
// tagged, assorted payloads and ECN codepoints, PSNs across the 24-bit wrap), ACK, NAKs,
// RNR NAK, CNP, PFC XOFF and XON.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "wire/flow_template.h"

namespace rtb::wire {

struct SampleFrame {
  std::string kind;            // "write_first", "cnp", "pfc_xoff", ...
  std::vector<uint8_t> bytes;  // the frame, without FCS
  nlohmann::json built;        // the fields it was built with (kind, opcode, qpn, psn, ...)
};

std::vector<SampleFrame> sample_frames();

// The flow of the samples and of captures/README.md §3: requester 02:00:00:00:00:01 /
// 192.0.2.1 / QPN 0x456 to responder 02:00:00:00:00:02 / 192.0.2.2 / QPN 0x123, DSCP 26,
// path MTU 1024; tagged: 802.1Q PCP 3, VID 10.
FlowSpec sample_requester_spec(bool tagged = false);
// The same flow seen from the other end (MACs, IPs and QPNs swapped).
FlowSpec reversed(FlowSpec s);

}  // namespace rtb::wire
