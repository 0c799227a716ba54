// Fixed addresses (design.md "Determinism"): a host's IP and MAC follow from its index.
//   IP  192.168.(1 + i / 254).(1 + i % 254)   (up to 254 x 254 hosts; or given)
//   MAC 02:72:74:00:<i >> 8>:<i & 0xff>        (locally administered, "rt")
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "wire/bytes.h"

namespace rtb::scenario {

inline constexpr uint32_t kMaxHosts = 254 * 254;

uint32_t default_host_ip(uint32_t index);  // host byte order
wire::MacAddr host_mac(uint32_t index);
// Dotted quad -> host byte order; nullopt unless exactly four numbers 0..255.
std::optional<uint32_t> parse_ipv4(std::string_view text);
std::string format_ipv4(uint32_t ip);
std::string format_mac(const wire::MacAddr& mac);

}  // namespace rtb::scenario
