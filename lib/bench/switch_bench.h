// `rocetb bench switch`: frames from a preloaded source through one switch stage into
// net_null, on one lcore against the clock.
//
//   net_pcap (rx_pcap = a capture of RDMA WRITE frames, infinite_rx) --bridge--> port 0
//   switch (tuning-guide buffer, ECN and PFC: classify, MMU admission, WRED, PFC, the
//           egress scheduler) --port 1 at `rate`--> bridge --> net_null
//   port 0's own sending direction (the PFC frames it sends upstream) --> bridge --> net_null
//
// The PMD copies each captured frame into an mbuf of rocetb's pool, as it would receive
// it. frames/s is what the sink port accepted over the wall time.
#pragma once

#include <cstdint>
#include <string>

#include "bench/report.h"
#include "core/error.h"
#include "core/units.h"

namespace rtb::bench {

struct SwitchOptions {
  uint32_t payload = 1'024;      // RDMA WRITE payload of the built capture
  uint32_t frames = 1'024;       // frames in the built capture
  uint32_t burst = 64;           // catch-up polls per loop iteration
  Time catch_up = Time::us(5);
  unsigned lcore = 0;            // the EAL main lcore
  Time duration = Time::s(1);
  Rate rate = Rate::gbps(400);   // both switch ports
  std::string keep_capture;      // write the source capture here and keep it ("": a temp file)
};

// Refuses options the run could not honour, naming the option.
Status check_switch(const SwitchOptions& o);
uint64_t switch_pool_bytes(const SwitchOptions& o);
// Needs the EAL running on o.lcore, called on its thread.
Expected<BenchReport> run_switch(const SwitchOptions& o);

}  // namespace rtb::bench
