#include "analyze/names.h"

#include <arpa/inet.h>
#include <fmt/format.h>

#include "wire/bth.h"
#include "wire/opcode.h"

namespace rtb::analyze {

std::string ip_text(const IpAddr& a) {
  char buf[INET6_ADDRSTRLEN] = {};
  if (a.is_v4()) inet_ntop(AF_INET, a.b.data() + 12, buf, sizeof(buf));
  else inet_ntop(AF_INET6, a.b.data(), buf, sizeof(buf));
  return buf;
}

std::string mac_text(const wire::MacAddr& m) {
  return fmt::format("{:02x}:{:02x}:{:02x}:{:02x}:{:02x}:{:02x}", m.b[0], m.b[1], m.b[2], m.b[3],
                     m.b[4], m.b[5]);
}

std::string qpn_text(uint32_t qpn) { return fmt::format("{:#08x}", qpn); }

std::string opcode_text(uint8_t opcode) {
  if (opcode == wire::op::kCnp) return "0x81 CNP";
  return fmt::format("{:#04x} {}", opcode, wire::opcode_info(opcode).name);
}

std::string syndrome_text(uint8_t syndrome) {
  const uint8_t v = wire::aeth_value(syndrome);
  switch (wire::aeth_kind(syndrome)) {
    case wire::AethKind::Ack: return fmt::format("{:#04x} ACK", syndrome);
    case wire::AethKind::RnrNak: return fmt::format("{:#04x} RNR NAK (timer {})", syndrome, v);
    case wire::AethKind::Reserved: return fmt::format("{:#04x} reserved", syndrome);
    case wire::AethKind::Nak: break;
  }
  static constexpr const char* kNak[] = {"PSN sequence error", "invalid request",
                                         "remote access error", "remote operational error",
                                         "invalid RD request"};
  if (v < 5) return fmt::format("{:#04x} NAK {}", syndrome, kNak[v]);
  return fmt::format("{:#04x} NAK reserved code {}", syndrome, v);
}

}  // namespace rtb::analyze
