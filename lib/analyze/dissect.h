// One captured frame to a Dissected: link layer (link_layer.h), IPv4 or IPv6, UDP, and
// for UDP destination port 4791 (whatever the source port) the RoCEv2 BTH, its extended
// headers and the ICRC; or a MAC Control frame (PFC, PAUSE).
//
// Never reads outside [data, data + captured_len): every header is checked against the
// bytes captured before it is read, and every length field against the bytes it claims.
// A frame cut by the capture's snap length (captured_len < wire_len) is analysed from the
// headers it kept, its payload size taken from the IP length and its ICRC not checked.
//
// Hardware habits the dissector accepts (../shared/captures README): reserved bits of BTH
// byte 4 set (they are masked by the ICRC and ignored), UDP checksum 0, any UDP source port.
#pragma once

#include <cstdint>

#include "analyze/dissected.h"
#include "pcap/link_type.h"

namespace rtb::analyze {

inline constexpr uint16_t kRoceUdpPort = 4791;  // IBTA Annex A17.2.4 (RoCEv2)

void dissect(capture::LinkType link, const uint8_t* data, uint32_t captured_len,
             uint32_t wire_len, Dissected& out);

}  // namespace rtb::analyze
