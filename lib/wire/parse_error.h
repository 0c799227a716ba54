// Why a received frame was rejected, and per-reason counters callers accumulate.
#pragma once

#include <array>
#include <cstdint>

namespace rtb::wire {

enum class ParseError : uint8_t {
  Ok = 0,
  TruncatedEthernet,     // shorter than the 14-byte Ethernet header
  TruncatedVlan,         // TPID 0x8100 but no room for the tag
  TruncatedIpv4,         // shorter than 20 bytes, or than the IHL says
  BadIpv4Version,        // version field is not 4
  BadIpv4HeaderLength,   // IHL < 5
  BadIpv4TotalLength,    // total length < header length
  TruncatedIpv4Packet,   // the frame ends before the IPv4 total length
  BadIpv4Checksum,       // RFC 791 header checksum wrong (when checked)
  Ipv4Fragment,          // MF set or fragment offset non-zero on a RoCEv2 packet
  TruncatedUdp,          // no room for the 8-byte UDP header
  BadUdpLength,          // UDP length != IPv4 payload length
  TruncatedBth,          // UDP payload too short for BTH + ICRC
  BadTransportVersion,   // BTH TVer != 0
  UnknownOpcode,         // reserved or unsupported BTH opcode
  TruncatedExtHeader,    // extended headers + ICRC do not fit
  BadPadCount,           // pad count larger than the payload
  UnexpectedPayload,     // payload bytes on an opcode that carries none (ACK, CNP, ...)
  BadIcrc,               // ICRC mismatch (when checked)
  TruncatedIntTrailer,   // the flow's INT trailer does not fit
  TruncatedMacControl,   // EtherType 0x8808 shorter than opcode + vector + 8 quanta
  BadPfcOpcode,          // MAC Control opcode other than 0x0101 (PFC)
  BadPfcDestination,     // PFC not sent to 01:80:C2:00:00:01
  kCount,
};

inline constexpr uint32_t kParseErrorCount = static_cast<uint32_t>(ParseError::kCount);

// A stable snake_case name for logs and counter tables ("ok", "bad_icrc", ...).
const char* parse_error_name(ParseError e);

enum class FrameClass : uint8_t { RoceData, Ack, Nak, Cnp, Pfc, Other, kCount };
inline constexpr uint32_t kFrameClassCount = static_cast<uint32_t>(FrameClass::kCount);
const char* frame_class_name(FrameClass c);

// Counts per reason (index ParseError::Ok counts accepted frames) and, for accepted
// frames, per class. Plain data: one per lcore, summed with += for reports.
struct ParseCounters {
  std::array<uint64_t, kParseErrorCount> by_reason{};
  std::array<uint64_t, kFrameClassCount> by_class{};

  void count(ParseError e) { ++by_reason[static_cast<uint32_t>(e)]; }
  void count(FrameClass c) { ++by_class[static_cast<uint32_t>(c)]; }
  uint64_t operator[](ParseError e) const { return by_reason[static_cast<uint32_t>(e)]; }
  uint64_t operator[](FrameClass c) const { return by_class[static_cast<uint32_t>(c)]; }
  uint64_t rejected() const {
    uint64_t n = 0;
    for (uint32_t i = 1; i < kParseErrorCount; ++i) n += by_reason[i];
    return n;
  }
  ParseCounters& operator+=(const ParseCounters& o) {
    for (uint32_t i = 0; i < kParseErrorCount; ++i) by_reason[i] += o.by_reason[i];
    for (uint32_t i = 0; i < kFrameClassCount; ++i) by_class[i] += o.by_class[i];
    return *this;
  }
};

}  // namespace rtb::wire
