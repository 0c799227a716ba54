// The counters of the nodes a sampler reads, as they stood when the warm-up ended.
// summary.json counts every figure from here to the end of the run (counter_window.h):
// one window for all of them, the window the goodput and the queue percentiles use.
#pragma once

#include <cstdint>
#include <vector>

#include "host/host_counters.h"
#include "switch/counters.h"

namespace rtb::testbed {

class Testbed;
struct SampleScope;

struct Baseline {
  // Per host, flow and switch index; what is outside the scope stays zero (or empty).
  std::vector<host::HostCounters> hosts;
  std::vector<host::QpCounters> senders;       // the flow's source QP
  std::vector<uint64_t> sender_timeouts;       // its requester's ACK timer expiries
  std::vector<uint64_t> received;              // payload bytes the flow's destination had
  std::vector<sw::SwitchCounters> switches;
  // Frames the links' fault hooks dropped, when the scope has every node (a realtime
  // sampler of one lcore does not read other lcores' links: there it stays 0).
  uint64_t fault_drops = 0;

  // Sized for `t` with every counter zero: the baseline of a run without warm-up.
  static Baseline zero(const Testbed& t);
  // Reads the counters of the nodes in `scope` at `now`. Allocates (the switch counters'
  // port vectors): once per run, on the sampler's lcore.
  void take(const Testbed& t, const SampleScope& scope, Time now);
};

}  // namespace rtb::testbed
