// Text for the analyzer's results: addresses, opcodes and AETH syndromes as operators and
// Wireshark write them.
#pragma once

#include <cstdint>
#include <string>

#include "analyze/dissected.h"
#include "wire/bytes.h"

namespace rtb::analyze {

std::string ip_text(const IpAddr& a);          // "192.0.2.1" or "2001:db8::1" (RFC 5952)
std::string mac_text(const wire::MacAddr& m);  // "02:00:00:00:00:01"
std::string qpn_text(uint32_t qpn);            // "0x000123"
std::string opcode_text(uint8_t opcode);       // "0x04 RC SEND Only", "0x81 CNP"
// "0x60 NAK PSN sequence error", "0x2e RNR NAK (timer 14)" (IBTA Vol. 1 Table 43, 44)
std::string syndrome_text(uint8_t syndrome);

}  // namespace rtb::analyze
