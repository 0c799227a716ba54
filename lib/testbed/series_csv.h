// The rows of flows.csv and queues.csv (results.h), one sample each, appended to a text
// buffer: the same bytes whether the series is streamed to disk as the run goes
// (series_recorder.h) or written from samples kept in memory.
#pragma once

#include <string>
#include <vector>

#include "testbed/sampler.h"

namespace rtb::testbed {

// "time_ns,flow,cc_rate_gbps,throughput_gbps,bytes_received,cnp_handled" and the
// algorithm's state fields, with the line end.
std::string flows_csv_header(const std::vector<std::string>& cc_state_names);
inline constexpr const char* kQueuesCsvHeader = "time_ns,switch,port,queue,depth_bytes,ecn_marked,drops,paused,pfc_tx_frames\n";

void append_flow_row(std::string& out, const FlowSample& x);
void append_queue_row(std::string& out, const QueueSample& q);

}  // namespace rtb::testbed
