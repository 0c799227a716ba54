#include "testbed/sample_merge.h"

#include <algorithm>
#include <tuple>

#include "testbed/sample_channel.h"

namespace rtb::testbed {
namespace {

// Adds `part`'s fields to `whole` (the same tick and flow).
void join(FlowSample& whole, const FlowSample& part) {
  whole.at = std::max(whole.at, part.at);
  if ((part.parts & FlowSample::kReceiverPart) != 0) {
    whole.throughput_gbps = part.throughput_gbps;
    whole.bytes_received = part.bytes_received;
  }
  if ((part.parts & FlowSample::kSenderPart) != 0) {
    whole.cc_rate = part.cc_rate;
    whole.cnp_handled = part.cnp_handled;
    whole.cc_state_count = part.cc_state_count;
    whole.cc_state = part.cc_state;
  }
  whole.parts |= part.parts;
}

// Collects what a merger passes on (merge_flow_samples, merge_queue_samples).
struct Collect final : SampleSink {
  std::vector<FlowSample> flows;
  std::vector<QueueSample> queues;
  void flow(const FlowSample& x) override { flows.push_back(x); }
  void queue(const QueueSample& x) override { queues.push_back(x); }
  void port_depth(const PortDepthSample&) override {}
};

}  // namespace

uint64_t SampleMerger::window_samples(uint64_t per_tick, uint64_t lcores) {
  const uint64_t slots = std::max(SampleChannel::kFlowSlots, SampleChannel::kQueueSlots);
  return std::max(2 * lcores * slots, 8 * lcores * per_tick);
}

SampleMerger::SampleMerger(std::vector<uint8_t> parts_of_flow, std::vector<bool> flows_from,
                           std::vector<bool> queues_from, uint64_t window, SampleSink& out)
    : parts_of_flow_(std::move(parts_of_flow)), flows_from_(std::move(flows_from)),
      queues_from_(std::move(queues_from)), window_(window), out_(out), flow_tick_(flows_from_.size(), 0),
      queue_tick_(queues_from_.size(), 0) {}

void SampleMerger::add(size_t lcore, const FlowSample& x) {
  if (x.tick <= flows_done_) {
    ++late_;
    return;
  }
  flow_tick_[lcore] = std::max(flow_tick_[lcore], x.tick);
  flows_[x.tick].push_back(x);
  ++pending_flows_;
  peak_pending_ = std::max(peak_pending_, pending_flows_ + pending_queues_);
}

void SampleMerger::add(size_t lcore, const QueueSample& x) {
  if (x.tick <= queues_done_) {
    ++late_;
    return;
  }
  queue_tick_[lcore] = std::max(queue_tick_[lcore], x.tick);
  queues_[x.tick].push_back(x);
  ++pending_queues_;
  peak_pending_ = std::max(peak_pending_, pending_flows_ + pending_queues_);
}

// The ticks every sending lcore has gone past: one less than the least latest tick.
uint32_t SampleMerger::ready(const std::vector<uint32_t>& seen, const std::vector<bool>& from) {
  uint32_t least = UINT32_MAX;
  for (size_t l = 0; l < seen.size(); ++l) {
    if (from[l]) least = std::min(least, seen[l]);
  }
  return least == UINT32_MAX ? 0 : (least == 0 ? 0 : least - 1);
}

void SampleMerger::release() {
  release_flows(ready(flow_tick_, flows_from_));
  release_queues(ready(queue_tick_, queues_from_));
  while (window_ != 0 && pending_flows_ > window_ && !flows_.empty()) {
    ++forced_;
    release_flows(flows_.begin()->first);
  }
  while (window_ != 0 && pending_queues_ > window_ && !queues_.empty()) {
    ++forced_;
    release_queues(queues_.begin()->first);
  }
}

void SampleMerger::release_flows(uint32_t through) {
  while (!flows_.empty() && flows_.begin()->first <= through) {
    auto node = flows_.extract(flows_.begin());
    pending_flows_ -= node.mapped().size();
    flows_done_ = node.key();
    emit_flows(node.mapped());
  }
}

void SampleMerger::release_queues(uint32_t through) {
  while (!queues_.empty() && queues_.begin()->first <= through) {
    auto node = queues_.extract(queues_.begin());
    pending_queues_ -= node.mapped().size();
    queues_done_ = node.key();
    emit_queues(node.mapped());
  }
}

// One tick's parts: joined per flow (in the order they came, lcore by lcore), whole
// samples passed on by flow index.
void SampleMerger::emit_flows(std::vector<FlowSample>& v) {
  std::stable_sort(v.begin(), v.end(), [](const FlowSample& a, const FlowSample& b) { return a.flow < b.flow; });
  for (size_t i = 0; i < v.size();) {
    FlowSample whole = v[i];
    size_t j = i + 1;
    for (; j < v.size() && v[j].flow == whole.flow; ++j) join(whole, v[j]);
    if (whole.parts == parts_of_flow_[whole.flow]) {
      out_.flow(whole);
    } else {
      ++incomplete_;
    }
    i = j;
  }
}

void SampleMerger::emit_queues(std::vector<QueueSample>& v) {
  std::stable_sort(v.begin(), v.end(), [](const QueueSample& a, const QueueSample& b) {
    return std::tie(a.sw, a.port, a.queue) < std::tie(b.sw, b.port, b.queue);
  });
  for (const QueueSample& q : v) out_.queue(q);
}

void SampleMerger::finish() {
  // The last tick every lcore that sent flow samples took.
  uint32_t last = UINT32_MAX;
  for (uint32_t t : flow_tick_) {
    if (t != 0) last = std::min(last, t);
  }
  release_flows(last);
  for (auto& [tick, v] : flows_) {
    std::vector<uint32_t> flows;
    for (const FlowSample& x : v) flows.push_back(x.flow);
    std::sort(flows.begin(), flows.end());
    after_end_ += static_cast<uint64_t>(std::unique(flows.begin(), flows.end()) - flows.begin());
  }
  flows_.clear();
  pending_flows_ = 0;
  release_queues(UINT32_MAX);
}

MergedFlowSamples merge_flow_samples(const std::vector<std::vector<FlowSample>>& by_lcore,
                                     const std::vector<uint8_t>& parts_of_flow) {
  Collect out;
  SampleMerger m(parts_of_flow, std::vector<bool>(by_lcore.size(), true), std::vector<bool>(by_lcore.size(), true), 0,
                 out);
  for (size_t l = 0; l < by_lcore.size(); ++l) {
    for (const FlowSample& x : by_lcore[l]) m.add(l, x);
  }
  m.finish();
  return {std::move(out.flows), m.incomplete(), m.after_end()};
}

std::vector<QueueSample> merge_queue_samples(const std::vector<std::vector<QueueSample>>& by_lcore) {
  Collect out;
  SampleMerger m({}, std::vector<bool>(by_lcore.size(), true), std::vector<bool>(by_lcore.size(), true), 0, out);
  for (size_t l = 0; l < by_lcore.size(); ++l) {
    for (const QueueSample& x : by_lcore[l]) m.add(l, x);
  }
  m.finish();
  return std::move(out.queues);
}

}  // namespace rtb::testbed
