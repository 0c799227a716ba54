// The time series of a run (design.md "Results"): a stage that wakes every sample
// interval and records, for every flow, the rate its algorithm set, the throughput it
// achieved over the interval and the algorithm's own state; and for every switch egress
// queue in use, its depth, ECN marks, drops and whether it is paused. It only reads the
// stages of its scope (style habit 7): in virtual time every stage (one thread, polled
// between them); in realtime those on its own lcore (lcore_samplers.h: one sampler per
// lcore, the parts of a flow's sample joined after the run by sample_merge.h).
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "cc_algos/rocetb_cc.h"
#include "core/units.h"
#include "runtime/stage.h"
#include "testbed/baseline.h"
#include "testbed/depth_totals.h"
#include "testbed/testbed.h"

namespace rtb::testbed {

// Plain values (trivially copyable): in realtime runs samples cross from the worker lcore
// to the control thread through a lock-free channel.
struct FlowSample {
  // What a sampler fills in: the sender's side (rate, CNPs, CC state) and the receiver's
  // (bytes, throughput). A sampler that reads both ends gives both parts.
  static constexpr uint8_t kSenderPart = 1;
  static constexpr uint8_t kReceiverPart = 2;

  Time at;
  uint32_t tick = 0;  // the sample's number: at the tick-th sample interval, from 1
  uint32_t flow = 0;
  uint8_t parts = 0;  // kSenderPart | kReceiverPart: the fields below that are filled in
  Rate cc_rate;
  double throughput_gbps = 0;  // achieved over the interval ending at `at`
  uint64_t bytes_received = 0;
  uint64_t cnp_handled = 0;
  uint32_t cc_state_count = 0;  // the algorithm's state fields (cc_state_names())
  std::array<double, RTB_CC_MAX_STATE_FIELDS> cc_state{};
};

struct QueueSample {
  Time at;
  uint32_t tick = 0;  // as FlowSample::tick
  uint32_t sw = 0;
  uint16_t port = 0;
  uint8_t queue = 0;
  uint64_t depth_bytes = 0;
  uint64_t ecn_marked = 0;  // cumulative
  uint64_t drops = 0;       // cumulative
  bool paused = false;      // a received PFC pause holds the queue
  uint64_t pfc_tx = 0;      // cumulative: PFC frames the port sent for priority `queue`
};

// A port's egress occupancy (all its queues) at a sample after the warm-up: what the
// summary's queue_bytes statistics are made of (depth_totals.h). Not in queues.csv, which
// has only the queues of the priorities flows use.
struct PortDepthSample {
  uint32_t tick = 0;
  uint32_t sw = 0;
  uint16_t port = 0;
  uint64_t bytes = 0;
};

// The hosts and switches a sampler reads: every one this process built (virtual time), or
// only those placed on one lcore (realtime, where each lcore samples what it owns).
struct SampleScope {
  std::vector<bool> hosts;     // per host index
  std::vector<bool> switches;  // per switch index

  static SampleScope all(const Testbed& t);
  static SampleScope on_lcore(const Testbed& t, unsigned lcore);
  bool empty() const;
};

// What summary.json needs from the time series besides the counters (summary.h).
class SampleTotals {
 public:
  virtual ~SampleTotals() = default;
  // The counters when the warm-up ended (all zero without warm-up), of every node this
  // process has.
  virtual Baseline baseline() const = 0;
  virtual DepthStats port_depth(uint32_t sw, uint16_t port) const = 0;
  // The highest shared-pool occupancy (ingress_lossless_pool) sampled after the warm-up.
  virtual uint64_t buffer_peak(uint32_t sw) const = 0;
};

// Where samples go, in the order they are taken: to the results files as the run goes
// (virtual time: series_recorder.h), or to a channel that the control thread drains
// (realtime: sample_channel.h). Called on the sampler's lcore. The sampler keeps none.
class SampleSink {
 public:
  virtual ~SampleSink() = default;
  virtual void flow(const FlowSample& x) = 0;
  virtual void queue(const QueueSample& x) = 0;
  virtual void port_depth(const PortDepthSample& x) = 0;
};

// The names of the algorithm's state fields (flows.csv columns), from the first flow this
// process sends.
std::vector<std::string> cc_state_names(const Testbed& t);

class Sampler final : public runtime::Stage {
 public:
  // Virtual time: every node.
  Sampler(Testbed& testbed, Time interval, Time warmup, Time end, SampleSink& sink);
  // Realtime: the nodes of `scope`. Sampling allocates nothing: its state is sized here.
  Sampler(std::string name, Testbed& testbed, SampleScope scope, Time interval, Time warmup,
          Time end, SampleSink& sink);

  void poll(Time now) override;
  Time next_deadline() const override { return next_; }

  // Flows and switches outside the scope read 0.
  const Baseline& own_baseline() const { return baseline_; }
  uint64_t buffer_peak(uint32_t sw) const { return buffer_peak_[sw]; }

 private:
  void take_warmup(Time now);
  void sample_flows(Time now);
  void sample_queues(Time now);

  Testbed& t_;
  SampleScope scope_;
  SampleSink& sink_;
  Time interval_;
  Time warmup_;
  Time end_;
  Time next_;
  uint32_t tick_ = 0;
  uint8_t priorities_ = 0;  // bit n: its queues are recorded (scenario::sampled_priorities)
  std::vector<uint64_t> last_bytes_;
  Baseline baseline_;
  std::vector<uint64_t> buffer_peak_;  // per switch
  bool warmup_taken_ = false;
};

}  // namespace rtb::testbed
