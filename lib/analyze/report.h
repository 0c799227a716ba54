// The analyzer's results: summary.json, the CSVs and the terminal table (README.md in this
// folder lists every field). Everything is a function of the capture and the options:
// the same file gives byte-identical results.
#pragma once

#include <nlohmann/json.hpp>

#include <ostream>
#include <string>

#include "analyze/analyze_capture.h"
#include "core/error.h"

namespace rtb::analyze {

nlohmann::json summary_json(const CaptureAnalysis& a);

// Writes summary.json, qps.csv, priorities.csv, timeline.csv and pfc_events.csv into
// `dir` (created when missing).
Status write_results(const std::string& dir, const CaptureAnalysis& a);

void print_table(std::ostream& os, const CaptureAnalysis& a);

}  // namespace rtb::analyze
