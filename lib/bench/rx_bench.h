// `rocetb bench rx`: frames from a preloaded source into one host's receive path, ICRC
// checked, on one lcore against the clock.
//
//   net_pcap (rx_pcap = a capture of RDMA WRITE frames of `qps` QPs, infinite_rx)
//     --bridge (PSNs renumbered: psn_renumber.h)--> host: parse with full ICRC check,
//     responder (in-order PSN, delivery; ACKs when the frames ask for them)
//   host's sending direction (ACKs) --bridge--> net_null
//
// The PMD copies each captured frame into an mbuf of rocetb's pool, as a NIC receives
// it; the bridge then gives each frame its QP's next PSN and patches its ICRC (three table
// look-ups), so every frame is in sequence for its responder pass after pass. frames/s
// counts the data frames the responders accepted, over the wall time of the run.
#pragma once

#include <cstdint>
#include <string>

#include "bench/report.h"
#include "core/error.h"
#include "core/units.h"

namespace rtb::bench {

struct RxOptions {
  uint32_t qps = 1'000;          // receiving QPs (the capture's frames go round them)
  uint32_t payload = 1'024;      // RoCE path MTU: payload bytes per frame
  uint32_t frames = 4'096;       // frames in the source capture (replayed endlessly)
  uint32_t ack_every = 0;        // frames of a QP per AckReq (0: none asks for an ACK)
  bool check_icrc = true;        // the host verifies every frame's ICRC
  uint32_t burst = 64;           // catch-up polls per loop iteration
  Time catch_up = Time::us(5);
  unsigned lcore = 0;            // the EAL main lcore
  Time duration = Time::s(1);
  Rate rate = Rate::gbps(400);   // the host's wires
  std::string keep_capture;      // write the source capture here and keep it ("": a temp file)
};

// Refuses options the run could not honour, naming the option.
Status check_rx(const RxOptions& o);
uint64_t rx_pool_bytes(const RxOptions& o);
// Needs the EAL running on o.lcore, called on its thread.
Expected<BenchReport> run_rx(const RxOptions& o);

}  // namespace rtb::bench
