#include "wire/flow_template.h"

#include <cstring>
#include <string>

#include "wire/icrc.h"
#include "wire/int_trailer.h"
#include "wire/opcode.h"
#include "wire/udp.h"

namespace rtb::wire {
namespace {

// Positions in the ICRC's masked message (8-byte prefix, IPv4 at 8, UDP at 28, BTH at 36,
// extended headers at 48) of the bytes a builder changes per packet.
constexpr uint32_t kPosIpLen = 8 + 2, kPosUdpLen = 28 + 4;
constexpr uint32_t kPosOpcode = 36, kPosFlags = 37, kPosAckReq = 44, kPosPsn = 45;
constexpr uint32_t kMaskedBase = 48;

// A CNP's 16 reserved bytes; also the zero AETH of the ACK whose ICRC a template keeps.
constexpr uint8_t kZeros[16] = {};

uint32_t fold(uint32_t sum) {
  sum = (sum & 0xFFFF) + (sum >> 16);
  return (sum & 0xFFFF) + (sum >> 16);
}

// RC or UC SEND / RDMA WRITE First, Middle, Last, Only (with or without Immediate).
bool is_builder_data_opcode(uint8_t opcode) {
  const uint8_t transport = opcode & 0xE0;
  return (transport == 0 || transport == op::kUc) && (opcode & 0x1F) <= op::kWriteOnlyImm;
}

Status validate(const FlowSpec& s) {
  if (!path_mtu_valid(s.path_mtu))
    return Error{"path MTU " + std::to_string(s.path_mtu) +
                 " bytes is not an IBTA path MTU (256, 512, 1024, 2048 or 4096)"};
  if (s.dscp > 63) return Error{"DSCP " + std::to_string(s.dscp) + " is not in 0..63"};
  if (s.src_qpn > kQpnMask || s.dst_qpn > kQpnMask)
    return Error{"QP numbers are 24-bit (0..16777215)"};
  if (s.vlan && (s.vlan->pcp > 7 || s.vlan->vid > 4095))
    return Error{"VLAN PCP must be 0..7 and VID 0..4095"};
  if (s.int_trailer_bytes != 0 &&
      (s.int_trailer_bytes < kIntDescriptorBytes + kIntHopBytes || s.int_trailer_bytes > 252 ||
       (s.int_trailer_bytes - kIntDescriptorBytes) % kIntHopBytes != 0))
    return Error{"INT trailer must be 0 or 4 + 8 x (1..31) bytes (a descriptor and hop slots)"};
  return {};
}

}  // namespace

struct FlowTemplate::Hdr {
  uint8_t opcode;
  uint8_t bth_flags;
  uint8_t byte4;
  uint8_t ackreq;
  uint32_t psn;
  const uint8_t* ext;
  uint32_t ext_bytes;
  uint32_t payload;
  Ecn ecn;
};

Expected<FlowTemplate> FlowTemplate::make(const FlowSpec& spec) {
  if (Status st = validate(spec); !st) return Error{st.message()};
  FlowTemplate t;
  t.spec_ = spec;
  t.tables_ = &IcrcTables::get();
  t.sport_ = spec.udp_sport.value_or(roce_udp_sport(spec.src_qpn, spec.dst_qpn));
  uint8_t* p = t.hdr_;
  t.l2_ = write_l2(p, spec.dst_mac, spec.src_mac, spec.vlan ? &*spec.vlan : nullptr,
                   kEtherTypeIpv4);
  // IPv4: id 0, DF, no options (what RoCE NICs send; captures README). Total length,
  // ECN and checksum are per packet and left zero here.
  uint8_t* ip = p + t.l2_;
  ip[0] = 0x45;
  ip[1] = static_cast<uint8_t>(spec.dscp << 2);
  ip[6] = 0x40;
  ip[8] = spec.ttl;
  ip[9] = kIpProtoUdp;
  store_be32(ip + 12, spec.src_ip);
  store_be32(ip + 16, spec.dst_ip);
  for (int i = 0; i < 20; i += 2) t.ip_sum_ += load_be16(ip + i);
  // UDP: checksum 0 (RoCEv2 NICs do not fill it); length per packet.
  uint8_t* udp = ip + kIpv4Bytes;
  store_be16(udp, t.sport_);
  store_be16(udp + 2, kRoceV2Port);
  // BTH: P_Key and DestQP are constant; the rest per packet.
  uint8_t* bth = udp + kUdpBytes;
  store_be16(bth + 2, spec.pkey);
  store_be24(bth + 5, spec.dst_qpn);
  // The masked constant header K (reference §2.3 masks), variable bytes zero.
  uint8_t k[kMaskedBase];
  std::memset(k, 0xFF, kIcrcPrefixBytes);
  std::memcpy(k + kIcrcPrefixBytes, ip, kIpv4Bytes + kUdpBytes + kBthBytes);
  k[8 + 1] = k[8 + 8] = k[8 + 10] = k[8 + 11] = 0xFF;  // TOS, TTL, checksum
  k[28 + 6] = k[28 + 7] = 0xFF;                        // UDP checksum
  k[36 + 4] = 0xFF;                                    // FECN, BECN, resv6
  t.crc_base_ = t.tables_->linear(k, kMaskedBase - 4);  // k[44..48) are per-packet: 0
  t.make_full_frame();
  t.make_control_crcs();
  return t;
}

// The full frame of a long message (payload = path MTU, no extended header, ECT(0), no
// solicited event: every SEND or RDMA WRITE Middle, and Last when the message fills its
// frames) differs from one to the next only in its opcode, AckReq and PSN. Its headers
// and its ICRC with those bytes zero are made here once; build_full() writes the headers
// with one copy and gets the ICRC with one look-up per patched byte (icrc_tables.h:
// f(M') = f(M) xor L(M xor M')).
void FlowTemplate::make_full_frame() {
  static constexpr uint8_t kNoExt[1] = {};
  const Hdr h{0, full_flags(), 0, 0, 0, kNoExt, 0, spec_.path_mtu, Ecn::Ect0};
  const uint32_t ip_len = write_headers(h, full_hdr_);
  full_crc_ = icrc(h, header_vars(h, full_hdr_, ip_len).data());
  full_len_ = l2_ + ip_len;
}

uint32_t FlowTemplate::icrc(const Hdr& h, const uint8_t* vars) const {
  const IcrcTables& tb = *tables_;
  const uint32_t padded = h.payload + pad_bytes(h.payload);
  const uint32_t m = kMaskedBase + h.ext_bytes + padded;  // covered message length
  // L(K || 0^(ext + payload)): four look-ups from the template's register.
  uint32_t crc = tb.extend_zeros(crc_base_, 0, h.ext_bytes + padded);
  // Each per-packet header byte at position p adds Z[m - p][byte].
  static constexpr uint32_t kPos[10] = {kPosIpLen,  kPosIpLen + 1, kPosUdpLen, kPosUdpLen + 1,
                                        kPosOpcode, kPosFlags,     kPosAckReq, kPosPsn,
                                        kPosPsn + 1, kPosPsn + 2};
  for (int i = 0; i < 10; ++i) crc ^= tb.z(m - kPos[i], vars[i]);
  for (uint32_t i = 0; i < h.ext_bytes; ++i) crc ^= tb.z(m - kMaskedBase - i, h.ext[i]);
  // Payload and pad: L(0^h || P) = L(P), precomputed per length. Then f = L xor c(m).
  return crc ^ tb.padded_pattern_linear(h.payload) ^ tb.zeros_crc(m);
}

// The constant headers with h's per-packet fields patched in; returns the IPv4 length.
uint32_t FlowTemplate::write_headers(const Hdr& h, uint8_t* frame) const {
  std::memcpy(frame, hdr_, l2_ + kIpv4Bytes + kUdpBytes + kBthBytes);
  const uint32_t ip_len = roce_ip_length(h.ext_bytes, h.payload, spec_.int_trailer_bytes);
  const uint16_t udp_len = static_cast<uint16_t>(ip_len - kIpv4Bytes);
  uint8_t* ip = frame + l2_;
  ip[1] = static_cast<uint8_t>(ip[1] | static_cast<uint8_t>(h.ecn));
  store_be16(ip + 2, static_cast<uint16_t>(ip_len));
  // RFC 1071 sum: the constant words plus the two that changed (length, ECN bits).
  store_be16(ip + 10, static_cast<uint16_t>(~fold(ip_sum_ + ip_len + static_cast<uint8_t>(h.ecn))));
  store_be16(ip + kIpv4Bytes + 4, udp_len);
  uint8_t* bth = ip + kIpv4Bytes + kUdpBytes;
  bth[0] = h.opcode;
  bth[1] = h.bth_flags;
  bth[4] = h.byte4;
  bth[8] = h.ackreq;
  store_be24(bth + 9, h.psn);
  std::memcpy(bth + kBthBytes, h.ext, h.ext_bytes);
  return ip_len;
}

FrameSpan FlowTemplate::build(const Hdr& h, uint8_t* frame) const {
  const uint32_t ip_len = write_headers(h, frame);
  return finish(h, frame, ip_len, icrc(h, header_vars(h, frame, ip_len).data()));
}

// icrc()'s per-packet header bytes (lengths, opcode, flags, AckReq, PSN) of the frame whose
// headers write_headers() put at `frame`.
std::array<uint8_t, 10> FlowTemplate::header_vars(const Hdr& h, const uint8_t* frame,
                                                  uint32_t ip_len) const {
  const uint8_t* ip = frame + l2_;
  const uint8_t* bth = ip + kIpv4Bytes + kUdpBytes;
  const auto udp_len = static_cast<uint16_t>(ip_len - kIpv4Bytes);
  return {ip[2], ip[3], static_cast<uint8_t>(udp_len >> 8), static_cast<uint8_t>(udp_len),
          h.opcode, h.bth_flags, h.ackreq, bth[9], bth[10], bth[11]};
}

// After the headers: the pad, the ICRC, the INT trailer and the Ethernet padding.
FrameSpan FlowTemplate::finish(const Hdr& h, uint8_t* frame, uint32_t ip_len, uint32_t crc) const {
  uint8_t* tail = frame + l2_ + kIpv4Bytes + kUdpBytes + kBthBytes + h.ext_bytes + h.payload;
  const uint32_t pad = pad_bytes(h.payload);
  for (uint32_t i = 0; i < pad; ++i) tail[i] = 0;
  store_icrc(tail + pad, crc);
  if (spec_.int_trailer_bytes != 0) init_int_trailer(tail + pad + kIcrcBytes, spec_.int_trailer_bytes);
  uint32_t len = l2_ + ip_len;
  if (len < kMinFrameNoFcs) {  // Ethernet padding after the IP packet (not covered)
    std::memset(frame + len, 0, kMinFrameNoFcs - len);
    len = kMinFrameNoFcs;
  }
  return FrameSpan{frame, len};
}

FrameSpan FlowTemplate::build_data(const DataFields& f, uint8_t* payload) const {
  if (!is_builder_data_opcode(f.opcode) || f.payload_bytes > spec_.path_mtu) return {};
  const OpcodeInfo& info = opcode_info(f.opcode);
  uint8_t ext[20];
  uint8_t* e = ext;
  if (info.ext & kExtReth) {
    store_be64(e, f.reth.va);
    store_be32(e + 8, f.reth.rkey);
    store_be32(e + 12, f.reth.dma_length);
    e += 16;
  }
  if (info.ext & kExtImm) {
    store_be32(e, f.imm);
    e += 4;
  }
  const Hdr h{f.opcode,
              Bth::make_flags(f.solicited, spec_.mig_req, static_cast<uint8_t>(pad_bytes(f.payload_bytes))),
              0,
              static_cast<uint8_t>(f.ack_req ? Bth::kAckReq : 0),
              f.psn & kPsnMask,
              ext,
              static_cast<uint32_t>(e - ext),
              f.payload_bytes,
              f.ecn};
  uint8_t* frame = payload - (l2_ + kIpv4Bytes + kUdpBytes + kBthBytes + h.ext_bytes);
  if (h.ext_bytes == 0 && h.payload == spec_.path_mtu && h.ecn == Ecn::Ect0 && h.bth_flags == full_flags()) {
    return build_full(h, frame);
  }
  return build(h, frame);
}

// A frame of the full-frame shape (make_full_frame): the prebuilt headers, then the five
// bytes that differ patched in the frame and in the ICRC. The payload is a multiple of 4
// (a path MTU), so there is no pad, and the frame is longer than the Ethernet minimum.
FrameSpan FlowTemplate::build_full(const Hdr& h, uint8_t* frame) const {
  const uint32_t hdr_bytes = l2_ + kIpv4Bytes + kUdpBytes + kBthBytes;
  std::memcpy(frame, full_hdr_, hdr_bytes);
  uint8_t* bth = frame + hdr_bytes - kBthBytes;
  bth[0] = h.opcode;
  bth[8] = h.ackreq;
  store_be24(bth + 9, h.psn);
  // Distances from the end of the covered message (icrc()): m - position.
  const IcrcTables& tb = *tables_;
  const uint32_t m = kMaskedBase + h.payload;
  const uint32_t crc = full_crc_ ^ tb.z(m - kPosOpcode, h.opcode) ^ tb.z(m - kPosAckReq, h.ackreq) ^
                       tb.z(m - kPosPsn, bth[9]) ^ tb.z(m - kPosPsn - 1, bth[10]) ^
                       tb.z(m - kPosPsn - 2, bth[11]);
  uint8_t* tail = bth + kBthBytes + h.payload;
  store_icrc(tail, crc);
  if (spec_.int_trailer_bytes != 0) init_int_trailer(tail + kIcrcBytes, spec_.int_trailer_bytes);
  return FrameSpan{frame, full_len_};
}

// An ACK and a CNP have one length per flow, and the ICRC masks their ECN and BECN bits
// (reference §2.3). So the ICRC of the flow's ACK with PSN and AETH zero, and that of its
// CNP, whose every covered byte is constant, are computed here once; an ACK then takes one
// look-up per PSN and AETH byte (f(M') = f(M) xor L(M xor M'), icrc_tables.h).
void FlowTemplate::make_control_crcs() {
  uint8_t frame[kL2Bytes + kVlanBytes + kIpv4Bytes + kUdpBytes + kBthBytes + sizeof kZeros];
  const Hdr ack = ack_hdr(AckFields{0, 0, 0, Ecn::Ect0, false}, kZeros);
  ack_crc_ = icrc(ack, header_vars(ack, frame, write_headers(ack, frame)).data());
  const Hdr cnp = cnp_hdr(Ecn::Ect0);
  cnp_crc_ = icrc(cnp, header_vars(cnp, frame, write_headers(cnp, frame)).data());
}

FlowTemplate::Hdr FlowTemplate::ack_hdr(const AckFields& f, const uint8_t* aeth) const {
  return Hdr{op::kAcknowledge, Bth::make_flags(false, spec_.mig_req, 0),
             f.becn ? Bth::kBecn : uint8_t{0}, 0, f.psn & kPsnMask, aeth, 4, 0, f.ecn};
}

// Reference §2.2: opcode 0x81, SE/M/PadCnt/TVer 0, BECN = 1, PSN 0, AckReq 0,
// 16 zero bytes.
FlowTemplate::Hdr FlowTemplate::cnp_hdr(Ecn ecn) {
  return Hdr{op::kCnp, 0, Bth::kBecn, 0, 0, kZeros, 16, 0, ecn};
}

FrameSpan FlowTemplate::build_ack(const AckFields& f, uint8_t* out) const {
  uint8_t aeth[4] = {f.syndrome};
  store_be24(aeth + 1, f.msn & 0xFFFFFF);
  const Hdr h = ack_hdr(f, aeth);
  const uint32_t ip_len = write_headers(h, out);
  const uint8_t* bth = out + l2_ + kIpv4Bytes + kUdpBytes;
  // Distances from the end of the covered message (icrc()): m - position.
  const IcrcTables& tb = *tables_;
  constexpr uint32_t m = kMaskedBase + 4;
  const uint32_t crc = ack_crc_ ^ tb.z(m - kPosPsn, bth[9]) ^ tb.z(m - kPosPsn - 1, bth[10]) ^
                       tb.z(m - kPosPsn - 2, bth[11]) ^ tb.z(m - kMaskedBase, aeth[0]) ^
                       tb.z(m - kMaskedBase - 1, aeth[1]) ^ tb.z(m - kMaskedBase - 2, aeth[2]) ^
                       tb.z(m - kMaskedBase - 3, aeth[3]);
  return finish(h, out, ip_len, crc);
}

FrameSpan FlowTemplate::build_cnp(const CnpFields& f, uint8_t* out) const {
  const Hdr h = cnp_hdr(f.ecn);
  return finish(h, out, write_headers(h, out), cnp_crc_);
}

}  // namespace rtb::wire
