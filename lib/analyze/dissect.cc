#include "analyze/dissect.h"

#include "analyze/icrc_ipv6.h"
#include "analyze/link_layer.h"
#include "analyze/malformed.h"
#include "wire/bth.h"
#include "wire/ethernet.h"
#include "wire/frame_size.h"
#include "wire/icrc.h"
#include "wire/icrc_in_place.h"
#include "wire/opcode.h"
#include "wire/pfc.h"

namespace rtb::analyze {
namespace {

// The frame being dissected: its bytes, whether the snap length cut it, and the result.
struct Cursor {
  const uint8_t* d;
  uint32_t len;   // captured bytes
  bool snapped;   // captured_len < wire_len
  Dissected& out;

  void fail(Malformed m) {
    out.kind = FrameKind::kMalformed;
    out.malformed = static_cast<uint8_t>(m);
  }
  // A header is not all in the captured bytes: malformed, or cut by the snap length.
  void missing(Malformed m) { fail(snapped ? Malformed::kSnappedHeaders : m); }
  bool have(uint32_t off, uint32_t need) const { return off <= len && len - off >= need; }
};

// The IP packet's UDP payload [u, u + n) as declared, `l3` its IP header.
struct RoceSpan {
  uint32_t l3;
  uint32_t u;
  uint32_t n;
  bool ipv6;
};

// Below this many covered bytes one CRC pass over a masked copy (wire::icrc_full) is
// cheaper than two passes and a combine in place (wire::icrc_in_place); same result.
constexpr uint32_t kCopyIcrcBelowBytes = 512;

void check_icrc(Cursor& c, const RoceSpan& s) {
  const uint32_t icrc_at = s.u + s.n - wire::kIcrcSize;
  if (!c.have(s.u, s.n)) { c.out.icrc = IcrcCheck::kNotChecked; return; }
  const uint32_t covered = icrc_at - s.l3;
  const uint8_t* ip = c.d + s.l3;
  const uint32_t want = s.ipv6                            ? icrc_ipv6(ip, covered)
                        : covered < kCopyIcrcBelowBytes ? wire::icrc_full(ip, covered)
                                                        : wire::icrc_in_place(ip, covered);
  c.out.icrc = wire::load_icrc(c.d + icrc_at) == want ? IcrcCheck::kValid : IcrcCheck::kInvalid;
}

// BTH, extended headers, payload and ICRC (IBTA Vol. 1 §9.2-9.3).
void roce(Cursor& c, const RoceSpan& s) {
  if (s.n < wire::kBthBytes + wire::kIcrcSize) return c.fail(Malformed::kTruncatedBth);
  if (!c.have(s.u, wire::kBthBytes)) return c.missing(Malformed::kTruncatedBth);
  const auto* bth = reinterpret_cast<const wire::Bth*>(c.d + s.u);
  if (bth->tver() != 0) return c.fail(Malformed::kBadTransportVersion);
  const wire::OpcodeInfo& info = wire::opcode_info(bth->opcode);
  if (!info.known) return c.fail(Malformed::kUnknownOpcode);
  const uint32_t fixed = wire::kBthBytes + info.ext_bytes;
  if (s.n < fixed + wire::kIcrcSize) return c.fail(Malformed::kTruncatedExtHeader);
  if (!c.have(s.u, fixed)) return c.missing(Malformed::kTruncatedExtHeader);
  const uint32_t body = s.n - fixed - wire::kIcrcSize;
  if (body != 0 && !info.payload) return c.fail(Malformed::kUnexpectedPayload);
  if (bth->pad_count() > body) return c.fail(Malformed::kBadPadCount);
  Dissected& o = c.out;
  o.opcode = bth->opcode;
  o.dest_qpn = bth->dest_qpn();
  o.psn = bth->psn();
  o.becn = bth->becn();
  o.fecn = bth->fecn();
  o.ack_req = bth->ack_req();
  if (info.ext & wire::kExtAeth) {
    o.aeth_syndrome = c.d[s.u + wire::kBthBytes + wire::ext_offset(info.ext, wire::kExtAeth)];
  }
  o.payload_bytes = body - bth->pad_count();
  check_icrc(c, s);
  o.kind = FrameKind::kRoce;
}

// UDP header at `u`, `ip_payload` bytes declared by the IP header.
void udp(Cursor& c, uint32_t l3, uint32_t u, uint32_t ip_payload, bool ipv6) {
  if (ip_payload < wire::kUdpBytes) return c.fail(Malformed::kTruncatedUdp);
  if (!c.have(u, wire::kUdpBytes)) return c.missing(Malformed::kTruncatedUdp);
  c.out.udp_sport = wire::load_be16(c.d + u);
  if (wire::load_be16(c.d + u + 2) != kRoceUdpPort) return;  // other UDP
  if (wire::load_be16(c.d + u + 4) != ip_payload) return c.fail(Malformed::kBadUdpLength);
  roce(c, RoceSpan{l3, u + wire::kUdpBytes, ip_payload - wire::kUdpBytes, ipv6});
}

void ipv4(Cursor& c, uint32_t off) {
  if (!c.have(off, wire::kIpv4Bytes)) return c.missing(Malformed::kTruncatedIpv4);
  const auto* ip = reinterpret_cast<const wire::Ipv4Hdr*>(c.d + off);
  if (ip->version() != 4) return c.fail(Malformed::kBadIpVersion);
  const uint32_t ihl = ip->header_bytes();
  if (ihl < wire::kIpv4Bytes) return c.fail(Malformed::kBadIpv4HeaderLength);
  if (!c.have(off, ihl)) return c.missing(Malformed::kTruncatedIpv4);
  const uint32_t ip_len = ip->length();
  if (ip_len < ihl) return c.fail(Malformed::kBadIpv4TotalLength);
  if (!c.snapped && !c.have(off, ip_len)) return c.fail(Malformed::kTruncatedIpPacket);
  if (!wire::ipv4_checksum_ok(c.d + off, ihl)) return c.fail(Malformed::kBadIpv4Checksum);
  Dissected& o = c.out;
  o.src_ip = ipv4_addr(ip->src);
  o.dst_ip = ipv4_addr(ip->dst);
  o.dscp = ip->dscp();
  o.ecn = ip->ecn();
  if (ip->protocol != wire::kIpProtoUdp || ip->fragment_offset() != 0) return;  // other
  if (ip->more_fragments()) {  // a first fragment: RoCEv2 when it is for port 4791
    if (c.have(off + ihl, 4) && wire::load_be16(c.d + off + ihl + 2) == kRoceUdpPort)
      c.fail(Malformed::kIpv4Fragment);
    return;
  }
  udp(c, off, off + ihl, ip_len - ihl, false);
}

void ipv6(Cursor& c, uint32_t off) {
  if (!c.have(off, kIpv6Bytes)) return c.missing(Malformed::kTruncatedIpv6);
  const uint8_t* ip = c.d + off;
  if ((ip[0] >> 4) != 6) return c.fail(Malformed::kBadIpVersion);
  const uint32_t payload = wire::load_be16(ip + 4);
  if (!c.snapped && !c.have(off, kIpv6Bytes + payload)) return c.fail(Malformed::kTruncatedIpPacket);
  Dissected& o = c.out;
  o.ipv6 = true;
  o.src_ip = ipv6_addr(ip + 8);
  o.dst_ip = ipv6_addr(ip + 24);
  const uint8_t tclass = static_cast<uint8_t>(((ip[0] & 0x0F) << 4) | (ip[1] >> 4));
  o.dscp = tclass >> 2;
  o.ecn = static_cast<wire::Ecn>(tclass & 3u);
  if (ip[6] != wire::kIpProtoUdp) return;  // other (RoCEv2 uses no extension headers)
  udp(c, off, off + kIpv6Bytes, payload, true);
}

// MAC Control (IEEE 802.3 Annex 31A/31B, 802.1Qbb §36.1.3).
void mac_control(Cursor& c, const LinkLayer& ll) {
  const uint32_t off = ll.l3_offset;
  if (!c.have(off, 2)) return c.fail(Malformed::kTruncatedMacControl);
  const uint16_t opcode = wire::load_be16(c.d + off);
  if (opcode == wire::kMacControlPause) {
    if (!c.have(off, 4)) return c.fail(Malformed::kTruncatedMacControl);
    c.out.pfc_quanta[0] = wire::load_be16(c.d + off + 2);
    c.out.kind = FrameKind::kPause;
    return;
  }
  if (opcode != wire::kMacControlPfc) return;  // other MAC Control
  if (!c.have(off, sizeof(wire::PfcBody))) return c.fail(Malformed::kTruncatedMacControl);
  if (ll.has_dst_mac && !(ll.dst_mac == wire::kMacControlDst))
    return c.fail(Malformed::kBadPfcDestination);
  const auto* body = reinterpret_cast<const wire::PfcBody*>(c.d + off);
  c.out.pfc_vector = body->vector();
  for (int i = 0; i < 8; ++i) c.out.pfc_quanta[static_cast<size_t>(i)] = body->quanta(i);
  c.out.kind = FrameKind::kPfc;
}

}  // namespace

void dissect(capture::LinkType link, const uint8_t* data, uint32_t captured_len,
             uint32_t wire_len, Dissected& out) {
  out = Dissected{};
  Cursor c{data, captured_len, captured_len < wire_len, out};
  LinkLayer ll;
  Malformed why{};
  if (!parse_link_layer(link, data, captured_len, ll, why)) return c.fail(why);
  out.src_mac = ll.src_mac;
  out.vlan_tags = ll.vlan_tags;
  switch (ll.ethertype) {
    case wire::kEtherTypeIpv4: return ipv4(c, ll.l3_offset);
    case kEtherTypeIpv6: return ipv6(c, ll.l3_offset);
    case wire::kEtherTypeMacControl: return mac_control(c, ll);
    default: return;  // other
  }
}

}  // namespace rtb::analyze
