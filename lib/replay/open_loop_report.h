// What an open-loop replay did, for people and for tools: a table, summary.json (the same
// object --json prints) and timing_error.csv (the histogram of per-frame timing error),
// written whole or not at all (core/write_file.h) into a folder made ready beforehand
// (core/out_folder.h).
#pragma once

#include <string>

#include <nlohmann/json.hpp>

#include "core/error.h"
#include "core/out_folder.h"
#include "realtime/lateness_histogram.h"
#include "replay/open_loop.h"

namespace rtb::replay {

// {"mode": "open_loop", "complete", "capture": {...}, "device", "timing": {...}, "loops",
//  "burst", "lcore", "sent": {...}, "timing_error": {...} or null at top speed,
//  "port": {...}, "clock": {...}}; lib/replay/README.md lists every field.
nlohmann::ordered_json to_json(const OpenLoopResult& r);

// A few lines: what was replayed where, what was sent and how fast, the timing error, the port.
std::string table(const OpenLoopResult& r);

// "bucket_start_ns,bucket_end_ns,frames": one line per non-empty bucket.
std::string timing_error_csv(const realtime::LatenessHistogram& h);

// summary.json and timing_error.csv.
OwnedFiles open_loop_results_files();
Status write_open_loop_results(const std::string& dir, const OpenLoopResult& r);

}  // namespace rtb::replay
