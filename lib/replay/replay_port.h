// A host's captured frames put back on its wire (`rocetb replay --through`): the stage
// that stands in for a host (testbed::HostStandIn). Each frame is due at its captured time;
// it starts then, or as soon after as the wire is free and its priority is not paused by
// PFC, as the sending NIC would have done (802.1Qbb: a paused priority starts no frame;
// other priorities go on). Frames of one priority keep their captured order. Frames that
// reach the host from the switch are counted and freed: the host is a sink.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "core/units.h"
#include "host/host.h"
#include "realtime/lateness_histogram.h"
#include "runtime/pool/mbuf_pool.h"
#include "runtime/stage.h"
#include "switch/config.h"

namespace rtb::replay {

// One frame to inject: bytes [offset, offset + length) of the frames' arena.
struct InjectedFrame {
  Time due;
  uint32_t offset = 0;
  uint32_t length = 0;
  uint8_t priority = 0;  // the traffic class the first switch gives it (pause compliance)
};

struct ReplayPortCounters {
  uint64_t frames_sent = 0;
  uint64_t bytes_sent = 0;
  uint64_t frames_delayed = 0;  // started after their due time
  Time delay_sum;               // started - due, over every frame sent
  realtime::LatenessHistogram delays;  // the same, per frame (its max() is exact)
  uint64_t frames_received = 0;
  uint64_t bytes_received = 0;
  uint64_t ce_received = 0;     // IPv4 frames with ECN = CE (RFC 3168)
  uint64_t pfc_received = 0;    // PFC frames from the switch
  std::array<uint64_t, sw::kPriorities> xoff_received{};  // per priority: nonzero quanta
};

class ReplayPort final : public runtime::Stage {
 public:
  // `arena` and `frames` (in due order) must outlive the stage; `maps` classify received
  // frames. Frames are copied into mbufs of `pool` as they start.
  ReplayPort(std::string name, const std::vector<uint8_t>& arena,
             const std::vector<InjectedFrame>& frames, host::PortLinks links,
             runtime::MbufPool& pool, const sw::QosMaps& maps);

  void poll(Time now) override;
  Time next_deadline() const override;

  const ReplayPortCounters& counters() const { return counters_; }
  uint64_t frames_unsent() const { return frames_.size() - counters_.frames_sent; }

 private:
  void receive(Time now);
  void transmit(Time now);
  // The priority whose head frame is due and may start now; kNone if none.
  uint8_t pick(Time now) const;
  void start(const InjectedFrame& f, Time now);

  static constexpr uint8_t kNone = 0xFF;
  const std::vector<uint8_t>& arena_;
  const std::vector<InjectedFrame>& frames_;
  host::PortLinks links_;
  runtime::MbufPool& pool_;
  sw::QosMaps maps_;
  // Per priority, the indices into frames_ of its frames and the next one to start.
  std::array<std::vector<uint32_t>, sw::kPriorities> queue_;
  std::array<size_t, sw::kPriorities> head_{};
  ReplayPortCounters counters_;
};

}  // namespace rtb::replay
