// Samples leaving one lcore for the control thread (lib/realtime/README.md, Channels): a
// flow channel and a queue channel, both single producer (the lcore's sampler), single
// consumer (the control thread, draining every control period). A full channel loses the
// sample and counts it (style habit 10: a counted event, never a block).
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "realtime/channel.h"
#include "testbed/sampler.h"

namespace rtb::testbed {

class SampleChannel final : public SampleSink {
 public:
  // Room for many control periods of samples: 8192 flow samples (about 1.5 MB), 32768
  // queue samples (1.3 MB), on the heap.
  static constexpr size_t kFlowSlots = 8192;
  static constexpr size_t kQueueSlots = 32768;

  // The sampler's lcore.
  void flow(const FlowSample& x) override { lost_flows_ += flows_->push(x) ? 0 : 1; }
  void queue(const QueueSample& x) override { lost_queues_ += queues_->push(x) ? 0 : 1; }

  // The control thread: appends what has arrived.
  void drain(std::vector<FlowSample>& flows, std::vector<QueueSample>& queues) {
    FlowSample f;
    while (flows_->pop(f)) flows.push_back(f);
    QueueSample q;
    while (queues_->pop(q)) queues.push_back(q);
  }

  // After the run.
  uint64_t lost_flows() const { return lost_flows_; }
  uint64_t lost_queues() const { return lost_queues_; }

 private:
  std::unique_ptr<realtime::Channel<FlowSample, kFlowSlots>> flows_ =
      std::make_unique<realtime::Channel<FlowSample, kFlowSlots>>();
  std::unique_ptr<realtime::Channel<QueueSample, kQueueSlots>> queues_ =
      std::make_unique<realtime::Channel<QueueSample, kQueueSlots>>();
  uint64_t lost_flows_ = 0;
  uint64_t lost_queues_ = 0;
};

}  // namespace rtb::testbed
