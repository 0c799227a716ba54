// The time series of a realtime run put back together (lcore_samplers.h): each lcore's
// sampler gives the samples of what it owns, a flow whose ends are on two lcores a part
// from each. After the run the parts are joined and ordered as one sampler that read
// everything orders them (virtual time, sampler.h): by sample number, then flows by index
// and queues by (switch, port, queue), so flows.csv and queues.csv keep their shape.
#pragma once

#include <cstdint>
#include <vector>

#include "testbed/sampler.h"

namespace rtb::testbed {

struct MergedFlowSamples {
  std::vector<FlowSample> samples;
  // Samples left out because a part never came (lost to a full channel, or taken by one
  // lcore only because the run stopped between the two lcores' polls).
  uint64_t incomplete = 0;
  // Samples of ticks past the last one every lcore took (whole or not), left out so every
  // tick of the series has every flow, as one sampler's would.
  uint64_t after_end = 0;
};

// `parts_of_flow[f]`: the parts a whole sample of flow f has here (FlowSample::kSenderPart
// when this process has its sender, kReceiverPart when it has its receiver). A joined
// sample takes each field from the part that has it, and the later `at` of the two: the
// instant the sample was complete. The series ends at the last tick every lcore took.
MergedFlowSamples merge_flow_samples(const std::vector<std::vector<FlowSample>>& by_lcore,
                                     const std::vector<uint8_t>& parts_of_flow);

std::vector<QueueSample> merge_queue_samples(const std::vector<std::vector<QueueSample>>& by_lcore);

}  // namespace rtb::testbed
