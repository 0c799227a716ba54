#include "pcap/link_type.h"

#include <fmt/format.h>

namespace rtb::capture {

std::string link_type_name(LinkType t) {
  switch (t) {
    case LinkType::kEthernet: return "Ethernet (1)";
    case LinkType::kRaw: return "raw IP (101)";
    case LinkType::kIpv4: return "raw IPv4 (228)";
  }
  return fmt::format("link type {}", static_cast<uint16_t>(t));
}

}  // namespace rtb::capture
