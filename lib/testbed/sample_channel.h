// Samples leaving one lcore for the control thread (lib/realtime/README.md, Channels): a
// flow channel, a queue channel and a port occupancy channel, each single producer (the
// lcore's sampler), single consumer (the control thread, draining every control period).
// A full channel loses the sample and counts it (style habit 10: a counted event, never a
// block).
#pragma once

#include <cstdint>
#include <memory>

#include "realtime/channel.h"
#include "testbed/sampler.h"

namespace rtb::testbed {

class SampleChannel final : public SampleSink {
 public:
  // Room for many control periods of samples, on the heap: 8192 flow samples (about
  // 1.5 MB), 32768 queue samples (1.3 MB), 32768 port occupancies (0.8 MB).
  static constexpr size_t kFlowSlots = 8192;
  static constexpr size_t kQueueSlots = 32768;
  static constexpr size_t kDepthSlots = 32768;
  static constexpr uint64_t memory_bytes() {
    return kFlowSlots * sizeof(FlowSample) + kQueueSlots * sizeof(QueueSample) + kDepthSlots * sizeof(PortDepthSample);
  }

  // The sampler's lcore.
  void flow(const FlowSample& x) override { lost_flows_ += flows_->push(x) ? 0 : 1; }
  void queue(const QueueSample& x) override { lost_queues_ += queues_->push(x) ? 0 : 1; }
  void port_depth(const PortDepthSample& x) override { lost_depths_ += depths_->push(x) ? 0 : 1; }

  // The control thread: hands on what has arrived, in order, to `out`.
  void drain(SampleSink& out) {
    FlowSample f;
    while (flows_->pop(f)) out.flow(f);
    QueueSample q;
    while (queues_->pop(q)) out.queue(q);
    PortDepthSample d;
    while (depths_->pop(d)) out.port_depth(d);
  }

  // After the run.
  uint64_t lost_flows() const { return lost_flows_; }
  uint64_t lost_queues() const { return lost_queues_; }
  uint64_t lost_depths() const { return lost_depths_; }

 private:
  std::unique_ptr<realtime::Channel<FlowSample, kFlowSlots>> flows_ =
      std::make_unique<realtime::Channel<FlowSample, kFlowSlots>>();
  std::unique_ptr<realtime::Channel<QueueSample, kQueueSlots>> queues_ =
      std::make_unique<realtime::Channel<QueueSample, kQueueSlots>>();
  std::unique_ptr<realtime::Channel<PortDepthSample, kDepthSlots>> depths_ =
      std::make_unique<realtime::Channel<PortDepthSample, kDepthSlots>>();
  uint64_t lost_flows_ = 0;
  uint64_t lost_queues_ = 0;
  uint64_t lost_depths_ = 0;
};

}  // namespace rtb::testbed
