#include "pcap/link_type.h"

#include <fmt/format.h>

namespace rtb::capture {

std::string link_type_name(LinkType t) {
  switch (t) {
    case LinkType::kEthernet: return "Ethernet (1)";
    case LinkType::kRaw: return "raw IP (101)";
    case LinkType::kLinuxSll: return "Linux cooked SLL (113)";
    case LinkType::kIpv4: return "raw IPv4 (228)";
    case LinkType::kIpv6: return "raw IPv6 (229)";
    case LinkType::kLinuxSll2: return "Linux cooked SLL2 (276)";
  }
  return fmt::format("link type {}", static_cast<uint16_t>(t));
}

}  // namespace rtb::capture
