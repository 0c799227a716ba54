// Why the switch dropped a frame. Every drop is counted under exactly one reason.
#pragma once

#include <cstdint>
#include <string_view>

namespace rtb::sw {

enum class DropReason : uint8_t {
  kIngressLimit,   // lossy PG over its shared limit, or the shared buffer full
  kHeadroomFull,   // lossless PG beyond its headroom: the headroom did not hold
  kEgressLimit,    // lossy queue over its egress admission limit
  kWred,           // WRED drop of a non-ECT frame
  kPfcWatchdog,    // PFC watchdog drop action (storming queue or its ingress PG)
  kNoRoute,        // no route for the destination address
  kUnsupported,    // not IPv4, not PFC, or too short to classify
  kCount
};
inline constexpr int kDropReasons = static_cast<int>(DropReason::kCount);

// Counter names, in the style of SONiC's drop counters (`show dropcounters`).
constexpr std::string_view drop_reason_name(DropReason r) {
  switch (r) {
    case DropReason::kIngressLimit: return "INGRESS_PG_LIMIT";
    case DropReason::kHeadroomFull: return "LOSSLESS_HEADROOM_FULL";
    case DropReason::kEgressLimit: return "EGRESS_QUEUE_LIMIT";
    case DropReason::kWred: return "WRED";
    case DropReason::kPfcWatchdog: return "PFC_WD";
    case DropReason::kNoRoute: return "NO_ROUTE";
    case DropReason::kUnsupported: return "UNSUPPORTED_FRAME";
    case DropReason::kCount: break;
  }
  return "?";
}

}  // namespace rtb::sw
