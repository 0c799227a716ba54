#include "switch/int_push.h"

#include "wire/int_trailer.h"
#include "wire/ipv4.h"
#include "wire/opcode.h"
#include "wire/udp.h"

namespace rtb::sw {

bool push_int_record(uint8_t* frame, uint32_t len, uint32_t l3_offset, uint8_t int_dscp,
                     const IntHopState& hop) {
  using namespace rtb::wire;
  if (len < l3_offset + sizeof(Ipv4Hdr)) return false;
  const auto* ip = reinterpret_cast<const Ipv4Hdr*>(frame + l3_offset);
  const uint32_t ihl = ip->header_bytes();
  const uint32_t ip_len = ip->length();
  const uint32_t end = l3_offset + ip_len;
  if (ip->dscp() != int_dscp || ip->protocol != kIpProtoUdp || end > len ||
      ip_len < ihl + sizeof(UdpHdr) + 1)
    return false;
  const auto* udp = reinterpret_cast<const UdpHdr*>(frame + l3_offset + ihl);
  const uint8_t opcode = frame[l3_offset + ihl + sizeof(UdpHdr)];
  if (udp->dport() != kRoceV2Port || !opcode_info(opcode).payload) return false;
  const uint32_t room = ip_len - ihl - sizeof(UdpHdr);  // the UDP payload
  return push_int_hop(frame + end, room,
                      encode_int_hop(hop.now, hop.tx_bytes, hop.queue_bytes, hop.rate_code));
}

}  // namespace rtb::sw
