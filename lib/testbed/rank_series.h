// The time series of a virtual-time run across MPI ranks (runtime/ranks.h): each rank's
// sampler reads only its own partitions (a flow whose ends are on two ranks gives a part
// on each), and at every sample instant, which every rank reaches together, the flow and
// queue samples of that instant are gathered to rank 0. There a SampleMerger (the one a
// realtime run's lcores use, sample_merge.h) joins the parts and passes the series on in
// the order of one sampler that reads everything, so flows.csv and queues.csv come out
// byte for byte as in one process. Port occupancy samples stay on their rank: they feed
// that rank's summary of its own switches.
#pragma once

#include <memory>
#include <vector>

#include "runtime/ranks.h"
#include "testbed/sample_merge.h"
#include "testbed/sampler.h"
#include "testbed/series_recorder.h"
#include "testbed/testbed.h"

namespace rtb::testbed {

class RankSeries final : public SampleSink {
 public:
  // `local`: this rank's recorder (its port occupancies; on rank 0 also the merged series).
  RankSeries(runtime::Ranks& ranks, const Testbed& t, SeriesRecorder& local);

  void flow(const FlowSample& x) override { flows_.push_back(x); }
  void queue(const QueueSample& x) override { queues_.push_back(x); }
  void port_depth(const PortDepthSample& x) override { local_.port_depth(x); }

  // Every rank, after each sampler poll: this instant's samples to rank 0, joined there.
  void gather();
  // Every rank, after the run: the rest passed on (rank 0).
  void finish();

 private:
  runtime::Ranks& ranks_;
  SeriesRecorder& local_;
  std::unique_ptr<SampleMerger> merger_;  // rank 0 only
  std::vector<FlowSample> flows_;
  std::vector<QueueSample> queues_;
  runtime::Message message_;
};

// Every rank: the flows.csv columns of the run's algorithm state (cc_state_names()), from
// the first rank that sends a flow; on every rank, since any may have none.
std::vector<std::string> cc_state_names_everywhere(runtime::Ranks& ranks, const Testbed& t);

}  // namespace rtb::testbed
