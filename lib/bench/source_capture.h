// A capture for a preloaded source (net_pcap with infinite_rx): `frames` RDMA WRITE frames
// of `payload` bytes, Middle when `payload` is a path MTU and Only otherwise
// (wire/frame_samples.h: 192.0.2.1 -> 192.0.2.2, DSCP 26, ECT(0)), valid ICRCs, written as
// a pcap with libpcap. Frame i belongs to QP i mod `qps` (destination QPN kSourceFirstQpn +
// that, source QPN kSourcePeerQpn + that), with that QP's consecutive PSNs from 0; with
// `ack_every` > 0 every ack_every-th frame of a QP asks for an ACK (AckReq), else none does.
#pragma once

#include <cstdint>
#include <string>

#include "core/error.h"

namespace rtb::bench {

inline constexpr uint32_t kSourceFirstQpn = 0x123;  // the sample flow's destination QPN
inline constexpr uint32_t kSourcePeerQpn = 0x456;   // and its source QPN

// Returns the frame length (bytes without FCS).
Expected<uint32_t> write_source_capture(const std::string& path, uint32_t frames, uint32_t payload,
                                        uint32_t qps = 1, uint32_t ack_every = 0);

}  // namespace rtb::bench
