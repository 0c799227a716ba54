#include "testbed/sample_merge.h"

#include <algorithm>
#include <tuple>

namespace rtb::testbed {
namespace {

template <class T>
std::vector<T> concatenate(const std::vector<std::vector<T>>& by_lcore) {
  std::vector<T> all;
  for (const auto& v : by_lcore) all.insert(all.end(), v.begin(), v.end());
  return all;
}

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

// The last tick every lcore that sampled flows took: the run stops on each lcore at its own
// loop boundary, so one may take the final tick and another not.
uint32_t last_common_tick(const std::vector<std::vector<FlowSample>>& by_lcore) {
  uint32_t last = UINT32_MAX;
  for (const auto& v : by_lcore) {
    if (v.empty()) continue;
    uint32_t mine = 0;
    for (const FlowSample& x : v) mine = std::max(mine, x.tick);
    last = std::min(last, mine);
  }
  return last;
}

}  // namespace

MergedFlowSamples merge_flow_samples(const std::vector<std::vector<FlowSample>>& by_lcore,
                                     const std::vector<uint8_t>& parts_of_flow) {
  const uint32_t last = last_common_tick(by_lcore);
  std::vector<FlowSample> all = concatenate(by_lcore);
  std::stable_sort(all.begin(), all.end(), [](const FlowSample& a, const FlowSample& b) {
    return std::tie(a.tick, a.flow) < std::tie(b.tick, b.flow);
  });
  MergedFlowSamples out;
  out.samples.reserve(all.size());
  for (size_t i = 0; i < all.size();) {
    FlowSample whole = all[i];
    size_t j = i + 1;
    for (; j < all.size() && all[j].tick == whole.tick && all[j].flow == whole.flow; ++j) join(whole, all[j]);
    if (whole.tick > last) {
      ++out.after_end;
    } else if (whole.parts == parts_of_flow[whole.flow]) {
      out.samples.push_back(whole);
    } else {
      ++out.incomplete;
    }
    i = j;
  }
  return out;
}

std::vector<QueueSample> merge_queue_samples(const std::vector<std::vector<QueueSample>>& by_lcore) {
  std::vector<QueueSample> all = concatenate(by_lcore);
  std::stable_sort(all.begin(), all.end(), [](const QueueSample& a, const QueueSample& b) {
    return std::tie(a.tick, a.sw, a.port, a.queue) < std::tie(b.tick, b.sw, b.port, b.queue);
  });
  return all;
}

}  // namespace rtb::testbed
