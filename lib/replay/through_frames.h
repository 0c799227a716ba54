// A capture made ready to pass through a scenario's switches (`rocetb replay --through`):
// every RoCEv2 frame over IPv4 becomes a frame of the scenario's host that its source
// address maps to (scenario/capture_endpoints.h), due at its captured time (divided by the
// speed factor) from the capture's first frame. Its Ethernet header is the scenario's (the
// source host's MAC to the destination host's, an 802.1Q tag kept with its PCP when the
// captured frame had one), its IPv4 addresses the two hosts', the IPv4 checksum and the
// ICRC computed again over the new bytes (IBTA Annex A17.3.3), the UDP checksum zero
// (RFC 768 for IPv4; the ICRC masks it). A frame the snap length cut is padded with zeros
// to its IP length. Nothing else changes: DSCP, ECN, BTH, payload.
//
// Not injected, counted by reason: PFC and PAUSE frames (the model's switches and stand-in
// hosts make their own), RoCEv2 over IPv6 (the scenario's hosts are IPv4), other and
// malformed frames.
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "core/error.h"
#include "core/units.h"
#include "replay/replay_port.h"
#include "scenario/capture_endpoints.h"
#include "scenario/scenario.h"

namespace rtb::replay {

struct ThroughOptions {
  double speed = 1.0;  // captured gaps divided by this
  std::vector<std::pair<std::string, std::string>> map;  // ADDRESS -> host name
  // A capture taken at several points (both ends of a link, a mirror of every port,
  // `rocetb run --capture all`) holds a frame once per point. With a window, a frame whose
  // IP packet equals (ECN field and IPv4 checksum aside: switches rewrite them) one seen at
  // most this long before is that frame again, and is not injected. A retransmission
  // inside the window is identical too and is lost with it: keep the window below the
  // fabric's retransmission time. Zero: every frame is injected.
  Time dedup_window = Time::zero();
};

struct ThroughFrames {
  std::vector<uint8_t> arena;                       // every rewritten frame, back to back
  std::vector<std::vector<InjectedFrame>> per_host; // by host index, in due order
  scenario::EndpointMap endpoints;
  uint64_t frames_read = 0;
  uint64_t injected = 0;
  uint64_t padded = 0;           // snapped frames padded to their IP length
  uint64_t skipped_pfc = 0;      // PFC and 802.3x PAUSE
  uint64_t skipped_ipv6 = 0;
  uint64_t skipped_other = 0;    // not RoCEv2
  uint64_t skipped_malformed = 0;
  uint64_t skipped_duplicate = 0;  // seen again within the dedup window
  uint32_t largest_frame = 0;
  Time last_due;
  std::string read_error;  // a truncated or corrupt file: the frames before the fault are kept
};

// The QoS maps of the switch port at the far end of a host's cable (the port's own or its
// switch's; the defaults when the cable goes straight to another host): they give each
// injected frame its priority.
const sw::QosMaps& first_hop_maps(const scenario::Scenario& s, uint32_t host);

Expected<ThroughFrames> load_through_frames(const std::string& path, const scenario::Scenario& s,
                                            const ThroughOptions& options);

}  // namespace rtb::replay
