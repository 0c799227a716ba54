// Parser for received frames: classifies and extracts what the pipeline needs.
//
// Works on (pointer, length) with no EAL and never reads outside [data, data + len):
// every read is preceded by a length check against the bytes that remain, and lengths
// taken from headers are checked against the buffer before use.
//
// FCS: frames are expected without the Ethernet FCS (DPDK strips it by default; the
// captures have none). Bytes after the IPv4 total length are ignored, so a frame that
// still carries its FCS, or Ethernet padding, parses the same; the FCS is not checked.
#pragma once

#include <array>
#include <cstdint>

#include "wire/bth.h"
#include "wire/bytes.h"
#include "wire/ipv4.h"
#include "wire/parse_error.h"

namespace rtb::wire {

enum class LinkType : uint8_t {
  Ethernet,  // pcap LINKTYPE_ETHERNET (1)
  RawIpv4,   // pcap LINKTYPE_RAW (101) / LINKTYPE_IPV4 (228): the frame starts at IPv4
};

struct ParseOptions {
  LinkType link = LinkType::Ethernet;
  bool check_ipv4_checksum = true;
  bool check_icrc = false;  // costs a CRC pass over the packet
  uint16_t roce_udp_port = 4791;
  // Frames of flows that reserve an INT trailer after the ICRC (README "INT") are known
  // by their DSCP; 0xFF: no such flows.
  uint8_t int_dscp = 0xFF;
  uint16_t int_trailer_bytes = 0;
};

struct ParsedFrame {
  FrameClass cls = FrameClass::Other;
  // L2 (absent for LinkType::RawIpv4).
  MacAddr dst_mac{};
  MacAddr src_mac{};
  uint16_t ethertype = 0;  // inner EtherType when tagged
  bool vlan_tagged = false;
  uint8_t pcp = 0;
  uint16_t vid = 0;
  // IPv4 / UDP (RoCEv2 frames).
  uint32_t l3_offset = 0;
  uint32_t src_ip = 0;
  uint32_t dst_ip = 0;
  uint8_t dscp = 0;
  Ecn ecn = Ecn::NotEct;
  uint8_t ttl = 0;
  uint16_t udp_sport = 0;
  // BTH.
  uint8_t opcode = 0;
  bool solicited = false;
  bool mig_req = false;
  uint8_t pad = 0;
  uint16_t pkey = 0;
  bool fecn = false;
  bool becn = false;
  uint32_t dest_qpn = 0;
  bool ack_req = false;
  uint32_t psn = 0;
  // Extended headers, filled when the opcode carries them.
  RethFields reth{};
  uint8_t aeth_syndrome = 0;
  uint32_t msn = 0;
  uint32_t imm = 0;
  // Payload (without pad) and where it starts, from the start of the frame.
  uint32_t payload_offset = 0;
  uint32_t payload_bytes = 0;
  uint32_t icrc = 0;  // the CRC value (wire bytes read little-endian)
  uint32_t int_trailer_offset = 0;  // 0: none
  // PFC.
  uint8_t pfc_vector = 0;
  std::array<uint16_t, 8> pfc_quanta{};
};

// Parses `len` bytes at `data`. On ParseError::Ok `out` describes the frame; otherwise
// `out` holds whatever was decoded before the error.
ParseError parse_frame(const uint8_t* data, uint32_t len, const ParseOptions& opt,
                       ParsedFrame& out);

// parse_frame and count the outcome.
inline ParseError parse_frame(const uint8_t* data, uint32_t len, const ParseOptions& opt,
                              ParsedFrame& out, ParseCounters& counters) {
  const ParseError e = parse_frame(data, len, opt, out);
  counters.count(e);
  if (e == ParseError::Ok) counters.count(out.cls);
  return e;
}

}  // namespace rtb::wire
