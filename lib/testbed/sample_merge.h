// The time series of a realtime run put back together as it arrives (lcore_samplers.h):
// each lcore's sampler gives the samples of what it owns, a flow whose ends are on two
// lcores a part from each. The control thread hands each drained sample to a SampleMerger,
// which joins the parts and passes the series on (to the results files) in the order one
// sampler that read everything gives (virtual time, sampler.h): by sample number (tick),
// then flows by index and queues by (switch, port, queue), so flows.csv and queues.csv
// keep their shape.
//
// Streaming: a tick is passed on once every lcore that samples flows (queues) has sent a
// later tick: each lcore's channel is FIFO and its sampler takes ticks in order, so
// nothing of that tick can still come. Until then its samples wait in a reorder window of
// at most window_samples() samples; should an lcore fall so far behind that the window
// fills (its thread did not run for many ticks), the oldest tick is passed on with what
// arrived, and parts of it that come later are left out and counted (late). The memory is
// that window, whatever the run's length.
#pragma once

#include <cstdint>
#include <map>
#include <vector>

#include "testbed/sampler.h"

namespace rtb::testbed {

class SampleMerger {
 public:
  // The samples one kind may hold waiting: enough for every lcore's channel drained at
  // once twice over, and at least eight ticks of `per_tick` samples from each lcore.
  static uint64_t window_samples(uint64_t per_tick, uint64_t lcores);

  // `parts_of_flow[f]`: the parts a whole sample of flow f has here (FlowSample::kSenderPart
  // when this process has its sender, kReceiverPart when it has its receiver).
  // `flows_from[l]` / `queues_from[l]`: lcore l's sampler sends flow (queue) samples.
  // `window`: the reorder window's samples per kind (window_samples(); 0: unbounded).
  SampleMerger(std::vector<uint8_t> parts_of_flow, std::vector<bool> flows_from, std::vector<bool> queues_from,
               uint64_t window, SampleSink& out);

  // The control thread, in each lcore's order of arrival.
  void add(size_t lcore, const FlowSample& x);
  void add(size_t lcore, const QueueSample& x);
  // After a drain: passes on every tick all lcores have gone past.
  void release();
  // After the run: the rest. The flow series ends at the last tick every lcore that sent
  // flow samples took (each lcore stops at its own loop boundary); later samples are left
  // out and counted (after_end), so every tick has every flow, as one sampler's would.
  void finish();

  // Samples left out because a part never came (lost to a full channel, or taken by one
  // lcore only because the run stopped between the two lcores' polls).
  uint64_t incomplete() const { return incomplete_; }
  uint64_t after_end() const { return after_end_; }
  // Ticks passed on because the window was full; parts and queue samples that came after
  // their tick was passed on (left out).
  uint64_t forced_ticks() const { return forced_; }
  uint64_t late() const { return late_; }
  // The most samples (both kinds) the window held at once.
  uint64_t peak_pending() const { return peak_pending_; }

 private:
  void emit_flows(std::vector<FlowSample>& v);
  void emit_queues(std::vector<QueueSample>& v);
  void release_flows(uint32_t through);
  void release_queues(uint32_t through);
  static uint32_t ready(const std::vector<uint32_t>& seen, const std::vector<bool>& from);

  std::vector<uint8_t> parts_of_flow_;
  std::vector<bool> flows_from_, queues_from_;
  uint64_t window_;
  SampleSink& out_;
  std::vector<uint32_t> flow_tick_, queue_tick_;  // per lcore: the latest tick received
  std::map<uint32_t, std::vector<FlowSample>> flows_;  // tick -> parts waiting
  std::map<uint32_t, std::vector<QueueSample>> queues_;
  uint64_t pending_flows_ = 0, pending_queues_ = 0, peak_pending_ = 0;
  uint32_t flows_done_ = 0, queues_done_ = 0;  // ticks passed on, up to and including
  uint64_t incomplete_ = 0, after_end_ = 0, forced_ = 0, late_ = 0;
};

// The same for parts held whole (tests, and a run's parts gathered before joining).
struct MergedFlowSamples {
  std::vector<FlowSample> samples;
  uint64_t incomplete = 0;
  uint64_t after_end = 0;
};
MergedFlowSamples merge_flow_samples(const std::vector<std::vector<FlowSample>>& by_lcore,
                                     const std::vector<uint8_t>& parts_of_flow);
std::vector<QueueSample> merge_queue_samples(const std::vector<std::vector<QueueSample>>& by_lcore);

}  // namespace rtb::testbed
