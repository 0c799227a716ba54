// The analyzer's results: summary.json, the CSVs and the terminal table (README.md in this
// folder lists every field). Everything is a function of the capture and the options:
// the same file gives byte-identical results.
#pragma once

#include <nlohmann/json.hpp>

#include <ostream>
#include <string>

#include "analyze/analyze_capture.h"
#include "core/error.h"
#include "core/out_folder.h"

namespace rtb::analyze {

nlohmann::json summary_json(const CaptureAnalysis& a);

// The files write_results writes (--force removes only these).
OwnedFiles results_files();

// Writes qps.csv, priorities.csv, timeline.csv, pfc_events.csv and, last, summary.json into
// `dir` (created when missing), each to a temporary name renamed into place.
Status write_results(const std::string& dir, const CaptureAnalysis& a);

void print_table(std::ostream& os, const CaptureAnalysis& a);

}  // namespace rtb::analyze
