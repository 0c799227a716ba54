#include "testbed/series_recorder.h"

#include "testbed/series_csv.h"

namespace rtb::testbed {

Expected<std::unique_ptr<SeriesRecorder>> SeriesRecorder::open(const SeriesRequest& r, const Testbed& t,
                                                               const std::vector<std::string>& cc_state_names) {
  std::vector<size_t> ports;
  for (const scenario::SwitchNode& sw : t.scenario().topology.switches) ports.push_back(sw.port_links.size());
  std::unique_ptr<SeriesRecorder> rec(new SeriesRecorder(r.keep, DepthTotals(ports)));
  if (r.dir.empty()) return rec;
  auto flows = StreamedFile::create(r.dir + "/flows.csv");
  if (!flows) return Error{flows.error().message};
  auto queues = StreamedFile::create(r.dir + "/queues.csv");
  if (!queues) return Error{queues.error().message};
  rec->flows_.emplace(std::move(flows).value());
  rec->queues_.emplace(std::move(queues).value());
  rec->flows_->append(flows_csv_header(cc_state_names));
  rec->queues_->append(kQueuesCsvHeader);
  return rec;
}

void SeriesRecorder::flow(const FlowSample& x) {
  ++flow_rows_;
  if (keep_) kept_flows.push_back(x);
  if (!flows_) return;
  append_flow_row(flows_->row(), x);
  flows_->row_done();
}

void SeriesRecorder::queue(const QueueSample& x) {
  ++queue_rows_;
  if (keep_) kept_queues.push_back(x);
  if (!queues_) return;
  append_queue_row(queues_->row(), x);
  queues_->row_done();
}

void SeriesRecorder::port_depth(const PortDepthSample& x) { depth_.add(x.sw, x.port, x.bytes); }

uint64_t SeriesRecorder::csv_bytes() const {
  return flows_ ? flows_->bytes() + queues_->bytes() : 0;
}

uint64_t SeriesRecorder::buffer_bytes() const {
  return flows_ ? flows_->buffer_capacity() + queues_->buffer_capacity() : 0;
}

Status SeriesRecorder::finish() {
  if (!flows_) return {};
  if (Status st = flows_->finish(); !st) return st;
  return queues_->finish();
}

Status SeriesRecorder::commit_flows() { return flows_ ? flows_->commit() : Status{}; }
Status SeriesRecorder::commit_queues() { return queues_ ? queues_->commit() : Status{}; }

}  // namespace rtb::testbed
