// What the analyzer counts for one QP: frames sent to a destination QPN between one
// source and one destination address (the "destination QPN and address pair").
// A QP's data, the ACKs and NAKs its responder returns and the CNPs its notification
// point sends travel as different rows: RC packets name only their destination QP.
#pragma once

#include <algorithm>
#include <compare>
#include <cstdint>
#include <map>
#include <utility>
#include <vector>

#include "analyze/dissected.h"
#include "analyze/message_tracker.h"
#include "analyze/psn_tracker.h"
#include "analyze/timeline.h"
#include "core/units.h"

namespace rtb::analyze {

struct QpKey {
  uint32_t dest_qpn = 0;
  IpAddr src;
  IpAddr dst;
  constexpr auto operator<=>(const QpKey&) const = default;
};

struct QpKeyHash {
  size_t operator()(const QpKey& k) const;
};

// Frames per BTH opcode for the few opcodes one QP uses (a row stays small when a capture
// holds many QPs).
class OpcodeMix {
 public:
  void add(uint8_t opcode) {
    for (auto& [op, n] : counts_) {
      if (op == opcode) { ++n; return; }
    }
    counts_.emplace_back(opcode, 1);
  }
  // (opcode, frames), by opcode.
  std::vector<std::pair<uint8_t, uint64_t>> sorted() const {
    auto v = counts_;
    std::sort(v.begin(), v.end());
    return v;
  }

 private:
  std::vector<std::pair<uint8_t, uint64_t>> counts_;
};

struct QpStats {
  explicit QpStats(Time bin_width) : timeline(bin_width) {}

  uint64_t frames = 0;
  uint64_t wire_bytes = 0;     // frame lengths on the wire (as captured, without FCS)
  uint64_t payload_bytes = 0;  // RoCE payload, without pad
  Time first_ts;
  Time last_ts;
  OpcodeMix opcodes;
  uint64_t ce = 0;                       // frames with ECN = CE (RFC 3168)
  uint64_t becn = 0;                     // frames with the BTH BECN bit
  uint64_t cnps = 0;                     // CNPs sent to this QP (opcode 0x81)
  uint64_t acks = 0;
  std::map<uint8_t, uint64_t> naks;      // NAK and RNR NAK frames by AETH syndrome
  uint64_t icrc_valid = 0;
  uint64_t icrc_invalid = 0;
  uint64_t icrc_unchecked = 0;
  PsnTracker psn;
  MessageTracker messages;
  DurationStats ce_to_cnp;  // CE-marked frame of this QP -> the CNP that answered it
  Timeline timeline;

  double ce_fraction() const { return frames == 0 ? 0.0 : double(ce) / double(frames); }
};

}  // namespace rtb::analyze
