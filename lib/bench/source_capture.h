// A capture for a preloaded source (net_pcap with infinite_rx): `frames` RDMA WRITE MIDDLE
// frames of `payload` bytes of one flow (wire/frame_samples.h: 192.0.2.1 -> 192.0.2.2,
// DSCP 26, ECT(0)), consecutive PSNs, valid ICRCs, written as a pcap with libpcap.
#pragma once

#include <cstdint>
#include <string>

#include "core/error.h"

namespace rtb::bench {

// Returns the frame length (bytes without FCS).
Expected<uint32_t> write_source_capture(const std::string& path, uint32_t frames, uint32_t payload);

}  // namespace rtb::bench
