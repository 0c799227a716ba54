// The results model: what a run measured, as one typed value. Virtual, realtime and split
// runs fill it; summary.json, the terminal table and the merge of a split run's parts are
// all written from it (README.md beside this file is the schema, field by field).
//
// Every figure is over the window (after the warm-up) unless its name ends in _total.
// An optional figure is one this process could not know (the other end of a flow in a
// split run), or one that does not apply (no FCT for a flow that did not finish): null in
// summary.json.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "core/units.h"

namespace rtb::results {

// summary.json "schema_version": raised whenever a field changes meaning, is renamed or
// is removed (adding a field keeps it).
inline constexpr int kSchemaVersion = 1;

inline constexpr int kPriorities = 8;
using PerPriority = std::array<uint64_t, kPriorities>;

enum class Clock { kVirtual, kRealtime };

struct Window {
  Time from;
  Time to;
};

struct MessageCompletion {
  uint64_t mean_ns = 0, p99_ns = 0, max_ns = 0;
};

// A flow of several messages (scenario traffic with `messages`).
struct MessageFigures {
  uint64_t messages = 0;
  std::optional<uint64_t> completed;               // the sender's
  std::optional<MessageCompletion> completion_ns;  // none before one completed
};

struct FlowResult {
  uint32_t id = 0;
  std::string src, dst;
  Time start;
  std::optional<uint64_t> size_bytes;  // none: long-lived
  std::optional<Time> ideal_fct;       // ideal_fct.h of lib/testbed; finite flows only
  // The receiver's.
  std::optional<uint64_t> bytes, bytes_total;
  // The sender's.
  std::optional<uint32_t> qpn;
  std::optional<Time> fct;  // from its start to its last message's acknowledgement
  std::optional<double> fct_slowdown, goodput_gbps;
  std::optional<MessageFigures> messages;
  std::optional<uint64_t> cnp_handled, retransmissions, timeouts;
  std::optional<bool> failed;
  // Derived (derive.h): both ends' figures over the part of the window the flow ran in.
  std::optional<double> throughput_gbps;

  bool sender_known() const { return qpn.has_value(); }
};

// `show queue counters` and WRED/ECN counters of one egress queue.
struct QueueResult {
  uint8_t queue = 0;
  uint64_t packets = 0, bytes = 0, dropped_packets = 0, dropped_bytes = 0, ecn_marked = 0;
  uint64_t data_frames = 0, data_ecn_marked = 0;
  bool marks_ecn = false;  // its AQM marks ECT frames: its mark rate is a figure
  uint64_t watermark_bytes_total = 0;
};

// `show priority-group watermark` / drop counters of one ingress priority group.
struct PgResult {
  uint8_t pg = 0;
  uint64_t dropped_packets = 0, shared_watermark_bytes_total = 0, headroom_watermark_bytes_total = 0;
};

struct DepthFigures {
  double mean = 0;
  uint64_t p50 = 0, p99 = 0, max = 0;
};

struct PortResult {
  std::string name;
  uint64_t rx_frames = 0, rx_bytes = 0, tx_frames = 0, tx_bytes = 0;  // PFC frames apart
  PerPriority pfc_rx_frames{}, pfc_tx_frames{}, pause_ns{};
  uint64_t ecn_marked = 0, drops = 0;
  std::vector<std::pair<std::string, uint64_t>> drops_by_reason;  // the non-zero ones
  uint64_t queued_frames = 0;  // at the end
  uint64_t pfcwd_storms_detected = 0, pfcwd_storms_restored = 0;
  DepthFigures queue_bytes;
  std::vector<QueueResult> queues;  // those in use
  std::vector<PgResult> pgs;        // those in use
};

struct SwitchResult {
  std::string name;
  uint64_t buffer_peak_bytes = 0, buffer_watermark_bytes_total = 0;
  std::optional<uint64_t> pfc_nombuf;  // realtime only
  std::vector<PortResult> ports;
};

// mlx5's names (`ethtool -S`, hw_counters).
struct HostResult {
  std::string name;
  uint64_t np_cnp_sent = 0, np_ecn_marked_roce_packets = 0, rp_cnp_handled = 0, rp_cnp_ignored = 0;
  uint64_t out_of_sequence = 0, packet_seq_err = 0, local_ack_timeout_err = 0;
  uint64_t req_transport_retries_exceeded = 0, duplicate_request = 0;
  uint64_t rx_frames = 0, tx_frames = 0;
  PerPriority rx_pfc_frames{};
  uint64_t tx_pfc_frames = 0;
  std::optional<uint64_t> tx_nombuf_data, tx_nombuf_control;  // realtime only
};

// Counted by each process over its own nodes; a split run's parts add up.
struct Counts {
  uint64_t cnp_sent = 0, pfc_frames = 0, drops = 0, retransmissions = 0;
  uint64_t ecn_marked_total = 0, cnp_sent_total = 0, pfc_frames_total = 0, drops_total = 0;
  uint64_t retransmissions_total = 0;
};

// Derived (derive.h) from the flows and the switches.
struct Totals {
  double goodput_gbps = 0;
  Time goodput_span;
  std::optional<double> jain_fairness;
  double ecn_mark_rate = 0;
  uint64_t ecn_marked_data_frames = 0;
};

struct SlowdownPercentiles {
  double p50 = 0, p95 = 0, p99 = 0;
};

struct SizeGroup {
  uint64_t size_max_bytes = 0, flows = 0;
  SlowdownPercentiles slowdown;
};

struct FctSlowdown {
  uint64_t flows = 0;
  double mean = 0, max = 0;
  SlowdownPercentiles all;
  std::vector<SizeGroup> by_size;
};

struct Summary {
  std::string scenario;
  Clock clock = Clock::kVirtual;
  uint64_t seed = 0;
  Time duration, warmup;
  Window window;
  std::vector<FlowResult> flows;
  std::vector<SwitchResult> switches;
  std::vector<HostResult> hosts;
  Totals totals;
  Counts counts;
  std::optional<FctSlowdown> fct_slowdown;  // derived; none when no flow finished
  // A realtime run's process (realtime.role), or the processes a merged summary joins.
  std::optional<std::string> role;
  std::vector<std::string> roles;
  // Realtime: whether the lateness check passed, and why not.
  std::optional<bool> valid;
  std::optional<std::string> invalid_reason;
  // Whether the run reached its duration (false: a stop request ended it).
  std::optional<bool> complete;
};

}  // namespace rtb::results
