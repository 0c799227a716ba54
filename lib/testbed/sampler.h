// The time series of a run (design.md "Results"): a stage that wakes every sample
// interval and records, for every flow, the rate its algorithm set, the throughput it
// achieved over the interval and the algorithm's own state; and for every switch egress
// queue in use, its depth, ECN marks, drops and whether it is paused. It only reads the
// other stages (virtual time: one lcore, polled between them).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/units.h"
#include "runtime/stage.h"
#include "testbed/testbed.h"

namespace rtb::testbed {

struct FlowSample {
  Time at;
  uint32_t flow = 0;
  Rate cc_rate;
  double throughput_gbps = 0;  // achieved over the interval ending at `at`
  uint64_t bytes_received = 0;
  uint64_t cnp_handled = 0;
  std::vector<double> cc_state;  // the algorithm's state fields (cc_state_names())
};

struct QueueSample {
  Time at;
  uint32_t sw = 0;
  uint16_t port = 0;
  uint8_t queue = 0;
  uint64_t depth_bytes = 0;
  uint64_t ecn_marked = 0;  // cumulative
  uint64_t drops = 0;       // cumulative
  bool paused = false;      // a received PFC pause holds the queue
};

// Order statistics of a port's egress occupancy (all its queues), from the samples taken
// after the warm-up.
struct DepthStats {
  double mean = 0;
  uint64_t p50 = 0;
  uint64_t p99 = 0;
  uint64_t max = 0;
};

class Sampler final : public runtime::Stage {
 public:
  Sampler(Testbed& testbed, Time interval, Time warmup, Time end);

  void poll(Time now) override;
  Time next_deadline() const override { return next_; }

  const std::vector<FlowSample>& flow_samples() const { return flows_; }
  const std::vector<QueueSample>& queue_samples() const { return queues_; }
  std::vector<std::string> cc_state_names() const;
  // Payload bytes flow `f` had delivered when the warm-up ended (0 if it ended at 0).
  uint64_t bytes_at_warmup(uint32_t f) const { return at_warmup_[f]; }
  DepthStats port_depth(uint32_t sw, uint16_t port) const;

 private:
  void sample_flows(Time now);
  void sample_queues(Time now);

  Testbed& t_;
  Time interval_;
  Time warmup_;
  Time end_;
  Time next_;
  uint8_t priorities_ = 0;  // bit n: some flow uses priority n (its queues are recorded)
  std::vector<uint64_t> last_bytes_;
  std::vector<uint64_t> at_warmup_;
  bool warmup_taken_ = false;
  std::vector<FlowSample> flows_;
  std::vector<QueueSample> queues_;
  std::vector<std::vector<std::vector<uint64_t>>> depth_;  // [sw][port] -> samples
};

}  // namespace rtb::testbed
