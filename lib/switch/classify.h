// What the switch needs to know about a received frame, read once from its bytes:
// a PFC frame's class-enable vector and quanta (802.1Qbb, reference §3.1), or an IPv4
// frame's traffic class (DSCP_TO_TC_MAP, or DOT1P_TO_TC_MAP when tagged and trusted), ECN
// field, header offset and 5-tuple. Uses the wire layer's header structs; the switch's
// own reading because it only needs these few fields on its fast path.
#pragma once

#include <array>
#include <cstdint>

#include "switch/config.h"
#include "switch/route_table.h"

namespace rtb::sw {

struct FrameInfo {
  enum class Kind : uint8_t { kIpv4, kPfc, kOther } kind = Kind::kOther;
  uint8_t tc = 0;
  uint8_t ecn = 0;        // RFC 3168 ECN field (0 = Not-ECT, 3 = CE)
  uint8_t l3_offset = 0;  // IPv4 header offset
  FlowKey key;
  bool roce_data = false;  // RoCEv2 (UDP 4791) with an opcode that carries payload
  uint8_t pfc_vector = 0;  // PFC: priorities whose time is valid
  std::array<uint16_t, kPriorities> pfc_quanta{};
};

FrameInfo classify(const uint8_t* frame, uint32_t len, const QosMaps& maps);

}  // namespace rtb::sw
