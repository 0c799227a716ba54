// The results folder of a run (design.md "Results"):
//   summary.json     deterministic summary (summary.h)
//   run.json         wall time, speed, versions, commit, command line, EAL, pools
//   effective.json   the fully resolved scenario (sizes in bytes, times in ns)
//   flows.csv        per flow and sample: CC rate, achieved throughput, CC state fields
//   queues.csv       per switch queue in use and sample: depth, marks, drops, paused, PFC sent
//   warnings.txt     configuration warnings with their arithmetic (when any)
//   plot-*.png, report.html   drawn from these files by scripts/plot.py (lib/plots), unless
//                    `rocetb run --no-plots`
// and a short table for the terminal. flows.csv and queues.csv streamed into `dir` during
// the run (series_recorder.h) are only renamed into place here, in their turn; otherwise
// they are written from the samples the report kept.
#pragma once

#include <iosfwd>
#include <string>

#include <nlohmann/json.hpp>

#include "core/error.h"
#include "scenario/scenario.h"
#include "testbed/run.h"

namespace rtb::testbed {

Status write_results(const std::string& dir, const scenario::Scenario& s, const RunReport& r);

// write_results in two steps, so that something can be drawn from the files (the plots)
// before run.json, written last, marks the folder complete: every file but run.json, then
// run.json.
Status write_result_files(const std::string& dir, const scenario::Scenario& s, const RunReport& r);
Status write_run_json(const std::string& dir, const nlohmann::ordered_json& run);

// Flows (the first `max_flows`), then totals, then print_run_lines.
void print_table(std::ostream& out, const RunReport& r, size_t max_flows = 16);

// The run itself: simulated time against wall time, realtime lateness, the capture files.
void print_run_lines(std::ostream& out, const RunReport& r);

}  // namespace rtb::testbed
