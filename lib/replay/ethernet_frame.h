// A captured frame as it goes onto an Ethernet port.
//
//   Ethernet (LINKTYPE 1): the bytes as captured.
//   Linux cooked SLL (113) / SLL2 (276), `tcpdump -i any`: the cooked header is replaced by
//     an Ethernet header. The cooked header keeps no destination MAC, so it is
//     kDefaultDstMac; the source is the cooked header's address when it is a 6-byte MAC,
//     else kDefaultSrcMac; the EtherType is the cooked protocol field, and any VLAN tags
//     libpcap put back after the cooked header stay in place.
//   raw IP (101, 228, 229): an Ethernet header kDefaultSrcMac -> kDefaultDstMac with
//     EtherType IPv4 or IPv6 (from the version nibble) is prepended.
//   anything else: refused, naming the link type.
// A frame the capture snapped (captured_len < original_len) is padded with zero bytes to
// its original length, so it takes its original wire time (counted: `padded`).
//
// The MACs are the project's sample requester and responder (wire/frame_samples.h,
// ../shared/captures/README.md): 02:00:00:00:00:01 -> 02:00:00:00:00:02.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "core/error.h"
#include "pcap/capture_reader.h"

namespace rtb::replay {

inline constexpr std::array<uint8_t, 6> kDefaultSrcMac{0x02, 0, 0, 0, 0, 0x01};
inline constexpr std::array<uint8_t, 6> kDefaultDstMac{0x02, 0, 0, 0, 0, 0x02};

struct ConversionCounts {
  uint64_t link_header_rebuilt = 0;  // SLL, SLL2 or raw IP frames given an Ethernet header
  uint64_t padded = 0;               // snapped frames padded to their original length
  uint64_t padding_bytes = 0;        // zero bytes added by that padding
};

// Whether frames of this link type can be replayed onto Ethernet.
bool replayable(capture::LinkType link);

// Writes frame `f` (its `data` and lengths; `number` 1-based, for messages)
// of `path`, whose link type is `link`, into `out` (resized) as an Ethernet frame.
// (Frame `number` (1-based, for messages) of `path` into `out` (resized) as an
// Ethernet frame. Errors (one line naming file and frame): a link type that cannot be
// replayed, a frame shorter than its link header, a cooked protocol that is not an
// EtherType (802.3 length or LLC frames).
Status to_ethernet(capture::LinkType link, const capture::FrameView& f, uint64_t number,
                   const std::string& path, std::vector<uint8_t>& out, ConversionCounts& counts);

}  // namespace rtb::replay
