// `rocetb replay CAPTURE --to DEVICE`: the capture, read whole into memory, sent open loop
// into one DPDK port at the capture's timing, scaled, at a line rate or as fast as the port
// takes it, pass after pass (--loop), with each frame's timing error measured.
//
//   auto in = prepare_open_loop(options);     // no EAL: options, device string, capture
//   start the EAL with open_loop_eal_bytes(in.value()) on options.lcore
//   auto r = run_open_loop(in.value());        // pool, port, clock, send, counters
//
// Every error of either step comes before the first frame is sent (bad option, capture,
// device, or a frame the port cannot take); a replay that started ends with a result, which
// says when the port stalled (SendCounters::stalled).
#pragma once

#include <atomic>
#include <cstdint>
#include <string>

#include <nlohmann/json.hpp>

#include "core/error.h"
#include "ethport/port_spec.h"
#include "realtime/lateness_histogram.h"
#include "replay/loaded_capture.h"
#include "replay/open_loop_sender.h"
#include "replay/schedule.h"
#include "replay/timing.h"

namespace rtb::replay {

struct OpenLoopOptions {
  std::string capture;
  std::string device;   // ethport/port_spec.h: net_null0, net_pcap0,tx_pcap=F, a PCI address
  Timing timing;
  uint64_t loops = 1;   // passes over the capture, >= 1
  unsigned lcore = 0;   // the EAL's main lcore, the caller's thread
  uint16_t burst = 32;  // frames per rte_eth_tx_burst at most, 1..kMaxBurst
  const std::atomic<bool>* stop = nullptr;  // set (from a signal handler): end early
};

struct OpenLoopInput {
  OpenLoopOptions options;
  LoadedCapture capture;
  Schedule schedule;
};

struct OpenLoopResult {
  OpenLoopOptions options;
  std::string capture_link;       // "Ethernet (1)"
  uint64_t capture_frames = 0;
  uint64_t capture_bytes = 0;
  ConversionCounts conversion;
  uint64_t timestamps_backwards = 0;
  Time pass_length;               // the schedule's period (zero at top speed)
  uint32_t port_max_frame = 0;
  SendCounters sent;
  uint64_t wire_bytes = 0;        // the frames sent with FCS, preamble and IFG (min 84 each)
  realtime::LatenessHistogram timing_error;
  nlohmann::ordered_json port_stats;
  nlohmann::ordered_json clock;
  bool complete() const { return !sent.stalled && !sent.interrupted; }
};

// Errors (one line naming the option and value, or the file and frame): --loop 0, --burst
// out of range, a malformed device string, an unreadable, corrupt, truncated or empty
// capture, a frame that cannot be sent on Ethernet.
Expected<OpenLoopInput> prepare_open_loop(const OpenLoopOptions& options);

// DPDK memory the replay's pools take (the -m of its EAL, before its margin).
uint64_t open_loop_eal_bytes(const OpenLoopInput& in);

// Needs the EAL, on the lcore it was started on. Errors (nothing sent): the pool or the port
// cannot be made, a frame longer than the port takes (naming the frame).
Expected<OpenLoopResult> run_open_loop(const OpenLoopInput& in);

}  // namespace rtb::replay
