#include "testbed/series_csv.h"

#include <fmt/format.h>

#include <iterator>

namespace rtb::testbed {

std::string flows_csv_header(const std::vector<std::string>& cc_state_names) {
  std::string out = "time_ns,flow,cc_rate_gbps,throughput_gbps,bytes_received,cnp_handled";
  for (const std::string& n : cc_state_names) out += "," + n;
  return out + "\n";
}

void append_flow_row(std::string& out, const FlowSample& x) {
  auto it = std::back_inserter(out);
  fmt::format_to(it, "{},{},{:.6f},{:.6f},{},{}", x.at.ns(), x.flow, x.cc_rate.gbps_f(), x.throughput_gbps,
                 x.bytes_received, x.cnp_handled);
  for (uint32_t i = 0; i < x.cc_state_count; ++i) fmt::format_to(it, ",{:.9g}", x.cc_state[i]);
  out += '\n';
}

void append_queue_row(std::string& out, const QueueSample& q) {
  fmt::format_to(std::back_inserter(out), "{},{},{},{},{},{},{},{},{}\n", q.at.ns(), q.sw, q.port, q.queue,
                 q.depth_bytes, q.ecn_marked, q.drops, q.paused ? 1 : 0, q.pfc_tx);
}

}  // namespace rtb::testbed
