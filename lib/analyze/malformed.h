// Why `rocetb analyze` could not read a captured frame: one reason per rejected frame,
// counted per reason in the results ("malformed" in summary.json).
#pragma once

#include <array>
#include <cstdint>

namespace rtb::analyze {

enum class Malformed : uint8_t {
  kUnsupportedLinkType,  // the file's link type is none of those README.md lists
  kTruncatedLinkHeader,  // shorter than the Ethernet / Linux cooked header
  kTruncatedVlan,        // an 802.1Q / 802.1ad TPID without room for its tag
  kTooManyVlanTags,      // more tags than kMaxVlanTags
  kTruncatedIpv4,        // shorter than 20 bytes or than the IHL says
  kBadIpv4HeaderLength,  // IHL < 5
  kBadIpv4TotalLength,   // total length < header length
  kBadIpv4Checksum,      // RFC 791 header checksum wrong
  kIpv4Fragment,         // a fragment of a RoCEv2 packet (RoCEv2 packets are never fragmented)
  kTruncatedIpv6,        // shorter than the 40-byte IPv6 header
  kBadIpVersion,         // raw IP whose version nibble is neither 4 nor 6
  kTruncatedIpPacket,    // the frame ends before the IP length (and was not cut by the snap length)
  kTruncatedUdp,         // no room for the 8-byte UDP header
  kBadUdpLength,         // UDP length != IP payload length
  kTruncatedBth,         // UDP payload too short for BTH + ICRC
  kBadTransportVersion,  // BTH TVer != 0
  kUnknownOpcode,        // reserved BTH opcode (IBTA Vol. 1 Table 38)
  kTruncatedExtHeader,   // the opcode's extended headers + ICRC do not fit
  kBadPadCount,          // pad count larger than the payload
  kUnexpectedPayload,    // payload bytes on an opcode that carries none (ACK, CNP, ...)
  kSnappedHeaders,       // the snap length cut the frame inside its RoCEv2 headers
  kTruncatedMacControl,  // EtherType 0x8808 shorter than opcode + vector + 8 quanta
  kBadPfcDestination,    // PFC not sent to 01:80:C2:00:00:01
  kCount,
};

inline constexpr uint32_t kMalformedCount = static_cast<uint32_t>(Malformed::kCount);

// A stable snake_case name ("bad_pad_count").
const char* malformed_name(Malformed m);

using MalformedCounts = std::array<uint64_t, kMalformedCount>;

}  // namespace rtb::analyze
