// Egress scheduling of one port's queues (SONiC SCHEDULER): strict-priority queues first,
// the highest queue number first; then deficit weighted round robin among the DWRR queues
// (Shreedhar & Varghese, "Efficient Fair Queuing using Deficit Round Robin", SIGCOMM
// 1995): the queue under the round-robin pointer gains weight x quantum bytes of credit
// when the pointer reaches it and sends while its head fits in the credit; an emptied
// queue loses its credit. The quantum is at least the largest frame, so each visit to a
// backlogged queue sends at least one frame.
#pragma once

#include <array>
#include <cstdint>

#include "switch/config.h"

namespace rtb::sw {

class EgressScheduler {
 public:
  EgressScheduler(const std::array<SchedulerConfig, kPriorities>& config, uint32_t quantum_bytes);

  // The queue to send from next, or -1. `eligible`: bit q set when queue q has a frame and
  // may start now; head_bytes[q]: its head frame's length.
  int select(uint8_t eligible, const std::array<uint32_t, kPriorities>& head_bytes);
  // The head of `queue` was sent; `now_empty` when nothing is left behind it.
  void on_sent(int queue, uint32_t bytes, bool now_empty);

 private:
  void advance();

  uint8_t strict_mask_ = 0;
  uint8_t dwrr_mask_ = 0;
  std::array<uint64_t, kPriorities> quantum_{};
  std::array<uint64_t, kPriorities> deficit_{};
  int cur_ = 0;
  bool fresh_ = true;  // the pointer just arrived at cur_: credit not yet given
};

}  // namespace rtb::sw
