// The results folder of a run (design.md "Results"; issue 7):
//   summary.json     deterministic summary (summary.h)
//   run.json         wall time, speed, versions, commit, command line, EAL, pools
//   effective.json   the fully resolved scenario (sizes in bytes, times in ns)
//   flows.csv        per flow and sample: CC rate, achieved throughput, CC state fields
//   queues.csv       per switch queue in use and sample: depth, marks, drops, paused
//   warnings.txt     configuration warnings with their arithmetic (when any)
// and a short table for the terminal. flows.csv and queues.csv streamed into `dir` during
// the run (series_recorder.h) are only renamed into place here, in their turn; otherwise
// they are written from the samples the report kept.
#pragma once

#include <iosfwd>
#include <string>

#include "core/error.h"
#include "scenario/scenario.h"
#include "testbed/run.h"

namespace rtb::testbed {

Status write_results(const std::string& dir, const scenario::Scenario& s, const RunReport& r);

// Flows (the first `max_flows`), then totals.
void print_table(std::ostream& out, const RunReport& r, size_t max_flows = 16);

}  // namespace rtb::testbed
