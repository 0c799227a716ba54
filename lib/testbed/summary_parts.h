// The parts of the results model (summary.h), each from the counters over the window.
#pragma once

#include "results/summary.h"
#include "testbed/baseline.h"
#include "testbed/sampler.h"
#include "testbed/testbed.h"

namespace rtb::testbed {

// Counts that only realtime can make non-zero (an empty mbuf pool ends a virtual run)
// appear only in realtime summaries, so virtual ones keep their bytes.
inline bool realtime(const Testbed& t) { return t.scenario().run.clock == scenario::Clock::kRealtime; }

// One flow's figures (summary_flows.cc) but its throughput, which needs both ends
// (results/derive.h). The figures of an end this process does not have (a split
// realtime run) stay unknown: bytes delivered come from the receiver, the completion and
// counters from the sender.
results::FlowResult flow_result(const Testbed& t, const Baseline& b, uint32_t f);

// One switch's figures (summary_switch.cc), and what it adds to the run's counts.
results::SwitchResult switch_result(const Testbed& t, const SampleTotals& samples, const Baseline& b, uint32_t sw,
                                    Time end, results::Counts& counts);

}  // namespace rtb::testbed
