#include "analyze/malformed.h"

namespace rtb::analyze {

const char* malformed_name(Malformed m) {
  switch (m) {
    case Malformed::kUnsupportedLinkType: return "unsupported_link_type";
    case Malformed::kTruncatedLinkHeader: return "truncated_link_header";
    case Malformed::kTruncatedVlan: return "truncated_vlan";
    case Malformed::kTooManyVlanTags: return "too_many_vlan_tags";
    case Malformed::kTruncatedIpv4: return "truncated_ipv4";
    case Malformed::kBadIpv4HeaderLength: return "bad_ipv4_header_length";
    case Malformed::kBadIpv4TotalLength: return "bad_ipv4_total_length";
    case Malformed::kBadIpv4Checksum: return "bad_ipv4_checksum";
    case Malformed::kIpv4Fragment: return "ipv4_fragment";
    case Malformed::kTruncatedIpv6: return "truncated_ipv6";
    case Malformed::kBadIpVersion: return "bad_ip_version";
    case Malformed::kTruncatedIpPacket: return "truncated_ip_packet";
    case Malformed::kTruncatedUdp: return "truncated_udp";
    case Malformed::kBadUdpLength: return "bad_udp_length";
    case Malformed::kTruncatedBth: return "truncated_bth";
    case Malformed::kBadTransportVersion: return "bad_transport_version";
    case Malformed::kUnknownOpcode: return "unknown_opcode";
    case Malformed::kTruncatedExtHeader: return "truncated_ext_header";
    case Malformed::kBadPadCount: return "bad_pad_count";
    case Malformed::kUnexpectedPayload: return "unexpected_payload";
    case Malformed::kSnappedHeaders: return "snapped_headers";
    case Malformed::kTruncatedMacControl: return "truncated_mac_control";
    case Malformed::kBadPfcDestination: return "bad_pfc_destination";
    case Malformed::kCount: break;
  }
  return "unknown";
}

}  // namespace rtb::analyze
