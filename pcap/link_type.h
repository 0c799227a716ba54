// Link types of capture files (tcpdump.org LINKTYPE_* values, as stored in pcap and pcapng).
#pragma once

#include <cstdint>
#include <string>

namespace rtb::capture {

// The values are the file-format LINKTYPE_* numbers, not libpcap's DLT_* (they differ for
// raw IP: DLT_RAW is 12 on Linux, LINKTYPE_RAW is 101). Other LINKTYPE values read from a
// file are kept as they are in a LinkType (an enum class holds any uint16_t).
enum class LinkType : uint16_t {
  kEthernet = 1,  // LINKTYPE_ETHERNET: frames start with the Ethernet header
  kRaw = 101,        // LINKTYPE_RAW: frames start with an IPv4 or IPv6 header
  kLinuxSll = 113,   // LINKTYPE_LINUX_SLL: Linux "cooked" header v1 (tcpdump -i any)
  kIpv4 = 228,       // LINKTYPE_IPV4: frames start with an IPv4 header
  kIpv6 = 229,       // LINKTYPE_IPV6: frames start with an IPv6 header
  kLinuxSll2 = 276,  // LINKTYPE_LINUX_SLL2: Linux "cooked" header v2
};

// "Ethernet (1)", "raw IP (101)", "link type 147" for others.
std::string link_type_name(LinkType t);

}  // namespace rtb::capture
