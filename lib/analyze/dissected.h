// What the analyzer reads from one captured frame (dissect.h fills it).
#pragma once

#include <array>
#include <cstdint>

#include "wire/bytes.h"
#include "wire/ipv4.h"

namespace rtb::analyze {

// An IPv4 or IPv6 address; IPv4 is kept IPv4-mapped (::ffff:a.b.c.d, RFC 4291 §2.5.5.2)
// so one key type serves both families.
struct IpAddr {
  std::array<uint8_t, 16> b{};
  constexpr auto operator<=>(const IpAddr&) const = default;
  bool is_v4() const;
};

IpAddr ipv4_addr(const uint8_t* four_bytes);
IpAddr ipv6_addr(const uint8_t* sixteen_bytes);

enum class FrameKind : uint8_t {
  kRoce,        // RoCEv2: UDP destination port 4791 over IPv4 or IPv6
  kPfc,         // 802.1Qbb PFC (MAC Control opcode 0x0101)
  kPause,       // 802.3x PAUSE (MAC Control opcode 0x0001)
  kOther,       // anything else that parsed (ARP, TCP, other UDP, other MAC Control ...)
  kMalformed,   // see Dissected::malformed
};

enum class IcrcCheck : uint8_t {
  kValid,
  kInvalid,
  kNotChecked,  // the snap length cut the packet before its ICRC
};

struct Dissected {
  FrameKind kind = FrameKind::kOther;
  uint8_t malformed = 0;  // a Malformed value when kind == kMalformed
  // Link layer. `src_mac` is the sender for Ethernet and Linux cooked captures.
  wire::MacAddr src_mac{};
  uint8_t vlan_tags = 0;
  // IP / UDP (RoCE).
  IpAddr src_ip{};
  IpAddr dst_ip{};
  bool ipv6 = false;
  uint8_t dscp = 0;
  wire::Ecn ecn = wire::Ecn::NotEct;
  uint16_t udp_sport = 0;
  // BTH and extended headers (RoCE).
  uint8_t opcode = 0;
  uint32_t dest_qpn = 0;
  uint32_t psn = 0;
  bool becn = false;
  bool fecn = false;
  bool ack_req = false;
  uint8_t aeth_syndrome = 0;  // for opcodes with an AETH
  uint32_t payload_bytes = 0;  // without pad; from the IP length when the frame was snapped
  IcrcCheck icrc = IcrcCheck::kNotChecked;
  // PFC.
  uint8_t pfc_vector = 0;
  std::array<uint16_t, 8> pfc_quanta{};
};

}  // namespace rtb::analyze
