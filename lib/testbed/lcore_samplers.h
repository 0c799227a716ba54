// The samplers of a realtime run, one owner per piece of state (style habit 7): one Sampler
// per lcore that holds hosts or switches, polled on that lcore, reading only the stages
// placed there and pushing into its own SampleChannel. The control thread drains every
// channel each control period; after the run the parts are joined into the order a single
// sampler gives (sample_merge.h), so flows.csv, queues.csv and summary.json keep their shape.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "testbed/sample_channel.h"
#include "testbed/sampler.h"
#include "testbed/testbed.h"

namespace rtb::testbed {

struct RunReport;

class LcoreSamplers final : public SampleTotals {
 public:
  LcoreSamplers(Testbed& t, Time interval, Time warmup, Time end);

  // Each sampler with its lcore, for the realtime scheduler.
  std::vector<Placed> placements() const;
  // The control thread, every control period and once after the run.
  void drain();
  // After the run: the joined samples into `r`.
  void finish(RunReport& r);
  // After the run: samples every channel lost to being full.
  uint64_t lost() const;
  // After finish(): {"incomplete_flow_samples", "flow_samples_after_end", "lcores":
  // [{"lcore", "flow_samples", "queue_samples", "flow_samples_lost", "queue_samples_lost"}]}
  // (samples as received).
  nlohmann::ordered_json to_json() const;

  // Each node's part from the sampler of its lcore.
  Baseline baseline() const override;
  DepthStats port_depth(uint32_t sw, uint16_t port) const override;
  uint64_t buffer_peak(uint32_t sw) const override;
  std::vector<std::string> cc_state_names() const;

 private:
  struct OnLcore {
    unsigned lcore;
    std::unique_ptr<SampleChannel> channel;
    std::unique_ptr<Sampler> sampler;
    std::vector<FlowSample> flows;  // drained so far (control thread)
    std::vector<QueueSample> queues;
  };
  const Sampler* owner_of_host(uint32_t h) const;
  const Sampler* owner_of_switch(uint32_t sw) const;

  const Testbed& t_;
  std::vector<OnLcore> lcores_;  // in lcore order
  uint64_t incomplete_ = 0;      // by finish()
  uint64_t after_end_ = 0;       // by finish()
};

}  // namespace rtb::testbed
