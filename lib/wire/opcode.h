// InfiniBand transport opcodes (IBTA Vol. 1 §9.2, Table 38 "OpCode Field") and which
// extended transport headers follow the BTH for each, as RoCEv2 carries them.
#pragma once

#include <cstdint>

namespace rtb::wire {

namespace op {
// Reliable Connection (transport bits 000).
inline constexpr uint8_t kSendFirst = 0x00;
inline constexpr uint8_t kSendMiddle = 0x01;
inline constexpr uint8_t kSendLast = 0x02;
inline constexpr uint8_t kSendLastImm = 0x03;
inline constexpr uint8_t kSendOnly = 0x04;
inline constexpr uint8_t kSendOnlyImm = 0x05;
inline constexpr uint8_t kWriteFirst = 0x06;
inline constexpr uint8_t kWriteMiddle = 0x07;
inline constexpr uint8_t kWriteLast = 0x08;
inline constexpr uint8_t kWriteLastImm = 0x09;
inline constexpr uint8_t kWriteOnly = 0x0A;
inline constexpr uint8_t kWriteOnlyImm = 0x0B;
inline constexpr uint8_t kReadRequest = 0x0C;
inline constexpr uint8_t kReadResponseFirst = 0x0D;
inline constexpr uint8_t kReadResponseMiddle = 0x0E;
inline constexpr uint8_t kReadResponseLast = 0x0F;
inline constexpr uint8_t kReadResponseOnly = 0x10;
inline constexpr uint8_t kAcknowledge = 0x11;
inline constexpr uint8_t kAtomicAcknowledge = 0x12;
inline constexpr uint8_t kCompareSwap = 0x13;
inline constexpr uint8_t kFetchAdd = 0x14;
inline constexpr uint8_t kSendLastInv = 0x16;
inline constexpr uint8_t kSendOnlyInv = 0x17;
// Transport bases: add to the RC operation code.
inline constexpr uint8_t kUc = 0x20;
inline constexpr uint8_t kUd = 0x60;
inline constexpr uint8_t kUdSendOnly = 0x64;
inline constexpr uint8_t kUdSendOnlyImm = 0x65;
// RoCEv2 Congestion Notification Packet (IBTA Annex A17 §A17.9.3; reference §2.1-2.2).
inline constexpr uint8_t kCnp = 0x81;
}  // namespace op

// Extended transport headers after the BTH, in wire order.
enum ExtFlags : uint8_t {
  kExtNone = 0,
  kExtDeth = 1 << 0,       // 8 B, UD
  kExtReth = 1 << 1,       // 16 B
  kExtAtomicEth = 1 << 2,  // 28 B
  kExtAeth = 1 << 3,       // 4 B
  kExtAtomicAck = 1 << 4,  // 8 B
  kExtImm = 1 << 5,        // 4 B
  kExtIeth = 1 << 6,       // 4 B
  kExtCnpPad = 1 << 7,     // 16 reserved bytes of a CNP
};

struct OpcodeInfo {
  bool known = false;
  uint8_t ext = kExtNone;  // ExtFlags
  uint8_t ext_bytes = 0;   // total length of the extended headers
  bool payload = false;    // may carry payload bytes
  const char* name = "reserved";
};

// The description of `opcode`; `known` is false for reserved and unsupported opcodes
// (RD transport, manufacturer-specific range except the CNP).
const OpcodeInfo& opcode_info(uint8_t opcode);

// Offsets of each extended header inside the extended-header block.
uint32_t ext_offset(uint8_t ext_flags, ExtFlags which);

}  // namespace rtb::wire
