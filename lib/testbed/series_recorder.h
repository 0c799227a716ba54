// Where a run's time series go as it runs (design.md "Results"): flows.csv and queues.csv
// appended row by row to their temporary names in the results folder through fixed-size
// buffers (core/streamed_file.h), and the port occupancy statistics accumulated
// (depth_totals.h). Nothing grows with the run's length but the files on disk. The files
// are renamed into place by write_results (results.h), in its order, so the results folder
// keeps its rule: every file whole or not there, run.json last.
//
// A library caller or a test may also keep every sample in memory (SeriesRequest::keep),
// which does grow with the run; `rocetb run` never does.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/error.h"
#include "core/streamed_file.h"
#include "testbed/depth_totals.h"
#include "testbed/sampler.h"

namespace rtb::testbed {

struct SeriesRequest {
  std::string dir;   // non-empty: flows.csv and queues.csv are streamed into this folder
  bool keep = true;  // every sample also kept in memory (RunReport::flow_samples, queue_samples)

  static SeriesRequest to_folder(std::string dir) { return {std::move(dir), false}; }
  static SeriesRequest discard() { return {"", false}; }
};

class SeriesRecorder final : public SampleSink {
 public:
  // The files' temporaries are created here: "cannot write DIR/flows.csv: REASON".
  static Expected<std::unique_ptr<SeriesRecorder>> open(const SeriesRequest& r, const Testbed& t,
                                                        const std::vector<std::string>& cc_state_names);

  // In the series' order (one sampler's, or joined by sample_merge.h).
  void flow(const FlowSample& x) override;
  void queue(const QueueSample& x) override;
  void port_depth(const PortDepthSample& x) override;

  const DepthTotals& depth() const { return depth_; }
  bool streamed() const { return flows_.has_value(); }
  uint64_t flow_rows() const { return flow_rows_; }
  uint64_t queue_rows() const { return queue_rows_; }
  uint64_t csv_bytes() const;
  // The memory the recorder holds besides kept samples: its two buffers.
  uint64_t buffer_bytes() const;

  // At the end of the run: the rest written and flushed to the disk (a full disk is
  // reported here, naming the file).
  Status finish();
  // By write_results: the finished files renamed into place.
  Status commit_flows();
  Status commit_queues();

  std::vector<FlowSample> kept_flows;
  std::vector<QueueSample> kept_queues;

 private:
  SeriesRecorder(bool keep, DepthTotals depth) : keep_(keep), depth_(std::move(depth)) {}

  bool keep_;
  DepthTotals depth_;
  std::optional<StreamedFile> flows_;
  std::optional<StreamedFile> queues_;
  uint64_t flow_rows_ = 0;
  uint64_t queue_rows_ = 0;
};

}  // namespace rtb::testbed
