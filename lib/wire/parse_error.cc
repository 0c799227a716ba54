#include "wire/parse_error.h"

namespace rtb::wire {

const char* parse_error_name(ParseError e) {
  switch (e) {
    case ParseError::Ok: return "ok";
    case ParseError::TruncatedEthernet: return "truncated_ethernet";
    case ParseError::TruncatedVlan: return "truncated_vlan";
    case ParseError::TruncatedIpv4: return "truncated_ipv4";
    case ParseError::BadIpv4Version: return "bad_ipv4_version";
    case ParseError::BadIpv4HeaderLength: return "bad_ipv4_header_length";
    case ParseError::BadIpv4TotalLength: return "bad_ipv4_total_length";
    case ParseError::TruncatedIpv4Packet: return "truncated_ipv4_packet";
    case ParseError::BadIpv4Checksum: return "bad_ipv4_checksum";
    case ParseError::Ipv4Fragment: return "ipv4_fragment";
    case ParseError::TruncatedUdp: return "truncated_udp";
    case ParseError::BadUdpLength: return "bad_udp_length";
    case ParseError::TruncatedBth: return "truncated_bth";
    case ParseError::BadTransportVersion: return "bad_transport_version";
    case ParseError::UnknownOpcode: return "unknown_opcode";
    case ParseError::TruncatedExtHeader: return "truncated_ext_header";
    case ParseError::BadPadCount: return "bad_pad_count";
    case ParseError::UnexpectedPayload: return "unexpected_payload";
    case ParseError::BadIcrc: return "bad_icrc";
    case ParseError::TruncatedIntTrailer: return "truncated_int_trailer";
    case ParseError::TruncatedMacControl: return "truncated_mac_control";
    case ParseError::BadPfcOpcode: return "bad_pfc_opcode";
    case ParseError::BadPfcDestination: return "bad_pfc_destination";
    case ParseError::kCount: break;
  }
  return "invalid";
}

const char* frame_class_name(FrameClass c) {
  switch (c) {
    case FrameClass::RoceData: return "roce_data";
    case FrameClass::Ack: return "ack";
    case FrameClass::Nak: return "nak";
    case FrameClass::Cnp: return "cnp";
    case FrameClass::Pfc: return "pfc";
    case FrameClass::Other: return "other";
    case FrameClass::kCount: break;
  }
  return "invalid";
}

}  // namespace rtb::wire
