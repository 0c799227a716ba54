// Path MTUs and frame-size arithmetic (lib/wire/README.md).
//
// A RoCEv2 data frame on Ethernet (bytes, without FCS):
//   L2 14 (+4 if 802.1Q tagged) + IPv4 20 + UDP 8 + BTH 12 + extended headers
//   + payload (<= path MTU) + pad (0..3, to a multiple of 4) + ICRC 4 [+ INT trailer]
// The IBTA path MTU counts payload bytes only, so a full RDMA WRITE Middle at path
// MTU 1024 is 1082 bytes (1086 with FCS, 1106 on the wire with preamble and gap).
#pragma once

#include <cstdint>

namespace rtb::wire {

inline constexpr uint32_t kL2Bytes = 14;
inline constexpr uint32_t kVlanBytes = 4;
inline constexpr uint32_t kIpv4Bytes = 20;
inline constexpr uint32_t kUdpBytes = 8;
inline constexpr uint32_t kBthBytes = 12;
inline constexpr uint32_t kIcrcSize = 4;
inline constexpr uint32_t kMaxExtBytes = 28;  // largest extended-header block (AtomicETH)

inline constexpr uint32_t kDefaultPathMtu = 1024;
inline constexpr uint32_t kMinPathMtu = 256;
inline constexpr uint32_t kMaxPathMtu = 4096;

// IBTA path MTUs: 256, 512, 1024, 2048, 4096.
constexpr bool path_mtu_valid(uint32_t mtu) {
  return mtu >= kMinPathMtu && mtu <= kMaxPathMtu && (mtu & (mtu - 1)) == 0;
}

// The smallest IBTA path MTU that holds `payload` bytes (at most kMaxPathMtu).
constexpr uint32_t path_mtu_for(uint32_t payload) {
  uint32_t mtu = kMinPathMtu;
  while (mtu < payload && mtu < kMaxPathMtu) mtu *= 2;
  return mtu;
}

// Headers a builder writes in front of the payload, at most: tagged L2, IPv4, UDP, BTH,
// RETH + ImmDt. Buffers keep this much room in front of the payload.
inline constexpr uint32_t kMaxHeaderBytes = 80;
static_assert(kMaxHeaderBytes >= kL2Bytes + kVlanBytes + kIpv4Bytes + kUdpBytes + kBthBytes +
                                     16 + 4);
// Room a buffer must keep after the payload: pad, ICRC, and zero fill up to the 60-byte
// minimum frame (plus the INT trailer, if the flow reserves one).
inline constexpr uint32_t kTailBytes = 64;

constexpr uint32_t pad_bytes(uint32_t payload) { return (4 - payload % 4) % 4; }

// IPv4 total length of a RoCEv2 packet.
constexpr uint32_t roce_ip_length(uint32_t ext_bytes, uint32_t payload, uint32_t trailer = 0) {
  return kIpv4Bytes + kUdpBytes + kBthBytes + ext_bytes + payload + pad_bytes(payload) +
         kIcrcSize + trailer;
}

// Ethernet frame length without FCS (no minimum-size padding applied).
constexpr uint32_t roce_frame_length(bool tagged, uint32_t ext_bytes, uint32_t payload,
                                     uint32_t trailer = 0) {
  return kL2Bytes + (tagged ? kVlanBytes : 0) + roce_ip_length(ext_bytes, payload, trailer);
}

// The IP MTU a port needs for full frames at `path_mtu` (RETH + ImmDt, the worst case).
constexpr uint32_t required_ip_mtu(uint32_t path_mtu, uint32_t trailer = 0) {
  return roce_ip_length(16 + 4, path_mtu, trailer);
}

}  // namespace rtb::wire
