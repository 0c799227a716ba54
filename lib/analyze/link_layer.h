// The link-layer headers a capture's frames start with, down to the EtherType of the
// payload and where it starts. Never reads outside [data, data + len).
//
//   Ethernet (LINKTYPE 1)       dst(6) src(6) type(2), then any number (up to
//                               kMaxVlanTags) of 802.1Q / 802.1ad / 0x9100 tags (QinQ)
//   Linux cooked SLL (113)      packet type(2) ARPHRD(2) addr len(2) addr(8) protocol(2)
//   Linux cooked SLL2 (276)     protocol(2) reserved(2) ifindex(4) ARPHRD(2) packet type(1)
//                               addr len(1) addr(8)
//                               (tcpdump.org/linktypes/LINKTYPE_LINUX_SLL{,2}.html; libpcap
//                               puts a stripped VLAN tag back after the cooked header)
//   raw IP (101), IPv4 (228), IPv6 (229): no link header; the version nibble decides
#pragma once

#include <cstdint>

#include "analyze/malformed.h"
#include "pcap/link_type.h"
#include "wire/bytes.h"

namespace rtb::analyze {

inline constexpr uint8_t kMaxVlanTags = 4;
inline constexpr uint16_t kEtherTypeIpv6 = 0x86DD;

struct LinkLayer {
  uint32_t l3_offset = 0;   // where the payload after the (innermost) EtherType starts
  uint16_t ethertype = 0;   // of that payload
  bool has_dst_mac = false; // Ethernet only: cooked captures do not keep the destination
  wire::MacAddr dst_mac{};
  wire::MacAddr src_mac{};  // Ethernet source, or the cooked header's 6-byte address
  uint8_t vlan_tags = 0;
};

// Returns false with `why` set when the frame is too short for its link header.
bool parse_link_layer(capture::LinkType link, const uint8_t* data, uint32_t len, LinkLayer& out,
                      Malformed& why);

}  // namespace rtb::analyze
