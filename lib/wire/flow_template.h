// Per-flow frame templates and the builders that turn them into RoCEv2 frames.
//
// A FlowTemplate is made once per flow direction (setup code: it validates and may fail).
// It holds the header bytes that never change (MACs, VLAN, IPs, ports, P_Key, DestQP),
// the IPv4 checksum of those bytes, and the CRC register of the masked constant header.
// Building a frame copies those bytes and patches only what changes per packet (opcode,
// PSN, AckReq, pad count, lengths, ECN, IPv4 checksum, extended headers, ICRC). The ICRC
// comes from table look-ups (icrc_tables.h): a few per changed header byte, none for the
// payload, whose bytes are the fixed pattern of payload_pattern.h.
#pragma once

#include <array>
#include <cstdint>
#include <optional>

#include "core/error.h"
#include "wire/bth.h"
#include "wire/bytes.h"
#include "wire/ethernet.h"
#include "wire/frame_size.h"
#include "wire/icrc_tables.h"
#include "wire/ipv4.h"

namespace rtb::wire {

struct FlowSpec {
  MacAddr src_mac{};
  MacAddr dst_mac{};
  uint32_t src_ip = 0;  // host order: 192.0.2.1 is 0xC0000201
  uint32_t dst_ip = 0;
  uint32_t src_qpn = 0;  // the local QP (used for the default UDP source port)
  uint32_t dst_qpn = 0;  // the remote QP: BTH DestQP of every frame of this template
  uint8_t dscp = 26;
  std::optional<Vlan> vlan;         // tagged frames carry the PFC priority in PCP
  std::optional<uint16_t> udp_sport;  // default: roce_udp_sport(src_qpn, dst_qpn)
  uint16_t pkey = kDefaultPKey;
  uint32_t path_mtu = kDefaultPathMtu;  // 256, 512, 1024, 2048 or 4096 payload bytes
  uint8_t ttl = 64;
  bool mig_req = false;  // BTH MigReq (mlx5/HiRoCE send 1, rxe and scapy 0)
  // Bytes reserved after the ICRC for HPCC INT hop records (README "INT"); 0 = none.
  uint16_t int_trailer_bytes = 0;
};

// What changes per data packet.
struct DataFields {
  uint8_t opcode = 0;        // RC/UC SEND or RDMA WRITE First/Middle/Last/Only(+Imm)
  uint32_t psn = 0;          // 24 bits
  uint32_t payload_bytes = 0;  // <= path MTU; the pattern bytes must already be in place
  bool ack_req = false;
  bool solicited = false;
  Ecn ecn = Ecn::Ect0;
  RethFields reth{};  // written when the opcode carries a RETH (WRITE First/Only)
  uint32_t imm = 0;   // written when the opcode carries ImmDt
};

struct AckFields {
  uint32_t psn = 0;                     // PSN being acknowledged (or expected, for a NAK)
  uint8_t syndrome = aeth_ack(kCreditInvalid);  // aeth_ack(credit) / aeth_nak(code) / ...
  uint32_t msn = 0;                     // 24 bits
  Ecn ecn = Ecn::Ect0;
  // BTH byte 4 BECN: the acknowledged data arrived CE-marked (RoCEv2 Annex A17: the
  // responder returns congestion seen on the forward path in the BECN bit of its ACK).
  bool becn = false;
};

struct CnpFields {
  Ecn ecn = Ecn::Ect0;  // ConnectX-4 Lx sends ECT(0)
};

// A frame inside a caller's buffer.
struct FrameSpan {
  uint8_t* data = nullptr;
  uint32_t len = 0;  // 0: the request was invalid (nothing usable was written)
  bool ok() const { return len != 0; }
};

class FlowTemplate {
 public:
  static Expected<FlowTemplate> make(const FlowSpec& spec);

  // Data frame. The payload (pattern bytes 0..payload_bytes) is at `payload`; the buffer
  // has kMaxHeaderBytes of room before it and tail_room() after it. The headers are
  // written in front of the payload, the pad, ICRC and trailer after it. Returns an empty
  // span if the opcode is not a SEND/WRITE opcode or the payload exceeds the path MTU.
  FrameSpan build_data(const DataFields& f, uint8_t* payload) const;
  // RC Acknowledge (ACK, NAK, RNR NAK by syndrome), written at `out` (>= 64 bytes + trailer).
  FrameSpan build_ack(const AckFields& f, uint8_t* out) const;
  // CNP to DestQP = spec.dst_qpn (the sender of the congested flow), written at `out`.
  FrameSpan build_cnp(const CnpFields& f, uint8_t* out) const;

  const FlowSpec& spec() const { return spec_; }
  uint32_t l2_bytes() const { return l2_; }
  // Bytes a data build may write after the payload: pad (<= 3), ICRC and the INT trailer,
  // or the fill up to the minimum frame; kTailBytes covers a trailer of up to 56 bytes.
  uint32_t tail_room() const {
    return spec_.int_trailer_bytes + 8u > kTailBytes ? spec_.int_trailer_bytes + 8u : kTailBytes;
  }
  uint16_t udp_sport() const { return sport_; }

 private:
  struct Hdr;  // per-packet fields of build()
  FlowTemplate() = default;
  uint32_t write_headers(const Hdr& h, uint8_t* frame) const;
  FrameSpan build(const Hdr& h, uint8_t* frame) const;
  uint32_t icrc(const Hdr& h, const uint8_t* masked_vars) const;
  std::array<uint8_t, 10> header_vars(const Hdr& h, const uint8_t* frame, uint32_t ip_len) const;
  FrameSpan finish(const Hdr& h, uint8_t* frame, uint32_t ip_len, uint32_t crc) const;
  Hdr ack_hdr(const AckFields& f, const uint8_t* aeth) const;
  static Hdr cnp_hdr(Ecn ecn);
  // The ICRCs of the flow's ACK (PSN and AETH zero) and CNP, which do not change otherwise.
  void make_control_crcs();

  // The full frame of a long message: payload = path MTU, no extended header, ECT(0).
  void make_full_frame();
  FrameSpan build_full(const Hdr& h, uint8_t* frame) const;
  uint8_t full_flags() const { return Bth::make_flags(false, spec_.mig_req, 0); }

  FlowSpec spec_{};
  const IcrcTables* tables_ = nullptr;
  uint32_t l2_ = 0;
  uint16_t sport_ = 0;
  uint8_t hdr_[kL2Bytes + kVlanBytes + kIpv4Bytes + kUdpBytes + kBthBytes] = {};
  uint32_t ip_sum_ = 0;    // one's-complement sum of the IPv4 words that never change
  uint32_t crc_base_ = 0;  // L(constant masked header without its last 4 bytes)
  // The full frame's headers and ICRC with opcode, AckReq and PSN zero (make_full_frame).
  uint8_t full_hdr_[kL2Bytes + kVlanBytes + kIpv4Bytes + kUdpBytes + kBthBytes] = {};
  uint32_t full_crc_ = 0;
  uint32_t full_len_ = 0;  // its frame length without FCS
  uint32_t ack_crc_ = 0;   // make_control_crcs()
  uint32_t cnp_crc_ = 0;
};

}  // namespace rtb::wire
