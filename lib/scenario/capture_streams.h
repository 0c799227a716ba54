// The RoCE data streams of a capture, message by message: what pattern "capture" replays
// (scenarios/README.md) and what `rocetb replay --closed-loop` compares the run with.
//
// A stream is the requester data of one RC connection as the tap saw it: SEND and RDMA
// WRITE packets, and RDMA READ responses (data the responder sends), keyed like
// `rocetb analyze` keys a QP: (source address, destination address, destination QPN).
// Messages are found by the BTH opcode (IBTA Vol. 1 §9.7.2: First, Middle..., Last, or
// Only, analyze/message_tracker.h); a packet whose PSN repeats one already passed is a
// retransmission (analyze/psn_tracker.h) and is not counted again.
//
// Messages cut by the capture are kept with the bytes seen, marked `cut`: a Middle or
// Last without its First starts one at its first packet (the capture began inside it), a
// message still open at the end, or interrupted by a new First, ends at its last packet.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "analyze/qp_stats.h"
#include "core/error.h"
#include "core/units.h"

namespace rtb::scenario {

struct CapturedMessage {
  uint64_t bytes = 0;  // payload bytes, without pad
  Time first;          // its first packet, from the capture's first frame
  Time last;           // its last packet
  bool cut = false;    // the capture does not hold all of it (see above)
};

struct CapturedStream {
  analyze::QpKey key;
  uint8_t dscp = 0;  // of its first packet
  std::vector<CapturedMessage> messages;  // in order of their first packet

  uint64_t bytes() const;
  Time first() const { return messages.front().first; }
  Time last() const;  // its last packet
};

struct CaptureStreams {
  std::string path;
  std::vector<analyze::IpAddr> endpoints;  // the streams' addresses, first-appearance order
  std::vector<CapturedStream> streams;     // in order of their first packet
  uint64_t frames = 0;
  uint64_t roce_frames = 0;
};

// Errors, each naming the file: unreadable, not pcap/pcapng, an unsupported link type,
// corrupt or truncated part way, or no RoCE data stream.
Expected<CaptureStreams> read_capture_streams(const std::string& path);

}  // namespace rtb::scenario
