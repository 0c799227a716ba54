#include "switch/classify.h"

#include "wire/ethernet.h"
#include "wire/ipv4.h"
#include "wire/opcode.h"
#include "wire/pfc.h"
#include "wire/udp.h"

namespace rtb::sw {
namespace {

using namespace rtb::wire;

void read_pfc(const uint8_t* body, uint32_t room, FrameInfo& info) {
  if (room < sizeof(PfcBody)) return;
  const auto* pfc = reinterpret_cast<const PfcBody*>(body);
  if (pfc->mac_control_opcode() != kMacControlPfc) return;
  info.kind = FrameInfo::Kind::kPfc;
  info.pfc_vector = pfc->vector();
  for (int p = 0; p < kPriorities; ++p) info.pfc_quanta[p] = pfc->quanta(p);
}

void read_ipv4(const uint8_t* frame, uint32_t off, uint32_t len, FrameInfo& info, bool tc_from_pcp,
               const QosMaps& maps) {
  if (len < off + sizeof(Ipv4Hdr)) return;
  const auto* ip = reinterpret_cast<const Ipv4Hdr*>(frame + off);
  const uint32_t ihl = ip->header_bytes();
  if (ip->version() != 4 || ihl < sizeof(Ipv4Hdr) || len < off + ihl) return;
  info.kind = FrameInfo::Kind::kIpv4;
  info.l3_offset = static_cast<uint8_t>(off);
  info.ecn = static_cast<uint8_t>(ip->ecn());
  if (!tc_from_pcp) info.tc = maps.dscp_to_tc[ip->dscp()];
  info.key.src_ip = ip->src_addr();
  info.key.dst_ip = ip->dst_addr();
  info.key.protocol = ip->protocol;
  if (ip->protocol == kIpProtoUdp && len >= off + ihl + sizeof(UdpHdr)) {
    const auto* udp = reinterpret_cast<const UdpHdr*>(frame + off + ihl);
    info.key.src_port = udp->sport();
    info.key.dst_port = udp->dport();
    const uint32_t bth = off + ihl + sizeof(UdpHdr);
    // SEND, RDMA WRITE and RDMA READ response frames: IBTA Vol. 1 Table 38.
    info.roce_data = info.key.dst_port == kRoceV2Port && len > bth && opcode_info(frame[bth]).payload;
  }
}

}  // namespace

FrameInfo classify(const uint8_t* frame, uint32_t len, const QosMaps& maps) {
  FrameInfo info;
  if (len < sizeof(EthHdr)) return info;
  const auto* eth = reinterpret_cast<const EthHdr*>(frame);
  uint16_t type = eth->type();
  uint32_t off = sizeof(EthHdr);
  bool tc_from_pcp = false;
  if (type == kEtherTypeVlan) {
    if (len < off + sizeof(VlanTag)) return info;
    const auto* tag = reinterpret_cast<const VlanTag*>(frame + off);
    type = tag->type();
    off += sizeof(VlanTag);
    if (maps.trust_dot1p_when_tagged) {
      info.tc = maps.dot1p_to_tc[tag->pcp()];
      tc_from_pcp = true;
    }
  }
  if (type == kEtherTypeMacControl) {
    read_pfc(frame + off, len - off, info);
  } else if (type == kEtherTypeIpv4) {
    read_ipv4(frame, off, len, info, tc_from_pcp, maps);
  }
  return info;
}

}  // namespace rtb::sw
