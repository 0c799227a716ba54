// The samplers of a realtime run, one owner per piece of state (style habit 7): one Sampler
// per lcore that holds hosts or switches, polled on that lcore, reading only the stages
// placed there and pushing into its own SampleChannel. The control thread drains every
// channel each control period into a SampleMerger, which joins the parts into the order a
// single sampler gives (sample_merge.h) and passes them on to the results files as the run
// goes (series_recorder.h), so flows.csv, queues.csv and summary.json keep their shape.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "testbed/sample_channel.h"
#include "testbed/sample_merge.h"
#include "testbed/sampler.h"
#include "testbed/series_recorder.h"
#include "testbed/testbed.h"

namespace rtb::testbed {

class LcoreSamplers final : public SampleTotals {
 public:
  // The merged flow and queue samples go to `merged`, which passes them on to `out` (the
  // results files); port occupancies go to `out` directly.
  LcoreSamplers(Testbed& t, Time interval, Time warmup, Time end, SeriesRecorder& out, SampleSink& merged);

  // Each sampler with its lcore, for the realtime scheduler.
  std::vector<Placed> placements() const;
  // The control thread, every control period: what arrived, joined and passed on as far
  // as every lcore has gone.
  void drain();
  // After the run: the last drain and the rest of the series passed on.
  void finish();
  // After the run: samples every channel lost to being full.
  uint64_t lost() const;
  // After finish(): {"incomplete_flow_samples", "flow_samples_after_end", "late_samples",
  // "forced_ticks", "reorder_peak_samples", "lcores": [{"lcore", "flow_samples",
  // "queue_samples", "flow_samples_lost", "queue_samples_lost", "depth_samples_lost"}]}
  // (samples as received).
  nlohmann::ordered_json to_json() const;

  // Each node's part from the sampler of its lcore.
  Baseline baseline() const override;
  DepthStats port_depth(uint32_t sw, uint16_t port) const override;
  uint64_t buffer_peak(uint32_t sw) const override;

 private:
  // One lcore's samples as they are drained: counted, then to the merger (flows, queues)
  // or the occupancy statistics (ports).
  struct OnLcore final : SampleSink {
    size_t index = 0;
    unsigned lcore = 0;
    LcoreSamplers* owner = nullptr;
    std::unique_ptr<SampleChannel> channel;
    std::unique_ptr<Sampler> sampler;
    uint64_t flows = 0;  // received (control thread)
    uint64_t queues = 0;
    void flow(const FlowSample& x) override;
    void queue(const QueueSample& x) override;
    void port_depth(const PortDepthSample& x) override;
  };
  const Sampler* owner_of_host(uint32_t h) const;
  const Sampler* owner_of_switch(uint32_t sw) const;

  const Testbed& t_;
  SeriesRecorder& out_;
  std::vector<std::unique_ptr<OnLcore>> lcores_;  // in lcore order
  SampleMerger merger_;
};

}  // namespace rtb::testbed
