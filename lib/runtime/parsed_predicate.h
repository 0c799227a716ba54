// Fault-hook predicates on parsed fields: "drop every NAK", "corrupt
// CNPs of QP 0x101", "drop data frames with PSN 7". Wraps a predicate on wire::ParsedFrame
// into a LinkFaults::FramePredicate; frames that do not parse never match.
#pragma once

#include <functional>
#include <span>
#include <utility>

#include "runtime/link_faults.h"
#include "wire/parser.h"

namespace rtb::runtime {

inline FramePredicate on_parsed(std::function<bool(const wire::ParsedFrame&)> predicate,
                                wire::ParseOptions options = {}) {
  return [predicate = std::move(predicate), options](std::span<const uint8_t> frame) {
    wire::ParsedFrame f;
    return wire::parse_frame(frame.data(), static_cast<uint32_t>(frame.size()), options, f) ==
               wire::ParseError::Ok &&
           predicate(f);
  };
}

}  // namespace rtb::runtime
