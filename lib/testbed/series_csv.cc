#include "testbed/series_csv.h"

#include <charconv>
#include <cstdio>
#include <cstdlib>
#include <system_error>

#include "core/decimal_format.h"

namespace rtb::testbed {
namespace {

// Each field written by std::to_chars, or by its exact faster twin for doubles
// (core/decimal_format.h): the bytes printf's "%.6f" and "%.9g" give (exactly rounded,
// C11 7.21.6.1), with no format string to parse per row, which was most of a row's cost
// (the sampler writes one per flow per sample interval).
constexpr size_t kField = 330;  // the longest "%.6f" of a double: 309 digits, sign, point, 6

void append_field(std::string& out, char* buf, std::to_chars_result r) {
  if (r.ec != std::errc{}) {  // kField holds every value of every field: a field is never lost
    std::fprintf(stderr, "rocetb: internal error: a CSV field is longer than %zu characters\n", kField);
    std::abort();
  }
  out.append(buf, r.ptr);
}

void put(std::string& out, uint64_t value) {
  char buf[kField];
  append_field(out, buf, std::to_chars(buf, buf + kField, value));
}

void put_fixed6(std::string& out, double v) {
  char buf[kField];
  append_field(out, buf, to_chars_fixed(buf, buf + kField, v, 6));
}

void put_g9(std::string& out, double v) {
  char buf[kField];
  append_field(out, buf, to_chars_general(buf, buf + kField, v, 9));
}

}  // namespace

std::string flows_csv_header(const std::vector<std::string>& cc_state_names) {
  std::string out = "time_ns,flow,cc_rate_gbps,throughput_gbps,bytes_received,cnp_handled";
  for (const std::string& n : cc_state_names) out += "," + n;
  return out + "\n";
}

void append_flow_row(std::string& out, const FlowSample& x) {
  put(out, x.at.ns());
  out += ',';
  put(out, x.flow);
  out += ',';
  put_fixed6(out, x.cc_rate.gbps_f());
  out += ',';
  put_fixed6(out, x.throughput_gbps);
  out += ',';
  put(out, x.bytes_received);
  out += ',';
  put(out, x.cnp_handled);
  for (uint32_t i = 0; i < x.cc_state_count; ++i) {
    out += ',';
    put_g9(out, x.cc_state[i]);
  }
  out += '\n';
}

void append_queue_row(std::string& out, const QueueSample& q) {
  put(out, q.at.ns());
  const uint64_t fields[] = {q.sw, q.port, q.queue, q.depth_bytes, q.ecn_marked, q.drops, q.paused ? 1u : 0u, q.pfc_tx};
  for (const uint64_t f : fields) {
    out += ',';
    put(out, f);
  }
  out += '\n';
}

}  // namespace rtb::testbed
