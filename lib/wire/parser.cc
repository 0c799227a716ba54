#include "wire/parser.h"

#include <cstring>

#include "wire/ethernet.h"
#include "wire/frame_size.h"
#include "wire/icrc.h"
#include "wire/icrc_in_place.h"
#include "wire/opcode.h"
#include "wire/pfc.h"
#include "wire/udp.h"

namespace rtb::wire {
namespace {

// Ethernet II, with at most one 802.1Q tag. Sets `off` to the start of the L3 header.
ParseError parse_l2(const uint8_t* d, uint32_t len, ParsedFrame& out, uint32_t& off) {
  if (len < kL2Bytes) return ParseError::TruncatedEthernet;
  const auto* eth = reinterpret_cast<const EthHdr*>(d);
  out.dst_mac = eth->dst_mac();
  out.src_mac = eth->src_mac();
  out.ethertype = eth->type();
  off = kL2Bytes;
  if (out.ethertype == kEtherTypeVlan) {
    if (len < kL2Bytes + kVlanBytes) return ParseError::TruncatedVlan;
    const auto* tag = reinterpret_cast<const VlanTag*>(d + kL2Bytes);
    out.vlan_tagged = true;
    out.pcp = tag->pcp();
    out.vid = tag->vid();
    out.ethertype = tag->type();
    off += kVlanBytes;
  }
  return ParseError::Ok;
}

// 802.1Qbb PFC (reference §3.1). The reserved upper octet of the class-enable vector is
// ignored on receipt (802.3 convention for reserved fields).
ParseError parse_pfc(const uint8_t* d, uint32_t len, uint32_t off, ParsedFrame& out) {
  if (len - off < sizeof(PfcBody)) return ParseError::TruncatedMacControl;
  const auto* body = reinterpret_cast<const PfcBody*>(d + off);
  if (body->mac_control_opcode() != kMacControlPfc) return ParseError::BadPfcOpcode;
  if (!(out.dst_mac == kMacControlDst)) return ParseError::BadPfcDestination;
  out.pfc_vector = body->vector();
  for (int i = 0; i < 8; ++i) out.pfc_quanta[static_cast<size_t>(i)] = body->quanta(i);
  out.cls = FrameClass::Pfc;
  return ParseError::Ok;
}

// IPv4 header and total length. On return `ip_len` bytes from `off` are in the buffer.
ParseError parse_ipv4(const uint8_t* d, uint32_t len, uint32_t off, const ParseOptions& opt,
                      ParsedFrame& out, uint32_t& ihl, uint32_t& ip_len) {
  const uint32_t avail = len - off;
  if (avail < kIpv4Bytes) return ParseError::TruncatedIpv4;
  const auto* ip = reinterpret_cast<const Ipv4Hdr*>(d + off);
  if (ip->version() != 4) return ParseError::BadIpv4Version;
  ihl = ip->header_bytes();
  if (ihl < kIpv4Bytes) return ParseError::BadIpv4HeaderLength;
  if (avail < ihl) return ParseError::TruncatedIpv4;
  ip_len = ip->length();
  if (ip_len < ihl) return ParseError::BadIpv4TotalLength;
  if (avail < ip_len) return ParseError::TruncatedIpv4Packet;
  if (opt.check_ipv4_checksum && !ipv4_checksum_ok(d + off, ihl)) return ParseError::BadIpv4Checksum;
  out.l3_offset = off;
  out.src_ip = ip->src_addr();
  out.dst_ip = ip->dst_addr();
  out.dscp = ip->dscp();
  out.ecn = ip->ecn();
  out.ttl = ip->ttl;
  return ParseError::Ok;
}

void read_bth(const Bth& b, ParsedFrame& out) {
  out.opcode = b.opcode;
  out.solicited = b.se();
  out.mig_req = b.mig_req();
  out.pad = b.pad_count();
  out.pkey = b.p_key();
  out.fecn = b.fecn();
  out.becn = b.becn();
  out.dest_qpn = b.dest_qpn();
  out.ack_req = b.ack_req();
  out.psn = b.psn();
}

void read_ext(const uint8_t* e, uint8_t flags, ParsedFrame& out) {
  if (flags & kExtReth) {
    const auto* r = reinterpret_cast<const Reth*>(e + ext_offset(flags, kExtReth));
    out.reth = RethFields{r->va(), r->rkey(), r->dma_length()};
  }
  if (flags & kExtAeth) {
    const auto* a = reinterpret_cast<const Aeth*>(e + ext_offset(flags, kExtAeth));
    out.aeth_syndrome = a->syndrome;
    out.msn = a->msn();
  }
  if (flags & kExtImm) out.imm = load_be32(e + ext_offset(flags, kExtImm));
}

FrameClass classify(const ParsedFrame& f) {
  if (f.opcode == op::kCnp) return FrameClass::Cnp;
  if (f.opcode == op::kAcknowledge || f.opcode == op::kAtomicAcknowledge)
    return aeth_kind(f.aeth_syndrome) == AethKind::Ack ? FrameClass::Ack : FrameClass::Nak;
  return FrameClass::RoceData;
}

// BTH, extended headers, payload, pad, ICRC and INT trailer inside the UDP payload
// [u, u + n), n already checked against the buffer.
ParseError parse_roce(const uint8_t* d, uint32_t u, uint32_t n, const ParseOptions& opt,
                      ParsedFrame& out) {
  const uint32_t trailer = out.dscp == opt.int_dscp ? opt.int_trailer_bytes : 0;
  if (n < kBthBytes + kIcrcSize) return ParseError::TruncatedBth;
  const auto* bth = reinterpret_cast<const Bth*>(d + u);
  read_bth(*bth, out);
  if (bth->tver() != 0) return ParseError::BadTransportVersion;
  const OpcodeInfo& info = opcode_info(out.opcode);
  if (!info.known) return ParseError::UnknownOpcode;
  if (n < kBthBytes + info.ext_bytes + kIcrcSize) return ParseError::TruncatedExtHeader;
  if (n < kBthBytes + info.ext_bytes + kIcrcSize + trailer) return ParseError::TruncatedIntTrailer;
  read_ext(d + u + kBthBytes, info.ext, out);
  const uint32_t body = n - kBthBytes - info.ext_bytes - kIcrcSize - trailer;
  if (body != 0 && !info.payload) return ParseError::UnexpectedPayload;
  if (out.pad > body) return ParseError::BadPadCount;
  out.payload_offset = u + kBthBytes + info.ext_bytes;
  out.payload_bytes = body - out.pad;
  const uint32_t icrc_at = out.payload_offset + body;
  out.icrc = load_icrc(d + icrc_at);
  out.int_trailer_offset = trailer != 0 ? icrc_at + kIcrcSize : 0;
  if (opt.check_icrc && icrc_in_place(d + out.l3_offset, icrc_at - out.l3_offset) != out.icrc)
    return ParseError::BadIcrc;
  out.cls = classify(out);
  return ParseError::Ok;
}

// IPv4 / UDP / RoCEv2 from `off`; anything that is not RoCEv2 is FrameClass::Other.
ParseError parse_l3(const uint8_t* d, uint32_t len, uint32_t off, const ParseOptions& opt,
                    ParsedFrame& out) {
  uint32_t ihl = 0, ip_len = 0;
  if (ParseError e = parse_ipv4(d, len, off, opt, out, ihl, ip_len); e != ParseError::Ok) return e;
  const auto* ip = reinterpret_cast<const Ipv4Hdr*>(d + off);
  if (ip->protocol != kIpProtoUdp) return ParseError::Ok;  // Other
  if (ip_len - ihl < kUdpBytes) return ParseError::TruncatedUdp;
  const auto* udp = reinterpret_cast<const UdpHdr*>(d + off + ihl);
  out.udp_sport = udp->sport();
  if (udp->dport() != opt.roce_udp_port) return ParseError::Ok;  // Other
  if (udp->len() != ip_len - ihl) return ParseError::BadUdpLength;
  if (ip->more_fragments() || ip->fragment_offset() != 0) return ParseError::Ipv4Fragment;
  return parse_roce(d, off + ihl + kUdpBytes, ip_len - ihl - kUdpBytes, opt, out);
}

}  // namespace

// Copied from a constant rather than value-initialized: GCC zeroes a temporary with
// `rep stos` and copies it, which perf showed costing more than the parse that follows.
constexpr ParsedFrame kFresh{};

ParseError parse_frame(const uint8_t* data, uint32_t len, const ParseOptions& opt,
                       ParsedFrame& out) {
  out = kFresh;
  if (opt.link == LinkType::RawIpv4) return parse_l3(data, len, 0, opt, out);
  uint32_t off = 0;
  if (ParseError e = parse_l2(data, len, out, off); e != ParseError::Ok) return e;
  if (out.ethertype == kEtherTypeMacControl) return parse_pfc(data, len, off, out);
  if (out.ethertype != kEtherTypeIpv4) return ParseError::Ok;  // Other
  return parse_l3(data, len, off, opt, out);
}

}  // namespace rtb::wire
