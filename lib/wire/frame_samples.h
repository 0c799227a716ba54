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

namespace rtb::wire {

struct SampleFrame {
  std::string kind;            // "write_first", "cnp", "pfc_xoff", ...
  std::vector<uint8_t> bytes;  // the frame, without FCS
  nlohmann::json built;        // the fields it was built with (kind, opcode, qpn, psn, ...)
};

std::vector<SampleFrame> sample_frames();

}  // namespace rtb::wire
