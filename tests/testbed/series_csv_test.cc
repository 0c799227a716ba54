// The rows of flows.csv and queues.csv hold what printf gives for the same fields ("%.6f"
// for the rates, "%.9g" for the algorithm's state), whatever writes them.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <limits>
#include <string>

#include "testbed/series_csv.h"

namespace rtb::testbed {
namespace {

std::string printf_row(const char* format, auto... values) {
  char buf[1024];
  std::snprintf(buf, sizeof buf, format, values...);
  return buf;
}

TEST(SeriesCsv, FlowRowIsWhatPrintfGives) {
  const double states[] = {0.999023438, 4e10, 1e-7, -0.0, 123456789.123456789, 1.0 / 3.0,
                           std::numeric_limits<double>::max(), std::numeric_limits<double>::denorm_min(),
                           5e-324 * 3, 0.5};
  const double throughputs[] = {14.7456, 0.0, 1e-9, 399.9999995, 1e300, -2.5};
  for (const double tp : throughputs) {
    FlowSample x;
    x.at = Time::ns(10'000);
    x.flow = 4'294'967'295u;
    x.cc_rate = Rate::bps(39'999'999'999);
    x.throughput_gbps = tp;
    x.bytes_received = 18'446'744'073'709'551'615ull;
    x.cnp_handled = 0;
    x.cc_state_count = static_cast<uint32_t>(std::size(states));
    for (size_t i = 0; i < std::size(states); ++i) x.cc_state[i] = states[i];
    std::string want = printf_row("%lld,%u,%.6f,%.6f,%llu,%llu", 10'000LL, x.flow, 39.999999999, tp,
                                  static_cast<unsigned long long>(x.bytes_received), 0ULL);
    for (const double s : states) want += printf_row(",%.9g", s);
    want += "\n";
    std::string got = "kept,";
    append_flow_row(got, x);
    EXPECT_EQ(got, "kept," + want) << "throughput " << tp;
  }
}

TEST(SeriesCsv, FlowRowWithoutStateEndsAfterTheCounters) {
  FlowSample x;
  x.at = Time::ns(1);
  x.cc_rate = Rate::gbps(400);
  std::string got;
  append_flow_row(got, x);
  EXPECT_EQ(got, "1,0,400.000000,0.000000,0,0\n");
}

TEST(SeriesCsv, QueueRowIsEveryFieldInOrder) {
  const QueueSample q{Time::ns(50'000), 3, 7, 65'535, 5, 1'048'576, 12, 0, true, 18'446'744'073'709'551'615ull};
  std::string got;
  append_queue_row(got, q);
  EXPECT_EQ(got, "50000,7,65535,5,1048576,12,0,1,18446744073709551615\n");
}

}  // namespace
}  // namespace rtb::testbed
